#!/usr/bin/env python3
"""Stop: reads the transcript once and sends the agent back with what it found (state in .claude/)."""
import json, os, sys

data = json.load(sys.stdin)
state = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".claude", "stop_state")
if os.path.exists(state):
    sys.exit(0)
with open(state, "w") as f:
    f.write("fed back\n")
lines = [json.loads(line) for line in open(data["transcript_path"]) if line.strip()]
last = None
for line in lines:
    if line["type"] == "assistant":
        for block in line["message"]["content"]:
            if block.get("type") == "text":
                last = block["text"]
tools = [b["name"] for l in lines if l["type"] == "assistant"
         for b in l["message"]["content"] if b.get("type") == "tool_use"]
print(json.dumps({"hookSpecificOutput": {
    "hookEventName": "Stop",
    "additionalContext": f"Transcript: {len(lines)} lines, tools {','.join(tools)}, last said: {last}",
}}))
