"""The batched environment of :mod:`pacru.vector`: :class:`VectorEnv`, and how it pickles.

See :mod:`pacru.vector` (the package's face) for the arrays, auto-reset, truncation,
seeding and errors.
"""


from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from pacru._cursor import DEFAULT_MOVE_CAP, capped
from pacru._integers import integer
from pacru._parallel import check_memory, default_threads
from pacru.base import GameState
from pacru.encoding import Encoding
from pacru.games import new_game
from pacru.vector import checks
from pacru.vector.loop import Advance, BotLoop, Frame, Games, Played
from pacru.vector.seam import choose_loop
from pacru.vector.state import (
    STATE_ARRAYS,
    VectorState,
    alone,
    check_state,
    games_of,
    read_only,
    spend,
)

__all__ = [
    "AUTORESET_MODES",
    "DEFAULT_MOVE_CAP",
    "OBSERVATION_DTYPES",
    "AutoresetMode",
    "BatchedPolicy",
    "VectorEnv",
    "default_threads",
]

#: How a game that ends restarts: ``"same-step"`` (pgx's, and Gymnasium's
#: ``AutoresetMode.SAME_STEP``) or ``"next-step"`` (Gymnasium's ``NEXT_STEP``).
AutoresetMode = Literal["same-step", "next-step"]
#: The two reset rules, by their name here and by Gymnasium's ``AutoresetMode`` value.
AUTORESET_MODES: Final[dict[str, AutoresetMode]] = {
    "same-step": "same-step",
    "next-step": "next-step",
    "SameStep": "same-step",
    "NextStep": "next-step",
}
#: The observation dtypes: float32 (the encoding's values), uint8 (each value times 255,
#: rounded) and bool (value != 0).
OBSERVATION_DTYPES: Final = (np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.bool_))
#: A batched policy: ``(observation, legal_action_mask) -> actions`` on whole arrays, rows
#: of the games it decides in (observation of :attr:`VectorEnv.observation_dtype`, shape
#: ``(k, *observation_shape)``; mask bool ``(k, num_actions)``; actions integers ``(k,)``).
BatchedPolicy = Callable[[npt.NDArray[Any], npt.NDArray[np.bool_]], Any]


