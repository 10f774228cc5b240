"""MCTSBot's batch_evaluator: arrays of pacru.encoding in, many leaves per call, PUCT as before."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="numpy is in the test extra")

import pacru  # noqa: E402
from pacru.base import GameState  # noqa: E402
from pacru.bots import MCTSBot, make_bot, parse_spec  # noqa: E402
from pacru.encoding import Encoding  # noqa: E402


class Recorder:
    """A batch evaluator: the legal first actions as priors, +0.1 for the player to move."""

    def __init__(self, players: int, favour: int | None = None) -> None:
        self.players = players
        self.favour = favour
        self.sizes: list[int] = []
        self.shapes: list[tuple[tuple[int, ...], tuple[int, ...], str, str]] = []

    def __call__(self, observations: Any, masks: Any) -> tuple[Any, Any]:
        self.sizes.append(len(observations))
        self.shapes.append(
            (observations.shape, masks.shape, str(observations.dtype), str(masks.dtype))
        )
        values = np.full((len(observations), self.players), -0.1)
        values[:, 0] = 0.1
        priors = masks.astype(np.float64)
        if self.favour is not None:
            priors[:, self.favour] *= 1000.0
        return values, priors


def same_priors(state: GameState[Any], moves: Sequence[Any]) -> tuple[list[float], list[float]]:
    """The per-position evaluator equal to Recorder: a first action's prior shared equally."""
    encoding = Encoding.of(state)
    decision = encoding.start(state)
    firsts = [encoding.action_to_choice(decision, m) for m in moves]
    mover = state.players.index(state.current_player)
    values = [0.1 if s == mover else -0.1 for s in range(len(state.players))]
    return [1.0 / firsts.count(a) for a in firsts], values


@pytest.mark.parametrize(("game", "players"), [("shacru", 2), ("pacru", 3), ("lsd", 2)])
def test_batch_size_one_grows_the_per_position_tree(game: str, players: int) -> None:
    state: GameState[Any] = pacru.new_game(game, players)
    batched = MCTSBot(seed=3, iterations=150, batch_evaluator=Recorder(players), batch_size=1)
    single = MCTSBot(seed=3, iterations=150, evaluator=same_priors)
    assert batched.search(state) == single.search(state)


def test_a_batch_holds_many_leaves_as_encoding_arrays() -> None:
    state = pacru.new_game("shacru", 2)
    net = Recorder(2)
    bot = MCTSBot(seed=3, iterations=64, batch_evaluator=net, batch_size=16)
    result = bot.search(state)
    assert sum(result.visits) == bot.last_iterations == 64
    # The root alone, then batches of 16 leaves: 1 + 64 / 16 calls.
    assert net.sizes == [1, 16, 16, 16, 16]
    assert set(net.shapes[1:]) == {((16, 51, 9, 9), (16, 415), "float32", "bool")}
    # Virtual loss spreads a batch: the 16 leaves of the first batch are 16 root moves.
    assert sorted(result.visits, reverse=True)[0] < 64 / 2
    again = MCTSBot(seed=3, iterations=64, batch_evaluator=Recorder(2), batch_size=16)
    assert again.search(state) == result  # seeded: the same search


def test_priors_steer_the_batched_search() -> None:
    state = pacru.new_game("shacru", 2)
    encoding = Encoding.of(state)
    origin_a3 = encoding.start(state).legal_actions[1]
    assert encoding.action_name(origin_a3) == "origin a3"
    bot = MCTSBot(seed=1, iterations=96, batch_evaluator=Recorder(2, origin_a3), batch_size=8)
    result = bot.search(state)
    assert str(result.best_move).startswith("a3-")
    share = sum(v for m, v in zip(result.moves, result.visits, strict=True) if str(m)[:2] == "a3")
    assert share > 96 * 0.75


@pytest.mark.parametrize(("column", "value"), [(0, -1.0), (1, -1.0), (2, 1.0)])
def test_values_come_back_in_turn_order(column: int, value: float) -> None:
    """Column 0 of the values is the player to move, then the players after it: one
    iteration values a position after green's move, yellow to move, so column 2 (the
    player two after yellow) is green, the root's player."""
    state = pacru.new_game("shacru", 3)

    def one_winner(observations: Any, masks: Any) -> tuple[Any, Any]:
        values = np.full((len(observations), 3), -1.0)
        values[:, column] = 1.0
        return values, masks

    result = MCTSBot(seed=2, iterations=1, batch_evaluator=one_winner).search(state)
    assert result.value == value


def test_bad_batch_evaluators_and_parameters_raise() -> None:
    state = pacru.new_game("shacru", 2)

    def wrong_shape(observations: Any, masks: Any) -> tuple[Any, Any]:
        return np.zeros((len(observations), 3)), masks

    def negative(observations: Any, masks: Any) -> tuple[Any, Any]:
        return np.zeros((len(observations), 2)), -masks.astype(float)

    with pytest.raises(ValueError, match=r"values of shape \(1, 3\)"):
        MCTSBot(seed=1, batch_evaluator=wrong_shape).search(state)
    with pytest.raises(ValueError, match="priors must be non-negative"):
        MCTSBot(seed=1, batch_evaluator=negative).search(state)
    with pytest.raises(ValueError, match="batch_size must be at least 1"):
        MCTSBot(batch_evaluator=negative, batch_size=0)
    with pytest.raises(ValueError, match="not both"):
        MCTSBot(evaluator=same_priors, batch_evaluator=negative)
    # Text cannot name a function, but it can give the batch size.
    assert parse_spec("mcts:batch_size=8") == ("mcts", {"batch_size": 8})
    with pytest.raises(ValueError, match="no parameter 'batch_evaluator'"):
        make_bot("mcts:batch_evaluator=x")
