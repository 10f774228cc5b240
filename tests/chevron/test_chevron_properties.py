"""Properties of every chevron game on positions reached by random play, and full games.

The Hypothesis strategy draws the game, the player count and each move index, so
a failure shrinks to a short game. Everything here is a law of the API (immutability,
round trips, the LegalMoves sequence) or of the rules (scores are markers on the
board {S-R6, A-R10, L7}, winners are the top scorers, D35).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pacru
from pacru import (
    ChevronState,
    GameOverError,
    IllegalMoveError,
    Move,
    NotationError,
    Termination,
)
from pacru.geometry import FIELD_NAMES

from .helpers import (
    moves_of,
    play_random,
    pos,
    random_line,
    reference_can_acquire,
    reference_moves,
    rotate_move,
    rotate_position,
    start,
)

MAX_PLIES = 120
#: How many moves of a long list (Pacru) a property looks at.
SAMPLE = 40


@st.composite
def states(draw: st.DrawFn, games: tuple[str, ...] = pacru.CHEVRON_GAMES) -> ChevronState:
    """A state reached from a start position by a drawn number of drawn legal moves."""
    game = draw(st.sampled_from(games))
    players = draw(st.sampled_from((2, 3, 4)))
    state = start(game, players)
    for _ in range(draw(st.integers(0, MAX_PLIES))):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        state = state.apply_move(moves[draw(st.integers(0, len(moves) - 1))])
    return state


def sample(state: ChevronState) -> list[Move]:
    """Every legal move, or SAMPLE of them spread evenly over a long list."""
    moves = state.legal_moves()
    n = len(moves)
    if n <= SAMPLE:
        return list(moves)
    return [moves[i * n // SAMPLE] for i in range(SAMPLE)] + [moves[-1]]


def snapshot(state: ChevronState) -> tuple[str, int, ChevronState]:
    return state.to_position(), hash(state), pos(state.to_position())


def assert_unchanged(state: ChevronState, snap: tuple[str, int, ChevronState]) -> None:
    text, digest, copy = snap
    assert state.to_position() == text
    assert hash(state) == digest
    assert state == copy


@settings(max_examples=40)
@given(states())
def test_every_legal_move_applies_without_changing_the_state(state: ChevronState) -> None:
    snap = snapshot(state)
    for move in sample(state):
        after = state.apply_move(move)
        assert after.ply == state.ply + 1
        assert after.last_move == move
        assert_unchanged(state, snap)


@settings(max_examples=40)
@given(states())
def test_legal_moves_are_members_and_round_trip_as_text(state: ChevronState) -> None:
    moves = state.legal_moves()
    for move in sample(state):
        assert move in moves
        text = str(move)
        assert Move.parse(text) == move
        assert state.parse_move(text) == move
        assert state.is_legal(text)
        assert state.is_legal(move)


@settings(max_examples=40)
@given(states())
def test_legal_moves_sequence_laws(state: ChevronState) -> None:
    """LegalMoves: len, indexing (also negative), slicing and iteration agree."""
    moves = state.legal_moves()
    n = len(moves)
    assert bool(moves) == (n > 0)
    assert (n == 0) == state.is_terminal
    listed_all = list(moves)
    assert len(listed_all) == n
    assert len(set(listed_all)) == n  # no move is listed twice
    assert [moves[i] for i in range(n)] == listed_all
    assert [moves[-i - 1] for i in range(n)] == listed_all[::-1]
    assert list(moves[1:5]) == listed_all[1:5]
    assert moves == listed_all
    with pytest.raises(IndexError):
        moves[n]
    assert state.legal_moves() is moves  # cached


@settings(max_examples=40)
@given(states(), st.data())
def test_illegal_moves_raise_and_change_nothing(state: ChevronState, data: st.DataObject) -> None:
    snap = snapshot(state)
    field = st.sampled_from(FIELD_NAMES)
    text = data.draw(
        st.one_of(
            st.builds(
                lambda a, sep, b, tail: a + sep + b + tail,
                field,
                st.sampled_from(["-", "x"]),
                field,
                st.sampled_from(["", "<", ">", "*", "+e5", "@a1"]),
            ),
            st.text(alphabet="abcdefghij0123456789-x<>*+@(),pas ", max_size=24),
        )
    )
    legal = {str(m) for m in sample(state)}
    if text.strip().lower() in legal or state.is_legal(text):
        return
    with pytest.raises((IllegalMoveError, NotationError)) as info:
        state.apply_move(text)
    if state.is_terminal:
        assert isinstance(info.value, (GameOverError, NotationError))
    if isinstance(info.value, IllegalMoveError):
        assert info.value.rule
        assert info.value.reason
        assert str(info.value).startswith(info.value.rule + ": ")
    assert_unchanged(state, snap)


@settings(max_examples=40)
@given(states())
def test_position_strings_round_trip(state: ChevronState) -> None:
    again = pos(state.to_position())
    assert again == state
    assert hash(again) == hash(state)
    assert again.to_position() == state.to_position()
    assert again.outcome == state.outcome
    assert eval(repr(state), {"pacru": pacru}) == state


@settings(max_examples=40)
@given(states(games=("lilacru", "shacru", "azacru")))
def test_moves_match_an_independent_reference(state: ChevronState) -> None:
    """The engine's moves equal a naive generator written from the rules (helpers)."""
    if state.is_terminal:
        assert moves_of(state) == set()
    else:
        assert moves_of(state) == reference_moves(state)


