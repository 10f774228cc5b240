"""The line of play: a starting state and the moves played from it.

A game state (:class:`pacru.GameState`) is a value: it holds no earlier
state, so copying, hashing and pickling it cost the same at ply 10 as at ply
100,000. Where the moves themselves are wanted (a REPL, a record, the command
line, undo), a :class:`Game` keeps them beside the starting state, as
python-chess keeps its ``move_stack`` beside the position:

>>> import pacru
>>> game = pacru.Game.new("shacru")
>>> game.push("a3-b4>").chevron_at("b4")
Chevron(owner='green', facing=Direction.E)
>>> game.push("e9-e8").current_player
'green'
>>> [str(m) for m in game.moves], game.ply, game.state.current_player
(['a3-b4>', 'e9-e8'], 2, 'green')
>>> str(game.pop()), len(game), game.state == game.root.apply_move("a3-b4>")
('e9-e8', 1, True)

=================  =========================================================
mutable            yes: :meth:`Game.push` and :meth:`Game.pop` change it;
                   not hashable; its states are immutable values
holds              the root state, the moves, the current state and a state
                   every :data:`CHECKPOINT` plies (not one state per ply)
costs              ``push``: one ``apply_move``; ``pop`` and
                   :meth:`Game.state_at`: at most :data:`CHECKPOINT` replayed
                   moves (amortised O(1) for consecutive pops)
=================  =========================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final, Generic, Literal, Unpack, cast, overload

from pacru.base import GameState, MoveT

if TYPE_CHECKING:
    from pacru.chevron.move import Move
    from pacru.chevron.rules import ChevronOptions
    from pacru.chevron.state import ChevronState
    from pacru.games import AnyState, ChevronGame, GameOptions
    from pacru.lsd.moves import LsdMove
    from pacru.lsd.rules import LsdOptions
    from pacru.lsd.state import LsdState

__all__ = ["CHECKPOINT", "Game"]

#: A :class:`Game` keeps the state after every ``CHECKPOINT``-th move, so going
#: back replays fewer moves than this; memory is one state per ``CHECKPOINT`` plies.
CHECKPOINT: Final = 32


# A property whose type follows the game's move type: ChevronState in a Game[Move], LsdState
# in a Game[LsdMove] (a GameState[MoveT] says less). Type checkers read the overloads of
# __get__; at run time they are property's own.
class _StateProperty(property):
    @overload
    def __get__(self, game: None, owner: type[Any] | None = None) -> _StateProperty: ...
    @overload
    def __get__(self, game: Game[Move], owner: type[Any] | None = None) -> ChevronState: ...
    @overload
    def __get__(self, game: Game[LsdMove], owner: type[Any] | None = None) -> LsdState: ...
    @overload
    def __get__(self, game: Game[MoveT], owner: type[Any] | None = None) -> GameState[MoveT]: ...
    def __get__(self, game: object, owner: type[Any] | None = None) -> object:
        return super().__get__(game, owner)


class _OptionalStateProperty(property):
    """As :class:`_StateProperty`, for a state that may be None."""

    @overload
    def __get__(self, game: None, owner: type[Any] | None = None) -> _OptionalStateProperty: ...
    @overload
    def __get__(
        self, game: Game[Move], owner: type[Any] | None = None
    ) -> ChevronState | None: ...
    @overload
    def __get__(self, game: Game[LsdMove], owner: type[Any] | None = None) -> LsdState | None: ...
    @overload
    def __get__(
        self, game: Game[MoveT], owner: type[Any] | None = None
    ) -> GameState[MoveT] | None: ...
    def __get__(self, game: object, owner: type[Any] | None = None) -> object:
        return super().__get__(game, owner)


class Game(Generic[MoveT]):
    """A starting state and the moves played from it: the mutable line of play.

    States stay immutable values: :meth:`push` asks the current state to
    apply the move (which checks it) and keeps the new state; :meth:`pop`
    takes the last move back. Two games are equal when their roots are equal
    and they hold the same moves. A game is not hashable (it changes);
    ``copy.copy`` gives an independent game sharing the (immutable) states.

    Args:
        root: the state play starts from (a new game or a loaded position).
        moves: moves (objects or text) to push at once.

    Raises:
        NotationError, IllegalMoveError, GameOverError: as :meth:`push`, for
            the first move of ``moves`` that cannot be played; nothing is kept.
        TypeError: ``root`` is not a :class:`pacru.GameState`.
    """

    __slots__ = ("_marks", "_moves", "_tail", "_tail_start")
    __hash__ = None  # type: ignore[assignment]

    # The overloads let a root of either game (pacru.AnyState, as from_position gives) make
    # a Game[Move] | Game[LsdMove], where one signature could not infer MoveT from the union.
    @overload
    def __init__(
        self: Game[Move], root: ChevronState, moves: Iterable[Move | str] = ()
    ) -> None: ...
    @overload
    def __init__(
        self: Game[LsdMove], root: LsdState, moves: Iterable[LsdMove | str] = ()
    ) -> None: ...
    @overload
    def __init__(self, root: GameState[MoveT], moves: Iterable[MoveT | str] = ()) -> None: ...
    def __init__(
        self,
        root: AnyState | GameState[MoveT],
        moves: Iterable[Move | LsdMove | MoveT | str] = (),
    ) -> None:
        if not isinstance(root, GameState):
            raise TypeError(f"a Game starts from a GameState, not {type(root).__name__}")
        # The overloads pair the root's game with the moves' (a ChevronState in a Game[Move]);
        # a move of the other game is refused by push (TypeError).
        start = cast("GameState[MoveT]", root)
        self._moves: list[MoveT] = []
        # _marks[i] is the state after CHECKPOINT * i moves (the root first);
        # _tail[j] the state after _tail_start + j moves, and _tail[-1] the current one.
        self._marks: list[GameState[MoveT]] = [start]
        self._tail: list[GameState[MoveT]] = [start]
        self._tail_start = 0
        for move in cast("Iterable[MoveT | str]", moves):
            self.push(move)

    # -- construction -------------------------------------------------------------------------

    @overload
    @classmethod
    def new(
        cls, game: ChevronGame = "pacru", players: int = 2, **options: Unpack[ChevronOptions]
    ) -> Game[Move]: ...
    @overload
    @classmethod
    def new(
        cls, game: Literal["lsd"], players: int = 2, **options: Unpack[LsdOptions]
    ) -> Game[LsdMove]: ...
    @overload
    @classmethod
    def new(
        cls, game: str, players: int = 2, **options: Unpack[GameOptions]
    ) -> Game[Move] | Game[LsdMove]: ...
    @classmethod
    def new(
        cls, game: str = "pacru", players: int = 2, **options: Unpack[GameOptions]
    ) -> Game[Move] | Game[LsdMove]:
        """A game at the start of ``game`` (the arguments of :func:`pacru.new_game`).

        For type checkers it is a ``Game[Move]`` for a literal chevron game name,
        a ``Game[LsdMove]`` for ``"lsd"``, and either for any other ``str``.

        Raises:
            ValueError: an unknown game, player count or option.
        """
        from pacru.games import new_game

        return Game(new_game(game, players, **options))

    @classmethod
    def from_position(
        cls, text: str, moves: Iterable[Move | LsdMove | str] = (), *, adjudicate: bool = True
    ) -> Game[Move] | Game[LsdMove]:
        """A game from the position string ``text`` (:func:`pacru.from_position`), then ``moves``.

        Args:
            text: the position string; its root state is ``pacru.from_position(text,
                adjudicate)``.
            moves: moves or their texts, played in order from that root.
            adjudicate: ``True`` (the default) decides the position as play would;
                ``False`` loads a rulebook diagram as typed, without deciding its
                end (see :func:`pacru.from_position`). The moves played after it
                are adjudicated as in any game.

        Raises:
            NotationError: not a position string, or a move text that is not a move.
            InvalidPositionError: a well-formed but impossible position.
            IllegalMoveError, GameOverError: a move of ``moves`` cannot be played.
        """
        from pacru.games import from_position

        root = from_position(text, adjudicate)
        game: Game[Any] = Game(root, moves)
        return game

    def copy(self) -> Game[MoveT]:
        """An independent game with the same root and moves (the states are shared)."""
        other: Game[MoveT] = Game.__new__(Game)
        other._moves = self._moves.copy()
        other._marks = self._marks.copy()
        other._tail = self._tail.copy()
        other._tail_start = self._tail_start
        return other

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Game[MoveT]:
        return self.copy()  # states and moves are immutable values

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The root and the moves; the states in between are replayed on loading.
        return (Game, (self.root, tuple(self._moves)))

    # -- the line of play ---------------------------------------------------------------------

    def _root(self) -> GameState[MoveT]:
        """The state play started from (a :class:`~pacru.ChevronState` in a ``Game[Move]``,
        an :class:`~pacru.LsdState` in a ``Game[LsdMove]``)."""
        return self._marks[0]

    root = _StateProperty(_root)

    def _state(self) -> GameState[MoveT]:
        """The current state: after the last move (kept, not replayed); a
        :class:`~pacru.ChevronState` in a ``Game[Move]``, an :class:`~pacru.LsdState` in a
        ``Game[LsdMove]``."""
        return self._tail[-1]

    state = _StateProperty(_state)

    @property
    def moves(self) -> tuple[MoveT, ...]:
        """The moves played from :attr:`root`, oldest first (as python-chess's ``move_stack``)."""
        return tuple(self._moves)

    @property
    def history(self) -> tuple[MoveT, ...]:
        """The same as :attr:`moves`; what ``state.history`` was before states became values."""
        return tuple(self._moves)

    @property
    def last_move(self) -> MoveT | None:
        """The last move of :attr:`moves`, or None when no move was played since the root."""
        return self._moves[-1] if self._moves else None

    @property
    def ply(self) -> int:
        """The current state's ply count (:attr:`GameState.ply`), counted from the game's start.

        ``len(game)`` counts the moves held here, from :attr:`root`.
        """
        return self.state.ply

    def _previous(self) -> GameState[MoveT] | None:
        """The state before the last move, or None when no move was played from the root."""
        return self.state_at(len(self._moves) - 1) if self._moves else None

    previous = _OptionalStateProperty(_previous)

    @overload
    def push(self: Game[Move], move: Move | str) -> ChevronState: ...
    @overload
    def push(self: Game[LsdMove], move: LsdMove | str) -> LsdState: ...
    @overload
    def push(self, move: MoveT | str) -> GameState[MoveT]: ...
    def push(self, move: Move | LsdMove | MoveT | str) -> AnyState | GameState[MoveT]:
        """Play ``move`` (an object or its text) and return the new current state.

        Raises:
            NotationError: unparseable move text.
            IllegalMoveError: the move is not legal in the current state (names the rule).
            GameOverError: the game is over.
        """
        state = self._tail[-1]
        # The overloads pair the move with the game (a Move in a Game[Move]); a move of the
        # other game is refused by apply_move (TypeError).
        after = state.apply_move(cast("MoveT | str", move))
        # The new state knows the move it was made by (a text is parsed once, by apply_move).
        played = after.last_move
        assert played is not None  # every apply_move records its move
        self._moves.append(played)
        ply = len(self._moves)
        if ply % CHECKPOINT == 0:
            self._marks.append(after)
        tail = self._tail
        tail.append(after)
        if len(tail) > 2 * CHECKPOINT:
            # Older states are a replay away from a checkpoint; keep memory flat.
            del tail[:CHECKPOINT]
            self._tail_start += CHECKPOINT
        return after

    def pop(self) -> MoveT:
        """Take back the last move and return it; the state before it becomes current.

        Raises:
            IndexError: no move was played from the root.
        """
        if not self._moves:
            raise IndexError("pop from a game without moves")
        ply = len(self._moves)
        move = self._moves.pop()
        if ply % CHECKPOINT == 0:
            self._marks.pop()
        self._tail.pop()
        if not self._tail:
            start = (ply - 1) // CHECKPOINT * CHECKPOINT
            self._tail = self._replay(start, ply - 1)
            self._tail_start = start
        return move

    @overload
    def state_at(self: Game[Move], ply: int) -> ChevronState: ...
    @overload
    def state_at(self: Game[LsdMove], ply: int) -> LsdState: ...
    @overload
    def state_at(self, ply: int) -> GameState[MoveT]: ...
    def state_at(self, ply: int) -> AnyState | GameState[MoveT]:
        """The state after the first ``ply`` moves of :attr:`moves` (0: the root).

        Negative ``ply`` counts from the end, as an index: ``-1`` is the current
        state, ``-2`` the one before.

        Raises:
            IndexError: ``ply`` is outside ``-len(game) - 1 .. len(game)``.
        """
        n = len(self._moves)
        index = ply + n + 1 if ply < 0 else ply
        if not 0 <= index <= n:
            raise IndexError(f"ply {ply} is outside this game of {n} moves")
        if index >= self._tail_start:
            return self._tail[index - self._tail_start]
        start = index // CHECKPOINT * CHECKPOINT
        return self._replay(start, index)[-1]

    def _replay(self, start: int, stop: int) -> list[GameState[MoveT]]:
        """The states after ``start`` .. ``stop`` moves; ``start`` is a checkpoint ply."""
        state = self._marks[start // CHECKPOINT]
        states = [state]
        for move in self._moves[start:stop]:
            state = state.apply_move(move)
            states.append(state)
        return states

    @overload
    def __iter__(self: Game[Move]) -> Iterator[ChevronState]: ...
    @overload
    def __iter__(self: Game[LsdMove]) -> Iterator[LsdState]: ...
    @overload
    def __iter__(self) -> Iterator[GameState[MoveT]]: ...
    def __iter__(self) -> Iterator[AnyState | GameState[MoveT]]:
        """The states from the root to the current one: ``len(game) + 1`` of them."""
        n = len(self._moves)
        for start in range(0, n + 1, CHECKPOINT):
            stop = min(start + CHECKPOINT, n + 1)
            # Tail and checkpoints both start at multiples of CHECKPOINT: no chunk straddles.
            if start >= self._tail_start:
                yield from self._tail[start - self._tail_start : stop - self._tail_start]
            else:
                yield from self._replay(start, stop - 1)

    def __len__(self) -> int:
        """The number of moves played from the root."""
        return len(self._moves)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.root == other.root and self._moves == other._moves

    def __repr__(self) -> str:
        state = self.state
        shown = " ".join(str(m) for m in self._moves[-6:])
        if len(self._moves) > 6:
            shown = "... " + shown
        outcome = state.outcome
        status = outcome.result() if outcome is not None else f"{state.current_player} to move"
        count = f"{len(self._moves)} move{'s' if len(self._moves) != 1 else ''}"
        return f"<pacru.Game {state.game}: {count}{': ' + shown if shown else ''}; {status}>"
