#!/usr/bin/env python3
"""UserPromptSubmit: blocks prompts that carry a password (decision: block)."""
import json, re, sys

data = json.load(sys.stdin)
if re.search(r"password\s*=", data["prompt"], re.I):
    print(json.dumps({"decision": "block", "reason": "Prompt contains a password"}))
sys.exit(0)
