"""pacru.Game: the root state and the moves, the line of play beside immutable states."""

from __future__ import annotations

import copy
import pickle
import random
import warnings
from typing import Any

import pytest

import pacru
from pacru import Game, GameState, Move
from pacru.bots import RandomBot, play_game
from pacru.game import CHECKPOINT
from pacru.records import read_record, record_from_game, record_from_state, write_record

from .longline import CYCLE, CYCLE_START


def _cycle_game(plies: int) -> tuple[Game[Any], list[GameState[Any]]]:
    """A Game of ``plies`` moves of the long Shacru line, and every state, root first."""
    game: Game[Any] = Game.from_position(CYCLE_START)
    states = [game.state]
    for i in range(plies):
        states.append(game.push(CYCLE[i % len(CYCLE)]))
    return game, states


def test_push_pop_and_the_line_of_play() -> None:
    game = Game.new("shacru")
    root = game.root
    assert (len(game), game.moves, game.last_move, game.previous) == (0, (), None, None)
    after = game.push("e1-e2")
    assert after == root.apply_move("e1-e2")
    assert game.state is after
    second = game.push(Move.parse("e9-e8"))
    assert game.moves == game.history == (Move.parse("e1-e2"), Move.parse("e9-e8"))
    assert (len(game), game.ply, game.last_move) == (2, 2, Move.parse("e9-e8"))
    assert game.previous is after
    assert list(game) == [root, after, second]
    assert [game.state_at(i) for i in range(3)] == [root, after, second]
    assert [game.state_at(i) for i in (-1, -2, -3)] == [second, after, root]
    assert game.pop() == Move.parse("e9-e8")
    assert (len(game), game.state) == (1, after)
    assert game.pop() == Move.parse("e1-e2")
    assert game.state is root
    with pytest.raises(IndexError, match="pop from a game without moves"):
        game.pop()


def test_an_illegal_push_raises_and_changes_nothing() -> None:
    game = Game.new("shacru")
    game.push("e1-e2")
    before = (game.moves, game.state)
    with pytest.raises(pacru.IllegalMoveError) as info:
        game.push("e9-e7")
    assert info.value.rule == "S-R3"
    with pytest.raises(pacru.NotationError):
        game.push("e9--e8")
    assert (game.moves, game.state) == before


def test_push_after_the_end_is_game_over() -> None:
    game: Game[Any] = Game.from_position(
        "pacru players=red,yellow markers=red:d9,d8,i9,i8 chevrons=red:e9S,g9S;yellow:e7N",
        ["e9xe7"],
    )
    assert game.state.outcome == pacru.Outcome(pacru.Termination.LAST_PLAYER, ("red",))
    assert repr(game) == "<pacru.Game pacru: 1 move: e9xe7; red wins>"
    with pytest.raises(pacru.GameOverError):
        game.push("g9-g8")
    assert len(game) == 1


@pytest.mark.parametrize(
    "plies", [0, 1, CHECKPOINT - 1, CHECKPOINT, CHECKPOINT + 1, 5 * CHECKPOINT + 3]
)
def test_states_across_checkpoints(plies: int) -> None:
    """state_at, iteration, previous and pop agree with the states played, whatever the
    distance to the checkpoints kept every CHECKPOINT plies."""
    game, states = _cycle_game(plies)
    assert list(game) == states
    assert [game.state_at(i) for i in range(plies + 1)] == states
    assert [s.ply for s in game] == list(range(plies + 1))
    with pytest.raises(IndexError):
        game.state_at(plies + 1)
    with pytest.raises(IndexError):
        game.state_at(-plies - 2)
    while len(game):
        n = len(game)
        assert game.previous == states[n - 1]
        assert game.pop() == CYCLE[(n - 1) % len(CYCLE)]
        assert game.state == states[n - 1]
        assert game.state_at(-1) == states[n - 1]
    assert game.state is states[0]


def test_pop_then_push_keeps_every_state_right() -> None:
    game, states = _cycle_game(3 * CHECKPOINT)
    rng = random.Random(1)
    for _ in range(200):
        if len(game) and rng.random() < 0.5:
            game.pop()
        elif len(game) < len(states) - 1:
            game.push(CYCLE[len(game) % len(CYCLE)])
        assert game.state == states[len(game)]
        assert list(game) == states[: len(game) + 1]


