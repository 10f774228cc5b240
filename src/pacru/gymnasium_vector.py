"""One learner against pacru bots in many games at once: a ``gymnasium.vector.VectorEnv``.

:class:`PacruVectorEnv` stands on :class:`pacru.vector.VectorEnv`: the learner
takes one decision of :mod:`pacru.encoding` in every game per step; the bots
in the other seats then play their whole moves until the learner decides
again (or the game ends). Extra ``gymnasium``: ``pip install "pacru[gymnasium]"``.

=================  ==========================================================
action             ``MultiDiscrete([num_actions] * num_envs)``: one decision
                   per game (any integer dtype)
observation        ``Dict``, batched: ``"observation"``, float32 (or
                   ``observation_dtype``) ``(num_envs, *observation_shape)``,
                   the learner's view (:meth:`pacru.encoding.Encoding.observation`),
                   read-only, and ``"action_mask"``, int8 ``(num_envs, num_actions)``
                   (a read-only view of the state's bool mask, no copy)
reward             float32 ``(num_envs,)``: 0 until a game ends, then the
                   learner's :meth:`pacru.GameState.returns`
terminated         the game ended by the rules at this step
truncated          the game was stopped by a limit: the D32 move cap
                   (``move_cap=``), the D33 idle rounds, or ``max_steps``
autoreset          ``autoreset_mode``: ``AutoresetMode.NEXT_STEP`` (default):
                   at the step after an end, that game restarts and its
                   action is ignored; at an end the mask is all ones and the
                   observation zeros. ``AutoresetMode.SAME_STEP`` (pgx's): a
                   game that ends restarts in the same step; the observation
                   is the new game's, ``infos["final_obs"]`` holds the end's
                   where ``infos["_final_obs"]``: for a game truncated by a
                   limit, its last position seen from the learner's seat
                   (the decision under way at a ``max_steps`` cut; at the
                   move cap or the idle rounds, the next decision as if the
                   limit had not ended the game), its mask the learner's
                   legal actions there (zeros at another seat's decision);
                   for a game ended by the rules, zeros, mask all ones
                   (of the end shown: a game's last in the step)
illegal action     raises :class:`pacru.IllegalMoveError` naming the game;
                   no game changes (check with :meth:`action_masks`)
=================  ==========================================================

``opponent`` is one of:

- ``"random"`` or ``"greedy"``: :class:`pacru.bots.RandomBot`'s and
  :class:`pacru.bots.GreedyBot`'s rules, played natively and batched for a
  chevron game on the native engine: a whole :meth:`PacruVectorEnv.step` (the
  learner's decision, the bots' moves until it decides again, the restarts,
  the observation) is one call into the extension, on the env's threads
  without the GIL, with the games of the step by step path;
- a *batched policy*: a callable taking two positional arguments,
  ``(observation, legal_action_mask) -> actions``, on the whole arrays of the
  games where an opponent decides (observation of ``observation_dtype``,
  ``(k, *observation_shape)``, from the deciding player's point of view; mask
  bool ``(k, num_actions)``; actions integers ``(k,)``), called once per
  decision: the learner's own current policy for self-play, or a frozen past
  one (:meth:`PacruVectorEnv.set_opponent` swaps it);
- any other bot spec (``"mcts:iterations=200"``), a bot class or factory, or a
  list with one of these per other seat (in turn order), as for
  :class:`pacru.gymnasium.PacruEnv`: every game gets its own Python bots.

Every bot is seeded from the seed of :meth:`PacruVectorEnv.reset`, so the same
seed replays the same games on the same engine. The native ``"random"`` and
``"greedy"`` draw from SplitMix64 streams, not :class:`random.Random`, so they
play other games than on the pure-Python engine; Python bots (any other spec,
class or factory) play the same games on both. ``seat=None`` draws the
learner's seat per game and per episode from that seed too (``infos["seat"]``).

>>> import numpy as np
>>> from pacru.gymnasium_vector import PacruVectorEnv
>>> envs = PacruVectorEnv("shacru", players=2, num_envs=3, opponent="random")
>>> observations, infos = envs.reset(seed=0)
>>> observations["observation"].shape, envs.action_masks().shape
((3, 51, 9, 9), (3, 415))
>>> actions = np.array([np.flatnonzero(m)[0] for m in envs.action_masks()])
>>> observations, rewards, terminated, truncated, infos = envs.step(actions)
>>> rewards.tolist(), terminated.tolist(), infos["seat"].tolist()
([0.0, 0.0, 0.0], [False, False, False], [0, 0, 0])
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from pacru._cursor import observation_space
from pacru._integers import bounded
from pacru.bots.base import Bot
from pacru.bots.spec import BotEntry, build_bot, opponent_entries
from pacru.vector import AUTORESET_MODES, BatchedPolicy, VectorEnv, VectorState
from pacru.vector.draws import hash_base
from pacru.vector.final import KeepingEnv, last_seen
from pacru.vector.loop import as_dtype
from pacru.vector.play import (
    BUILT_IN,
    Ends,
    Turn,
    draw_seats,
    fused_step,
    native_bots,
    play_opponents,
)

__all__ = ["Opponent", "PacruVectorEnv", "is_batched_policy"]

Floats = npt.NDArray[np.float32]
Flags = npt.NDArray[np.bool_]


#: What a :class:`PacruVectorEnv` holds beyond its arguments: its games, the seeds drawn
#: from :meth:`PacruVectorEnv.reset`'s, the Python bots (their random streams) and their
#: moves under way, the opponent now, and Gymnasium's generator (of the next reset).
_PROGRESS: Final = (
    "_state",
    "_seeds",
    "_bots",
    "_pending",
    "_entries",
    "_batched",
    "_fused",
    "_np_random",
    "_np_random_seed",
)

def _held_once() -> int:
    """What :func:`sys.getrefcount` says of a value that one attribute of one object holds
    (measured, not assumed: interpreters count the call's own reference differently)."""
    holder = _Holder()
    holder.held = object()
    return sys.getrefcount(holder.held)


class _Holder:
    held: object


#: :func:`_held_once`, measured once.
_HELD_ONCE: Final = _held_once()

#: A bot in every game, or a batched policy for all of them.
Opponent = BotEntry | Sequence[BotEntry] | BatchedPolicy


def is_batched_policy(opponent: Any) -> bool:
    """Whether ``opponent`` is a batched policy: a callable, not a bot, class or spec,
    whose signature takes two positional arguments (a bot factory takes one)."""
    if isinstance(opponent, str | type | Bot) or not callable(opponent):
        return False
    try:
        signature = inspect.signature(opponent)
        signature.bind(None, None)
    except (TypeError, ValueError):
        return False
    try:
        signature.bind(None)
    except TypeError:
        return True
    return False


class PacruVectorEnv(
    gymnasium.vector.VectorEnv[dict[str, Any], npt.NDArray[np.int64], npt.NDArray[Any]]
):
    """``num_envs`` games of one learner against opponents (see the module docstring).

    Args:
        game: a name of :data:`pacru.GAMES`.
        players: 2, 3 or 4.
        num_envs: the number of games.
        opponent: ``"random"``, ``"greedy"``, a batched policy, or the bots of the
            other seats: one entry for all, or one per other seat.
        seat: the learner's seat (0-based turn order), the same in every game, or
            ``None`` to draw it per game and episode.
        max_steps: truncate a game after this many decisions (of all players).
        autoreset_mode: ``AutoresetMode.NEXT_STEP`` (default) or ``SAME_STEP``
            (or their values, or ``"next-step"``, ``"same-step"``).
        observation_dtype: ``float32`` (default), ``uint8`` or ``bool``, as
            :class:`pacru.vector.VectorEnv`.
        num_threads: threads stepping the games (``None``: one per core).
        options: options of :func:`pacru.new_game`.

    Raises:
        ValueError: an unknown game, player count, option, bot spec, reset rule
            or dtype, a seat out of range, the wrong number of opponents, or a
            count out of range (as :class:`pacru.vector.VectorEnv`: ``max_steps``
            ``1 .. 2**31 - 1``, ``num_threads`` ``1 .. 1024``).
        TypeError: ``seat``, ``max_steps`` or ``num_threads`` is neither ``None``
            nor an integer.

    A ``PacruVectorEnv`` pickles and deep-copies at any point: the copy holds the
    same games, seeds, opponent and Python bots (their random streams and moves
    under way included), so it steps on (and resets) exactly as the original; a
    batched policy or bot is pickled with it, so it must pickle too.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        game: str = "pacru",
        players: int = 2,
        num_envs: int = 1,
        opponent: Opponent = "random",
        seat: int | None = 0,
        max_steps: int | None = None,
        *,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        observation_dtype: Any = np.float32,
        num_threads: int | None = None,
        **options: Any,
    ) -> None:
        name = autoreset_mode.value if isinstance(autoreset_mode, AutoresetMode) else autoreset_mode
        mode = AUTORESET_MODES.get(name)
        if mode is None:
            raise ValueError(
                f"autoreset_mode must be NEXT_STEP or SAME_STEP, not {autoreset_mode!r}"
            )
        # Same-step: an env whose restarts keep a truncated game's last position (final_obs).
        self.env = (KeepingEnv if mode == "same-step" else VectorEnv)(
            game,
            players,
            num_envs,
            max_steps=max_steps,
            autoreset_mode=mode,
            observation_dtype=observation_dtype,
            num_threads=num_threads,
            **options,
        )
        if seat is not None:
            seat = bounded(seat, "seat", 0, self.env.players - 1)
        self._args = (
            game,
            players,
            num_envs,
            opponent,
            seat,
            max_steps,
            mode,
            self.env.observation_dtype.name,
            num_threads,
            options,
        )
        self.metadata = {
            **type(self).metadata,
            "autoreset_mode": AutoresetMode.SAME_STEP
            if mode == "same-step"
            else AutoresetMode.NEXT_STEP,
        }
        self.num_envs = num_envs
        self.players = players
        self._fixed_seat = seat
        #: The learner's seat in every game when it is fixed: read-only, made once.
        self._seat_array = np.full(num_envs, 0 if seat is None else seat, dtype=np.int32)
        self._seat_array.flags.writeable = False
        #: Every env: the infos' ``"_seat"`` (read-only, made once).
        self._all_true = np.ones(num_envs, dtype=np.bool_)
        self._all_true.flags.writeable = False
        self.seat = 0 if seat is None else seat
        self._entries: list[BotEntry] = []
        self._batched: str | BatchedPolicy | None = None
        self.set_opponent(opponent)
        self._bots: list[list[Bot]] = []
        self._pending: dict[int, list[int]] = {}
        self._state: VectorState | None = None
        self._seeds = (0, 0)
        #: The last ``_turn``, and the seeds and opponent it was made for.
        self._turn_made: tuple[tuple[Any, ...], Turn] | None = None
        self._end_shown: dict[str, Any] | None = None
        #: Whether a built-in bot plays in the one native call of a learner step
        #: (``_turn``); tests turn it off to compare with the step by step path.
        self._fused = True
        self.single_observation_space = observation_space(
            self.env.encoding, self.env.observation_dtype
        )
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(self.env.num_actions)
        self.action_space = spaces.MultiDiscrete([self.env.num_actions] * num_envs)

    def set_opponent(self, opponent: Opponent) -> None:
        """Play against ``opponent`` from now on (as the constructor's ``opponent``).

        A batched policy or ``"random"``/``"greedy"`` takes over at once; other
        bots are built at the next :meth:`reset`.

        Raises:
            ValueError: a bad bot spec or the wrong number of opponents.
        """
        if is_batched_policy(opponent) or opponent in BUILT_IN:
            self._batched = opponent  # type: ignore[assignment]
            self._entries = []
        else:
            self._entries = opponent_entries(opponent, self.players)  # type: ignore[arg-type]
            self._batched = None

    def __reduce__(self) -> tuple[Any, ...]:
        game, players, num_envs, opponent, seat, max_steps, mode, dtype, threads, options = (
            self._args
        )
        if self._batched is not None:
            opponent = self._batched
        kwargs = {
            "autoreset_mode": mode,
            "observation_dtype": dtype,
            "num_threads": threads,
            **options,
        }
        # The rebuilt env then takes what it holds since (pickle and deepcopy set it).
        progress = {name: getattr(self, name) for name in _PROGRESS}
        return (_rebuild, ((game, players, num_envs, opponent, seat, max_steps), kwargs), progress)

    @property
    def state(self) -> VectorState:
        """The :class:`pacru.vector.VectorState` of the games (after the opponents' moves).

        A state kept from here stays whole: the env hands its state over to a step
        (``VectorEnv.step(..., donate=True)``) only while it alone holds it.

        Raises:
            RuntimeError: before the first :meth:`reset`.
        """
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    @property
    def seats(self) -> npt.NDArray[np.int32]:
        """The learner's seat in each game's current episode, int32 ``(num_envs,)``."""
        if self._fixed_seat is not None:
            return self._seat_array
        return draw_seats(self._seeds[1], self.state.episode, self.players)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """New games in every env: the learner's first observations and the infos."""
        super().reset(seed=seed)
        rng = self.np_random
        self._bots = [
            [build_bot(entry, int(rng.integers(2**63))) for entry in self._entries]
            for _ in range(self.num_envs)
        ]
        self._pending = {}
        start = int(rng.integers(2**63))
        self._seeds = (int(rng.integers(2**63)), int(rng.integers(2**63)))
        self._state = self.env.init(start)
        self._state = self._opponents_play(self._state)
        return self._observe(), self._infos()

    def step(self, actions: Any) -> tuple[dict[str, Any], Floats, Flags, Flags, dict[str, Any]]:
        """The learner's decision in every game, then the opponents' until it decides again.

        Raises:
            IllegalMoveError: an action is not in its game's mask (no game changes),
                or a batched opponent returned an illegal action.
            RuntimeError: before the first :meth:`reset`.
        """
        turn = self._turn()
        kept = self.env.kept if isinstance(self.env, KeepingEnv) else None
        if kept is not None:
            kept.clear()  # filled by this step's restarts
        # The env alone holds its state (no one kept ``state``, no copy of the env shares
        # it): the step may take it over (``donate``), its games stepped in place.
        owned = sys.getrefcount(self._state) == _HELD_ONCE
        before = self.state
        if turn is not None:  # the built-in bots natively: one call for everything
            state, rewards, seats = fused_step(self.env, before, actions, turn, donate=owned)
            self._state = state
            infos = {"seat": seats, "_seat": self._all_true}
        else:
            learners = self.seats
            state = self._opponents_play(self.env.step(before, actions, donate=owned))
            self._state = state
            rewards = np.array(state.rewards[np.arange(self.num_envs), learners], dtype=np.float32)
            infos = self._infos()
        if kept is not None:  # same-step
            ended = state.terminated | state.truncated
            if ended.any():
                infos["final_obs"] = self._final_observations(state)
                infos["_final_obs"] = ended
        return self._observe(), rewards, state.terminated.copy(), state.truncated.copy(), infos

    def _final_observations(self, state: VectorState) -> npt.NDArray[np.object_]:
        """``infos["final_obs"]``: at each game that ended in the step, its last position seen
        from the learner's seat (``last_seen``) where a limit truncated it, else (ended
        by the rules: no decision is left, nothing to learn from) :meth:`_final_obs`. The
        last positions are those the step's restarts kept (``KeepingEnv.last``)."""
        ended = state.terminated | state.truncated
        seats = self.seats
        if self._fixed_seat is None:  # the seat of the episode that ended (one end a step)
            seats = draw_seats(self._seeds[1], state.episode - ended, self.players)
        env, final = self.env, np.empty(self.num_envs, dtype=object)
        assert isinstance(env, KeepingEnv)
        for row in np.flatnonzero(ended).tolist():
            game = None if state.terminated[row] else env.last(row)
            seen = None if game is None else last_seen(env.encoding, *game, int(seats[row]))
            if seen is None:
                final[row] = self._final_obs()
            else:
                seen["observation"] = as_dtype(seen["observation"], env.observation_dtype)
                final[row] = seen
        return final

    def _final_obs(self) -> dict[str, Any]:
        """The observation of an end (zeros, mask all ones), read-only, made once."""
        if self._end_shown is None:
            zeros = np.zeros(self.env.observation_shape, self.env.observation_dtype)
            ones = np.ones(self.env.num_actions, dtype=np.int8)
            zeros.flags.writeable = ones.flags.writeable = False
            self._end_shown = {"observation": zeros, "action_mask": ones}
        return self._end_shown

    def _turn(self) -> Turn | None:
        """What the fused native step of a built-in bot needs, or None where it does not
        apply (a batched policy or Python bots, the Python loop, drawn openings)."""
        env = self.env
        if (
            not self._fused
            or self._batched not in BUILT_IN
            or env.opening_plies
            or not env.plays_bots_natively
        ):
            return None
        key = (self._seeds, self._batched)
        if self._turn_made is None or self._turn_made[0] != key:
            turn = Turn(
                same_step=env.autoreset_mode == "same-step",
                max_steps=env.max_steps,
                seat=-1 if self._fixed_seat is None else self._fixed_seat,
                seat_base=hash_base(self._seeds[1], 1),
                bot=str(self._batched),
                bot_base=hash_base(self._seeds[0], 0),
                dtype=env.observation_dtype,
            )
            self._turn_made = (key, turn)
        return self._turn_made[1]

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions: bool ``(num_envs, num_actions)`` (all True at an end
        in next-step mode)."""
        return self.state.legal_action_mask.copy()

    def _opponents_play(self, state: VectorState) -> VectorState:
        """Let the opponents decide until the learner decides (or the game ends) in every game."""
        self._state = state
        if self._native_next_step():
            # One native call plays every game's bots until its learner decides (a move
            # cut by max_steps or an end stays shown: nothing restarts in next-step mode).
            seats = self.seats
            if ((state.current_player >= 0) & (state.current_player != seats)).any():
                bot: Any = self._batched
                # A state of this step or of reset (no one else holds it): in place.
                state = native_bots(self.env, state, bot, seats, self._seeds[0], donate=True)
                self._state = state
            return state
        if self._batched is not None:
            # Same-step: a game that ends during the opponents' moves restarts with a new
            # episode, whose learner's seat (seat=None) is drawn again at once.
            drawn = self._seeds[1] if self._fixed_seat is None else None
            state = play_opponents(
                self.env, state, self._batched, self.seats, self._seeds[0], drawn=drawn
            )
            self._state = state
            return state
        env = self.env
        ends = Ends(state)
        while True:
            for row in np.flatnonzero(state.current_player < 0).tolist():
                self._pending.pop(row, None)  # a move cut by max_steps is not resumed
            self._state = state
            seats = self.seats
            rows = np.flatnonzero((state.current_player >= 0) & (state.current_player != seats))
            if not rows.size:
                return ends.shown(state)
            actions = []
            for row in rows.tolist():
                queue = self._pending.get(row)
                if not queue:
                    position = env.position(state, row)
                    player = int(state.current_player[row])
                    seat = int(seats[row])
                    bot = self._bots[row][player if player < seat else player - 1]
                    move = bot.choose_move(position)
                    queue = self._pending[row] = list(env.encoding.actions(position, move))
                actions.append(queue.pop(0))
            before = state
            state = env.step_rows(state, rows, np.array(actions, dtype=np.intp))
            for row in ends.add(before, state).tolist():
                self._pending.pop(row, None)  # same-step: a cut move is not resumed either

    def _native_next_step(self) -> bool:
        """Whether a built-in bot plays natively, in next-step mode (one call per step)."""
        return (
            self._batched in BUILT_IN
            and self.env.autoreset_mode == "next-step"
            and self.env.plays_bots_natively
        )

    def _observe(self) -> dict[str, Any]:
        state = self.state
        return {
            # The state's own read-only array: a learner copies it into its buffer anyway.
            "observation": state.observation,
            # int8 as Gymnasium's mask: a view of the bool mask's bytes (0 or 1), no copy.
            "action_mask": state.legal_action_mask.view(np.int8),
        }

    def _infos(self) -> dict[str, Any]:
        return {
            "seat": self.seats.astype(np.int64),
            "_seat": self._all_true,
        }


def _rebuild(args: tuple[Any, ...], kwargs: dict[str, Any]) -> PacruVectorEnv:
    """A pickled :class:`PacruVectorEnv`: a new one with the same arguments."""
    return PacruVectorEnv(*args, **kwargs)
