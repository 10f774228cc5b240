"""Moves of the chevron games and their text notation.

One grammar covers Lilacru, Shacru, Azacru and Pacru. It is context-free: a
move's text alone says everything the player chose, so ``Move.parse(str(m))
== m`` for every move, and a state is only needed to decide legality.

Grammar (fields are ``a1`` .. ``i9``; lower case is canonical, input is
case-insensitive and may be surrounded by white space)::

    move          = step | reorientation | "pass"
    step          = field ("-" | "x") field [twist] ["*"] ["+" field] ["@" field]
    twist         = "<" | ">"
    reorientation = field turn "(" field {"," field} ")"
    turn          = "<" | "<<" | ">" | ">>"

* ``e4-e6`` moves the chevron on e4 to e6 (one field, long, connection or
  jump: the state knows which). ``e9xe7`` is a Pacru pincer {R11}: the chevron
  on e9 takes the chevron on e7.
* ``<`` / ``>`` after a step is the borderland twist {S-R4, A-R6}: turn 45
  degrees anticlockwise / clockwise after crossing. No twist sign means the
  chevron keeps its direction of travel.
* ``*`` takes the Pacru connection change {R8}; it is written on every Pacru
  connection change, also when no border crossing competes with it.
* ``+f`` puts the Pacru border-crossing marker on ``f``: a borderland change
  {R4, R6} or a borderland transformation {R10}.
* ``@f`` is the field changed by a Pacru meeting {R12}.
* ``e5>(a1,a2)`` reorients the chevron on e5 {R14}: ``>``/``<`` 45 degrees
  clockwise/anticlockwise paying 2 fields, ``>>``/``<<`` 90 degrees paying 4;
  the fields given up follow in brackets, in ascending field index (rank by
  rank from a1: ``c4`` before ``b5``).
* ``pass`` is the only move of a Lilacru, Shacru or Azacru player who cannot
  move {S-R2, A-R10}.

Examples: ``a3-b4>``, ``g9-e7*``, ``g9-e7+d9``, ``e3xe4+e6@i9``,
``d9>>(c4,b5,a7,b7)``.
"""

from __future__ import annotations

import abc
import enum
import re
from typing import Any, Final

import attrs

from pacru._integers import integer
from pacru.errors import NotationError
from pacru.geometry import FIELD_NAMES, parse_field

__all__ = ["MAX_MOVE_TEXT", "Move", "MoveKind", "packed_key"]

#: Longest move text the parser looks at; longer input is a NotationError.
MAX_MOVE_TEXT: Final = 64

_FIELD_NAME: Final = re.compile(r"[a-i][1-9]")
_TURN_TEXT: Final = {-2: "<<", -1: "<", 1: ">", 2: ">>"}
#: The turn marks, longest first so that ``>>`` is not read as ``>``.
_TEXT_TURN: Final = {"<<": -2, "<": -1, ">>": 2, ">": 1}
#: The end of every "not a move" message: the grammar by example.
_GRAMMAR_TAIL: Final = (
    "; expected e.g. 'e4-e5', 'a3-b4>', 'g9-e7*', 'e3xe4+e6@i9', 'd9>>(c4,b5,a7,b7)' or 'pass'"
)

# What the grammar allows where a text leaves it, in the words of the NotationError.
_ORIGIN: Final = "a field (a1 to i9)"
_SEPARATOR: Final = "'-', 'x' or a turn ('<', '<<', '>', '>>')"
_FIELD: Final = "a field (a1 to i9)"
_STEP_END: Final = (
    "the end, or a twist ('<', '>'), '*', '+' and a field, '@' and a field, "
    "each at most once and in this order"
)
_OPEN_BRACKET: Final = "'(' and the fields given up"
_COMMA_OR_CLOSE: Final = "',' and a field, or ')'"
_END: Final = "the end"


class _Misread(Exception):
    """The text leaves the grammar at character ``at``, where ``expected`` would come."""

    def __init__(self, at: int, expected: str) -> None:
        super().__init__(at, expected)
        self.at = at
        self.expected = expected


