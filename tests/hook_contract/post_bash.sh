#!/usr/bin/env bash
# PostToolUse (Bash): keeps what the command printed, as hooks written for Claude Code read it.
input=$(cat)
jq -r '.tool_response.stdout' <<<"$input" >>"$CLAUDE_PROJECT_DIR/.claude/bash_out.txt"
jq -r '"\(.tool_name) interrupted=\(.tool_response.interrupted) duration=\(.duration_ms | type)"' \
  <<<"$input" >>"$CLAUDE_PROJECT_DIR/.claude/bash_out.txt"
