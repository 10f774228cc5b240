"""The reference bots (:mod:`pacru.bots`): legal, deterministic, and MCTS plays better."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from typing import Any

import numpy as np
import pytest

import pacru
from pacru.base import GameState, Termination
from pacru.bots import (
    Bot,
    GreedyBot,
    MCTSBot,
    RandomBot,
    evaluate,
    make_bot,
    outcome_rewards,
    parse_spec,
    play_game,
    sample_move,
    score_rewards,
)
from pacru.bots.engine import EngineBot
from pacru.chevron.movelist import LegalMoves
from pacru.errors import GameOverError
from scripted_random import ScriptedRandom

# numpy scalars typed as Any: the signatures say int, and these stand in for one.
numpy: Any = np

GAMES = [*pacru.CHEVRON_GAMES, "lsd"]


class Checked:
    """Wraps a bot and asserts that every move it returns is legal where it was chosen."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.moves = 0

    def choose_move(self, state: GameState[Any]) -> Any:
        move = self.bot.choose_move(state)
        assert move in state.legal_moves(), (state.to_position(), str(move))
        self.moves += 1
        return move


def _bots(players: int) -> list[Bot]:
    pool: list[Bot] = [
        MCTSBot(seed=1, iterations=6, rollout_cap=6),
        GreedyBot(seed=2),
        RandomBot(seed=3),
        RandomBot(seed=4, uniform="moves"),
    ]
    return pool[:players]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_returns_legal_moves(game: str, players: int) -> None:
    """Each bot kind plays a seat for a few rounds; every move is in legal_moves()."""
    bots = [Checked(b) for b in _bots(players)]
    play_game(pacru.new_game(game, players), bots, max_plies=4 * players)
    assert all(b.moves >= 1 for b in bots)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_and_random_play_whole_games_legally(game: str, players: int) -> None:
    bots = [Checked(GreedyBot(seed=i) if i % 2 else RandomBot(seed=i)) for i in range(players)]
    final = play_game(pacru.new_game(game, players), bots, max_plies=400)
    assert final.outcome is not None


@pytest.mark.parametrize(
    "make",
    [
        lambda s: RandomBot(seed=s),
        lambda s: RandomBot(seed=s, uniform="moves"),
        lambda s: GreedyBot(seed=s),
        lambda s: MCTSBot(seed=s, iterations=10, rollout_cap=8),
    ],
    ids=["random", "random-moves", "greedy", "mcts"],
)
@pytest.mark.parametrize("game", ["shacru", "pacru", "lsd"])
def test_same_seed_same_game(make: Any, game: str) -> None:
    def history(seed: int) -> list[str]:
        start: pacru.GameState[Any] = pacru.new_game(game, 2)
        line = pacru.Game(start)
        play_game(line, [make(seed), make(seed + 1)], max_plies=16)
        return [str(m) for m in line.moves]

    first = history(5)
    assert first == history(5)
    assert first != history(6)


def test_bots_follow_the_protocol() -> None:
    for bot in (RandomBot(seed=0), GreedyBot(seed=0), MCTSBot(seed=0)):
        assert isinstance(bot, Bot)
    assert [RandomBot().name, GreedyBot().name, MCTSBot().name] == [
        "random",
        "greedy",
        "mcts(iterations=400)",
    ]


def _reorienting_position() -> pacru.GameState[Any]:
    """Green: one chevron e5 N and nine free own fields a1..i1: 3 steps, 324 reorientations."""
    return pacru.from_position(
        "pacru players=green,yellow markers=green:a1,b1,c1,d1,e1,f1,g1,h1,i1 "
        "chevrons=green:e5N;yellow:e9S"
    )


def test_sample_move_draws_a_family_then_a_move_within_it() -> None:
    """{R14}: 3 step families and 4 reorientation families; the family is drawn first."""
    state = _reorienting_position()
    moves = state.legal_moves()
    assert isinstance(moves, LegalMoves)
    assert (len(moves.steps), len(moves.reorientations), len(moves)) == (3, 4, 327)
    rng = ScriptedRandom([3, 30])
    move = sample_move(state, rng)
    assert rng.bounds == [7, 126]  # families, then C(9, 4) sets of the 90-degree turn
    assert move == moves.families[3].get(30) == moves[3 + 30]
    assert str(move) == "e5<<(a1,c1,f1,g1)"
    rng = ScriptedRandom([1, 0])
    assert str(sample_move(state, rng)) == "e5-e6"
    assert rng.bounds == [7, 1]


def test_sample_move_uniform_over_moves() -> None:
    state = _reorienting_position()
    rng = ScriptedRandom([2, 100])
    assert sample_move(state, rng, "moves") == state.legal_moves()[2]
    assert sample_move(state, rng, "moves") == state.legal_moves()[100]
    assert rng.bounds == [327, 327]


