"""AbstractPlay interop (rules reference NOTATION-AP, B.3, B.4): layouts, real games, notation."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import pacru
from pacru import ChevronState, IllegalMoveError, Move, NotationError
from pacru import abstractplay as ap
from pacru.base import Termination
from pacru.geometry import F7, I4

from .helpers import pos

DATA = Path(__file__).parents[1] / "data" / "abstractplay"
# CI clones the repository next to shared/; the copy in tests/data is preferred.
SHARED = Path(__file__).parents[2].parent / "shared" / "games"
RECORDS = ("abstractplay-pacru-2p-a.json", "abstractplay-pacru-2p-b.json")


def record(name: str) -> dict[str, Any]:
    path = DATA / name if (DATA / name).exists() else SHARED / name
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def replay_record(data: dict[str, Any]) -> ChevronState:
    assert data["meeting_rule"] == "2011"
    return ap.replay(
        data["game"],
        data["players"],
        data["moves"],
        legacy_2p=data["start_layout"] == "ap-legacy-2p",
    )


def states_along(data: dict[str, Any]) -> list[ChevronState]:
    state = ap.new_game("pacru", 2, legacy_2p=data["start_layout"] == "ap-legacy-2p")
    out = [state]
    for text in data["moves"]:
        state = state.apply_move(ap.parse_move(state, text))
        out.append(state)
    return out


def assert_round_trips(state: ChevronState) -> None:
    for move in state.legal_moves():
        text = ap.format_move(state, move)
        assert ap.parse_move(state, text) == move, text


# -- starting layouts and numbering (B.3, B.4) --------------------------------------------------

# AP's start tables (gameslib src/games/pacru.ts start2p/3p/4p, azacru.ts start2p), typed again.
AP_OLD_2P = [
    ["a9", 1, "SE"], ["c9", 2, "S"], ["g9", 1, "S"], ["a5", 2, "E"],
    ["i5", 1, "W"], ["c1", 2, "N"], ["g1", 1, "N"], ["i1", 2, "NW"],
]  # fmt: skip
AP_2P = [
    ["a3", 1, "E"], ["e1", 1, "N"], ["i3", 1, "W"], ["i9", 1, "SW"],
    ["a7", 2, "E"], ["e9", 2, "S"], ["i7", 2, "W"], ["a1", 2, "NE"],
]  # fmt: skip
AP_3P = [
    ["c9", 2, "S"], ["e9", 3, "S"], ["g9", 1, "S"], ["a7", 3, "E"], ["i7", 3, "W"],
    ["a5", 2, "E"], ["i5", 1, "W"], ["c1", 2, "N"], ["g1", 1, "N"],
]  # fmt: skip
AP_4P = [*AP_3P, ["a3", 4, "E"], ["i3", 4, "W"], ["e1", 4, "N"]]


@pytest.mark.parametrize(
    ("game", "players", "legacy", "table"),
    [
        ("pacru", 2, True, AP_OLD_2P),
        ("pacru", 2, False, AP_2P),
        ("pacru", 3, False, AP_3P),
        ("pacru", 4, False, AP_4P),
        ("azacru", 2, False, AP_2P),
        ("azacru", 3, False, AP_3P),
        ("azacru", 4, False, AP_4P),
    ],
)
def test_new_game_has_ap_layout_and_player_numbers(
    game: str, players: int, legacy: bool, table: list[list[Any]]
) -> None:
    """B.3/B.4: AP player n is players[n - 1]; AP player 1 moves first from AP's layout."""
    state = ap.new_game(game, players, legacy_2p=legacy)
    assert state.game == game
    assert state.current_player == state.players[0]
    assert ap.final_position(state) == {
        "to_move": 1,
        "markers": {},
        "chevrons": sorted(table, key=lambda c: str(c[0])),
    }


def test_new_game_seat_colours() -> None:
    """B.4: 3p P1..P3 = seats E, W, N; 4p adds S; the legacy 2p P1 is seat E (colours of B.5)."""
    assert ap.new_game("pacru", 3).players == ("red", "black", "yellow")
    assert ap.new_game("pacru", 4).players == ("red", "black", "yellow", "green")
    assert ap.new_game("pacru", 2).players == ("green", "yellow")
    assert ap.new_game("pacru", 2, legacy_2p=True).players == ("red", "black")


