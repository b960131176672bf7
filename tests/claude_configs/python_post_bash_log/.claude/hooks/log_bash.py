#!/usr/bin/env python3
"""PostToolUse (Bash): logs each command and what it printed, as published command loggers do."""
import json, os, sys

data = json.load(sys.stdin)
resp = data.get("tool_response") or {}
log = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".claude", "bash-log.txt")
with open(log, "a") as f:
    f.write(f"{data['tool_input']['command']} => {resp.get('stdout', '').strip()} (stderr={resp.get('stderr', '')!r})\n")
