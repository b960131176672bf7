#!/usr/bin/env bash
# UserPromptSubmit or SessionStart: plain stdout becomes context for the model.
echo "The build command is: make all"
