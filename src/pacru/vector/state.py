"""The value of a :mod:`pacru.vector` batch after a step: :class:`VectorState`.

A state holds its arrays, its games (as its env's loop holds them) and its env, which
steps it and rebuilds it from a pickle (``pacru.vector.env``, above this module).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from pacru.vector.loop import Games, Played

if TYPE_CHECKING:
    from pacru.vector.env import VectorEnv

__all__ = [
    "STATE_ARRAYS",
    "VectorState",
    "alone",
    "check_state",
    "games_of",
    "live_games",
    "read_only",
    "spend",
]

#: The names of a :class:`VectorState`'s per-game arrays but its observation (made when read).
STATE_ARRAYS: Final = (
    "legal_action_mask",
    "current_player",
    "rewards",
    "terminated",
    "truncated",
    "step_count",
    "episode",
)


def read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``array``, made read-only in place."""
    array.setflags(write=False)  # not flags.writeable: no flags object made (a step sets six)
    return array


@attrs.frozen(eq=False)
class VectorState:
    """The games of a :class:`VectorEnv` after a step: read-only arrays, one row per game.

    See the module docstring for each attribute's dtype, shape and meaning.
    Make one with :meth:`VectorEnv.init`; :meth:`VectorEnv.step` returns the next.
    A state pickles and deep-copies (its games are stored as their positions and
    the actions chosen in the move under way); :meth:`equals` compares two. A state
    donated to a step (``VectorEnv.step(..., donate=True)``) is spent: the arrays
    already made stay as they were, and what needs its games raises ``ValueError``.
    """

    current_player: npt.NDArray[np.int32]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    step_count: npt.NDArray[np.int32]
    episode: npt.NDArray[np.int64]
    #: The seed given to :meth:`VectorEnv.init`.
    seed: int
    #: The games themselves, opaque: owned by the stepping seam.
    _games: Games = attrs.field(repr=False)
    _env: VectorEnv = attrs.field(repr=False)
    #: The mask once made (empty before): a box, as the state itself is frozen.
    _masked: list[npt.NDArray[np.bool_]] = attrs.field(init=False, factory=list, repr=False)
    #: The observation once read (empty before): a box, as the state itself is frozen.
    _observed: list[npt.NDArray[Any]] = attrs.field(init=False, factory=list, repr=False)
    #: Holds True once the state was donated to a step (``VectorEnv.step(...,
    #: donate=True)``): its games are gone. A box, as the state itself is frozen.
    _donated: list[bool] = attrs.field(init=False, factory=list, repr=False)

    @property
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """bool ``(num_envs, num_actions)``, read-only: True at the legal actions of each
        game's decision, and at every action where ``current_player`` is -1 (an end
        shown, a ``max_steps`` cut: any action is taken there, and ignored). Made by the
        step or, where it left it out (a whole-batch step on the native engine), from the
        games at the first read (natively, on the env's threads), then kept: the same
        array at every read. ``MemoryError`` where it cannot be held; ``ValueError``
        where it must be made from the games of a donated state.
        """
        if not self._masked:
            shown = self.current_player < 0
            mask = self._env._loop.legal_action_mask(live_games(self), shown)
            self._masked.append(read_only(mask))
        return self._masked[0]

    @property
    def observation(self) -> npt.NDArray[Any]:
        """``(num_envs, *observation_shape)`` of the env's ``observation_dtype``: read-only.

        Row ``i`` is :meth:`pacru.encoding.Encoding.observation` of game ``i``'s
        decision, seen by the player deciding, and zeros where
        ``current_player`` is -1 (an end shown, a ``max_steps`` cut); as uint8
        each value times 255, rounded, as bool each value != 0. Made from the
        state's games at the first read, then kept (the same array at every
        read): a loop that never reads it does not pay for it. ``ValueError`` at the
        first read of a donated state (``VectorEnv.step(..., donate=True)``).
        """
        if not self._observed:
            observation = self._env._loop.observe(live_games(self), self._env.observation_dtype)
            shown = self.current_player < 0
            if shown.any():  # a max_steps cut: its game goes on, its row shows an end
                observation[shown] = 0
            self._observed.append(read_only(observation))
        return self._observed[0]

    @property
    def num_envs(self) -> int:
        """The number of games (rows)."""
        return len(self.current_player)

    @property
    def ended(self) -> npt.NDArray[np.bool_]:
        """``terminated | truncated``: the games that ended at this step (a new array)."""
        return self.terminated | self.truncated

    @property
    def env(self) -> VectorEnv:
        """The environment this state belongs to."""
        return self._env

    def equals(self, other: object) -> bool:
        """Whether ``other`` holds the same games (positions, players, moves under way), seed,
        arrays and observation dtype; how the envs step them (``num_threads``) does not count."""
        if not isinstance(other, VectorState) or self.seed != other.seed:
            return False
        if self._env.observation_dtype != other._env.observation_dtype or not all(
            np.array_equal(getattr(self, n), getattr(other, n)) for n in STATE_ARRAYS
        ):
            return False
        return games_of(self) == games_of(other)

    def __copy__(self) -> VectorState:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> VectorState:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # The env knows how its states are rebuilt (pacru.vector.env sits above this module).
        return self._env._reduce_state(self)



def games_of(state: VectorState) -> list[Played]:
    """Each game of ``state`` as its position and the actions chosen in its move under way."""
    loop, games = state._env._loop, live_games(state)
    return [(loop.position(games, i), loop.prefix(games, i)) for i in range(state.num_envs)]


def check_state(env: VectorEnv, state: object) -> VectorState:
    """``state`` once it is a state of ``env`` (or of an env made with the same arguments).

    Raises:
        TypeError: ``state`` is not a :class:`pacru.vector.VectorState`.
        ValueError: it belongs to another environment.
    """
    if not isinstance(state, VectorState):
        raise TypeError(f"state must be a VectorState, not {type(state).__name__}")
    if state._env is not env and state._env._args != env._args:
        raise ValueError("this state belongs to another VectorEnv")
    live_games(state)
    return state


def live_games(state: VectorState) -> Games:
    """The games of ``state``, once it was not donated to a step.

    Raises:
        ValueError: ``state`` was donated (``VectorEnv.step(..., donate=True)``).
    """
    if state._donated:
        raise ValueError(
            "this VectorState was donated to VectorEnv.step(..., donate=True): "
            "its games are gone (its arrays already read stay as they were)"
        )
    return state._games


def spend(state: VectorState) -> None:
    """Mark ``state`` donated: every later use of its games raises ``ValueError``. It lets
    go of them too (a step in place handed them to the new state, which must then be their
    only holder for its own step to be taken in place: :func:`alone`)."""
    state._donated.append(True)
    object.__setattr__(state, "_games", None)


def _held_by_one() -> int:
    """What :func:`sys.getrefcount` says of an object held by one slot of one object,
    read as :func:`alone` reads a state's games (measured, not assumed: interpreters
    count the argument's own reference differently)."""
    holder = _Holder()
    holder.held = object()
    return sys.getrefcount(holder.held)


class _Holder:
    __slots__ = ("held",)
    held: object


#: :func:`_held_by_one`, measured once.
_HELD_BY_ONE: Final = _held_by_one()


def alone(state: VectorState) -> bool:
    """Whether ``state``'s games are held by ``state`` alone: no other state (an empty
    :meth:`pacru.vector.VectorEnv.step_rows` returns its own), no kept game of
    ``pacru.vector.final.KeepingEnv`` shares them, so a step may change them in place."""
    return sys.getrefcount(state._games) == _HELD_BY_ONE
