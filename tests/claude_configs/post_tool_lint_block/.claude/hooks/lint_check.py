#!/usr/bin/env python3
"""PostToolUse (Edit|Write): a linter gate; a TODO in written Python sends feedback with decision block."""
import json, sys

data = json.load(sys.stdin)
path = data["tool_input"].get("file_path", "")
content = data["tool_input"].get("content") or data["tool_input"].get("new_string") or ""
if path.endswith(".py") and "TODO" in content:
    print(json.dumps({"decision": "block", "reason": f"lint: {path.split('/')[-1]} has a TODO; resolve it"}))
sys.exit(0)
