#!/usr/bin/env bash
# PreToolUse: approves with the deprecated top-level decision field.
echo '{"decision": "approve", "reason": "Read-only command"}'
