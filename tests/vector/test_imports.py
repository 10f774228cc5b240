"""pacru.vector needs numpy only; ``import pacru`` imports neither it nor numpy."""

from __future__ import annotations

import subprocess
import sys

import pytest

FRAMEWORKS = ("numpy", "gymnasium", "pacru.vector")


def _imported(modules: str) -> set[str]:
    code = f"import sys, {modules}; print(' '.join(m for m in {FRAMEWORKS!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("pacru", set()),
        ("pacru.vector", {"numpy", "pacru.vector"}),
        ("pacru.gymnasium_vector", {"numpy", "gymnasium", "pacru.vector"}),
    ],
)
def test_each_module_imports_only_what_it_needs(module: str, expected: set[str]) -> None:
    assert _imported(module) == expected
