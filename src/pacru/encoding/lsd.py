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
A cell outside the window therefore never holds a legal move in a position
play reaches. A diagram loaded with ``adjudicate=False`` can hold tiles that
play cannot leave so far apart (:attr:`pacru.Status.DISCONNECTED_TILES`);
:meth:`~LsdEncoding.start` refuses one that outgrows the window with an
:class:`~pacru.InvalidPositionError`.

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

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from operator import attrgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from pacru._integers import integer
from pacru.encoding.base import Decision, Encoding, register, seat_index
from pacru.errors import InvalidPositionError
from pacru.lsd.moves import _MOVES, _move_key
from pacru.lsd.state import LsdState
from pacru.lsd.tiles import CELL_OFFSET, CELL_STRIDE, Shade, Shape, face_text

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from pacru._native import LsdMoves
    from pacru.base import GameState
    from pacru.lsd.moves import LsdMove
    from pacru.lsd.tiles import Cell

__all__ = ["FACES", "LsdEncoding", "window_radius"]

#: The number of tile faces (actions of the tile decision).
FACES: Final = 64
_CELL, _TILE, _DONE = 0, 1, 2
_KINDS: Final = ("cell", "tile", "done")
_CELL_OF: Final = attrgetter("cell")
#: Decisions are made as :func:`pacru.encoding.base.make_decision` makes them, without its
#: call: a frame less per decision.
_new_tuple: Final = tuple.__new__


