"""The counters ``ply``, ``idle``, ``move_cap`` and ``idle_rounds`` on either engine.

Both engines hold them exactly up to ``COUNTER_MAX`` (2**64 - 1, the native
engine's 64-bit counters) and refuse what they cannot hold: a position with a
larger counter is an ``InvalidPositionError``, a larger option a ``ValueError``
from ``new_game``, and a move past the end an ``InvalidPositionError``; never
an ``OverflowError``, never a saturated count.
"""

from __future__ import annotations

import pickle

import pytest

import pacru
from pacru import InvalidPositionError
from pacru.chevron.rules import COUNTER_MAX


def _at(extra: str, game: str = "shacru") -> pacru.ChevronState:
    state = pacru.from_position(f"{pacru.new_game(game, 2).to_position()} {extra}")
    assert isinstance(state, pacru.ChevronState)
    return state


def test_the_counters_end_at_64_bits() -> None:
    assert COUNTER_MAX == 2**64 - 1


@pytest.mark.parametrize("ply", [2**32 - 1, 2**32, 10**19 - 1, COUNTER_MAX - 1])
def test_a_large_ply_counts_on_exactly_and_reads_back(ply: int) -> None:
    state = _at(f"ply={ply}")
    assert state.ply == ply
    assert state.is_legal("e1-d2")
    assert state.explain("e1-d2").legal
    after = state.apply_move(state.legal_moves()[0])
    assert after.ply == ply + 1  # exactly: no saturation
    again = pacru.from_position(after.to_position())
    assert again == after
    assert pickle.loads(pickle.dumps(after)) == after


def test_a_ply_past_the_end_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match=f"ply is too large: at most {COUNTER_MAX}"):
        _at(f"ply={COUNTER_MAX + 1}")
    last = _at(f"ply={COUNTER_MAX}")
    assert last.is_legal("e1-d2")
    explained = last.explain("e1-d2")  # explain and is_legal never raise
    assert explained.legal
    assert explained.message == f"legal, but not playable: ply cannot count past {COUNTER_MAX}"
    assert pacru.from_position(last.to_position()) == last
    assert len(last.legal_moves()) == 16
    with pytest.raises(InvalidPositionError, match=f"ply cannot count past {COUNTER_MAX}"):
        last.apply_move("e1-d2")


def test_idle_plies_count_on_exactly_and_end_at_the_last() -> None:
    state = _at(f"idle_rounds={2**40} idle={2**32}")
    assert state.outcome is None
    assert state.idle == 2**32
    assert state.apply_move("e1-d2").idle == 0  # a field acquired (D33)
    with pytest.raises(InvalidPositionError, match=f"idle is too large: at most {COUNTER_MAX}"):
        _at(f"idle={COUNTER_MAX + 1}")


@pytest.mark.parametrize("rounds", [2**32, COUNTER_MAX])
def test_idle_rounds_up_to_the_end(rounds: int) -> None:
    state = pacru.new_game("lilacru", 2, idle_rounds=rounds)
    assert state.rules.idle_rounds == rounds
    after = state.apply_move(state.legal_moves()[0])
    assert after.outcome is None
    assert pacru.from_position(after.to_position()) == after


@pytest.mark.parametrize("cap", [2**32, COUNTER_MAX])
def test_a_move_cap_up_to_the_end(cap: int) -> None:
    state = pacru.new_game("pacru", 2, move_cap=cap)
    assert state.rules.move_cap == cap
    assert state.apply_move(state.legal_moves()[0]).outcome is None


def test_a_move_cap_reached_at_a_large_ply() -> None:
    state = _at(f"move_cap={2**32 + 1} ply={2**32}", game="azacru")
    after = state.apply_move(state.legal_moves()[0])
    assert after.ply == 2**32 + 1
    assert after.outcome is not None
    assert after.outcome.termination is pacru.Termination.MOVE_CAP


def test_options_past_the_end_are_refused() -> None:
    with pytest.raises(ValueError, match=f"move_cap must be at most {COUNTER_MAX} plies"):
        pacru.new_game("pacru", 2, move_cap=COUNTER_MAX + 1)
    with pytest.raises(ValueError, match=f"idle_rounds must be at most {COUNTER_MAX}"):
        pacru.new_game("shacru", 2, idle_rounds=COUNTER_MAX + 1)
    with pytest.raises(InvalidPositionError, match="move_cap is too large: at most"):
        _at(f"move_cap={COUNTER_MAX + 1}", game="pacru")
