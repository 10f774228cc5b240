"""Bookkeeping invariants, checked on every ply of drawn games.

* Pacru: markers on the board + supply = 42/28/24 for every player {R1, D29};
* Lilacru/Shacru/Azacru: markers only grow by the arrival field {L5, S-R3,
  A-R3} or the fields of an Azacru connection {A-R7}, which alone take
  opponents' markers; a one-field Shacru move adds at most one marker, the
  mover's, and changes nobody else's;
* LSD: supply + field + captured = the tile set (20 tiles) per colour {LSD 1.2};
* scores are the markers (tiles) on the board;
* chevron counts never rise;
* terminal states have no legal moves and an outcome of the game's kind.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pacru import ChevronState, GameState, Move, Termination
from pacru.chevron.ending import top_scorers
from pacru.chevron.rules import SUPPLY
from pacru.geometry import BETWEEN, LINE
from pacru.strategies import Playout

from .support import CHEVRON, GAMES, budget, cases, game_playouts, supply_of

# Terminations each game may end with {S-R6, L7, A-R10, R16, D32, D33, LSD 2.4}.
ENDINGS = {
    "lilacru": {Termination.NO_MOVES, Termination.NO_ACQUISITION, Termination.IDLE_LIMIT},
    "shacru": {Termination.NO_MOVES, Termination.NO_ACQUISITION, Termination.IDLE_LIMIT},
    "azacru": {Termination.END_TRIGGERED},
    "pacru": {Termination.LAST_PLAYER, Termination.SUPPLY_EXHAUSTED, Termination.MOVE_CAP},
    "lsd": {Termination.ROW, Termination.BLOCKED},
}


def _play(data: st.DataObject, game: str, players: int, max_plies: int = 150) -> Playout:
    return data.draw(game_playouts(game, players, max_plies))


def _plies(p: Playout) -> Iterator[tuple[Any, Any, Any]]:
    return zip(p.states, p.moves, p.states[1:], strict=False)


def _markers_on_board(state: ChevronState) -> dict[str, int]:
    counts = dict.fromkeys(state.players, 0)
    for colour in state.marker_map().values():
        counts[colour] += 1
    return counts


@cases(["pacru"])
@budget(12)
@given(data=st.data())
def test_pacru_marker_conservation_r1_d29(game: str, players: int, data: st.DataObject) -> None:
    """Markers on the board + supply = 42 (2p) / 28 (3p) / 24 (4p) for every player, every ply;
    an empty supply ends the game at once, won by its owner {R16b, D29}."""
    for state in _play(data, game, players, max_plies=250).states:
        assert isinstance(state, ChevronState)
        on_board = _markers_on_board(state)
        supply = supply_of(state)
        for colour in state.players:
            assert on_board[colour] + supply[colour] == {2: 42, 3: 28, 4: 24}[players]
            assert 0 <= supply[colour] <= SUPPLY[players]
        empty = tuple(c for c in state.players if supply[c] == 0)
        if empty:
            assert state.outcome is not None
            assert state.outcome.termination is Termination.SUPPLY_EXHAUSTED
            assert state.outcome.winners == empty


def _expected_markers(before: ChevronState, move: Move) -> tuple[tuple[int, ...], bool]:
    """The marker bitboards after ``move`` and whether the mover's chevron is removed,
    from the rules text: arrival {L5, S-R3, A-R3}, Azacru connection {A-R7, A-R8, D9-D12}."""
    markers = list(before.markers)
    seat = before.to_move
    if move.origin is None:  # a pass changes nothing {S-R2, A-R10}
        return tuple(markers), False
    assert move.target is not None
    own = markers[seat]
    _, k = LINE[move.origin * 81 + move.target]
    between = BETWEEN[move.origin * 81 + move.target]
    connection = (
        before.rules.azacru
        and k >= 2
        and own >> move.origin & 1
        and own >> move.target & 1
        and not between & before.occupied
    )
    removed = False
    if connection:
        removed = any(m & between for i, m in enumerate(markers) if i != seat)
        markers = [m & ~between for m in markers]
        markers[seat] = own | between
    else:
        markers[seat] = own | 1 << move.target
    return tuple(markers), removed


@cases([g for g in CHEVRON if g != "pacru"])
@budget(12)
@given(data=st.data())
def test_marker_bookkeeping_arrival_and_connection(
    game: str, players: int, data: st.DataObject
) -> None:
    """Lilacru/Shacru/Azacru: the mover gains exactly the arrival field or the connection's
    fields; only an Azacru connection takes opponents' markers, and then its chevron leaves
    the board {L5, S-R3, S-R5, A-R3, A-R7, A-R8, D6, D7, D12}."""
    p = _play(data, game, players)
    for before, move, after in _plies(p):
        expected, removed = _expected_markers(before, move)
        assert after.markers == expected, (before.to_position(), str(move))
        gained = [a & ~b for a, b in zip(after.markers, before.markers, strict=True)]
        lost = [b & ~a for a, b in zip(after.markers, before.markers, strict=True)]
        seat = before.to_move
        assert not any(g for i, g in enumerate(gained) if i != seat)  # only the mover gains
        if game != "azacru" or move.origin is None:
            # One field per move at most, and nobody else's marker changes {L5, S-R3}.
            assert gained[seat].bit_count() <= 1
            assert not any(lost)
        else:
            assert not lost[seat]
        mover_chevrons = len(after.chevrons[seat]) - len(before.chevrons[seat])
        assert mover_chevrons == (-1 if removed else 0)
        if move.origin is not None and not removed:
            assert after.chevron_at(move.target) is not None


@cases(CHEVRON)
@budget(10)
@given(data=st.data())
def test_scores_are_markers_and_chevrons_never_rise(
    game: str, players: int, data: st.DataObject
) -> None:
    """``scores`` counts each colour's markers on the board {S-R6, A-R10, R16}; no player ever
    gains a chevron, and the mover keeps its moved chevron except by Azacru removal {A-R7}."""
    p = _play(data, game, players)
    for state in p.states:
        assert isinstance(state, ChevronState)
        assert dict(state.scores) == _markers_on_board(state)
        assert list(state.scores) == list(state.players)
    for before, _, after in _plies(p):
        for a, b in zip(after.chevrons, before.chevrons, strict=True):
            assert len(a) <= len(b)
        assert sum(map(len, after.chevrons)) <= sum(map(len, before.chevrons))
        assert after.occupied == sum(1 << (c >> 3) for codes in after.chevrons for c in codes)


@cases(GAMES)
@budget(10)
@given(data=st.data())
def test_terminal_states_have_no_moves_and_an_outcome(
    game: str, players: int, data: st.DataObject
) -> None:
    """A finished game has an outcome of its own kind, no legal moves and nobody to move; an
    unfinished one has a player to move with a legal move {S-R6, L7, A-R10, R15, R16, LSD 2.4}."""
    p = _play(data, game, players, max_plies=300)
    for state in p.states:
        outcome = state.outcome
        if outcome is None:
            assert state.current_player in state.players
            assert len(state.legal_moves()) > 0
            assert state.winners == ()
            continue
        assert state.is_terminal
        assert state.current_player is None
        assert len(state.legal_moves()) == 0
        assert outcome.termination in ENDINGS[game]
        assert set(outcome.winners) <= set(state.players)
        assert state.winners == outcome.winners
        if isinstance(state, ChevronState):
            _check_chevron_winners(state)
    assert all(not s.is_terminal for s in p.states[:-1])  # play stops at the end


def _check_chevron_winners(state: ChevronState) -> None:
    outcome = state.outcome
    assert outcome is not None
    term = outcome.termination
    if not state.rules.pacru:  # most markers, ties shared {S-R6, A-R10, D35}
        assert outcome.winners == top_scorers(state.players, state.markers)
    elif term is Termination.LAST_PLAYER:  # {R16a}
        alive = tuple(p for p, c in zip(state.players, state.chevrons, strict=True) if c)
        assert outcome.winners == alive
        assert len(alive) <= 1
    elif term is Termination.SUPPLY_EXHAUSTED:  # {R16b}
        assert [supply_of(state)[w] for w in outcome.winners] == [0]
    else:  # the non-official cap: no winner (D32)
        assert outcome.winners == ()
        assert state.rules.move_cap is not None
        assert state.ply >= state.rules.move_cap


@cases(["lsd"])
@budget(12)
@given(data=st.data())
def test_lsd_tile_conservation(game: str, players: int, data: st.DataObject) -> None:
    """Supply + field + captured = the tile set (20 per colour by default) {LSD 1.2, 2.3};
    scores count the tiles on the field."""
    p = _play(data, game, players, max_plies=80)
    start: Any = p.start
    for state in p.states:
        lsd: Any = state
        on_field = dict.fromkeys(lsd.players, 0)
        for tile in lsd.field.values():
            on_field[tile.owner] += 1
        assert dict(lsd.scores) == on_field
        for colour in lsd.players:
            total = lsd.supply_size(colour) + on_field[colour] + lsd.captured_count(colour)
            assert total == start.supply_size(colour)
            if "tile_set" not in p.spec.kwargs:
                assert total == 20


def test_game_state_protocol_is_shared() -> None:
    """Every available game's state is a GameState (the property tests rely on it)."""
    from pacru.strategies import GameSpec

    for game in GAMES:
        assert isinstance(GameSpec(game, 2).new(), GameState)
