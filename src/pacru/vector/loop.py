"""The inner loop of :mod:`pacru.vector`: the one interface that steps the games of a batch.

:class:`Loop` is the seam an engine replaces: a loop holds the games of a batch
as one value (:data:`Games`: a tuple of :class:`pacru._cursor.Cursor` for the
Python loop, a batch held in the extension for a native one), fills the arrays
of a :class:`Frame` for the rows it steps, and writes the observation of every
game when asked (a state's observation is made only when it is read).
Everything else of the batched API (checking actions, auto-reset bookkeeping,
``max_steps`` truncation, read-only arrays, the state value) lives in
:mod:`pacru.vector.env` and does not depend on how the games are stored: the
Python loop (``pacru.vector.python``) and the native ones
(``pacru.vector.native``) change no caller and no test.

Actions reach :meth:`Loop.step` and :meth:`Loop.advance` already checked against
the shape and range (and the mask, unless the loop :attr:`Loop.checks_actions`).
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

import attrs
import numpy as np
import numpy.typing as npt

from pacru.base import GameState
from pacru.encoding import Encoding

if TYPE_CHECKING:
    from pacru import _native
    from pacru._cursor import Cursor
    from pacru.vector.play import Turn

__all__ = [
    "Advance",
    "Advanced",
    "BotLoop",
    "Budgets",
    "Counts",
    "Frame",
    "Games",
    "Loop",
    "Played",
    "Rows",
    "Seats",
    "as_dtype",
    "opening_rng",
]

#: Row indices, or one action per row (intp).
Rows: TypeAlias = npt.NDArray[np.intp]
#: One flag per row.
Flags: TypeAlias = npt.NDArray[np.bool_]
#: Decisions taken in each game's episode (int32, as ``VectorState.step_count``).
Steps: TypeAlias = npt.NDArray[np.int32]
#: Each game's episode (int64, as ``VectorState.episode``).
Episodes: TypeAlias = npt.NDArray[np.int64]
#: Each game's seat (int32, as ``VectorState.current_player``).
Seats: TypeAlias = npt.NDArray[np.int32]
#: Decisions per game (uint32): the most a call may take, or those it took.
Budgets: TypeAlias = npt.NDArray[np.uint32]
#: Each game's decisions and episode.
Counts: TypeAlias = tuple[Steps, Episodes]
#: A game's position and the actions chosen in its move under way (how a state pickles).
Played: TypeAlias = tuple[GameState[Any], tuple[int, ...]]
#: The games of a batch as a loop holds them: one cursor per game (the Python loop), or
#: one batch held in the extension (``Batch`` for the chevron games, ``LsdBatch`` for LSD).
Games: TypeAlias = "tuple[Cursor, ...] | _native.Batch | _native.LsdBatch"


@attrs.frozen(eq=False)
class Frame:
    """The arrays of the rows just stepped (row ``j`` is game ``rows[j]``).

    Shapes for ``k`` rows: ``legal_action_mask`` bool ``(k, num_actions)``,
    ``current_player`` int32 ``(k,)``, ``rewards`` float32 ``(k, players)``,
    ``terminated`` and ``truncated`` bool ``(k,)``. A row whose game has ended
    has an all-True mask, player -1 and the game's returns. The observation is
    not here: :meth:`Loop.observe` makes it when it is read. Nor is the
    mask (None) where a loop left it out: :meth:`Loop.legal_action_mask` makes it
    from the games when it is read.
    """

    legal_action_mask: npt.NDArray[np.bool_] | None
    current_player: npt.NDArray[np.int32]
    rewards: npt.NDArray[np.float32]
    terminated: Flags
    truncated: Flags


@attrs.frozen(eq=False)
class Advance:
    """A step of every game of a batch (:meth:`Loop.advance`): the checked ``actions``,
    ``restart`` the games that restart instead (next-step mode; None: none), whether the
    loop may ``renew`` a game that ends (restart it in the same call), the batch's
    ``seed``, each game's decisions (``steps``) and ``episodes`` before the step, and
    whether the loop may step the games ``in_place`` (their state was handed over and
    nothing else holds them: the native chevron loop does)."""

    actions: Rows
    restart: Flags | None
    renew: bool
    seed: int
    steps: Steps
    episodes: Episodes
    in_place: bool = False


@attrs.frozen(eq=False)
class Advanced:
    """What :meth:`Loop.advance` gives: the new ``games``, the ``frame`` of every row, each
    game's decisions (``steps``) and ``episodes`` after the step, whether the loop
    ``renewed`` the games that ended (restarted them in the same call), and then
    ``ended``: those games as they ended, a :data:`Games` of their own whose game ``j``
    is that of the ``j``-th row (ascending) whose frame shows an end (None: none renewed)."""

    games: Games
    frame: Frame
    steps: Steps
    episodes: Episodes
    renewed: bool
    ended: Games | None = None


def opening_rng(seed: int, env: int, episode: int) -> random.Random:
    """The random stream of game ``episode`` (0 for the first) of env ``env`` under ``seed``.

    A string seed, hashed by :class:`random.Random` (SHA-512), so each game's
    stream depends on these three numbers only, not on the order games restart in.
    """
    return random.Random(f"pacru.vector/{seed}/{env}/{episode}")


class Loop(abc.ABC):
    """The games of a batch and how they step (see the module docstring).

    Args:
        encoding: the game's encoding.
        start: the starting position of every game.
        opening_plies: random moves played from ``start`` at every (re)start.
    """

    #: Threads stepping the batch (set by :class:`pacru.vector.VectorEnv`).
    threads = 1
    #: Whether :meth:`advance` refuses an illegal action itself (``ValueError``, nothing
    #: changed), so that the caller need not look the actions up in the mask first.
    checks_actions = False
    #: The steps :meth:`advance` (and ``BotLoop.learner_step``) took in place
    #: (``Advance.in_place``): a private count that shows the tests which path a step took.
    in_place_steps = 0
    #: The same for ``BotLoop.play_bots``.
    in_place_bots = 0

    def __init__(self, encoding: Encoding, start: GameState[Any], opening_plies: int) -> None:
        self.encoding = encoding
        self._start = start
        self.opening_plies = opening_plies

    @abc.abstractmethod
    def start(self, seed: int, episodes: Episodes) -> tuple[Games, Frame]:
        """A new game in every env (env ``i`` starts its game ``episodes[i]``), and their frame."""

    @abc.abstractmethod
    def step(
        self, games: Games, rows: Rows, actions: Rows, restart: Flags, seed: int, episodes: Episodes
    ) -> tuple[Games, Frame]:
        """Step the games of ``rows``: a restart where ``restart`` is set, else ``actions``.

        ``actions``, ``restart`` and ``episodes`` are aligned with ``rows``;
        the games of other rows are unchanged. Returns the new games and the
        frame of ``rows``.
        """

    @abc.abstractmethod
    def legal_action_mask(self, games: Games, shown: Flags) -> npt.NDArray[np.bool_]:
        """The mask of every game's decision, bool ``(len(games), num_actions)``: True at
        its legal actions, or at every action for a game that is over or where ``shown``
        is True (its row shows an end or a cut), a new array."""

    @abc.abstractmethod
    def random_actions(
        self, games: Games, mask: Callable[[], Flags], player: npt.NDArray[np.int32], seed: int
    ) -> npt.NDArray[np.int64]:
        """Row ``i``'s ``floor(u[i] * count)``-th action of its mask (``mask()`` makes the
        mask, where the loop needs it), ``u`` the :func:`pacru.vector.draws.uniforms` of
        ``seed`` (see :meth:`pacru.vector.VectorEnv.random_actions`): int64 ``(n,)``."""

    @abc.abstractmethod
    def observe(self, games: Games, dtype: np.dtype[Any]) -> npt.NDArray[Any]:
        """The observation of every game, shape ``(len(games), *observation_shape)``.

        Each row is :meth:`pacru.encoding.Encoding.observation` of the game's
        decision, seen by the player deciding; zeros for a game that is over.
        A new array of ``dtype`` (:func:`as_dtype` of the values).
        """

    @abc.abstractmethod
    def position(self, games: Games, row: int) -> GameState[Any]:
        """The position of game ``row`` (the final one once it has ended)."""

    @abc.abstractmethod
    def prefix(self, games: Games, row: int) -> tuple[int, ...]:
        """The actions already chosen in the move under way in game ``row``."""

    @abc.abstractmethod
    def restore(self, games: Sequence[Played]) -> Games:
        """The games of a pickled state: each position, then its move's chosen actions."""

    def advance(self, games: Games, order: Advance) -> Advanced:
        """:meth:`step` on every row (``order.restart`` None: none restarts), with each
        game's decisions and episode after it: 0 and the next episode for a game
        restarted, else one more decision.

        With ``order.renew`` a loop may restart a game that ends in the same call (its row
        showing the new game's decision with the old game's end, its decisions 0 and its
        episode the next). This general path does not.
        """
        n = len(order.actions)
        restart = order.restart
        if restart is None:
            flags = np.zeros(n, dtype=np.bool_)
            after = order.steps + 1
            episode = order.episodes.copy()
        else:
            flags = restart
            after = np.where(restart, 0, order.steps + 1).astype(np.int32)
            episode = order.episodes + restart
        new, frame = self.step(games, np.arange(n), order.actions, flags, order.seed, episode)
        return Advanced(new, frame, after, episode, False)


