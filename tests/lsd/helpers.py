"""Shared helpers of the LSD tests.

``pos`` types a position from its field (grammar of :mod:`pacru.lsd.position`),
``texts`` turns a move list into a set of move texts, ``error_of`` catches an
IllegalMoveError, ``play_random`` plays seeded random games, and
``reference_moves`` / ``reference_captures`` / ``reference_row_owners`` are an
independent, deliberately naive implementation of LSD.md 2.2-2.4 written from
the rules text, on the public API only, to cross-check the engine's tables.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

import pytest

from pacru import lsd
from pacru.errors import IllegalMoveError
from pacru.lsd import Cell, LsdMove, LsdState, Shape, Tile

__all__ = [
    "SEATS",
    "error_of",
    "play_random",
    "pos",
    "reference_captures",
    "reference_moves",
    "reference_row_owners",
    "texts",
]

#: The default seats per player count (LSD.md 3.1: seats 0, 2 black; 1, 3 white).
SEATS = {
    2: "red:B,yellow:W",
    3: "red:B,yellow:W,green:B",
    4: "red:B,yellow:W,green:B,blue:W",
}
#: (dx, dy) across sides N, E, S, W, written out again from LSD.md 2.1.
DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def pos(
    field: str, turn: str, players: int = 2, captured: str = "-", options: str = ""
) -> LsdState:
    """The state with this field (``-`` for none), captured tiles and player to move."""
    return lsd.from_position(f"lsd {SEATS[players]} {field} {captured} {turn} {options}")


def texts(moves: Iterable[LsdMove]) -> set[str]:
    return {str(m) for m in moves}


def error_of(state: LsdState, move: str) -> IllegalMoveError:
    """The IllegalMoveError ``apply_move(move)`` raises; fails the test if none."""
    with pytest.raises(IllegalMoveError) as info:
        state.apply_move(move)
    return info.value


def play_random(state: LsdState, seed: int, plies: int = 10_000) -> LsdState:
    """``state`` after up to ``plies`` seeded random legal moves (fewer if it ends)."""
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal:
            break
        state = state.apply_move(rng.choice(state.legal_moves()))
    return state


def _fits(field: Mapping[Cell, Tile], strict: bool, tile: Tile, cell: Cell) -> bool:
    """LSD.md 2.2 read literally, with RULING 5 when ``strict``."""
    if not field:
        return cell == (0, 0)
    if cell in field:
        return False
    whole = 0
    for side, (dx, dy) in enumerate(DELTAS):
        other = field.get((cell[0] + dx, cell[1] + dy))
        if other is None:
            continue
        mine, theirs = tile.sides[side], other.sides[(side + 2) % 4]
        if mine and theirs:
            whole += 1
        elif (theirs and not mine) or (mine and strict):
            return False
    return whole >= 1


def reference_moves(state: LsdState) -> set[str]:
    """Every legal move text, by trying every supply tile, turn and nearby cell."""
    colour = state.current_player
    if colour is None:
        return set()
    field = dict(state.field)
    strict = state.rules.strict_dot_matching
    bounds = state.bounds or ((0, 0), (0, 0))
    cells = [
        (x, y)
        for x in range(bounds[0][0] - 1, bounds[1][0] + 2)
        for y in range(bounds[0][1] - 1, bounds[1][1] + 2)
    ]
    turns = range(4) if state.rules.allow_rotation else range(1)
    result = set()
    for tile in state.supply_tiles(colour):
        for turned in {tile.rotated(k) for k in turns}:
            for cell in cells:
                if _fits(field, strict, turned, cell):
                    result.add(f"{turned.face}@{cell[0]},{cell[1]}")
    return result


def reference_captures(state: LsdState, move: LsdMove) -> set[Cell]:
    """The cells LSD.md 2.3 (RULINGS 8-14) says placing ``move`` captures."""
    if not state.field:
        return set()
    x, y = move.cell

    def victim(cell: Cell) -> bool:
        tile = state.tile_at(cell)
        return tile is not None and tile.shade is not move.shade

    def partner(cell: Cell) -> bool:
        tile = state.tile_at(cell)
        return tile is not None and (tile.shape, tile.shade) == (move.shape, move.shade)

    found = set()
    if move.shape is Shape.PLUS:
        for dx, dy in DELTAS:
            if victim((x + dx, y + dy)) and partner((x + 2 * dx, y + 2 * dy)):
                found.add((x + dx, y + dy))
    else:
        for dx in (-1, 1):
            for dy in (-1, 1):
                if partner((x + dx, y + dy)):
                    found |= {c for c in ((x + dx, y), (x, y + dy)) if victim(c)}
    return found


def reference_row_owners(state: LsdState) -> set[str]:
    """Colours with a horizontal or vertical line of ``row_length`` own tiles (1.7)."""
    field = state.field
    length = state.rules.row_length
    owners = set()
    for (x, y), tile in field.items():
        for dx, dy in ((1, 0), (0, 1)):
            cells = [(x + i * dx, y + i * dy) for i in range(length)]
            if all(c in field and field[c].owner == tile.owner for c in cells):
                owners.add(tile.owner)
    return owners
