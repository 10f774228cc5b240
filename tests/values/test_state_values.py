"""States are values: no chain of states, copies are the state, pickles are compact and
independent of the plies played, and everything a state hands out is immutable (issue 12)."""

from __future__ import annotations

import copy
import gc
import pickle
import random
from typing import Any

import attrs
import pytest

import pacru
from pacru import ChevronState, GameState, Move
from pacru.chevron.engine import STATE_CLASS
from pacru.lsd import LsdState

from .longline import CYCLE, CYCLE_START, play_cycle

CHEVRON_KEYS = ("players", "turn", "markers", "chevrons", "out", "trigger", "idle")
GAME_PLAYERS = [(g, n) for g in pacru.GAMES for n in (2, 3, 4)]


def _at_ply(state: GameState[Any], ply: int) -> GameState[Any]:
    """The position of chevron state ``state`` loaded with its ply count set to ``ply``."""
    words = [w for w in state.to_position().split() if not w.startswith("ply=")]
    at = max(i for i, w in enumerate(words) if i == 0 or w.split("=")[0] in CHEVRON_KEYS)
    words.insert(at + 1, f"ply={ply}")
    loaded = pacru.from_position(" ".join(words))
    assert loaded.ply == ply
    return loaded


def _random_states(game: str, players: int, seed: int, plies: int) -> list[GameState[Any]]:
    rng = random.Random(seed)
    states: list[GameState[Any]] = [pacru.new_game(game, players)]
    while not states[-1].is_terminal and len(states) <= plies:
        states.append(states[-1].apply_move(rng.choice(states[-1].legal_moves())))
    return states


def _round_trip(state: GameState[Any]) -> GameState[Any]:
    back: GameState[Any] = pickle.loads(pickle.dumps(state))
    assert back == state
    assert hash(back) == hash(state)
    assert back.to_position() == state.to_position()
    assert (back.ply, back.last_move, back.outcome) == (state.ply, state.last_move, state.outcome)
    assert list(back.legal_moves()) == list(state.legal_moves())
    return back


# -- no chain of states ------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), GAME_PLAYERS)
def test_a_state_references_no_other_state(game: str, players: int) -> None:
    """Nothing a state holds is a state: a game's states are not kept alive by its last."""
    for state in _random_states(game, players, seed=players, plies=60):
        state.legal_moves()  # the cache is filled, and holds no state either
        held = gc.get_referents(state)
        assert not [r for r in held if isinstance(r, GameState)]


@pytest.mark.parametrize(("game", "players"), GAME_PLAYERS)
def test_copy_and_deepcopy_return_the_state_itself(game: str, players: int) -> None:
    for state in _random_states(game, players, seed=7, plies=30)[::10]:
        assert copy.copy(state) is state
        assert copy.deepcopy(state) is state
        inside = copy.deepcopy({"s": [state]})
        assert inside["s"][0] is state


@pytest.mark.parametrize("name", ["history", "previous"])
@pytest.mark.parametrize("game", ["shacru", "lsd"])
def test_removed_history_and_previous_name_the_replacement(name: str, game: str) -> None:
    """Reading history or previous (other libraries' names) raises AttributeError pointing at
    pacru.Game."""
    state = pacru.new_game(game)
    expected = rf"no earlier state, so it has no {name}; use pacru\.Game"
    with pytest.raises(AttributeError, match=expected):
        getattr(state, name)
    assert not hasattr(state, name)
    assert name not in dir(state)


@pytest.mark.parametrize("game", ["shacru", "lsd"])
def test_other_missing_attributes_raise_the_plain_error(game: str) -> None:
    state, name = pacru.new_game(game), "plies"
    with pytest.raises(AttributeError, match=r"object has no attribute 'plies'$") as info:
        getattr(state, name)
    assert (info.value.name, info.value.obj) == (name, state)