class VectorEnv:
    """``num_envs`` games of ``game`` stepped together (see the module docstring).

    Args:
        game: a name of :data:`pacru.GAMES` (the chevron games and LSD).
        players: 2, 3 or 4.
        num_envs: the number of games in the batch (at least 1).
        max_steps: truncate a game after this many decisions (``None``: no limit).
        opening_plies: random moves played at the start of every game (see Seeding).
        autoreset_mode: ``"same-step"`` (default, pgx's: a game that ends is restarted
            in the step that ends it) or ``"next-step"`` (its end is shown, and it
            restarts at the next step); Gymnasium's ``AutoresetMode`` values
            ``"SameStep"`` and ``"NextStep"`` are taken too.
        num_threads: the threads stepping the batch natively, without the GIL
            (``None``: :func:`default_threads`, one per core); the games are the same
            for every count. The Python loop (the pure-Python engine) uses one.
        observation_dtype: ``float32`` (default), ``uint8`` or ``bool`` (see
            :attr:`VectorState.observation`).
        options: options of :func:`pacru.new_game` (``move_cap``, ``meeting_rule``, ...).

    Raises:
        ValueError: an unknown game, player count, option, reset rule or dtype (as
            :func:`pacru.new_game` for the game), or ``num_envs`` below 1,
            ``max_steps`` outside ``1 .. 2**31 - 1`` (the step counts are int32),
            ``opening_plies`` below 0 or ``num_threads`` outside ``1 .. 1024``.
        TypeError: ``num_envs``, ``max_steps``, ``opening_plies`` or ``num_threads``
            is not an integer (nor ``None`` where that is allowed).
        MemoryError: ``num_envs`` games' legal-action masks alone exceed the
            machine's memory.

    A ``VectorEnv`` pickles and deep-copies (as the arguments it was made with).
    """

    def __init__(
        self,
        game: str = "pacru",
        players: int = 2,
        num_envs: int = 1,
        *,
        max_steps: int | None = None,
        opening_plies: int = 0,
        autoreset_mode: str = "same-step",
        num_threads: int | None = None,
        observation_dtype: Any = np.float32,
        **options: Any,
    ) -> None:
        start = new_game(game, players, **capped(game, options))
        num_envs, max_steps, opening_plies, threads = checks.check_counts(
            num_envs, max_steps, opening_plies, num_threads
        )
        mode = AUTORESET_MODES.get(getattr(autoreset_mode, "value", autoreset_mode))
        if mode is None:
            raise ValueError(
                f"autoreset_mode must be 'same-step' or 'next-step', not {autoreset_mode!r}"
            )
        dtype = np.dtype(observation_dtype)
        if dtype not in OBSERVATION_DTYPES:
            raise ValueError(f"observation_dtype must be float32, uint8 or bool, not {dtype}")
        self.encoding = Encoding.of(start)
        check_memory(num_envs * self.encoding.num_actions, f"{num_envs} games' action masks")
        self._args: tuple[Any, ...] = (
            game,
            players,
            num_envs,
            max_steps,
            opening_plies,
            mode,
            num_threads,
            dtype.name,
            tuple(sorted(options.items())),
        )
        self.game = start.game
        self.players = len(start.players)
        self.num_envs = num_envs
        self.max_steps = max_steps
        self.opening_plies = opening_plies
        #: ``"same-step"`` or ``"next-step"``.
        self.autoreset_mode: AutoresetMode = mode
        self.num_threads = threads
        self.observation_dtype = dtype
        self.num_actions = self.encoding.num_actions
        self.observation_shape = tuple(self.encoding.observation_shape)
        self._loop = choose_loop(self.encoding, start, opening_plies)
        self._loop.threads = threads

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_env, self._args)

    def _reduce_state(self, state: VectorState) -> tuple[Any, ...]:
        """How ``state`` pickles (``VectorState.__reduce__``): this env, its arrays, its seed
        and its games as positions and the actions of their moves under way."""
        arrays = tuple(np.array(getattr(state, n)) for n in STATE_ARRAYS)
        return (_restore_state, (self, arrays, state.seed, games_of(state)))

    def __deepcopy__(self, memo: dict[int, Any]) -> VectorEnv:
        return _restore_env(*self._args)

    def init(self, seed: int = 0) -> VectorState:
        """A new game in every env: episode 0 of each, drawn from ``seed``.

        Raises:
            TypeError: ``seed`` is not an integer.
            MemoryError: the batch cannot be held.
        """
        seed = operator.index(seed)
        episode = np.zeros(self.num_envs, dtype=np.int64)
        games, frame = self._loop.start(seed, episode)
        steps = np.zeros(self.num_envs, dtype=np.int32)
        return self._state(frame, steps, episode, seed, games)

    def step(self, state: VectorState, actions: Any, *, donate: bool = False) -> VectorState:
        """The state after one decision in every game: ``actions[i]`` in game ``i``.

        A game that ends restarts as :attr:`autoreset_mode` says: in this step
        (``"same-step"``: the state shows its end in ``terminated``,
        ``truncated`` and ``rewards`` and the new game's first decision
        everywhere else), or at the next step (``"next-step"``: the state shows
        its end, and the action given to it then is ignored). ``state`` is unchanged.

        With ``donate=True`` the caller hands ``state`` over, as JAX and pgx donate
        buffers (``state = env.step(state, actions, donate=True)``): on the native
        engine its games then step in place, without copying each game into a new
        batch or freeing the old one, where no other state shares them. Either way
        ``state`` is spent once the step is taken: the arrays already read from it
        stay as they were, and what would be made from its games (a mask or an
        observation not read yet, a position, a pickle, another step) raises
        ``ValueError``. A refused action spends nothing.

        Args:
            state: a state of this environment (or of one made with the same arguments).
            actions: integers, shape ``(num_envs,)``: a numpy array of any
                integer dtype, or a sequence of ints.
            donate: whether ``state`` is handed over (a bool; see above).

        Raises:
            IllegalMoveError: ``actions`` has the wrong shape (reason
                ``"action-shape"``), is not integer (``"action-type"``), or an
                action is out of ``0 .. num_actions - 1`` (``"out-of-range"``) or
                not in its game's mask (``"illegal-action"``); the message names
                the first such game. Nothing changes.
            TypeError: ``state`` is not a :class:`VectorState`, or ``donate`` not a bool.
            ValueError: ``state`` belongs to another environment, or was donated.
        """
        if donate is not False and donate is not True:  # two identity tests a step
            raise TypeError(f"donate must be a bool, not {type(donate).__name__}")
        if not self._loop.checks_actions:
            acts = self._check(state, actions)
            new = self._advance(state, np.arange(self.num_envs), acts)
        else:
            # The native step refuses an illegal action itself, changing nothing (in
            # place too: every action is checked before any game steps): the mask is
            # looked up only to name the action refused.
            acts = self._check(state, actions, look_up=False)
            in_place = donate and alone(state)
            try:
                new = self._advance_all(state, acts, in_place)
            except ValueError:
                self._check(state, actions)
                _spend(state, in_place)
                raise
            except BaseException:
                _spend(state, in_place)  # a step in place that failed holds no game
                raise
        if donate:
            spend(state)
        return new

    def play_opponents(
        self,
        state: VectorState,
        opponent: str | BatchedPolicy,
        seats: Any,
        *,
        seed: int = 0,
    ) -> VectorState:
        """Let ``opponent`` decide in every game until seat ``seats[i]`` decides (or it ends).

        Args:
            state: a state of this environment.
            opponent: ``"random"`` or ``"greedy"`` (the rules of
                :class:`pacru.bots.RandomBot` and :class:`pacru.bots.GreedyBot`,
                played natively and batched for a chevron game on the native
                engine), or a :data:`BatchedPolicy` called with the rows where
                an opponent decides (for self-play: the learner's own policy or a
                frozen copy), once per decision, with a read-only mask.
            seats: the learner's seat in each game, int ``(num_envs,)``.
            seed: the bots' seed (an integer): the move at ply ``p`` of episode
                ``e`` of env ``i`` is drawn from a stream of ``(seed, i, e, p)``
                only (SplitMix64 for the native bots, :class:`random.Random` for
                the Python ones: the engines draw other moves). A move under way
                that no bot began (an opponent's decision taken with
                :meth:`step`) is finished first by a built-in bot, each
                of its decisions a uniformly random action of the mask
                (:meth:`random_actions` of a seed drawn from ``seed``).

        Returns:
            The state where every game is at a decision of its learner's seat or
            has ended; in ``"same-step"`` mode a game that ends in the
            opponents' moves restarts (the opponents play on in the new game)
            and the returned state shows that end in ``rewards``,
            ``terminated`` and ``truncated``, added to ``state``'s own.

        Raises:
            IllegalMoveError: the policy returned an illegal action (no game changes).
            ValueError: an unknown bot name, ``seats`` of the wrong shape or
                outside ``0 .. players - 1``, or ``state`` of another environment.
            TypeError: ``seed`` is not an integer, or ``state`` not a :class:`VectorState`.
        """
        from pacru.vector.play import play_opponents

        return play_opponents(self, state, opponent, seats, seed)

    def random_actions(self, state: VectorState, seed: int) -> npt.NDArray[np.int64]:
        """A uniformly random action of every game's mask: int64 ``(num_envs,)``.

        Game ``i`` takes the ``floor(u * count)``-th (ascending) of the ``count``
        True actions of its mask, ``u`` in [0, 1) a hash of ``seed`` and ``i`` only:
        the same actions on both engines and for every thread count. Pass a new seed
        at each step (for instance from a ``numpy.random.Generator``). On the native
        engine the draws are made without the GIL on the env's threads, from each
        game's legal actions (a random player or rollout in whole-array calls).

        Raises:
            TypeError: ``seed`` is not an integer, or ``state`` not a :class:`VectorState`.
            ValueError: ``state`` belongs to another environment.
        """
        check_state(self, state)
        seed = operator.index(seed)
        return self._loop.random_actions(
            state._games, lambda: state.legal_action_mask, state.current_player, seed
        )

    def step_rows(self, state: VectorState, rows: Any, actions: Any) -> VectorState:
        """The state after one decision in the games of ``rows`` only: ``actions[j]`` in game
        ``rows[j]``. Every other game keeps its position and arrays (an end shown there stays
        shown); the games of ``rows`` step and restart as in :meth:`step` (Python bots or a
        policy deciding in some games, the others waiting). ``state`` is unchanged.

        Args:
            state: a state of this environment.
            rows: game indices in ascending order, each at most once: integers ``(k,)``
                (``k`` may be 0: the state itself is returned).
            actions: integers ``(k,)``, as :meth:`step` takes them.

        Raises:
            IllegalMoveError: as :meth:`step`, naming the game (``rows[j]``); nothing changes.
            ValueError: ``rows`` is not ascending, repeats a game or is out of
                ``0 .. num_envs - 1``, or ``state`` belongs to another environment.
            TypeError: ``rows`` is not integers, or ``state`` not a :class:`VectorState`.
        """
        check_state(self, state)
        picked = checks.check_rows(rows, self.num_envs)
        acts = checks.check_actions(actions, len(picked), self.num_actions, rows=picked)
        if not len(picked):
            return state
        checks.check_legal(state.legal_action_mask[picked], acts, self.encoding, rows=picked)
        return self._advance(state, picked, acts)

    @property
    def plays_bots_natively(self) -> bool:
        """Whether the built-in bots of :meth:`play_opponents` (``"random"``, ``"greedy"``)
        play natively, every game's moves in one call on the env's threads: a chevron
        game on the native engine (else they play as :class:`pacru.bots.RandomBot` and
        :class:`pacru.bots.GreedyBot`, the same moves)."""
        return isinstance(self._loop, BotLoop)

    def position(self, state: VectorState, env: int) -> GameState[Any]:
        """The :class:`pacru.GameState` of game ``env``: the position moved in, or the final one."""
        return self._loop.position(check_state(self, state)._games, self._row(env))

    def prefix(self, state: VectorState, env: int) -> tuple[int, ...]:
        """The actions already chosen in the move under way in game ``env`` (empty at its end)."""
        return self._loop.prefix(check_state(self, state)._games, self._row(env))

    # -- internals ------------------------------------------------------------------------

    def _row(self, env: int) -> int:
        row = operator.index(env)
        if not 0 <= row < self.num_envs:
            raise IndexError(f"env must be 0..{self.num_envs - 1}, not {env!r}")
        return row

    def _check(
        self, state: VectorState, actions: Any, look_up: bool = True
    ) -> npt.NDArray[np.intp]:
        """``actions`` as an intp array, once every action is legal in its game (its shape
        and type only, and the range of any but an intp array, without ``look_up``: for
        the native step, which refuses an illegal action itself)."""
        check_state(self, state)
        acts = checks.check_actions(actions, self.num_envs, self.num_actions, ranges=look_up)
        if look_up:
            checks.check_legal(state.legal_action_mask, acts, self.encoding)
        return acts

    def _advance(
        self, state: VectorState, rows: npt.NDArray[np.intp], acts: npt.NDArray[np.intp]
    ) -> VectorState:
        """Step the games of ``rows`` with checked ``acts``; the other rows stay as they are."""
        if len(rows) == self.num_envs:
            return self._advance_all(state, acts)
        if self.autoreset_mode == "same-step":
            restart = np.zeros(len(rows), dtype=np.bool_)
        else:
            restart = state.terminated[rows] | state.truncated[rows]
        episode = state.episode.copy()
        episode[rows] += restart
        steps = state.step_count.copy()
        steps[rows] = np.where(restart, 0, steps[rows] + 1)
        games, frame = self._loop.step(state._games, rows, acts, restart, state.seed, episode[rows])
        if len(rows) != self.num_envs:
            frame = checks.merge(state, rows, frame)
        return self._state(frame, steps, episode, state.seed, games, stepped=rows)

    def _advance_all(
        self, state: VectorState, acts: npt.NDArray[np.intp], in_place: bool = False
    ) -> VectorState:
        """Step every game with checked ``acts``: one call of the loop, which counts each
        game's decisions and episodes too (stepping ``state``'s own games ``in_place``
        where the loop can: ``state`` is then spent)."""
        same_step = self.autoreset_mode == "same-step"
        restart = None if same_step else state.terminated | state.truncated
        # The loop restarts the games that end itself when nothing else may end a game here
        # (a max_steps cut, handled in _state).
        renew = same_step and self.max_steps is None
        order = Advance(
            acts, restart, renew, state.seed, state.step_count, state.episode, in_place
        )
        done = self._loop.advance(state._games, order)
        if done.ended is not None:  # the loop restarted them: its ended games hold them
            frame = done.frame
            rows = np.flatnonzero(frame.terminated | frame.truncated)
            if rows.size:
                self._restarting(done.ended, rows, np.arange(rows.size))
        return self._state(
            done.frame, done.steps, done.episodes, state.seed, done.games, renewed=done.renewed
        )

    def _state(
        self,
        frame: Frame,
        steps: npt.NDArray[np.int32],
        episode: npt.NDArray[np.int64],
        seed: int,
        games: Games,
        stepped: npt.NDArray[np.intp] | None = None,
        renewed: bool = False,
    ) -> VectorState:
        """The state of ``frame``: ``max_steps`` cuts applied, then, in ``"same-step"``
        mode, the games of ``stepped`` (default every row) that ended restarted (unless
        the loop ``renewed`` them already)."""
        if self.max_steps is not None:
            cut = (steps >= self.max_steps) & ~frame.terminated & ~frame.truncated
            if cut.any():
                if frame.legal_action_mask is not None:
                    frame.legal_action_mask[cut] = True
                frame.current_player[cut] = -1
                frame.truncated[cut] = True
        if self.autoreset_mode == "same-step" and not renewed:
            ended = frame.terminated | frame.truncated
            if stepped is not None and len(stepped) != self.num_envs:
                ended &= np.isin(np.arange(self.num_envs), stepped)
            if ended.any():
                games, frame = self._restart(games, frame, np.flatnonzero(ended), seed, episode)
                steps[ended] = 0
        ro = read_only
        flags = ro(frame.current_player), ro(frame.rewards), ro(frame.terminated)
        state = VectorState(*flags, ro(frame.truncated), ro(steps), ro(episode), seed, games, self)
        if frame.legal_action_mask is not None:
            state._masked.append(read_only(frame.legal_action_mask))
        return state

    def _restart(
        self,
        games: Games,
        frame: Frame,
        rows: npt.NDArray[np.intp],
        seed: int,
        episode: npt.NDArray[np.int64],
    ) -> tuple[Games, Frame]:
        """Same-step auto-reset: the games of ``rows`` start their next episode; the frame
        keeps their end's rewards and flags, with the new games' masks and players."""
        self._restarting(games, rows, rows)
        episode[rows] += 1
        restart = np.ones(len(rows), dtype=np.bool_)
        games, fresh = self._loop.step(games, rows, rows, restart, seed, episode[rows])
        if frame.legal_action_mask is not None:  # else made from the new games when read
            frame.legal_action_mask[rows] = fresh.legal_action_mask
        frame.current_player[rows] = fresh.current_player
        return games, frame

    def _restarting(
        self, games: Games, rows: npt.NDArray[np.intp], at: npt.NDArray[np.intp]
    ) -> None:
        """Called as the games of ``rows`` restart in ``"same-step"`` mode, game ``rows[j]``
        as it ended being game ``at[j]`` of ``games`` (the step's own games, or the ended
        games a loop or a fused step handed back): a subclass's hook
        (``pacru.vector.final.KeepingEnv`` keeps them for their last positions)."""

    def __repr__(self) -> str:
        dtype = self.observation_dtype.name
        return (
            f"VectorEnv({self.game!r}, players={self.players}, num_envs={self.num_envs}, "
            f"max_steps={self.max_steps}, opening_plies={self.opening_plies}"
            + ("" if self.autoreset_mode == "same-step" else ", autoreset_mode='next-step'")
            + ("" if self.observation_dtype == np.float32 else f", observation_dtype='{dtype}'")
            + "".join(f", {k}={v!r}" for k, v in self.encoding.options.items())
            + ")"
        )


