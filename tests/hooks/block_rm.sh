#!/usr/bin/env bash
# PreToolUse on Bash: refuses commands that run rm, reading the call from stdin with grep.
input=$(cat)
if printf '%s' "$input" | grep -Eq '"command":"([^"]*[;&|] *)?(sudo +)?rm( |")'; then
  echo "Blocked by block_rm.sh: rm is not allowed here; move files to ./trash instead" >&2
  exit 2
fi
exit 0
