"""The fused learner step of PacruVectorEnv (one native call against a built-in bot) gives
exactly what the step by step path gives: VectorEnv.step, then the bots' moves."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pacru.chevron.engine import ENGINE

pytest.importorskip("gymnasium", reason="Gymnasium is in the test extra")
from gymnasium.utils.env_checker import data_equivalence

from pacru.gymnasium_vector import PacruVectorEnv


def _pair(**kwargs: Any) -> tuple[PacruVectorEnv, PacruVectorEnv]:
    fused = PacruVectorEnv(**kwargs)
    stepwise = PacruVectorEnv(**kwargs)
    stepwise._fused = False
    return fused, stepwise


def _same_results(a: Any, b: Any) -> None:
    """Two results of ``step`` (or ``reset``): equal values, dtypes and shapes."""
    assert data_equivalence(a, b, exact=True)


CASES = [
    # (game, players, opponent, seat, autoreset mode, options)
    ("pacru", 2, "random", 0, "next-step", {"move_cap": 12}),
    ("pacru", 2, "random", 1, "same-step", {"move_cap": 12}),
    ("pacru", 2, "greedy", None, "same-step", {"move_cap": 10}),
    ("pacru", 2, "random", None, "next-step", {"move_cap": 10}),
    ("pacru", 3, "random", None, "same-step", {"move_cap": 9, "num_threads": 2}),
    ("shacru", 2, "greedy", 1, "next-step", {"max_steps": 7, "observation_dtype": "uint8"}),
    ("azacru", 3, "random", None, "same-step", {"max_steps": 11, "observation_dtype": "bool"}),
    ("lilacru", 4, "random", 2, "next-step", {"max_steps": 9, "num_threads": 3}),
]


@pytest.mark.skipif(ENGINE != "native", reason="the fused step is the native engine's")
@pytest.mark.parametrize(("game", "players", "opponent", "seat", "mode", "options"), CASES)
def test_the_fused_step_gives_the_step_by_step_games(
    game: str, players: int, opponent: str, seat: int | None, mode: str, options: dict[str, Any]
) -> None:
    fused, stepwise = _pair(
        game=game,
        players=players,
        num_envs=12,
        opponent=opponent,
        seat=seat,
        autoreset_mode=mode,
        **options,
    )
    _same_results(fused.reset(seed=5), stepwise.reset(seed=5))
    assert fused._turn() is not None
    assert stepwise._turn() is None
    rng = np.random.default_rng(7)
    ends = 0
    for _ in range(40):
        mask = fused.action_masks()
        assert np.array_equal(mask, stepwise.action_masks())
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        a, b = fused.step(actions), stepwise.step(actions)
        _same_results(a, b)
        assert fused.state.equals(stepwise.state)
        assert np.array_equal(fused.state.observation, stepwise.state.observation)
        assert not fused.state.observation.flags.writeable
        ended = np.flatnonzero(a[2] | a[3]).tolist()
        ends += len(ended)
        if mode == "same-step" and "max_steps" not in options:
            # The new game's learner makes its first move: seat s finds s bot moves played.
            for i in ended:
                assert fused.env.position(fused.state, i).ply == a[4]["seat"][i]
    assert ends >= 3, "the games end and restart along the way"


@pytest.mark.skipif(ENGINE != "native", reason="the fused step is the native engine's")
def test_an_illegal_action_in_the_fused_step_changes_nothing() -> None:
    import pacru

    envs = PacruVectorEnv("pacru", 2, 4, opponent="random", autoreset_mode="same-step")
    envs.reset(seed=1)
    before = envs.state
    actions = envs.action_masks().argmax(axis=1)
    actions[2] = int(np.flatnonzero(~envs.action_masks()[2])[0])
    with pytest.raises(pacru.IllegalMoveError, match="game 2"):
        envs.step(actions)
    assert envs.state is before
    # Out of range in an intp array: the native step refuses it, the check then names it.
    for bad in (415, -1, 2**40):
        actions = envs.action_masks().argmax(axis=1)
        actions[1] = bad
        with pytest.raises(
            pacru.IllegalMoveError, match=f"game 1: action {bad} is outside"
        ) as info:
            envs.step(actions)
        assert info.value.reason == "out-of-range"
        assert envs.state is before


@pytest.mark.skipif(ENGINE != "native", reason="the fused step is the native engine's")
def test_max_steps_that_cut_every_game_before_the_learner_decides_is_refused() -> None:
    for fused in (True, False):
        envs = PacruVectorEnv(
            "pacru", 2, 2, opponent="random", seat=1, max_steps=1, autoreset_mode="same-step"
        )
        envs._fused = fused
        with pytest.raises(ValueError, match="max_steps=1 cuts the games"):
            envs.reset(seed=0)  # the bots' first moves are cut, and cut again
        # From a state where seat 0 decides: the cut, then the bots' moves cut twice.
        envs._state = envs.env.init(0)
        before = envs.state
        actions = envs.action_masks().argmax(axis=1)
        with pytest.raises(ValueError, match="max_steps=1 cuts the games"):
            envs.step(actions)
        if fused:
            assert envs.state is before


@pytest.mark.skipif(ENGINE != "native", reason="the fused step is the native engine's")
def test_the_fused_step_copies_where_a_game_could_be_cut_twice() -> None:
    """A step in place cannot undo the games it stepped before a game is cut twice: where
    max_steps could cut the bots' moves after a restart, the env's own state is copied,
    and the refused step leaves it whole."""
    envs = PacruVectorEnv(
        "pacru", 2, 2, opponent="random", seat=1, max_steps=1, autoreset_mode="same-step"
    )
    envs._state = envs.env.init(0)  # seat 0 decides: the cut, then the bots' moves cut
    with pytest.raises(ValueError, match="max_steps=1 cuts the games"):
        envs.step(envs.action_masks().argmax(axis=1))  # no one but the env holds its state
    assert envs.env._loop.in_place_steps == 0
    assert envs.env.position(envs.state, 0).ply >= 0  # not spent


@pytest.mark.skipif(ENGINE != "native", reason="the fused step is the native engine's")
@pytest.mark.parametrize(("game", "players", "opponent", "seat", "mode", "options"), CASES)
def test_the_fused_step_steps_the_state_it_alone_holds_in_place(
    game: str, players: int, opponent: str, seat: int | None, mode: str, options: dict[str, Any]
) -> None:
    """Where no one else holds the env's state the fused step takes it over and steps its
    games in place (``Batch.learner_step_in_place``): the same results as a fused step
    that copies (an env whose states the test holds), and the held states stay whole."""
    kwargs: dict[str, Any] = {"game": game, "players": players, "num_envs": 12}
    kwargs["opponent"] = opponent
    donating = PacruVectorEnv(seat=seat, autoreset_mode=mode, **kwargs, **options)
    copying = PacruVectorEnv(seat=seat, autoreset_mode=mode, **kwargs, **options)
    _same_results(donating.reset(seed=5), copying.reset(seed=5))
    rng = np.random.default_rng(7)
    held = []
    for _ in range(30):
        held.append(copying.state)  # held here: that env's steps copy it
        mask = donating.action_masks()
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        _same_results(donating.step(actions), copying.step(actions))
        assert donating.state.equals(copying.state)
        assert np.array_equal(donating.state.observation, copying.state.observation)
    assert all(copying.env.position(state, 3).ply >= 0 for state in held)
    assert copying.env._loop.in_place_steps == 0
    assert donating.env._loop.in_place_steps == 30
    # A state read from the env is held: the next step copies it, and it stays whole.
    kept = donating.state
    mask = donating.action_masks()
    donating.step((rng.random(mask.shape) * mask).argmax(axis=1))
    assert donating.env._loop.in_place_steps == 30
    assert donating.env.position(kept, 0).ply >= 0


@pytest.mark.skipif(ENGINE != "native", reason="the fused step is the native engine's")
def test_an_illegal_action_in_a_fused_step_in_place_spends_nothing() -> None:
    import pacru

    envs = PacruVectorEnv("pacru", 2, 4, opponent="random", autoreset_mode="next-step")
    envs.reset(seed=1)
    actions = envs.action_masks().argmax(axis=1)
    actions[2] = int(np.flatnonzero(~envs.action_masks()[2])[0])
    with pytest.raises(pacru.IllegalMoveError, match="game 2"):
        envs.step(actions)  # every action is checked before any game steps
    assert not envs.state._donated
    assert envs.env._loop.in_place_steps == 0
    envs.step(envs.action_masks().argmax(axis=1))
    assert envs.env._loop.in_place_steps == 1


@pytest.mark.parametrize("fused", [True, False])
def test_seat_none_same_step_a_new_games_learner_makes_its_first_move(fused: bool) -> None:
    """A game that ends in the bots' moves restarts with its new episode's seat at once: the
    bots play the moves before that seat's first, never the learner's own (both paths; the
    fused one where the native engine runs)."""
    envs = PacruVectorEnv(
        "pacru", 2, 8, opponent="random", seat=None, move_cap=7, autoreset_mode="same-step"
    )
    envs._fused = fused  # an odd move cap: games also end on seat 0's moves, a bot's for seat 1
    envs.reset(seed=2)
    rng = np.random.default_rng(3)
    restarts = 0
    for _ in range(30):
        mask = envs.action_masks()
        _, _, terminated, truncated, infos = envs.step((rng.random(mask.shape) * mask).argmax(1))
        for i in np.flatnonzero(terminated | truncated).tolist():
            assert envs.env.position(envs.state, i).ply == infos["seat"][i]
            restarts += 1
    assert restarts >= 8


@pytest.mark.skipif(ENGINE != "native", reason="the fused step is the native engine's")
@pytest.mark.parametrize("mode", ["same-step", "next-step"])
def test_the_fused_step_gives_the_same_games_on_every_thread_count(mode: str) -> None:
    """200 games: 3 threads take chunks of 66 or 67 games (a thread takes at least 64)."""
    kwargs: dict[str, Any] = {"seat": None, "move_cap": 9, "autoreset_mode": mode}
    envs = [PacruVectorEnv("pacru", 2, 200, "greedy", num_threads=t, **kwargs) for t in (1, 3)]
    results = [e.reset(seed=4) for e in envs]
    _same_results(*results)
    rng = np.random.default_rng(5)
    for _ in range(12):
        mask = envs[0].action_masks()
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        _same_results(*(e.step(actions) for e in envs))
        one, three = (e.state for e in envs)
        assert one.equals(three)  # the games and arrays: the thread count does not count
        assert np.array_equal(one.observation, three.observation)


@pytest.mark.parametrize(("game", "players", "opponent", "seat", "mode", "options"), CASES)
def test_the_step_by_step_path_donates_the_state_it_alone_holds(
    game: str, players: int, opponent: str, seat: int | None, mode: str, options: dict[str, Any]
) -> None:
    """``VectorEnv.step(..., donate=True)`` where no one else holds the env's state: the
    same results as a copying step (an env whose state the test holds), and the held
    states stay whole (both engines; in place on the native chevron loop)."""
    kwargs = {"game": game, "players": players, "num_envs": 12, "opponent": opponent}
    donating, copying = _pair(seat=seat, autoreset_mode=mode, **kwargs, **options)
    donating._fused = False
    _same_results(donating.reset(seed=5), copying.reset(seed=5))
    rng = np.random.default_rng(7)
    held = []
    for _ in range(30):
        held.append(copying.state)  # held here: that env's steps copy it
        mask = donating.action_masks()
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        _same_results(donating.step(actions), copying.step(actions))
        assert donating.state.equals(copying.state)
        assert np.array_equal(donating.state.observation, copying.state.observation)
    # None of the held states was spent (a spent state's position raises ValueError).
    assert all(copying.env.position(state, 3).ply >= 0 for state in held)
    assert copying.env._loop.in_place_steps == 0
    # Next-step: every learner step's first call steps every game (same-step: a kept
    # game of an end shares the batch now and then, and that step copies).
    in_place = donating.env._loop.in_place_steps
    if ENGINE != "native":
        assert in_place == 0
    elif mode == "next-step":
        assert in_place == 30
        # The bots' moves of next-step mode play the state the step made (which no one
        # else holds, whether the step copied or not) in place, in every step they play.
        assert donating.env._loop.in_place_bots == copying.env._loop.in_place_bots > 20
    else:
        assert 0 < in_place <= 30