def _spend(state: VectorState, donated: bool) -> None:
    """Mark ``state`` donated where it was (see :meth:`VectorEnv.step`)."""
    if donated:
        spend(state)


def _restore_env(*args: Any) -> VectorEnv:
    """The environment of ``VectorEnv._args`` (how a pickled ``VectorEnv`` is rebuilt)."""
    names = ("max_steps", "opening_plies", "autoreset_mode", "num_threads", "observation_dtype")
    kwargs: dict[str, Any] = dict(zip(names, args[3:8], strict=True)) | dict(args[8])
    game, players, num_envs = args[:3]
    return VectorEnv(game, players, num_envs, **kwargs)


def _restore_state(
    env: VectorEnv,
    arrays: tuple[npt.NDArray[Any], ...],
    seed: int,
    games: list[Played],
) -> VectorState:
    """A pickled :class:`VectorState`: its arrays, and its games replayed from their positions
    (``ValueError`` for a pickle that does not fit ``env``)."""
    replayed = _check_pickle(env, arrays, seed, games)
    mask, player, rewards, terminated, truncated, steps, episode = (a.copy() for a in arrays)
    state = VectorState(
        read_only(player),
        read_only(rewards),
        read_only(terminated),
        read_only(truncated),
        read_only(steps),
        read_only(episode),
        seed,
        replayed,
        env,
    )
    state._masked.append(read_only(mask))
    return state


def _check_pickle(env: object, arrays: Any, seed: Any, games: Any) -> Games:
    """The games of a pickled :class:`pacru.vector.VectorState` of ``env``, replayed,
    once its arrays, seed and games fit ``env`` (a pickle doctored or of another
    version is refused, not restored half-way).

    Raises:
        ValueError: an array of the wrong dtype or shape, a seed that is not an
            integer, an environment that is not a ``VectorEnv``, not one
            ``(position, actions)`` pair per game, a position of
            another game, player count or options, or actions its move cannot take.
    """
    if not isinstance(env, VectorEnv):
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
    for state, prefix in (_game(game) for game in games):
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


def _game(game: Any) -> Played:
    """A pickled game, ``(position, actions of the move under way)``, once it is one."""
    if not (isinstance(game, tuple) and len(game) == 2):
        raise _doctored(f"a (position, actions) pair expected, not {game!r}")
    state, prefix = game
    if not isinstance(state, GameState) or not isinstance(prefix, tuple):
        raise _doctored(f"a (position, actions) pair expected, not {game!r}")
    return state, prefix


def _doctored(reason: str) -> ValueError:
    return ValueError(f"this VectorState pickle does not fit its VectorEnv: {reason}")