class BotLoop(Loop):
    """A loop that plays the built-in bots natively, batched: the native chevron loop."""

    @abc.abstractmethod
    def play_bots(
        self,
        games: Games,
        seats: Seats,
        bot: str,
        seed: int,
        episodes: Episodes,
        budgets: Budgets,
        in_place: bool = False,
    ) -> tuple[Games, Frame, Budgets]:
        """The built-in ``bot`` (``"random"``, ``"greedy"``) plays every game's moves until
        seat ``seats[i]`` decides, at most ``budgets[i]`` decisions; game ``i``'s moves draw
        from :func:`pacru.vector.draws.game_seeds` of ``seed`` and ``episodes``. The new
        games, the frame of every row and the decisions taken in each game. With
        ``in_place`` (``games`` handed over, held by nothing else) the games play where
        they are and the new games are ``games`` itself."""

    @abc.abstractmethod
    def learner_step(
        self,
        games: Games,
        actions: Rows,
        restart: Flags | None,
        counts: Counts,
        turn: Turn,
        in_place: bool = False,
    ) -> tuple[Games, Frame, tuple[npt.NDArray[Any], ...], Games]:
        """One learner step of every game against a built-in bot: the learner's
        ``actions`` (or a next-step ``restart``) with ``counts`` the decisions and
        episodes before it, the bots' moves until the learner decides again, the
        restarts, the frame and the observation. Returns the new games, the frame,
        the step counts (int32), episodes (int64), the learner's rewards (float32), its
        seats (int64) and the observation (``turn.dtype``), one row a game, and the games
        restarted (same-step) as they ended, as :attr:`Advanced.ended` (none in
        next-step mode). With ``in_place`` the games step where they are, as in
        :meth:`play_bots`."""


def as_dtype(observation: npt.NDArray[np.float32], dtype: np.dtype[Any]) -> npt.NDArray[Any]:
    """``observation`` as ``dtype``: uint8 each value times 255, rounded; bool value != 0."""
    out: npt.NDArray[Any] = observation
    if dtype == np.uint8:
        out = np.rint(observation * 255.0).astype(np.uint8)
    elif dtype == np.bool_:
        out = observation != 0
    return out
