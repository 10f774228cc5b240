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
``count``, ``==`` and ``repr`` run in the extension. Its moves are the
extension's frozen class ``Move`` (``pacru.Move`` on the native engine, a
:class:`~pacru.chevron.move.Move` by registration), each made once, in Rust,
when the list hands it out. Its families
(:attr:`~pacru.LegalMoves.steps`, ``reorientations``, ``families``,
``family_of``) are the extension's classes ``StepFamily`` and
``ReorientationFamily`` (registered as :class:`~pacru.chevron.families.StepFamily`
and :class:`~pacru.chevron.families.ReorientationFamily`), made from the engine's
list when first read, handing out native moves; ``from_field`` is a
``NativeLegalMoves`` of its own, of that chevron's moves alone, made in the
extension.

The extension keeps no object of pacru's in a static but the classes the engine
boundary hands it at import (the Python ``Move``, ``MoveKind``'s members,
``LegalMoves``): a state carries what its successors need (the rule object, the
players, its class), and
the class builds what the extension does not: a finished state's
:class:`~pacru.Outcome`, from the engine's parts (``_outcome_parts``), kept by
the state when first read. Only the engine boundary imports this
module, and only when the native engine is in use; it makes the native engine's
:class:`NativeEngine`, the operations the layers above ask of the engine in use
(:data:`pacru.chevron.engine.OPS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from pacru import _native
from pacru.base import Outcome, Termination
from pacru.chevron.move import Move
from pacru.chevron.movegen import generate
from pacru.chevron.movelist import LegalMoves
from pacru.chevron.rules import COUNTER_MAX, rules_of_key
from pacru.chevron.state import ChevronState
from pacru.errors import InvalidPositionError

if TYPE_CHECKING:
    from pacru.chevron.engine import RawRollouts
    from pacru.chevron.rules import Rules

__all__ = [
    "NativeChevronState",
    "NativeEngine",
    "NativeLegalMoves",
    "apply",
    "legal_moves",
    "outcome",
    "position",
    "python_list",
]

_TERMINATIONS: Final = {t.value: t for t in Termination}


def outcome(termination: str, winners: int, players: tuple[str, ...]) -> Outcome:
    """The :class:`~pacru.Outcome` of a termination value and a bitmask of winning seats."""
    return Outcome(
        _TERMINATIONS[termination], tuple(p for i, p in enumerate(players) if winners >> i & 1)
    )


class NativeChevronState(_native.State, ChevronState):  # type: ignore[misc, override]
    __doc__ = ChevronState.__doc__  # the shared class's, not the extension class's
    __slots__ = ()

    _concrete: ClassVar[bool] = True

    def parse_move(self, text: str) -> Move:
        # The engine's move class: the shared method's, read by the extension's reader.
        move: Move = _native.Move.parse(text)
        self._check(move, text)
        return move

    parse_move.__doc__ = ChevronState.parse_move.__doc__

    @property
    def outcome(self) -> Outcome | None:  # type: ignore[override]  # read-only, as a frozen field
        # Made here from the engine's parts when first read, then kept by the state: the
        # extension builds no object of pacru's (it calls nothing back).
        kept: Outcome | None = self._kept_outcome
        if kept is not None:
            return kept
        parts = self._outcome_parts
        if parts is None:
            return None
        made: Outcome = self._keep_outcome(outcome(*parts, self.players))
        return made

    outcome.__doc__ = ChevronState.outcome.__doc__


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
    move_class: Final[type[Move]] = _native.Move
    batches: Final = True
    decision_class: Final[type] = _native.NativeDecision

    def decision_layout(
        self,
        players: int,
        game: int,
        ply_scale: float,
        idle_scale: float,
        supply: int,
        rules: Rules,
    ) -> _native.DecisionLayout:
        """The extension's ``DecisionLayout`` of a chevron encoding (of this engine's own
        state class and ``rules``, which it checks a state against itself)."""
        return _native.DecisionLayout(
            players,
            game,
            ply_scale,
            idle_scale,
            supply,
            NativeChevronState,
            rules.meeting_rule,
            rules.move_cap,
            rules.idle_rounds,
        )

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
