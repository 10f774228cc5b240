"""pacru under OpenSpiel (:mod:`pacru.openspiel`): its own checks on every game and player count."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

import pacru
from pacru.encoding import Encoding

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is in the test extra")
from open_spiel.python.algorithms import mcts  # noqa: E402

import pacru.openspiel  # noqa: E402

pacru.openspiel.register()

CASES = [(g, n) for g in pacru.GAMES for n in (2, 3, 4)]

#: Random simulations per game and player count in pyspiel.random_sim_test (CI time: see
#: docs/openspiel.rst); each plays a whole game, checking every state it passes.
SIMS = 2


def _load(game: str, players: int, **params: int) -> Any:
    args = ",".join(f"{k}={v}" for k, v in {"players": players, **params}.items())
    return pyspiel.load_game(f"pacru_{game}({args})")


def test_register_is_idempotent_and_names_every_game() -> None:
    pacru.openspiel.register()
    names = set(pyspiel.registered_names())
    assert {"pacru_lilacru", "pacru_shacru", "pacru_azacru", "pacru_pacru", "pacru_lsd"} <= names
    assert _load("pacru", 2).num_players() == 2
    assert pyspiel.load_game("pacru_pacru").num_players() == 2  # players defaults to 2


@pytest.mark.parametrize(("game", "players"), CASES)
def test_game_type_and_info_come_from_the_encoding(game: str, players: int) -> None:
    spiel = _load(game, players)
    kind = spiel.get_type()
    assert kind.short_name == f"pacru_{game}"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    options: dict[str, Any] = (
        {"move_cap": pacru.openspiel.MOVE_CAP} if game in ("azacru", "pacru") else {}
    )
    encoding = Encoding.for_game(game, players, **options)
    assert spiel.num_players() == players
    assert spiel.num_distinct_actions() == encoding.num_actions
    assert encoding.max_game_length is not None
    assert spiel.max_game_length() == encoding.max_game_length * encoding.max_decisions
    assert spiel.max_chance_outcomes() == 0
    assert spiel.observation_tensor_shape() == list(encoding.observation_shape)
    state = spiel.new_initial_state()
    assert state.current_player() == 0
    start = pacru.new_game(game, players, **options)
    assert state.legal_actions() == list(encoding.start(start).legal_actions)
    expected = encoding.observation(encoding.start(start), 1).ravel().tolist()
    assert state.observation_tensor(1) == pytest.approx(expected)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_sim_test(game: str, players: int) -> None:
    """OpenSpiel's own consistency test: random games, clones, serialisation, observations."""
    pyspiel.random_sim_test(_load(game, players), num_sims=SIMS, serialize=True, verbose=False)


@pytest.mark.parametrize("game", pacru.GAMES)
def test_illegal_actions_are_refused(game: str) -> None:
    state = _load(game, 2).new_initial_state()
    legal = set(state.legal_actions())
    illegal = next(a for a in range(state.num_distinct_actions()) if a not in legal)
    before = state.serialize()
    with pytest.raises(pacru.IllegalMoveError):
        state.apply_action(illegal)
    assert state.serialize() == before
    assert state.history() == []


@pytest.mark.parametrize("action", [-1, -2, 10**6, 2**63, True, 5.0])
def test_invalid_and_out_of_range_actions_are_illegal_moves(action: Any) -> None:
    """-1 is OpenSpiel's "invalid action" (its own check raised SpielError); every action
    outside legal_actions() is an IllegalMoveError, the state unchanged."""
    state = _load("shacru", 2).new_initial_state()
    before = state.serialize()
    with pytest.raises(pacru.IllegalMoveError, match="legal: \\[5, 19, 27, 81\\]") as info:
        state.apply_action(action)
    assert (info.value.rule, info.value.reason) == ("encoding", "illegal-action")
    assert state.serialize() == before
    assert state.history() == []
    state.apply_action(np.int64(5))
    assert state.history() == [5]


def test_a_game_played_through_openspiel_matches_pacru() -> None:
    """Actions decode to the same moves: replaying them in pacru reaches the same position."""
    spiel = _load("pacru", 3)
    state = spiel.new_initial_state()
    rng = np.random.default_rng(7)
    encoding = Encoding.for_game("pacru", 3, move_cap=pacru.openspiel.MOVE_CAP)
    board = pacru.new_game("pacru", 3, move_cap=pacru.openspiel.MOVE_CAP)
    prefix: list[int] = []
    for _ in range(60):
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        prefix.append(action)
        if not state.prefix:
            board = board.apply_move(encoding.move(board, prefix))
            prefix = []
            assert state.pacru_state == board
    clone = state.clone()
    assert clone.pacru_state == state.pacru_state
    assert clone.history() == state.history()
    again = spiel.deserialize_state(state.serialize())
    assert again.pacru_state == state.pacru_state
    assert str(again) == str(state)
    game2, state2 = pickle.loads(pickle.dumps((spiel, state)))
    assert state2.pacru_state == state.pacru_state
    assert str(game2) == str(spiel)


def test_strings_and_returns() -> None:
    state = _load("shacru", 2).new_initial_state()
    assert state.observation_string(0) == str(pacru.new_game("shacru", 2))
    assert state.information_state_string(0) == ""  # no action yet
    state.apply_action(19)  # origin a3
    assert state.information_state_string(1) == state.information_state_string(0) != ""
    state.apply_action(110)  # target b4: the twist is still to choose
    assert state.observation_string(1).splitlines()[-1] == (
        "chosen in this move: origin a3, target b4"
    )
    assert state.action_to_string(169) == "twist >"
    assert state.returns() == [0.0, 0.0]


@pytest.mark.parametrize("game", pacru.GAMES)
def test_openspiel_mcts_plays_complete_games(game: str) -> None:
    """OpenSpiel's MCTSBot (small budget, short rollouts) against itself, to the end."""
    params = {"move_cap": 40} if game in ("azacru", "pacru") else {}
    spiel = _load(game, 2, **params)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=10)
    bot = mcts.MCTSBot(spiel, uct_c=2.0, max_simulations=4, evaluator=evaluator,
                       random_state=rng, solve=False)  # fmt: skip
    state = spiel.new_initial_state()
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    final = state.pacru_state
    assert final.outcome is not None
    assert state.returns() == list(final.returns())
