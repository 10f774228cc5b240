"""Many uniform random games from one position: :func:`random_rollouts`.

The inner loop (one game) is the small private function ``_playout``. An
engine that plays batches itself (the native one: the engine object
:data:`pacru.chevron.engine.OPS` answers
:meth:`~pacru.chevron.engine.Engine.random_rollouts`) plays a chevron game's
whole batch inside the engine instead (``pacru._native.random_rollouts``,
without the GIL), with its own generator (SplitMix64): each engine gives the
same games for the same seed, but the two engines' games differ.
"""

from __future__ import annotations

import operator
import random
from typing import TYPE_CHECKING, Any, SupportsIndex

from pacru._integers import MAX_COUNT, bounded
from pacru._parallel import check_memory, thread_count
from pacru.base import GameState
from pacru.bots.base import Uniform, sample_move
from pacru.chevron.engine import OPS, Engine
from pacru.chevron.rules import COUNTER_MAX
from pacru.chevron.state import ChevronState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["random_rollouts"]

#: Native seeds are taken modulo 2**64.
_SEED_MASK = (1 << 64) - 1


def random_rollouts(
    state: GameState[Any],
    n: SupportsIndex,
    *,
    seed: SupportsIndex = 0,
    max_plies: SupportsIndex | None = None,
    uniform: Uniform = "families",
    num_threads: SupportsIndex | None = None,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int32]]:
    """Play ``n`` uniform random games from ``state``: their returns and lengths.

    Each move is drawn as :class:`pacru.bots.RandomBot` draws it
    (:func:`pacru.bots.sample_move`: a move family first in the chevron
    games, because Pacru's reorientations {R14} would otherwise crowd out the
    steps); ``uniform="moves"`` draws uniformly over every complete move.
    The same ``state``, ``n``, ``seed``, ``max_plies`` and ``uniform`` give
    the same pair on one engine. The pure-Python engine plays the games one
    after the other with one :class:`random.Random` seeded with ``seed``; the
    native engine plays a chevron game's batch in Rust, game ``i`` with its
    own SplitMix64 stream derived from ``seed`` modulo 2**64 and ``i``, so
    the two engines draw different (equally distributed) games. Needs numpy
    (the ``ai`` extra).

    Args:
        state: the starting position (a finished one gives its returns and
            0 plies ``n`` times).
        n: the number of games, at least 0 (any integer ``operator.index``
            takes, as are ``seed`` and ``max_plies``).
        seed: the seed of the games' random generator.
        max_plies: stop a game after this many plies from ``state``; a game
            stopped there has returns 0 for every player (no winner yet, as
            :meth:`pacru.GameState.returns` says of a game going on).
            ``None`` plays every game to its end.
        uniform: ``"families"`` or ``"moves"``, as :func:`pacru.bots.sample_move`.
        num_threads: threads playing the native engine's games, without the GIL
            (``None``: one per core); each game draws from its own stream, so the
            games are the same for every count. The Python engine uses one.

    Returns:
        ``(returns, plies)``: ``returns`` float32 of shape ``(n, players)``,
        each row :meth:`pacru.GameState.returns` of a game's last position
        (+1 a winner, -1 a loser, 0 without a winner), columns in turn order
        (``state.players``); ``plies`` int32 of shape ``(n,)``, the moves each
        game played from ``state``. Both arrays are read-only.

    Raises:
        ValueError: ``n`` negative, ``max_plies`` outside ``0 .. 2**31 - 1`` (the
            plies are int32), ``num_threads`` outside ``1 .. 1024``
            (``pacru._parallel.MAX_THREADS``), or ``uniform`` neither
            ``"families"`` nor ``"moves"``.
        TypeError: ``n``, ``seed``, ``max_plies`` or ``num_threads`` not an integer.
        InvalidPositionError: a game would count its plies (or idle plies) past
            :data:`pacru.chevron.rules.COUNTER_MAX` (2**64 - 1), as
            :meth:`pacru.GameState.apply_move` refuses to; a chevron game that could
            reach that end within ``max_plies`` is played by the Python engine's loop
            on both engines, so that it raises there too.
        MemoryError: the native engine cannot hold the arrays of ``n`` games (it
            checks before playing any).
    """
    import numpy as np

    games = operator.index(n)
    if games < 0:
        raise ValueError(f"n must not be negative, not {games}")
    cap = None if max_plies is None else bounded(max_plies, "max_plies", 0, MAX_COUNT)
    if uniform not in ("families", "moves"):
        raise ValueError(f"uniform must be 'families' or 'moves', not {uniform!r}")
    threads = thread_count(num_threads)
    seed = operator.index(seed)
    check_memory(games * (4 * len(state.players) + 4), f"the returns and plies of {games} games")
    if isinstance(state, ChevronState) and not _near_end(state, cap):
        played = _engine_rollouts(OPS, state, games, seed, cap, uniform, threads=threads)
        if played is not None:  # None: the engine (the Python one) plays no batch itself
            return played[0], played[1]
    rng = random.Random(seed)
    returns = np.zeros((games, len(state.players)), dtype=np.float32)
    plies = np.zeros(games, dtype=np.int32)
    for i in range(games):
        row, length = _playout(state, rng, cap, uniform)
        returns[i] = row
        plies[i] = length
    returns.flags.writeable = False
    plies.flags.writeable = False
    return returns, plies


def _near_end(state: ChevronState, cap: int | None) -> bool:
    """Whether a game from ``state`` could count its plies (or idle plies) past
    ``COUNTER_MAX`` within ``cap`` plies (:data:`MAX_COUNT` without one): the native
    engine stops such a game silently, so the Python engine plays it and raises."""
    room = COUNTER_MAX - max(state.ply, state.idle)
    return room < (MAX_COUNT if cap is None else cap)


def _playout(
    state: GameState[Any], rng: random.Random, cap: int | None, uniform: Uniform
) -> tuple[tuple[float, ...], int]:
    """One uniform random game from ``state``: its returns and its plies (at most ``cap``)."""
    plies = 0
    while state.outcome is None and (cap is None or plies < cap):
        state = state.apply_move(sample_move(state, rng, uniform))
        plies += 1
    return state.returns(), plies


def _engine_rollouts(
    engine: Engine,
    state: ChevronState,
    n: int,
    seed: int,
    cap: int | None,
    uniform: Uniform,
    *,
    record: bool = False,
    threads: int = 1,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int32], npt.NDArray[np.uint64] | None] | None:
    """The games of :func:`random_rollouts` played inside ``engine``, or None when it plays
    no batch itself (:meth:`pacru.chevron.engine.Engine.random_rollouts`).

    With ``record``, also the index in its ``legal_moves()`` of every move
    played, game after game (``plies.sum()`` of them), to replay the games.
    """
    import numpy as np

    raw = engine.random_rollouts(
        state, n, operator.index(seed) & _SEED_MASK, cap, uniform == "families", record, threads
    )
    if raw is None:
        return None
    raw_returns, raw_plies, raw_moves = raw
    returns = np.frombuffer(raw_returns, dtype=np.float32).reshape(n, len(state.players))
    plies = np.frombuffer(raw_plies, dtype=np.int32)
    moves = None if raw_moves is None else np.frombuffer(raw_moves, dtype=np.uint64)
    return returns, plies, moves
