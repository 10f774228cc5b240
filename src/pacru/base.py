"""The protocol every game state in pacru follows, whatever the game.

:class:`GameState` is the abstract base of :class:`pacru.ChevronState` (Lilacru,
Shacru, Azacru, Pacru) and :class:`pacru.lsd.LsdState` (LSD). Bots, the match
runner, records and the command line use only what is declared here, so they
work on every game. Its shape follows OpenSpiel's ``State`` and python-chess's
``Board``, made immutable: :meth:`GameState.apply_move` returns a new state.

Players are identified by their colour name (``str``), e.g. ``"green"``, at
most :data:`MAX_COLOUR_NAME` (32) characters, so that every position string
pacru writes reads back; ``players`` lists them in turn order, starting with
the player who moved first (``first_player`` rotates the list in every game).

Every state of every game answers the same questions in the same way:

==========================  ====================================================
``legal_moves()``           a read-only sequence; ``m in moves`` takes a move or
                            its text; ``moves.from_field(f)`` the moves of one
                            chevron (chevron games) or onto one cell (LSD)
``is_legal(m)``             a move or its text; never raises
``parse_move(text)``        the canonical move text; ``san(m)`` /
                            ``parse_san(text)`` the shortest unambiguous text
``to_move``                 the index in ``players`` of the player to move
``current_player``          that colour, or ``None`` once the game is over
``supply``                  colour -> pieces left to place, ``None`` where the
                            game has no supply (Lilacru, Shacru, Azacru, D38)
``status()``                the named problems of a position (:class:`Status`)
``repr(state)``             ``pacru.from_position('...')``, which evaluates
                            after ``import pacru``
==========================  ====================================================
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Generic, NoReturn, Self, TypeVar

import attrs

from pacru._status import Status
from pacru.errors import PacruError
from pacru.explanation import Explanation

__all__ = [
    "MAX_COLOUR_NAME",
    "GameState",
    "MoveT",
    "Outcome",
    "Termination",
    "player_count_error",
]

#: The longest colour name, in characters, every game takes (``new_game`` and
#: the position strings refuse a longer one).
MAX_COLOUR_NAME: Final = 32


def player_count_error(game: str, players: object, rule: str = "") -> ValueError:
    """The error of ``new_game``'s ``players`` outside 2..4 in ``game`` (the ``rule``
    that says so, if given); for colour names given as ``players`` the message says
    where they go, a newcomer's likely mistake."""
    cited = f" ({rule})" if rule else ""
    message = f"{game} is played by 2, 3 or 4 players{cited}, not {players!r}"
    if isinstance(players, Sequence) and not isinstance(players, str):
        message += "; players is their number: name them with colours=[...]"
    return ValueError(message)

MoveT = TypeVar("MoveT")


class Termination(enum.Enum):
    """Why a game ended."""

    #: Nobody can move {S-R6a, L7}.
    NO_MOVES = "no-moves"
    #: No player with chevrons can ever acquire another field {S-R6b, L7, ruling D33}.
    NO_ACQUISITION = "no-acquisition"
    #: Non-official safety valve: N full rounds without a field acquired (D33).
    IDLE_LIMIT = "idle-limit"
    #: The Azacru end: the triggering player's turn came round again {A-R10, D36}.
    END_TRIGGERED = "end-triggered"
    #: Pacru: last player with chevrons on the board {R16a}.
    LAST_PLAYER = "last-player"
    #: Pacru: the mover placed the last marker of their supply {R16b, D29}.
    SUPPLY_EXHAUSTED = "supply-exhausted"
    #: Non-official engine move cap reached (D32); no winner.
    MOVE_CAP = "move-cap"
    #: LSD: a row of own tiles {LSD 2.4}.
    ROW = "row"
    #: LSD: no player can place a tile; a draw {LSD 2.4}.
    BLOCKED = "blocked"


@attrs.frozen
class Outcome:
    """How a finished game ended.

    Attributes:
        termination: the rule that ended it.
        winners: the winning colours; more than one is a shared win (D35),
            none is a draw without winner (LSD blocked, D32 move cap).
    """

    termination: Termination
    winners: tuple[str, ...]

    def result(self) -> str:
        """A short text such as ``"green wins"``, ``"green, red share the win"``, ``"draw"``."""
        if not self.winners:
            return "draw"
        if len(self.winners) == 1:
            return f"{self.winners[0]} wins"
        return f"{', '.join(self.winners)} share the win"

    def describe(self) -> str:
        """The result and why the game ended, with the rule, in one line of words.

        For example ``"green wins (R16a: the last player with chevrons on the
        board)"`` or ``"draw (D32: the move cap was reached; no winner)"``.
        Never raises.
        """
        rule, why = _TERMINATION_TEXT[self.termination]
        return f"{self.result()} ({rule}: {why})"


