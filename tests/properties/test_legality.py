"""Legality invariants over every game and player count.

* every listed move applies, and parses back to itself;
* every move that applies was listed (no hidden legal moves);
* an illegal move raises the documented error, names a documented rule and
  reason, and changes nothing;
* states are immutable and hashable: nothing a move or an error does changes
  the position string, hash or equality of an existing state.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacru import ChevronState, GameOverError, GameState, IllegalMoveError, Move, NotationError
from pacru.strategies import (
    GameSpec,
    games,
    illegal_move_texts,
    legal_moves,
    move_texts,
)

from .support import (
    CHEVRON_REASONS,
    CHEVRON_RULE_RE,
    GAMES,
    budget,
    cases,
    game_states,
    lsd_reasons,
    move_signature,
)

ALL_LISTED = 300  # apply every listed move when there are at most this many


def _states(game: str, players: int) -> st.SearchStrategy[GameState[Any]]:
    return game_states(game, players)


def _snapshot(state: GameState[Any]) -> tuple[str, int, str | None, Any, int]:
    return state.to_position(), hash(state), state.current_player, state.last_move, state.ply


def _check_error(state: GameState[Any], err: IllegalMoveError) -> None:
    """The error names a documented rule and reason {errors module, legality module}."""
    if state.is_terminal:
        assert isinstance(err, GameOverError)
        assert (err.rule, err.reason) == ("end", "game-over")
    elif isinstance(state, ChevronState):
        assert CHEVRON_RULE_RE.fullmatch(err.rule), err.rule
        assert err.reason in CHEVRON_REASONS, err.reason
    else:
        assert err.reason in lsd_reasons(), err.reason
        assert err.rule.startswith("LSD-"), err.rule
    assert str(err).startswith(f"{err.rule}: ")


@cases()
@budget(8)
@given(data=st.data())
def test_every_listed_move_applies(game: str, players: int, data: st.DataObject) -> None:
    """Each move in ``legal_moves()`` is accepted by ``apply_move`` as object and as text."""
    state = data.draw(_states(game, players))
    moves = state.legal_moves()
    before = _snapshot(state)
    if len(moves) <= ALL_LISTED:
        chosen = list(moves)
    else:
        chosen = [data.draw(legal_moves(state)) for _ in range(10)]
    for move in chosen:
        after = state.apply_move(move)
        assert after.last_move == move
        assert after.ply == state.ply + 1
        assert state.parse_move(str(move)) == move
        assert after == state.apply_move(str(move))
        assert after.to_position() == state.apply_move(str(move)).to_position()
    assert _snapshot(state) == before
    if len(moves) <= 20 * ALL_LISTED:  # decoding a Pacru list can take long
        assert len(moves) == len(list(moves)) == len(set(moves))  # no duplicates
    assert bool(moves) != state.is_terminal


@cases(GAMES)
@budget(10)
@given(data=st.data())
def test_every_applied_move_was_listed(game: str, players: int, data: st.DataObject) -> None:
    """A move text that ``apply_move`` accepts is one of ``legal_moves()``; others raise
    IllegalMoveError naming a documented rule and reason."""
    state = data.draw(_states(game, players))
    legal = state.legal_moves()
    for text in data.draw(st.lists(move_texts(state), min_size=1, max_size=10)):
        listed = state.parse_move(text) in legal if _parses(state, text) else False
        try:
            after = state.apply_move(text)
        except IllegalMoveError as err:
            _check_error(state, err)
            assert not listed
        else:
            assert listed
            assert after.last_move in legal


def _parses(state: GameState[Any], text: str) -> bool:
    try:
        state.parse_move(text)
    except IllegalMoveError:
        return False
    return True


@cases()
@budget(10)
@given(data=st.data())
def test_illegal_move_raises_and_changes_nothing(
    game: str, players: int, data: st.DataObject
) -> None:
    """An illegal move raises IllegalMoveError (GameOverError once over) naming a documented
    rule and reason, the same for the text and the move object, and the state is unchanged."""
    state = data.draw(_states(game, players))
    before = _snapshot(state)
    copy = _reload(state)
    text = data.draw(illegal_move_texts(state))
    errors = []
    for attempt in (state.apply_move, state.parse_move):
        try:
            attempt(text)
        except IllegalMoveError as err:
            _check_error(state, err)
            errors.append((type(err), err.rule, err.reason))
        else:
            raise AssertionError(f"{text!r} was accepted in {state.to_position()}")
    assert errors[0] == errors[1]
    if isinstance(state, ChevronState):
        move = Move.parse(text)
        assert not state.is_legal(move)
        assert not state.is_legal(text)
        with pytest.raises(IllegalMoveError) as raised:
            state.apply_move(move)
        assert (type(raised.value), raised.value.rule, raised.value.reason) == errors[0]
    assert _snapshot(state) == before
    assert state == copy
    if isinstance(state, ChevronState):
        assert isinstance(copy, ChevronState)
        assert move_signature(state) == move_signature(copy)
    else:
        assert list(state.legal_moves()) == list(copy.legal_moves())


def _reload(state: GameState[Any]) -> GameState[Any]:
    from pacru import from_position

    return from_position(state.to_position())


@cases()
@budget(8)
@given(data=st.data())
def test_states_are_immutable_and_hashable(game: str, players: int, data: st.DataObject) -> None:
    """Applying moves, failing to apply bad text and querying never change a state; equal
    states (the same position reached again) are equal and hash equally."""
    state = data.draw(_states(game, players))
    before = _snapshot(state)
    for move in [data.draw(legal_moves(state))] if state.legal_moves() else []:
        child = state.apply_move(move)
        assert child != state
        hash(child)
    for bad in ("", "zz9-zz8", "pass" * 20, "e4-e4", "B+NESW@999999,0"):
        with contextlib.suppress(NotationError, IllegalMoveError):
            state.apply_move(bad)
    state.legal_moves()
    str(state)
    repr(state)
    state.scores  # noqa: B018 - a query must not change the state
    assert _snapshot(state) == before
    again = _reload(state)
    assert again == state
    assert hash(again) == hash(state)
    assert again.to_position() == state.to_position()
    assert {state: 1}[again] == 1
    if not state.is_terminal:
        child = state.apply_move(state.legal_moves()[0])
        assert hash(child) == hash(_reload(child))


@budget(30)
@given(games(), st.data())
def test_starting_state_has_moves_and_no_last_move(spec: GameSpec, data: st.DataObject) -> None:
    """Every game with every option starts unfinished, the first player to move, at ply 0."""
    state = spec.new()
    assert state.outcome is None
    assert (state.ply, state.last_move) == (0, None)
    # Every game lists players in turn order from the first mover (setup.py, LSD RULING 20).
    assert state.current_player == state.players[0]
    assert len(state.players) == spec.players
    assert state.legal_moves()
    assert all(v == 0 for v in state.scores.values())
    assert data.draw(legal_moves(state)) in state.legal_moves()
