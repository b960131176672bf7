#!/usr/bin/env bash
# Exits at once, leaving a background sleep that holds stdout open; its pid goes to $1.
sleep 1000 &
echo $! > "$1"
echo "left a sleep behind"
