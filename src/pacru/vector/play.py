"""Opponents in a :class:`pacru.vector.VectorEnv`: built-in bots, batched policies, seats.

:func:`play_opponents` lets the opponents of a learner decide in every game of a
batch until the learner's seat decides; :meth:`pacru.vector.VectorEnv.play_opponents`
and :class:`pacru.gymnasium_vector.PacruVectorEnv` call it. The built-in
``"random"`` and ``"greedy"`` bots play natively and batched (one call for every
game's moves) for a chevron game on the native engine, and as
:class:`pacru.bots.RandomBot` and :class:`pacru.bots.GreedyBot` otherwise; a batched
policy is called with the rows where an opponent decides, once per decision.

Every draw of a bot comes from a stream of the seed, the env's row, its episode and
the ply only (:func:`game_seeds`), so the same seed gives the same games whatever
the thread count or the order the games restart in; :func:`draw_seats` draws a
learner's seat per game the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from pacru._integers import integer
from pacru.errors import IllegalMoveError
from pacru.vector.draws import game_seeds, hash_base
from pacru.vector.loop import BotLoop, Frame
from pacru.vector.state import alone, check_state, spend

if TYPE_CHECKING:
    from pacru.vector.env import BatchedPolicy, VectorEnv
    from pacru.vector.state import VectorState

__all__ = [
    "BUILT_IN",
    "Ends",
    "Turn",
    "draw_seats",
    "fused_step",
    "game_seeds",
    "native_bots",
    "play_opponents",
]

#: The bots played natively and batched.
BUILT_IN: Final = ("random", "greedy")
#: The salt of :func:`finish_seed` (:func:`game_seeds`' others: 0 bots, 1 seats, 2 uniforms).
FINISH_SALT: Final = 3


def draw_seats(seed: int, episodes: npt.NDArray[np.int64], players: int) -> npt.NDArray[np.int32]:
    """A learner's seat (``0 .. players - 1``) per game, drawn from ``seed``, row and episode."""
    seats: npt.NDArray[np.int32] = (game_seeds(seed, episodes, salt=1) % np.uint64(players)).astype(
        np.int32
    )
    return seats


def _refuse(message: str) -> IllegalMoveError:
    return IllegalMoveError(message, rule="encoding", reason="illegal-action")


def play_opponents(
    env: VectorEnv,
    state: VectorState,
    opponent: str | BatchedPolicy,
    seats: Any,
    seed: int,
    drawn: int | None = None,
) -> VectorState:
    """:meth:`pacru.vector.VectorEnv.play_opponents` (see there); with ``drawn``, the
    learner's seat of each game is :func:`draw_seats` of ``drawn`` and its episode,
    drawn again whenever a game restarts (``seats`` then unused)."""
    check_state(env, state)
    number = integer(seed)
    if number is None:
        raise TypeError(f"seed must be an integer, not {type(seed).__name__} ({seed!r})")
    seed = number
    if drawn is not None:
        seats = draw_seats(drawn, state.episode, env.players)
    seat = np.asarray(seats)
    if seat.shape != (env.num_envs,):
        raise ValueError(f"seats must have shape ({env.num_envs},), not {seat.shape}")
    if seat.dtype.kind not in "iu" or not ((seat >= 0) & (seat < env.players)).all():
        raise ValueError(f"seats must be integers 0 to {env.players - 1}, not {seats!r}")
    seat = seat.astype(np.int32)
    if isinstance(opponent, str) and opponent not in BUILT_IN:
        raise ValueError(
            f"opponent must be 'random', 'greedy' or a batched policy, not {opponent!r}"
        )
    if not isinstance(opponent, str) and not callable(opponent):
        raise TypeError(f"opponent must be 'random', 'greedy' or a callable, not {opponent!r}")
    ends = Ends(state)
    first = state
    pending: dict[int, list[int]] = {}
    #: Rows whose move under way no bot began (the native bots leave them as they are).
    stuck = rows = np.flatnonzero(np.zeros(0, dtype=np.bool_))
    finished = 0  # the decisions of such moves taken (all begin before the bots play)
    while True:
        if drawn is not None:  # a restarted game's learner has its new episode's seat
            seat = draw_seats(drawn, state.episode, env.players)
        rows = np.flatnonzero((state.current_player >= 0) & (state.current_player != seat))
        if not rows.size:
            break
        before = state
        if stuck.size:
            finished += 1
            draws = env.random_actions(state, finish_seed(seed, finished))
            state = env.step_rows(state, stuck, draws[stuck].astype(np.intp))
            stuck = stuck[:0]
        elif isinstance(opponent, str) and env.plays_bots_natively and not pending:
            # The first state is the caller's; those made here may be stepped in place.
            state = native_bots(env, state, opponent, seat, seed, donate=before is not first)
            same = (state.step_count == before.step_count) & (state.episode == before.episode)
            stuck = rows[same[rows]]
        elif isinstance(opponent, str):
            state, drew = _python_bots(env, state, rows, opponent, (seed, finished + 1), pending)
            finished += drew
        else:
            state = _policy(env, state, rows, opponent)
        for row in ends.add(before, state).tolist():
            pending.pop(row, None)
    return ends.shown(state)


