#!/usr/bin/env python3
"""SubagentStop: what the subagent's own transcript (agent_transcript_path) holds."""
import json, os, sys

data = json.load(sys.stdin)
with open(data["agent_transcript_path"]) as transcript:
    lines = [json.loads(raw) for raw in transcript if raw.strip()]
said = [b["text"] for l in lines if l["type"] == "assistant"
        for b in l["message"]["content"] if b.get("type") == "text"]
out = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".claude", "subagent_seen.json")
with open(out, "w") as f:
    json.dump({
        "agent_id": data["agent_id"],
        "agent_type": data["agent_type"],
        "main": data["transcript_path"],
        "prompt": lines[0]["message"]["content"],
        "sidechain": sorted({l["isSidechain"] for l in lines}),
        "agentIds": sorted({l.get("agentId") for l in lines}),
        "tools": [b["name"] for l in lines if l["type"] == "assistant"
                  for b in l["message"]["content"] if b.get("type") == "tool_use"],
        "stdout": [l["toolUseResult"]["stdout"] for l in lines if isinstance(l.get("toolUseResult"), dict)],
        "last": said[-1] if said else None,
    }, f)
