"""Game records (pacru.records): the PGN-like format, reading, writing and replay errors."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pacru
from pacru.errors import NotationError
from pacru.records import (
    MAX_PLIES,
    MAX_RECORD_TEXT,
    GameRecord,
    RecordError,
    read_record,
    read_records,
    record_from_game,
    record_from_state,
    write_record,
    write_records,
)
from pacru.strategies import playouts

SHACRU_TEXT = (
    '[Game "shacru"]\n'
    '[Event "Club"]\n'
    '[Date "2025.03.01"]\n'
    '[Players "green,yellow"]\n'
    '[Green "Alice"]\n'
    '[Yellow "Bob \\"B\\""]\n'
    '[Result "*"]\n'
    "\n"
    "{Opening} 1. e1-e2 e9-e8 {mirror} 2. a3-b4> *\n"
)

# E.1-7 (R7 captions): red b2 facing NE with PoM 3, a chevron on d4, yellow b3 and b5.
R7_POSITION = (
    "pacru players=red,yellow markers=red:a1,c1,a3;yellow:b3,b5 chevrons=red:b2NE;yellow:d4N,e9S"
)


def _play(state: Any, moves: list[str]) -> pacru.Game[Any]:
    return pacru.Game(state, moves)


def _random_game(game: str, players: int, seed: int, max_plies: int = 400) -> pacru.Game[Any]:
    from pacru.commands.play import random_move

    line: pacru.Game[Any] = pacru.Game.new(game, players)
    rng = random.Random(seed)
    for _ in range(max_plies):
        if line.state.is_terminal:
            break
        line.push(random_move(line.state, rng))
    return line


# -- writing ------------------------------------------------------------------------------------


def test_write_exact_text_with_names_comments_and_tags() -> None:
    state = _play(pacru.new_game("shacru"), ["e1-e2", "e9-e8", "a3-b4>"])
    record = record_from_game(
        state,
        names={"green": "Alice", "yellow": 'Bob "B"'},
        comments={0: "Opening", 2: "mirror"},
        Event="Club",
        Date="2025.03.01",
    )
    assert write_record(record) == SHACRU_TEXT
    assert str(record) == SHACRU_TEXT
    assert record.names == {"green": "Alice", "yellow": 'Bob "B"'}
    assert record.comment(2) == "mirror"
    assert record.comment(1) is None
    assert record.result == "*"
    assert read_record(SHACRU_TEXT) == record


def test_write_setup_tags_for_legacy_layout_colours_and_order_b3_d2_d48() -> None:
    state = pacru.new_game(
        "pacru",
        2,
        start_layout="ap-legacy-2p",
        colours=("blue", "red"),
        turn_order=("red", "blue"),
        meeting_rule="original",
    )
    record = record_from_game(pacru.Game(state, ["c1-b2"]))
    assert record.tags == (
        ("Game", "pacru"),
        ("Players", "red,blue"),
        ("StartLayout", "ap-legacy-2p"),
        ("Colours", "blue,red"),
        ("MeetingRule", "original"),
        ("Result", "*"),
    )
    assert record.start() == state
    assert record.replay() == state.apply_move("c1-b2")


def test_position_tag_for_a_game_from_a_set_up_position() -> None:
    start = pacru.from_position(R7_POSITION)
    record = record_from_game(pacru.Game(start, ["b2-c3"]))
    assert record.tags == (
        ("Game", "pacru"),
        ("Players", "red,yellow"),
        ("Position", start.to_position()),
        ("Result", "*"),
    )
    assert record.moves == ("b2-c3",)
    assert read_record(write_record(record)).replay() == start.apply_move("b2-c3")


def test_finished_game_writes_result_and_termination_and_wraps_lines() -> None:
    line = _random_game("pacru", 2, seed=3)
    final = line.state
    assert final.outcome is not None
    record = record_from_game(line)
    text = write_record(record)
    winner = ",".join(final.winners) or "draw"
    assert record.tag("Result") == winner
    assert record.tag("Termination") == final.outcome.termination.value
    assert text.rstrip("\n").endswith(" " + winner)
    assert max(len(line) for line in text.splitlines()) <= 79
    assert read_record(text) == record


def test_result_given_for_an_unfinished_game_is_kept() -> None:
    state = _play(pacru.new_game("lilacru"), ["e1-e2"])
    record = record_from_game(state, Result="yellow", Termination="resignation")
    assert record.result == "yellow"
    assert read_record(write_record(record)) == record


def test_write_records_and_read_many_games() -> None:
    one = record_from_game(_play(pacru.new_game("azacru", 3), ["e9-e8"]))
    two = record_from_game(_play(pacru.new_game("shacru", 4), ["e1-e2", "a5-b5"]))
    text = write_records([one, two])
    assert read_records(text) == [one, two]
    assert read_records("") == []
    assert read_records("  \n") == []


# -- reading ------------------------------------------------------------------------------------


def test_read_hand_written_record_canonicalises_moves_and_comments() -> None:
    text = (
        '[Game "Shacru"]  [Players "green,yellow"]\n'
        "{ a\n  long   comment }\n"
        "1.E1-E2 e9-e8 {after\tply 2} {more} 2... A3-B4> {end}\n"
    )
    record = read_record(text)
    assert record.moves == ("e1-e2", "e9-e8", "a3-b4>")
    assert record.comments == ((0, "a long comment"), (2, "after ply 2 more"), (3, "end"))
    assert record.game == "shacru"
    assert record.players == ("green", "yellow")
    assert record.result == "*"


def test_read_players_with_own_colours_map_to_seats_in_turn_order() -> None:
    record = read_record('[Game "lilacru"]\n[Players "red,blue"]\n\n1. e1-e2 e9-e8 *\n')
    assert record.start() == pacru.new_game("lilacru", colours=("red", "blue"))


def test_read_players_in_another_order_d2() -> None:
    record = read_record('[Game "lilacru"]\n[Players "yellow,green"]\n\n1. e9-e8 *\n')
    assert record.start() == pacru.new_game("lilacru", turn_order=("yellow", "green"))


def test_unknown_tags_are_kept_in_order() -> None:
    text = '[Game "pacru"]\n[Zeta "1"]\n[Alpha "x\\\\y"]\n[Players "green,yellow"]\n\n*\n'
    record = read_record(text)
    assert record.tags == (
        ("Game", "pacru"),
        ("Zeta", "1"),
        ("Alpha", "x\\y"),
        ("Players", "green,yellow"),
    )
    assert write_record(record) == text


# -- errors ---------------------------------------------------------------------------------------


def _error(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        read_records(text)
    return info.value


def test_illegal_move_reports_ply_move_rule_and_reason_s_r3() -> None:
    err = _error('[Game "shacru"]\n\n1. e1-e2 e9-e8\n2. e2-e4 *\n')
    assert (err.game, err.ply, err.move, err.line) == (1, 3, "e2-e4", 4)
    assert (err.rule, err.reason) == ("S-R3", "beyond-power")
    assert str(err) == (
        "game 1, line 4, ply 3: e2-e4 (green) is illegal: S-R3: a chevron moves one field; "
        "e2 to e4 is 2"
    )
    assert isinstance(err, NotationError)
    assert isinstance(err, ValueError)


def test_illegal_jump_names_rule_r7_from_a_position_record() -> None:
    text = f'[Game "pacru"]\n[Position "{R7_POSITION}"]\n\n1. b2-e5 *\n'
    err = _error(text)
    assert (err.ply, err.move, err.rule, err.reason) == (1, "b2-e5", "R7", "jump-not-connection")


def test_second_game_error_names_the_game() -> None:
    good = '[Game "lilacru"]\n\n1. e1-e2 *\n'
    err = _error(good + "\n" + '[Game "lilacru"]\n\n1. e1-e2 e9-e9 *\n')
    assert (err.game, err.ply, err.rule, err.reason) == (2, 2, "notation", "not-a-move")


def test_move_after_the_end_is_game_over() -> None:
    line = _random_game("lilacru", 2, seed=1)
    final = line.state
    text = write_record(record_from_game(line))
    extra = text.replace(f" {final.winners[0]}\n", " e1-e2 *\n")
    extra = extra.replace(f'[Result "{final.winners[0]}"]', '[Result "*"]')
    err = _error(extra)
    assert (err.ply, err.rule, err.reason) == (final.ply + 1, "end", "game-over")


def test_result_that_contradicts_the_end_is_an_error() -> None:
    line = _random_game("lilacru", 2, seed=1)
    final = line.state
    text = write_record(record_from_game(line))
    loser = next(p for p in final.players if p not in final.winners)
    bad = text.replace(f'[Result "{final.winners[0]}"]', f'[Result "{loser}"]')
    bad = bad.replace(f" {final.winners[0]}\n", f" {loser}\n")
    err = _error(bad)
    assert (err.rule, err.reason, err.ply) == ("result", "wrong-result", None)
    bad = text.replace('[Termination "no-moves"]', '[Termination "row"]')
    assert bad != text
    assert _error(bad).reason == "wrong-result"


def test_result_naming_a_non_player_is_an_error() -> None:
    err = _error('[Game "lilacru"]\n[Result "purple"]\n\n1. e1-e2 purple\n')
    assert (err.rule, err.reason) == ("result", "wrong-result")


@pytest.mark.parametrize(
    ("text", "reason", "line"),
    [
        ('[Game "pacru"\n\n*\n', "syntax", 1),
        ('[Game "pacru"]\n\n{never closed\n', "syntax", 3),
        ('[Game "pacru"]\n\n{a {nested} one}\n', "syntax", 3),
        ('[Game "pacru"]\n[Game "shacru"]\n', "syntax", 2),
        ('[Game "pacru"]\n\n1. e1-e2 } *\n', "syntax", 3),
        ("1. e1-e2 *\n", "syntax", 1),
        ('[Game "pacru"]\n\n' + "e1-e2" * 20 + "\n", "too-long", 3),
    ],
)
def test_malformed_records(text: str, reason: str, line: int) -> None:
    err = _error(text)
    assert (err.rule, err.reason, err.line, err.game) == ("record", reason, line, 1)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('[Game "chess"]\n\n*\n', "no-game"),
        ('[Event "x"]\n\n*\n', "no-game"),
        ('[Game "pacru"]\n[Players "a,b,c,d,e"]\n\n*\n', "bad-setup"),
        ('[Game "pacru"]\n[StartLayout "nowhere"]\n\n*\n', "bad-setup"),
        ('[Game "pacru"]\n[MoveCap "many"]\n\n*\n', "bad-setup"),
        ('[Game "shacru"]\n[Position "pacru players=a,b"]\n\n*\n', "bad-setup"),
        ('[Game "pacru"]\n[Position "pacru players=a,b"]\n[Players "b,a"]\n\n*\n', "bad-setup"),
    ],
)
def test_bad_setup_tags(text: str, reason: str) -> None:
    err = _error(text)
    assert (err.rule, err.reason) == ("setup", reason)


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ('[Game "Chess"]', "unknown game 'Chess'; games: " + ", ".join(pacru.GAMES)),
        ('[Position "Chess x"]', "unknown game 'Chess'; games: " + ", ".join(pacru.GAMES)),
        ('[Game "pacru"]\n[MoveCap "1X"]', "MoveCap must be a whole number, not '1X'"),
        (
            '[Game "pacru"]\n[MoveCap "18446744073709551616"]',
            "MoveCap is too large: at most 18446744073709551615, not '18446744073709551616'",
        ),
        (
            '[Game "shacru"]\n[IdleRounds "' + "9" * 50 + '"]',
            "IdleRounds is too large: at most 18446744073709551615, not '"
            + "9" * 20
            + "'... (50 characters)",
        ),
    ],
)
def test_set_up_errors_quote_the_tags_as_typed(tags: str, message: str) -> None:
    """The game name and the counts are quoted as the record writes them; a count past
    the engines' counters is too large, not "not a whole number"."""
    assert str(_error(f"{tags}\n\n*\n")) == f"game 1: {message}"


