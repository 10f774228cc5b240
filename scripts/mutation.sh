#!/usr/bin/env bash
# Mutation testing of the rules code with mutmut (not run in CI; see docs/testing.rst).
#
#   pip install mutmut          # 3.x; the [tool.mutmut] section of pyproject.toml configures it
#   bash scripts/mutation.sh    # about an hour on 2 cores; JOBS=4 for more workers
#
# Mutates src/pacru/chevron/*.py and src/pacru/geometry.py, and runs the fast tests of
# tests/mutation, tests/chevron and tests/properties (Hypothesis capped at
# PACRU_MAX_EXAMPLES examples per property). It works on a copy of the tree in $MUTATION_DIR
# (default: a new temporary directory), so the work tree never gets a mutants/ folder, and
# ends with the kill rate: killed / (all mutants - those no test reaches).
# Extra arguments go to `mutmut run` (e.g. mutant names to re-run).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${MUTATION_DIR:-$(mktemp -d -t pacru-mutation.XXXXXX)}
command -v mutmut >/dev/null || { echo "mutation.sh needs mutmut: pip install mutmut" >&2; exit 2; }

mkdir -p "$work"
rm -rf "$work/src" "$work/tests" "$work/mutants"
cp -r "$root/src" "$root/tests" "$root/pyproject.toml" "$work/"
find "$work" -name __pycache__ -prune -exec rm -rf {} +
# tests/chevron reads the AbstractPlay records from ../shared, beside the repository.
if [ -d "$root/../shared" ] && [ ! -e "$work/shared" ]; then
    ln -s "$(cd "$root/../shared" && pwd)" "$work/shared"
fi

cd "$work"
echo "mutation run in $work"
export PACRU_MAX_EXAMPLES=${PACRU_MAX_EXAMPLES:-3}
export HYPOTHESIS_PROFILE=ci
# mutmut needs a green suite; say which test fails before spending the hour.
selection=$(python -c 'import tomllib; print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["tool"]["mutmut"]["pytest_add_cli_args_test_selection"]))')
if ! PYTHONPATH=src python -m pytest -q -x -p no:cacheprovider $selection >preflight.log 2>&1; then
    tail -n 20 preflight.log
    echo "mutation.sh: the selected tests fail without mutants (log: $work/preflight.log)" >&2
    exit 1
fi
mutmut run --max-children "${JOBS:-2}" "$@" || true
mutmut export-cicd-stats >/dev/null 2>&1 || true

python - <<'EOF'
import collections, json, pathlib, subprocess

out = subprocess.run(["mutmut", "results", "--all", "true"], capture_output=True, text=True).stdout
status = collections.Counter()
by_file = collections.defaultdict(collections.Counter)
for line in out.splitlines():
    name, _, state = line.strip().rpartition(": ")
    if not name:
        continue
    status[state] += 1
    by_file[name.split(".x", 1)[0]][state] += 1
reached = sum(status.values()) - status["no tests"]
killed = status["killed"] + status["timeout"]
print("\nmutants by status:", dict(status))
for module, counts in sorted(by_file.items()):
    total = sum(counts.values()) - counts["no tests"]
    rate = (counts["killed"] + counts["timeout"]) / total if total else 1.0
    print(f"  {module:40s} {rate:6.1%} of {total}")
if reached:
    print(f"kill rate: {killed}/{reached} = {killed / reached:.1%}")
print("survivors: mutmut results; one diff: mutmut show <name>")
EOF
