"""pacru.gymnasium_vector: one learner against bots in a batch of games (Gymnasium's vector API)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import pacru
from pacru.bots import RandomBot

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is in the test extra")
from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from pacru.gymnasium_vector import PacruVectorEnv  # noqa: E402


def _random_masked(envs: PacruVectorEnv, rng: np.random.Generator) -> Any:
    weights = rng.random(envs.action_masks().shape) * envs.action_masks()
    return weights.argmax(axis=1)


def test_spaces_and_the_first_observations() -> None:
    envs = PacruVectorEnv("shacru", players=3, num_envs=4, opponent="random", seat=2)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.single_action_space == gymnasium.spaces.Discrete(415)
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([415] * 4)
    observations, infos = envs.reset(seed=0)
    assert envs.observation_space.contains(observations)
    assert observations["observation"].shape == (4, 64, 9, 9)
    assert observations["action_mask"].dtype == np.int8
    assert infos["seat"].tolist() == [2, 2, 2, 2]
    state = envs.state
    assert state.current_player.tolist() == [2, 2, 2, 2]  # the bots moved first
    assert [envs.env.position(state, i).ply for i in range(4)] == [2, 2, 2, 2]
    assert np.array_equal(observations["action_mask"], envs.action_masks().astype(np.int8))


def _play(envs: PacruVectorEnv, seed: int, steps: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    trace: list[Any] = [envs.reset(seed=seed)]
    for _ in range(steps):
        before = envs.state
        result = envs.step(_random_masked(envs, rng))
        observations, rewards, terminated, truncated, _ = result
        assert envs.observation_space.contains(observations)
        state = envs.state
        for i in range(envs.num_envs):
            if before.ended[i]:  # next-step autoreset: the game restarted
                assert state.episode[i] == before.episode[i] + 1
            if terminated[i] or truncated[i]:
                final = envs.env.position(state, i)
                if final.outcome is None:  # stopped by max_steps
                    assert truncated[i]
                assert rewards[i] == final.returns()[envs.seat]
                assert observations["action_mask"][i].all()
            else:
                assert rewards[i] == 0.0
                assert state.current_player[i] == envs.seat
        trace.append(result)
    return trace


def test_a_batch_of_games_against_bots_ends_restarts_and_replays_by_seed() -> None:
    envs = PacruVectorEnv(
        "pacru", players=3, num_envs=3, opponent=["greedy", RandomBot], seat=1, move_cap=12
    )
    trace = _play(envs, seed=4, steps=40)
    assert envs.state.episode.min() >= 1, "every game ended and restarted"
    assert any(step[3].any() for step in trace[1:]), "the move cap truncates"
    assert data_equivalence(_play(envs, seed=4, steps=40), trace)
    assert not data_equivalence(_play(envs, seed=5, steps=40), trace)


def test_max_steps_cuts_a_bots_move_and_the_game_restarts_cleanly() -> None:
    envs = PacruVectorEnv("pacru", players=2, num_envs=4, opponent="random", max_steps=7)
    trace = _play(envs, seed=1, steps=30)
    assert any(step[3].any() for step in trace[1:])


def test_an_illegal_action_raises_and_changes_no_game() -> None:
    envs = PacruVectorEnv("azacru", players=2, num_envs=2)
    envs.reset(seed=0)
    state = envs.state
    actions = _random_masked(envs, np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(~envs.action_masks()[1])[0])
    with pytest.raises(pacru.IllegalMoveError, match="game 1: action"):
        envs.step(actions)
    assert envs.state is state


def test_bad_arguments_and_a_step_before_reset() -> None:
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1, not 2"):
        PacruVectorEnv("pacru", players=2, seat=2)
    with pytest.raises(ValueError, match="3 players need 2 opponents, not 1"):
        PacruVectorEnv("pacru", players=3, opponent=["random"])
    with pytest.raises(ValueError, match="unknown option"):
        PacruVectorEnv("pacru", move_kap=3)
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        PacruVectorEnv("pacru").step(np.zeros(1, dtype=np.int64))


def test_gymnasiums_vector_wrappers_see_each_episode() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    inner = PacruVectorEnv("lilacru", players=2, num_envs=3, opponent="random")
    envs = RecordEpisodeStatistics(inner)
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    lengths = np.zeros(3, dtype=np.int64)
    ended = np.zeros(3, dtype=np.bool_)
    episodes = 0
    returns = []
    for _ in range(150):
        lengths = np.where(ended, 0, lengths + 1)  # the autoreset step is not counted
        _, rewards, terminated, truncated, infos = envs.step(_random_masked(inner, rng))
        ended = terminated | truncated
        if ended.any():
            assert infos["_episode"].tolist() == ended.tolist()
            assert infos["episode"]["l"][ended].tolist() == lengths[ended].tolist()
            assert infos["episode"]["r"][ended].tolist() == rewards[ended].tolist()
            episodes += int(ended.sum())
            returns += rewards[ended].tolist()
    assert episodes >= 6
    assert {-1.0, 1.0} <= set(returns), "Lilacru games are won and lost"


def test_seat_none_draws_the_learners_seat_per_game_and_episode() -> None:
    envs = PacruVectorEnv("pacru", players=2, num_envs=16, opponent="greedy", seat=None, move_cap=8)
    trace = []
    _, infos = envs.reset(seed=3)
    seats = infos["seat"]
    assert set(seats.tolist()) == {0, 1}
    assert envs.state.current_player.tolist() == seats.tolist()
    rng = np.random.default_rng(0)
    for _ in range(30):
        before = envs.seats
        result = envs.step(_random_masked(envs, rng))
        _, rewards, terminated, truncated, infos = result
        for i in np.flatnonzero(terminated | truncated).tolist():
            final = envs.env.position(envs.state, i)
            if final.outcome is not None:
                assert rewards[i] == final.returns()[before[i]]
        live = ~envs.state.ended
        assert (envs.state.current_player[live] == infos["seat"][live]).all()
        trace.append(infos["seat"].copy())
    assert any(not np.array_equal(trace[0], t) for t in trace), "seats redrawn per episode"
    envs.reset(seed=3)
    assert np.array_equal(envs.seats, seats)


def _lowest_legal(observation: Any, mask: Any) -> Any:
    return mask.argmax(axis=1)


@pytest.mark.parametrize("opponent", ["greedy", "random", _lowest_legal])
def test_seat_none_same_step_the_learner_decides_in_the_new_games_seat(opponent: Any) -> None:
    """A game cut by the move cap during the opponents' moves restarts with its new seat."""
    envs = PacruVectorEnv(
        "pacru", 2, 16, opponent=opponent, seat=None, move_cap=8, autoreset_mode="same-step"
    )
    _, infos = envs.reset(seed=3)
    assert envs.state.current_player.tolist() == infos["seat"].tolist()
    rng = np.random.default_rng(0)
    changed = 0
    for _ in range(30):
        before = envs.seats
        _, _, terminated, truncated, infos = envs.step(_random_masked(envs, rng))
        assert envs.state.current_player.tolist() == infos["seat"].tolist()
        changed += int(((terminated | truncated) & (infos["seat"] != before)).sum())
    assert changed > 0, "some games restarted in the other seat"