@settings(max_examples=40)
@given(states(games=("lilacru", "shacru")))
def test_end_test_matches_an_independent_reference(state: ChevronState) -> None:
    """L7, S-R6, D33: the outcome follows from a naive re-implementation of the end test."""
    if all(reference_moves(state, p) == {"pass"} for p in state.players):
        expected = Termination.NO_MOVES
    elif not reference_can_acquire(state):
        expected = Termination.NO_ACQUISITION
    elif state.idle >= 81 * len(state.players):
        expected = Termination.IDLE_LIMIT
    else:
        assert state.outcome is None
        return
    assert state.outcome is not None
    assert state.outcome.termination is expected


@settings(max_examples=40)
@given(states())
def test_rotating_the_board_rotates_the_moves(state: ChevronState) -> None:
    """E.3 symmetry: a position turned 90 degrees has the turned moves and the same outcome."""
    turned = pos(rotate_position(state.to_position()))
    assert turned.outcome == state.outcome
    assert dict(turned.scores) == dict(state.scores)
    if len(state.legal_moves()) <= 5000:
        assert moves_of(turned) == {rotate_move(str(m)) for m in state.legal_moves()}


@settings(max_examples=40)
@given(states())
def test_scores_are_the_markers_on_the_board(state: ChevronState) -> None:
    counts = dict.fromkeys(state.players, 0)
    for colour in state.marker_map().values():
        counts[colour] += 1
    assert dict(state.scores) == counts
    assert list(state.scores) == list(state.players)


ENDS = {
    "lilacru": {Termination.NO_MOVES, Termination.NO_ACQUISITION, Termination.IDLE_LIMIT},
    "shacru": {Termination.NO_MOVES, Termination.NO_ACQUISITION, Termination.IDLE_LIMIT},
    "azacru": {Termination.END_TRIGGERED},
}


@pytest.mark.parametrize("game", ["lilacru", "shacru", "azacru"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_full_random_games(game: str, players: int, seed: int) -> None:
    """Random games end {L7, S-R6, A-R10}; the top scorers win (D35); history replays."""
    first = start(game, players)
    line = random_line(first, seed, max_plies=2000)
    end = line.state
    assert isinstance(end, ChevronState)
    assert end == play_random(first, seed, max_plies=2000)
    assert end.is_terminal
    assert end.outcome is not None
    assert end.outcome.termination in ENDS[game]
    counts = dict.fromkeys(end.players, 0)
    for colour in end.marker_map().values():
        counts[colour] += 1
    assert dict(end.scores) == counts
    best = max(counts.values())
    assert end.winners == tuple(p for p in end.players if counts[p] == best)
    assert end.current_player is None
    assert len(end.legal_moves()) == 0
    with pytest.raises(GameOverError):
        end.apply_move("pass")
    replayed = first
    for move in line.moves:
        replayed = replayed.apply_move(str(move))
    assert replayed == end
    assert replayed.to_position() == end.to_position()
    assert replayed.outcome == end.outcome
    assert len(line) == end.ply
