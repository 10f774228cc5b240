"""Checking the counts and actions given to :mod:`pacru.vector` and assembling its frames.

Private helpers of :class:`pacru.vector.VectorEnv`: actions of any integer type
are checked against the shape and range before any game changes; a frame of
some rows is merged into the whole batch's.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pacru._integers import MAX_COUNT, bounded
from pacru._parallel import thread_count
from pacru.errors import IllegalMoveError
from pacru.vector.loop import Frame, Rows

if TYPE_CHECKING:
    from pacru.encoding import Encoding
    from pacru.vector.state import VectorState

__all__ = ["check_actions", "check_counts", "check_legal", "check_rows", "merge", "refuse"]


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


def check_rows(rows: Any, n: int) -> Rows:
    """``rows`` as an intp array of distinct games of a batch of ``n``, ascending.

    Raises:
        TypeError: ``rows`` is not integers (a bool array is not taken for them).
        ValueError: not one-dimensional, out of ``0 .. n - 1``, not ascending or repeated.
    """
    array = np.asarray(rows)
    if array.size == 0:
        return np.zeros(0, dtype=np.intp)
    if array.dtype.kind not in "iu":
        raise TypeError(f"rows must be integers, not {array.dtype} ({rows!r})")
    if array.ndim != 1:
        raise ValueError(f"rows must be one-dimensional, not of shape {array.shape}")
    if array.min() < 0 or array.max() >= n:
        raise ValueError(f"rows must be games 0..{n - 1}, not {rows!r}")
    if (np.diff(array) <= 0).any():
        raise ValueError(f"rows must be ascending, each game once, not {rows!r}")
    return array.astype(np.intp)


def check_actions(
    actions: Any, n: int, num_actions: int, ranges: bool = True, rows: Rows | None = None
) -> npt.NDArray[np.intp]:
    """``actions`` as an intp array of shape ``(n,)``, each in ``0 .. num_actions - 1``
    (not looked at for an intp array without ``ranges``: for a caller whose stepping
    refuses an action out of range itself, changing nothing). Action ``i`` is game
    ``rows[i]``'s (default: game ``i``'s), as the messages name it.

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
        values = _integers(array if isinstance(actions, np.ndarray) else actions, rows)
        outside = [i for i, a in enumerate(values) if not 0 <= a < num_actions]
    if outside:
        i = outside[0]
        raise refuse(
            f"game {_game(i, rows)}: action {int(values[i])} is outside 0..{num_actions - 1}",
            "out-of-range",
        )
    return np.asarray(values).astype(np.intp)


def check_legal(
    mask: npt.NDArray[np.bool_], acts: Rows, encoding: Encoding, rows: Rows | None = None
) -> None:
    """Refuse ``acts`` unless each is True in its row of ``mask`` (row ``i`` is game
    ``rows[i]``'s, default game ``i``'s).

    Raises:
        IllegalMoveError: the first game whose action is not in its mask (reason
            ``"illegal-action"``), naming the action and the legal ones.
    """
    legal = mask[np.arange(len(acts)), acts]
    if not legal.all():
        i = int(np.flatnonzero(~legal)[0])
        names = [encoding.action_name(a) for a in np.flatnonzero(mask[i]).tolist()]
        raise refuse(
            f"game {_game(i, rows)}: action {int(acts[i])} ({encoding.action_name(int(acts[i]))}) "
            f"is not legal in its decision; legal: {names}",
            "illegal-action",
        )


def _game(i: int, rows: Rows | None) -> int:
    """The game of action ``i``: ``rows[i]``, or ``i`` itself."""
    return i if rows is None else int(rows[i])


def _integers(actions: Any, rows: Rows | None = None) -> list[int]:
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
                f"actions must be integers, not {kind} (game {_game(i, rows)}: {action!r})",
                "action-type",
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