# -- pickle --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), GAME_PLAYERS)
def test_every_game_pickles_small_and_round_trips_at_ply_1000(game: str, players: int) -> None:
    """Each state of a random game, and (chevron games) its positions loaded at ply 1,000
    (LSD games end within 80 plies, so its states are taken as they come)."""
    for state in _random_states(game, players, seed=11, plies=1000):
        assert len(pickle.dumps(state)) < 16 * 1024
        _round_trip(state)
    if game != "lsd":
        for state in _random_states(game, players, seed=11, plies=1000)[::25]:
            late = _at_ply(state, 1000)
            assert len(pickle.dumps(late)) < 16 * 1024
            assert _round_trip(late).ply == 1000


def test_a_genuine_game_at_ply_1000_pickles_as_small_as_at_ply_6() -> None:
    start = pacru.from_position(CYCLE_START)
    assert isinstance(start, ChevronState)
    early = play_cycle(start, 1000 % len(CYCLE))
    late = play_cycle(start, 1000)
    assert (early.ply, late.ply, late.outcome, late.to_move) == (6, 1000, None, early.to_move)
    # Same position, last move and counters; the two larger integers take two more bytes each.
    assert late.chevrons == early.chevrons
    assert len(pickle.dumps(late)) <= len(pickle.dumps(early)) + 4
    assert _round_trip(late).last_move == Move.parse("pass")


