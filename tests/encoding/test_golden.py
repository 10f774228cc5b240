"""The action layouts and observation planes are frozen per encoding version (issue 13).

tests/data/encoding/golden-v1.json was written from version 1 and is never
regenerated to make a test pass: a change of any action number, size, bound or
plane must bump ``ENCODING_VERSION`` and add a new golden file.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from pacru.encoding import ENCODING_VERSION, Encoding
from pacru.encoding import chevron as ch
from pacru.encoding.chevron import ChevronEncoding
from pacru.encoding.lsd import LsdEncoding

GOLDEN: dict[str, Any] = json.loads(
    (
        Path(__file__).parents[1] / "data" / "encoding" / f"golden-v{ENCODING_VERSION}.json"
    ).read_text(encoding="utf-8")
)


def test_version() -> None:
    assert ENCODING_VERSION == GOLDEN["version"] == 1
    assert Encoding.for_game("pacru", 2).version == 1
    assert Encoding.for_game("lsd", 3).version == 1


def test_chevron_blocks() -> None:
    assert (ch.PASS, ch.ORIGIN, ch.TARGET, ch.TURN, ch.TWIST) == (0, 1, 82, 163, 167)
    assert (ch.BENEFIT_NONE, ch.BENEFIT_CONNECTION, ch.MARKER) == (170, 171, 172)
    assert (ch.MEETING, ch.RELINQUISH, ch.NUM_ACTIONS) == (253, 334, 415)
    assert ch.TURNS == (-2, -1, 1, 2)


@pytest.mark.parametrize("key", sorted(GOLDEN["chevron"]))
def test_chevron_table(key: str) -> None:
    game, players = key.split()
    enc = Encoding.for_game(game, int(players))
    assert isinstance(enc, ChevronEncoding)
    assert list(enc.action_table()) == GOLDEN["chevron_actions"]
    expected = GOLDEN["chevron"][key]
    assert enc.num_actions == expected["num_actions"] == 415
    assert enc.max_decisions == expected["max_decisions"]
    assert list(enc.observation_shape) == expected["observation_shape"]
    assert enc.max_game_length == expected["max_game_length"]
    assert list(enc.plane_names()) == GOLDEN["chevron_planes"][players]
    assert len(enc.plane_names()) == enc.observation_shape[0]


def test_chevron_names_spot_checks() -> None:
    table = GOLDEN["chevron_actions"]
    assert table[0] == "pass"
    assert table[1] == "origin a1"
    assert table[81] == "origin i9"
    assert table[82 + 40] == "target e5"
    assert table[163:167] == ["turn <<", "turn <", "turn >", "turn >>"]
    assert table[167:170] == ["twist <", "twist none", "twist >"]
    assert table[170:173] == ["benefit none", "benefit connection", "marker a1"]
    assert table[253] == "meeting a1"
    assert table[414] == "relinquish i9"


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_lsd_table(players: str) -> None:
    enc = Encoding.for_game("lsd", int(players))
    assert isinstance(enc, LsdEncoding)
    expected = GOLDEN["lsd"][players]
    table = enc.action_table()
    assert enc.num_actions == expected["num_actions"] == enc.width**2 + 64
    assert enc.width == expected["width"]
    assert enc.max_decisions == expected["max_decisions"] == 2
    assert list(enc.observation_shape) == expected["observation_shape"]
    assert enc.max_game_length == expected["max_game_length"]
    assert hashlib.sha256("\n".join(table).encode()).hexdigest() == expected["action_table_sha256"]
    assert list(table[:3]) == expected["first"]
    assert table[enc.cells // 2] == expected["centre"] == "cell +0,+0"
    assert list(table[enc.cells :]) == expected["tiles"]
    assert list(enc.plane_names()) == expected["planes"]
    assert len(enc.plane_names()) == enc.observation_shape[0]


def test_lsd_sizes() -> None:
    # Default tile set: 20 tiles per colour; W = 2 * ceil(T / 2) + 1.
    assert [LsdEncoding(p).width for p in (2, 3, 4)] == [41, 61, 81]
    assert Encoding.for_game("lsd", 2).action_name(41 * 41 + 0b110011) == "tile WxNE"
