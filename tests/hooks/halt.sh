#!/usr/bin/env bash
# Any event: stops the agent.
echo '{"continue": false, "stopReason": "Budget used up", "systemMessage": "Stopping now"}'