class Ends:
    """The ends of games met while opponents play, kept for the state returned.

    In ``"same-step"`` mode a game that ends restarts at once, so the state after
    further decisions no longer shows that end: :meth:`add` records the rewards
    and flags of every game whose episode changed, and :meth:`shown` puts them
    (with those of the first state) into the last state. In ``"next-step"`` mode
    an end stays shown by itself and :meth:`shown` returns the state as it is.
    """

    def __init__(self, first: VectorState) -> None:
        self.same_step = first.env.autoreset_mode == "same-step"
        # Next-step mode records nothing: the first state's arrays serve as they are.
        copy = np.copy if self.same_step else np.asarray
        self.rewards = copy(first.rewards)
        self.terminated = copy(first.terminated)
        self.truncated = copy(first.truncated)
        self.restarts = np.zeros(len(first.rewards) if self.same_step else 0, dtype=np.int64)

    def add(self, before: VectorState, after: VectorState) -> npt.NDArray[np.intp]:
        """Record the ends between two states; the rows that restarted (same-step)."""
        if not self.same_step:
            return np.flatnonzero(np.zeros(0, dtype=np.bool_))
        ended = after.episode != before.episode
        self.restarts += ended
        if (self.restarts > 1).any():
            # Only a max_steps cut inside the opponents' moves restarts a game twice: with
            # such a limit the learner might never decide again.
            raise ValueError(
                f"max_steps={after.env.max_steps} cuts the games before the learner decides: "
                "the opponents' moves take more decisions than that"
            )
        self.rewards[ended] = after.rewards[ended]
        self.terminated[ended] = after.terminated[ended]
        self.truncated[ended] = after.truncated[ended]
        return np.flatnonzero(ended)

    def shown(self, state: VectorState) -> VectorState:
        """``state`` with the recorded ends (same-step), or ``state`` itself."""
        if not self.same_step:
            return state
        shown = attrs.evolve(
            state,
            rewards=_frozen(self.rewards),
            terminated=_frozen(self.terminated),
            truncated=_frozen(self.truncated),
        )
        shown._masked.extend(state._masked)  # the same games: the mask, if made, holds
        return shown


