"""A small seeded run of the fuzz campaign ``scripts/fuzz_parsers.py``.

The campaign mutates valid records, positions, moves, SAN and AbstractPlay
strings and draws random actions for the encodings; every exception a parser
raises must be its documented class. At a million inputs per parser it runs
outside the suite; here 100 inputs per parser keep the script working.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

from pacru.errors import NotationError

SCRIPT = Path(__file__).parents[2] / "scripts" / "fuzz_parsers.py"


def _campaign() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_parsers", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_small_seeded_campaign_finds_nothing_undocumented(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """100 inputs per parser (seed 7): every exception raised is a documented one."""
    campaign = _campaign()
    assert campaign.run(100, 7, None, 20_000, None, max_plies=8) == 0
    out = capsys.readouterr().out
    assert "FOUND" not in out
    for name in ("records-strict", "records-tolerant", "position-chevron", "abstractplay"):
        assert f"{name}: 100 inputs" in out


def test_the_mutator_is_seeded_and_bounded() -> None:
    """The same seed gives the same texts, none longer than the size asked for (plus a
    splice), so a finding can be replayed from its seed and index."""
    campaign = _campaign()
    corpus = ["pacru players=green,yellow", "e4-e5", '[Game "pacru"]\n\n*\n']
    first = [campaign.mutate(random.Random(3), t, corpus, 1000) for t in corpus * 20]
    again = [campaign.mutate(random.Random(3), t, corpus, 1000) for t in corpus * 20]
    assert first == again
    assert max(map(len, first)) < 1000 + 4 * 6100


def test_a_finding_is_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception outside a target's documented classes is counted and printed."""
    campaign = _campaign()

    def parser(text: str, _: random.Random) -> None:
        if "9" in text:
            raise KeyError(text)
        raise NotationError("no")

    target = campaign.Target("toy", ["e4-e5", "a1"], parser, (NotationError,))
    monkeypatch.setattr(campaign, "targets", lambda *args: [target])
    assert campaign.run(200, 1, None, 100, None) > 0
    assert "FOUND toy" in capsys.readouterr().out
