"""The Python engine's state class: :class:`pacru.ChevronState` as a frozen attrs class.

The readable reference of the native engine's state (``pacru.chevron.native``):
the values are attrs fields, the legal moves come from
:mod:`pacru.chevron.movegen` and a move is applied by
:mod:`pacru.chevron.resolve`, which builds the next state of this class
(:data:`pacru.chevron.resolve.STATE_SLOTS`). Everything else, and every
docstring, is the shared :class:`~pacru.chevron.state.ChevronState`'s.
:mod:`pacru.chevron.engine` picks this class when the Python engine is in use.
"""

from __future__ import annotations

from operator import index
from typing import Any, ClassVar, Final

import attrs

from pacru.base import Outcome, Termination
from pacru.chevron.move import Move
from pacru.chevron.movegen import generate
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.resolve import STATE_SLOTS, resolve
from pacru.chevron.rules import COUNTER_MAX, GAMES, MEETING_RULES, Rules
from pacru.chevron.state import ChevronState, occupancy
from pacru.errors import InvalidPositionError
from pacru.geometry import FIELD_NAMES

__all__ = ["PythonChevronState", "python_legal_moves"]


def python_legal_moves(state: ChevronState) -> LegalMoves:
    """The legal moves of ``state`` (of either engine) from the pure-Python engine (not
    cached)."""
    if state.outcome is not None:
        return LegalMoves.empty()
    return generate(
        state.rules,
        state.markers,
        state.chevrons,
        state.to_move,
        state.occupied,
        state.trigger >= 0,
    )


@attrs.frozen(eq=False, repr=False)
class PythonChevronState(ChevronState):
    # No docstring of its own: the shared class's (inspect.getdoc, the API docs).
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
    occupied: int = -1  # -1: derived from the chevrons
    _last: Move | None = None
    _moves: LegalMoves | None = None

    _concrete: ClassVar[bool] = True

    def __attrs_post_init__(self) -> None:
        # Built from values (a reader, unpickling, a user): checked and stored as the
        # native engine's class checks and stores them, so that both engines take and
        # refuse the same values alike. Play builds its states without this
        # (resolve.successor), from values that are valid.
        for name, value in checked_values(*self._key()).items():
            object.__setattr__(self, name, value)

    def legal_moves(self) -> LegalMoves:
        moves = self._moves
        if moves is None:
            moves = python_legal_moves(self)
            object.__setattr__(self, "_moves", moves)
        return moves

    def apply_move(self, move: Move | str) -> ChevronState:
        moves = self._moves
        if move is not None and moves is not None and moves._impl.issued is move:
            # The move this state's own list last handed out by index is legal as it
            # stands (the bot's hot path: rng.choice(state.legal_moves())).
            return resolve(self, move)
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, Move):
            raise TypeError(f"apply_move takes a Move or a string, not {type(move).__name__}")
        else:
            self._check(move, None)
        return resolve(self, move)


# resolve.successor sets every slot of a new state, in this order: a field added to the class
# must be added there too.
_FIELDS: Final = tuple(attrs.fields_dict(PythonChevronState))
assert _FIELDS == (
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
)


STATE_SLOTS.extend(
    (
        PythonChevronState,
        tuple(PythonChevronState.__dict__[name].__set__ for name in _FIELDS),
    )
)


# -- the values a state is built from, checked as the native engine checks them -------------

#: The limits of the native engine's fields: the seat to move and the eliminated seats
#: (8 bits), the trigger (signed 8 bits), a marker bitboard (128 bits), a chevron code
#: (16 bits), the counters (64 bits).
_U8: Final = 255
_I8: Final = (-128, 127)
_U128: Final = 2**128 - 1
_U16: Final = 2**16 - 1
_FULL: Final = 2**81 - 1
#: The termination values the native engine takes (every one of :class:`~pacru.Termination`).
_TERMINATIONS: Final = frozenset(t.value for t in Termination)


def _invalid(message: str) -> InvalidPositionError:
    return InvalidPositionError(message)


def _ranged(value: object, low: int, high: int) -> int:
    """``value`` as an int (:func:`operator.index`), or the native engine's error for a
    number outside its field's ``low..high``."""
    number = index(value)  # type: ignore[arg-type]
    if not low <= number <= high:
        raise _invalid(
            f"a count or seat of this position is out of range (counters: 0..{COUNTER_MAX})"
        )
    return number


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"'{type(value).__name__}' object cannot be cast as 'str'")
    return value


