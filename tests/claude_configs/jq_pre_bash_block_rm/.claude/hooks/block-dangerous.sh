#!/usr/bin/env bash
# PreToolUse (Bash): refuses rm -rf, as the hooks guide's example blocks dangerous commands.
command=$(jq -r '.tool_input.command')
if grep -Eq 'rm[[:space:]]+-rf' <<<"$command"; then
  echo "Blocked: rm -rf is not allowed here" >&2
  exit 2
fi
exit 0
