"""The shipped strategies (:mod:`pacru.strategies`) draw what their docstrings promise."""

from __future__ import annotations

import contextlib
import importlib
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacru import ChevronState, Game, from_position
from pacru.chevron.rules import SUPPLY
from pacru.strategies import (
    GameSpec,
    Playout,
    available_games,
    boards,
    games,
    legal_moves,
    mutated_texts,
    playouts,
    position_strings,
)

from .support import GAMES, budget, supply_of


@budget(40)
@given(games(["shacru", "pacru"], players=(3, 4)))
def test_games_respect_the_filters(spec: GameSpec) -> None:
    """games(game, players) draws only those games and counts, with options new_game takes."""
    assert spec.game in ("shacru", "pacru")
    assert spec.players in (3, 4)
    state = spec.new()
    assert len(state.players) == spec.players
    assert spec.kwargs == dict(spec.options)
    assert str(spec).startswith(f"{spec.game} {spec.players}p")
    assert state.options() == {
        k: v for k, v in spec.options if k in ("meeting_rule", "move_cap", "idle_rounds")
    }


@budget(20)
@given(games(options=False))
def test_games_without_options_use_the_defaults(spec: GameSpec) -> None:
    """options=False keeps new_game's defaults: the standard layout and seats (B.5)."""
    assert spec.options == ()
    assert spec.game in available_games() == GAMES


def test_games_rejects_unknown_names_and_counts() -> None:
    """Unknown games and player counts are a ValueError when the strategy is built."""
    with pytest.raises(ValueError, match="unknown"):
        games("chess")
    with pytest.raises(ValueError, match="2, 3 or 4"):
        games("pacru", players=5)
    with pytest.raises(ValueError, match="chevron"):
        boards("lsd")


@budget(25)
@given(playouts(max_plies=30))
def test_playouts_are_consistent(p: Playout) -> None:
    """Each state is its predecessor after the recorded move; play stops only at the end or
    after max_plies moves."""
    assert len(p.states) == len(p.moves) + 1 <= 31
    assert p.start == p.spec.new()
    for before, move, after in zip(p.states, p.moves, p.states[1:], strict=False):
        assert before.apply_move(move) == after
        assert after.last_move == move
        assert after.ply == before.ply + 1
    assert all(not s.is_terminal for s in p.states[:-1])
    assert list(Game(p.start, p.moves)) == list(p.states)


@budget(25)
@given(boards())
def test_boards_are_valid_chevron_positions(state: ChevronState) -> None:
    """boards() draws readable chevron positions; a Pacru player is at least one marker short
    of the supply (R1, R16b)."""
    assert state.game != "lsd"
    assert from_position(state.to_position()) == state
    assert all(len(c) <= 4 for c in state.chevrons)
    if state.rules.pacru:
        assert all(v >= 1 for v in supply_of(state).values())
    else:
        assert SUPPLY[len(state.players)] > 0


@budget(10)
@given(data=st.data())
def test_legal_moves_of_a_finished_game_is_empty(data: st.DataObject) -> None:
    """legal_moves(state) is st.nothing() once the game is over."""
    state = from_position("azacru players=green,yellow turn=green chevrons=- trigger=green")
    assert state.is_terminal
    assert legal_moves(state).is_empty
    start = data.draw(games()).new()
    assert data.draw(legal_moves(start)) in start.legal_moves()


@budget(25)
@given(position_strings(valid=True, max_plies=20))
def test_valid_position_strings_read(text: str) -> None:
    """position_strings(valid=True) draws strings from_position reads back unchanged."""
    assert from_position(text).to_position() == text


@budget(25)
@given(position_strings(valid=False, max_plies=10))
def test_invalid_position_strings_are_rejected(text: str) -> None:
    """position_strings(valid=False) draws strings from_position rejects with a PacruError."""
    from pacru import InvalidPositionError, NotationError

    with pytest.raises((NotationError, InvalidPositionError)):
        from_position(text)


@budget(25)
@given(position_strings(max_plies=5), mutated_texts(st.just("e4-e5"), max_size=1000))
def test_mixed_position_strings_and_mutations_are_text(text: str, mutated: str) -> None:
    """position_strings() draws text that reads or is rejected cleanly; mutated_texts()
    repeats a text to about max_size (later edits may double it a few times)."""
    from pacru import PacruError

    with contextlib.suppress(PacruError):
        from_position(text)
    assert len(mutated) <= 16 * 1000


def test_import_without_hypothesis_is_a_clear_import_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Importing pacru.strategies without Hypothesis names the package to install."""
    monkeypatch.setitem(sys.modules, "hypothesis", None)
    monkeypatch.delitem(sys.modules, "pacru.strategies")
    with pytest.raises(ImportError, match="pip install hypothesis"):
        importlib.import_module("pacru.strategies")
