"""Hypothesis properties of LSD over reachable states.

Properties: tile conservation (supply + field + captured = 20 per colour,
RULING 21), the player to move can always place (RULING 19), every listed move
applies as object and as text, the move list equals the naive reference
(LSD.md 2.2), captures equal the reference (2.3), applying never changes the
state it is applied to, illegal moves raise IllegalMoveError naming a
documented rule and change nothing, and move texts, position strings and reprs
round-trip.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pacru.lsd.state
from pacru import lsd
from pacru.errors import GameOverError, IllegalMoveError
from pacru.lsd import LsdMove, LsdState

from .helpers import reference_captures, reference_moves, texts

#: The reason codes in the table of pacru.lsd.state's docstring.
REASONS = frozenset(re.findall(r"^``([a-z-]+)``", pacru.lsd.state.__doc__ or "", re.MULTILINE))


@st.composite
def games(draw: st.DrawFn) -> tuple[LsdState, list[LsdState]]:
    """A random game: the start and the states reached by up to 100 random moves
    (a whole game is usually 30-80)."""
    players = draw(st.integers(2, 4))
    options: dict[str, Any] = {}
    if draw(st.integers(0, 3)) == 0:
        options["allow_rotation"] = False
    if draw(st.integers(0, 3)) == 0:
        options["strict_dot_matching"] = False
    start = lsd.new_game(players, **options)
    states = [start]
    rng = draw(st.randoms(use_true_random=False))
    for _ in range(draw(st.integers(0, 100))):
        state = states[-1]
        if state.is_terminal:
            break
        states.append(state.apply_move(rng.choice(state.legal_moves())))
    return start, states


def snapshot(state: LsdState) -> tuple[object, ...]:
    return (
        state.to_position(),
        hash(state),
        state.current_player,
        state.last_move,
        state.ply,
        dict(state._field),
        dict(state._frontier),
        state.legal_moves(),
    )


@given(games())
def test_invariants_of_every_reachable_state(game: tuple[LsdState, list[LsdState]]) -> None:
    """RULINGS 19, 21: conservation, scores, and a mover who can always place."""
    start, states = game
    for state in states:
        for colour in state.players:
            total = state.supply_size(colour) + state.scores[colour] + state.captured_count(colour)
            assert total == 20
        if state.is_terminal:
            assert state.legal_moves() == ()
        else:
            assert state.current_player is not None
            assert state.legal_moves()
            assert state.can_place(state.current_player)
        assert state.ply == states.index(state)
    assert lsd.new_game(len(start.players), **states[-1].options()) == start


@settings(max_examples=40)
@given(games(), st.data())
def test_listed_moves_are_the_reference_moves_and_all_apply(
    game: tuple[LsdState, list[LsdState]], data: st.DataObject
) -> None:
    """2.2, 2.3: the move list is the naive one; each move applies (object or text) with the
    reference captures, and the state it was applied to is unchanged."""
    _, states = game
    state = data.draw(st.sampled_from(states))
    before = snapshot(state)
    moves = state.legal_moves()
    assert texts(moves) == reference_moves(state)
    assert len(set(moves)) == len(moves)
    for move in moves:
        after = state.apply_move(move)
        assert after.last_move == move
        assert after.ply == state.ply + 1
        assert state.parse_move(str(move)) == move
        assert state.apply_move(str(move)) == after
        assert set(state.field) - set(after.field) == reference_captures(state, move)
    assert snapshot(state) == before


@given(games(), st.data())
def test_illegal_moves_raise_and_change_nothing(
    game: tuple[LsdState, list[LsdState]], data: st.DataObject
) -> None:
    """Any well-formed move not in the list raises IllegalMoveError with a documented reason."""
    _, states = game
    state = data.draw(st.sampled_from(states))
    bounds = state.bounds or ((0, 0), (0, 0))
    shade = data.draw(st.sampled_from("BW"))
    shape = data.draw(st.sampled_from("+x"))
    sides = "".join(s for s in "NESW" if data.draw(st.booleans())) or "0"
    x = data.draw(st.integers(bounds[0][0] - 2, bounds[1][0] + 2))
    y = data.draw(st.integers(bounds[0][1] - 2, bounds[1][1] + 2))
    text = f"{shade}{shape}{sides}@{x},{y}"
    before = snapshot(state)
    if text in texts(state.legal_moves()):
        assert str(state.apply_move(text).last_move) == text
    else:
        attempts: list[Callable[[], object]] = [
            lambda: state.apply_move(text),
            lambda: state.parse_move(text),
            lambda: state.apply_move(LsdMove.from_text(text)),
        ]
        for attempt in attempts:
            with pytest.raises(IllegalMoveError) as info:
                attempt()
            err = info.value
            if state.is_terminal:
                assert isinstance(err, GameOverError)
            else:
                assert err.reason in REASONS
                assert err.rule.startswith("LSD-")
                assert err.move == text
    assert snapshot(state) == before


@settings(max_examples=40)
@given(games())
def test_texts_positions_and_reprs_round_trip(game: tuple[LsdState, list[LsdState]]) -> None:
    """str(move) -> parse_move, to_position -> from_position, repr -> eval."""
    _, states = game
    for state in states:
        position = state.to_position()
        loaded = lsd.from_position(position)
        assert loaded == state
        assert hash(loaded) == hash(state)
        assert loaded.to_position() == position
        assert loaded.legal_moves() == state.legal_moves()
        assert loaded.outcome == state.outcome
        assert eval(repr(state), {"pacru": pacru}) == state
    for move in (s.last_move for s in states[1:]):
        assert move is not None
        assert LsdMove.from_text(str(move)) == move
        assert eval(repr(move), {"LsdMove": LsdMove}) == move
