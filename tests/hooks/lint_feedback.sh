#!/usr/bin/env bash
# PostToolUse on Edit: tells the model to fix the file it just edited, in JSON.
file=$(grep -o '"file_path":"[^"]*"' | cut -d'"' -f4)
printf '{"decision":"block","reason":"Lint failed in %s","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Run make lint"}}\n' "$file"