def test_memory_is_a_state_per_checkpoint_not_per_ply() -> None:
    game, _ = _cycle_game(20 * CHECKPOINT)
    held = {id(s) for s in game._marks} | {id(s) for s in game._tail}
    assert len(game._marks) == 21
    assert len(game._tail) <= 2 * CHECKPOINT + 1
    assert len(held) <= 21 + 2 * CHECKPOINT + 1 < len(game)


def test_equality_copy_pickle_and_no_hash() -> None:
    game, _ = _cycle_game(40)
    twin: Game[Any] = Game(game.root, game.moves)
    assert twin == game
    assert twin != Game(game.root, game.moves[:-1])
    assert game != game.state
    with pytest.raises(TypeError, match="unhashable"):
        hash(game)
    for other in (game.copy(), copy.copy(game), copy.deepcopy(game)):
        assert other == game
        assert other is not game
        other.pop()
        assert (len(other), len(game)) == (39, 40)
    back = pickle.loads(pickle.dumps(game))
    assert back == game
    assert back.state == game.state


def test_constructors() -> None:
    assert Game.new("pacru", 3, move_cap=50).root == pacru.new_game("pacru", 3, move_cap=50)
    start = pacru.new_game("lsd", 2)
    game = Game(start, [str(start.legal_moves()[0])])
    assert game.moves == (start.legal_moves()[0],)
    assert game.root is start
    with pytest.raises(TypeError, match="a Game starts from a GameState, not str"):
        Game("shacru")  # type: ignore[call-overload]
    with pytest.raises(pacru.IllegalMoveError):
        Game(pacru.new_game("shacru"), ["e1-e2", "e1-e2"])
    loaded: Game[Any] = Game.from_position(pacru.new_game("azacru").to_position(), ["e1-e2"])
    assert loaded.state == pacru.new_game("azacru").apply_move("e1-e2")


def test_a_game_from_a_played_state_starts_there() -> None:
    """The root may be any state; the moves and len() count from it, ply from the start."""
    root = pacru.new_game("shacru").apply_move("e1-e2")
    game = Game(root, ["e9-e8"])
    assert (len(game), game.ply, game.root.ply) == (1, 2, 1)
    assert game.state.last_move == game.last_move == Move.parse("e9-e8")
    assert repr(Game(root)) == "<pacru.Game shacru: 0 moves; yellow to move>"
    # last_move is the last of game.moves: none yet, although the root was reached by e1-e2.
    assert (Game(root).moves, Game(root).last_move, root.last_move) == (
        (),
        None,
        Move.parse("e1-e2"),
    )


def test_records_from_and_to_games() -> None:
    game = Game.new("shacru")
    for text in ["e1-e2", "e9-e8", "a3-b4>"]:
        game.push(text)
    record = record_from_game(game, Event="Club")
    assert record.moves == ("e1-e2", "e9-e8", "a3-b4>")
    assert record_from_state(game, Event="Club") == record
    back = read_record(write_record(record)).to_game()
    assert back == game
    # A bare state is its own set-up, without moves; one reached by a move warns so.
    with pytest.warns(UserWarning, match=r"records the position only"):
        alone = record_from_state(game.state)
    assert alone.moves == ()
    assert alone.start() == game.state
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert record_from_state(game.root).moves == ()


def test_to_game_names_the_ply_of_an_illegal_move() -> None:
    from pacru.records import GameRecord, RecordError

    record = GameRecord([("Game", "shacru")], ("e1-e2", "e9-e8", "e2-e4"))
    with pytest.raises(RecordError) as info:
        record.to_game()
    assert (info.value.ply, info.value.move, info.value.rule) == (3, "e2-e4", "S-R3")


def test_play_game_pushes_into_a_game() -> None:
    game = Game.new("lilacru")
    final = play_game(game, [RandomBot(seed=1), RandomBot(seed=2)], max_plies=12)
    assert final is game.state
    assert len(game) == final.ply == 12
    again = play_game(
        pacru.new_game("lilacru"), [RandomBot(seed=1), RandomBot(seed=2)], max_plies=12
    )
    assert again == final
