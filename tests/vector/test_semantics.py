"""pacru.vector's contract: auto-reset, seeding, illegal actions, read-only and immutable states."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import attrs
import numpy as np
import pytest

import pacru
from pacru.bots import sample_move
from pacru.chevron.engine import ENGINE
from pacru.encoding import Encoding
from pacru.vector import STATE_ARRAYS, VectorEnv, VectorState

from .support import play_until_an_end, random_actions

ARRAYS = ("observation", *STATE_ARRAYS)


def _snapshot(state: VectorState) -> dict[str, Any]:
    return {name: getattr(state, name).copy() for name in ARRAYS}


def _same(state: VectorState, snapshot: dict[str, Any]) -> bool:
    return all(np.array_equal(getattr(state, name), snapshot[name]) for name in ARRAYS)


def test_init_gives_the_start_of_every_game() -> None:
    env = VectorEnv("shacru", players=3, num_envs=4)
    state = env.init(seed=0)
    start = pacru.new_game("shacru", 3)
    enc = Encoding.of(start)
    decision = enc.start(start)
    assert state.observation.shape == (4, 64, 9, 9)
    assert state.observation.dtype == np.float32
    assert state.legal_action_mask.shape == (4, 415)
    assert state.legal_action_mask.dtype == np.bool_
    assert state.current_player.tolist() == [0, 0, 0, 0]
    assert state.current_player.dtype == np.int32
    assert state.rewards.shape == (4, 3)
    assert state.rewards.dtype == np.float32
    assert state.terminated.tolist() == state.truncated.tolist() == [False] * 4
    assert state.step_count.tolist() == state.episode.tolist() == [0, 0, 0, 0]
    for i in range(4):
        assert np.array_equal(state.observation[i], enc.observation(decision, 0))
        assert np.flatnonzero(state.legal_action_mask[i]).tolist() == list(decision.legal_actions)
        assert env.position(state, i) == start


def test_an_end_shows_once_then_the_game_restarts_ignoring_its_action() -> None:
    env = VectorEnv("pacru", players=2, num_envs=4, move_cap=6, autoreset_mode="next-step")
    before, end = play_until_an_end(env, seed=1)
    done = np.flatnonzero(end.ended)
    i = int(done[0])
    final = env.position(end, i)
    assert final.outcome is not None
    assert final.outcome.termination is pacru.Termination.MOVE_CAP
    assert end.truncated[i]
    assert not end.terminated[i]
    assert end.rewards[i].tolist() == list(final.returns()) == [0.0, 0.0]
    assert end.current_player[i] == -1
    assert end.legal_action_mask[i].all()
    assert not end.observation[i].any()
    assert end.step_count[i] == before.step_count[i] + 1
    # Any action in range is accepted at an end, and ignored: the game restarts.
    rng = np.random.default_rng(2)
    for action in (0, 414, 300):
        actions = random_actions(end, rng)
        actions[done] = action
        restarted = env.step(end, actions)
        assert not restarted.ended[done].any()
        assert restarted.episode[done].tolist() == [1] * len(done)
        assert restarted.step_count[done].tolist() == [0] * len(done)
        assert np.array_equal(restarted.rewards[done], np.zeros((len(done), 2)))
        start = env.init(0)
        assert np.array_equal(restarted.observation[done], start.observation[done])
        assert np.array_equal(restarted.legal_action_mask[done], start.legal_action_mask[done])
        assert env.position(restarted, i) == pacru.new_game("pacru", 2, move_cap=6)


def test_a_game_ended_by_the_rules_is_terminated_with_its_returns() -> None:
    # Lilacru: a random game ends by the rules (ruling D33's idle rounds truncate instead).
    env = VectorEnv("lilacru", players=2, num_envs=8, autoreset_mode="next-step")
    _, end = play_until_an_end(env, seed=0)
    for i in np.flatnonzero(end.ended):
        final = env.position(end, int(i))
        assert final.outcome is not None
        truncated = final.outcome.termination in {
            pacru.Termination.MOVE_CAP,
            pacru.Termination.IDLE_LIMIT,
        }
        assert (bool(end.terminated[i]), bool(end.truncated[i])) == (not truncated, truncated)
        assert end.rewards[i].tolist() == list(final.returns())
    assert end.terminated.any()
    assert sorted(end.rewards[end.terminated].sum(axis=1).tolist()) == [0.0] * int(
        end.terminated.sum()
    )


def test_max_steps_truncates_after_that_many_decisions() -> None:
    env = VectorEnv("pacru", players=2, num_envs=3, max_steps=5, autoreset_mode="next-step")
    rng = np.random.default_rng(0)
    state = env.init()
    for expected in range(1, 5):
        state = env.step(state, random_actions(state, rng))
        assert state.step_count.tolist() == [expected] * 3
        assert not state.ended.any()
    state = env.step(state, random_actions(state, rng))
    assert state.truncated.all()
    assert not state.terminated.any()
    assert not state.rewards.any()
    assert not state.observation.any()
    assert state.legal_action_mask.all()
    assert state.current_player.tolist() == [-1, -1, -1]
    assert env.position(state, 0).outcome is None  # stopped by the environment, not the rules
    state = env.step(state, [0, 1, 2])
    assert state.episode.tolist() == [1, 1, 1]
    assert state.step_count.tolist() == [0, 0, 0]
    assert not state.ended.any()


def _run(env: VectorEnv, seed: int, steps: int) -> list[Any]:
    rng = np.random.default_rng(99)
    state = env.init(seed)
    trace = []
    for _ in range(steps):
        trace.append((state.observation.tobytes(), state.rewards.tobytes(), state.episode.tolist()))
        state = env.step(state, random_actions(state, rng))
    return trace


def test_the_same_seed_gives_the_same_games() -> None:
    env = VectorEnv("azacru", players=2, num_envs=4, move_cap=6, opening_plies=3)
    first = _run(env, seed=5, steps=40)
    assert first[-1][2] != [0, 0, 0, 0], "games restarted"
    assert _run(env, seed=5, steps=40) == first
    assert _run(VectorEnv("azacru", 2, 4, move_cap=6, opening_plies=3), 5, 40) == first
    assert _run(env, seed=6, steps=40) != first


def test_openings_are_random_moves_from_each_games_own_stream() -> None:
    env = VectorEnv("shacru", players=2, num_envs=3, opening_plies=4)
    state = env.init(seed=11)
    for i in range(3):
        expected = pacru.new_game("shacru", 2)
        rng = random.Random(f"pacru.vector/11/{i}/0")
        for _ in range(4):
            expected = expected.apply_move(sample_move(expected, rng))
        assert env.position(state, i) == expected
        assert env.position(state, i).ply == 4
    assert len({env.position(state, i) for i in range(3)}) == 3


def test_without_an_opening_every_game_starts_alike_whatever_the_seed() -> None:
    env = VectorEnv("pacru", players=2, num_envs=2)
    assert np.array_equal(env.init(1).observation, env.init(2).observation)
    assert env.init(3).seed == 3


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
)
def test_every_integer_dtype_is_an_action(dtype: Any) -> None:
    env = VectorEnv("shacru", players=2, num_envs=2)
    state = env.init()
    legal = [int(np.flatnonzero(state.legal_action_mask[i])[0]) for i in range(2)]
    expected = env.step(state, np.array(legal, dtype=np.int64))
    after = env.step(state, np.array(legal, dtype=dtype))
    assert np.array_equal(after.observation, expected.observation)
    assert [env.prefix(after, i) for i in range(2)] == [(legal[0],), (legal[1],)]


def test_lists_of_python_and_numpy_ints_are_actions() -> None:
    env = VectorEnv("shacru", players=2, num_envs=2)
    state = env.init()
    a = int(np.flatnonzero(state.legal_action_mask[0])[0])
    for actions in ([a, a], [np.int16(a), a], (np.uint64(a), np.int8(a))):
        assert env.prefix(env.step(state, actions), 1) == (a,)


BAD_ACTIONS: list[tuple[Any, str, str]] = [
    ([1, 2], "action-shape", r"shape \(3,\), not \(2,\)"),
    ([[1, 2, 3]], "action-shape", r"shape \(3,\), not \(1, 3\)"),
    (5, "action-shape", r"shape \(3,\), not \(\)"),
    ([[1, 2], [3], 4], "action-shape", r"shape \(3,\), not a ragged nesting"),
    ([1.0, 2.0, 3.0], "action-type", r"integers, not float \(game 0: 1\.0\)"),
    (np.array([1, 2, 3], dtype=np.float32), "action-type", "integers, not float32"),
    ([1, 2**70, 1.5], "action-type", r"integers, not float \(game 2: 1\.5\)"),
    ([1, 2**70, 1], "out-of-range", "game 1: action 1180591620717411303424 is outside"),
    (np.array([True, False, True]), "action-type", r"integers, not bool \(game 0"),
    ([1, True, 2], "action-type", "integers, not bool"),
    (["a", "b", "c"], "action-type", r"integers, not str \(game 0: .a.\)"),
    ([1, None, 3], "action-type", r"integers, not NoneType \(game 1: None\)"),
    ([0, 415, 0], "out-of-range", r"game 1: action 415 is outside 0\.\.414"),
    ([0, 0, -1], "out-of-range", r"game 2: action -1 is outside 0\.\.414"),
    (np.array([0, 0, 2**64 - 1], dtype=np.uint64), "out-of-range", "game 2: action 1844"),
    # An intp array's range is left to the native step, which refuses it and changes nothing.
    (np.array([0, 415, 0], dtype=np.intp), "out-of-range", r"game 1: action 415 is outside"),
    (np.array([0, 0, -1], dtype=np.intp), "out-of-range", r"game 2: action -1 is outside"),
    (np.array([2**40, 0, 0], dtype=np.intp), "out-of-range", r"game 0: action 1099511627776 "),
]


@pytest.mark.parametrize(("actions", "reason", "message"), BAD_ACTIONS)
def test_bad_actions_raise_and_change_no_game(actions: Any, reason: str, message: str) -> None:
    env = VectorEnv("pacru", players=2, num_envs=3)
    state = env.init()
    snapshot = _snapshot(state)
    with pytest.raises(pacru.IllegalMoveError, match=message) as info:
        env.step(state, actions)
    assert (info.value.rule, info.value.reason) == ("encoding", reason)
    assert _same(state, snapshot)


def test_an_illegal_action_in_one_game_changes_no_game() -> None:
    env = VectorEnv("pacru", players=2, num_envs=4, move_cap=6)
    rng = np.random.default_rng(0)
    _, state = play_until_an_end(env, seed=3)
    state = env.step(state, random_actions(state, rng))  # the ended games restart
    positions = [env.position(state, i) for i in range(4)]
    snapshot = _snapshot(state)
    actions = random_actions(state, rng)
    illegal = int(np.flatnonzero(~state.legal_action_mask[2])[0])
    actions[2] = illegal
    with pytest.raises(pacru.IllegalMoveError, match=rf"game 2: action {illegal} \(") as info:
        env.step(state, actions)
    assert info.value.reason == "illegal-action"
    assert _same(state, snapshot)
    assert [env.position(state, i) for i in range(4)] == positions
    assert env.step(state, random_actions(state, rng)).step_count.tolist() != [0] * 4


@pytest.mark.parametrize("game", ["pacru", "lsd"])
def test_step_rows_steps_those_games_as_step_does_and_leaves_the_others(game: str) -> None:
    env = VectorEnv(game, players=2, num_envs=4)
    rng = np.random.default_rng(1)
    state = env.init(seed=5)
    for _ in range(3):
        state = env.step(state, random_actions(state, rng))
    actions = random_actions(state, rng)
    whole = env.step(state, actions)
    rows = np.array([1, 3])
    part = env.step_rows(state, rows, actions[rows])
    for name in ARRAYS:
        assert np.array_equal(getattr(part, name)[rows], getattr(whole, name)[rows]), name
        assert np.array_equal(getattr(part, name)[[0, 2]], getattr(state, name)[[0, 2]]), name
    assert [env.position(part, i) for i in (1, 3)] == [env.position(whole, i) for i in (1, 3)]
    assert [env.position(part, i) for i in (0, 2)] == [env.position(state, i) for i in (0, 2)]
    assert env.step_rows(state, np.arange(4), actions).equals(whole)
    assert env.step_rows(state, [], []) is state


def test_step_rows_refuses_bad_rows_and_names_the_game_of_an_illegal_action() -> None:
    env = VectorEnv("pacru", players=2, num_envs=4)
    state = env.init()
    snapshot = _snapshot(state)
    illegal = int(np.flatnonzero(~state.legal_action_mask[3])[0])
    legal = int(np.flatnonzero(state.legal_action_mask[1])[0])
    with pytest.raises(pacru.IllegalMoveError, match=rf"game 3: action {illegal} \("):
        env.step_rows(state, [1, 3], [legal, illegal])
    with pytest.raises(pacru.IllegalMoveError, match="game 3: action 9999 is outside"):
        env.step_rows(state, [1, 3], [legal, 9999])
    with pytest.raises(pacru.IllegalMoveError, match=r"actions must have shape \(2,\)"):
        env.step_rows(state, [1, 3], [legal])
    for rows, error, message in [
        ([3, 1], ValueError, "ascending"),
        ([1, 1], ValueError, "ascending"),
        ([0, 4], ValueError, "games 0..3"),
        ([-1, 2], ValueError, "games 0..3"),
        ([[1, 2]], ValueError, "one-dimensional"),
        ([0.0, 1.0], TypeError, "integers"),
    ]:
        with pytest.raises(error, match=message):
            env.step_rows(state, rows, [legal, legal])
    assert _same(state, snapshot)


def test_a_state_of_another_environment_is_refused() -> None:
    env = VectorEnv("pacru", players=2, num_envs=2)
    other = VectorEnv("pacru", players=2, num_envs=2, move_cap=30)
    with pytest.raises(ValueError, match="this state belongs to another VectorEnv"):
        env.step(other.init(), [1, 1])
    # An environment made with the same arguments (an unpickled copy) steps it.
    twin = VectorEnv("pacru", players=2, num_envs=2)
    assert env.step(twin.init(), [19, 19]).step_count.tolist() == [1, 1]


def test_arrays_are_read_only_and_step_leaves_the_old_state_unchanged() -> None:
    env = VectorEnv("azacru", players=3, num_envs=5)
    rng = np.random.default_rng(4)
    state = env.init()
    for _ in range(3):
        snapshot = _snapshot(state)
        after = env.step(state, random_actions(state, rng))
        assert _same(state, snapshot)
        assert not _same(after, snapshot)
        state = after
    for name in ARRAYS:
        array = getattr(state, name)
        assert not array.flags.writeable, name
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.observation = np.zeros(1)  # type: ignore[misc]
    assert copy.copy(state) is state
    assert copy.deepcopy(state) is state


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("pacru", {"move_cap": 6}),  # short games: every step ends some, renewed in the call
        ("pacru", {"move_cap": 6, "autoreset_mode": "next-step"}),
        ("shacru", {"max_steps": 4}),  # cuts, restarted after the step
        ("lsd", {}),
    ],
)
def test_a_donated_step_gives_the_games_a_copying_step_gives(
    game: str, options: dict[str, Any]
) -> None:
    # 130 games on two threads: the native step shares them out (64 a thread at least).
    env = VectorEnv(game, players=2, num_envs=130, num_threads=2, **options)
    rng = np.random.default_rng(6)
    kept, given = env.init(seed=3), env.init(seed=3)
    for _ in range(12):
        actions = random_actions(kept, rng)
        kept = env.step(kept, actions)
        given = env.step(given, actions, donate=True)
        assert given.equals(kept)
        assert np.array_equal(given.observation, kept.observation)
    # The native chevron loop steps a handed-over state's games in place (no copy).
    assert env._loop.in_place_steps == (12 if ENGINE == "native" and game != "lsd" else 0)


def test_a_donated_state_keeps_what_was_read_and_refuses_its_games() -> None:
    env = VectorEnv("pacru", players=2, num_envs=130, num_threads=2, move_cap=6)
    rng = np.random.default_rng(5)
    state = env.init(seed=1)
    for _ in range(8):
        state = env.step(state, random_actions(state, rng))
    held = {name: getattr(state, name) for name in ARRAYS}  # the mask and observation made
    snapshot = _snapshot(state)
    actions = random_actions(state, rng)
    after = env.step(state, actions, donate=True)
    assert env._loop.in_place_steps == (ENGINE == "native")
    assert all(getattr(state, name) is held[name] for name in ARRAYS)
    assert _same(state, snapshot)
    assert not _same(after, snapshot)
    for use in (
        lambda: env.position(state, 0),
        lambda: env.prefix(state, 0),
        lambda: env.step(state, actions),
        lambda: env.random_actions(state, 0),
        lambda: pickle.dumps(state),
    ):
        with pytest.raises(ValueError, match=r"donated to VectorEnv\.step"):
            use()
    # An observation not read before is made from the games: gone with them.
    unread = env.step(after, env.random_actions(after, 1))
    env.step(unread, env.random_actions(unread, 2), donate=True)
    with pytest.raises(ValueError, match="its games are gone"):
        _ = unread.observation


def test_a_state_steps_in_place_only_where_nothing_else_holds_its_games() -> None:
    env = VectorEnv("pacru", players=2, num_envs=130, num_threads=2)
    native = int(ENGINE == "native")
    state = env.step(env.init(seed=2), env.random_actions(env.init(seed=2), 0), donate=True)
    assert env._loop.in_place_steps == native
    games = state._games  # another holder: the step copies the games, these stay
    loop = env._loop
    before = [(loop.position(games, i), loop.prefix(games, i)) for i in (0, 129)]
    after = env.step(state, env.random_actions(state, 1), donate=True)
    assert env._loop.in_place_steps == native
    assert [(loop.position(games, i), loop.prefix(games, i)) for i in (0, 129)] == before
    assert [(env.position(after, i), env.prefix(after, i)) for i in (0, 129)] != before
    del games
    after = env.step(after, env.random_actions(after, 2), donate=True)
    assert env._loop.in_place_steps == 2 * native


def test_a_refused_donation_spends_nothing() -> None:
    env = VectorEnv("pacru", players=2, num_envs=130, num_threads=2)
    state = env.step(env.init(seed=4), env.random_actions(env.init(seed=4), 0))
    positions = [env.position(state, i) for i in range(130)]
    snapshot = _snapshot(state)
    actions = env.random_actions(state, 1)
    illegal = int(np.flatnonzero(~state.legal_action_mask[129])[0])
    actions[129] = illegal
    # The last game is a worker's: every action is checked before any game steps.
    with pytest.raises(pacru.IllegalMoveError, match=rf"game 129: action {illegal} \("):
        env.step(state, actions, donate=True)
    assert _same(state, snapshot)
    assert [env.position(state, i) for i in range(130)] == positions
    with pytest.raises(TypeError, match="donate must be a bool, not int"):
        env.step(state, env.random_actions(state, 1), donate=1)  # type: ignore[arg-type]
    after = env.step(state, env.random_actions(state, 1), donate=True)
    assert after.step_count.tolist() == [2] * 130
    assert env._loop.in_place_steps == (ENGINE == "native")


@pytest.mark.parametrize("game", ["pacru", "lsd"])
def test_the_observation_is_made_at_its_first_read_from_that_states_games(game: str) -> None:
    # Read late, newest state first, each state's observation equals the one a twin
    # environment read at once: it depends on that state alone (max_steps cuts included).
    eager, late = (VectorEnv(game, players=2, num_envs=4, max_steps=5) for _ in range(2))
    rng = np.random.default_rng(11)
    a, b = eager.init(seed=2), late.init(seed=2)
    seen, kept = [], []
    for _ in range(12):
        seen.append(a.observation)
        kept.append(b)
        actions = random_actions(a, rng)
        a, b = eager.step(a, actions), late.step(b, actions)
    assert sum(int(state.truncated.sum()) for state in kept) > 0
    for state, expected in zip(reversed(kept), reversed(seen), strict=True):
        observation = state.observation
        assert observation is state.observation
        assert not observation.flags.writeable
        assert np.array_equal(observation, expected)
        assert not observation[state.current_player < 0].any()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_envs": 0}, "num_envs must be at least 1, not 0"),
        ({"max_steps": 0}, "max_steps must be 1..2147483647, not 0"),
        ({"max_steps": 2**31}, "max_steps must be 1..2147483647, not 2147483648"),
        ({"opening_plies": -1}, "opening_plies must be at least 0, not -1"),
        ({"players": 5}, "pacru is played by 2, 3 or 4 players, not 5"),
        ({"move_kap": 3}, "unknown option"),
        ({"autoreset_mode": "never"}, "autoreset_mode must be 'same-step' or 'next-step'"),
        ({"num_threads": 0}, "num_threads must be 1..1024, not 0"),
        ({"num_threads": 2**64}, "num_threads must be 1..1024, not 18446744073709551616"),
        ({"observation_dtype": "float64"}, "observation_dtype must be float32, uint8 or bool"),
    ],
)
def test_bad_arguments_raise_value_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        VectorEnv("pacru", **kwargs)


def test_repr_names_the_arguments() -> None:
    env = VectorEnv("pacru", players=3, num_envs=2, max_steps=9, move_cap=50)
    assert repr(env) == (
        "VectorEnv('pacru', players=3, num_envs=2, max_steps=9, opening_plies=0, move_cap=50)"
    )


def test_random_actions_are_legal_seeded_and_the_same_for_every_thread_count() -> None:
    """A uniformly random action of each game's mask: the same for the same seed and state
    whatever the thread count, another for another seed, always legal (also at the ends
    shown in next-step mode, whose mask is all True)."""
    one, three = (
        VectorEnv("pacru", num_envs=200, num_threads=n, move_cap=12, autoreset_mode="next-step")
        for n in (1, 3)
    )
    a, b = one.init(5), three.init(5)
    shown = 0
    for step in range(30):
        actions = one.random_actions(a, step)
        assert actions.dtype == np.int64
        assert np.array_equal(actions, three.random_actions(b, step))
        assert a.legal_action_mask[np.arange(200), actions].all()
        shown += int((a.current_player < 0).sum())
        a, b = one.step(a, actions), three.step(b, actions)
    assert shown > 0
    assert not np.array_equal(one.random_actions(a, 1), one.random_actions(a, 2))
    with pytest.raises(ValueError, match="another VectorEnv"):
        one.random_actions(VectorEnv("shacru", num_envs=200).init(), 0)
    with pytest.raises(TypeError):
        one.random_actions(a, 1.5)  # type: ignore[arg-type]
