"""Board symmetry: the rules commute with rotating and mirroring the board {B.2, B.3, E.3}.

The field and direction maps come from the geometry tables (see
:mod:`tests.properties.support`); positions are transformed as text and read
back with ``from_position``, and the legal move sets are compared exactly.

* 4 players: a quarter turn maps seat S -> W -> N -> E -> S (B.2), so with the
  colours moved along (green -> black -> yellow -> red -> green) every game
  replays move for move from the start with black first;
* 2 players: the half turn swaps the standard seats S (+i9 SW) and N (+a1 NE)
  (B.3), so with green and yellow swapped every game replays with yellow first;
* any position (also random boards), any of the 8 symmetries of the square:
  legal moves map onto legal moves, mirrors flipping twists {S-R4} and
  reorientation turns {R14}, and applying a move commutes with the symmetry.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacru import ChevronState, GameState, from_position, new_game
from pacru.encoding.symmetry import Symmetry
from pacru.geometry import BORDERLAND, BORDERLAND_FIELDS, NEIGHBOUR
from pacru.strategies import Playout, games, legal_moves, playouts

from .support import (
    CHEVRON,
    DIHEDRAL,
    ROTATE_90,
    ROTATE_180,
    budget,
    cases,
    game_states,
    mapped_signature,
    move_signature,
)

QUARTER_TURN_COLOURS = {"green": "black", "black": "yellow", "yellow": "red", "red": "green"}
HALF_TURN_COLOURS = {"green": "yellow", "yellow": "green"}


@pytest.mark.parametrize("sym", DIHEDRAL, ids=lambda s: s.name)
def test_symmetries_keep_neighbours_and_borderlands(sym: Symmetry) -> None:
    """Each symmetry maps every field's neighbour in each direction onto the image field's
    neighbour in the image direction (off the board onto off the board), and every
    borderland onto one borderland {G2}."""
    for f in range(81):
        for k in range(8):
            n = NEIGHBOUR[f][k]
            image = NEIGHBOUR[sym.fields[f]][sym.directions[k]]
            assert image == (-1 if n < 0 else sym.fields[n]), (sym.name, f, k)
    for land in BORDERLAND_FIELDS:
        assert len({BORDERLAND[sym.fields[f]] for f in land}) == 1, sym.name


def _image(state: GameState[Any], sym: Symmetry, colours: dict[str, str] | None = None) -> Any:
    return from_position(sym.position(state.to_position(), colours))


def _check_replay(p: Playout, sym: Symmetry, colours: dict[str, str], first: str) -> None:
    """Replaying the image of every move from the image start reproduces every image state."""
    image: Any = new_game(p.spec.game, p.spec.players, first_player=first)
    assert image == _image(p.start, sym, colours)
    for move, after in zip(p.moves, p.states[1:], strict=True):
        image = image.apply_move(sym.move(move))
        assert image == _image(after, sym, colours), (str(move), after.to_position())
        assert image.winners == tuple(colours[w] for w in after.winners)
    final = p.final
    assert isinstance(final, ChevronState)
    assert move_signature(image) == mapped_signature(final, sym)


@cases(CHEVRON, [4])
@budget(8)
@given(data=st.data())
def test_quarter_turn_maps_4p_legal_moves_b2(game: str, players: int, data: st.DataObject) -> None:
    """Rotating a 4-player game by 90 degrees with its seats maps legal moves onto legal moves
    and every position onto the rotated game's position {B.2}."""
    p = data.draw(playouts(specs=games(game, players, options=False), max_plies=80))
    _check_replay(p, ROTATE_90, QUARTER_TURN_COLOURS, first="black")


@cases(CHEVRON, [2])
@budget(8)
@given(data=st.data())
def test_half_turn_maps_2p_legal_moves_b3(game: str, players: int, data: st.DataObject) -> None:
    """Turning a 2-player game by 180 degrees swaps the seats S and N; with green and yellow
    swapped it is the same game with yellow first, move for move {B.3, D1}."""
    p = data.draw(playouts(specs=games(game, players, options=False), max_plies=80))
    _check_replay(p, ROTATE_180, HALF_TURN_COLOURS, first="yellow")


@cases(CHEVRON)
@budget(6)
@given(data=st.data(), sym=st.sampled_from(DIHEDRAL))
def test_every_symmetry_maps_legal_moves(
    game: str, players: int, data: st.DataObject, sym: Symmetry
) -> None:
    """For any position and any symmetry of the square, the image position's legal moves are
    exactly the images of the legal moves, and a move's successor maps onto the image move's
    successor (mirrors flip twists and turns) {G3, G4, S-R4, R14, E.3}."""
    state = data.draw(game_states(game, players))
    image = _image(state, sym)
    assert isinstance(image, ChevronState)
    assert image.outcome == state.outcome
    assert move_signature(image) == mapped_signature(state, sym)
    if state.legal_moves():
        move = data.draw(legal_moves(state))
        after = state.apply_move(move)
        assert image.apply_move(sym.move(move)) == _image(after, sym)
