"""The native loop of pacru.vector (``pacru.vector.native``) against the Python loop.

Two environments step the same games with the same random legal actions, one
on ``NativeLoop`` (the extension's chevron encoding), one on ``PythonLoop``
(:mod:`pacru.encoding`): every array of every step must be equal, and so must
each game's position and the actions chosen in its move under way. Thousands of
decisions per game and player count, through restarts, openings and limits.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pacru import ChevronState, new_game
from pacru._cursor import capped
from pacru.chevron.engine import ENGINE
from pacru.encoding.chevron import ORIGIN, RELINQUISH, ChevronEncoding
from pacru.vector import VectorEnv
from pacru.vector.python import PythonLoop

from .support import CONFIGS
from .vector_support import assert_same, play


def pair(
    game: str, players: int, num_envs: int = 8, **options: Any
) -> tuple[VectorEnv, VectorEnv]:
    # Imported here: the module needs the extension, which .support skips without.
    from pacru.vector.native import NativeLoop

    native = VectorEnv(game, players=players, num_envs=num_envs, **options)
    python = VectorEnv(game, players=players, num_envs=num_envs, **options)
    env_only = ("max_steps", "opening_plies", "autoreset_mode", "observation_dtype")
    rules = {k: v for k, v in options.items() if k not in env_only}
    start = new_game(game, players, **capped(game, rules))
    assert isinstance(start, ChevronState)
    assert isinstance(native.encoding, ChevronEncoding)
    python._loop = PythonLoop(python.encoding, start, python.opening_plies)
    native._loop = NativeLoop(native.encoding, start, native.opening_plies)
    return native, python


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_native_loop_equals_the_python_loop(game: str, players: int) -> None:
    cap = {"move_cap": 40} if game in ("azacru", "pacru") else {"idle_rounds": 3}
    native, python = pair(game, players, **cap)
    assert play(native, python, 160, players) > 0


@pytest.mark.parametrize(
    "options",
    [
        {"opening_plies": 6, "move_cap": 30},
        {"meeting_rule": "original", "opening_plies": 3, "move_cap": 50},
        {"max_steps": 20},
        {"autoreset_mode": "next-step", "move_cap": 30},
    ],
)
def test_openings_rules_and_step_limits(options: dict[str, Any]) -> None:
    native, python = pair("pacru", 3, **options)
    play(native, python, 80, 5)


@pytest.mark.parametrize("mode", ["same-step", "next-step"])
@pytest.mark.parametrize("dtype", ["float32", "uint8", "bool"])
def test_random_actions_and_observation_dtypes_equal_the_python_loop(mode: str, dtype: str) -> None:
    """Both loops draw the same random actions (legal ones) and write the same observation in
    each dtype, through ends, restarts and max_steps cuts in both reset rules."""
    native, python = pair(
        "pacru", 2, move_cap=30, max_steps=25, autoreset_mode=mode, observation_dtype=dtype
    )
    a, b = native.init(3), python.init(3)
    ends = 0
    for step in range(90):
        assert_same(a, b, native, python)
        actions = native.random_actions(a, step)
        assert np.array_equal(actions, python.random_actions(b, step))
        assert a.legal_action_mask[np.arange(a.num_envs), actions].all()
        ends += int(a.ended.sum())
        a, b = native.step(a, actions), python.step(b, actions)
    assert ends > 0


def test_a_native_bots_move_cut_by_max_steps_shows_the_encodings_decisions() -> None:
    """The native random bot plays its move decision by decision in the order of
    ``Encoding.actions`` (the Python engine's bots play that list itself): a move cut by
    ``max_steps`` after ``m`` decisions shows its first ``m`` actions, a reorientation's
    relinquished fields among them ascending (R14, D25), so a cut's position, prefix and
    ``final_obs`` are those of a replay through :mod:`pacru.encoding`. The bots' draws do not
    depend on ``max_steps``: the whole move is the one played without a limit."""
    options = {"opening_plies": 30, "move_cap": None, "autoreset_mode": "next-step"}
    whole, _ = pair("pacru", 2, 64, **options)
    start = whole.init(1)
    seats = 1 - start.current_player  # every game's bot is to move
    moved = whole.play_opponents(start, "random", seats, seed=1)
    cuts = relinquishing = 0
    for limit in range(1, 9):
        env, _ = pair("pacru", 2, 64, max_steps=limit, **options)
        cut = env.play_opponents(env.init(1), "random", seats, seed=1)
        for i in range(64):
            chosen = env.prefix(cut, i)
            if not chosen:  # the move ended within the limit, or the limit came first
                continue
            before, after = whole.position(start, i), whole.position(moved, i)
            assert env.position(cut, i) == before
            origin = chosen[0] - ORIGIN
            [move] = [
                m
                for m in before.legal_moves()
                if m.origin == origin and before.apply_move(m) == after
            ]
            assert whole.encoding.actions(before, move)[: len(chosen)] == chosen
            cuts += 1
            relinquishing += any(a >= RELINQUISH for a in chosen)
    assert (cuts, relinquishing) == (90, 5)


@pytest.mark.skipif(ENGINE != "native", reason="the Python engine steps every game in Python")
def test_the_native_loop_is_used_for_chevron_games() -> None:
    from pacru.vector.native import NativeLoop

    assert isinstance(VectorEnv("shacru", num_envs=2)._loop, NativeLoop)
    assert not isinstance(VectorEnv("lsd", num_envs=2)._loop, (NativeLoop, PythonLoop))


def test_an_old_state_is_unchanged_by_a_step() -> None:
    env = VectorEnv("pacru", num_envs=2)
    first = env.init()
    before = first.observation.copy(), env.position(first, 0), env.prefix(first, 0)
    second = env.step(first, first.legal_action_mask.argmax(axis=1))
    env.step(second, second.legal_action_mask.argmax(axis=1))
    assert np.array_equal(first.observation, before[0])
    assert env.position(first, 0) == before[1]
    assert env.prefix(first, 0) == before[2]


@pytest.mark.parametrize("mode", ["same-step", "next-step"])
def test_a_whole_batch_step_leaves_the_mask_to_its_first_read(mode: str) -> None:
    """A native whole-batch step makes no mask; the first read makes it from the games
    (natively, on two threads) and keeps it: read-only, the same array at every read, and
    equal to the mask the Python engine makes from each game's position and chosen actions
    (``BatchLoop.legal_action_mask``), all True on the rows of an end shown or a cut, and the
    new game's where an end restarted in the step."""
    from pacru.vector.batch import BatchLoop

    native, _ = pair("pacru", 2, move_cap=12, max_steps=9, autoreset_mode=mode)
    loop = native._loop
    assert isinstance(loop, BatchLoop)
    loop.threads = 2
    state = native.init(1)
    shown_rows = ends = 0
    for step in range(40):
        actions = native.random_actions(state, step)
        state = native.step(state, actions)
        assert state._masked == []  # nothing made yet
        mask = state.legal_action_mask
        assert mask is state.legal_action_mask
        assert not mask.flags.writeable
        assert mask.shape == (8, 415)
        shown = state.current_player < 0
        generic = BatchLoop.legal_action_mask(loop, state._games, shown)
        assert np.array_equal(mask, generic)
        assert mask[shown].all()
        shown_rows += int(shown.sum())
        ends += int(state.ended.sum())
    # An end is shown for a step only in next-step mode (same-step restarts it at once).
    assert ends > 0
    assert (shown_rows > 0) == (mode == "next-step")


def test_the_native_mask_refuses_a_wrong_shown_length() -> None:
    from pacru import _native

    env, _ = pair("shacru", 2)
    games = env.init()._games
    assert isinstance(games, _native.Batch)
    with pytest.raises(ValueError, match="one byte a game"):
        games.legal_action_mask(b"\0" * 7)
    assert games.legal_action_mask(b"\1" * 8) == bytearray(b"\1" * 8 * 415)


def test_the_mask_made_on_several_threads_equals_the_one_made_on_one() -> None:
    """256 games, so that ``Batch.legal_action_mask`` shares the rows out over 4 threads (a
    thread takes 64 rows at least): the same bytes as on one thread, rows shown all True."""
    env = VectorEnv("pacru", num_envs=256, move_cap=6, autoreset_mode="next-step")
    state = env.init(2)
    for step in range(40):  # until some rows show an end (each game's cap is 6 plies)
        state = env.step(state, env.random_actions(state, step))
        if (state.current_player < 0).any():
            break
    shown = state.current_player < 0
    assert shown.any()
    games = state._games
    if ENGINE != "native":  # the Python engine's games: its own loop makes the mask
        one = env._loop.legal_action_mask(games, shown)
        assert np.array_equal(one, state.legal_action_mask)
        return
    from pacru import _native

    assert isinstance(games, _native.Batch)
    four = games.legal_action_mask(shown.tobytes(), 4)
    made = games.legal_action_mask(shown.tobytes(), 1)
    assert four == made
    mask = np.frombuffer(made, dtype=np.bool_).reshape(256, 415)
    assert np.array_equal(mask, state.legal_action_mask)
    assert mask[shown].all()