def test_a_batched_policy_is_the_opponent_and_can_be_swapped() -> None:
    seen: list[int] = []

    def policy(observation: Any, mask: Any) -> Any:
        seen.append(len(mask))
        return mask.argmax(axis=1)

    envs = PacruVectorEnv("shacru", players=2, num_envs=4, opponent=policy, seat=1)
    envs.reset(seed=0)
    assert set(seen) == {4}  # the opponent opened every game, decision by decision
    opened = len(seen)
    rng = np.random.default_rng(1)
    for _ in range(4):  # a learner's move may take more than one step
        envs.step(_random_masked(envs, rng))
    assert len(seen) > opened
    envs.set_opponent("random")
    envs.step(_random_masked(envs, np.random.default_rng(1)))
    assert envs.state.current_player.tolist() == [1, 1, 1, 1]


def test_same_step_autoreset_reports_the_end_and_returns_the_new_game() -> None:
    envs = PacruVectorEnv(
        "pacru",
        players=2,
        num_envs=8,
        opponent="random",
        move_cap=4,
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(6):
        observations, _, terminated, truncated, infos = envs.step(_random_masked(envs, rng))
        assert (envs.state.current_player == 0).all()  # always a live game
        if (terminated | truncated).any():
            ended = terminated | truncated
            assert infos["_final_obs"].tolist() == ended.tolist()
            assert observations["action_mask"][ended].any(axis=1).all()
            return
    raise AssertionError("a game should have ended at the move cap")


def test_make_vec_pickling_and_deep_copies() -> None:
    import copy
    import pickle

    import pacru.gymnasium  # noqa: F401  (registers the ids)

    envs = gymnasium.make_vec(
        "pacru/Pacru-v0", num_envs=3, vectorization_mode="vector_entry_point", opponent="greedy"
    )
    assert isinstance(envs, PacruVectorEnv)
    assert envs.num_envs == 3
    assert envs.env.encoding.options["move_cap"] == 1000
    first = envs.reset(seed=2)
    for clone in (pickle.loads(pickle.dumps(envs)), copy.deepcopy(envs)):
        assert data_equivalence(clone.reset(seed=2), first)
    single = gymnasium.make("pacru/Shacru-v0", players=2)
    single.reset(seed=1)
    assert data_equivalence(pickle.loads(pickle.dumps(single)).reset(seed=1), single.reset(seed=1))


def _first_legal(observation: Any, mask: Any) -> Any:
    """A batched policy that pickles (a module's function): each row's first legal action."""
    return mask.argmax(axis=1)


@pytest.mark.parametrize("mode", ["next-step", "same-step"])
@pytest.mark.parametrize("opponent", ["greedy", _first_legal, RandomBot, "random:uniform=moves"])
def test_a_copy_made_mid_episode_plays_on_as_the_original(opponent: Any, mode: str) -> None:
    import copy
    import pickle

    kwargs: dict[str, Any] = {"max_steps": 11, "move_cap": 16, "autoreset_mode": mode}
    envs = PacruVectorEnv("pacru", 3, 5, opponent, seat=None, **kwargs)
    rng = np.random.default_rng(2)
    envs.reset(seed=6)
    for _ in range(4):
        envs.step(_random_masked(envs, rng))
    assert any(envs.env.prefix(envs.state, i) for i in range(5)) or envs._pending
    clones = [pickle.loads(pickle.dumps(envs)), copy.deepcopy(envs)]
    ends = 0
    for _ in range(16):
        actions = _random_masked(envs, rng)
        result = envs.step(actions)
        ends += int((result[2] | result[3]).sum())
        for clone in clones:
            assert data_equivalence(clone.step(actions), result, exact=True)
            assert clone.state.equals(envs.state)
    assert ends > 0, "games ended and restarted after the copy"
    # Gymnasium's generator came along too: a reset without a seed draws the same games.
    first = envs.reset()
    assert all(data_equivalence(clone.reset(), first, exact=True) for clone in clones)


def _end_of_step(envs: PacruVectorEnv, row: int, action: int, seat: int) -> tuple[Any, str]:
    """Game ``row``'s learner step replayed with the encoding alone, against ``_first_legal``
    (each opponent decision takes the lowest legal action): where it stops and why
    (``"learner"``: the learner decides again; ``"cut"``: at ``max_steps``; ``"over"``)."""
    env, before = envs.env, envs.state
    decision = env.encoding.start(env.position(before, row))
    for chosen in env.prefix(before, row):
        decision = decision.choose(chosen)
    steps = int(before.step_count[row])
    decision, steps = decision.choose(action), steps + 1
    while True:
        if decision.done:
            position = decision.state.apply_move(decision.move)
            if position.outcome is not None:
                return position, "over"
            decision = env.encoding.start(position)
        if env.max_steps is not None and steps >= env.max_steps:
            return decision, "cut"
        if decision.player == seat:
            return decision, "learner"
        decision, steps = decision.choose(min(decision.legal_actions)), steps + 1


def _seen_by(decision: Any, seat: int) -> tuple[Any, Any]:
    """The observation and int8 mask of ``decision`` from ``seat`` (zeros where it is not
    the seat's decision), as :class:`pacru.gymnasium.PacruEnv` shows a decision."""
    mask = np.zeros(decision.encoding.num_actions, dtype=np.int8)
    mask[list(decision.legal_actions)] = decision.player == seat
    return decision.encoding.observation(decision, seat), mask


def _going_on(decision: Any, encoding: Any) -> Any:
    """The decision of ``decision`` (a cut), or, where ``decision`` is the position a limit of
    the rules ended (D32, D33), the first decision of its seat to move as if it went on."""
    if not isinstance(decision, pacru.GameState):
        return decision
    p: Any = decision  # a chevron state
    going_on = type(p)(  # the engine's own state class
        p.rules, p.players, p.markers, p.chevrons, p.to_move,
        p.out, p.trigger, p.idle, p.ply, None, p.occupied,
    )  # fmt: skip
    return encoding.start(going_on)


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("shacru", 3, {"max_steps": 10}),
        ("lsd", 2, {"max_steps": 6}),
        ("pacru", 2, {"move_cap": 10}),
        ("shacru", 2, {"idle_rounds": 1}),
    ],
)
def test_a_truncated_games_final_observation_is_its_last_position(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """Same-step: ``final_obs`` of a game cut by ``max_steps`` is its decision under way seen
    from the learner's seat; of one ended by the move cap (D32) or the idle rounds (D33),
    the first decision of its seat to move, as if the limit had not ended it; of a game
    ended by the rules, zeros with an all-ones mask (no decision is left)."""
    envs = PacruVectorEnv(
        game, players, 6, _first_legal, seat=None, autoreset_mode="same-step", **options
    )
    envs.reset(seed=1)
    rng = np.random.default_rng(1)
    cuts = 0
    for _ in range(60):
        actions = _random_masked(envs, rng)
        seats = envs.seats
        ends = [_end_of_step(envs, i, int(actions[i]), int(seats[i])) for i in range(6)]
        _, _, terminated, truncated, infos = envs.step(actions)
        for i, (stop, why) in enumerate(ends):
            assert bool(terminated[i] or truncated[i]) == (why != "learner")
            if why == "learner":
                continue
            final = infos["final_obs"][i]
            if terminated[i]:
                assert not final["observation"].any()
                assert final["action_mask"].all()
                continue
            cuts += 1
            # The decision under way at a cut; at a limit of the rules, as if it went on.
            observation, mask = _seen_by(_going_on(stop, envs.env.encoding), int(seats[i]))
            assert final["observation"].dtype == np.float32
            assert np.array_equal(final["observation"], observation)
            assert np.array_equal(final["action_mask"], mask)
            assert final["action_mask"].dtype == np.int8
    assert cuts >= 3


def test_a_game_ended_twice_in_a_step_shows_the_last_end() -> None:
    """Same-step, ``move_cap=1``: the learner's move ends its game (D32), and the new game's
    first move, an opponent's, ends that one too; ``final_obs`` is the last end's (the one
    ``truncated`` shows): the opponent's first move (the lowest legal actions), seen from
    the seat of the episode that ended, not the learner's game before it."""
    envs = PacruVectorEnv(
        "pacru", 2, 1, _first_legal, seat=None, move_cap=1, autoreset_mode="same-step"
    )
    envs.reset(seed=7)
    encoding = envs.env.encoding
    start = envs.env.position(envs.state, 0)
    twice = 0
    for _ in range(4):
        before = int(envs.state.episode[0])
        # The learner takes its highest legal action: its game is not the opponent's.
        actions = np.array([np.flatnonzero(envs.action_masks()[0])[-1]])
        _, _, terminated, truncated, infos = envs.step(actions)
        if int(envs.state.episode[0]) != before + 2:
            continue
        assert (terminated.tolist(), truncated.tolist()) == ([False], [True])
        twice += 1
        decision = encoding.start(start)
        while not decision.done:
            decision = decision.choose(min(decision.legal_actions))
        seat = int(envs.seats[0]) ^ 1  # the seat of the episode that ended: seat 1
        last = decision.state.apply_move(decision.move)
        observation, mask = _seen_by(_going_on(last, encoding), seat)
        final = infos["final_obs"][0]
        assert np.array_equal(final["observation"], observation)
        assert np.array_equal(final["action_mask"], mask)
    assert twice >= 1, "a game ended twice in one step"


def _bots_end_of_step(envs: PacruVectorEnv, row: int, action: int, bot: str) -> tuple[Any, str]:
    """Game ``row``'s learner step (seat 0) against the built-in ``bot``, replayed with the
    encoding and the bot's rules alone (:func:`pacru.bots.spec.make_bot`, seeded from the
    env's bot seed, the row, the episode and the ply): as :func:`_end_of_step`."""
    from pacru.bots.spec import make_bot
    from pacru.vector.draws import game_seeds

    env, before = envs.env, envs.state
    seed = int(game_seeds(envs._seeds[0], before.episode)[row])
    decision = env.encoding.start(env.position(before, row))
    for chosen in env.prefix(before, row):
        decision = decision.choose(chosen)
    steps = int(before.step_count[row])
    decision, steps = decision.choose(action), steps + 1
    queue: list[int] = []
    while True:
        if decision.done:
            position = decision.state.apply_move(decision.move)
            if position.outcome is not None:
                return position, "over"
            decision = env.encoding.start(position)
        if env.max_steps is not None and steps >= env.max_steps:
            return decision, "cut"
        if decision.player == 0:
            return decision, "learner"
        if not queue:
            position = decision.state
            move = make_bot(bot, seed=seed ^ position.ply).choose_move(position)
            queue = list(env.encoding.actions(position, move))
        decision, steps = decision.choose(queue.pop(0)), steps + 1


@pytest.mark.parametrize(
    ("game", "bot", "options", "expected"),
    [
        ("pacru", "random", {"move_cap": 9}, "over"),
        ("pacru", "greedy", {"move_cap": 9}, "over"),
        ("lilacru", "greedy", {"max_steps": 9}, "cut"),
        ("azacru", "random", {"max_steps": 200}, "won"),
    ],
)
def test_a_final_observation_against_a_built_in_bot_is_the_games_last_position(
    game: str, bot: str, options: dict[str, Any], expected: str
) -> None:
    """As above against ``"random"`` and ``"greedy"`` (on the native engine one native call a
    step): ``final_obs`` of a game cut by ``max_steps``, the move cap (D32) or the idle
    rounds (D33), or won, against the game replayed with the rules and the bot alone."""
    envs = PacruVectorEnv(game, 2, 6, bot, seat=0, autoreset_mode="same-step", **options)
    envs.reset(seed=3)
    encoding = envs.env.encoding
    rng = np.random.default_rng(3)
    seen = {"over": 0, "cut": 0, "won": 0}
    for _ in range(50):
        actions = _random_masked(envs, rng)
        ends = [_bots_end_of_step(envs, i, int(actions[i]), bot) for i in range(6)]
        _, _, terminated, truncated, infos = envs.step(actions)
        for i, (stop, why) in enumerate(ends):
            assert bool(terminated[i] or truncated[i]) == (why != "learner")
            if why == "learner":
                continue
            final = infos["final_obs"][i]
            if terminated[i]:
                seen["won"] += 1
                assert not final["observation"].any()
                assert final["action_mask"].all()
                continue
            seen[why] += 1
            observation, mask = _seen_by(_going_on(stop, encoding), 0)
            assert np.array_equal(final["observation"], observation)
            assert np.array_equal(final["action_mask"], mask)
    assert seen[expected] >= 2, seen
