"""LSD's side of the engine boundary: the native engine of :class:`~pacru.lsd.LsdState`.

The engine is the package's one choice, made by :mod:`pacru.chevron.engine`
(``PACRU_ENGINE``, else the build), whose engine object
(:data:`pacru.chevron.engine.OPS`) makes the extension's LSD rules
(:meth:`~pacru.chevron.engine.Engine.lsd_rules`; None on the Python engine, whose
states then play on the Python rules, :mod:`pacru.lsd.engine`). On the native engine
an :class:`~pacru.lsd.LsdState` holds a position of the extension (``LsdPosition``,
the rules of ``rust/lsd``), made once from the state's parts
(:func:`position`) or by the position before it: its legal moves come from there as
move keys (:class:`~pacru.lsd.movelist.LsdLegalMoves` makes each
:class:`~pacru.lsd.LsdMove` when read), ``apply_move`` makes the next position
there, and the field, frontier, supplies and captured tiles of the new state are
read from it (:func:`parts`) only when something asks for them. A move the
extension refuses is explained by the Python rules
(:func:`pacru.lsd.legality.explain_illegal`), so both engines raise the same error.

The extension never calls back: it answers with plain values, which this module
turns into pacru's (an :class:`~pacru.Outcome`, dicts and tuples) once. Only
:mod:`pacru.lsd.state` imports this module, which imports no state class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypeAlias

from pacru.base import Outcome, Termination
from pacru.chevron.engine import OPS
from pacru.lsd.tiles import MAX_TILES

if TYPE_CHECKING:
    from pacru import _native
    from pacru.lsd.moves import LsdMove
    from pacru.lsd.rules import LsdRules
    from pacru.lsd.state import LsdState

__all__ = [
    "LazyParts",
    "native_rules",
    "on_python",
    "outcome",
    "parts",
    "position",
    "rules_args",
]

#: Per seat, a count by kind (supplies, captured tiles).
Counts: TypeAlias = tuple[tuple[int, ...], ...]

_ENDS: Final = {Termination.ROW: 1, Termination.BLOCKED: 2}
_TERMINATIONS: Final = {1: Termination.ROW, 2: Termination.BLOCKED}
# By the id of the rules, which the entry keeps alive (rules hash by their options, a
# few microseconds each time; a state builds its position from the rules it holds).
_RULES: dict[int, tuple[LsdRules, _native.LsdRules | None]] = {}
_RULES_LIMIT: Final = 256


class LazyParts:
    """The field, frontier, supplies and captured tiles of an :class:`~pacru.lsd.LsdState`
    (``_field``, ``_frontier``, ``_supplies``, ``_captured``; see :mod:`pacru.lsd.engine`):
    held in its slots ``_cells``, ``_open``, ``_left`` and ``_lost``, which a state the
    native engine made fills from its position when one is first read.

    Properties, not a ``__getattr__``: a class with ``__getattr__`` makes every attribute
    read of every state slower (CPython cannot specialise those reads).
    """

    __slots__ = ()

    _cells: dict[int, int]
    _open: dict[int, int]
    _left: Counts
    _lost: Counts
    _pos: Any

    @property
    def _field(self) -> dict[int, int]:
        try:
            return self._cells
        except AttributeError:
            return self._read()[0]

    @property
    def _frontier(self) -> dict[int, int]:
        try:
            return self._open
        except AttributeError:
            return self._read()[1]

    @property
    def _supplies(self) -> Counts:
        try:
            return self._left
        except AttributeError:
            return self._read()[2]

    @property
    def _captured(self) -> Counts:
        try:
            return self._lost
        except AttributeError:
            return self._read()[3]

    def _read(self) -> tuple[dict[int, int], dict[int, int], Counts, Counts]:
        """Fill the slots from the native position, once (the state is immutable)."""
        read = parts(self._pos)
        for name, value in zip(("_cells", "_open", "_left", "_lost"), read, strict=True):
            object.__setattr__(self, name, value)
        return read


def native_rules(rules: LsdRules) -> _native.LsdRules | None:
    """The extension's rules of ``rules`` (its kinds, counts, rotation, strictness, row),
    or None on an engine without them (the Python engine)."""
    entry = _RULES.get(id(rules))
    if entry is None:
        if len(_RULES) >= _RULES_LIMIT:
            _RULES.clear()
        entry = _RULES[id(rules)] = (rules, OPS.lsd_rules(*rules_args(rules)))
    return entry[1]


def rules_args(rules: LsdRules) -> tuple[list[list[int]], list[list[int]], bool, bool, int]:
    """The arguments of the extension's ``LsdRules`` for ``rules``: kinds, counts, rotation,
    strict matching and the row length, which may be any int from 2 up (RULING 16) and is
    given as at most ``MAX_TILES + 1``: no longer row can be made, as no more tiles are in
    play, and the extension holds it in 32 bits."""
    return (
        [list(k) for k in rules.kinds],
        [list(c) for c in rules.initial],
        rules.allow_rotation,
        rules.strict_dot_matching,
        min(rules.row_length, MAX_TILES + 1),
    )


def position(
    rules: LsdRules,
    field: dict[int, int],
    supplies: Counts,
    captured: Counts,
    turn: int,
    end: Outcome | None,
    last: LsdMove | None,
) -> _native.LsdPosition | None:
    """The extension's position of an :class:`~pacru.lsd.LsdState`'s parts, or None on an
    engine without LSD's native rules (the Python engine).

    Raises:
        ValueError: parts the engine refuses (a state built by hand against its rules).
    """
    made = native_rules(rules)
    if made is None:
        return None
    players = rules.colours
    winners = 0 if end is None else sum(1 << players.index(w) for w in end.winners)
    return made.position(
        (
            list(field.items()),
            [list(s) for s in supplies],
            [list(c) for c in captured],
            turn,
            0 if end is None else _ENDS[end.termination],
            winners,
            None if last is None else (last._face, last._code),
        )
    )


def outcome(pos: _native.LsdPosition, players: tuple[str, ...]) -> Outcome | None:
    """The :class:`~pacru.Outcome` of ``pos``, or None while its game runs."""
    end = pos.end
    if not end:
        return None
    winners = pos.winners
    return Outcome(_TERMINATIONS[end], tuple(p for i, p in enumerate(players) if winners >> i & 1))


def parts(pos: _native.LsdPosition) -> tuple[dict[int, int], dict[int, int], Counts, Counts]:
    """The field, frontier, supplies and captured tiles of ``pos`` as an
    :class:`~pacru.lsd.LsdState` holds them (see :mod:`pacru.lsd.engine`)."""
    field, frontier, supplies, captured = pos.parts()
    return dict(field), dict(frontier), tuple(map(tuple, supplies)), tuple(map(tuple, captured))


def on_python(state: LsdState) -> LsdState:
    """``state`` on the Python engine whatever the build, and so are the states after it:
    the reference of the differential tests and benchmarks in a process of the native engine."""
    parts = (state._field, state._frontier, state._supplies, state._captured)
    end = (state._turn, state._outcome, state._last)
    return type(state)(state.players, state.rules, *parts, *end, False)
