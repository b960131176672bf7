#!/usr/bin/env bash
# Writes its pid to $1, then hangs.
echo $$ > "$1"
sleep 1000