def test_sample_move_rejects_unknown_mode_and_finished_games() -> None:
    with pytest.raises(ValueError, match="uniform must be"):
        sample_move(pacru.new_game("shacru"), random.Random(0), "bogus")  # type: ignore[arg-type]
    final = play_game(pacru.new_game("lsd"), [RandomBot(seed=1), RandomBot(seed=2)])
    with pytest.raises(GameOverError):
        sample_move(final, random.Random(0))
    with pytest.raises(GameOverError):
        GreedyBot(seed=0).choose_move(final)
    with pytest.raises(GameOverError):
        MCTSBot(seed=0).choose_move(final)


def test_greedy_takes_the_neutral_field() -> None:
    """{S-R3}: stepping onto neutral f6 gains a field; d6 and e6 are already green."""
    state: pacru.GameState[Any] = pacru.from_position(
        "shacru players=green,yellow markers=green:d6,e6 chevrons=green:e5N;yellow:a9SE"
    )
    assert sorted(str(m) for m in state.legal_moves()) == ["e5-d6", "e5-e6", "e5-f6"]
    for seed in range(5):
        assert str(GreedyBot(seed=seed).choose_move(state)) == "e5-f6"
        assert str(GreedyBot(seed=seed, objective="own").choose_move(state)) == "e5-f6"


def test_greedy_values() -> None:
    """margin = own gain minus the best opponent score; own = own gain; evaluation (default)."""
    after = pacru.from_position(
        "shacru players=green,yellow,red markers=green:d6,e6;yellow:a1,a2,a3;red:b1 "
        "chevrons=green:e5N;yellow:a9SE;red:i9SW"
    )
    assert GreedyBot(seed=0, objective="margin").value(after, "green", 1) == 1 - 3
    assert GreedyBot(seed=0).value(after, "green", 1) == evaluate(after)[0]
    assert GreedyBot(seed=0, objective="own").value(after, "green", 1) == 1


def test_greedy_samples_reorientations() -> None:
    """Every step move, plus the sampled reorientations {R14}."""
    state = _reorienting_position()
    candidates = GreedyBot(seed=0, reorientation_samples=5).candidates(state)
    steps = [m for m in candidates if m.target is not None]
    assert sorted(map(str, steps)) == ["e5-d6", "e5-e6", "e5-f6"]
    assert 1 <= len(candidates) - 3 <= 5
    assert all(m in state.legal_moves() for m in candidates)


def test_rewards_of_a_finished_game() -> None:
    """1 split among the winners (D35)."""
    final = play_game(pacru.new_game("shacru", 3), [RandomBot(seed=s) for s in range(3)])
    outcome = final.outcome
    assert outcome is not None
    assert outcome.winners
    share = 1 / len(outcome.winners)
    assert outcome_rewards(final) == tuple(
        share if p in outcome.winners else 0.0 for p in final.players
    )


def test_rewards_at_a_move_cap_come_from_the_scores() -> None:
    """D32: a capped Pacru game has no winner; the leading scorers share 1."""
    final = play_game(
        pacru.new_game("pacru", 2, move_cap=30), [RandomBot(seed=8), RandomBot(seed=9)]
    )
    assert final.outcome is not None
    assert final.outcome.termination is Termination.MOVE_CAP
    scores = list(final.scores.values())
    best = max(scores)
    expected = tuple(1 / scores.count(best) if s == best else 0.0 for s in scores)
    assert outcome_rewards(final) == score_rewards(final) == expected
    with pytest.raises(ValueError, match="not over"):
        outcome_rewards(pacru.new_game("pacru"))


def test_mcts_search_statistics() -> None:
    """Every iteration passes through exactly one root child: visits add up."""
    bot = MCTSBot(seed=3, iterations=50, rollout_cap=10, evaluation=None)
    state = pacru.new_game("shacru", 3)
    result = bot.search(state)
    assert sum(result.visits) == bot.last_iterations == 50
    assert len(result.moves) == len(result.visits) == len(set(result.moves))
    # The 13 legal moves of 3-player Shacru at the start are all candidates (max_children=40).
    assert set(result.moves) == set(state.legal_moves())
    assert result.value == pytest.approx(0.26)  # the mean return in returns() units


def test_mcts_with_a_time_limit_returns_a_legal_move() -> None:
    state = pacru.new_game("pacru", 2)
    bot = MCTSBot(seed=0, time_limit=0.05, rollout_cap=10)
    assert bot.choose_move(state) in state.legal_moves()
    assert bot.last_iterations >= 1
    assert bot.name == "mcts(time_limit=0.05)"


def test_mcts_beats_random_at_shacru() -> None:
    """A small fixed sample: MCTS (40 iterations) wins at least 4 of 5 Shacru games.

    Seeds are fixed and the search has no time limit, so the result is
    deterministic; seats alternate. With these seeds MCTS wins all five (and
    at least four in each of six other seed sets tried).
    """
    wins = 0
    for g in range(5):
        mcts = MCTSBot(seed=g, iterations=40, rollout_cap=16)
        rand = RandomBot(seed=1000 + g)
        seat = g % 2
        bots: list[Bot] = [mcts, rand] if seat == 0 else [rand, mcts]
        final = play_game(pacru.new_game("shacru", 2), bots)
        wins += final.winners == (final.players[seat],)
    assert wins >= 4


