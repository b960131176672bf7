#!/usr/bin/env bash
# Any event: output that looks like JSON but is not.
echo '{"decision": "block", reason: oops}'
