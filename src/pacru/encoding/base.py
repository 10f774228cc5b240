"""The game-independent part of :mod:`pacru.encoding`: :class:`Encoding` and :class:`Decision`.

A move is chosen in a few *decisions* by the player to move, each one integer
*action* out of a fixed range ``0 .. num_actions - 1`` (the way OpenSpiel and
AlphaZero-style engines handle games whose moves are too many to number).
The layouts themselves live in :mod:`pacru.encoding.chevron` and
:mod:`pacru.encoding.lsd`, which :func:`register` their games here when
:mod:`pacru.encoding` imports them.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final, NoReturn, SupportsIndex

from pacru._integers import integer
from pacru.errors import GameOverError, IllegalMoveError, InvalidPositionError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from pacru.base import GameState

__all__ = ["ENCODING_VERSION", "Decision", "Encoding", "make_decision", "register", "seat_index"]

#: Version of the action layouts and observation planes. It changes whenever an
#: action number, the decision order or an observation plane changes meaning;
#: the golden test (tests/encoding/test_golden.py) freezes the tables of this version.
ENCODING_VERSION: Final = 1


def _item(index: int, doc: str) -> Any:
    """A read-only property of a tuple's ``index``-th item, documented by ``doc``."""
    return property(itemgetter(index), doc=doc)


