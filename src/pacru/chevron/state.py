"""The immutable game state of the chevron games.

=================  =========================================================
games              Lilacru, Shacru, Azacru, Pacru (:mod:`pacru.chevron.rules`)
players            2, 3 or 4, named by colour, in turn order
board              81 fields a1..i9; markers and at most one chevron per field
moves              :class:`pacru.Move`, text in the grammar of :mod:`pacru.chevron.move`
position string    :mod:`pacru.chevron.notation`
=================  =========================================================

Internally a state is a handful of integers: one marker bitboard per player,
a sorted tuple of chevron codes (``field * 8 + facing``) per player, and small
counters. Legal moves are computed once per state, on first use, and cached.

:class:`ChevronState` is the class users see: the shared methods, the value
semantics (``==``, ``hash``, pickling) and the documentation. Each engine has
its concrete subclass, picked by :mod:`pacru.chevron.engine`:
:class:`pacru.chevron.pystate.PythonChevronState` (the readable reference, an
attrs class) and ``pacru.chevron.native.NativeChevronState`` (the Rust
engine's ``pacru._native.State``, which owns the engine's position).
``ChevronState(...)`` and unpickling build the engine's class.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from pacru._status import Status
from pacru.base import GameState, Outcome, Termination
from pacru.chevron.move import Move
from pacru.chevron.movegen import power_of_movement
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.rules import SUPPLY, Rules, rules_of_key
from pacru.errors import GameOverError
from pacru.geometry import Direction, field_index

if TYPE_CHECKING:
    from pacru.chevron.rules import ChevronOptions
    from pacru.explanation import Explanation

__all__ = ["ENGINE_STATE", "Chevron", "ChevronState"]


@attrs.frozen
class Chevron:
    """A chevron as seen on the board: its owner's colour and its facing {G4}."""

    owner: str
    facing: Direction

    def __str__(self) -> str:
        return f"{self.owner} {self.facing.name}"


#: ``[the concrete state class of the engine in use]``: what ``ChevronState(...)`` and
#: unpickling build. Filled in by :mod:`pacru.chevron.engine` when it picks the engine
#: (it imports this module, so this one cannot import it).
ENGINE_STATE: Final[list[type[ChevronState]]] = []


def occupancy(chevrons: tuple[tuple[int, ...], ...]) -> int:
    """The bitboard of the fields a chevron stands on (``chevrons``: codes per seat)."""
    occ = 0
    for codes in chevrons:
        for code in codes:
            occ |= 1 << (code >> 3)
    return occ


