#!/usr/bin/env python3
"""PostToolUse hook: append the written file and the plugin's folder to .claude/doc-writes.log."""
import json
import os
import sys

data = json.load(sys.stdin)
response = data.get("tool_response") or {}
path = response.get("filePath") or data.get("tool_input", {}).get("file_path", "?")
project = os.environ["CLAUDE_PROJECT_DIR"]
root = os.environ.get("CLAUDE_PLUGIN_ROOT", "unset")
rel = os.path.relpath(path, project)
where = "inside" if os.path.exists(os.path.join(root, "scripts", "record_write.py")) else "lost"
os.makedirs(os.path.join(project, ".claude"), exist_ok=True)
with open(os.path.join(project, ".claude", "doc-writes.log"), "a") as log:
    log.write(f"{data['hook_event_name']} {data['tool_name']} {rel} plugin-root={where}\n")
