"""One protocol for every game: the same checks over the states of all five games.

Every state, of whatever game, is a :class:`pacru.GameState` and answers the
protocol's questions with the same meaning (issue 16): ``legal_moves()`` is a
sequence in which a move or its text is found and ``from_field`` finds a
move's piece or cell; ``is_legal``, ``parse_move``, ``san``/``parse_san``,
``to_move``, ``supply`` (None where a game has none), ``status()`` and a
``repr`` that evaluates after ``import pacru``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import pacru
from pacru import GameState, Status
from pacru.strategies import boards, states

from .support import GAMES, budget, cases

_NO_SUPPLY = {"lilacru", "shacru", "azacru"}


def _sample(state: GameState[Any], seed: int, k: int = 40) -> list[Any]:
    """Up to ``k`` legal moves, sampled where the list is huge (Pacru reorientations)."""
    moves = state.legal_moves()
    rng = random.Random(seed)
    if len(moves) <= k:
        return list(moves)
    return [moves[rng.randrange(len(moves))] for _ in range(k)]


def _piece(move: Any) -> Any:
    """The key ``from_field`` takes for a move: the chevron's field, or the LSD cell."""
    return move.cell if hasattr(move, "cell") else move.origin


def test_every_game_and_its_types_are_exported() -> None:
    for name in ("GameState", "ChevronState", "LsdState", "LsdMove", "LsdLegalMoves", "Status"):
        assert name in pacru.__all__
        assert getattr(pacru, name).__name__ == name
    for game in GAMES:
        assert isinstance(pacru.new_game(game), GameState)


@cases()
@budget(15)
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_the_protocol_holds_in_play(
    game: str, players: int, data: st.DataObject, seed: int
) -> None:
    """legal_moves, is_legal, parse_move, SAN, from_field, to_move, supply, status and repr."""
    state = data.draw(states(game, players, max_plies=40))
    moves = state.legal_moves()
    assert isinstance(moves, Sequence)
    assert state.status() is Status.VALID  # reached by play
    assert eval(repr(state), {"pacru": pacru}) == state
    supply = state.supply
    if game in _NO_SUPPLY:
        assert supply is None
    else:
        assert isinstance(supply, Mapping)
        assert list(supply) == list(state.players)
        assert all(v >= 0 for v in supply.values())
    if state.is_terminal:
        assert not moves
        assert state.current_player is None
        assert not state.is_legal("e1-e2")
        return
    assert state.players[state.to_move] == state.current_player
    assert pacru.from_position(state.to_position(), adjudicate=False) == state
    for move in _sample(state, seed):
        text = str(move)
        assert move in moves
        assert text in moves
        assert state.is_legal(move)
        assert state.is_legal(text)
        assert state.parse_move(text) == move
        short = state.san(move)
        assert len(short) <= len(text)
        assert state.parse_san(short) == move
        assert state.parse_san(text) == move
        if _piece(move) is not None:  # a pass belongs to no chevron
            assert move in moves.from_field(_piece(move))  # type: ignore[attr-defined]
    assert not state.is_legal("not a move")
    assert "not a move" not in moves


@budget(40)
@given(state=boards(), seed=st.integers(0, 2**16))
def test_san_round_trips_on_random_boards(state: GameState[Any], seed: int) -> None:
    """parse_san(san(m)) == m on boards set up directly, where meetings, transformations and
    huge reorientation lists are common (sampled there)."""
    for move in _sample(state, seed, k=60):
        short = state.san(move)
        assert state.parse_san(short) == move
        assert len(short) <= len(str(move))
