"""Checking the actions given to :mod:`pacru.vector` and assembling its frames.

Private helpers of :class:`pacru.vector.VectorEnv`: actions of any integer type
are checked against the shape and range before any game changes; a frame of
some rows is merged into the whole batch's.
"""

from __future__ import annotations

import operator
import sys
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from pacru._integers import MAX_COUNT, bounded, integer
from pacru._parallel import thread_count
from pacru.base import GameState
from pacru.errors import IllegalMoveError
from pacru.vector.loop import Frame, as_dtype

if TYPE_CHECKING:
    from pacru.encoding import Encoding
    from pacru.vector import VectorEnv, VectorState

__all__ = [
    "as_dtype",
    "check_actions",
    "check_counts",
    "check_legal",
    "check_pickle",
    "check_state",
    "merge",
    "refuse",
]


def refuse(message: str, reason: str) -> IllegalMoveError:
    return IllegalMoveError(message, rule="encoding", reason=reason)


def check_counts(
    num_envs: Any, max_steps: Any, opening_plies: Any, num_threads: Any
) -> tuple[int, int | None, int, int]:
    """The counts of a :class:`pacru.vector.VectorEnv` as plain ints (the threads
    :func:`pacru._parallel.thread_count` gives for ``num_threads``), each in a range
    that both engines hold: ``max_steps`` at most ``2**31 - 1``, as the int32 step counts.

    Raises:
        TypeError: one is not an integer (``max_steps`` and ``num_threads`` may be ``None``).
        ValueError: one is out of its range, naming it.
    """
    envs = bounded(num_envs, "num_envs", 1)
    steps = None if max_steps is None else bounded(max_steps, "max_steps", 1, MAX_COUNT)
    plies = bounded(opening_plies, "opening_plies", 0)
    return envs, steps, plies, thread_count(num_threads)


def check_state(env: VectorEnv, state: Any) -> VectorState:
    """``state`` once it is a state of ``env`` (or of an env made with the same arguments).

    Raises:
        TypeError: ``state`` is not a :class:`pacru.vector.VectorState`.
        ValueError: it belongs to another environment.
    """
    if not isinstance(state, _vector_class("VectorState")):
        raise TypeError(f"state must be a VectorState, not {type(state).__name__}")
    checked: VectorState = cast("VectorState", state)
    if checked._env is not env and checked._env._args != env._args:
        raise ValueError("this state belongs to another VectorEnv")
    return checked


def check_pickle(env: VectorEnv, arrays: Any, seed: Any, games: Any) -> Any:
    """The games of a pickled :class:`pacru.vector.VectorState` of ``env``, replayed,
    once its arrays, seed and games fit ``env`` (a pickle doctored or of another
    version is refused, not restored half-way).

    Raises:
        ValueError: an array of the wrong dtype or shape, a seed that is not an
            integer, an environment that is not a ``VectorEnv``, not one
            ``(position, actions)`` pair per game, a position of
            another game, player count or options, or actions its move cannot take.
    """
    if not isinstance(env, _vector_class("VectorEnv")):
        raise _doctored(f"a VectorEnv expected, not {type(env).__name__}")
    n, enc = env.num_envs, env.encoding
    shapes = ((n, enc.num_actions), (n,), (n, enc.players), (n,), (n,), (n,), (n,))
    dtypes = (np.bool_, np.int32, np.float32, np.bool_, np.bool_, np.int32, np.int64)
    if not isinstance(arrays, tuple) or len(arrays) != len(shapes):
        raise _doctored(f"{len(shapes)} arrays expected")
    for array, shape, dtype in zip(arrays, shapes, dtypes, strict=True):
        if not isinstance(array, np.ndarray) or array.shape != shape or array.dtype != dtype:
            raise _doctored(f"an array of {np.dtype(dtype)} {shape} expected, not {array!r}")
    if integer(seed) is None:
        raise _doctored(f"the seed must be an integer, not {seed!r}")
    if not isinstance(games, list | tuple) or len(games) != n:
        raise _doctored(f"{n} games expected")
    for state, prefix in (_game(env, game) for game in games):
        if state.game != env.game or len(state.players) != env.players:
            raise _doctored(f"a game of {env.game} for {env.players} expected, not {state!r}")
        if dict(state.options()) != dict(enc.options):
            raise _doctored(f"options {dict(enc.options)} expected, not {state.options()}")
        if not all(type(a) is int and 0 <= a < enc.num_actions for a in prefix):
            raise _doctored(f"actions 0..{enc.num_actions - 1} expected, not {prefix!r}")
    try:
        return env._loop.restore(games)
    except (ValueError, TypeError, AssertionError, OverflowError) as error:
        raise _doctored(f"its games cannot be replayed ({error})") from None


