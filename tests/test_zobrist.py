"""Zobrist hashing (:mod:`pacru.zobrist`): exact, stable values; equal states hash equal."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from functools import reduce
from pathlib import Path
from typing import Any

import pytest

import pacru
from pacru.bots import RandomBot, play_game
from pacru.chevron.state import ChevronState
from pacru.zobrist import MASK64, chevron_keys, key, zobrist_hash

SRC = Path(__file__).resolve().parents[1] / "src"

#: Start positions -> hash. These values are a contract: changing a key name,
#: the key derivation or what is hashed breaks every stored table.
START_HASHES = {
    ("lilacru", 2): 7805637678412327222,
    ("lilacru", 3): 11660506868284463751,
    ("lilacru", 4): 17046440678525494342,
    ("shacru", 2): 8332532823639826482,
    ("shacru", 3): 6954109845449210042,
    ("shacru", 4): 8789774826577883957,
    ("azacru", 2): 5519468634612037269,
    ("azacru", 3): 15689603580777727840,
    ("azacru", 4): 1491813786997663437,
    ("pacru", 2): 5450513169035939496,
    ("pacru", 3): 8995349423084442418,
    ("pacru", 4): 910988943480487930,
    ("lsd", 2): 12943601479961597789,
    ("lsd", 3): 5348589438518765032,
    ("lsd", 4): 5089210246375251981,
}


def _walk(game: str, players: int, plies: int, seed: int) -> list[pacru.GameState[Any]]:
    """Every state of a seeded random game, at most ``plies`` moves long."""
    start: pacru.GameState[Any] = pacru.new_game(game, players)
    line = pacru.Game(start)
    play_game(line, [RandomBot(seed=seed + i) for i in range(players)], max_plies=plies)
    return list(line)


@pytest.mark.parametrize(("game", "players"), sorted(START_HASHES))
def test_start_position_hash_is_fixed(game: str, players: int) -> None:
    state = pacru.new_game(game, players)
    assert zobrist_hash(state) == START_HASHES[(game, players)]


def test_key_is_blake2b_of_its_name() -> None:
    digest = hashlib.blake2b(b"pacru-zobrist:to-move:0", digest_size=8).digest()
    assert key("to-move:0") == int.from_bytes(digest, "big") == 0xECFBBAD031BDDF42


def test_hash_is_stable_across_processes() -> None:
    """Python's hash() is salted per process; the Zobrist hash must not be."""
    code = (
        "import pacru; from pacru.zobrist import zobrist_hash; "
        "print(zobrist_hash(pacru.new_game('pacru', 3)), "
        "zobrist_hash(pacru.new_game('lsd', 2)))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout.split()
    assert [int(x) for x in out] == [START_HASHES[("pacru", 3)], START_HASHES[("lsd", 2)]]


@pytest.mark.parametrize("game", ["lilacru", "shacru", "azacru", "pacru"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_chevron_hash_is_the_xor_of_its_keys(game: str, players: int) -> None:
    """The from-scratch value equals the XOR of the documented keys (incremental updates)."""
    for state in _walk(game, players, 40, seed=7):
        assert isinstance(state, ChevronState)
        expected = reduce(lambda h, name: h ^ key(name), chevron_keys(state), 0)
        assert zobrist_hash(state) == expected
        assert 0 <= zobrist_hash(state) <= MASK64


@pytest.mark.parametrize("game", ["lilacru", "shacru", "azacru", "pacru", "lsd"])
def test_equal_states_hash_equal(game: str) -> None:
    """A state read back from its position string is equal and hashes equal."""
    for state in _walk(game, 3, 30, seed=3):
        copy = pacru.from_position(state.to_position())
        assert copy == state
        assert zobrist_hash(copy) == zobrist_hash(state)


def test_method_on_chevron_state_delegates() -> None:
    state = pacru.new_game("shacru").apply_move("a3-b4>")
    assert state.zobrist_hash() == zobrist_hash(state)


def test_transposition_hashes_equal_but_ply_differs() -> None:
    """Ply and idle count are not hashed: the same board and mover hash equal (D33)."""
    a = pacru.from_position(
        "shacru players=green,yellow turn=yellow markers=green:b4 chevrons=green:b4E;yellow:e9S"
    )
    b = pacru.from_position(
        "shacru players=green,yellow turn=yellow markers=green:b4 "
        "chevrons=green:b4E;yellow:e9S idle=4 ply=12"
    )
    assert a != b
    assert zobrist_hash(a) == zobrist_hash(b)


def test_side_to_move_out_and_trigger_are_hashed() -> None:
    """{R15} eliminated players and {A-R10} the end trigger are part of the position."""
    base = "azacru players=green,yellow markers=green:b4 chevrons=green:b4E;yellow:e9S"
    plain = pacru.from_position(base)
    other_turn = pacru.from_position(base + " turn=yellow")
    triggered = pacru.from_position(base + " trigger=yellow")
    hashes = {zobrist_hash(s) for s in (plain, other_turn, triggered)}
    assert len(hashes) == 3
    assert zobrist_hash(triggered) == zobrist_hash(plain) ^ key("trigger:1")
    assert zobrist_hash(other_turn) == zobrist_hash(plain) ^ key("to-move:0") ^ key("to-move:1")


def test_pacru_elimination_is_hashed() -> None:
    """A player without chevrons is out on reading {R15, D27}: the out key is in the hash."""
    state = pacru.from_position(
        "pacru players=green,yellow,red markers=- chevrons=green:e1N;yellow:e9S"
    )
    assert isinstance(state, ChevronState)
    assert state.eliminated == ("red",)
    assert "out:2" in set(chevron_keys(state))


def test_distinct_positions_of_a_game_hash_distinct() -> None:
    """No collision among the positions of a few fixed games (64-bit keys; birthday bound)."""
    seen: dict[int, str] = {}
    count = 0
    for game in ("shacru", "pacru", "lsd"):
        for state in _walk(game, 2, 60, seed=11):
            text = state.to_position()
            if game != "lsd":  # the chevron hash leaves out the ply and idle counts
                text = re.sub(r" (ply|idle)=\d+", "", text)
            assert seen.setdefault(zobrist_hash(state), text) == text
            count += 1
    assert count >= 100
