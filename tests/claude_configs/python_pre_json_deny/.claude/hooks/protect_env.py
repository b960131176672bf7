#!/usr/bin/env python3
"""PreToolUse: keeps the agent away from .env files with a JSON permissionDecision."""
import json, sys

data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path", "")
if path.endswith(".env"):
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "Secrets in .env are off limits",
    }}))
sys.exit(0)
