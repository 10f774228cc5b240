#!/usr/bin/env bash
# The search bot's targets (issue 32) on a many-core machine, from the repository root
# after `pip install -e .`: nodes per second, Pacru/Shacru-2p matches (200 games a pairing
# at 0.1 s a move) and the Pacru 3/4-player ladders (100 games a table). About
# 2 x 4 x 200 x 150 plies x 0.1 s / JOBS for the matches: roughly 20 minutes on 16 cores.
set -euo pipefail
JOBS="${JOBS:-$(nproc)}"
python benchmarks/search_strength.py --jobs "$JOBS" --games 200 --ladder-games 100 --time 0.1 "$@" \
    | tee "search_strength-$(date -u +%Y%m%dT%H%M%SZ).txt"
