"""MCTSBot for training loops: SearchResult targets, the PUCT evaluator, one nominal Bot base."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, assert_type

import attrs
import pytest

import pacru
from pacru.base import GameState
from pacru.bots import Bot, GreedyBot, MCTSBot, RandomBot, SearchResult
from pacru.errors import GameOverError


def test_builtin_bots_share_a_nominal_base() -> None:
    """mypy --strict infers list[Bot] for a list of two different bots (checked in CI)."""
    bots = [RandomBot(seed=1), MCTSBot(seed=1)]
    assert_type(bots, list[Bot])
    more = [GreedyBot(seed=1), RandomBot(seed=2)]
    assert_type(more, list[Bot])
    assert all(isinstance(b, Bot) for b in [*bots, *more])
    assert Bot in type(bots[1]).__mro__


@pytest.mark.parametrize(
    ("game", "players", "value"), [("shacru", 3, 0.675), ("pacru", 2, 0.275), ("lsd", 2, 0.55)]
)
def test_search_policy_is_the_visit_share(game: str, players: int, value: float) -> None:
    state: pacru.GameState[Any] = pacru.new_game(game, players)
    bot = MCTSBot(seed=5, iterations=40, rollout_cap=8, evaluation=None)
    result = bot.search(state)
    assert sum(result.visits) == 40
    policy = result.policy()
    assert len(policy) == len(result.moves)
    assert math.isclose(sum(policy), 1.0)
    assert policy == tuple(v / 40 for v in result.visits)
    assert all(m in state.legal_moves() for m in result.moves)
    assert result.value == pytest.approx(value)  # the mean return, in returns() units
    # choose_move is the search's best move: the most visited.
    again = MCTSBot(seed=5, iterations=40, rollout_cap=8, evaluation=None)
    assert again.choose_move(state) == result.best_move
    assert result.visits[result.moves.index(result.best_move)] == max(result.visits)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        result.value = 0.0  # type: ignore[misc]


def test_uct_value_is_in_the_units_of_returns() -> None:
    """Without evaluation, rollout_cap=0 judges each new child by the scores (leaders +1).

    At the start of Shacru every move colours one field {S-R2}: the mover leads 1-0
    (return +1); one move later the reply evens the score at 1-1 (both lead: 0).
    """
    state = pacru.new_game("shacru", 2)
    bot = MCTSBot(seed=0, iterations=10, rollout_cap=0, evaluation=None)
    assert bot.search(state).value == 1.0
    assert bot.search(state.apply_move("e1-e2")).value == 0.0


def test_search_of_a_finished_game_raises() -> None:
    final = pacru.bots.play_game(pacru.new_game("lilacru"), [RandomBot(seed=1), RandomBot(seed=2)])
    with pytest.raises(GameOverError):
        MCTSBot(seed=0, iterations=5).search(final)


class Favour:
    """An evaluator that puts all prior mass on one move and fixed values per seat."""

    def __init__(self, favourite: str, values: tuple[float, ...]) -> None:
        self.favourite = favourite
        self.values = values
        self.calls = 0

    def __call__(
        self, state: GameState[Any], moves: Sequence[Any]
    ) -> tuple[Sequence[float], Sequence[float]]:
        self.calls += 1
        assert state.current_player is not None  # never called on a finished game
        priors = [1.0 if str(m) == self.favourite else 0.0 for m in moves]
        if not any(priors):
            priors = [1.0] * len(moves)
        return priors, self.values


@pytest.mark.parametrize("favourite", ["e1-e2", "a3-b4>"])
def test_the_evaluator_shapes_the_search(favourite: str) -> None:
    """Constant values: every visit goes to the move with the whole prior (PUCT)."""
    state = pacru.new_game("shacru", 2)
    evaluator = Favour(favourite, (0.7, 0.3))
    bot = MCTSBot(seed=0, iterations=30, evaluator=evaluator)
    result: SearchResult[Any] = bot.search(state)
    # One evaluation of the root, then one per iteration (no game ends in 30 plies here).
    assert evaluator.calls == 31
    visits = dict(zip(map(str, result.moves), result.visits, strict=True))
    assert visits[favourite] == 30
    assert sum(visits.values()) == 30
    assert str(result.best_move) == favourite
    assert result.value == pytest.approx(0.7)  # green to move: the evaluator's first value
    assert set(result.moves) == set(state.legal_moves())


def test_the_evaluator_values_steer_between_equal_priors() -> None:
    """Equal priors: the move whose position the evaluator values most for the mover wins."""
    state = pacru.new_game("shacru", 2)

    def values_e2(s: GameState[Any], moves: Sequence[Any]) -> tuple[list[float], list[float]]:
        # Green (seat 0) likes positions with a chevron on e2.
        good = 0.9 if s.chevron_at("e2") is not None else 0.1  # type: ignore[attr-defined]
        return [1.0] * len(moves), [good, 1.0 - good]

    result = MCTSBot(seed=0, iterations=60, evaluator=values_e2).search(state)
    assert str(result.best_move) == "e1-e2"


def test_bad_evaluator_output_raises() -> None:
    state = pacru.new_game("lilacru", 2)

    def short(s: GameState[Any], moves: Sequence[Any]) -> tuple[list[float], list[float]]:
        return [1.0], [0.5, 0.5]

    def negative(s: GameState[Any], moves: Sequence[Any]) -> tuple[list[float], list[float]]:
        return [-1.0] * len(moves), [0.5, 0.5]

    with pytest.raises(ValueError, match="priors for"):
        MCTSBot(seed=0, iterations=3, evaluator=short).search(state)
    with pytest.raises(ValueError, match="non-negative"):
        MCTSBot(seed=0, iterations=3, evaluator=negative).search(state)