def _frozen(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    array.setflags(write=False)
    return array


@attrs.frozen
class Turn:
    """What every game's learner step against a built-in bot shares
    (``pacru.vector.native.NativeLoop.learner_step``): the reset rule, the
    ``max_steps`` cut, the learner's seat (-1: drawn per game and episode from
    ``seat_base``, as :func:`draw_seats`), the bot, the hash base of its draws
    (:func:`pacru.vector.draws.hash_base`) and the observation dtype."""

    same_step: bool
    max_steps: int | None
    seat: int
    seat_base: int
    bot: str
    bot_base: int
    dtype: np.dtype[Any]
    #: ``dtype``'s name, as the native call takes it (numpy computes ``dtype.name`` in
    #: Python at every read: a few microseconds a step).
    dtype_name: str = attrs.field(init=False)

    @dtype_name.default
    def _dtype_name(self) -> str:
        return self.dtype.name


def fused_step(
    env: VectorEnv, state: VectorState, actions: Any, turn: Turn, *, donate: bool = False
) -> tuple[VectorState, npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """:meth:`pacru.vector.VectorEnv.step` with ``actions`` then the built-in bot's moves
    until the learner decides again (:func:`play_opponents`, or :func:`native_bots` in
    next-step mode), in one native call: the same state (observation made), the
    learner's rewards (float32, its seat of the episode it decided in) and its seats now
    (int64), both new arrays. With ``donate`` the caller hands ``state`` over (as
    :meth:`pacru.vector.VectorEnv.step`'s ``donate``): its games step in place where
    nothing else holds them and no game can be cut twice (:func:`_no_second_cut`), and
    ``state`` is then spent.

    Raises:
        IllegalMoveError: as :meth:`pacru.vector.VectorEnv.step` (no game changes).
        ValueError: ``max_steps`` cuts a game twice in the bots' moves.
    """
    acts = env._check(state, actions, look_up=False)
    restart = None if turn.same_step else state.terminated | state.truncated
    in_place = donate and alone(state) and _no_second_cut(env, turn)
    try:
        games, frame, arrays, ended = _bot_loop(env).learner_step(
            state._games, acts, restart, (state.step_count, state.episode), turn, in_place
        )
    except ValueError:
        env._check(state, actions)  # names the illegal action, if that was the error
        if in_place:  # the action was legal: the games stepped, some of them
            spend(state)
        raise
    except BaseException:
        if in_place:  # a step in place that failed holds no game
            spend(state)
        raise
    if in_place:
        spend(state)
    if turn.same_step:  # the games that ended restarted: the step handed them back
        rows = np.flatnonzero(frame.terminated | frame.truncated)
        if rows.size:
            env._restarting(ended, rows, np.arange(rows.size))
    steps, episodes, rewards, seats, observation = arrays
    after = type(state)(
        _frozen(frame.current_player),
        _frozen(frame.rewards),
        _frozen(frame.terminated),
        _frozen(frame.truncated),
        _frozen(steps),
        _frozen(episodes),
        state.seed,
        games,
        env,
    )
    if frame.legal_action_mask is not None:
        after._masked.append(_frozen(frame.legal_action_mask))
    after._observed.append(_frozen(observation))
    return after, rewards, seats


def native_bots(
    env: VectorEnv,
    state: VectorState,
    bot: str,
    seat: npt.NDArray[np.int32],
    seed: int,
    *,
    donate: bool = False,
) -> VectorState:
    """Every game's bot moves in one native call (the native loop only). With ``donate``
    the caller hands ``state`` over: its games play in place where nothing else holds
    them, and ``state`` is then spent."""
    idle = np.flatnonzero(state.current_player < 0)  # an end shown, a max_steps cut
    if env.max_steps is None:
        budgets = np.full(env.num_envs, np.iinfo(np.uint32).max, dtype=np.uint32)
    else:
        budgets = np.maximum(env.max_steps - state.step_count, 0).astype(np.uint32)
    budgets[idle] = 0
    in_place = donate and alone(state)
    # Rows without a decision keep their arrays (read now: the mask, if not made yet, is
    # made from the games, which a step in place changes).
    fields = attrs.fields(Frame) if idle.size else ()
    kept = [(field.name, getattr(state, field.name)[idle]) for field in fields]
    try:
        games, frame, taken = _bot_loop(env).play_bots(
            state._games, seat, bot, seed, state.episode, budgets, in_place
        )
    finally:
        if in_place:  # played (or, after an error, holding no game)
            spend(state)
    steps = state.step_count + taken.view(np.int32)  # decisions, int32 as step_count
    if not idle.size:
        return env._state(frame, steps, state.episode.copy(), state.seed, games)
    for name, values in kept:
        getattr(frame, name)[idle] = values
    rows = np.flatnonzero(state.current_player >= 0)
    return env._state(frame, steps, state.episode.copy(), state.seed, games, stepped=rows)


def _no_second_cut(env: VectorEnv, turn: Turn) -> bool:
    """Whether no game of a learner step can end twice (``ValueError``, raised once some
    games have stepped, which a step in place cannot undo): in next-step mode, or where
    neither ``max_steps`` nor the move cap can cut the bots' moves after a restart (at
    most ``players - 1`` moves of ``max_decisions`` decisions each)."""
    if not turn.same_step:
        return True
    before = env.players - 1
    cap = env.encoding.options.get("move_cap")
    return (turn.max_steps is None or turn.max_steps > before * env.encoding.max_decisions) and (
        not isinstance(cap, int) or cap > before
    )


def _bot_loop(env: VectorEnv) -> BotLoop:
    """``env``'s loop, once it plays the built-in bots natively."""
    if not isinstance(env._loop, BotLoop):
        raise ValueError("the built-in bots play natively on a chevron game, native engine only")
    return env._loop


def finish_seed(seed: int, decision: int) -> int:
    """The seed of :meth:`pacru.vector.VectorEnv.random_actions` that draws the
    ``decision``-th (1 first) decision finishing, in a :func:`play_opponents` call, the
    moves under way that no bot began (every engine: the same draws from the same state)."""
    return hash_base(seed, FINISH_SALT + decision)


def _python_bots(
    env: VectorEnv,
    state: VectorState,
    rows: npt.NDArray[np.intp],
    bot: str,
    seeded: tuple[int, int],
    pending: dict[int, list[int]],
) -> tuple[VectorState, bool]:
    """One decision of a Python :class:`pacru.bots.RandomBot` or ``GreedyBot`` in each row
    (``seeded``: the seed and the decision of :func:`finish_seed`); a move under way that
    no bot began is finished by uniformly random decisions. The state, and whether such a
    decision was drawn."""
    from pacru.bots.spec import make_bot

    seed, decision = seeded
    seeds = game_seeds(seed, state.episode)
    draws = None
    actions = []
    for row in rows.tolist():
        queue = pending.get(row)
        if not queue and env.prefix(state, row):
            if draws is None:
                draws = env.random_actions(state, finish_seed(seed, decision))
            actions.append(int(draws[row]))
            continue
        if not queue:
            position = env.position(state, row)
            player = make_bot(bot, seed=int(seeds[row]) ^ position.ply)
            move = player.choose_move(position)
            queue = pending[row] = list(env.encoding.actions(position, move))
        actions.append(queue.pop(0))
        if not queue:
            del pending[row]
    return env.step_rows(state, rows, np.array(actions, dtype=np.intp)), draws is not None


def _policy(
    env: VectorEnv, state: VectorState, rows: npt.NDArray[np.intp], policy: BatchedPolicy
) -> VectorState:
    """One decision of the batched ``policy`` in each row, checked against the masks (the
    policy is given a read-only copy: what it writes there cannot pass an action)."""
    given = state.legal_action_mask[rows]
    given.setflags(write=False)
    actions = np.asarray(policy(state.observation[rows], given.view()))
    mask = state.legal_action_mask[rows]
    if actions.shape != (len(rows),) or actions.dtype.kind not in "iu":
        raise _refuse(
            f"the opponent policy must return {len(rows)} integer actions, "
            f"not {actions.dtype} of shape {actions.shape}"
        )
    inside = (actions >= 0) & (actions < env.num_actions)
    legal = inside & mask[np.arange(len(rows)), np.where(inside, actions, 0)]
    if not legal.all():
        j = int(np.flatnonzero(~legal)[0])
        raise _refuse(
            f"game {int(rows[j])}: the opponent policy's action {int(actions[j])} "
            "is not legal in its decision"
        )
    return env.step_rows(state, rows, actions.astype(np.intp))