@pytest.mark.parametrize("game", ["lilacru", "shacru", "azacru", "pacru"])
def test_pickle_at_ply_100000_does_not_grow_while_playing_on(game: str) -> None:
    """A position loaded at ply 100,000 and played on: pickles the same size as the same
    position at ply 0, within the bytes of two larger integers, and copies are free."""
    states = _random_states(game, 2, seed=5, plies=120)
    mid = states[len(states) // 2]
    base = _at_ply(mid, 0)
    late = _at_ply(mid, 100_000)
    rng = random.Random(3)
    for plies in range(1, 200):
        if late.is_terminal:
            break
        move = rng.choice(late.legal_moves())
        base, late = base.apply_move(move), late.apply_move(move)
        assert late.ply == 100_000 + plies
        assert copy.deepcopy(late) is late
        size = len(pickle.dumps(late))
        assert len(pickle.dumps(base)) <= size <= len(pickle.dumps(base)) + 8 < 16 * 1024
        _round_trip(late)


def test_a_genuine_100000_ply_game_pickles_and_copies_like_its_start() -> None:
    """100,000 plies really played: the state pickles in a few hundred bytes, its copy is
    itself, and it holds no earlier state."""
    start = pacru.from_position(CYCLE_START)
    assert isinstance(start, ChevronState)
    state = play_cycle(start, 100_002)
    assert (state.ply, state.outcome, state.chevrons) == (100_002, None, start.chevrons)
    assert copy.copy(state) is state
    assert copy.deepcopy(state) is state
    # As large as after one cycle (ply 14), but for the bytes of two larger integers.
    assert len(pickle.dumps(state)) <= len(pickle.dumps(play_cycle(start, 14))) + 8
    back = _round_trip(state)
    assert isinstance(back, ChevronState)
    assert back.idle == 100_002
    assert not [r for r in gc.get_referents(state) if isinstance(r, GameState)]


def test_lsd_pickle_holds_the_rules_by_their_options() -> None:
    """An LSD pickle rebuilds (or shares) the rule tables instead of writing them."""
    final = _random_states("lsd", 4, seed=2, plies=100)[-1]
    assert isinstance(final, LsdState)
    back = _round_trip(final)
    assert isinstance(back, LsdState)
    assert back.rules is final.rules  # shared from the rules cache
    assert back.supply_size("red") == final.supply_size("red")
    for options in (
        {"row_length": 5, "strict_dot_matching": False},
        {"tile_set": "+N*3,xNESW*2,W+NS*1,B+0*1", "first_player": "green"},
        {
            "allow_rotation": False,
            "tile_set": "+N*3,xE*2,+S",
            "enforce_shade_alternation": False,
            "shades": ("black", "black", "white"),
            "colours": ("ann", "bob", "cy"),
        },
    ):
        custom = pacru.new_game("lsd", 3, **options)
        back = pickle.loads(pickle.dumps(custom.apply_move(custom.legal_moves()[-1])))
        assert back.rules is custom.rules
        assert back.options() == custom.options()


# -- everything a state hands out rejects mutation ---------------------------------------------
# (The chevron move list and its families: tests/chevron/test_movelist.py.)


def _frozen(obj: object, attribute: str, value: object) -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(obj, attribute, value)


def test_chevron_values_reject_mutation() -> None:
    state = pacru.from_position(
        "pacru players=red,yellow markers=red:d9,d8,i9,i8 chevrons=red:e9S,g9S;yellow:e7N"
    )
    assert isinstance(state, ChevronState)
    final = state.apply_move("e9xe7")
    assert final.outcome is not None
    _frozen(final.outcome, "winners", ())
    _frozen(final, "ply", 0)
    _frozen(final, "markers", ())
    move = final.last_move
    assert move is not None
    _frozen(move, "target", 0)
    chevron = final.chevron_at("e7")
    assert chevron is not None
    _frozen(chevron, "facing", pacru.Direction.N)
    _frozen(final.rules, "move_cap", 1)
    for mapping in (final.scores, final.supply):
        with pytest.raises(TypeError):
            mapping["red"] = 0  # type: ignore[index]
    # Fresh copies: changing them changes nothing.
    final.chevron_map().clear()
    final.marker_map().clear()
    assert final.chevron_at("e7") == chevron
    assert final.scores == {"red": 5, "yellow": 0}


def test_lsd_values_reject_mutation() -> None:
    final = _random_states("lsd", 2, seed=4, plies=100)[-1]
    assert isinstance(final, LsdState)
    assert final.outcome is not None
    _frozen(final.outcome, "termination", pacru.Termination.ROW)
    _frozen(final, "players", ())
    move = final.last_move
    _frozen(move, "cell", (0, 0))
    tile = next(iter(final.field.values()))
    _frozen(tile, "owner", "nobody")
    _frozen(final.rules, "row_length", 2)
    assert isinstance(final.legal_moves(), pacru.LsdLegalMoves)  # a read-only Sequence
    assert not hasattr(final.legal_moves(), "append")
    for mapping in (
        final.scores,
        final.field,
        final.supply,
        final.supply_tiles("red"),
        final.captured("red"),
    ):
        with pytest.raises(TypeError):
            mapping[next(iter(mapping), "red")] = 0  # type: ignore[index]


#: The values of a chevron state, in the order of the constructor.
_FIELDS = (
    "rules",
    "players",
    "markers",
    "chevrons",
    "to_move",
    "out",
    "trigger",
    "idle",
    "ply",
    "outcome",
    "occupied",
)


def test_a_successor_has_every_slot_of_a_state_built_by_attrs() -> None:
    """apply_move builds the next state without attrs' __init__ (its slots are set
    directly, by either engine): every field is there, the state is a ChevronState
    itself (never a retyped draft: the Python engine stores each slot through its
    descriptor), frozen, and it equals,
    hashes and pickles like one built through the class."""
    import pickle

    import attrs

    state = pacru.new_game("pacru", 3)
    played = []
    for pick in (3, -1, 0):
        move = state.legal_moves()[pick]
        played.append(move)
        state = state.apply_move(move)
    assert type(state) is STATE_CLASS
    _frozen(state, "ply", 0)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del state.ply
    values = [getattr(state, name) for name in _FIELDS]
    rebuilt = pacru.ChevronState(*values, last=state._last)  # type: ignore[misc]
    assert rebuilt == state
    assert hash(rebuilt) == hash(state)
    assert pickle.loads(pickle.dumps(state)) == state
    assert (state.ply, state.last_move, state.to_move) == (3, played[-1], 0)
    assert state.legal_moves() == rebuilt.legal_moves()
