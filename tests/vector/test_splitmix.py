"""The Python mirror of SplitMix64 (``pacru.vector.draws``) gives its published outputs.

The Rust crates' one SplitMix64 (``pacru_engine::rng``) is pinned to the same file,
rust/engine/tests/splitmix64.txt, so the two generators agree; the native draws built on
it are compared with the Python ones in tests/native/test_vector_loop.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pacru.vector.draws import _GAMMA, _mix

VECTORS = Path(__file__).parents[2] / "rust" / "engine" / "tests" / "splitmix64.txt"


def _published() -> list[tuple[int, list[int]]]:
    rows = []
    for line in VECTORS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            seed, *outputs = (int(n) for n in line.split())
            rows.append((seed, outputs))
    return rows


def test_the_published_outputs() -> None:
    rows = _published()
    assert [seed for seed, _ in rows] == [1234567, 0]
    for seed, outputs in rows:
        # Output k of the generator seeded with `seed` is mix(seed + (k + 1) * GAMMA).
        steps = np.arange(1, len(outputs) + 1, dtype=np.uint64)
        with np.errstate(over="ignore"):
            states = np.uint64(seed) + steps * _GAMMA
            assert _mix(states).tolist() == outputs
