#!/usr/bin/env bash
# Any event: a broken hook (exit 1), which must not block anything.
echo '{"decision":"block","reason":"ignored"}'
echo "fail.sh: config not found" >&2
exit 1