def test_parse_spec() -> None:
    assert parse_spec("mcts:iterations=400,exploration=0.7") == (
        "mcts",
        {"iterations": 400, "exploration": 0.7},
    )
    assert parse_spec("MCTS:iterations=10:rollout-cap=none") == (
        "mcts",
        {"iterations": 10, "rollout_cap": None},
    )
    assert parse_spec("random:uniform=moves") == ("random", {"uniform": "moves"})
    assert parse_spec("greedy") == ("greedy", {})
    assert make_bot("greedy:objective=own", seed=1).name == "greedy(objective=own)"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown bot 'alphazero'"),
        ("mcts:iterations", "is not key=value"),
        ("mcts:depth=3", "mcts has no parameter 'depth'"),
        ("random:seed=3", "random has no parameter 'seed'"),
        ("mcts:iterations=0", "iterations must be at least 1"),
        ("random:uniform=fields", "uniform must be 'families' or 'moves'"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec, seed=0)


NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    ("factory", "kwargs", "message"),
    [
        (MCTSBot, {"iterations": 0}, "iterations must be at least 1, not 0"),
        (MCTSBot, {"iterations": 1.5}, "iterations must be a whole number, not 1.5"),
        (MCTSBot, {"iterations": True}, "iterations must be a whole number, not True"),
        (MCTSBot, {"time_limit": 0}, "time_limit must be positive, finite seconds, not 0"),
        (MCTSBot, {"time_limit": NAN}, "time_limit must be positive, finite seconds, not nan"),
        (MCTSBot, {"time_limit": INF}, "time_limit must be positive, finite seconds, not inf"),
        (MCTSBot, {"time_limit": 10**400}, "time_limit must be positive, finite seconds"),
        (MCTSBot, {"time_limit": "1"}, "time_limit must be a number of seconds, not '1'"),
        (MCTSBot, {"rollout_cap": -1}, "rollout_cap must be at least 0, not -1"),
        (MCTSBot, {"max_children": 0}, "max_children must be at least 1, not 0"),
        (MCTSBot, {"reorientation_samples": -1}, "reorientation_samples must be at least 0"),
        (MCTSBot, {"batch_size": 0}, "batch_size must be at least 1, not 0"),
        (MCTSBot, {"exploration": NAN}, "exploration must be a number >= 0, not nan"),
        (RandomBot, {"time_limit": -1}, "time_limit must be positive, finite seconds, not -1"),
        (GreedyBot, {"max_moves": 0}, "max_moves must be at least 1, not 0"),
        (GreedyBot, {"reorientation_samples": -2}, "reorientation_samples must be at least 0"),
        (GreedyBot, {"time_limit": NAN}, "time_limit must be positive, finite seconds, not nan"),
        (EngineBot, {"nodes": 0}, "nodes must be at least 1, not 0"),
        (EngineBot, {"nodes": 2.0}, "nodes must be a whole number, not 2.0"),
        (EngineBot, {"timeout": 0}, "timeout must be positive, finite seconds, not 0"),
        (EngineBot, {"time_limit": INF}, "time_limit must be positive, finite seconds, not inf"),
    ],
)
def test_every_bot_checks_its_budget(factory: Any, kwargs: dict[str, Any], message: str) -> None:
    args = ("./engine",) if factory is EngineBot else ()
    with pytest.raises(ValueError, match=re.escape(message)):
        factory(*args, seed=1, **kwargs)


def test_budgets_take_any_integer_type_as_its_int() -> None:
    bot = MCTSBot(
        seed=1, iterations=numpy.uint16(3), rollout_cap=numpy.int64(2), batch_size=numpy.int8(4)
    )
    assert (bot.iterations, bot.rollout_cap, bot.batch_size) == (3, 2, 4)
    assert type(bot.iterations) is int
    assert MCTSBot(seed=1, time_limit=numpy.float32(0.5)).time_limit == 0.5
    assert GreedyBot(seed=1, max_moves=numpy.int32(7)).max_moves == 7
    assert EngineBot("./engine", nodes=numpy.int64(9)).nodes == 9


# Each bot that searches for as long as it is given, with an endless time_limit; the
# others (random, greedy) answer at once. The bound is generous: the stop takes
# milliseconds, so only a bot that ignores SIGINT runs into it.
SIGINT_SCRIPT = """
import sys
import pacru
from pacru.bots import make_bot
bot = make_bot(sys.argv[1] + ":time_limit=1e300", seed=1)
print("searching", flush=True)
bot.choose_move(pacru.new_game("pacru"))
print("returned", flush=True)
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child is POSIX")
@pytest.mark.parametrize("kind", ["search", "mcts"])
def test_ctrl_c_stops_every_searching_bot(kind: str) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", SIGINT_SCRIPT, kind],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "searching\n"
        time.sleep(1.0)  # into the search
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
        child.wait()
    assert out == ""
    assert err.splitlines()[-1] == "KeyboardInterrupt"
    assert child.returncode == -signal.SIGINT
