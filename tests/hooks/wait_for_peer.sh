#!/usr/bin/env bash
# Creates marker $1/$2, then waits up to 5 s for marker $1/$3: both succeed only in parallel.
touch "$1/$2"
for _ in $(seq 100); do
  [ -e "$1/$3" ] && { echo "$2 saw $3"; exit 0; }
  sleep 0.05
done
echo "$2 never saw $3" >&2
exit 1
