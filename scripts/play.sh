#!/usr/bin/env bash
# Sets everything up, then plays The Capitals in the terminal: you are seat 0 against three bots.
# Extra arguments go to `citygames play` (e.g. --players 5 --bots greedy,random,greedy,greedy).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/citygames play the_capitals --players 4 --human 0 --bots greedy "$@"
