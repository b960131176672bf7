#!/usr/bin/env bash
# PreToolUse: asks the user, with context for the model.
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Writes outside src/","additionalContext":"src/ is the only writable tree"}}'
