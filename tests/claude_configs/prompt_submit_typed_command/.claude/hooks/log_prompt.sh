#!/usr/bin/env bash
# UserPromptSubmit: keeps every prompt the person submitted (an audit log of what was typed).
jq -r '.prompt' >> "$CLAUDE_PROJECT_DIR/.claude/prompts.txt"
