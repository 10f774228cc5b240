"""Batched opponents of pacru.vector: built-in bots in Rust, batched policies, seats per game."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from pacru.bots import GreedyBot
from pacru.chevron.engine import ENGINE
from pacru.errors import IllegalMoveError
from pacru.vector import VectorEnv

from .support import random_actions


def _bot_seats(state: Any) -> npt.NDArray[np.int32]:
    """The seat that is not deciding now (two players): the bots move at once."""
    seats: npt.NDArray[np.int32] = (1 - state.current_player).astype(np.int32)
    return seats


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize(("game", "options"), [("pacru", {"move_cap": 40}), ("lsd", {})])
def test_bots_play_until_the_learner_decides(bot: str, game: str, options: dict[str, Any]) -> None:
    env = VectorEnv(game, players=2, num_envs=6, autoreset_mode="next-step", **options)
    state = env.init(seed=1)
    seats = np.array([1, 1, 1, 0, 0, 0], dtype=np.int32)
    after = env.play_opponents(state, bot, seats, seed=7)
    assert after.current_player.tolist() == [1, 1, 1, 0, 0, 0]
    assert [env.position(after, i).ply for i in range(6)] == [1, 1, 1, 0, 0, 0]
    # Each bot move is a whole move, its decisions counted as the learner's are.
    for i in range(3):
        assert after.step_count[i] >= 1
    assert after.step_count[3:].tolist() == [0, 0, 0]
    again = env.play_opponents(state, bot, seats, seed=7)
    assert [env.position(again, i) for i in range(6)] == [env.position(after, i) for i in range(6)]
    assert env._loop.in_place_bots == 0  # the caller's state is never played in place


def test_native_bots_give_the_same_games_on_every_thread_count() -> None:
    def run(threads: int) -> list[Any]:
        env = VectorEnv("pacru", players=2, num_envs=80, move_cap=30, num_threads=threads)
        rng = np.random.default_rng(3)
        state = env.init(seed=2)
        seats = np.ones(80, dtype=np.int32)
        out = []
        for _ in range(25):
            state = env.play_opponents(state, "random", seats, seed=5)
            state = env.step(state, random_actions(state, rng))
            out.append((state.legal_action_mask.copy(), state.rewards.copy(), state.episode.copy()))
        return out

    one = run(1)
    for threads in (2, 3):
        for a, b in zip(one, run(threads), strict=True):
            assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(("game", "players"), [("pacru", 2), ("shacru", 2), ("azacru", 2)])
def test_the_native_greedy_plays_a_move_the_python_greedy_rates_best(
    game: str, players: int
) -> None:
    env = VectorEnv(game, players=players, num_envs=12, opening_plies=8, move_cap=None)
    state = env.init(seed=9)
    after = env.play_opponents(state, "greedy", _bot_seats(state), seed=1)
    judge = GreedyBot(seed=0)
    for i in range(12):
        before = env.position(state, i)
        played = env.position(after, i)
        player = before.current_player
        assert player is not None
        score = before.scores[player]
        steps = [m for m in before.legal_moves() if m.turn == 0]
        best_step = max(judge.value(before.apply_move(m), player, score) for m in steps)
        value = judge.value(played, player, score)
        # Every step move is a candidate of both; reorientations are drawn by each.
        assert value >= best_step, (i, before.to_position())
        assert any(before.apply_move(m) == played for m in before.legal_moves())


def test_a_batched_policy_decides_for_the_opponents() -> None:
    env = VectorEnv("shacru", players=3, num_envs=4, autoreset_mode="next-step")
    calls: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def first_legal(observation: npt.NDArray[Any], mask: npt.NDArray[np.bool_]) -> Any:
        calls.append((observation.shape, mask.shape))
        return mask.argmax(axis=1)

    state = env.init()
    seats = np.array([0, 1, 2, 2], dtype=np.int32)
    after = env.play_opponents(state, first_legal, seats)
    assert after.current_player.tolist() == [0, 1, 2, 2]
    # Game 0's learner decides first: the policy saw games 1-3, then 2-3.
    assert calls[0] == ((3, 64, 9, 9), (3, 415))
    assert all(shape[0] <= 3 for shape, _ in calls)

    def illegal(observation: npt.NDArray[Any], mask: npt.NDArray[np.bool_]) -> Any:
        return np.zeros(len(mask), dtype=np.int64)  # pass: not legal at the start

    with pytest.raises(IllegalMoveError, match="the opponent policy's action 0"):
        env.play_opponents(state, illegal, seats)
    with pytest.raises(ValueError, match="opponent must be 'random', 'greedy'"):
        env.play_opponents(state, "mcts", seats)
    with pytest.raises(ValueError, match=r"seats must have shape \(4,\)"):
        env.play_opponents(state, "random", [0, 1])
    with pytest.raises(ValueError, match="seats must be integers 0 to 2"):
        env.play_opponents(state, "random", [0, 1, 3, -1])


def test_same_step_keeps_an_end_the_bots_make() -> None:
    env = VectorEnv("pacru", players=2, num_envs=16, move_cap=3)
    rng = np.random.default_rng(0)
    state = env.init(seed=0)
    seats = np.zeros(16, dtype=np.int32)
    ended = 0
    for _ in range(10):
        state = env.step(state, random_actions(state, rng))
        state = env.play_opponents(state, "random", seats, seed=2)
        ended += int(state.truncated.sum())
        assert (state.current_player == 0).all()
    assert ended > 0


def test_the_native_bots_run_on_the_native_engine() -> None:
    env = VectorEnv("pacru", num_envs=2)
    assert hasattr(env._loop, "play_bots") == (ENGINE == "native")


def test_a_max_steps_no_learner_decision_survives_is_refused() -> None:
    # Same-step: every game would be cut and restarted by the bots' own moves, forever.
    env = VectorEnv("pacru", players=2, num_envs=2, max_steps=1)
    with pytest.raises(ValueError, match="max_steps=1 cuts the games before the learner decides"):
        env.play_opponents(env.init(), "random", [1, 1])
    # Next-step: the cut shows, and the opponents stop there.
    env = VectorEnv("pacru", players=2, num_envs=2, max_steps=1, autoreset_mode="next-step")
    state = env.play_opponents(env.init(), "random", [1, 1])
    assert state.truncated.tolist() == [True, True]