def _game(env: VectorEnv, game: Any) -> tuple[GameState[Any], tuple[int, ...]]:
    """A pickled game, ``(position, actions of the move under way)``, once it is one."""
    if not (isinstance(game, tuple) and len(game) == 2):
        raise _doctored(f"a (position, actions) pair expected, not {game!r}")
    state, prefix = game
    if not isinstance(state, GameState) or not isinstance(prefix, tuple):
        raise _doctored(f"a (position, actions) pair expected, not {game!r}")
    return state, prefix


def _vector_class(name: str) -> type:
    """A class of :mod:`pacru.vector`, which its callers have imported: looked up, not
    imported, as that module imports this one."""
    found: type = getattr(sys.modules["pacru.vector"], name)
    return found


def _doctored(reason: str) -> ValueError:
    return ValueError(f"this VectorState pickle does not fit its VectorEnv: {reason}")


def check_actions(
    actions: Any, n: int, num_actions: int, ranges: bool = True
) -> npt.NDArray[np.intp]:
    """``actions`` as an intp array of shape ``(n,)``, each in ``0 .. num_actions - 1``
    (not looked at for an intp array without ``ranges``: for a caller whose stepping
    refuses an action out of range itself, changing nothing).

    Raises:
        IllegalMoveError: the wrong shape (``"action-shape"``), an action that is
            not an integer (``"action-type"``) or out of range (``"out-of-range"``).
    """
    try:
        array = np.asarray(actions)
    except ValueError:  # numpy refuses ragged nestings
        message = f"actions must have shape ({n},), not a ragged nesting"
        raise refuse(message, "action-shape") from None
    if array.shape != (n,):
        raise refuse(f"actions must have shape ({n},), not {array.shape}", "action-shape")
    # The common case, an intp array in range: two reductions, no copy.
    common = isinstance(actions, np.ndarray) and array.dtype == np.intp and n > 0
    if common and (not ranges or (array.min() >= 0 and array.max() < num_actions)):
        return array
    if isinstance(actions, np.ndarray) and array.dtype.kind in "iu":
        bad = (array >= num_actions) if array.dtype.kind == "u" else (array < 0)
        if array.dtype.kind == "i":
            bad |= array >= num_actions
        outside = np.flatnonzero(bad).tolist()
        values: Any = array
    else:  # a sequence, or not an integer array: each action must be an integer itself
        values = _integers(array if isinstance(actions, np.ndarray) else actions)
        outside = [i for i, a in enumerate(values) if not 0 <= a < num_actions]
    if outside:
        i = outside[0]
        raise refuse(
            f"game {i}: action {int(values[i])} is outside 0..{num_actions - 1}", "out-of-range"
        )
    return np.asarray(values).astype(np.intp)


def check_legal(
    mask: npt.NDArray[np.bool_], acts: npt.NDArray[np.intp], encoding: Encoding
) -> None:
    """Refuse ``acts`` unless each is True in its row of ``mask``.

    Raises:
        IllegalMoveError: the first game whose action is not in its mask (reason
            ``"illegal-action"``), naming the action and the legal ones.
    """
    legal = mask[np.arange(len(acts)), acts]
    if not legal.all():
        i = int(np.flatnonzero(~legal)[0])
        names = [encoding.action_name(a) for a in np.flatnonzero(mask[i]).tolist()]
        raise refuse(
            f"game {i}: action {int(acts[i])} ({encoding.action_name(int(acts[i]))}) "
            f"is not legal in its decision; legal: {names}",
            "illegal-action",
        )


def _integers(actions: Any) -> list[int]:
    """The actions of a sequence of integers of any type (``int``, numpy ints, mixed).

    Raises:
        IllegalMoveError: an action is not an integer (reason ``"action-type"``);
            ``bool`` is not taken for one.
    """
    values = []
    for i, action in enumerate(actions):
        try:
            if isinstance(action, bool | np.bool_):
                raise TypeError("a bool is not an action")
            values.append(operator.index(action))
        except TypeError:
            kind = type(action).__name__
            raise refuse(
                f"actions must be integers, not {kind} (game {i}: {action!r})", "action-type"
            ) from None
    return values


def merge(state: VectorState, rows: npt.NDArray[np.intp], frame: Frame) -> Frame:
    """The whole batch's frame: ``frame`` at ``rows``, ``state``'s arrays elsewhere.

    A row left out keeps its arrays, except that an end shown there stays shown
    (its observation, made from its game, is unchanged too).
    """
    parts = []
    for name in ("legal_action_mask", "current_player", "rewards"):
        whole = getattr(state, name).copy()
        whole[rows] = getattr(frame, name)
        parts.append(whole)
    terminated = state.terminated.copy()
    terminated[rows] = frame.terminated
    truncated = state.truncated.copy()
    truncated[rows] = frame.truncated
    mask, player, rewards = parts
    return Frame(mask, player, rewards, terminated, truncated)