#: The rule that ends a game by each termination, and the reason in words.
_TERMINATION_TEXT: Final = {
    Termination.NO_MOVES: ("S-R6a, L7", "no player can move"),
    Termination.NO_ACQUISITION: (
        "S-R6b, L7, D33",
        "no player who can move can ever acquire another field",
    ),
    Termination.IDLE_LIMIT: ("D33", "no field was acquired for the idle limit's full rounds"),
    Termination.END_TRIGGERED: (
        "A-R10, D36",
        "the player who passed first and triggered the end was to move again",
    ),
    Termination.LAST_PLAYER: ("R16a", "the last player with chevrons on the board"),
    Termination.SUPPLY_EXHAUSTED: ("R16b, D29", "the last marker of a supply was placed"),
    Termination.MOVE_CAP: ("D32", "the move cap was reached; no winner"),
    Termination.ROW: ("LSD 2.4", "a row of the mover's own tiles"),
    Termination.BLOCKED: ("LSD 2.4", "no player can place a tile"),
}


#: The message for ``state.history`` and ``state.previous``, which other game libraries
#: have: a state holds no earlier state, :class:`pacru.Game` keeps the line of play.
_REMOVED: Final = (
    "a state holds no earlier state, so it has no {name}; use {use} "
    "(pacru.Game holds the starting state and the moves) or state.ply for the ply count"
)
_REPLACEMENTS: Final = {"history": "pacru.Game(...).moves", "previous": "pacru.Game(...).previous"}


def _removed(name: str) -> Any:
    """A read-only attribute ``name`` that raises the AttributeError naming its replacement
    (``hasattr`` is then False; ``GameState.__dir__`` leaves it out)."""

    def read(self: object) -> NoReturn:
        message = _REMOVED.format(name=name, use=_REPLACEMENTS[name])
        raise AttributeError(message, name=name, obj=self)

    return property(read)