def window_radius(total_tiles: int) -> int:
    """``R`` of the window for ``total_tiles`` tiles in all tile sets: ``ceil(T / 2)``, >= 1."""
    return max(1, (total_tiles + 1) // 2)


#: What has been fixed so far of an LSD move, a plain tuple for speed: (stage,
#: window corner x0, y0, the legal moves, the cell of each, the cell action chosen
#: or -1, face -> move on the chosen cell or None). On a native list the moves are
#: the engine's list of move keys (``cell code << 6 | face``), the cells None and
#: the last item the chosen cell's code: the engine gives the cells' actions and the
#: chosen cell's tile actions, and only the chosen move is made, from its key
#: (making the position's every move, or even a Python int per move, would cost
#: more than the whole ply of the public API).
_Cursor = tuple[
    int,
    int,
    int,
    "Sequence[LsdMove] | LsdMoves",
    "list[Cell] | None",
    int,
    "dict[int, LsdMove] | int | None",
]


#: The 6-bit face of a move's tile as placed: the tile action minus ``W*W``. It is
#: the engine's own face code (:mod:`pacru.lsd.tiles`: dots N 1, E 2, S 4, W 8,
#: ``SHAPE_BIT`` 16 for ``x``, ``SHADE_BIT`` 32 for white), which every move
#: carries; the golden test and test_lsd_decisions pin the numbering.
_face: Final[Callable[[LsdMove], int]] = attrgetter("_face")


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
        self.options = MappingProxyType(dict(options))
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
        self._frozen = True

    def _same_rules(self, state: GameState[Any]) -> bool:
        # Colour names and the first player do not change actions or observations.
        rules = getattr(state, "rules", None)
        return rules is self.rules or (
            rules is not None
            and rules.kinds == self.rules.kinds
            and rules.initial == self.rules.initial
        )

    def _window(self, state: LsdState) -> tuple[int, int]:
        """The window's south-west corner ``(x0, y0)`` for ``state``."""
        pos = state._pos
        if pos:  # the native engine's position works it out (None: it outgrows the window)
            corner = pos.window(self.radius)
            if corner is not None:
                return corner
        bounds = state.bounds
        if bounds is None:
            return -self.radius, -self.radius
        (min_x, min_y), (max_x, max_y) = bounds
        r = self.radius
        x0, y0 = (min_x + max_x) // 2 - r, (min_y + max_y) // 2 - r
        # Every legal cell touches a tile {LSD 2.2}: inside the box of the tiles and its ring.
        # The window covers them in every position play reaches (module docstring).
        if min_x - 1 < x0 or min_y - 1 < y0 or max_x + 1 > x0 + 2 * r or max_y + 1 > y0 + 2 * r:
            raise InvalidPositionError(
                f"the tiles from {bounds[0]} to {bounds[1]} outgrow the LSD window of radius {r}: "
                f"a diagram play cannot reach ({state.status()})"
            )
        return x0, y0

    def start(self, state: GameState[Any]) -> Decision:
        lsd: LsdState
        if state.__class__ is LsdState and state._rules is self.rules and state._outcome is None:
            # A game under way of the engines' own class with these very rules: nothing to
            # check (checking costs more than the rest of a start), and the seat to move is
            # its turn (the index of current_player).
            lsd = state
            seat = lsd._turn
        else:
            self._check_state(state)
            lsd = state  # type: ignore[assignment]
            seat = lsd.players.index(lsd.current_player)
        x0, y0 = self._window(lsd)
        w = self.width
        moves = lsd.legal_moves()
        keys = moves._native_keys()
        cursor: _Cursor
        legal: tuple[int, ...]
        if keys is None:
            cells = list(map(_CELL_OF, moves))
            offset = x0 + y0 * w
            legal = tuple(sorted([y * w + x - offset for x, y in dict.fromkeys(cells)]))
            cursor = (_CELL, x0, y0, moves, cells, -1, None)
        else:
            legal = keys.cell_actions(x0, y0, w)  # the same actions, made by the engine
            cursor = (_CELL, x0, y0, keys, None, -1, None)
        if not legal:
            self._refuse_no_legal_move(state)
        return _new_tuple(Decision, (self, state, seat, (), legal, "cell", None, cursor))

    def _choose(self, decision: Decision, action: int) -> Decision:
        cursor: _Cursor = decision[7]
        prefix = (*decision[3], action)
        stage, x0, y0, moves, cells, cell_action, faces = cursor
        base = self.cells
        if cells is None:
            # A native list of move keys: the engine gives the chosen cell's tile actions,
            # and only the chosen move is made, from its key cell code << 6 | face.
            # Typed by annotation, not cast(): a call costs a decision more than nothing.
            code: int = faces  # type: ignore[assignment]
            if stage == _CELL:
                i, j = divmod(action, self.width)
                code = (j + x0 + CELL_OFFSET) * CELL_STRIDE + i + y0 + CELL_OFFSET  # encode_cell
                listed: LsdMoves = moves  # type: ignore[assignment]
                legal = listed.cell_tiles(code, base)
                if len(legal) > 1:
                    asked: _Cursor = (_TILE, x0, y0, moves, None, action, code)
                    parts = (self, decision[1], decision[2], prefix, legal, "tile", None, asked)
                    return _new_tuple(Decision, parts)
                action, cell_action = legal[0], action
            key = code << 6 | action - base
            move = _MOVES.get(key) or _move_key(key)  # a lookup, mostly
            done: _Cursor = (_DONE, x0, y0, moves, None, cell_action, code)
            return _new_tuple(
                Decision, (self, decision[1], decision[2], prefix, (), "done", move, done)
            )
        if stage == _CELL:
            faces = self._faces(cursor, action)
            if len(faces) > 1:
                legal = tuple(sorted([base + face for face in faces]))
                asked = (_TILE, x0, y0, moves, cells, action, faces)
                parts = (self, decision[1], decision[2], prefix, legal, "tile", None, asked)
                return _new_tuple(Decision, parts)
            (found,) = faces.values()
            cell_action = action
        else:
            chosen: dict[int, LsdMove] = faces  # type: ignore[assignment]
            found = chosen[action - base]
        done = (_DONE, x0, y0, moves, cells, cell_action, faces)
        return _new_tuple(
            Decision, (self, decision[1], decision[2], prefix, (), "done", found, done)
        )

    def _faces(self, cursor: _Cursor, action: int) -> dict[int, LsdMove]:
        """Face -> move on the cell of the cell ``action`` (a Python list of moves)."""
        _, x0, y0, moves, cells, _, _ = cursor
        i, j = divmod(action, self.width)
        # legal_moves() is ordered by cell (LsdState.legal_moves), so a cell's moves are a run.
        cell = (j + x0, i + y0)
        listed: list[Cell] = cells  # type: ignore[assignment]
        listed_moves: Sequence[LsdMove] = moves  # type: ignore[assignment]
        lo = bisect_left(listed, cell)
        run = listed_moves[lo : bisect_right(listed, cell, lo)]
        return dict(zip(map(_face, run), run, strict=True))

    def action_to_choice(self, decision: Decision, move: Any) -> int:
        cursor: _Cursor = decision[7]
        if cursor[0] == _CELL:
            x, y = move.cell[0] - cursor[1], move.cell[1] - cursor[2]
            w = self.width
            return y * w + x if 0 <= x < w and 0 <= y < w else -1
        if cursor[0] == _TILE:
            return self.cells + _face(move)
        return -1

    def action_name(self, action: int) -> str:
        """``"cell +3,-2"`` (offset from the window centre, x then y) or ``"tile B+NE"``."""
        action = integer(action)  # type: ignore[assignment]
        if action is None or not 0 <= action < self.num_actions:
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
        player = seat_index(player, p)
        state: LsdState = decision.state  # type: ignore[assignment]
        cursor: _Cursor = decision[7]
        w, x0, y0 = self.width, cursor[1], cursor[2]
        out = np.zeros(self.observation_shape, dtype=np.float32)
        seats = {c: i for i, c in enumerate(state.players)}
        # The ones on the board are gathered first and set in one numpy call.
        planes: list[int] = []
        rows: list[int] = []
        cols: list[int] = []
        cross, white = Shape.CROSS, Shade.WHITE
        for (x, y), tile in state.field.items():
            seat = seats[tile.owner]
            i, j = y - y0, x - x0  # inside the window (checked by start)
            marks = [(seat - player) % p]
            marks += [p + side for side in range(4) if tile.sides[side]]
            if tile.shape is cross:
                marks.append(p + 4)
            if tile.shade is white:
                marks.append(p + 5)
            planes += marks
            rows += [i] * len(marks)
            cols += [j] * len(marks)
        for x, y in state.open_cells:
            planes.append(p + 6)
            rows.append(y - y0)
            cols.append(x - x0)
        if cursor[5] >= 0:
            i, j = divmod(cursor[5], w)
            planes.append(p + 7)
            rows.append(i)
            cols.append(j)
        out[planes, rows, cols] = 1.0
        if cursor[0] < _DONE:
            out[p + 8 + cursor[0]] = 1.0
        if state.current_player is not None:
            out[p + 10 + (seats[state.current_player] - player) % p] = 1.0
        k = self.kinds
        shares = [0.0] * (p * k + p)
        # The state's own counts per tile kind, in the order of rules.kinds (LSD 1.5, 2.3):
        # counting the tiles on the field again would cost a pass over the field.
        supplies = state._supplies
        for colour, seat in seats.items():
            r = (seat - player) % p
            total = self._initial[seat]
            for kind, count in enumerate(supplies[seat]):
                shares[r * k + kind] = count / total
            shares[p * k + r] = state.captured_count(colour) / total
        base = 2 * p + 10
        out[base:] = np.array(shares, dtype=np.float32)[:, None, None]
        return out


register("lsd", LsdEncoding)
