#!/usr/bin/env bash
# SessionStart: loads the team's open tasks into context with additionalContext.
source=$(jq -r '.source')
jq -n --arg s "$source" '{hookSpecificOutput: {hookEventName: "SessionStart", additionalContext: ("Open tasks (" + $s + "): TASK-7 fix login")}}'
