"""The LSD rules on integer encodings: placement, capture, rows, skipping {LSD 2.2-2.4}.

==================  ===========================================================
Item                Encoding
==================  ===========================================================
field               ``dict`` cell code -> ``face | seat << 6`` (see :mod:`.tiles`)
frontier            ``dict`` empty cell code -> ``need | forbid << 4``, for the
                    empty cells that face at least one open half dot
supply, captured    per seat, a tuple of counts indexed like ``rules.kinds[seat]``
==================  ===========================================================

``need`` marks the sides of an empty cell whose neighbour shows a half dot
towards it, ``forbid`` those whose neighbour shows an empty side. Only frontier
cells can take a tile (a placement must make a whole dot, 2.2.3), and the
frontier changes only around the placed tile and the captured ones, so it is
kept incrementally and move generation never scans the field.

Everything here is private to :mod:`pacru.lsd`; :class:`~pacru.lsd.LsdState` is
the public face.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from pacru.base import Outcome, Termination
from pacru.lsd.moves import LsdMove
from pacru.lsd.rules import LsdRules
from pacru.lsd.tiles import (
    CELL_STRIDE,
    DOT_BITS,
    FACE_BITS,
    ICON_BITS,
    OWNER_SHIFT,
    SHADE_BIT,
    SHAPE_BIT,
    STEP,
)

__all__ = [
    "affected_cells",
    "can_place",
    "captures",
    "constraint",
    "fitting_faces",
    "has_row",
    "next_seat",
    "play",
    "refresh_frontier",
    "rows_of",
    "scattered_tiles",
]

_N, _E, _S, _W = STEP
#: For each side s: (cell offset of the neighbour, the neighbour's side facing back as a bit).
_FACING: Final = tuple((STEP[s], 1 << ((s + 2) % 4)) for s in range(4))
#: For each diagonal: (offset of the corner partner, offsets of the two cells
#: orthogonally adjacent to both tiles -- the possible victims) {LSD 2.3}.
_DIAGONALS: Final = (
    (_N + _E, _N, _E),
    (_S + _E, _S, _E),
    (_S + _W, _S, _W),
    (_N + _W, _N, _W),
)


def constraint(field: dict[int, int], cell: int) -> int:
    """``need | forbid << 4`` of an empty cell (see the module docstring)."""
    need = forbid = 0
    for side, (offset, back) in enumerate(_FACING):
        tile = field.get(cell + offset)
        if tile is not None:
            if tile & back:
                need |= 1 << side
            else:
                forbid |= 1 << side
    return need | forbid << 4


def refresh_frontier(frontier: dict[int, int], field: dict[int, int], cells: Iterable[int]) -> None:
    """Recompute the frontier entries of ``cells`` after the field changed there."""
    for cell in cells:
        if cell in field:
            frontier.pop(cell, None)
            continue
        code = constraint(field, cell)
        if code & DOT_BITS:
            frontier[cell] = code
        else:
            frontier.pop(cell, None)


def affected_cells(cell: int, victims: Iterable[int]) -> list[int]:
    """The cells whose frontier entry may change when ``cell`` fills and ``victims`` empty."""
    cells = [cell, cell + _N, cell + _E, cell + _S, cell + _W]
    for victim in victims:
        cells += (victim, victim + _N, victim + _E, victim + _S, victim + _W)
    return cells


def captures(field: dict[int, int], cell: int, face: int) -> list[int]:
    """The cells captured by placing ``face`` on ``cell`` {LSD 1.6, 2.3}.

    Only the placed tile acts as a captor (RULING 8), so a tile placed between
    two captors is safe and every victim is an orthogonal neighbour of ``cell``
    (at most four). The partner must match the placed tile's shape and shade
    (RULING 12) and may belong to anyone (RULING 14); a victim is any tile of
    the other shade, whatever its shape or owner (RULING 13). All victims are
    found before any is removed (simultaneous, RULING 9).

    * ``+``: the neighbour across side ``d`` is taken when the cell beyond it
      holds a partner (exactly distance 2, RULING 11).
    * ``x``: for each diagonal partner touching a corner, both cells adjacent
      to the two of them are taken, each on its own (RULING 10).
    """
    icon = face & ICON_BITS
    shade = face & SHADE_BIT
    victims: list[int] = []
    if face & SHAPE_BIT:
        for diagonal, first, second in _DIAGONALS:
            partner = field.get(cell + diagonal)
            if partner is None or partner & ICON_BITS != icon:
                continue
            for offset in (first, second):
                victim = cell + offset
                tile = field.get(victim)
                if tile is not None and tile & SHADE_BIT != shade and victim not in victims:
                    victims.append(victim)
    else:
        for offset in STEP:
            victim = cell + offset
            tile = field.get(victim)
            if tile is not None and tile & SHADE_BIT != shade:
                partner = field.get(victim + offset)
                if partner is not None and partner & ICON_BITS == icon:
                    victims.append(victim)
    return victims


def _run(field: dict[int, int], cell: int, seat: int, step: int) -> int:
    length = 0
    cell += step
    while (tile := field.get(cell)) is not None and tile >> OWNER_SHIFT == seat:
        length += 1
        cell += step
    return length


def has_row(field: dict[int, int], cell: int, seat: int, length: int) -> bool:
    """Whether the tile on ``cell`` is part of a horizontal or vertical line of
    at least ``length`` tiles owned by ``seat`` {LSD 1.7, 2.4.1, RULING 15, 16}.

    Only lines through the placed tile need checking: captures only remove
    tiles, so the mover's placement is the only new tile that can make a row.
    """
    for step in (1, CELL_STRIDE):
        if 1 + _run(field, cell, seat, step) + _run(field, cell, seat, -step) >= length:
            return True
    return False


def rows_of(field: dict[int, int], length: int) -> set[int]:
    """The seats owning a line of at least ``length`` tiles anywhere on the field."""
    seats = set()
    for cell, tile in field.items():
        seat = tile >> OWNER_SHIFT
        if seat not in seats and has_row(field, cell, seat, length):
            seats.add(seat)
    return seats


def can_place(
    rules: LsdRules,
    seat: int,
    field: dict[int, int],
    frontier: dict[int, int],
    supply: tuple[int, ...],
) -> bool:
    """Whether ``seat`` has at least one legal placement {LSD 2.2, 2.4.2}."""
    reach = 0
    for count, kind_reach in zip(supply, rules.reach[seat], strict=True):
        if count:
            reach |= kind_reach
    if not reach:
        return False
    if not field:
        return True
    fit = rules.fit
    return any(fit[code] & reach for code in frontier.values())


def next_seat(
    rules: LsdRules,
    mover: int,
    field: dict[int, int],
    frontier: dict[int, int],
    supplies: tuple[tuple[int, ...], ...],
) -> int:
    """The next seat clockwise after ``mover`` that can place, or -1 if none can.

    Seats without a legal placement are skipped (RULING 19); the mover comes
    last, so a lone player who can still place moves again {LSD 2.4.2}.
    """
    players = len(supplies)
    for step in range(1, players + 1):
        seat = (mover + step) % players
        if can_place(rules, seat, field, frontier, supplies[seat]):
            return seat
    return -1


def play(
    rules: LsdRules,
    seat: int,
    field: dict[int, int],
    frontier: dict[int, int],
    supplies: tuple[tuple[int, ...], ...],
    captured: tuple[tuple[int, ...], ...],
    move: LsdMove,
) -> tuple[
    dict[int, int],
    dict[int, int],
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
    int,
    Outcome | None,
]:
    """The field, frontier, supplies, captured tiles, turn and outcome after ``seat`` plays
    ``move``, known to be legal {LSD 1.5, 2.2-2.4}; the arguments are not changed.

    The tile is placed, the placed tile captures (2.3), the mover's row is checked
    (RULING 18), and the turn passes clockwise, skipping players who cannot place
    (RULING 19); if nobody can, the game is drawn (turn -1 once over).
    """
    face, cell = move._face, move._code
    first = not field
    field = field.copy()
    field[cell] = face | seat << OWNER_SHIFT
    supply = list(supplies[seat])
    supply[rules.kind_of[seat][face]] -= 1
    supplies = (*supplies[:seat], tuple(supply), *supplies[seat + 1 :])

    victims = [] if first else captures(field, cell, face)
    if victims:
        lists = [list(c) for c in captured]
        for victim in victims:
            code = field.pop(victim)
            owner = code >> OWNER_SHIFT
            lists[owner][rules.kind_of[owner][code & FACE_BITS]] += 1
        captured = tuple(tuple(c) for c in lists)

    frontier = frontier.copy()
    refresh_frontier(frontier, field, affected_cells(cell, victims))

    outcome: Outcome | None = None
    if not first and has_row(field, cell, seat, rules.row_length):
        outcome, turn = Outcome(Termination.ROW, (rules.colours[seat],)), -1
    else:
        turn = next_seat(rules, seat, field, frontier, supplies)
        if turn < 0:
            outcome = Outcome(Termination.BLOCKED, ())
    return field, frontier, supplies, captured, turn, outcome


def fitting_faces(rules: LsdRules, seat: int, supply: tuple[int, ...], code: int) -> list[int]:
    """The faces ``seat`` can place on an empty cell with constraint ``code``.

    ``code`` 0 stands for the first tile, which fits in any orientation
    (RULING 20); otherwise the tile must fit its neighbours {LSD 2.2}. The
    faces come by kind, then orientation; a kind with several copies and
    orientations that look the same give one face each.
    """
    allowed = rules.fit[code] if code else 0xFFFF
    faces: list[int] = []
    for count, kind_reach, orients in zip(
        supply, rules.reach[seat], rules.orients[seat], strict=True
    ):
        if count and allowed & kind_reach:
            faces.extend(face for mask, face in orients if allowed >> mask & 1)
    return faces


def scattered_tiles(field: dict[int, int], captured: int) -> list[int]:
    """The cells of tiles that cannot have been placed touching the others {LSD 2.2}; [] if none.

    Every tile is placed against a tile on the field, so the cells ever
    occupied form one orthogonally connected set of at most ``len(field) +
    captured`` cells (a captured tile's cell may be filled again). With no
    capture the field itself is that set: it must be one piece. Captures can
    leave it in pieces (RULING 21), but the set of ``m`` cells spans ``w``
    columns and ``h`` rows only if ``w + h - 1 <= m``. Either test failing
    names the tiles outside the largest piece (the first such piece in cell
    order on a tie); both only ever refuse what play cannot reach.
    """
    pieces = _pieces(field)
    if len(pieces) < 2:
        return []
    if captured:
        xs = [c // CELL_STRIDE for c in field]
        ys = [c % CELL_STRIDE for c in field]
        if max(xs) - min(xs) + max(ys) - min(ys) + 1 <= len(field) + captured:
            return []
    largest = max(pieces, key=len)
    return sorted(c for piece in pieces if piece is not largest for c in piece)


def _pieces(field: dict[int, int]) -> list[list[int]]:
    """The orthogonally connected pieces of the field, each a list of cells, in cell order."""
    seen: set[int] = set()
    pieces = []
    for start in sorted(field):
        if start in seen:
            continue
        seen.add(start)
        piece, todo = [], [start]
        while todo:
            cell = todo.pop()
            piece.append(cell)
            for step in STEP:
                near = cell + step
                if near in field and near not in seen:
                    seen.add(near)
                    todo.append(near)
        pieces.append(piece)
    return pieces
