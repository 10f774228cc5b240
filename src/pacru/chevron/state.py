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
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import attrs

from pacru._status import Status
from pacru.base import GameState, Outcome, Termination
from pacru.chevron.engine import apply, legal_moves  # imports no state: no cycle
from pacru.chevron.move import Move
from pacru.chevron.movegen import power_of_movement
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.resolve import STATE_CLASSES  # imports no state: no cycle
from pacru.chevron.rules import SUPPLY, Rules, rules_of_key
from pacru.errors import GameOverError, NotationError
from pacru.geometry import Direction, field_index

if TYPE_CHECKING:
    from pacru.explanation import Explanation

__all__ = ["Chevron", "ChevronState"]


@attrs.frozen
class Chevron:
    """A chevron as seen on the board: its owner's colour and its facing {G4}."""

    owner: str
    facing: Direction

    def __str__(self) -> str:
        return f"{self.owner} {self.facing.name}"


def _occupancy(chevrons: tuple[tuple[int, ...], ...]) -> int:
    occ = 0
    for codes in chevrons:
        for code in codes:
            occ |= 1 << (code >> 3)
    return occ


@attrs.frozen(cache_hash=True, repr=False, eq=True)
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

    rules: Rules
    players: tuple[str, ...]
    markers: tuple[int, ...]
    chevrons: tuple[tuple[int, ...], ...]
    to_move: int
    out: int = 0
    trigger: int = -1
    idle: int = 0
    ply: int = 0
    outcome: Outcome | None = None
    occupied: int = attrs.field(default=0, eq=False)
    _last: Move | None = attrs.field(default=None, eq=False)
    _moves: LegalMoves | None = attrs.field(default=None, eq=False)
    # The native engine's copy of the position (pacru.chevron.native), made on first use.
    _pos: object = attrs.field(default=None, eq=False)

    # -- construction -----------------------------------------------------------------------

    # -- value semantics: no copies, a compact pickle -----------------------------------------

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The position, the counters and the last move; not the rule object (rebuilt
        # from its options), the occupancy (derived) or the cached move list.
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
        moves = self._moves
        if moves is None:
            moves = legal_moves(self)  # the engine boundary, pacru.chevron.engine
            object.__setattr__(self, "_moves", moves)
        return moves

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` (a Move or its text) is legal here. Never raises for bad text."""
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except NotationError:
                return False
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

        Args:
            move: a :class:`Move` or its text, e.g. ``"e4-e6"``, ``"g9-e7+d9"``.

        Raises:
            NotationError: unparseable move text.
            IllegalMoveError: the move is not legal here; the message names the
                rule that forbids it.
            GameOverError: the game is over.
        """
        moves = self._moves
        if move is not None and moves is not None and moves._impl.issued is move:
            # The move this state's own list last handed out by index is legal as it
            # stands (the bot's hot path: rng.choice(state.legal_moves())).
            return apply(self, move)
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, Move):
            raise TypeError(f"apply_move takes a Move or a string, not {type(move).__name__}")
        else:
            self._check(move, None)
        return apply(self, move)

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

    def options(self) -> dict[str, Any]:
        """The non-default rule options of this game, as keyword arguments of ``new_game``."""
        out: dict[str, Any] = {}
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
    """Unpickle a state (the inverse of ``ChevronState.__reduce__``)."""
    return ChevronState(
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
        _occupancy(chevrons),
        None if last is None else Move(*last),
    )


# resolve.successor sets every slot of a new state by name: a field added to ChevronState
# must be added there too.
assert tuple(attrs.fields_dict(ChevronState)) == (
    "rules",
    "players",
    "markers",
    "chevrons",
    "to_move",
    "out",
    "trigger",
    "idle",
    "ply",
    "outcome",
    "occupied",
    "_last",
    "_moves",
    "_pos",
)


class _Draft(ChevronState):
    """A :class:`ChevronState` being built by ``resolve.successor``, which then turns it
    into one by ``__class__`` assignment: the same slots (none added), but the plain
    attribute assignment of ``object`` instead of the frozen class's refusal."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__


STATE_CLASSES.extend((_Draft, ChevronState))
