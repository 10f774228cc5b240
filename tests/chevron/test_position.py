"""Position strings of the chevron games (pacru.chevron.notation)."""

from __future__ import annotations

from typing import Any

import pytest

import pacru
from pacru import (
    CHEVRON_GAMES,
    Chevron,
    ChevronState,
    Direction,
    InvalidPositionError,
    NotationError,
    Termination,
)
from pacru.geometry import FIELD_NAMES

from .helpers import pos, random_line, replay, start

START_2P = "markers=- chevrons=green:e1N,a3E,i3W,i9SW;yellow:a1NE,a7E,i7W,e9S"
START_3P = "markers=- chevrons=yellow:a7E,i7W,e9S;red:g1N,i5W,g9S;black:c1N,a5E,c9S"
START_4P = (
    "markers=- chevrons=green:e1N,a3E,i3W;black:c1N,a5E,c9S;yellow:a7E,i7W,e9S;red:g1N,i5W,g9S"
)


@pytest.mark.parametrize("game", CHEVRON_GAMES)
def test_start_position_strings_exactly(game: str) -> None:
    """B.5 start positions as position strings, for 2, 3 and 4 players."""
    assert pacru.new_game(game, 2).to_position() == (
        f"{game} players=green,yellow turn=green {START_2P}"
    )
    assert pacru.new_game(game, 3).to_position() == (
        f"{game} players=yellow,red,black turn=yellow {START_3P}"
    )
    assert pacru.new_game(game, 4).to_position() == (
        f"{game} players=green,black,yellow,red turn=green {START_4P}"
    )


