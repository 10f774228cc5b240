"""Move explanations (pacru.explain): the rule, the reason and the legal alternatives."""

from __future__ import annotations

from typing import Any, cast

import pacru
from pacru.chevron.state import ChevronState
from pacru.explanation import MAX_ALTERNATIVES, Explanation, explain


def P(text: str) -> ChevronState:
    return cast(ChevronState, pacru.from_position(text))


# E.1-7 (R7 captions): red b2 facing NE with PoM 3, a chevron on d4, yellow b3 and b5.
R7 = "pacru players=red,yellow markers=red:a1,c1,a3;yellow:b3,b5 chevrons=red:b2NE;yellow:d4N,e9S"
# E.1-8 (R8): red g9 facing S with PoM 3 in h8; g9-e7 is a connection and a crossing.
R8 = "pacru players=red,yellow markers=red:g9,i9,i8,e7 chevrons=red:g9S;yellow:a1N"
# E.1-11 (R11): red e9 and g9 both attack yellow's chevron on e7.
R11 = "pacru players=red,yellow markers=red:d9,d8,i9,i8 chevrons=red:e9S,g9S;yellow:e7N"
# E.1-13 (R12): g9-g8 makes a meeting, and yellow has 9 markers (2011 rule, D22).
R12 = (
    "pacru players=red,yellow markers=red:g9,g8,g7;yellow:d4,e4,f4,d5,e5,f5,d6,e6,f6 "
    "chevrons=red:g9S,g7N;yellow:a1N"
)


def _fields(prefix: str, names: str) -> list[str]:
    return [f"{prefix}{name}" for name in names.split()]


def test_illegal_beyond_power_shacru_s_r3() -> None:
    result = explain(pacru.new_game("shacru"), "e1-e3")
    assert result == Explanation(
        "e1-e3",
        False,
        "S-R3",
        "beyond-power",
        "a chevron moves one field; e1 to e3 is 2",
        ("e1-d2", "e1-e2", "e1-f2"),
        "of the chevron on e1",
    )
    assert str(result) == (
        "e1-e3: illegal (S-R3, beyond-power): a chevron moves one field; e1 to e3 is 2\n"
        "  legal moves of the chevron on e1: e1-d2, e1-e2, e1-f2"
    )


def test_illegal_jump_r7_lists_the_chevrons_moves() -> None:
    result = P(R7).explain("b2-e5")
    assert (result.legal, result.rule, result.reason) == (False, "R7", "jump-not-connection")
    assert result.message == (
        "may not jump over the chevron on d4 unless the move is a connection jump "
        "(from and to own fields; R9)"
    )
    # E.1-7: c3, b4 (with a marker in b5), c2, and d2, e2 (with a marker in e2); and
    # the 45-degree reorientations paying two of a1, c1, a3 (R14).
    assert set(result.alternatives) == {
        "b2-c3",
        "b2-c2",
        *_fields("b2-b4+", "a4 b4 c4 a5 c5 a6 b6 c6"),
        *_fields("b2-d2+", "d1 e1 f1 d2 e2 f2 d3 e3 f3"),
        *_fields("b2-e2+", "d1 e1 f1 d2 e2 f2 d3 e3 f3"),
        *_fields("b2<", "(a1,c1) (a1,a3) (c1,a3)"),
        *_fields("b2>", "(a1,c1) (a1,a3) (c1,a3)"),
    }
    assert len(result.alternatives) == 34


def test_opponent_field_r7_and_same_target_first() -> None:
    result = P(R7).explain("b2-b5")
    assert (result.rule, result.reason, result.message) == (
        "R7",
        "opponent-field",
        "b5 belongs to yellow",
    )
    result = P(R8).explain("g9-e7")
    assert (result.rule, result.reason) == ("R4", "marker-required")
    assert result.alternatives[:9] == (
        "g9-e7*",
        *_fields("g9-e7+", "d7 f7 d8 e8 f8 d9 e9 f9"),
    )


def test_connection_and_crossing_choose_one_r8_d13() -> None:
    result = P(R8).explain("g9-e7*+d9")
    assert (result.rule, result.reason) == ("R8", "connection-and-crossing")
    assert P(R8).explain("g9-e7*").message == (
        "the chevron on g9 moves 2 fields SW to e7; it crosses from the h8 borderland into "
        "e8; it faces SW; connection change (R8): f8 becomes red."
    )
    assert P(R8).explain("g9-e7+d9").message == (
        "the chevron on g9 moves 2 fields SW to e7; it crosses from the h8 borderland into "
        "e8; it faces SW; borderland change (R4, R6): d9 becomes red."
    )


