#!/usr/bin/env bash
# Stop: a loop (as "ralph"-style plugins publish) that sends the agent back until it has
# iterated twice, keeping its count in .claude/loop-state.
input=$(cat)
state="$CLAUDE_PROJECT_DIR/.claude/loop-state"
n=$(cat "$state" 2>/dev/null || echo 0)
active=$(jq -r '.stop_hook_active' <<<"$input")
echo "stop n=$n active=$active" >>"$CLAUDE_PROJECT_DIR/.claude/loop-trace"
if [ "$n" -lt 2 ]; then
  echo $((n + 1)) >"$state"
  jq -n --arg r "Iteration $((n + 1)): keep improving" '{decision: "block", reason: $r}'
fi
exit 0
