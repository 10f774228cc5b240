"""The framework adapters with every rule option; PacruBot; action_masks; the human render mode."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import pacru

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is in the test extra")
pytest.importorskip("pettingzoo", reason="PettingZoo is in the test extra")
import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402
from pettingzoo.test import api_test, render_test  # noqa: E402

import pacru.gymnasium  # noqa: E402
import pacru.openspiel  # noqa: E402
from pacru.bots import GreedyBot, RandomBot  # noqa: E402
from pacru.encoding import Encoding  # noqa: E402
from pacru.pettingzoo import env, raw_env  # noqa: E402

pacru.openspiel.register()

#: One game with each rule option of new_game set away from its default, as new_game keywords.
OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("lilacru", {"idle_rounds": 2, "start_layout": "ap-legacy-2p"}),
    ("shacru", {"idle_rounds": 3, "colours": ("red", "blue"), "first_player": "blue"}),
    ("azacru", {"move_cap": 30, "turn_order": ("yellow", "green")}),
    ("pacru", {"meeting_rule": "original", "move_cap": 40, "start_layout": "abstractplay"}),
    ("lsd", {"allow_rotation": False, "strict_dot_matching": False, "row_length": 3}),
    ("lsd", {"colours": ("red", "blue"), "first_player": "blue", "tile_set": "+NESW*3,xN*2"}),
    ("lsd", {"shades": ("white", "white"), "enforce_shade_alternation": False}),
]
IDS = [f"{g}-{'-'.join(o)}" for g, o in OPTIONS]


def _params(options: dict[str, Any]) -> dict[str, Any]:
    """new_game keywords as OpenSpiel parameters (lists of names joined by "/")."""
    return {
        k: "/".join(v) if isinstance(v, tuple) else v.replace(",", "/") if k == "tile_set" else v
        for k, v in options.items()
    }


@pytest.mark.parametrize(("game", "options"), OPTIONS, ids=IDS)
def test_openspiel_parameters_are_the_new_game_options(game: str, options: dict[str, Any]) -> None:
    spiel = pyspiel.load_game(f"pacru_{game}", {"players": 2, **_params(options)})
    state = spiel.new_initial_state()
    assert state.pacru_state == pacru.new_game(game, 2, **options)
    encoding = Encoding.for_game(game, 2, **options)
    assert encoding.max_game_length is not None
    assert spiel.max_game_length() == encoding.max_game_length * encoding.max_decisions
    pyspiel.random_sim_test(spiel, num_sims=1, serialize=True, verbose=False)


def test_idle_rounds_bound_the_length_of_lilacru_and_shacru() -> None:
    """Ruling D33: at most 82 * idle_rounds * players plies, times the decisions of a move."""
    for game in ("lilacru", "shacru"):
        short = pyspiel.load_game(f"pacru_{game}", {"idle_rounds": 2})
        decisions = Encoding.for_game(game, 2).max_decisions
        assert short.max_game_length() == 82 * 2 * 2 * decisions
        assert pyspiel.load_game(f"pacru_{game}").max_game_length() == 82 * 81 * 2 * decisions


def test_openspiel_refuses_unknown_parameters_and_values() -> None:
    with pytest.raises(pyspiel.SpielError, match="idle_rounds"):
        pyspiel.load_game("pacru_pacru", {"idle_rounds": 3})
    with pytest.raises(ValueError, match="meeting_rule"):
        pacru.openspiel.PacruGame({"meeting_rule": "sometimes"})
    assert pacru.openspiel.game_options("pacru", {"players": 3, "colours": "", "move_cap": 9}) == {
        "move_cap": 9
    }


def test_pacru_bot_plays_evaluate_bots_against_a_uniform_random_bot() -> None:
    """A pacru bot as a pyspiel.Bot: exact seeded results from OpenSpiel's evaluate_bots."""
    spiel = pyspiel.load_game("pacru_pacru")
    results = []
    for seed in range(3):
        bots = [
            pacru.openspiel.PacruBot(GreedyBot(seed=seed)),
            pyspiel.make_uniform_random_bot(1, seed),
        ]
        results.append(evaluate_bots(spiel.new_initial_state(), bots, np.random.default_rng(seed)))
    assert results == [[1.0, -1.0], [1.0, -1.0], [1.0, -1.0]]


def test_pacru_bot_answers_every_decision_of_its_move() -> None:
    """A Shacru border crossing takes three decisions (origin, target, twist) {S-R4}."""
    spiel = pyspiel.load_game("pacru_shacru")
    state = spiel.new_initial_state()
    bot = pacru.openspiel.PacruBot(RandomBot(seed=0))
    start = state.pacru_state
    actions = []
    while state.pacru_state is start:
        action = bot.step(state)
        assert action in state.legal_actions()
        actions.append(action)
        state.apply_action(action)
    move = Encoding.of(start).move(start, actions)
    assert state.pacru_state == start.apply_move(move)
    assert move == RandomBot(seed=0).choose_move(start)


@pytest.mark.parametrize(("game", "options"), OPTIONS, ids=IDS)
def test_gymnasium_check_env_with_the_options(game: str, options: dict[str, Any]) -> None:
    environment = pacru.gymnasium.PacruEnv(game, 2, opponent="random", **options)
    check_env(environment)
    observation, _info = environment.reset(seed=2)
    masks = environment.action_masks()
    assert masks.dtype == np.bool_
    assert np.array_equal(masks, observation["action_mask"].astype(bool))


def test_action_masks_follow_the_learners_decisions() -> None:
    environment = gymnasium.make("pacru/Shacru-v0", opponent="random").unwrapped
    assert isinstance(environment, pacru.gymnasium.PacruEnv)
    environment.reset(seed=0)
    start = pacru.new_game("shacru")
    decision = Encoding.of(start).start(start)
    assert np.flatnonzero(environment.action_masks()).tolist() == list(decision.legal_actions)
    origin = Encoding.of(start).actions(start, "a3-b4>")[0]
    environment.step(origin)
    after = decision.choose(origin)
    assert np.flatnonzero(environment.action_masks()).tolist() == list(after.legal_actions)
    environment.step(int(np.flatnonzero(~environment.action_masks())[0]))
    assert not environment.action_masks().any()  # the illegal action ended the episode


@pytest.mark.parametrize(("game", "options"), OPTIONS, ids=IDS)
def test_pettingzoo_api_and_render_tests_with_the_options(
    game: str, options: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    api_test(env(game=game, players=2, **options), num_cycles=30)

    def make(render_mode: str | None = None) -> Any:
        return env(game=game, players=2, render_mode=render_mode, **options)

    try:
        render_test(make)
    except ImportError as err:  # cairosvg without the system cairo library (rgb_array)
        pytest.skip(f"rgb_array needs cairosvg and cairo (test extra): {err}")
    assert str(pacru.new_game(game, 2, **options)) in capsys.readouterr().out


def test_human_render_prints_the_text_board(capsys: pytest.CaptureFixture[str]) -> None:
    aec = raw_env(game="pacru", players=2, render_mode="human")
    aec.reset()
    assert aec.render() is None
    assert capsys.readouterr().out == str(pacru.new_game("pacru")) + "\n"
    gym_env = pacru.gymnasium.PacruEnv("shacru", render_mode="human")
    gym_env.reset(seed=0)
    assert gym_env.render() is None
    assert capsys.readouterr().out == str(pacru.new_game("shacru")) + "\n"
