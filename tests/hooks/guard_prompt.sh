#!/usr/bin/env bash
# UserPromptSubmit: drops prompts that mention a password.
if grep -qi 'password'; then
  echo "Prompts must not contain passwords" >&2
  exit 2
fi
