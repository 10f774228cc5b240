"""The LSD action layout, decisions and observation window.

LSD is played on an unbounded grid, so actions and observations use a fixed
square *window* of ``W x W`` cells (``W = 2R + 1``) centred on the tiles in
play: its centre is ``(floor((min_x + max_x) / 2), floor((min_y + max_y) / 2))``
of the tiles on the field, ``(0, 0)`` on the empty field. ``R`` is
``ceil(T / 2)`` for ``T`` the tiles of all the players' tile sets (40 in a
default two-player game: ``R = 20``, ``W = 41``).

**The edge.** The window never cuts off a legal cell: every tile ever placed
touches an earlier one, so the tiles placed so far (``m <= T - 1`` while
someone can still place) form a connected set whose bounding box is at most
``m`` wide, and a window reaching ``ceil((m - 1) / 2) + 1`` cells beyond the
centre covers the box and the ring of cells around it, where every legal
placement lies {LSD 2.2}. Captured tiles can leave the field in pieces
(RULING 21), but the pieces stay inside the box of everything ever placed.
A cell outside the window therefore never holds a legal move; :meth:`start`
raises :class:`AssertionError` if one ever did (it cannot).

A move takes two decisions:

=========  ===================================================  ================
decision   what is chosen                                       actions
=========  ===================================================  ================
cell       the cell: ``(y - y0) * W + (x - x0)`` with           ``0 .. W*W - 1``
           ``(x0, y0)`` the window's south-west corner
tile       the tile as placed: ``W*W + face``, ``face`` =        ``W*W .. W*W+63``
           dots N 1, E 2, S 4, W 8, + 16 for an ``x`` icon,
           + 32 for a white icon
=========  ===================================================  ================

The cell decision is always asked; the tile decision is skipped when a
single tile fits the chosen cell (as for the chevron games).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from pacru.encoding.base import Decision, Encoding, make_decision
from pacru.lsd.tiles import Shade, Shape, face_code, face_text, sides_to_mask

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from pacru.base import GameState
    from pacru.lsd.moves import LsdMove
    from pacru.lsd.state import LsdState
    from pacru.lsd.tiles import Cell, Tile

__all__ = ["FACES", "LsdEncoding", "window_radius"]

#: The number of tile faces (actions of the tile decision).
FACES: Final = 64
_CELL, _TILE, _DONE = 0, 1, 2
_KINDS: Final = ("cell", "tile", "done")
_CELL_OF: Final = attrgetter("cell")


def window_radius(total_tiles: int) -> int:
    """``R`` of the window for ``total_tiles`` tiles in all tile sets: ``ceil(T / 2)``, >= 1."""
    return max(1, (total_tiles + 1) // 2)


class _Cursor(NamedTuple):
    stage: int
    x0: int
    y0: int
    moves: tuple[LsdMove, ...]
    cells: list[Cell]  # the cell of each legal move
    cell: int = -1  # the cell action chosen
    faces: dict[int, LsdMove] | None = None  # face -> move on the chosen cell


def _face(move: LsdMove) -> int:
    return face_code(move.shape, move.shade, sides_to_mask(move.sides))


def _tile_face(tile: Tile) -> int:
    return face_code(tile.shape, tile.shade, sides_to_mask(tile.sides))


class LsdEncoding(Encoding):
    """The encoding of LSD for a player count and tile set (see the module docstring).

    ``observation_shape`` is ``(P * (K + 3) + 10, W, W)`` for ``P`` players and
    ``K`` tile kinds per tile set, indexed ``obs[c, y - y0, x - x0]``; the
    planes are listed by :meth:`plane_names`.
    """

    def __init__(self, players: int, **options: Any) -> None:
        from pacru.lsd import new_game

        root = new_game(players, **options)
        rules = root.rules
        self.game = "lsd"
        self.players = players
        self.options = dict(options)
        self.rules = rules
        total = sum(sum(counts) for counts in rules.initial)
        self.radius = window_radius(total)
        self.width = w = 2 * self.radius + 1
        self.cells = w * w
        self.num_actions = self.cells + FACES
        self.max_decisions = 2
        self.kinds = max(len(k) for k in rules.kinds)
        self.observation_shape = (players * (self.kinds + 3) + 10, w, w)
        #: Every ply places a tile from a supply {LSD 1.5}.
        self.max_game_length = total
        self._initial = tuple(max(1, sum(c)) for c in rules.initial)

    def _same_rules(self, state: GameState[Any]) -> bool:
        # Colour names and the first player do not change actions or observations.
        rules = getattr(state, "rules", None)
        return rules is self.rules or (
            rules is not None
            and rules.kinds == self.rules.kinds
            and rules.initial == self.rules.initial
        )

    def _window(self, state: LsdState) -> tuple[int, int]:
        bounds = state.bounds
        if bounds is None:
            cx = cy = 0
        else:
            (min_x, min_y), (max_x, max_y) = bounds
            cx, cy = (min_x + max_x) // 2, (min_y + max_y) // 2
        return cx - self.radius, cy - self.radius

    def start(self, state: GameState[Any]) -> Decision:
        self._check_state(state)
        lsd: LsdState = state  # type: ignore[assignment]
        x0, y0 = self._window(lsd)
        w = self.width
        moves = lsd.legal_moves()
        cells = list(map(_CELL_OF, moves))
        legal = []
        for x, y in dict.fromkeys(cells):  # the distinct cells, in order of first use
            i, j = y - y0, x - x0
            if not (0 <= i < w and 0 <= j < w):
                raise AssertionError(f"legal cell {(x, y)} outside the LSD window")
            legal.append(i * w + j)
        legal.sort()
        seat = lsd.players.index(lsd.current_player)
        cursor = _Cursor(_CELL, x0, y0, moves, cells)
        return make_decision(self, state, seat, (), tuple(legal), "cell", None, cursor)

    def _choose(self, decision: Decision, action: int) -> Decision:
        cursor: _Cursor = decision[7]
        prefix = (*decision[3], action)
        if cursor.stage == _CELL:
            i, j = divmod(action, self.width)
            cell = (j + cursor.x0, i + cursor.y0)
            faces = {
                _face(m): m for m, c in zip(cursor.moves, cursor.cells, strict=True) if c == cell
            }
            cursor = cursor._replace(stage=_TILE, cell=action, faces=faces)
            if len(faces) > 1:
                legal = tuple(self.cells + f for f in sorted(faces))
                return make_decision(
                    self, decision[1], decision[2], prefix, legal, "tile", None, cursor
                )
            move = next(iter(faces.values()))
        else:
            assert cursor.faces is not None
            move = cursor.faces[action - self.cells]
        done = cursor._replace(stage=_DONE)
        return make_decision(self, decision[1], decision[2], prefix, (), "done", move, done)

    def action_to_choice(self, decision: Decision, move: Any) -> int:
        cursor: _Cursor = decision[7]
        if cursor.stage == _CELL:
            x, y = move.cell[0] - cursor.x0, move.cell[1] - cursor.y0
            w = self.width
            return y * w + x if 0 <= x < w and 0 <= y < w else -1
        if cursor.stage == _TILE:
            return self.cells + _face(move)
        return -1

    def action_name(self, action: int) -> str:
        """``"cell +3,-2"`` (offset from the window centre, x then y) or ``"tile B+NE"``."""
        if not isinstance(action, int) or not 0 <= action < self.num_actions:
            return "?"
        if action < self.cells:
            y, x = divmod(action, self.width)
            return f"cell {x - self.radius:+d},{y - self.radius:+d}"
        return f"tile {face_text(action - self.cells)}"

    def plane_names(self) -> tuple[str, ...]:
        """The name of each observation plane, in order."""
        p = self.players
        names = [f"tile of seat {r}" for r in range(p)]
        names += [f"half dot {s}" for s in "NESW"]
        names += ["icon x", "icon white", "open cell", "chosen cell", "deciding cell"]
        names += ["deciding tile"]
        names += [f"to move seat {r}" for r in range(p)]
        names += [f"supply seat {r} kind {k}" for r in range(p) for k in range(self.kinds)]
        names += [f"captured seat {r}" for r in range(p)]
        return tuple(names)

    def observation(self, decision: Decision, player: int) -> npt.NDArray[np.float32]:
        """The observation planes of ``decision`` seen by seat ``player`` (:meth:`plane_names`).

        Binary planes on the window: the owner of each tile (seats rotated so
        ``player`` is seat 0), its half dots as placed (N, E, S, W), its icon
        (``x`` shape, white shade), the open cells {LSD 2.2}, the chosen cell,
        the decision being taken and the seat to move. Real planes: each
        seat's supply of each tile kind as a share of its tile set (kinds in
        the order of ``rules.kinds``) and each seat's captured tiles as a share
        of its tile set {LSD 2.3}.

        Raises:
            ValueError: ``player`` is not a seat index.
        """
        import numpy as np

        p = self.players
        if not 0 <= player < p:
            raise ValueError(f"player must be a seat index 0..{p - 1}, not {player!r}")
        state: LsdState = decision.state  # type: ignore[assignment]
        cursor: _Cursor = decision[7]
        w, x0, y0 = self.width, cursor.x0, cursor.y0
        out = np.zeros(self.observation_shape, dtype=np.float32)
        rules = self.rules
        seats = {c: i for i, c in enumerate(state.players)}
        # Supplies as the tile set minus the tiles on the field and captured (LSD 1.2, 2.3).
        left = [list(counts) for counts in rules.initial]
        for (x, y), tile in state.field.items():
            seat = seats[tile.owner]
            left[seat][rules.kind_of[seat][_tile_face(tile)]] -= 1
            i, j = y - y0, x - x0
            if 0 <= i < w and 0 <= j < w:
                out[(seat - player) % p, i, j] = 1.0
                for side in range(4):
                    if tile.sides[side]:
                        out[p + side, i, j] = 1.0
                if tile.shape is Shape.CROSS:
                    out[p + 4, i, j] = 1.0
                if tile.shade is Shade.WHITE:
                    out[p + 5, i, j] = 1.0
        for x, y in state.open_cells:
            i, j = y - y0, x - x0
            if 0 <= i < w and 0 <= j < w:
                out[p + 6, i, j] = 1.0
        if cursor.cell >= 0:
            i, j = divmod(cursor.cell, w)
            out[p + 7, i, j] = 1.0
        if cursor.stage < _DONE:
            out[p + 8 + cursor.stage] = 1.0
        if state.current_player is not None:
            out[p + 10 + (seats[state.current_player] - player) % p] = 1.0
        base = 2 * p + 10
        for colour, seat in seats.items():
            r = (seat - player) % p
            lost = 0
            for tile, count in state.captured(colour).items():
                left[seat][rules.kind_of[seat][_tile_face(tile)]] -= count
                lost += count
            for kind, count in enumerate(left[seat]):
                out[base + r * self.kinds + kind] = count / self._initial[seat]
            out[base + p * self.kinds + r] = lost / self._initial[seat]
        return out
