#!/usr/bin/env bash
# Activates the project's virtualenv for every Bash command of the session, as the Claude Code
# docs suggest: SessionStart hooks persist variables by appending export lines to $CLAUDE_ENV_FILE.
set -euo pipefail
if [ -n "${CLAUDE_ENV_FILE:-}" ]; then
  {
    echo "export VIRTUAL_ENV=\"$CLAUDE_PROJECT_DIR/.venv\""
    echo 'export PATH="$VIRTUAL_ENV/bin:$PATH"'
    echo 'export PYTHONDONTWRITEBYTECODE=1'
  } >> "$CLAUDE_ENV_FILE"
fi
exit 0