def test_a_count_tag_up_to_the_engines_counters_is_read() -> None:
    record = read_record('[Game "pacru"]\n[MoveCap "0012345678901"]\n\n*\n')
    assert record.start().options() == {"move_cap": 12345678901}


def test_size_limits() -> None:
    err = _error("x" * (MAX_RECORD_TEXT + 1))
    assert err.reason == "too-long"
    moves = " ".join(["e1-e2"] * (MAX_PLIES + 1))
    assert _error(f'[Game "pacru"]\n\n{moves}\n').reason == "too-long"
    assert _error(f'[Game "pacru"]\n[Event "{"x" * 20_000}"]\n').reason == "too-long"
    tags = "".join(f'[T{i} "v"]\n' for i in range(101))
    assert _error(tags).reason == "too-long"


def test_read_record_needs_exactly_one_game() -> None:
    with pytest.raises(RecordError, match="expected one game, found 0"):
        read_record("")
    with pytest.raises(RecordError, match="expected one game, found 2"):
        read_record('[Game "pacru"]\n\n*\n[Game "pacru"]\n\n*\n')
    with pytest.raises(RecordError, match="must be given as a string"):
        read_records(b"[Game]")  # type: ignore[arg-type]


# -- the record value ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tags": [("1x", "v")]}, "tag name"),
        ({"tags": [("A", "v"), ("A", "w")]}, "given twice"),
        ({"tags": [("A", "two\nlines")]}, "one-line"),
        ({"tags": [("Result", "green wins")]}, "Result is"),
        ({"tags": [("Game", "pacru")], "moves": ["e1 e2"]}, "not a move text"),
        ({"tags": [("Game", "pacru")], "moves": ["*"]}, "not a move text"),
        ({"tags": [("Game", "pacru")], "moves": ["12."]}, "not a move text"),
        ({"tags": [("Game", "pacru")], "comments": {0: "a}b"}}, "without braces"),
        ({"tags": [("Game", "pacru")], "comments": {1: "late"}}, "past the last move"),
        ({"tags": [("Game", "pacru")], "comments": {-1: "x"}}, "ply is a whole number"),
    ],
)
def test_game_record_validation(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameRecord(**kwargs)


def test_game_record_accepts_mappings_and_merges_comments() -> None:
    record = GameRecord({"Game": "pacru"}, ["e1-e2"], [(1, " a "), (1, "b"), (0, "  ")])
    assert record.tags == (("Game", "pacru"),)
    assert record.comments == ((1, "a b"),)
    assert hash(record) == hash(GameRecord([("Game", "pacru")], ("e1-e2",), {1: "a b"}))


def test_record_from_state_rejects_names_of_non_players() -> None:
    with pytest.raises(ValueError, match="'purple' is not a player"):
        record_from_state(pacru.new_game("pacru"), names={"purple": "Eve"})


def test_states_lists_every_position() -> None:
    record = read_record('[Game "lilacru"]\n\n1. e1-e2 e9-e8 *\n')
    states = record.states()
    assert [s.to_position() for s in states] == [
        pacru.new_game("lilacru").to_position(),
        _play(pacru.new_game("lilacru"), ["e1-e2"]).state.to_position(),
        _play(pacru.new_game("lilacru"), ["e1-e2", "e9-e8"]).state.to_position(),
    ]


def test_lsd_record_round_trip() -> None:
    line = pacru.Game.new("lsd", 2, first_player="yellow")
    rng = random.Random(4)
    for _ in range(10):
        state = line.state
        if state.is_terminal:
            break
        line.push(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
    state = line.state
    record = record_from_game(line)
    assert record.tags[:3] == (
        ("Game", "lsd"),
        ("Players", "red,yellow"),
        ("FirstPlayer", "yellow"),
    )
    assert read_record(write_record(record)) == record
    assert record.replay() == state


def test_lsd_with_own_options_is_recorded_from_its_position() -> None:
    start = pacru.new_game("lsd", 3, row_length=5, strict_dot_matching=False)
    line = pacru.Game(start, [start.legal_moves()[0]])
    state = line.state
    record = record_from_game(line)
    assert record.tags == (
        ("Game", "lsd"),
        ("Players", "red,yellow,green"),
        ("Position", start.to_position()),
        ("Result", "*"),
    )
    assert read_record(write_record(record)).replay() == state


# -- properties -----------------------------------------------------------------------------------


@settings(max_examples=80)
@given(playouts(max_plies=120))
def test_every_playout_round_trips_and_replays(playout: Any) -> None:
    """Any game, 2-4 players, any layout/colours/order/options: write -> read is exact."""
    final = playout.final
    line = pacru.Game(playout.states[0], playout.moves)
    record = record_from_game(line, comments={0: "start", len(playout.moves): "end"})
    text = write_record(record)
    back = read_record(text)
    assert back == record
    assert write_record(back) == text
    replayed = back.states()
    assert replayed == playout.states
    assert replayed[-1].to_position() == final.to_position()


@settings(max_examples=30)
@given(st.sampled_from(pacru.GAMES), st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_finished_random_games_round_trip(game: str, players: int, seed: int) -> None:
    """Games played to their end (or 400 plies) keep their result and termination."""
    line = _random_game(game, players, seed)
    final = line.state
    record = record_from_game(line)
    back = read_record(write_record(record))
    assert back == record
    replayed = back.replay()
    assert replayed == final
    assert replayed.outcome == final.outcome
