#!/usr/bin/env bash
# Starts a background sleep that holds stdout, writes its pid to $1, then waits for it.
sleep 1000 &
echo $! > "$1"
wait
