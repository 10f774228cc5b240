"""The native engine behind :mod:`pacru.chevron.engine`: the Rust extension ``pacru._native``.

:class:`NativeChevronState` is the native engine's :class:`~pacru.ChevronState`:
the extension's class ``State``, which owns the engine's rules and position and
serves the state's values from them, under the shared class's methods and
documentation (``class NativeChevronState(_native.State, ChevronState)``). Its
``legal_moves()`` and ``apply_move()`` are the extension's: a ply crosses into
the extension once to list the moves and once to apply one, and the next state
is made there (by calling this class). A refused move is diagnosed there too: the
extension's ``State._check`` (which ``parse_move`` and SAN call, in place of
``ChevronState._check``) names the rule it breaks as :mod:`pacru.chevron.legality`
does, word for word, without calling the Python rules.

The move list is the extension's class ``NativeLegalMoves``, registered (by
:mod:`pacru.chevron.engine`) as a virtual subclass of :class:`~pacru.LegalMoves`:
its length, indexing, iteration, membership (a move's text too), ``index``,
``count``, ``==`` and ``repr`` run in the extension. Its moves
are :class:`~pacru.Move` values taken from :data:`MOVES`, a table that builds
each move the first time it is asked for and keeps every move without
relinquished fields; a state hands the table on to its successors. Its families
(:attr:`~pacru.LegalMoves.steps`, ``reorientations``, ``families``,
``family_of``, ``from_field``) are made from the engine's steps and choices when
first read (:func:`family_list`).

The extension keeps no object of pacru's in a static: a state carries what its
successors need (the rule object, the players, the move table, its class), and
the class builds what the extension cannot (an :class:`~pacru.Outcome`,
:meth:`NativeChevronState._outcome`). Only the engine boundary imports this
module, and only when the native engine is in use; it makes the native engine's
:class:`NativeEngine`, the operations the layers above ask of the engine in use
(:data:`pacru.chevron.engine.OPS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

from pacru import _native
from pacru.base import Outcome, Termination
from pacru.chevron.families import FixedChoices, Option
from pacru.chevron.move import Move
from pacru.chevron.movegen import generate
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.rules import COUNTER_MAX, rules_of_key
from pacru.chevron.state import ChevronState
from pacru.errors import InvalidPositionError

if TYPE_CHECKING:
    from pacru.chevron.engine import RawRollouts

__all__ = [
    "MOVES",
    "MoveKey",
    "MoveTable",
    "NativeChevronState",
    "NativeEngine",
    "NativeLegalMoves",
    "apply",
    "family_list",
    "legal_moves",
    "outcome",
    "position",
    "python_list",
]

_TERMINATIONS: Final = {t.value: t for t in Termination}
_NO_FIELD: Final = 81


def outcome(termination: str, winners: int, players: tuple[str, ...]) -> Outcome:
    """The :class:`~pacru.Outcome` of a termination value and a bitmask of winning seats."""
    return Outcome(
        _TERMINATIONS[termination], tuple(p for i, p in enumerate(players) if winners >> i & 1)
    )


class _Draft(Move):
    """A :class:`~pacru.Move` being built by :class:`MoveTable`, which then turns it into
    one by ``__class__`` assignment (the same slots): the engine's moves are valid, so
    the constructor's checks, a few microseconds a move, are left out."""

    __slots__ = ()
    # Both, so that the class's setattro is object's own (CPython takes object's C slot
    # only when neither is overridden): plain slot stores, which the interpreter specializes.
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__


_new: Final = object.__new__


#: A key of :class:`MoveTable`.
MoveKey = int | tuple[int, tuple[int, ...]]


class MoveTable(dict[MoveKey, Move]):
    """The :class:`~pacru.Move` of each move key of the extension, built when first asked.

    A key packs a move's parts (7 bits a field, 81 for None): origin (bits 0-6), target
    (7-13), marker (14-20), meeting (21-27), capture (28), connection (29), twist + 1
    (30-31) and turn + 2 (32-34); a reorientation's key is the tuple of that int and its
    relinquished fields, ascending. Moves without relinquished fields are kept (a few
    thousand in a game); reorientations, of which there are millions, are built each
    time. The extension builds a missing move itself, from the engine's move, with the
    same two classes (:attr:`draft`, then :attr:`move`).
    """

    #: The class a move is built as (the slots of :class:`~pacru.Move`, plain assignment).
    draft: ClassVar[type[Move]] = _Draft
    #: The class a built move becomes.
    move: ClassVar[type[Move]] = Move
    #: The Python engine's list class, which a native list compares equal to move by move
    #: (``LegalMoves.__eq__``): the extension reads it here and imports no module of pacru's.
    legal_moves: ClassVar[type[LegalMoves]] = LegalMoves

    def __missing__(self, key: MoveKey) -> Move:
        relinquished: tuple[int, ...] = ()
        if type(key) is tuple:
            key, relinquished = key
        assert isinstance(key, int)
        origin, target = key & 127, key >> 7 & 127
        marker, meeting = key >> 14 & 127, key >> 21 & 127
        move: Any = _new(_Draft)
        move.origin = None if origin == _NO_FIELD else origin
        move.target = None if target == _NO_FIELD else target
        move.capture = bool(key >> 28 & 1)
        move.twist = (key >> 30 & 3) - 1
        move.turn = (key >> 32 & 7) - 2
        move.connection = bool(key >> 29 & 1)
        move.marker = None if marker == _NO_FIELD else marker
        move.meeting = None if meeting == _NO_FIELD else meeting
        move.relinquished = relinquished
        move._attrs_cached_hash = None
        move.__class__ = Move
        built: Move = move
        if not relinquished:
            self[key] = built
        return built