class Decision(tuple[Any, ...], metaclass=abc.ABCMeta):
    """One decision of the player to move: which action to take next.

    Get the first decision of a move with :meth:`Encoding.start`, and the next
    ones with :meth:`choose`; once :attr:`done`, :attr:`move` is the complete
    legal move (apply it with ``decision.state.apply_move(decision.move)``).
    Decisions are immutable and compare by identity; ``choose`` returns a new
    one. A decision that is not :attr:`done` always has at least one legal
    action: :meth:`Encoding.start` refuses a position whose player to move
    has no legal move (only a diagram loaded with ``adjudicate=False`` can be
    one; play skips or eliminates such a player, or ends the game).

    This class is the decisions of the Python encodings (a tuple underneath,
    for speed: a decision is built several times per ply). On the native
    engine a chevron game's decisions are the extension's
    ``pacru._native.NativeDecision`` objects, with the same fields, methods,
    results and errors; that class is registered as a virtual subclass, so
    ``isinstance(decision, Decision)`` holds on both engines.
    """

    __slots__ = ()
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__

    # Bots read these several times per ply: properties over a C getter (the tuple's item)
    # cost no Python frame.
    encoding: Encoding = _item(0, "The :class:`Encoding` this decision belongs to.")
    state: GameState[Any] = _item(
        1, "The position the move is chosen in (unchanged until the move is applied)."
    )
    player: int = _item(2, "The seat index (in ``state.players``) of the player deciding.")
    prefix: tuple[int, ...] = _item(
        3,
        """The actions chosen so far for this move, oldest first.

        Decisions with a single legal action are taken automatically (except
        the first of a move) and do not appear here; once :attr:`done` it
        equals ``encoding.actions(state, move)``.
        """,
    )
    legal_actions: tuple[int, ...] = _item(
        4, "The legal actions of this decision, ascending; empty once done."
    )
    kind: str = _item(
        5,
        """What is decided.

        ``"origin"``, ``"target"``, ``"twist"``, ``"benefit"``, ``"meeting"``,
        ``"relinquish"`` (chevron games), ``"cell"``, ``"tile"`` (LSD), or
        ``"done"`` once the move is complete.
        """,
    )
    move: Any = _item(6, "The complete move once :attr:`done`, else ``None``.")

    @property
    def _cursor(self) -> Any:
        return self[7]

    @property
    def done(self) -> bool:
        """True once the move is complete (:attr:`move` is set, no action is left)."""
        return self[6] is not None

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A new numpy bool array of length ``encoding.num_actions``, True at the legal actions."""
        return self[0]._action_mask(self[4])  # type: ignore[no-any-return]

    def choose(self, action: SupportsIndex) -> Decision:
        """The decision after taking ``action``; ``self`` is unchanged.

        ``action`` is an ``int`` or any integer type :func:`operator.index`
        accepts (a numpy integer from an array), taken as its ``int`` value.

        Raises:
            IllegalMoveError: ``action`` is not one of :attr:`legal_actions`
                (rule ``"encoding"``, reason ``"illegal-action"``; a ``bool``,
                float or other non-integer is never one), or the move is
                already complete (reason ``"move-complete"``).
        """
        if self[6] is not None or type(action) is not int or action not in self[4]:
            action = self[0]._checked_action(self, action)
        return self[0]._choose(self, action)  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return (
            f"<Decision {self.kind} player={self.player} prefix={list(self.prefix)} "
            f"legal={len(self.legal_actions)} move={self.move}>"
        )

_new_tuple = tuple.__new__


def seat_index(player: object, players: int) -> int:
    """Seat ``player`` (any integer type) as an ``int`` index 0..``players - 1``.

    Raises:
        ValueError: ``player`` is not an integer (a ``bool`` is not) in that range.
    """
    seat = integer(player)
    if seat is None or not 0 <= seat < players:
        raise ValueError(f"player must be a seat index 0..{players - 1}, not {player!r}")
    return seat


def make_decision(
    encoding: Encoding,
    state: GameState[Any],
    player: int,
    prefix: tuple[int, ...],
    legal_actions: tuple[int, ...],
    kind: str,
    move: Any,
    cursor: Any,
) -> Decision:
    """A :class:`Decision` from trusted parts (for the layouts)."""
    parts = (encoding, state, player, prefix, legal_actions, kind, move, cursor)
    return _new_tuple(Decision, parts)


class Encoding(abc.ABC):
    """The integer action space, decision steps and observation tensor of one game.

    Build one with :meth:`for_game` or :meth:`of`; it depends on the game, the
    player count and the game options that change its size or bounds.

    Attributes:
        game: the game name.
        players: the number of players.
        options: the game options it was made for (keyword arguments of
            :func:`pacru.new_game`), read-only.
        num_actions: the fixed size of the action space.
        max_decisions: the most decisions one move can take.
        observation_shape: the shape of :meth:`observation`'s array.
        max_game_length: an upper bound on the plies of a game, or ``None``
            when the options leave the game unbounded (Azacru and Pacru without
            ``move_cap``); see the layout docs for each game.
        version: :data:`ENCODING_VERSION`.
    """

    game: str
    players: int
    options: Mapping[str, Any]
    num_actions: int
    max_decisions: int
    observation_shape: tuple[int, ...]
    max_game_length: int | None
    version: int = ENCODING_VERSION
    _frozen: bool = False

    def __setattr__(self, name: str, value: Any) -> None:
        # Encodings are values shared by every decision made with them: frozen once built.
        if self._frozen:
            raise AttributeError(f"an Encoding is immutable; cannot set {name!r}")
        object.__setattr__(self, name, value)

    def __reduce__(self) -> tuple[Any, ...]:
        # A value of its game, players and options: pickled as them, rebuilt by for_game.
        return (_encoding_for, (self.game, self.players, dict(self.options)))

    def __deepcopy__(self, memo: dict[int, Any]) -> Encoding:
        return self  # immutable

    @staticmethod
    def for_game(game: str, players: int = 2, **options: Any) -> Encoding:
        """The encoding of ``game`` for ``players`` players with these game options.

        Raises:
            ValueError: an unknown game, player count or option (as :func:`pacru.new_game`).
        """
        name = game.lower() if isinstance(game, str) else game
        count = integer(players)
        players = players if count is None else count  # new_game names a bad count
        factory = _FACTORIES.get(name) if isinstance(name, str) else None
        if factory is None:
            from pacru.games import GAMES

            raise ValueError(f"unknown game {game!r}; valid games: {', '.join(GAMES)}")
        return factory(players, **options)

    @staticmethod
    def of(state: GameState[Any]) -> Encoding:
        """The encoding of the game ``state`` belongs to (its game, players and options)."""
        return Encoding.for_game(state.game, len(state.players), **state.options())

    @abc.abstractmethod
    def start(self, state: GameState[Any]) -> Decision:
        """The first decision of the player to move in ``state``.

        Raises:
            GameOverError: the game is over.
            InvalidPositionError: a diagram loaded with ``adjudicate=False``
                that play cannot reach and the encoding cannot take: the player
                to move has no legal move (``Status.NO_LEGAL_MOVE``: play would
                have skipped or eliminated the player, or ended the game, so
                there is no decision to take), or LSD tiles lie too far apart
                for the window (``Status.DISCONNECTED_TILES``).
            ValueError: ``state`` belongs to another game or player count.
        """

    @abc.abstractmethod
    def _choose(self, decision: Decision, action: int) -> Decision:
        """The next decision after a legal ``action`` (checked by the caller)."""

    def _checked_action(self, decision: Decision, action: object) -> int:
        """The ``int`` value of ``action`` where ``decision.choose`` takes it, else its error.

        The one check of :meth:`Decision.choose` for every call its fast path
        (a legal ``int`` before the move is complete) does not take. The native
        engine's decisions make the same check in the extension, with the same
        errors and messages (``tests/encoding/test_api.py`` holds both to them).

        Raises:
            IllegalMoveError: as :meth:`Decision.choose` documents.
        """
        move = decision.move
        if move is not None:
            raise IllegalMoveError(
                f"the move {move} is complete; apply it and start the next decision",
                rule="encoding",
                reason="move-complete",
            )
        number = action if type(action) is int else integer(action)
        if number is None:
            raise IllegalMoveError(
                f"an action is an integer, not {action!r}; legal: {list(decision.legal_actions)}",
                rule="encoding",
                reason="illegal-action",
            )
        if number not in decision.legal_actions:
            raise IllegalMoveError(
                f"action {number!r} ({self.action_name(number)}) is not legal in this "
                f"{decision.kind} decision; legal: {list(decision.legal_actions)}",
                rule="encoding",
                reason="illegal-action",
            )
        return number

    def _action_mask(self, legal_actions: Sequence[int]) -> npt.NDArray[np.bool_]:
        """:meth:`Decision.legal_action_mask` of a decision with these ``legal_actions``."""
        import numpy as np

        mask = np.zeros(self.num_actions, dtype=np.bool_)
        for action in legal_actions:  # faster than fancy indexing for a few actions
            mask[action] = True
        return mask

    @abc.abstractmethod
    def action_to_choice(self, decision: Decision, move: Any) -> int:
        """The action of ``decision`` that leads towards ``move``, or -1 if none does."""

    @abc.abstractmethod
    def observation(self, decision: Decision, player: int) -> npt.NDArray[np.float32]:
        """The observation tensor of ``decision`` from seat ``player``'s point of view.

        A float32 array of :attr:`observation_shape`; seats are rotated so that
        ``player`` comes first. See the layout docs for the planes.

        Raises:
            ValueError: ``player`` is not a seat index.
        """

    @abc.abstractmethod
    def action_name(self, action: int) -> str:
        """A short text for ``action``, such as ``"origin e5"``; ``"?"`` outside the range."""

    @abc.abstractmethod
    def plane_names(self) -> tuple[str, ...]:
        """The name of each plane of :meth:`observation`, in order (``observation_shape[0]``)."""

    def action_table(self) -> tuple[str, ...]:
        """:meth:`action_name` of every action, in order (the table the golden test freezes)."""
        return tuple(self.action_name(a) for a in range(self.num_actions))

    def actions(self, state: GameState[Any], move: Any) -> tuple[int, ...]:
        """The actions that choose ``move`` (a move object or its text) in ``state``.

        ``move(state, actions(state, m)) == m`` for every legal move ``m``.

        Raises:
            NotationError: unparseable move text.
            IllegalMoveError: ``move`` is not legal in ``state`` (names the rule).
            GameOverError: the game is over.
        """
        if isinstance(move, str):
            move = state.parse_move(move)
        elif move not in state.legal_moves():
            state.parse_move(str(move))  # raises the error naming the rule
            raise IllegalMoveError(
                f"{move} is not a legal move here", rule="encoding", reason="illegal-move"
            )
        decision = self.start(state)
        while decision.move is None:
            action = self.action_to_choice(decision, move)
            decision = decision.choose(action)
        return decision.prefix

    def move(self, state: GameState[Any], actions: Sequence[int]) -> Any:
        """The complete move that ``actions`` choose in ``state``.

        Raises:
            IllegalMoveError: an action is not legal at its decision
                (reason ``"illegal-action"``), an action follows a complete move
                (``"move-complete"``), or the actions end before the move is
                complete (``"incomplete"``).
            GameOverError: the game is over.
        """
        decision = self.start(state)
        for action in actions:
            decision = decision.choose(action)
        if decision.move is None:
            raise IllegalMoveError(
                f"the actions {list(actions)} leave the move incomplete at a {decision.kind} "
                "decision",
                rule="encoding",
                reason="incomplete",
            )
        return decision.move

    def _refuse_no_legal_move(self, state: GameState[Any]) -> NoReturn:
        """No decision without a legal action is built: refuse the diagram that would need one."""
        raise InvalidPositionError(
            f"{state.current_player} has no legal move in this diagram ({state.status()}): play "
            "would have skipped the player or ended the game, so there is no decision to take"
        )

    def _check_state(self, state: GameState[Any]) -> None:
        if state.game != self.game or len(state.players) != self.players:
            raise ValueError(
                f"this encoding is for {self.game} with {self.players} players, "
                f"not {state.game} with {len(state.players)}"
            )
        if not self._same_rules(state):
            raise ValueError(
                f"this encoding is for {self.game} with options {self.options}, "
                f"not {state.options()}; use Encoding.of(state)"
            )
        if state.outcome is not None:
            raise GameOverError(f"the game is over ({state.outcome.result()})")

    def _same_rules(self, state: GameState[Any]) -> bool:
        """Whether ``state`` has the options this encoding was made for."""
        return bool(getattr(state, "rules", None) == getattr(self, "rules", None))

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"Encoding.for_game({self.game!r}, {self.players}{opts})"


#: Game name -> the factory of its encoding (``factory(players, **options)``).
#: The layout modules fill it when they are imported, and ``pacru.encoding``
#: imports them all: this module never imports a layout.
_FACTORIES: dict[str, Callable[..., Encoding]] = {}


def register(game: str, factory: Callable[..., Encoding]) -> None:
    """Make :meth:`Encoding.for_game` build ``game``'s encoding as ``factory(players, **options)``.

    Called by the layout modules when they are imported.
    """
    _FACTORIES[game] = factory


def _encoding_for(game: str, players: int, options: dict[str, Any]) -> Encoding:
    """The encoding of a pickled :class:`Encoding` (its game, players and options)."""
    return Encoding.for_game(game, players, **options)