class ChevronState(GameState[Move]):
    """A position of Lilacru, Shacru, Azacru or Pacru, with everything needed to play on.

    Create one with :func:`pacru.new_game` or :func:`pacru.from_position`; get
    the next with :meth:`apply_move`. States are frozen and hashable values;
    two states are equal when the same play continues from both. A state
    holds no earlier state: the line of play (the moves, going back, undo) is
    a :class:`pacru.Game`. ``copy.copy`` and ``copy.deepcopy`` return the
    state itself, and a state pickles to a compact form of its position and
    counters (a few hundred bytes, whatever the ply). Fields are named
    (``"e5"``) or indices 0..80 (``a1 = 0``, row-major from rank 1).

    Built from its values, ``ChevronState(rules, players, markers, chevrons,
    to_move, out=0, trigger=-1, idle=0, ply=0, outcome=None)`` (the
    attributes below), a state takes any integer :func:`operator.index`
    accepts and checks the values alike on both engines: it raises
    :class:`~pacru.InvalidPositionError` for a count outside
    ``0..2**64 - 1``, a seat (``to_move``, ``out``, ``trigger``) outside
    the players, a player count outside 2..4, a marker outside the board or
    of two colours, a chevron code above 647 or two chevrons on a field, and
    ``TypeError`` for players that are not a tuple or a value that is not an
    integer. The play's own positions are not checked again.

    Attributes:
        rules: the game and its options (:class:`pacru.chevron.rules.Rules`).
        players: colour names in turn order.
        markers: per player (turn order), a bitboard of the fields with their
            marker.
        chevrons: per player, the sorted codes ``field * 8 + facing`` of their
            chevrons.
        to_move: the index in ``players`` of the player to move (of the winner
            or last mover once the game is over).
        out: Pacru: bit ``i`` set when ``players[i]`` is eliminated {R15}.
        trigger: Azacru: index of the player whose pass triggered the end,
            -1 before {A-R10}.
        idle: Lilacru/Shacru: plies since a field was last acquired (D33).
        ply: plies played since the start of the game.
        outcome: how the game ended, or None.
    """

    __slots__ = ()

    # The values every engine's class serves (as attributes, slots or getters).
    rules: Rules
    players: tuple[str, ...]
    markers: tuple[int, ...]
    chevrons: tuple[tuple[int, ...], ...]
    to_move: int
    out: int
    trigger: int
    idle: int
    ply: int
    outcome: Outcome | None
    #: The bitboard of the fields a chevron stands on.
    occupied: int
    _last: Move | None
    _moves: LegalMoves | None

    def __new__(
        cls,
        rules: Rules,
        players: tuple[str, ...],
        markers: tuple[int, ...],
        chevrons: tuple[tuple[int, ...], ...],
        to_move: int,
        out: int = 0,
        trigger: int = -1,
        idle: int = 0,
        ply: int = 0,
        outcome: Outcome | None = None,
        occupied: int = -1,
        last: Move | None = None,
    ) -> ChevronState:
        # ChevronState(...) makes a state of the engine in use; an engine's class (or a
        # user's subclass of it) makes its own object. ``occupied`` (derived from the
        # chevrons when -1) and ``last`` are the engines' own.
        if cls is ChevronState:
            made: ChevronState = ENGINE_STATE[0](
                rules,
                players,
                markers,
                chevrons,
                to_move,
                out,
                trigger,
                idle,
                ply,
                outcome,
                occupied,
                last,
            )
            return made
        if not cls._concrete:
            raise TypeError(
                f"{cls.__name__} subclasses pacru.ChevronState, the base of the engines' "
                "state classes, which holds no values: subclass the engine's class "
                "(pacru.chevron.engine.STATE_CLASS)"
            )
        return super().__new__(cls)

    #: The parameters of the constructor that users leave out (the API docs hide them).
    _internal_parameters: ClassVar[tuple[str, ...]] = ("occupied", "last")

    #: True on an engine's concrete class, which holds the values.
    _concrete: ClassVar[bool] = False

    # -- value semantics: equal across engines, no copies, a compact pickle -------------------

    def _key(self) -> tuple[Any, ...]:
        return (
            self.rules,
            self.players,
            self.markers,
            self.chevrons,
            self.to_move,
            self.out,
            self.trigger,
            self.idle,
            self.ply,
            self.outcome,
        )

    def _values(self) -> tuple[Any, ...]:
        """The constructor's arguments that make this state again (in any engine's class)."""
        return (*self._key(), self.occupied, self._last)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChevronState):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The position, the counters and the last move; not the rule object (rebuilt
        # from its options), the occupancy (derived) or the cached move list. The same
        # pickle for both engines: it loads as the state of the engine in use.
        rules = self.rules
        return (
            _restore,
            (
                (rules.game, rules.meeting_rule, rules.move_cap, rules.idle_rounds),
                self.players,
                self.markers,
                self.chevrons,
                self.to_move,
                self.out,
                self.trigger,
                self.idle,
                self.ply,
                _outcome_key(self.outcome),
                _move_key(self._last),
            ),
        )

    # -- the common protocol ----------------------------------------------------------------

    @property
    def game(self) -> str:
        """The game: ``"lilacru"``, ``"shacru"``, ``"azacru"`` or ``"pacru"``."""
        return self.rules.game

    @property
    def current_player(self) -> str | None:
        """The colour to move, or None once the game is over."""
        return None if self.outcome is not None else self.players[self.to_move]

    def legal_moves(self) -> LegalMoves:
        """Every complete legal move, in the documented order (:mod:`pacru.chevron.movelist`).

        Each twist choice, connection-or-crossing choice, marker field, meeting
        field and set of relinquished fields is its own move. Empty once the
        game is over; only ``pass`` for a Lilacru/Shacru/Azacru player who
        cannot move {S-R2, A-R10, D34}. Computed once per state, then cached.
        """
        raise NotImplementedError  # each engine's class has its own (module docstring)

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` (a Move or its text) is legal here. Never raises for bad text."""
        # The list reads a text itself (False for text that is no move): on the native
        # engine in the extension, with no call into Python.
        return move in self.legal_moves()

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text`` (grammar: :mod:`pacru.chevron.move`).

        Raises:
            NotationError: ``text`` is not in the move grammar.
            IllegalMoveError: it is, but the rules forbid it here; the error
                names the rule (``err.rule``) and a reason code (``err.reason``).
            GameOverError: the game is over.
        """
        move = Move.parse(text)
        self._check(move, text)
        return move

    def apply_move(self, move: Move | str) -> ChevronState:
        """The state after ``move``; this state is not changed.

        The move does all that its game's rules say (Lilacru L1 to L7, Shacru
        S-R1 to S-R6, Azacru A-R1 to A-R10, Pacru R1 to R16): markers placed,
        twists, connections, pincers, meetings, eliminations; then the turn
        passes and the end of the game is decided (:attr:`outcome`). The new
        state is of the same engine as this one.

        Args:
            move: a :class:`Move` or its text, e.g. ``"e4-e6"``, ``"g9-e7+d9"``
                (one of :meth:`legal_moves`; text as :meth:`parse_move` reads it).

        Raises:
            NotationError: unparseable move text.
            IllegalMoveError: the move is not legal here; the message names the
                rule that forbids it (``err.rule``, ``err.reason``).
            GameOverError: the game is over.
            TypeError: ``move`` is neither a :class:`Move` nor a ``str``.
        """
        raise NotImplementedError  # each engine's class has its own (module docstring)

    def _check(self, move: Move, text: str | None) -> None:
        # The move's text is only needed for an error, so it is not built otherwise.
        if self.outcome is not None:
            raise GameOverError(
                f"the game is over ({self.outcome.result()})",
                move=str(move) if text is None else text,
            )
        if move not in self.legal_moves():
            from pacru.chevron.legality import diagnose

            raise diagnose(self, move, str(move) if text is None else text)

    @property
    def scores(self) -> Mapping[str, int]:
        """Colour -> markers on the board, in turn order {S-R6, A-R10, R16}."""
        return MappingProxyType(
            {p: m.bit_count() for p, m in zip(self.players, self.markers, strict=True)}
        )

    @property
    def last_move(self) -> Move | None:
        """The move that produced this state; None at the start or for a loaded position."""
        return self._last

    def options(self) -> ChevronOptions:
        """The non-default rule options of this game, as keyword arguments of ``new_game``."""
        out: ChevronOptions = {}
        if self.rules.meeting_rule != "2011":
            out["meeting_rule"] = self.rules.meeting_rule
        if self.rules.move_cap is not None:
            out["move_cap"] = self.rules.move_cap
        if self.rules.idle_rounds != 81:
            out["idle_rounds"] = self.rules.idle_rounds
        return out

    def to_position(self) -> str:
        """The one-line position string (format: :mod:`pacru.chevron.notation`)."""
        from pacru.chevron.position import format_position

        return format_position(self)

    def zobrist_hash(self) -> int:
        """The stable 64-bit Zobrist hash of this position (:func:`pacru.zobrist.zobrist_hash`).

        Equal states hash equal; compare with ``==`` to rule out a collision.
        """
        from pacru.chevron.zobrist import chevron_hash

        return chevron_hash(self)

    # -- board queries ----------------------------------------------------------------------

    def _seat(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise ValueError(
                f"{player!r} is not a player; players: {', '.join(self.players)}"
            ) from None

    def marker_at(self, field: int | str) -> str | None:
        """The colour of the marker on ``field`` (name or index), or None if neutral {G7}."""
        bit = 1 << field_index(field)
        for player, m in zip(self.players, self.markers, strict=True):
            if m & bit:
                return player
        return None

    def chevron_at(self, field: int | str) -> Chevron | None:
        """The chevron on ``field`` (name or index), or None if unoccupied {G7}."""
        f = field_index(field)
        for player, codes in zip(self.players, self.chevrons, strict=True):
            for code in codes:
                if code >> 3 == f:
                    return Chevron(player, Direction(code & 7))
        return None

    def chevron_map(self) -> dict[str, Chevron]:
        """Field name -> chevron, for every chevron on the board."""
        from pacru.geometry import FIELD_NAMES

        return {
            FIELD_NAMES[code >> 3]: Chevron(p, Direction(code & 7))
            for p, codes in zip(self.players, self.chevrons, strict=True)
            for code in codes
        }

    def marker_map(self) -> dict[str, str]:
        """Field name -> marker colour, for every marked field."""
        from pacru.geometry import FIELD_NAMES, bits

        return {
            FIELD_NAMES[f]: p
            for p, m in zip(self.players, self.markers, strict=True)
            for f in bits(m)
        }

    def power_of_movement(self, field: int | str) -> int:
        """Power of movement of the chevron on ``field`` {A-R4, R5, D39}.

        Raises:
            ValueError: no chevron stands on ``field``.
        """
        chevron = self.chevron_at(field)
        if chevron is None:
            raise ValueError(f"no chevron on {field}")
        return power_of_movement(
            self.rules, self.markers[self._seat(chevron.owner)], field_index(field)
        )

    @property
    def supply(self) -> Mapping[str, int] | None:
        """Pacru: colour -> markers left in the supply, 42/28/24 minus those on the board.

        {R1, R16b, D29}. ``None`` in Lilacru, Shacru and Azacru, whose markers
        are unlimited (D38). Never raises.
        """
        if not self.rules.pacru:
            return None
        target = SUPPLY[len(self.players)]
        return MappingProxyType(
            {p: target - m.bit_count() for p, m in zip(self.players, self.markers, strict=True)}
        )

    def san(self, move: Move | str) -> str:
        """The shortest text naming ``move`` here (:mod:`pacru.chevron.san`), e.g. ``"g1-i3"``.

        Raises:
            NotationError: unparseable move text.
            IllegalMoveError: the move is not legal here.
            GameOverError: the game is over.
        """
        from pacru.chevron.san import san

        return san(self, move)

    def parse_san(self, text: str) -> Move:
        """The legal move a complete or short text names (:mod:`pacru.chevron.san`).

        Raises:
            NotationError: text outside the grammar, or short text that fits
                more than one legal move.
            IllegalMoveError: no legal move fits.
            GameOverError: the game is over.
        """
        from pacru.chevron.san import parse_san

        return parse_san(self, text)

    def status(self) -> Status:
        """What about this position play cannot reach (:class:`pacru.Status`); VALID if nothing."""
        from pacru.chevron.status import position_status

        return position_status(self)

    @property
    def eliminated(self) -> tuple[str, ...]:
        """Pacru: the players who are out {R15}, in turn order."""
        return tuple(p for i, p in enumerate(self.players) if self.out >> i & 1)

    @property
    def end_triggered_by(self) -> str | None:
        """Azacru: the player whose pass triggered the end {A-R10}, or None."""
        return self.players[self.trigger] if self.trigger >= 0 else None

    # -- display ----------------------------------------------------------------------------

    def __str__(self) -> str:
        from pacru.chevron.render import render_text

        return render_text(self)

    def __repr__(self) -> str:
        return f"pacru.from_position({self.to_position()!r})"

    def _repr_svg_(self) -> str:
        """The board as SVG with the last move marked, for Jupyter (:func:`pacru.svg.board`)."""
        from pacru.svg import board

        return board(self, last_move=self._last)

    def _explain(self, text: str) -> Explanation:
        from pacru.chevron.explain import explain_chevron

        return explain_chevron(self, text)


#: A move in a pickle: its fields, in the order of the Move constructor.
_MoveKey = tuple[
    int | None, int | None, bool, int, int, bool, int | None, int | None, tuple[int, ...]
]


def _move_key(move: Move | None) -> _MoveKey | None:
    # Plain values pickle several times faster and smaller than the attrs object.
    if move is None:
        return None
    return (
        move.origin,
        move.target,
        move.capture,
        move.twist,
        move.turn,
        move.connection,
        move.marker,
        move.meeting,
        move.relinquished,
    )


def _outcome_key(outcome: Outcome | None) -> tuple[str, tuple[str, ...]] | None:
    return None if outcome is None else (outcome.termination.value, outcome.winners)


def _restore(
    options: tuple[str, str, int | None, int],
    players: tuple[str, ...],
    markers: tuple[int, ...],
    chevrons: tuple[tuple[int, ...], ...],
    to_move: int,
    out: int,
    trigger: int,
    idle: int,
    ply: int,
    outcome: tuple[str, tuple[str, ...]] | None,
    last: _MoveKey | None,
) -> ChevronState:
    """Unpickle a state (the inverse of ``ChevronState.__reduce__``), as a state of the
    engine in use."""
    return ENGINE_STATE[0](
        rules_of_key(options),
        players,
        markers,
        chevrons,
        to_move,
        out,
        trigger,
        idle,
        ply,
        None if outcome is None else Outcome(Termination(outcome[0]), outcome[1]),
        occupancy(chevrons),
        None if last is None else Move(*last),
    )