class _Reader:
    """A cursor over a move's stripped, lower-cased ASCII text, reading the grammar above
    part by part, so that a text outside it is refused where it leaves it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def eat(self, mark: str) -> bool:
        """Take ``mark`` when it comes next."""
        found = self.text.startswith(mark, self.at)
        if found:
            self.at += len(mark)
        return found

    def field(self, expected: str = _FIELD) -> int:
        """A field name ``a1`` .. ``i9``; ``expected`` says what is missing when none is here."""
        name = self.text[self.at : self.at + 2]
        if _FIELD_NAME.fullmatch(name) is None:
            raise _Misread(self.at, expected)
        self.at += 2
        return parse_field(name)

    def end(self, expected: str) -> None:
        if self.at != len(self.text):
            raise _Misread(self.at, expected)

    def move(self, text: str) -> Move:
        """The move read; ``text`` is the caller's, named in the errors of the rules' checks."""
        origin = self.field(_ORIGIN)
        if self.eat("-"):
            return self.step(text, origin, capture=False)
        if self.eat("x"):
            return self.step(text, origin, capture=True)
        return self.reorientation(text, origin)

    def step(self, text: str, origin: int, capture: bool) -> Move:
        target = self.field()
        twist = -1 if self.eat("<") else 1 if self.eat(">") else 0
        connection = self.eat("*")
        marker = self.field() if self.eat("+") else None
        meeting = self.field() if self.eat("@") else None
        self.end(_STEP_END)
        if origin == target:
            raise NotationError(f"{text!r}: a move must leave its field", text)
        return Move(
            origin,
            target,
            capture=capture,
            twist=twist,
            connection=connection,
            marker=marker,
            meeting=meeting,
        )

    def reorientation(self, text: str, origin: int) -> Move:
        turn = next((t for mark, t in _TEXT_TURN.items() if self.eat(mark)), None)
        if turn is None:
            raise _Misread(self.at, _SEPARATOR)
        if not self.eat("("):
            raise _Misread(self.at, _OPEN_BRACKET)
        fields = [self.field()]
        while self.eat(","):
            fields.append(self.field())
        if not self.eat(")"):
            raise _Misread(self.at, _COMMA_OR_CLOSE)
        self.end(_END)
        if len(set(fields)) != len(fields):
            raise NotationError(f"{text!r}: a relinquished field is named twice", text)
        return Move(origin, None, turn=turn, relinquished=tuple(fields))


def _misreading(text: str, err: _Misread) -> str:
    """Where and why the reader's ``text`` leaves the grammar: what comes after the part
    read (at most 40 characters shown) and what was found instead."""
    if err.at == 0:
        return f"a move begins with {err.expected}"
    rest = text[err.at :]
    found = repr(rest[:10]) if rest else "the end"
    return f"after {text[: min(err.at, 40)]!r} comes {err.expected}, not {found}"


class MoveKind(enum.Enum):
    """What sort of action a :class:`Move` is."""

    #: A chevron moves from field to field (one field, long, connection, jump).
    STEP = "step"
    #: A Pacru pincer: an attacker moves onto the captured chevron's field {R11}.
    PINCER = "pincer"
    #: A Pacru reorientation {R14}.
    REORIENTATION = "reorientation"
    #: A pass by a player who cannot move {S-R2, A-R10}.
    PASS = "pass"


def _field(value: object) -> int | None:
    """``value`` as a field index 0..80 (any integer type but bool), else None."""
    index = value if type(value) is int else integer(value)
    return index if index is not None and 0 <= index < 81 else None


def _field_or_none(value: int | None) -> int | None:
    if value is None:
        return None
    index = _field(value)
    if index is None:
        raise ValueError(f"field index must be 0..80 (an int), not {value!r}")
    return index


def _sorted_fields(value: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    # Checked here, not later: a bad field would only fail in str() or legality.
    if not isinstance(value, tuple | list):
        raise ValueError(f"relinquished fields are a tuple of field indices, not {value!r}")
    fields = [f for f in map(_field, value) if f is not None]
    if len(fields) != len(value):
        raise ValueError(f"relinquished fields are int indices 0..80, not {value!r}")
    if len(set(fields)) != len(fields):
        raise ValueError(f"a relinquished field is named twice: {value!r}")
    return tuple(sorted(fields))


#: The constructor's parameters, in order: what a pickle of a move holds.
_FIELDS: Final = (
    "origin",
    "target",
    "capture",
    "twist",
    "turn",
    "connection",
    "marker",
    "meeting",
    "relinquished",
)
#: The number that stands for None in a field of :func:`packed_key`.
_NO_FIELD: Final = 81


def packed_key(
    origin: int | None,
    target: int | None,
    capture: bool,
    twist: int,
    turn: int,
    connection: bool,
    marker: int | None,
    meeting: int | None,
    relinquished: tuple[int, ...],
) -> int:
    """The key a move is compared and hashed by (``Move._key``), a non-negative int.

    Bits 0-6 hold the origin, 7-13 the target, 14-20 the marker, 21-27 the meeting
    (each a field index 0..80, or 81 for None), bit 28 ``capture``, 29
    ``connection``, 30-31 ``twist + 1``, 32-34 ``turn + 2`` and bits 35 + f the
    relinquished fields f; so equal moves, and only they, have equal keys. The
    native engine's move class packs the same key in Rust, and its hash is
    CPython's hash of that int (``key mod (2**61 - 1)`` on a 64-bit build): moves
    of both classes compare equal and hash alike.
    """
    key = (
        (_NO_FIELD if origin is None else origin)
        | (_NO_FIELD if target is None else target) << 7
        | (_NO_FIELD if marker is None else marker) << 14
        | (_NO_FIELD if meeting is None else meeting) << 21
        | capture << 28
        | connection << 29
        | (twist + 1) << 30
        | (turn + 2) << 32
    )
    for field in relinquished:
        key |= 1 << (35 + field)
    return key


def _exact_bool(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not bool:
        raise ValueError(f"'{attribute.name}' must be True or False as bool (got {value!r})")


def _one_of(name: str, allowed: tuple[int, ...], value: object) -> int:
    """``value`` (any integer type but bool) as one of the ``allowed`` ints.

    bool is an int subclass: Move(twist=True) would print as ">" yet not parse back as True.
    """
    number = value if type(value) is int else integer(value)
    if number is None or number not in allowed:
        raise ValueError(f"'{name}' must be in {allowed!r} as int (got {value!r})")
    return number


def _twist(value: object) -> int:
    return _one_of("twist", (-1, 0, 1), value)


def _turn(value: object) -> int:
    return _one_of("turn", (-2, -1, 0, 1, 2), value)


# eq and hash are this class's own (equal to the native engine's moves); no order. The
# metaclass only lets pacru.chevron.engine register the native move class (no abstract method).
@attrs.frozen(order=False)
class Move(metaclass=abc.ABCMeta):  # noqa: B024
    """One complete move of a chevron game, with every choice the player made.

    All fields are field indices 0..80 (``a1 = 0``, row-major from rank 1; see
    :mod:`pacru.geometry`) or ``None``. The constructor takes the fields,
    ``twist`` and ``turn`` as ``int`` or any integer type :func:`operator.index`
    accepts (numpy integers), and stores them as ``int``; a ``bool`` is refused.

    Attributes:
        origin: the chevron's field; ``None`` only for a pass.
        target: the destination field (for a pincer the victim's field);
            ``None`` for a reorientation or a pass.
        capture: True for a Pacru pincer {R11}.
        twist: the Shacru/Azacru borderland twist {S-R4, A-R6}: -1 turns the
            chevron 45 degrees anticlockwise after the move, +1 clockwise, 0 none.
        turn: a Pacru reorientation {R14} in 45-degree steps, clockwise
            positive: -2, -1, 1 or 2; 0 for every other move.
        connection: the Pacru connection change is taken {R8}.
        marker: the Pacru border-crossing marker's field {R4, R6, R10}, or None.
        meeting: the field changed by a Pacru meeting {R12}, or None.
        relinquished: the own fields given up by a reorientation {R14},
            ascending.

    Build moves with :meth:`parse` or the keyword constructor; states produce
    them in :meth:`pacru.ChevronState.legal_moves`.

    Moves are values: equal parts compare equal and hash alike (by their packed
    key, :func:`packed_key`), also between this class and the native engine's
    move class ``pacru._native.Move``, which is a virtual subclass of this one
    (``isinstance(m, Move)`` holds for both). A pickle of a move loads on either
    engine.

    Raises:
        ValueError: a field that is not an ``int`` 0..80, a relinquished field
            named twice, a ``twist``/``turn`` that is not one of its ``int``
            values, a ``capture``/``connection`` that is not a ``bool``, or a
            combination the notation cannot write; so ``Move.parse(str(m)) ==
            m`` for every move that can be built.
    """

    origin: int | None = attrs.field(default=None, converter=_field_or_none)
    target: int | None = attrs.field(default=None, converter=_field_or_none)
    capture: bool = attrs.field(default=False, validator=_exact_bool)
    twist: int = attrs.field(default=0, converter=_twist)
    turn: int = attrs.field(default=0, converter=_turn)
    connection: bool = attrs.field(default=False, validator=_exact_bool)
    marker: int | None = attrs.field(default=None, converter=_field_or_none)
    meeting: int | None = attrs.field(default=None, converter=_field_or_none)
    relinquished: tuple[int, ...] = attrs.field(default=(), converter=_sorted_fields)
    #: The packed key (:attr:`_key`) once computed, None before.
    _cached_key: int | None = attrs.field(init=False, default=None, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        # Refuse values that could not be written in the notation, so every Move reads back.
        if self.origin is None and (
            self.target is not None
            or self.capture
            or self.twist
            or self.turn
            or self.connection
            or self.marker is not None
            or self.meeting is not None
            or self.relinquished
        ):
            raise ValueError("a pass has no fields or choices")
        if self.origin is not None and self.origin == self.target:
            raise ValueError("a move must leave its field")
        if self.target is None and self.origin is not None and not self.turn:
            raise ValueError("a move needs a target field, or a turn for a reorientation")
        if self.target is not None and (self.turn or self.relinquished):
            raise ValueError("turn and relinquished fields belong to reorientations only")
        # A reorientation is no step: no meeting comes of it (ruling D24), nor a pincer or twist.
        if self.target is None and (
            self.capture
            or self.twist
            or self.connection
            or self.marker is not None
            or self.meeting is not None
        ):
            raise ValueError("a reorientation has no capture, twist or Pacru step choices")

    @property
    def _key(self) -> int:
        """The packed key (:func:`packed_key`), computed when first compared or hashed:
        most moves a game lists never are."""
        key = self._cached_key
        if key is None:
            key = packed_key(*self._parts())
            object.__setattr__(self, "_cached_key", key)
        return key

    def _parts(self) -> tuple[Any, ...]:
        """The constructor's arguments, in order."""
        return (
            self.origin,
            self.target,
            self.capture,
            self.twist,
            self.turn,
            self.connection,
            self.marker,
            self.meeting,
            self.relinquished,
        )

    def __eq__(self, other: object) -> bool:
        # Either class: a move of the native engine is a Move by registration.
        if other.__class__ is Move or isinstance(other, Move):
            key: int = other._key
            return self._key == key
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key)

    def __reduce__(self) -> tuple[type[Move], tuple[Any, ...]]:
        return (Move, self._parts())

    def __setstate__(self, state: dict[str, Any] | tuple[Any, ...]) -> None:
        """Restore a pickle of an earlier version (attrs' state: a dict, or a tuple of the
        fields in order)."""
        values = state if isinstance(state, dict) else dict(zip(_FIELDS, state, strict=False))
        for name in _FIELDS:
            object.__setattr__(self, name, values[name])
        object.__setattr__(self, "_cached_key", None)

    @property
    def kind(self) -> MoveKind:
        """Whether this is a step, pincer, reorientation or pass."""
        if self.origin is None:
            return MoveKind.PASS
        if self.target is None:
            return MoveKind.REORIENTATION
        return MoveKind.PINCER if self.capture else MoveKind.STEP

    @classmethod
    def pass_move(cls) -> Move:
        """The pass {S-R2, A-R2, A-R10, D34, D37}."""
        return _PASS

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move written as ``text`` in the grammar of this module.

        This checks syntax only; use :meth:`pacru.ChevronState.parse_move` to
        check the move is legal in a position.

        Raises:
            NotationError: ``text`` is not a move in the grammar. Its message says where
                the text leaves the grammar and what would come there (``'e4-e' is not a
                move: after 'e4-' comes a field (a1 to i9), not 'e'``), then examples.
        """
        if not isinstance(text, str):
            raise NotationError("a move must be given as a string")
        if len(text) > MAX_MOVE_TEXT:
            raise NotationError(f"move text longer than {MAX_MOVE_TEXT} characters", text)
        stripped = text.strip()
        s = stripped.lower()
        if s == "pass":
            return _PASS
        if not stripped.isascii():  # no part of the grammar (a lower-cased Kelvin sign is 'k')
            raise NotationError(f"{text[:40]!r} is not a move{_GRAMMAR_TAIL}", text)
        try:
            return _Reader(s).move(text)
        except _Misread as err:
            message = f"{text[:40]!r} is not a move: {_misreading(s, err)}{_GRAMMAR_TAIL}"
            raise NotationError(message, text) from None

    def __str__(self) -> str:
        if self.origin is None:
            return "pass"
        names = FIELD_NAMES
        if self.target is None:
            fields = ",".join(names[f] for f in self.relinquished)
            return f"{names[self.origin]}{_TURN_TEXT.get(self.turn, '?')}({fields})"
        parts = [names[self.origin], "x" if self.capture else "-", names[self.target]]
        if self.twist:
            parts.append("<" if self.twist < 0 else ">")
        if self.connection:
            parts.append("*")
        if self.marker is not None:
            parts.append("+" + names[self.marker])
        if self.meeting is not None:
            parts.append("@" + names[self.meeting])
        return "".join(parts)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


_PASS: Final = Move()
