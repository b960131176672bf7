#!/usr/bin/env python3
"""Stop: a "task finished" notification with the last reply and the session's token count, read
from transcript_path as usage trackers read it (one count per message id and request id)."""
import json, os, sys

data = json.load(sys.stdin)
last, seen, tokens = None, set(), 0
with open(data["transcript_path"]) as f:
    for raw in f:
        entry = json.loads(raw)
        if entry.get("type") != "assistant" or entry.get("isSidechain"):
            continue
        msg = entry["message"]
        text = "".join(b.get("text", "") for b in msg["content"] if b.get("type") == "text")
        if text:
            last = (text, msg["model"], entry["timestamp"])
        key = (msg["id"], entry.get("requestId"))
        if key not in seen:
            seen.add(key)
            usage = msg["usage"]
            tokens += usage["input_tokens"] + usage["output_tokens"]
            tokens += usage.get("cache_read_input_tokens") or 0
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".claude", "notified.txt"), "w") as f:
    f.write(f"Done: {last[0]} ({last[1]}, {last[2]}) after {len(seen)} replies, {tokens} tokens\n")