@pytest.mark.parametrize("game", CHEVRON_GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("layout", ["standard", "abstractplay"])
def test_start_positions_round_trip(game: str, players: int, layout: str) -> None:
    state = pacru.new_game(game, players, start_layout=layout)
    again = pacru.from_position(state.to_position())
    assert again == state
    assert hash(again) == hash(state)
    assert again.to_position() == state.to_position()
    assert eval(repr(state), {"pacru": pacru}) == state


def test_legacy_layout_round_trips() -> None:
    state = pacru.new_game("azacru", 2, start_layout="ap-legacy-2p")
    assert pacru.from_position(state.to_position()) == state


@pytest.mark.parametrize("option", [{"idle_rounds": 5}, {"meeting_rule": "original"}])
def test_options_are_written_and_read_back(option: dict[str, Any]) -> None:
    game = "shacru" if "idle_rounds" in option else "pacru"
    state = pacru.new_game(game, 2, **option)
    text = state.to_position()
    assert text.endswith(" " + " ".join(f"{k}={v}" for k, v in option.items()))
    again = pacru.from_position(text)
    assert isinstance(again, ChevronState)
    assert again.options() == option
    assert again == state


@pytest.mark.parametrize("game", ["lilacru", "shacru", "azacru", "pacru"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_positions_after_random_play_round_trip(game: str, players: int, seed: int) -> None:
    """Every state along a random game reads back equal, including the final one."""
    state = start(game, players)
    line = random_line(state, seed, max_plies=400)
    end = line.state
    for move in line.moves:
        again = pos(state.to_position())
        assert again == state
        assert again.to_position() == state.to_position()
        assert again.legal_moves() == state.legal_moves()
        state = state.apply_move(move)
    assert state == end
    assert pos(end.to_position()) == end
    assert pos(end.to_position()).outcome == end.outcome


def test_mid_game_keys_are_written() -> None:
    """ply, idle (D33) and trigger (A-R10) are part of the position."""
    lil = pos("lilacru players=red,yellow markers=red:e5 chevrons=red:e4N;yellow:a9E")
    after = replay(lil, [lil.parse_move("e4-e5")])
    assert after.to_position() == (
        "lilacru players=red,yellow turn=yellow markers=red:e5 "
        "chevrons=red:e5N;yellow:a9E idle=1 ply=1"
    )
    aza = pos("azacru players=red,yellow chevrons=red:a1S;yellow:e5N")
    passed = aza.apply_move("pass")
    assert passed.to_position() == (
        "azacru players=red,yellow turn=yellow markers=- chevrons=red:a1S;yellow:e5N "
        "trigger=red ply=1"
    )
    assert pos(passed.to_position()) == passed


def test_typing_a_diagram() -> None:
    """Any rulebook diagram can be typed; keys are case-insensitive, turn defaults to first."""
    state = pos(
        "AZACRU Players=Red,Yellow markers=red:d4,e4;yellow:e6 chevrons=red:e4N;yellow:a9SE"
    )
    assert state.game == "azacru"
    assert state.players == ("red", "yellow")
    assert state.current_player == "red"
    assert state.marker_map() == {"d4": "red", "e4": "red", "e6": "yellow"}
    assert state.chevron_map() == {
        "e4": Chevron("red", Direction.N),
        "a9": Chevron("yellow", Direction.SE),
    }
    assert state.power_of_movement("e4") == 2
    assert (state.ply, state.last_move) == (0, None)
    assert state.to_position() == (
        "azacru players=red,yellow turn=red markers=red:d4,e4;yellow:e6 "
        "chevrons=red:e4N;yellow:a9SE"
    )


def test_turn_key_selects_the_player_to_move() -> None:
    state = pos("shacru players=red,yellow,black turn=black chevrons=red:e5N;black:a1N")
    assert state.current_player == "black"
    assert state.to_move == 2


def test_an_empty_board_is_over_at_once() -> None:
    """S-R6 (a): with no chevrons nobody can move; 0-0 is a shared result (D35)."""
    state = pos("shacru players=red,yellow")
    assert state.outcome is not None
    assert state.outcome.termination is Termination.NO_MOVES
    assert state.winners == ("red", "yellow")


INVALID = [
    ("shacru players=red,yellow chevrons=red:e4N;yellow:e4S", "two chevrons on e4"),
    ("shacru players=red,yellow markers=red:e4;yellow:e4", "e4 is marked twice"),
    ("shacru players=red,yellow markers=red:e4,e4", "e4 is marked twice"),
    ("shacru players=red,yellow markers=red:e4;red:e5", "red is listed twice"),
    ("shacru players=red,yellow markers=blue:e4", "'blue' is not one of the players"),
    ("shacru players=red,yellow chevrons=blue:e4N", "'blue' is not one of the players"),
    ("shacru players=red,yellow turn=blue", "'blue' is not a player"),
    ("shacru players=red", "2, 3 or 4 players, not 1"),
    ("shacru players=a,b,c,d,e", "2, 3 or 4 players, not 5"),
    ("shacru players=red,yellow trigger=red", "only Azacru"),
    ("shacru players=red,yellow out=red", "only Pacru"),
    ("azacru players=red,yellow idle=3", "only Lilacru and Shacru count idle"),
    ("pacru players=red,yellow chevrons=red:e5N;yellow:e9S idle=3", "only Lilacru and Shacru"),
    ("azacru players=red,yellow idle_rounds=5", "Lilacru and Shacru only"),
    ("shacru players=red,yellow move_cap=5", "Pacru and Azacru only"),
    ("pacru players=red,yellow out=red chevrons=red:e4N;yellow:e9S", "red still has chevrons"),
    (
        "pacru players=red,yellow markers=red:"
        + ",".join(FIELD_NAMES[:43])
        + " chevrons=red:i9N;yellow:i8S",
        "at most 42 markers",
    ),
]


@pytest.mark.parametrize(("text", "message"), INVALID)
def test_invalid_positions(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        pacru.from_position(text)


def test_pacru_player_at_the_target_has_won() -> None:
    """R16b, D29: 42 markers on the board in 2p means the supply is empty: that player won."""
    state = pos(
        "pacru players=red,yellow markers=red:"
        + ",".join(FIELD_NAMES[:42])
        + " chevrons=red:i9S;yellow:i7S"
    )
    assert state.outcome is not None
    assert state.outcome.termination is Termination.SUPPLY_EXHAUSTED
    assert state.winners == ("red",)


NOTATION = [
    "",
    "   ",
    "chess players=a,b",
    "shacru",
    "shacru players=red,red",
    "shacru players=1red,yellow",
    "shacru players=red,yellow foo=1",
    "shacru players=red,yellow x",
    "shacru players=red,yellow turn=red turn=red",
    "shacru players=red,yellow chevrons=red:e4X",
    "shacru players=red,yellow chevrons=red:e4",
    "shacru players=red,yellow markers=red:j1",
    "shacru players=red,yellow markers=red",
    "shacru players=red,yellow markers=red:",
    "shacru players=red,yellow markers=red:e4,,e5",
    "shacru players=red,yellow idle=abc",
    "shacru players=red,yellow ply=-1",
    "shacru players=red,yellow " + "x" * 5000,
]


@pytest.mark.parametrize("text", NOTATION)
def test_malformed_positions_raise_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        pacru.from_position(text)


def test_non_string_position_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        pacru.from_position(42)  # type: ignore[arg-type]


KEYS = (
    "players",
    "turn",
    "markers",
    "chevrons",
    "out",
    "trigger",
    "idle",
    "ply",
    "meeting_rule",
    "move_cap",
    "idle_rounds",
)
AS_TYPED = [
    ("Markers=green:z9N", NotationError, "'z9N' is not a field; fields are a1..i9"),
    (
        "chevrons=green:Z9N",
        NotationError,
        "chevrons: 'Z9N' is not a field and facing such as e4N or i9SW",
    ),
    (
        "chevrons=Blue:e4N",
        InvalidPositionError,
        "chevrons: 'Blue' is not one of the players (green, yellow)",
    ),
    ("markers=GREEN:e4;green:e5", InvalidPositionError, "markers: green is listed twice"),
    ("markers=green:E4,e5;yellow:E5", InvalidPositionError, "markers: E5 is marked twice"),
    ("chevrons=green:E4N;yellow:E4s", InvalidPositionError, "chevrons: two chevrons on E4"),
    ("Turn=Blue", InvalidPositionError, "turn: 'Blue' is not a player"),
    ("out=Blue", InvalidPositionError, "out: 'Blue' is not a player"),
    ("Foo=1", NotationError, "unknown position key 'Foo'; keys: " + ", ".join(KEYS)),
    ("ply=1X", NotationError, "ply must be a whole number, not '1X'"),
    (
        "meeting_rule=Orig",
        InvalidPositionError,
        "meeting_rule must be one of 2011, original, not 'Orig'",
    ),
]


@pytest.mark.parametrize(("words", "error", "message"), AS_TYPED)
def test_errors_quote_the_text_as_typed(
    words: str, error: type[Exception], message: str
) -> None:
    """The words are read case-insensitively, but an error quotes the user's text."""
    with pytest.raises(error) as caught:
        pacru.from_position(f"pacru players=Green,yellow {words}")
    assert str(caught.value) == message
    with pytest.raises(NotationError, match=r"the game name \(.*\), not 'Chess'$"):
        pacru.from_position("Chess players=a,b")


def test_a_mixed_case_position_reads_as_the_lower_case_one() -> None:
    typed = "Pacru Players=Green,Yellow Turn=YELLOW Markers=GREEN:E4 Chevrons=Yellow:E5N;green:A1Ne"
    assert pacru.from_position(typed) == pacru.from_position(typed.lower())
    assert pacru.from_position(typed).to_position() == (
        "pacru players=green,yellow turn=yellow markers=green:e4 chevrons=green:a1NE;yellow:e5N"
    )


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("18446744073709551616", "'18446744073709551616'"),
        ("9" * 21, "'" + "9" * 21 + "'"),
        ("9" * 4000, "'" + "9" * 20 + "'... (4000 characters)"),
    ],
)
@pytest.mark.parametrize("key", ["ply", "idle", "move_cap", "idle_rounds"])
def test_a_count_too_large_says_so(key: str, value: str, shown: str) -> None:
    """A number past the engines' counters (2**64 - 1) is too large, however many digits
    it has: not "not a whole number"; leading zeros do not count."""
    game = "pacru" if key == "move_cap" else "shacru"
    with pytest.raises(InvalidPositionError) as caught:
        pacru.from_position(f"{game} players=a,b {key}={value}")
    assert str(caught.value) == f"{key} is too large: at most {2**64 - 1}, not {shown}"
    state = pacru.from_position(f"{game} players=a,b chevrons=a:e5N;b:e1S ply={'0' * 40}7")
    assert state.ply == 7