def _quoted(value: str) -> str:
    """``value`` in double quotes, as the native engine writes a name it refuses."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _check_rules(rules: Any) -> None:
    game = _text(rules.game)
    if game not in GAMES:
        raise ValueError(f"unknown chevron game {_quoted(game)}")
    meeting_rule = _text(rules.meeting_rule)
    if meeting_rule not in MEETING_RULES:
        raise ValueError(f"unknown meeting rule {_quoted(meeting_rule)}")
    if rules.move_cap is not None:
        _ranged(rules.move_cap, 0, COUNTER_MAX)
    _ranged(rules.idle_rounds, 0, COUNTER_MAX)


def _checked_outcome(outcome: Any, players: tuple[str, ...]) -> Outcome | None:
    """``outcome`` as the native engine keeps it: its termination and the players among
    its winners, in turn order."""
    if outcome is None:
        return None
    value = _text(outcome.termination.value)
    if value not in _TERMINATIONS:
        raise ValueError(f"no chevron termination {_quoted(value)}")
    winners = outcome.winners
    return Outcome(Termination(value), tuple(p for p in players if p in winners))


def _checked_board(
    markers: Any, chevrons: Any
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The marker bitboards and each seat's chevron codes (sorted), checked."""
    boards = tuple(_ranged(m, 0, _U128) for m in markers)
    seats = [[_ranged(c, 0, _U16) for c in codes] for codes in chevrons]
    n = _ranged(len(boards), 0, _U8)
    if not 2 <= n <= 4:
        raise _invalid(f"a chevron game is played by 2, 3 or 4 players, not {n}")
    if len(seats) != n:
        raise _invalid(f"markers and chevrons must list {n} seats, not {n} and {len(seats)}")
    marked = 0
    for m in boards:
        if m & ~_FULL:
            raise _invalid("a marker bitboard has bits above field 80")
        if m & marked:
            raise _invalid(f"{_lowest(m & marked)} holds markers of two colours")
        marked |= m
    occupied = 0
    for codes in seats:
        fields = 0
        for code in codes:
            if code >= 81 * 8:
                raise _invalid(f"chevron code must be field * 8 + facing below 648, not {code}")
            if fields >> (code >> 3) & 1:
                raise _invalid(f"two chevrons on {FIELD_NAMES[code >> 3]}")
            fields |= 1 << (code >> 3)
        if fields & occupied:
            raise _invalid(f"two chevrons on {_lowest(fields & occupied)}")
        occupied |= fields
    return boards, tuple(tuple(sorted(codes)) for codes in seats)


def _lowest(bitboard: int) -> str:
    return FIELD_NAMES[(bitboard & -bitboard).bit_length() - 1]


def checked_values(
    rules: Any,
    players: Any,
    markers: Any,
    chevrons: Any,
    to_move: Any,
    out: Any,
    trigger: Any,
    idle: Any,
    ply: Any,
    outcome: Any,
) -> dict[str, Any]:
    """The values of a state built from them, as the native engine checks and stores them.

    Integers are taken through :func:`operator.index` (stored as ``int``), the chevron
    codes sorted, the outcome's winners kept in turn order; ``None`` for ``out``,
    ``trigger``, ``idle`` or ``ply`` is its default. The checks, their order and their
    messages are the native engine's (``pacru._native.State``).

    Raises:
        InvalidPositionError: a number outside what the engine holds (counters
            0..2**64-1), a player count outside 2..4, lists of different lengths, a
            marker outside the board or of two colours, a chevron code above 647,
            two chevrons on a field, a seat (``to_move``, ``out``, ``trigger``)
            outside the players.
        TypeError: ``players`` not a tuple, a value that is not an integer, a
            missing value.
        ValueError: rules of no chevron game, an outcome of no chevron game.
    """
    if players is None or markers is None or chevrons is None or to_move is None:
        raise TypeError("a state needs rules, players, markers, chevrons and to_move")
    if not isinstance(players, tuple):
        raise TypeError(f"'{type(players).__name__}' object cannot be cast as 'tuple'")
    _check_rules(rules)
    outcome = _checked_outcome(outcome, players)
    boards, codes = _checked_board(markers, chevrons)
    seat = _ranged(to_move, 0, _U8)
    eliminated = 0 if out is None else _ranged(out, 0, _U8)
    triggered = -1 if trigger is None else _ranged(trigger, *_I8)
    idle = 0 if idle is None else _ranged(idle, 0, COUNTER_MAX)
    ply = 0 if ply is None else _ranged(ply, 0, COUNTER_MAX)
    n = len(boards)
    if seat >= n:
        raise _invalid(f"to_move must be a seat 0..{n - 1}, not {seat}")
    if eliminated >> n:
        raise _invalid("out names a seat beyond the players")
    if not -1 <= triggered < n:
        raise _invalid(f"trigger must be -1 or a seat, not {triggered}")
    if len(players) != n:
        raise _invalid("the players and the markers differ in number")
    return {
        "markers": boards,
        "chevrons": codes,
        "to_move": seat,
        "out": eliminated,
        "trigger": triggered,
        "idle": idle,
        "ply": ply,
        "outcome": outcome,
        "occupied": occupancy(codes),
    }
