#!/usr/bin/env python3
"""PostToolUse (Write|Edit): logs each file written, from tool_response.filePath."""
import json, os, sys

data = json.load(sys.stdin)
response = data["tool_response"]
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".claude", "files.txt"), "a") as out:
    out.write(f"{data['tool_name']} {response.get('type', 'edit')} {response['filePath']}\n")
