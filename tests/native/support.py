"""Both engines side by side on one line of play, whatever ``pacru.ENGINE`` is."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pytest

from pacru import ChevronState, Move, new_game
from pacru.chevron.engine import python_apply, python_legal_moves
from pacru.chevron.pystate import PythonChevronState
from pacru.chevron.rules import Rules

if not TYPE_CHECKING:
    # Every test module of this folder imports this one: all skip without the extension.
    pytest.importorskip("pacru._native", reason="pacru was installed without its native engine")
from pacru.chevron import native

__all__ = [
    "CONFIGS",
    "FULL",
    "compare_lists",
    "fresh",
    "native",
    "play_both",
    "python_copy",
    "sample",
    "start",
]

#: Every chevron game and player count.
CONFIGS: tuple[tuple[str, int], ...] = tuple(
    (game, players) for game in ("lilacru", "shacru", "azacru", "pacru") for players in (2, 3, 4)
)
#: A list longer than this is compared at sampled indices, not move by move (a late Pacru
#: list can hold hundreds of thousands of reorientations).
FULL = 3000


def start(game: str, players: int) -> ChevronState:
    state = new_game(game, players)
    assert isinstance(state, ChevronState)
    return state


def fresh(state: ChevronState, rules: Rules | None = None) -> ChevronState:
    """``state`` rebuilt from its values (with ``rules`` instead of its own, an equal
    value): no cached move list, no native position."""
    copy = ChevronState(
        state.rules if rules is None else rules,
        state.players,
        state.markers,
        state.chevrons,
        state.to_move,
        state.out,
        state.trigger,
        state.idle,
        state.ply,
        state.outcome,
        state.occupied,
    )
    return copy


def python_copy(state: ChevronState) -> ChevronState:
    """``state`` as the Python engine's class (whatever the engine in use)."""
    return PythonChevronState(*state._values())


def sample(n: int, rng: random.Random) -> list[int]:
    """Every index below ``n`` up to :data:`FULL`, else the ends and random ones between."""
    if n <= FULL:
        return list(range(n))
    ends = [*range(500), *range(n - 500, n)]
    return sorted({*ends, *rng.sample(range(500, n - 500), 500)})


def compare_lists(py: Sequence[Move], nat: Sequence[Move], rng: random.Random, where: str) -> None:
    """The two engines' lists hold the same moves in the same order (texts too)."""
    n = len(py)
    assert len(nat) == n, where
    assert bool(nat) == bool(py), where
    if n <= FULL:
        listed = list(nat)
        assert listed == list(py), where
        assert [str(m) for m in listed] == [str(m) for m in py], where
    for i in sample(n, rng)[:: 1 if n <= 200 else 7]:
        assert nat[i] == py[i], (where, i)
        assert str(nat[i]) == str(py[i]), (where, i)


def play_both(game: str, players: int, seed: int, max_plies: int = 10_000) -> int:
    """One random game played by both engines in step, compared at every ply; its plies."""
    rng = random.Random(seed)
    py_state = python_copy(start(game, players))
    nat_state: ChevronState = native.native_state(start(game, players))
    plies = 0
    while plies < max_plies:
        where = f"{game} {players}p seed {seed} ply {plies}: {py_state.to_position()}"
        py_moves = python_legal_moves(py_state)
        nat_moves = native.legal_moves(nat_state)
        compare_lists(py_moves, nat_moves, rng, where)
        if not py_moves:
            break
        i = rng.randrange(len(py_moves))
        py_state = python_apply(py_state, py_moves[i])
        nat_state = native.apply(nat_state, nat_moves[i])
        assert nat_state == py_state, where
        assert nat_state.occupied == py_state.occupied, where
        assert nat_state.outcome == py_state.outcome, where
        plies += 1
        if py_state.outcome is not None:
            assert nat_state.to_position() == py_state.to_position(), where
            break
    return plies
