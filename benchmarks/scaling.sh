#!/usr/bin/env bash
# The thread scaling of pacru.vector and of the batched Gymnasium env (and LSD's rate), for a
# machine with more cores than the project's (issue 30): run from the repository root with pacru
# installed (the release build), on an otherwise idle machine. Prints `uptime` first.
#
#     bash benchmarks/scaling.sh [max_threads]    # default: every core
set -euo pipefail
max=${1:-$(nproc)}
counts=1
t=2
while [ "$t" -le "$max" ]; do counts="$counts,$t"; t=$((t * 2)); done
[ "${counts##*,}" = "$max" ] || counts="$counts,$max"
uptime
for envs in 256 1024 4096; do
    python benchmarks/vector.py --num-envs "$envs" --threads "$counts" --seconds 2 --windows 3
    python benchmarks/vector.py --num-envs "$envs" --threads "$counts" --seconds 2 --windows 3 --observe
done
for t in ${counts//,/ }; do
    python benchmarks/gym_vector.py --num-envs 256 --threads "$t" --seconds 2 --windows 3
done
# LSD steps in Python, one game at a time (no native LSD engine): its rate, one thread.
python benchmarks/vector.py --game lsd --num-envs 256 --no-pgx --seconds 2 --windows 3