@pytest.mark.parametrize(
    ("game", "players", "legacy"),
    [("shacru", 2, False), ("lilacru", 2, False), ("azacru", 2, True), ("pacru", 3, True)],
)
def test_new_game_rejects_what_ap_does_not_have(game: str, players: int, legacy: bool) -> None:
    with pytest.raises(ValueError, match=r"AbstractPlay|legacy_2p"):
        ap.new_game(game, players, legacy_2p=legacy)


# -- the two real AP games -----------------------------------------------------------------------


@pytest.mark.parametrize("name", RECORDS)
def test_record_replays_to_the_recorded_final_position(name: str) -> None:
    """Every move of the AP record is legal here and the final position agrees exactly."""
    data = record(name)
    state = replay_record(data)
    assert ap.compare_final(state, data["final"]) == []
    assert ap.final_position(state) == data["final"]
    assert state.ply == len(data["moves"])
    assert state.outcome is None


@pytest.mark.parametrize("name", RECORDS)
def test_record_copy_matches_shared_folder(name: str) -> None:
    if not (SHARED / name).exists():
        pytest.skip("the shared games folder is not next to the repository")
    assert json.loads((DATA / name).read_text()) == json.loads((SHARED / name).read_text())


@pytest.mark.parametrize("name", RECORDS)
def test_format_parse_round_trip_along_record(name: str) -> None:
    """parse_move inverts format_move for every legal move of every position of the game."""
    for state in states_along(record(name)):
        assert_round_trips(state)


@pytest.mark.parametrize("name", RECORDS)
def test_record_moves_format_back_to_their_text(name: str) -> None:
    """The recorded strings are AP's canonical ones, except the order of given-up fields."""
    states = states_along(record(name))
    for state, text in zip(states, record(name)["moves"], strict=False):
        move = ap.parse_move(state, text)
        if move.turn:
            assert text == "d9>>(a7,b7,b5,c4)"
            assert ap.format_move(state, move) == "d9>>(c4,b5,a7,b7)"
        else:
            assert ap.format_move(state, move) == text


def test_note_game_a_connection_that_is_also_a_crossing() -> None:
    """Game a's note: f7-i4(*) is legal at the end (R8, D13) and turns g6 (P2) and h5 to P1."""
    data = record(RECORDS[0])
    state = replay_record(data)
    move = ap.parse_move(state, "f7-i4(*)")
    assert move == Move.parse("f7-i4*")
    # The same move may take the crossing benefit instead, on a neutral field of h5 (D13).
    same_step = [m for m in state.legal_moves() if (m.origin, m.target) == (F7, I4)]
    h5_neutral = ("g4", "h4", "g5", "h5", "i5", "h6", "i6")
    assert {ap.format_move(state, m) for m in same_step} == {"f7-i4(*)"} | {
        f"f7-i4({f})" for f in h5_neutral
    }
    after = state.apply_move(move)
    before = state.marker_map()
    changed = {f: c for f, c in after.marker_map().items() if before.get(f) != c}
    assert changed == {"g6": "red", "h5": "red"}
    assert before["g6"] == "black"
    assert "h5" not in before
    assert after.chevron_at("i4") == pacru.Chevron("red", pacru.Direction.SE)
    assert after.chevron_at("f7") is None
    assert after.marker_at("f7") == "red"