def test_legal_pincer_ends_the_game_r11_r15_r16() -> None:
    result = P(R11).explain("g9xe7+d7")
    assert result == Explanation(
        "g9xe7+d7",
        True,
        "R11",
        "legal",
        "pincer: the chevron on g9 takes yellow's chevron on e7 (R11); it crosses from the h8 "
        "borderland into e8; it faces SW; pincer (R11): e7 becomes red; borderland change "
        "(R4, R6): d7 becomes red; yellow is out (R15); the game ends: red wins (last-player).",
    )
    assert str(result).startswith("g9xe7+d7: legal (R11): pincer: the chevron on g9")
    occupied = P(R11).explain("e9-e7")
    assert (occupied.rule, occupied.reason) == ("R7", "occupied")
    assert occupied.alternatives[0] == "e9xe7"


def test_pincer_in_three_players_eliminates_but_play_goes_on_r15_d28() -> None:
    state = P(R11.replace("players=red,yellow", "players=red,yellow,black") + ";black:a1N")
    assert state.explain("e9xe7").message == (
        "pincer: the chevron on e9 takes yellow's chevron on e7 (R11); it faces S; "
        "pincer (R11): e7 becomes red; yellow is out (R15)."
    )


def test_meeting_r12_d23() -> None:
    state = P(R12)
    assert state.explain("g9-g8@e5").message == (
        "the chevron on g9 moves 1 field S to g8; it faces S; meeting (R12): e5 becomes red "
        "(was yellow)."
    )
    required = state.explain("g9-g8")
    assert (required.rule, required.reason) == ("D23", "meeting-required")
    assert len(required.alternatives) == MAX_ALTERNATIVES
    assert (state.explain("g9-g8@g7").rule, state.explain("g9-g8@g7").reason) == (
        "D23",
        "bad-meeting-field",
    )


def test_azacru_connection_removes_the_chevron_a_r7() -> None:
    state = P(
        "azacru players=red,yellow markers=red:e4,d4,f4,e7;yellow:e6 chevrons=red:e4N;yellow:a1N"
    )
    assert state.explain("e4-e7").message == (
        "the chevron on e4 moves 3 fields N to e7; it crosses from the e5 borderland into e8; "
        "the chevron is taken off the board: its connection changed another player's field "
        "(A-R7); connection change (A-R7): e5 and e6 become red (was neutral, yellow)."
    )
    assert state.explain("e4-e7").rule == "A-R5"


def test_twist_and_arrival_s_r4() -> None:
    assert pacru.new_game("shacru").explain("a3-b4>").message == (
        "the chevron on a3 moves 1 field NE to b4; it crosses from the b2 borderland into b5; "
        "it twists 45 degrees clockwise to face E (S-R4); arrival (S-R3): b4 becomes green."
    )
    twisted = pacru.new_game("lilacru").explain("a3-b4>")
    assert (twisted.rule, twisted.reason) == ("L4", "no-twist")


def test_connection_jump_a_r8() -> None:
    state = P("azacru players=red,yellow markers=red:e4,d4,f4,e7 chevrons=red:e4N;yellow:e5S")
    assert state.explain("e4-e7").message == (
        "the chevron on e4 moves 3 fields N to e7; a connection jump over e5 (A-R8); "
        "it crosses from the e5 borderland into e8; it faces N."
    )


def test_reorientation_r14_d25() -> None:
    state = P("pacru players=red,yellow markers=red:a1,c1,a3 chevrons=red:b2NE;yellow:e9S")
    result = state.explain("b2>(a1,a3)")
    assert (result.legal, result.rule) == (True, "R14")
    assert result.message == (
        "the chevron on b2 turns 45 degrees clockwise from NE to E, giving up a1 and a3 "
        "(they become neutral)."
    )
    wrong = state.explain("b2>(a1,a3,c1)")
    assert (wrong.rule, wrong.reason) == ("R14", "wrong-payment")
    assert wrong.message == "a 45-degree turn costs exactly 2 of your fields, not 3 (D25)"
    # Three fields of red's own: too few for any 90-degree turn, whatever is given up.
    short = state.explain("b2>>(a1,a3)")
    assert (short.rule, short.reason) == ("D25", "too-few-fields")
    assert short.message == (
        "red has 3 unoccupied fields of their own, and a 90-degree turn gives up 4 (R14)"
    )


