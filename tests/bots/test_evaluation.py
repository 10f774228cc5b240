"""pacru.bots.evaluate (values from the rules' goals), its use by the bots, random_rollouts."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import pacru
from pacru.bots import GreedyBot, MCTSBot, RandomBot, evaluate, play_game, random_rollouts
from pacru.bots.evaluation import SCALE, strengths
from pacru.chevron.engine import ENGINE

#: Two green chevrons attack yellow's e5 {R11}: d4 facing NE and f4 facing NW, each one
#: field away (power of movement 1, {R5}).
PINCER = (
    "pacru players=green,yellow markers=green:d4,f4,a1,b1 "
    "chevrons=green:d4NE,f4NW,a1N,b1N;yellow:e5S,i9SW,h9S,g9S"
)


@pytest.mark.parametrize("game", pacru.GAMES)
def test_a_two_player_start_is_even(game: str) -> None:
    assert evaluate(pacru.new_game(game)) == (0.0, 0.0)


def test_pacru_strengths_count_markers_chevrons_power_and_pincers() -> None:
    """{R16b} markers, {R15} chevrons that can move, {R5} power, {R11} pincer threats."""
    state: pacru.GameState[Any] = pacru.from_position(PINCER)
    # Green: 4 markers (+ 4 * (4/42)**4 toward the target), 4 chevrons at 6 + 2 (all can
    # move) + 0.25 * power (2, 2, 2, 2 in their borderlands), a pincer ready: + 5.
    green = 4 + 4 * (4 / 42) ** 4 + 4 * (6 + 2 + 0.25 * 2) + 5
    # Yellow: no markers; 4 chevrons at 6 + 2 + 0.25 (power 1), one under the pincer: - 5.
    yellow = 4 * (6 + 2 + 0.25) - 5
    assert strengths(state) == pytest.approx((green, yellow))
    assert evaluate(state) == pytest.approx(
        (math.tanh((green - yellow) / SCALE), -math.tanh((green - yellow) / SCALE))
    )
    # With yellow to move the pincer may still be escaped: 1.5 instead of 5.
    waiting = pacru.from_position(PINCER.replace("yellow markers", "yellow turn=yellow markers"))
    assert strengths(waiting) == pytest.approx((green - 3.5, yellow + 3.5))


def test_field_games_count_fields_reach_and_movable_chevrons() -> None:
    """{S-R3, S-R6}: 2 fields, a tenth per neutral field within two moves, 1 per movable chevron."""
    state = pacru.from_position(
        "shacru players=green,yellow markers=green:d6,e6 chevrons=green:e5N;yellow:a9SE"
    )
    assert strengths(state) == pytest.approx((3.8, 1.8))
    lead = math.tanh(2.0 / SCALE)
    assert evaluate(state) == pytest.approx((lead, -lead))


def test_finished_games_give_their_returns() -> None:
    final = play_game(pacru.new_game("pacru", 3), [RandomBot(seed=s) for s in range(3)])
    assert final.outcome is not None
    assert evaluate(final) == final.returns()
    assert all(-1.0 < v < 1.0 for v in evaluate(pacru.from_position(PINCER)))


def test_greedy_makes_the_pincer() -> None:
    """One ply on the evaluation: taking e5 {R11} is the best move."""
    state: pacru.GameState[Any] = pacru.from_position(PINCER)
    assert [str(GreedyBot(seed=s).choose_move(state)) for s in range(3)] == [
        "f4xe5",
        "d4xe5",
        "d4xe5",
    ]
    assert GreedyBot(seed=0).name == "greedy"
    assert GreedyBot(seed=0, objective="margin").name == "greedy(objective=margin)"
    with pytest.raises(ValueError, match="'evaluation', 'margin' or 'own'"):
        GreedyBot(objective="best")  # type: ignore[arg-type]


def test_mcts_values_leaves_by_the_evaluation() -> None:
    """UCT on the evaluation explores with c = 0.1 by default; plain UCT and PUCT with 1.0."""
    assert MCTSBot(seed=1).exploration == 0.1
    assert MCTSBot(seed=1, evaluation=None).exploration == 1.0
    assert MCTSBot(seed=1, exploration=0.5).exploration == 0.5
    result = MCTSBot(seed=4, iterations=30).search(pacru.new_game("pacru"))
    assert sum(result.visits) == 30
    assert str(result.best_move) == "a3-b4+b5"
    assert result.value == pytest.approx(0.04988464368950397)
    capped = MCTSBot(seed=4, iterations=30, rollout_cap=6).search(pacru.new_game("shacru"))
    assert str(capped.best_move) == "i9-h9"
    assert capped.value == pytest.approx(0.05085022929917744)
    with pytest.raises(ValueError, match="evaluation must be a function or None"):
        MCTSBot(evaluation="evaluate")  # type: ignore[arg-type]


def test_random_rollouts_are_seeded_arrays() -> None:
    returns, plies = random_rollouts(pacru.new_game("pacru"), 4, seed=11)
    assert returns.dtype == np.float32
    assert returns.shape == (4, 2)
    assert plies.dtype == np.int32
    assert plies.shape == (4,)
    # Each engine draws with its own generator: the same seed gives other games on each.
    if ENGINE == "native":
        assert returns.tolist() == [[-1.0, 1.0], [-1.0, 1.0], [1.0, -1.0], [-1.0, 1.0]]
        assert plies.tolist() == [66, 82, 99, 104]
    else:
        assert returns.tolist() == [[1.0, -1.0], [-1.0, 1.0], [-1.0, 1.0], [-1.0, 1.0]]
        assert plies.tolist() == [91, 82, 46, 86]
    again = random_rollouts(pacru.new_game("pacru"), 4, seed=11)
    assert np.array_equal(again[0], returns)
    assert np.array_equal(again[1], plies)
    with pytest.raises(ValueError, match="read-only"):
        returns[0, 0] = 0.0


def test_random_rollouts_stop_at_max_plies() -> None:
    """A game stopped at max_plies has no winner yet: returns 0."""
    if ENGINE == "native":  # its own generator: a seed where one game ends before the cap
        returns, plies = random_rollouts(
            pacru.new_game("shacru", 3), 3, seed=np.int64(5), max_plies=50
        )
        assert returns.tolist() == [[0.0, 0.0, 0.0], [1.0, -1.0, -1.0], [0.0, 0.0, 0.0]]
        assert plies.tolist() == [50, 40, 50]
    else:
        returns, plies = random_rollouts(
            pacru.new_game("shacru", 3), 3, seed=np.int64(2), max_plies=50
        )
        assert returns.tolist() == [[-1.0, -1.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
        assert plies.tolist() == [40, 50, 50]
    final = play_game(pacru.new_game("lilacru"), [RandomBot(seed=1), RandomBot(seed=2)])
    returns, plies = random_rollouts(final, 2)
    assert returns.tolist() == [list(final.returns())] * 2
    assert plies.tolist() == [0, 0]
    assert random_rollouts(final, 0)[0].shape == (0, 2)
    with pytest.raises(ValueError, match="must not be negative"):
        random_rollouts(final, -1)
    with pytest.raises(ValueError, match=r"max_plies must be 0\.\.2147483647, not -1"):
        random_rollouts(final, 1, max_plies=-1)
