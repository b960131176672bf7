#!/usr/bin/env bash
# UserPromptSubmit: plain stdout is added to the context, and the prompt is logged.
jq -r '.prompt' >>"$CLAUDE_PROJECT_DIR/.claude/prompts.log"
echo "Current sprint: SPRINT-42 (context from hook)"
