#!/usr/bin/env bash
# Regenerates every golden playthrough listed in tests/golden/INDEX, on purpose: after a rule fix
# or a deliberate change of action ids, action texts, log events or observations. Review the
# result with `git diff tests/golden` before committing it.
#
#   bash scripts/regen_goldens.sh [DIR]    write into DIR instead of tests/golden
#
# PYTHON selects the interpreter (default .venv/bin/python; run scripts/setup.sh first).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
OUT=${1:-tests/golden}
if ! "$PY" -c "import citygames" 2>/dev/null; then
  echo "regen_goldens.sh: $PY cannot import citygames; run bash scripts/setup.sh first" >&2
  exit 2
fi
mkdir -p "$OUT"
while read -r file args; do
  case "$file" in ''|'#'*) continue ;; esac
  # $args is split into the command's arguments on purpose
  # shellcheck disable=SC2086
  "$PY" -m citygames.cli playthrough $args --out "$OUT/$file"
done < tests/golden/INDEX
