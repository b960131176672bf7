#!/usr/bin/env python3
"""A PermissionRequest hook as Claude Code users write them: it answers by the command asked about."""
import json
import os
import sys

event = json.load(sys.stdin)
command = event["tool_input"]["command"]
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".claude", "asked.txt"), "a") as log:
    log.write(command + "\n")


def answer(decision):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}))


if command == "touch rewrite-me":
    answer({"behavior": "allow", "updatedInput": {"command": "touch rewritten.txt"}})
elif command == "touch smuggle":
    answer({"behavior": "allow", "updatedInput": {"command": "touch secret-denied.txt"}})
elif command.startswith("mkdir "):
    answer({
        "behavior": "allow",
        "updatedPermissions": [{
            "type": "addRules",
            "rules": [{"toolName": "Bash", "ruleContent": "mkdir:*"}],
            "behavior": "allow",
            "destination": "localSettings",
        }],
    })
elif command == "touch bad-input":
    answer({"behavior": "allow", "updatedInput": {"cmd": "touch never.txt"}})
elif command == "touch stop-here":
    answer({"behavior": "deny", "message": "Stop everything, said the hook", "interrupt": True})