def test_pass_s_r2_and_azacru_trigger_a_r10() -> None:
    blocked = "players=green,yellow markers=yellow:e2,d2,f2 chevrons=green:e1N;yellow:e9S"
    shacru = P("shacru " + blocked)
    assert shacru.explain("pass") == Explanation(
        "pass", True, "S-R2", "legal", "green passes: no chevron of green can move."
    )
    must = shacru.explain("e1-e2")
    assert (must.rule, must.reason, must.alternatives) == ("S-R2", "must-pass", ("pass",))
    assert str(must).endswith("\n  legal moves instead: pass")
    assert P("azacru " + blocked).explain("pass").message == (
        "green passes: no chevron of green can move; this first pass triggers the end: each "
        "other player moves once more (A-R10)."
    )
    no_pass = pacru.new_game("pacru").explain("pass")
    assert (no_pass.rule, no_pass.reason) == ("R2", "pass-not-allowed")
    assert no_pass.alternatives[:3] == ("e1-d2", "e1-e2", "e1-f2")


def test_not_a_move_and_wrong_chevron() -> None:
    state = pacru.new_game("lilacru")
    bad = state.explain("e1-e1")
    assert (bad.legal, bad.rule, bad.reason) == (False, "notation", "not-a-move")
    assert bad.alternatives == ("e1-d2", "e1-e2", "e1-f2")
    nothing = state.explain("zz")
    assert nothing.subject == "of green"
    assert len(nothing.alternatives) == 12
    theirs = state.explain("e9-e8")
    assert (theirs.rule, theirs.reason) == ("L4", "not-your-chevron")
    assert theirs.message == "the chevron on e9 belongs to yellow, and green is to move"


def test_game_over() -> None:
    final = P(R11).apply_move("e9xe7")
    result = final.explain("e7-e6")
    assert result == Explanation("e7-e6", False, "end", "game-over", "the game is over: red wins")


def test_move_objects_are_explained_by_their_text() -> None:
    state = pacru.new_game("shacru")
    move = state.legal_moves()[0]
    result = explain(state, move)  # type: ignore[arg-type]
    assert (result.move, result.legal) == (str(move), True)


def _lsd() -> Any:
    return pacru.new_game("lsd", 2)


def test_lsd_first_tile_and_placement_rules() -> None:
    state = _lsd()
    first = explain(state, "B+NESW@0,0")
    assert (first.legal, first.rule) == (True, "LSD-1.4")
    assert first.message == (
        "red places a B+NESW tile at (0, 0); the first tile starts the field at (0, 0) "
        "(LSD 1.4, RULING 20)."
    )
    away = explain(state, "B+NESW@1,0")
    assert (away.rule, away.reason, away.alternatives) == (
        "LSD-R20",
        "first-tile-not-origin",
        ("B+NESW@0,0",),
    )
    state = state.apply_move("B+NESW@0,0")
    placed = explain(state, "WxW@1,0")
    assert placed.message == "yellow places a WxW tile at (1, 0); it makes 1 whole dot (LSD 2.2)."
    blocked = explain(state, "WxE@1,0")
    assert (blocked.rule, blocked.reason) == ("LSD-2.2", "obstructs-dot")
    assert blocked.alternatives[-1] == "WxNESW@1,0"
    assert blocked.subject == "on (1, 0)"
    occupied = explain(state, "WxW@0,0")
    assert (occupied.rule, occupied.reason) == ("LSD-2.2", "occupied")
    assert occupied.alternatives == ("WxE@-1,0", "WxN@0,-1", "WxS@0,1", "WxW@1,0")
    assert explain(state, "nonsense").reason == "not-a-move"


def test_lsd_state_explain_method() -> None:
    state = _lsd()
    assert state.explain("B+NESW@1,0") == explain(state, "B+NESW@1,0")
    second = state.apply_move("B+NESW@0,0")
    assert second.explain("B+NESW@0,0").reason == "not-in-supply"
