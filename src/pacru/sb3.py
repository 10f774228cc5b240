"""Stable-Baselines3: many games of one learner as an SB3 ``VecEnv``, for (Maskable)PPO.

:class:`PacruVecEnv` is a ``stable_baselines3.common.vec_env.VecEnv`` on
:class:`pacru.gymnasium_vector.PacruVectorEnv` in its same-step reset mode: the
learner takes one decision of :mod:`pacru.encoding` in every game per step; the
opponent, in every other seat, then decides until the learner decides again or
the game ends. ``MaskablePPO("MultiInputPolicy", env)`` of sb3-contrib takes it
as it is (:meth:`PacruVecEnv.action_masks`). Extra ``sb3``:
``pip install "pacru[sb3]"``.

=================  ==========================================================
action             ``Discrete(num_actions)`` per game: one decision (any
                   integer dtype)
observation        ``Dict``, batched: ``"observation"``, float32 (or
                   ``observation_dtype``) ``(num_envs, *observation_shape)``,
                   the learner's view
                   (:meth:`pacru.encoding.Encoding.observation`), and
                   ``"action_mask"``, int8 ``(num_envs, num_actions)``
reward             float32 ``(num_envs,)``: 0 until a game ends, then the
                   learner's :meth:`pacru.GameState.returns` (+1 a sole
                   win, -1 a loss)
done               the game ended, by the rules or by a limit: the move
                   cap (``move_cap=``, ruling D32) or ``max_steps``;
                   ``infos[i]["TimeLimit.truncated"]`` is True for a limit
reset              in the same step, as SB3 expects: the observation after
                   an end is the new game's first, and the end's is in
                   ``infos[i]["terminal_observation"]``: a game stopped by
                   a limit shows its last position from the learner's
                   seat (SB3 bootstraps from its value), one ended by the
                   rules zeros, mask all ones (no decision is left)
seat               ``seat=None`` (default) draws the learner's seat per game;
                   ``infos[i]["seat"]`` is the seat of the game now played
illegal action     raises :class:`pacru.IllegalMoveError` naming the game;
                   no game changes
=================  ==========================================================

``opponent`` is any opponent of :class:`pacru.gymnasium_vector.PacruVectorEnv`:
``"random"`` or ``"greedy"`` (played natively and batched), a *batched policy*
(a callable taking two positional arguments, ``(observation,
legal_action_mask) -> actions``, called on the rows where an opponent decides,
each row seen by the seat deciding; :func:`pacru.gymnasium_vector.is_batched_policy`
is the rule), or another bot spec, bot class or factory (Python bots, one per
game and other seat, built at :meth:`PacruVecEnv.reset`). A frozen copy of the
learner's own policy (:func:`policy_opponent`) makes self-play;
:meth:`PacruVecEnv.set_opponent` (or ``env_method("set_opponent", ...)``)
changes it between rollouts. :meth:`PacruVecEnv.seed` then
:meth:`PacruVecEnv.reset` replays the same games for the same actions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices

from pacru.gymnasium_vector import Opponent, PacruVectorEnv
from pacru.vector import BatchedPolicy, VectorState

__all__ = ["BatchedPolicy", "Opponent", "PacruVecEnv", "policy_opponent"]

Observation = dict[str, npt.NDArray[Any]]
Rewards = npt.NDArray[np.float32]
Dones = npt.NDArray[np.bool_]


class PacruVecEnv(VecEnv):
    """``num_envs`` games of one learner against ``opponent`` (see the module docstring).

    Args:
        game: a name of :data:`pacru.GAMES`.
        players: 2, 3 or 4.
        num_envs: the number of games.
        opponent: ``"random"``, ``"greedy"``, a batched policy, or the bots of
            the other seats (as :class:`pacru.gymnasium_vector.PacruVectorEnv`).
        seat: the learner's seat (0-based turn order) in every game, or
            ``None`` (default) to draw it per game.
        max_steps: end a game (truncated) after this many decisions of all players.
        observation_dtype: ``float32`` (default), ``uint8`` or ``bool``.
        num_threads: threads stepping the games (``None``: one per core).
        options: options of :func:`pacru.new_game` (``move_cap=`` ...).

    Raises:
        ValueError: an unknown game, player count, option, bot spec or dtype,
            or a seat out of range.
    """

    def __init__(
        self,
        game: str = "pacru",
        players: int = 2,
        num_envs: int = 1,
        opponent: Opponent = "random",
        seat: int | None = None,
        max_steps: int | None = None,
        *,
        observation_dtype: Any = np.float32,
        num_threads: int | None = None,
        **options: Any,
    ) -> None:
        #: The batched games: a :class:`pacru.gymnasium_vector.PacruVectorEnv`, same-step.
        self.vector_env = PacruVectorEnv(
            game,
            players,
            num_envs,
            opponent,
            seat,
            max_steps,
            autoreset_mode="same-step",
            observation_dtype=observation_dtype,
            num_threads=num_threads,
            **options,
        )
        self.render_mode = None
        super().__init__(
            num_envs,
            self.vector_env.single_observation_space,
            self.vector_env.single_action_space,
        )
        self._actions: npt.NDArray[Any] | None = None

    @property
    def state(self) -> VectorState:
        """The games now (:class:`pacru.vector.VectorState`), each at a decision of the learner.

        Raises:
            RuntimeError: before the first :meth:`reset`.
        """
        return self.vector_env.state

    @property
    def seats(self) -> npt.NDArray[np.int32]:
        """The learner's seat in each game now, int32 ``(num_envs,)``."""
        return self.vector_env.seats

    # -- the VecEnv contract --------------------------------------------------------------

    def reset(self) -> Observation:
        """New games in every env: the learner's first observations.

        The seed is the first of :meth:`seed`'s (once; fresh entropy otherwise).
        """
        observation, _ = self.vector_env.reset(seed=self._seeds[0])
        self._reset_seeds()
        self.reset_infos = self._seat_infos()
        return _copied(observation)

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        """Keep the learner's ``actions``, shape ``(num_envs,)``, for :meth:`step_wait`."""
        self._actions = actions

    def step_wait(self) -> tuple[Observation, Rewards, Dones, list[dict[str, Any]]]:
        """Play the kept actions: observations, rewards, dones and infos (see the module).

        Raises:
            IllegalMoveError: an action is not legal in its game (no game changes).
            RuntimeError: before :meth:`reset`, or without :meth:`step_async`.
        """
        if self._actions is None:
            raise RuntimeError("call step_async() first")
        actions, self._actions = self._actions, None
        observation, rewards, terminated, truncated, vector_infos = self.vector_env.step(actions)
        dones = terminated | truncated
        infos = self._seat_infos()
        for row in np.flatnonzero(dones).tolist():
            infos[row]["terminal_observation"] = vector_infos["final_obs"][row]
            infos[row]["TimeLimit.truncated"] = bool(truncated[row] and not terminated[row])
        return _copied(observation), rewards, dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now: bool ``(num_envs, num_actions)``."""
        return self.vector_env.action_masks()

    def set_opponent(self, opponent: Opponent) -> None:
        """Play ``opponent`` in the other seats: a batched policy, ``"random"`` or
        ``"greedy"`` from the next decision on, other bots from the next :meth:`reset`.

        Raises:
            ValueError: a bad bot spec or the wrong number of opponents.
        """
        self.vector_env.set_opponent(opponent)

    def close(self) -> None:
        """Nothing to release: the games live in this process."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute ``attr_name`` of this env, once per index (all games share it)."""
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set ``attr_name`` on this env (all games share it): only for every index.

        Raises:
            ValueError: ``indices`` names some envs only.
        """
        self._all(indices, "set_attr")
        setattr(self, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """``action_masks`` per env (one bool row each), or a method of this env run once.

        ``env_method("action_masks")`` is how sb3-contrib's ``get_action_masks``
        reads the masks. Any other method (``"set_opponent"``) applies to all
        games at once: its result is repeated per index.

        Raises:
            ValueError: another method for some envs only.
        """
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        self._all(indices, "env_method")
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type[Any], indices: VecEnvIndices = None) -> list[bool]:
        """False for every env: the games are not Gymnasium envs, so nothing wraps them."""
        return [False for _ in self._indices(indices)]

    # -- internals ------------------------------------------------------------------------

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def _all(self, indices: VecEnvIndices, what: str) -> None:
        if sorted(self._indices(indices)) != list(range(self.num_envs)):
            raise ValueError(f"{what}: the games share one opponent and settings; give every index")

    def _seat_infos(self) -> list[dict[str, Any]]:
        return [{"seat": seat} for seat in self.seats.tolist()]


def _copied(observation: dict[str, Any]) -> Observation:
    """Writable arrays (the vector env's observation is the state's read-only one)."""
    return {key: np.array(value) for key, value in observation.items()}


def policy_opponent(policy: Any, *, deterministic: bool = False) -> BatchedPolicy:
    """A batched policy that plays ``policy``'s actions: self-play against a model.

    ``policy`` is anything with SB3's ``predict(observation, deterministic=...,
    action_masks=...)``: a ``MaskablePPO`` model or its ``.policy``; pass a
    copy (``copy.deepcopy(model.policy)``) for a frozen past self. Its
    observation is the ``Dict`` of :class:`PacruVecEnv`, seen by the seat
    deciding; its actions are sampled (``deterministic=False``) or its most
    likely ones, among the legal actions only.
    """

    def play(observation: npt.NDArray[Any], legal_action_mask: npt.NDArray[np.bool_]) -> Any:
        batch = {"observation": observation, "action_mask": legal_action_mask.astype(np.int8)}
        # A writable copy of the mask: torch warns on the state's read-only one.
        masks = np.array(legal_action_mask, dtype=np.bool_)
        actions, _ = policy.predict(batch, deterministic=deterministic, action_masks=masks)
        return np.asarray(actions, dtype=np.intp)

    return play
