#!/usr/bin/env bash
# Sets everything up, then runs the browser table on http://127.0.0.1:8000/ with its database in
# data/citygames.sqlite3. Extra arguments go to `citygames serve` (e.g. --port 9000,
# --host 0.0.0.0, --db postgresql://user:password@host/dbname, --bot-delay 0.3).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/citygames serve "$@"
