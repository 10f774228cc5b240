"""The adapters import their framework inside themselves only: ``import pacru`` stays light."""

from __future__ import annotations

import subprocess
import sys

import pytest

FRAMEWORKS = (
    "numpy",
    "pyspiel",
    "open_spiel",
    "pettingzoo",
    "gymnasium",
    "cairosvg",
    "torch",
    "stable_baselines3",
)


def _imported(modules: str) -> set[str]:
    code = f"import sys, {modules}; print(' '.join(m for m in {FRAMEWORKS!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_pacru_and_its_bots_import_no_framework() -> None:
    assert _imported("pacru, pacru.bots, pacru.bots.arena, pacru.cli") == set()


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("pacru.openspiel", {"numpy", "pyspiel", "open_spiel"}),
        ("pacru.pettingzoo", {"numpy", "pettingzoo", "gymnasium"}),
        ("pacru.gymnasium", {"numpy", "gymnasium"}),
        ("pacru.sb3", {"numpy", "gymnasium", "torch", "stable_baselines3"}),
    ],
)
def test_each_adapter_imports_its_own_framework(module: str, expected: set[str]) -> None:
    assert _imported(module) == expected
