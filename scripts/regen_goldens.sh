#!/usr/bin/env bash
# Regenerates the golden playthroughs listed in tests/golden/INDEX, on purpose: after a rule fix
# or a deliberate change of action ids, action texts, log events or observations. Review the
# result with `git diff tests/golden` before committing it.
#
#   bash scripts/regen_goldens.sh                  every golden, into tests/golden
#   bash scripts/regen_goldens.sh DIR [NAME...]    into DIR; only the files NAME... if given
#
# PYTHON selects the interpreter (default .venv/bin/python; run scripts/setup.sh first).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
OUT=${1:-tests/golden}
shift $(( $# > 0 ? 1 : 0 ))
if ! "$PY" -c "import citygames" 2>/dev/null; then
  echo "regen_goldens.sh: $PY cannot import citygames; run bash scripts/setup.sh first" >&2
  exit 2
fi
for name in "$@"; do
  if ! awk -v n="$name" '$1 == n { found = 1 } END { exit !found }' tests/golden/INDEX; then
    echo "regen_goldens.sh: $name is not listed in tests/golden/INDEX" >&2
    exit 2
  fi
done
mkdir -p "$OUT"
while read -r file args; do
  case "$file" in ''|'#'*) continue ;; esac
  if [ $# -gt 0 ] && [[ " $* " != *" $file "* ]]; then continue; fi
  # $args is split into the command's arguments on purpose
  # shellcheck disable=SC2086
  "$PY" -m citygames.cli playthrough $args --out "$OUT/$file"
done < tests/golden/INDEX