def test_note_game_b_landing_marker_makes_a_meeting() -> None:
    """Game b's note: h3-f3(f3) marks the landing field, which makes a meeting (D21, D22)."""
    state = replay_record(record(RECORDS[1]))
    assert state.scores["yellow"] == 9
    with pytest.raises(IllegalMoveError) as info:
        ap.parse_move(state, "h3-f3(f3)")
    assert (info.value.rule, info.value.reason) == ("D23", "meeting-required")
    # Any unoccupied field that is not green's, even a yellow one (the threshold is judged
    # before the meeting's own change, D22).
    for field in ("a1", "a4", "h3"):
        move = ap.parse_move(state, f"h3-f3(f3,{field})")
        assert move == Move.parse(f"h3-f3+f3@{field}")
    after = state.apply_move(ap.parse_move(state, "h3-f3(f3,a4)"))
    assert after.marker_at("f3") == "green"
    assert after.marker_at("a4") == "green"
    assert after.chevron_at("f3") == pacru.Chevron("green", pacru.Direction.W)
    assert after.chevron_at("e3") == pacru.Chevron("green", pacru.Direction.E)
    # Other crossing fields make no meeting: f3 stays neutral.
    assert ap.parse_move(state, "h3-f3(d2)") == Move.parse("h3-f3+d2")
    with pytest.raises(IllegalMoveError) as info:
        ap.parse_move(state, "h3-f3(d2,a1)")
    assert (info.value.rule, info.value.reason) == ("R12", "no-meeting")


# -- Pacru notation --------------------------------------------------------------------------------

# E.1-14 (R13): pincer e3xe4 with a crossing into e5 and a meeting with e5.
COMBO = (
    "pacru players=red,yellow turn=red markers=red:e5,i8;yellow:a4,b4,c4,a5,b5,c5,a6,b6,c6 "
    "chevrons=red:d3N,e3N,e5S;yellow:e4N"
)


@pytest.mark.parametrize(
    ("position", "ap_text", "ours"),
    [
        (COMBO, "e3xe4(e6,i9)", "e3xe4+e6@i9"),
        (COMBO, "E3 x E4 ( E6 , I9 )", "e3xe4+e6@i9"),
        (COMBO, "e3xe4(i9,e6)", "e3xe4+e6@i9"),  # AP accepts the cells in either order
        (COMBO, "e3xe4(e6,i9,e6)", "e3xe4+e6@i9"),  # AP keeps the cells as a set
        (COMBO, "e5-d4", "e5-d4"),
        # E.1-8 (R8): the connection change or a crossing field.
        (
            "pacru players=red,yellow markers=red:g9,i9,i8,e7 chevrons=red:g9S;yellow:a1N",
            "g9-e7(*)",
            "g9-e7*",
        ),
        (
            "pacru players=red,yellow markers=red:g9,i9,i8,e7 chevrons=red:g9S;yellow:a1N",
            "g9-e7(d9)",
            "g9-e7+d9",
        ),
        # E.1-13 (R12): no crossing, so the single cell is the meeting field.
        (
            "pacru players=red,yellow markers=red:g9,g8,g7;yellow:d4,e4,f4,d5,e5,f5,d6,e6,f6 "
            "chevrons=red:g9S,g7N;yellow:a1N",
            "g9-g8(e5)",
            "g9-g8@e5",
        ),
        # A connection change followed by a meeting (R13).
        (
            "pacru players=red,yellow markers=red:g9,g7,g6;yellow:d4,e4,f4,d5,e5,f5,d6,e6,f6 "
            "chevrons=red:g9S,g6N;yellow:a1N",
            "g9-g7(*,a9)",
            "g9-g7*@a9",
        ),
        (
            "pacru players=red,yellow markers=red:a1,a2,b1,b2 chevrons=red:e5N;yellow:i9SW",
            "e5>>(a1,b2,a2,b1)",
            "e5>>(a1,b1,a2,b2)",
        ),
        (
            "pacru players=red,yellow markers=red:a1,a2,b1,b2 chevrons=red:e5N;yellow:i9SW",
            "e5<(b2,a1)",
            "e5<(a1,b2)",
        ),
    ],
)
def test_parse_pacru(position: str, ap_text: str, ours: str) -> None:
    assert ap.parse_move(pos(position), ap_text) == Move.parse(ours)


@pytest.mark.parametrize(
    ("position", "ours", "ap_text"),
    [
        (COMBO, "e3xe4+e6@i9", "e3xe4(e6,i9)"),
        (COMBO, "e5-d4", "e5-d4"),
        (
            "pacru players=red,yellow markers=red:g9,i9,i8,e7 chevrons=red:g9S;yellow:a1N",
            "g9-e7*",
            "g9-e7(*)",
        ),
        (
            "pacru players=red,yellow markers=red:a1,a2,b1,b2 chevrons=red:e5N;yellow:i9SW",
            "e5<<(a1,b1,a2,b2)",
            "e5<<(a1,b1,a2,b2)",
        ),
    ],
)
def test_format_pacru(position: str, ours: str, ap_text: str) -> None:
    assert ap.format_move(pos(position), ours) == ap_text