class GameState(abc.ABC, Generic[MoveT]):
    """An immutable position of one game, with everything needed to continue play.

    Concrete states are frozen, hashable values (attrs classes, or the native
    engine's objects that refuse assignment alike). Equal states
    continue identically. A state holds no earlier state, so ``copy.copy`` and
    ``copy.deepcopy`` return it unchanged and it pickles in a size and time
    independent of the plies played; the line of play (the moves, undo) is a
    :class:`pacru.Game`, as python-chess keeps its ``move_stack`` beside the
    position.
    """

    __slots__ = ()

    #: The players' colour names in turn order, from the player who moved first.
    players: tuple[str, ...]

    # -- values: no copies, no line of play ---------------------------------------------

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self

    if not TYPE_CHECKING:  # for type checkers, states have no such attributes at all
        # Properties, not a __getattr__: a class with __getattr__ makes every attribute
        # read of every state slower (CPython cannot specialise those reads).
        history = _removed("history")
        previous = _removed("previous")

        def __dir__(self) -> list[str]:
            return [name for name in super().__dir__() if name not in _REPLACEMENTS]

    @property
    @abc.abstractmethod
    def to_move(self) -> int:
        """The index in :attr:`players` of the player to move.

        Once the game is over it is the last mover's index in the chevron games
        and the row winner's (else 0) in LSD; :attr:`current_player` is then ``None``.
        """

    @property
    @abc.abstractmethod
    def game(self) -> str:
        """Game name: "lilacru", "shacru", "azacru", "pacru" or "lsd"."""

    @property
    @abc.abstractmethod
    def current_player(self) -> str | None:
        """The colour to move, or ``None`` once the game is over."""

    @abc.abstractmethod
    def legal_moves(self) -> Sequence[MoveT]:
        """Every complete legal move, in a deterministic order (empty when terminal)."""

    def is_legal(self, move: MoveT | str) -> bool:
        """Whether ``move`` (a move object or its canonical text) is legal here.

        Never raises: text outside the grammar, another game's move or a
        finished game give ``False``.
        """
        if isinstance(move, str):
            try:
                self.parse_move(move)
            except PacruError:
                return False
            return True
        try:
            return move in self.legal_moves()
        except TypeError:
            return False

    def explain(self, move_text: str) -> Explanation:
        """Why ``move_text`` is or is not legal here (:func:`pacru.explain`).

        Names the rule and ruling of an illegal move and lists the same piece's
        legal moves, or says what a legal move does. Never raises for bad text;
        a move object is taken as its text. Once the game is over the answer
        is rule ``"end"``; before, the game's own :meth:`_explain` answers.
        """
        text = move_text if isinstance(move_text, str) else str(move_text)
        if self.outcome is not None:
            return Explanation(
                text, False, "end", "game-over", f"the game is over: {self.outcome.result()}"
            )
        return self._explain(text)

    @abc.abstractmethod
    def _explain(self, text: str) -> Explanation:
        """The game's explanation of move ``text`` while the game goes on (never raises)."""

    @abc.abstractmethod
    def san(self, move: MoveT | str) -> str:
        """The shortest text that names ``move`` unambiguously in this state.

        As chess's SAN: choices that only one legal move of the same piece
        and target can make are left out (``g1-i3`` when only ``g1-i3*`` is
        legal). ``parse_san(san(m)) == m`` for every legal move ``m``.

        Raises:
            NotationError: unparseable move text.
            IllegalMoveError: ``move`` is not legal here (names the rule).
        """

    @abc.abstractmethod
    def parse_san(self, text: str) -> MoveT:
        """The legal move that ``text`` names: canonical text or the short form of :meth:`san`.

        Raises:
            NotationError: text outside the grammar, or short text that fits
                more than one legal move (the message lists them).
            IllegalMoveError: no legal move fits (names the rule).
        """

    @property
    @abc.abstractmethod
    def supply(self) -> Mapping[str, int] | None:
        """Colour -> pieces left to place, or ``None`` in a game without a supply.

        Pacru: markers left of 42/28/24 {R1, D29}; LSD: tiles not yet placed
        {LSD 1.5}; Lilacru, Shacru, Azacru: ``None`` (unlimited markers, D38).
        Never raises.
        """

    @abc.abstractmethod
    def status(self) -> Status:
        """The named problems of this position (:class:`pacru.Status`), ``Status.VALID`` if none.

        Positions reached by play are always valid; positions typed in (see
        :func:`pacru.from_position` with ``adjudicate=False``) may not be.
        """

    @abc.abstractmethod
    def apply_move(self, move: MoveT | str) -> GameState[MoveT]:
        """The state after ``move`` (a move object or its text); ``self`` is untouched.

        Raises:
            NotationError: unparseable move text.
            IllegalMoveError: the move is not legal here (names the rule).
            GameOverError: the game is over.
        """

    @abc.abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """The legal move that ``text`` denotes in this state.

        Raises:
            NotationError: ``text`` is not in the move grammar.
            IllegalMoveError: well-formed but not legal here.
        """

    @property
    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @property
    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.outcome is not None

    @property
    def winners(self) -> tuple[str, ...]:
        """The winning colours (empty while the game goes on, or for a draw)."""
        outcome = self.outcome
        return outcome.winners if outcome is not None else ()

    def returns(self) -> tuple[float, ...]:
        """The payoff of each seat (aligned with :attr:`players`), for bots and learning.

        While the game goes on every seat gets ``0.0``. Once it is over, each
        winner gets ``+1.0`` and each other player ``-1.0``: a shared win
        (D35) pays ``+1.0`` to every sharer, eliminated players {R15} lose. A
        game without a winner pays ``0.0`` to everybody: the D32 move cap
        (:attr:`Termination.MOVE_CAP`) and the LSD blocked draw
        (:attr:`Termination.BLOCKED`); so does a win shared by every player,
        which is a draw. Two-player returns therefore always sum to zero.
        """
        n = len(self.players)
        outcome = self.outcome
        if outcome is None or not outcome.winners or len(outcome.winners) == n:
            return (0.0,) * n
        winners = outcome.winners
        return tuple(1.0 if p in winners else -1.0 for p in self.players)

    @property
    @abc.abstractmethod
    def scores(self) -> Mapping[str, int]:
        """Colour -> score (markers or tiles on the board), in turn order."""

    @property
    @abc.abstractmethod
    def ply(self) -> int:
        """Plies (moves, passes included) played since the start of the game.

        A loaded position keeps its count (the position string holds it, or
        it follows from the position). The moves themselves are not kept: a
        state holds no earlier state; :class:`pacru.Game` is the line of play.
        """

    @property
    @abc.abstractmethod
    def last_move(self) -> MoveT | None:
        """The move that produced this state; ``None`` at the start or for a loaded position."""

    @abc.abstractmethod
    def to_position(self) -> str:
        """A one-line position string; the game's ``from_position`` reads it back."""

    @abc.abstractmethod
    def options(self) -> Mapping[str, object]:
        """The rule options this game was created with (keyword arguments of ``new_game``).

        A ``dict``: a :class:`~pacru.chevron.rules.ChevronOptions` or a
        :class:`~pacru.lsd.rules.LsdOptions` (the ``TypedDict`` of the game's options).
        """
