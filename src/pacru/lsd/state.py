"""The LSD game state {LSD 1.4-1.7, 2.2-2.4}.

==================  ===========================================================
Item                Value
==================  ===========================================================
Game                ``"lsd"``: LSD - Linearity, Simplicity, Duality (Symbiose 2005)
Players             2, 3 or 4 colours, 20 tiles each by default (1.2, 1.3)
Move                :class:`~pacru.lsd.LsdMove`: one tile from the mover's supply
                    onto one cell; no passing (RULING 19)
Information         perfect; no chance (1.4, RULING 23)
Field               unbounded square grid, ``(x, y)`` ints, first tile at ``(0, 0)``,
                    y up (RULING 20, 22)
End                 a row of ``row_length`` own tiles (:attr:`Termination.ROW`), or
                    nobody can place: draw (:attr:`Termination.BLOCKED`) (2.4)
Scores              tiles of each colour on the field
==================  ===========================================================

:class:`LsdState` is immutable: :meth:`LsdState.apply_move` returns a new
state. On the native engine (``pacru.ENGINE``) it lists and applies moves
with the LSD rules of ``rust/lsd`` (:mod:`pacru.lsd.native`), move for move
as the Python engine does. A player without a legal placement is skipped automatically, so in a
game that is not over :attr:`LsdState.current_player` always has a legal move.

Illegal moves raise :class:`~pacru.errors.IllegalMoveError` whose ``rule`` is
``"LSD-<section>"`` (a section of the LSD rules) or ``"LSD-R<n>"`` (LSD ruling n),
with these ``reason`` codes:

=========================  ==========  =======================================
reason                     rule        meaning
=========================  ==========  =======================================
``not-in-supply``          LSD-1.5     the mover has no such tile left
``rotation-not-allowed``   LSD-R4      the tile would have to be turned
``first-tile-not-origin``  LSD-R20     the first tile goes to ``(0, 0)``
``occupied``               LSD-2.2     the cell holds a tile
``obstructs-dot``          LSD-2.2     an empty side would face a half dot
``dot-against-empty``      LSD-R5      a half dot would face an empty side (strict)
``no-whole-dot``           LSD-2.2     no half dot would be made whole
``game-over``              end         the game has ended (:class:`GameOverError`)
=========================  ==========  =======================================
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

import attrs

from pacru.base import GameState, Outcome, Termination
from pacru.errors import GameOverError, NotationError
from pacru.lsd import engine, native
from pacru.lsd.legality import explain_illegal
from pacru.lsd.movelist import LsdLegalMoves, native_list
from pacru.lsd.moves import LsdMove, _move, parse_move_text
from pacru.lsd.parts import checked_parts, generate, pickle_key, rules_of, status_flags
from pacru.lsd.rules import LsdRules
from pacru.lsd.tiles import (
    DOT_BITS,
    MAX_COORD,
    ORIGIN,
    OWNER_SHIFT,
    Cell,
    Shade,
    Tile,
    decode_cell,
    encode_cell,
    face_code,
    face_shade,
    face_shape,
    mask_to_sides,
)

if TYPE_CHECKING:
    from pacru._native import LsdPosition
    from pacru._status import Status
    from pacru.explanation import Explanation
    from pacru.lsd.rules import LsdOptions

__all__ = ["LsdState"]

_new = object.__new__


def _tile(rules: LsdRules, code: int) -> Tile:
    return Tile(
        rules.colours[code >> OWNER_SHIFT],
        face_shape(code),
        face_shade(code),
        mask_to_sides(code & DOT_BITS),
    )


@attrs.frozen(eq=False, repr=False)
class LsdState(native.LazyParts, GameState[LsdMove]):
    """An LSD position: field, supplies, captured tiles and whose turn it is.

    Build one with :func:`pacru.lsd.new_game` or :func:`pacru.lsd.from_position`;
    the constructor is internal. Equal states continue identically. A state
    holds no earlier state (the line of play is a :class:`pacru.Game`);
    ``copy.copy`` and ``copy.deepcopy`` return the state itself, and a state
    pickles to its field, supplies, captured tiles and turn.

    Attributes:
        players: the colour names in turn (clockwise) order.
    """

    game = "lsd"

    players: tuple[str, ...]
    _rules: LsdRules
    # The field, frontier, supplies and captured tiles (read as _field, _frontier, _supplies
    # and _captured: native.LazyParts); unset in a state the native engine made, until read.
    _cells: dict[int, int] = attrs.field(alias="field")
    _open: dict[int, int] = attrs.field(alias="frontier")
    _left: tuple[tuple[int, ...], ...] = attrs.field(alias="supplies")
    _lost: tuple[tuple[int, ...], ...] = attrs.field(alias="captured")
    _turn: int
    _outcome: Outcome | None
    _last: LsdMove | None = None
    # The native engine's position (pacru.lsd.native), made when first needed; False: this
    # state and those after it are the Python engine's (native.on_python). Then caches.
    _pos: LsdPosition | Literal[False] | None = None
    _legal: LsdLegalMoves | None = attrs.field(default=None, init=False)
    _hash: int | None = attrs.field(default=None, init=False)

    # --- construction ---------------------------------------------------

    @classmethod
    def _from_parts(
        cls,
        rules: LsdRules,
        field: dict[int, int],
        captured: tuple[tuple[int, ...], ...],
        turn: int,
        adjudicate: bool = True,
    ) -> LsdState:
        """A validated state from its field, captured tiles and turn (-1 = over).

        Supplies follow from tile conservation (tile set = supply + field +
        captured); the outcome from the field (2.4).

        Raises:
            InvalidPositionError: a tile or count the tile set cannot supply,
                captures without a field, two colours with rows, strict
                dot matching broken between neighbours, or a turn that does not
                match the outcome or names a player who cannot place.
        """
        frontier, supplies, outcome = checked_parts(rules, field, captured, turn, adjudicate)
        return cls(rules.colours, rules, field, frontier, supplies, captured, turn, outcome)

    @classmethod
    def from_position(cls, text: str, adjudicate: bool = True) -> LsdState:
        """The state a position string describes (see :mod:`pacru.lsd.position`).

        ``adjudicate=False`` loads a diagram as typed (:func:`pacru.from_position`).

        Raises:
            NotationError: not a position string.
            InvalidPositionError: well-formed but impossible.
        """
        from pacru.lsd.position_text import read_position

        return cls._from_parts(*read_position(text), adjudicate=adjudicate)

    # --- the GameState protocol ---------------------------------------------

    @property
    def current_player(self) -> str | None:
        """The colour to move; ``None`` once the game is over. Always able to place."""
        return self.players[self._turn] if self._turn >= 0 else None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on.

        ``Outcome(Termination.ROW, (winner,))`` or ``Outcome(Termination.BLOCKED, ())``.
        """
        return self._outcome

    def legal_moves(self) -> LsdLegalMoves:
        """Every legal placement for the player to move {LSD 2.2}; empty when over.

        Each distinct (tile kind, orientation, cell) appears once, ordered by
        cell (x, then y), then tile kind, then orientation. A read-only
        sequence (:class:`~pacru.lsd.movelist.LsdLegalMoves`): ``in`` takes a
        move or its text, ``from_field((x, y))`` the placements on one cell.
        Computed once per state and cached.
        """
        legal = self._legal
        if legal is None:
            pos = self._pos
            if pos is None:
                pos = self._native()
            if pos:
                legal = native_list(pos.legal_moves())
            else:
                legal = LsdLegalMoves(() if self._outcome is not None else self._generate())
            _SET_LEGAL(self, legal)
        return legal

    @property
    def to_move(self) -> int:
        """The index in :attr:`players` of the player to move.

        Once the game is over: the row winner's index, or 0 after a blocked draw.
        """
        if self._turn >= 0:
            return self._turn
        outcome = self._outcome
        return self.players.index(outcome.winners[0]) if outcome and outcome.winners else 0

    def san(self, move: LsdMove | str) -> str:
        """The shortest text naming ``move`` here (:mod:`pacru.lsd.san`), e.g. ``"xS@1,0"``.

        Raises:
            NotationError: unparseable move text.
            IllegalMoveError: the move is not legal here; GameOverError when over.
        """
        from pacru.lsd.san import san

        return san(self, move)

    def parse_san(self, text: str) -> LsdMove:
        """The legal move a complete or short text names (:mod:`pacru.lsd.san`).

        Raises:
            NotationError: text outside the grammar, or short text that fits
                more than one legal move.
            IllegalMoveError: no legal move fits; GameOverError when over.
        """
        from pacru.lsd.san import parse_san

        return parse_san(self, text)

    def status(self) -> Status:
        """What about this position play cannot reach (:class:`pacru.Status`); VALID if nothing.

        Reading refuses what the rules cannot hold, but takes a diagram's
        field as drawn: ``DISCONNECTED_TILES`` flags tiles lying apart from
        the others in a way play cannot leave them. A diagram loaded with
        ``adjudicate=False`` may also carry ``UNADJUDICATED_END`` (a row, or
        nobody can place) or ``NO_LEGAL_MOVE`` (the player to move cannot place).
        """
        parts = (self._field, self._frontier, self._supplies, self._captured)
        return status_flags(self._rules, *parts, self._outcome is None, self.legal_moves)

    def parse_move(self, text: str) -> LsdMove:
        """The legal move ``text`` names (grammar in :mod:`pacru.lsd.moves`).

        The shade may be left out (``+NE@1,0``) when the mover's supply has
        that tile in only one shade.

        Raises:
            NotationError: text outside the grammar, or an ambiguous missing shade.
            IllegalMoveError: well-formed but illegal here (reason codes in the
                module docstring); :class:`GameOverError` when the game is over.
        """
        shade, shape, mask, x, y = parse_move_text(text)
        if self._outcome is not None:  # the result, as the chevron games give it
            raise GameOverError(f"the game is over ({self._outcome.result()})", move=text)
        if shade is None:
            seat = self._turn
            shades = set()
            for candidate in (Shade.BLACK, Shade.WHITE):
                kind = self._rules.kind_of[seat].get(face_code(shape, candidate, mask))
                if kind is not None and self._supplies[seat][kind]:
                    shades.add(candidate)
            if len(shades) > 1:
                raise NotationError(f"say which shade: B{text.strip()} or W{text.strip()}", text)
            shade = shades.pop() if shades else self._rules.shades[seat]
        move = _move(face_code(shape, shade, mask), encode_cell(x, y))
        self._check(move, text)
        return move

    def apply_move(self, move: LsdMove | str) -> LsdState:
        """The state after the mover places ``move`` {LSD 1.5, 2.2-2.4}.

        Then: captures by the placed tile (2.3), the win check for the mover
        (RULING 18), and the turn passes clockwise, skipping players who
        cannot place (RULING 19); if nobody can, the game is drawn. ``self``
        is never changed.

        Raises:
            NotationError: unparseable text.
            IllegalMoveError: an illegal placement (reason codes in the module docstring).
            GameOverError: the game is over.
            TypeError: ``move`` is neither an :class:`LsdMove` nor a ``str``.
        """
        pos = self._pos
        if pos is None:
            pos = self._native()
        if isinstance(move, LsdMove):
            if not pos:
                self._check(move, "")
        elif isinstance(move, str):
            move = self.parse_move(move)
        else:
            raise TypeError(f"apply_move takes an LsdMove or a string, not {type(move).__name__}")
        if not pos:
            return self._play(move)
        # The native engine: the next position there; the new state's parts are read from it
        # when first asked (native.LazyParts). A refused move: the Python rules say why.
        after = pos.play(move._face, move._code)
        if after is None:
            self._check(move, "")
            raise AssertionError(f"the native engine refused {move}, legal by the Python rules")
        turn = after.turn
        state = _new(LsdState)
        _SET_PLAYERS(state, self.players)
        _SET_RULES(state, self._rules)
        _SET_TURN(state, turn)
        _SET_OUTCOME(state, None if turn >= 0 else native.outcome(after, self.players))
        _SET_LAST(state, move)
        _SET_POS(state, after)
        _SET_LEGAL(state, None)
        return state

    @property
    def scores(self) -> Mapping[str, int]:
        """Colour -> number of its tiles on the field, in turn order (read-only)."""
        counts = [0] * len(self.players)
        for code in self._field.values():
            counts[code >> OWNER_SHIFT] += 1
        return MappingProxyType(dict(zip(self.players, counts, strict=True)))

    @property
    def ply(self) -> int:
        """Tiles placed since the start: those on the field plus those captured.

        Every placement puts one tile on the field and a capture only moves
        tiles from the field to the captured ones (2.3), so this also holds for
        a loaded position.
        """
        return len(self._field) + sum(sum(c) for c in self._captured)

    def to_position(self) -> str:
        """The one-line position string (grammar in :mod:`pacru.lsd.position`)."""
        from pacru.lsd.position_text import format_position

        return format_position(self)

    def options(self) -> LsdOptions:
        """The options of this game: keyword arguments that rebuild it with ``new_game``."""
        return self._rules.options()

    # --- what a bot author wants ----------------------------------------------

    @property
    def rules(self) -> LsdRules:
        """The validated options and their tables."""
        return self._rules

    @property
    def last_move(self) -> LsdMove | None:
        """The move that led here, or ``None`` at the start or after loading a position."""
        return self._last

    @property
    def field(self) -> Mapping[Cell, Tile]:
        """Cell ``(x, y)`` -> the tile lying there (sides as placed), sorted by cell."""
        return MappingProxyType(
            {decode_cell(c): _tile(self._rules, self._field[c]) for c in sorted(self._field)}
        )

    def tile_at(self, cell: Cell) -> Tile | None:
        """The tile on ``cell`` (``(x, y)`` ints) with its sides as placed, or ``None``."""
        x, y = cell
        if abs(x) > MAX_COORD or abs(y) > MAX_COORD:
            return None
        code = self._field.get(encode_cell(x, y))
        return None if code is None else _tile(self._rules, code)

    def _tiles(self, counts: tuple[int, ...], seat: int) -> Mapping[Tile, int]:
        return MappingProxyType(
            {
                _tile(self._rules, face | seat << OWNER_SHIFT): count
                for face, count in zip(self._rules.kinds[seat], counts, strict=True)
                if count
            }
        )

    @property
    def supply(self) -> Mapping[str, int]:
        """Colour -> tiles left to place, in turn order (read-only; LSD 1.5, RULING 23).

        The tiles themselves: :meth:`supply_tiles`.
        """
        return MappingProxyType(
            {p: sum(counts) for p, counts in zip(self.players, self._supplies, strict=True)}
        )

    def supply_tiles(self, colour: str) -> Mapping[Tile, int]:
        """``colour``'s supply (public, RULING 23): tile in canonical orientation -> count.

        Raises:
            ValueError: an unknown colour.
        """
        seat = self._rules.seat(colour)
        return self._tiles(self._supplies[seat], seat)

    def supply_size(self, colour: str) -> int:
        """How many tiles ``colour`` has left to place.

        Raises:
            ValueError: an unknown colour.
        """
        return sum(self._supplies[self._rules.seat(colour)])

    def captured(self, colour: str) -> Mapping[Tile, int]:
        """``colour``'s own tiles that were captured (gone for good, RULING 21) -> count.

        Raises:
            ValueError: an unknown colour.
        """
        seat = self._rules.seat(colour)
        return self._tiles(self._captured[seat], seat)

    def captured_count(self, colour: str) -> int:
        """How many of ``colour``'s tiles were captured.

        Raises:
            ValueError: an unknown colour.
        """
        return sum(self._captured[self._rules.seat(colour)])

    def can_place(self, colour: str) -> bool:
        """Whether ``colour`` has a legal placement here (whoever is to move).

        Raises:
            ValueError: an unknown colour.
        """
        seat = self._rules.seat(colour)
        return engine.can_place(
            self._rules, seat, self._field, self._frontier, self._supplies[seat]
        )

    @property
    def open_cells(self) -> tuple[Cell, ...]:
        """Empty cells facing at least one open half dot, sorted: the only
        cells a tile can go to after the first {LSD 2.2}."""
        return tuple(decode_cell(c) for c in sorted(self._frontier))

    @property
    def bounds(self) -> tuple[Cell, Cell] | None:
        """``((min_x, min_y), (max_x, max_y))`` of the tiles, or ``None`` for an empty field."""
        pos = self._pos
        if pos:  # the native engine's: the field is not read into Python for this
            return pos.bounds
        if not self._field:
            return None
        cells = [decode_cell(c) for c in self._field]
        xs = [x for x, _ in cells]
        ys = [y for _, y in cells]
        return ((min(xs), min(ys)), (max(xs), max(ys)))

    # --- internals ---------------------------------------------------------------

    def _generate(self) -> tuple[LsdMove, ...]:
        seat = self._turn
        return generate(self._rules, seat, self._left[seat], self._cells, self._open)

    def _check(self, move: LsdMove, text: str) -> None:
        """Raise unless ``move`` is legal; the fast path is two lookups (the kind in the
        supply, the cell's constraint in the frontier), else the Python rules say why."""
        if (over := self._outcome) is not None:
            raise GameOverError(f"the game is over ({over.result()})", move=text or str(move))
        seat, rules = self._turn, self._rules
        try:  # the slots; a state the native engine made may not have read them yet
            field, frontier, supply = self._cells, self._open, self._left[seat]
        except AttributeError:
            field, frontier, supply = self._field, self._frontier, self._supplies[seat]
        kind = rules.kind_of[seat].get(move._face)
        if kind is not None and supply[kind]:
            if field:
                code = frontier.get(move._code)
                if code is not None and rules.fit[code] >> (move._face & DOT_BITS) & 1:
                    return
            elif move._code == ORIGIN:
                return
        raise explain_illegal(rules, seat, field, supply, move, text or str(move))

    def _native(self) -> LsdPosition | Literal[False] | None:
        """The native engine's position (made from the parts at first), or False."""
        pos = self._pos
        if pos is None:  # False on the Python engine, which the states after it keep (_play)
            end = (self._turn, self._outcome, self._last)
            parts = (self._rules, self._field, self._supplies, self._captured)
            made = native.position(*parts, *end)  # None: the engine has no LSD of its own
            pos = False if made is None else made
            _SET_POS(self, pos)
        return pos

    def _play(self, move: LsdMove) -> LsdState:
        """Apply a legal move on the Python engine (:func:`pacru.lsd.engine.play`); the next
        state is the Python engine's too (``_pos`` False)."""
        rules, seat, field, supplies = self._rules, self._turn, self._cells, self._left
        parts = engine.play(rules, seat, field, self._open, supplies, self._lost, move)
        return LsdState(self.players, rules, *parts, move, False)

    # --- value semantics and display ---------------------------------------

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The rules by their options (the tables are rebuilt, or shared from the
        # rules cache), the tiles as flat code pairs by cell (so both engines write the same
        # bytes); not the move cache or the native position.
        field = tuple(chain.from_iterable(sorted(self._field.items())))
        frontier = tuple(chain.from_iterable(sorted(self._frontier.items())))
        outcome = self._outcome
        last = self._last
        return (
            _restore,
            (
                pickle_key(self._rules),
                field,
                frontier,
                self._supplies,
                self._captured,
                self._turn,
                None if outcome is None else (outcome.termination.value, outcome.winners),
                None if last is None else (last._face, last._code),
            ),
        )

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, LsdState):
            return NotImplemented
        return (
            self._turn == other._turn
            and self._supplies == other._supplies
            and self._captured == other._captured
            and self._field == other._field
            and self._outcome == other._outcome
            and (self._rules is other._rules or self._rules == other._rules)
        )

    def __hash__(self) -> int:
        try:  # cached; a state the native engine made starts without the slot
            value = self._hash
        except AttributeError:
            value = None
        if value is None:
            parts = (frozenset(self._field.items()), self._supplies, self._captured)
            value = hash((self._rules, *parts, self._turn))
            _SET_HASH(self, value)
        return value

    def __str__(self) -> str:
        from pacru.lsd.render import render

        return render(self)

    def __repr__(self) -> str:
        return f"pacru.from_position({self.to_position()!r})"

    def _repr_svg_(self) -> str:
        """The field as SVG with the last tile ringed, for Jupyter (:func:`pacru.svg.board`)."""
        from pacru.svg import board

        return board(self, last_move=self._last)

    def _explain(self, text: str) -> Explanation:
        from pacru.lsd.explain import explain_lsd

        return explain_lsd(self, text)


# The slots' own setters: half the cost of object.__setattr__ on this frozen class.
_SET_PLAYERS, _SET_RULES, _SET_TURN, _SET_OUTCOME, _SET_LAST, _SET_POS, _SET_LEGAL, _SET_HASH = (
    LsdState.__dict__[name].__set__
    for name in ("players", "_rules", "_turn", "_outcome", "_last", "_pos", "_legal", "_hash")
)


def _restore(
    key: tuple[Any, ...],
    field: tuple[int, ...],
    frontier: tuple[int, ...],
    supplies: tuple[tuple[int, ...], ...],
    captured: tuple[tuple[int, ...], ...],
    turn: int,
    outcome: tuple[str, tuple[str, ...]] | None,
    last: tuple[int, int] | None,
) -> LsdState:
    """Unpickle a state (the inverse of ``LsdState.__reduce__``)."""
    rules = rules_of(key)
    return LsdState(
        rules.colours,
        rules,
        dict(zip(field[::2], field[1::2], strict=True)),
        dict(zip(frontier[::2], frontier[1::2], strict=True)),
        supplies,
        captured,
        turn,
        None if outcome is None else Outcome(Termination(outcome[0]), outcome[1]),
        None if last is None else _move(*last),
    )