#: The move table of every native list of this process.
MOVES: Final = MoveTable()


class NativeChevronState(_native.State, ChevronState):  # type: ignore[misc, override]
    __doc__ = ChevronState.__doc__  # the shared class's, not the extension class's
    __slots__ = ()

    _concrete: ClassVar[bool] = True

    @staticmethod
    def _outcome(termination: str, winners: int, players: tuple[str, ...]) -> Outcome:
        """The :class:`~pacru.Outcome` of a termination value and a bitmask of winning
        seats (the extension builds a finished state's outcome with it, when first read)."""
        return outcome(termination, winners, players)


def native_state(state: ChevronState) -> NativeChevronState:
    """``state`` as a :class:`NativeChevronState` (itself when it is one).

    Raises:
        InvalidPositionError: values the engine refuses (a counter above
            :data:`pacru.chevron.rules.COUNTER_MAX`, a malformed position).
    """
    if isinstance(state, NativeChevronState):
        return state
    try:
        return NativeChevronState(*state._values())
    except OverflowError:
        # A state built by hand with a number no engine holds (the readers refuse it).
        raise InvalidPositionError(
            f"a count or seat of this position is out of range (counters: 0..{COUNTER_MAX})"
        ) from None


def position(state: ChevronState) -> _native.Position:
    """The extension's ``Position`` of ``state`` (for the batch layer: rollouts, vectors).

    Raises:
        InvalidPositionError: values the engine refuses (a counter above
            :data:`pacru.chevron.rules.COUNTER_MAX`, a malformed position).
    """
    return native_state(state)._position()


#: The move list class of the native engine (a ``LegalMoves`` by registration).
NativeLegalMoves: Final = _native.NativeLegalMoves


def python_list(pos: _native.Position) -> LegalMoves:
    """The pure-Python engine's list of a native position (for tests and tools)."""
    return generate(rules_of_key(pos.options), *pos.generator_args())


def family_list(
    passes: bool,
    steps: tuple[tuple[int, int, bool, tuple[Option, ...]], ...],
    reorienting: tuple[int, ...],
    free: int,
) -> LegalMoves:
    """A :class:`~pacru.LegalMoves` of the native engine's families, from its parts.

    The native list's ``steps``, ``reorientations``, ``families``, ``family_of``
    and ``from_field`` are this list's: its step families hold the choices the
    engine worked out for them (``(twist, connection, marker field or -1,
    meeting bitboard)`` each), its reorientations the codes of the chevrons that
    may reorient and the own unoccupied fields they may give up {R14, D25}.
    """
    if passes:
        return LegalMoves.pass_only()
    raw = tuple((origin, target, 0, 0, False, capture) for origin, target, capture, _ in steps)
    choices = FixedChoices(raw, tuple(options for *_, options in steps)) if raw else None
    return LegalMoves(choices, reorienting, free)


def legal_moves(state: ChevronState) -> LegalMoves:
    """The legal moves of ``state`` (of either engine) from the native engine."""
    return native_state(state).legal_moves()


def apply(state: ChevronState, move: Move | str) -> ChevronState:
    """The state after ``move`` (checked) in ``state`` (of either engine), from the native
    engine."""
    return native_state(state).apply_move(move)


class NativeEngine:
    """The native engine's :class:`pacru.chevron.engine.Engine` (:data:`pacru.chevron.engine.OPS`
    when it is in use): each operation runs in the extension."""

    name: Final = "native"
    state_class: Final[type[ChevronState]] = NativeChevronState
    batches: Final = True
    decision_class: Final[type] = _native.NativeDecision

    def decision_layout(
        self, players: int, game: int, ply_scale: float, idle_scale: float, supply: int
    ) -> _native.DecisionLayout:
        """The extension's ``DecisionLayout`` of a chevron encoding."""
        return _native.DecisionLayout(players, game, ply_scale, idle_scale, supply)

    def lsd_rules(
        self,
        kinds: list[list[int]],
        initial: list[list[int]],
        allow_rotation: bool,
        strict: bool,
        row_length: int,
    ) -> _native.LsdRules:
        """The extension's ``LsdRules`` (the rules of ``rust/lsd``)."""
        return _native.LsdRules(kinds, initial, allow_rotation, strict, row_length)

    def random_rollouts(
        self,
        state: ChevronState,
        n: int,
        seed: int,
        cap: int | None,
        families: bool,
        record: bool,
        threads: int,
    ) -> RawRollouts:
        """The games of ``pacru._native.random_rollouts`` from ``state``'s position.

        Raises:
            InvalidPositionError: values of ``state`` the engine refuses.
        """
        return _native.random_rollouts(position(state), n, seed, cap, families, record, threads)