@pytest.mark.parametrize(
    ("ap_text", "rule", "reason"),
    [
        # E.1-14: every "must reject" case of the combination.
        ("e3xe4(e7,i9)", "R6", "bad-marker-field"),  # crossing marker outside e5
        ("e3xe4(e4,i9)", "R6", "bad-marker-field"),  # the captured field
        ("e3xe4(e6,d3)", "D23", "bad-meeting-field"),  # a field with a chevron
        ("e3xe4(e6,e5)", "D23", "bad-meeting-field"),  # a field with a chevron, own too
        ("e3xe4(e6,i8)", "D23", "bad-meeting-field"),  # an own field
        ("e3xe4(e6,i9,a1)", "R13", "too-many-fields"),  # a third extra field
        ("e3xe4(e6)", "D23", "meeting-required"),
        ("e3xe4", "R4", "marker-required"),
        ("e3xe4(*)", "R8", "not-connection"),
        ("e3-e4", "R7", "occupied"),
        ("e4-e5", "R3", "not-your-chevron"),
        ("pass", "R2", "pass-not-allowed"),
        ("e5>>>(a1,b1,a2,b2,c1,c2)", "D25", "over-orient"),
        # Red's only unoccupied field is i8 (e5 holds a chevron): AP's NOT_ENOUGH_45.
        ("e5>(i8)", "D25", "too-few-fields"),
        ("e5>(i8,a1)", "D25", "too-few-fields"),
    ],
)
def test_parse_pacru_illegal(ap_text: str, rule: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        ap.parse_move(pos(COMBO), ap_text)
    assert (info.value.rule, info.value.reason) == (rule, reason)


@pytest.mark.parametrize(
    "ap_text",
    ["", "e3", "e3xe4()", "e3xe4(e6", "e3xe4(j9)", "e3-e3", "e5<>(a1,b1)", "e5>(*)", "e3-e4^"],
)
def test_parse_pacru_not_notation(ap_text: str) -> None:
    with pytest.raises(NotationError):
        ap.parse_move(pos(COMBO), ap_text)


def test_parse_after_game_over() -> None:
    state = pos("pacru players=red,yellow markers=red:a1 chevrons=red:e5N")
    assert state.outcome is not None
    with pytest.raises(pacru.GameOverError):
        ap.parse_move(state, "e5-e6")


def test_shacru_state_is_refused() -> None:
    with pytest.raises(ValueError, match="AbstractPlay"):
        ap.parse_move(pacru.new_game("shacru"), "a3-b3")


# -- Azacru notation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ap_text", "ours"),
    [("a3-b4^", "a3-b4"), ("a3-b4<", "a3-b4<"), ("A3-B4 >", "a3-b4>"), ("e1-e2", "e1-e2")],
)
def test_parse_azacru_twist_suffix(ap_text: str, ours: str) -> None:
    """A-R6, D3: a crossing carries '^', '<' or '>'; other moves carry nothing."""
    state = ap.new_game("azacru", 2)
    assert ap.parse_move(state, ap_text) == Move.parse(ours)
    assert ap.format_move(state, Move.parse(ours)) == ap_text.lower().replace(" ", "")


def test_parse_azacru_pending_twist_star_reads_as_no_twist() -> None:
    """AP's move() plays 'a3-b4*' (twist not chosen yet) as 'a3-b4^'; it is never written."""
    state = ap.new_game("azacru", 2)
    assert ap.parse_move(state, "a3-b4*") == Move.parse("a3-b4")
    assert ap.format_move(state, "a3-b4") == "a3-b4^"
    with pytest.raises(IllegalMoveError) as info:
        ap.parse_move(state, "e1-e2*")
    assert (info.value.rule, info.value.reason) == ("A-R6", "twist-without-crossing")


