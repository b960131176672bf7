#!/usr/bin/env python3
"""Stop: the last assistant message's text and usage, and the session's token totals counted as
usage tools count them (one answer per message id and request id), from transcript_path."""
import json, os, sys
from datetime import datetime

data = json.load(sys.stdin)
last, seen, sidechain = None, set(), False
totals = {"input_tokens": 0, "output_tokens": 0,
          "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
with open(data["transcript_path"]) as transcript:
    for raw in transcript:
        entry = json.loads(raw)
        sidechain = sidechain or entry.get("isSidechain", False)
        datetime.fromisoformat(entry["timestamp"].replace("Z", "+00:00"))
        if entry.get("type") != "assistant":
            continue
        message = entry["message"]
        text = "".join(b["text"] for b in message["content"] if b.get("type") == "text")
        if text:
            last = {"text": text, "model": message["model"], "id": message["id"],
                    "requestId": entry.get("requestId"), "timestamp": entry["timestamp"],
                    "usage": message["usage"], "userType": entry["userType"],
                    "version": entry.get("version"), "gitBranch": entry.get("gitBranch")}
        key = (message["id"], entry.get("requestId"))
        if key in seen:
            continue
        seen.add(key)
        for name in totals:
            totals[name] += message["usage"].get(name) or 0
out = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".claude", "stop_seen.json")
with open(out, "w") as f:
    json.dump({"last": last, "totals": totals, "sidechain": sidechain}, f)