AZ = "azacru players=green,yellow chevrons=green:a3E;yellow:a7E"
# A-R7 caption: e4-e7 converts yellow e6, so the chevron is removed and gets no twist (D5).
AZACRU_REMOVAL = (
    "azacru players=red,yellow markers=red:e4,d4,f4,e7;yellow:e6 chevrons=red:e4N;yellow:a1N"
)


@pytest.mark.parametrize(
    ("position", "ap_text", "rule", "reason"),
    [
        (AZ, "a3-b4", "A-R6", "twist-required"),
        (AZ, "a3-b3^", "A-R6", "twist-without-crossing"),
        (AZ, "a3-b3<", "A-R6", "twist-without-crossing"),
        (AZACRU_REMOVAL, "e4-e7^", "D5", "twist-removed"),
        (
            "azacru players=green,yellow trigger=yellow chevrons=green:a3E;yellow:a1N",
            "a3-b4^",
            "D5",
            "twist-after-trigger",
        ),
        (AZ, "pass", "A-R10", "pass-not-allowed"),
        (AZ, "a3xb3", "A-R5", "no-pincer"),
    ],
)  # fmt: skip
def test_parse_azacru_illegal(position: str, ap_text: str, rule: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        ap.parse_move(pos(position), ap_text)
    assert (info.value.rule, info.value.reason) == (rule, reason)


def test_azacru_removal_and_trigger_have_no_suffix() -> None:
    """D5: no suffix on a connection change that removes the chevron, nor after the trigger."""
    state = pos(AZACRU_REMOVAL)
    assert ap.parse_move(state, "e4-e7") == Move.parse("e4-e7")
    assert ap.format_move(state, "e4-e7") == "e4-e7"
    triggered = pos("azacru players=green,yellow trigger=yellow chevrons=green:a3E;yellow:a1N")
    assert ap.parse_move(triggered, "a3-b4") == Move.parse("a3-b4")
    assert ap.format_move(triggered, "a3-b4") == "a3-b4"


def test_azacru_pass() -> None:
    """A-R10: 'pass' only when no chevron can move."""
    state = pos("azacru players=green,yellow chevrons=green:a1SW;yellow:e5N")
    assert ap.parse_move(state, "pass") == Move.pass_move()
    assert ap.format_move(state, Move.pass_move()) == "pass"


@pytest.mark.parametrize("ap_text", ["a3-b4(b4)", "a3-b4^^", "a3-b4*^", "a3>(a1,a2)"])
def test_parse_azacru_not_notation(ap_text: str) -> None:
    with pytest.raises(NotationError):
        ap.parse_move(ap.new_game("azacru", 2), ap_text)


def test_format_rejects_illegal_move() -> None:
    with pytest.raises(IllegalMoveError) as info:
        ap.format_move(ap.new_game("pacru", 2), "a3-b4")
    assert info.value.reason == "marker-required"


# -- replay ----------------------------------------------------------------------------------------


def test_replay_names_ply_and_move_of_first_bad_move() -> None:
    with pytest.raises(ap.ReplayError) as info:
        ap.replay("pacru", 2, ["a3-b3", "a7-b7", "a3-b3", "e1-e2"])
    err = info.value
    assert (err.ply, err.move) == (3, "a3-b3")
    assert isinstance(err.error, IllegalMoveError)
    assert err.error.reason == "no-chevron"
    assert str(err).startswith("ply 3 ('a3-b3'): ")
    assert err.__cause__ is err.error


def test_replay_rejects_pass_of_a_seat_that_is_in() -> None:
    with pytest.raises(ap.ReplayError) as info:
        ap.replay("pacru", 3, ["pass"])
    assert isinstance(info.value.error, IllegalMoveError)
    assert (info.value.error.rule, info.value.error.reason) == ("R2", "pass-not-allowed")


def test_replay_syntax_error() -> None:
    with pytest.raises(ap.ReplayError) as info:
        ap.replay("azacru", 2, ["a3-b3", "zz"])
    assert info.value.ply == 2
    assert isinstance(info.value.error, NotationError)


def test_compare_final_reports_differences() -> None:
    state = ap.new_game("pacru", 2)
    final = {"to_move": 2, "markers": {"1": ["a1"], "2": []}, "chevrons": AP_2P[:7]}
    diffs = ap.compare_final(state, final)
    assert diffs[0] == "to_move: ours 1, record 2"
    assert diffs[1] == "markers of player 1: only ours [], only the record's ['a1']"
    assert diffs[2].startswith("chevrons: ours")
    assert len(diffs) == 3


def _family_walk(game: str, players: int, seed: int, plies: int) -> tuple[list[str], ChevronState]:
    """A random game (a family first, then a choice), written as AP records it.

    After a Pacru move AP records 'pass' for each following seat that is out
    (R15, D28) until the next seat that can move.
    """
    rng = random.Random(seed)
    state = ap.new_game(game, players)
    texts: list[str] = []
    for _ in range(plies):
        if state.outcome is not None:
            break
        assert_round_trips(state)
        moves = state.legal_moves()
        if moves.families:
            family = moves.families[rng.randrange(len(moves.families))]
            move = family.get(rng.randrange(family.size))
        else:
            move = moves[0]
        texts.append(ap.format_move(state, move))
        mover = state.to_move
        state = state.apply_move(move)
        seat = (mover + 1) % players
        while state.outcome is None and seat != state.to_move:
            assert state.out >> seat & 1
            texts.append("pass")
            seat = (seat + 1) % players
    return texts, state


@pytest.mark.parametrize("game", ap.AP_GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_round_trip_and_replay(game: str, players: int, seed: int) -> None:
    """Every legal move round-trips; the AP texts (with AP's passes) replay to the same state."""
    texts, state = _family_walk(game, players, seed, 120)
    replayed = ap.replay(game, players, texts)
    assert replayed == state
    assert replayed.to_position() == state.to_position()


def test_random_four_player_pacru_records_passes_for_eliminated_seats() -> None:
    """D28: the walk above does eliminate players; AP's passes for them replay."""
    texts, state = _family_walk("pacru", 4, 3, 200)
    assert texts.count("pass") == 9
    assert state.outcome is not None
    assert state.outcome.termination is Termination.LAST_PLAYER
    assert ap.replay("pacru", 4, texts) == state


# -- known differences from AbstractPlay (documented in pacru.abstractplay) ------------------------


def test_known_difference_d22_threshold_after_the_moves_other_effects() -> None:
    """D22: the connection change turns yellow g8 red (9 -> 8), so no meeting field.

    AP judges the threshold before the chosen fields and accepts
    ``g9-g7(*,a1)``; the library rejects it, as the ruling intends.
    """
    state = pos(
        "pacru players=red,yellow markers=red:g9,g7,g6;yellow:g8,a1,b1,c1,a2,b2,c2,a3,b3 "
        "chevrons=red:g9S,g6N;yellow:e5N"
    )
    assert ap.parse_move(state, "g9-g7(*)") == Move.parse("g9-g7*")
    with pytest.raises(IllegalMoveError) as info:
        ap.parse_move(state, "g9-g7(*,a1)")
    assert (info.value.rule, info.value.reason) == ("R12", "no-meeting")
    original = pos(state.to_position() + " meeting_rule=original")
    assert ap.parse_move(original, "g9-g7(*,a1)") == Move.parse("g9-g7*@a1")


def test_known_difference_r9_jump_only_from_an_own_field() -> None:
    """R7, R9: AP's Pacru move list offers e4-e6 over e5 although e4 is not red; we do not."""
    state = pos("pacru players=red,yellow markers=red:e6,d4,f4 chevrons=red:e4N;yellow:e5S,a9SE")
    with pytest.raises(IllegalMoveError) as info:
        ap.parse_move(state, "e4-e6")
    assert (info.value.rule, info.value.reason) == ("R7", "jump-not-connection")


def test_known_difference_azacru_suffix_only_on_a_crossing() -> None:
    """A-R6, D3: AP's validation lets 'a3-b3<' through (and turns the chevron); we reject it."""
    with pytest.raises(IllegalMoveError) as info:
        ap.parse_move(ap.new_game("azacru", 2), "a3-b3<")
    assert (info.value.rule, info.value.reason) == ("A-R6", "twist-without-crossing")
