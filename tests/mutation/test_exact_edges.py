"""Edge cases found by mutation testing: each kills mutants that the other tests missed.

Every test states the behaviour it pins; ``scripts/mutation.sh`` runs them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pytest

import pacru
from pacru import ChevronState, IllegalMoveError, NotationError, from_position
from pacru.base import GameState
from pacru.chevron import movelist
from pacru.geometry import (
    BETWEEN,
    LINE,
    NEIGHBOUR,
    RAYS,
    Direction,
    _lines,
    _ray,
    _step,
)


def _supply(state: GameState[Any]) -> Mapping[str, int]:
    """The Pacru supply, which is never None in Pacru (D29)."""
    supply: Mapping[str, int] | None = state.supply
    assert supply is not None
    return supply


def _chevron(text: str) -> ChevronState:
    state = from_position(text)
    assert isinstance(state, ChevronState)
    return state


def test_geometry_builders_match_coordinates_g5() -> None:
    """The table builders, run again, agree with coordinate arithmetic: a step stays on the
    9x9 board without wrapping, a ray runs to the edge, LINE/BETWEEN hold every straight
    line and nothing else {G5}. (The tables are built by these at import.)"""
    for f in range(81):
        x, y = f % 9, f // 9
        for d in Direction:
            dx, dy = d.delta
            inside = 0 <= x + dx < 9 and 0 <= y + dy < 9
            assert _step(f, d) == ((y + dy) * 9 + x + dx if inside else -1) == NEIGHBOUR[f][d]
            ray = []
            k = 1
            while 0 <= x + k * dx < 9 and 0 <= y + k * dy < 9:
                ray.append((y + k * dy) * 9 + x + k * dx)
                k += 1
            assert _ray(f, d) == tuple(ray) == RAYS[f][d]
    line, between = _lines()
    assert line == LINE
    assert between == BETWEEN
    assert len(line) == sum(len(RAYS[f][d]) for f in range(81) for d in range(8))


def test_direction_parse_error_keeps_the_text() -> None:
    """Direction.parse's NotationError carries the offending text."""
    with pytest.raises(NotationError) as raised:
        Direction.parse("up")
    assert raised.value.text == "up"
    assert str(raised.value) == "'up' is not a direction; expected one of N NE E SE S SW W NW"


def test_move_parse_error_messages() -> None:
    """The NotationError of Move.parse quotes at most 40 characters of the text."""
    with pytest.raises(NotationError) as raised:
        Move_parse(5)
    assert str(raised.value) == "a move must be given as a string"
    text = "a" * 45
    with pytest.raises(NotationError) as raised:
        Move_parse(text)
    assert str(raised.value) == (
        f"{'a' * 40!r} is not a move: a move begins with a field (a1 to i9); "
        "expected e.g. 'e4-e5', 'a3-b4>', 'g9-e7*', 'e3xe4+e6@i9', 'd9>>(c4,b5,a7,b7)' or 'pass'"
    )
    text = "e4-e5+" + "a" * 40
    with pytest.raises(NotationError) as raised:
        Move_parse(text)
    assert str(raised.value).startswith(
        f"{text[:40]!r} is not a move: after 'e4-e5+' comes a field (a1 to i9), not 'aaaaaaaaaa';"
    )


def Move_parse(value: object) -> pacru.Move:
    return pacru.Move.parse(value)  # type: ignore[arg-type]


def test_legal_moves_repr_shows_eight_moves() -> None:
    """repr lists up to 8 moves; a ninth adds the count."""
    eight = _chevron("lilacru players=a,b chevrons=a:e4N,e6N,a9E;b:a1NE").legal_moves()
    assert len(eight) == 8
    assert repr(eight) == ("<LegalMoves [e4-d5, e4-e5, e4-f5, e6-d7, e6-e7, e6-f7, a9-b9, a9-b8]>")
    nine = pacru.new_game("lilacru", 3).legal_moves()
    assert repr(nine) == (
        "<LegalMoves [a7-b8, a7-b7, a7-b6, i7-h6, i7-h7, i7-h8, e9-f8, e9-e8, ... (9 moves)]>"
    )
    assert (eight == nine) is False
    assert (nine == eight) is False


def test_illegal_text_keeps_its_spelling_in_the_error() -> None:
    """parse_move's IllegalMoveError quotes the text as given, not the canonical move."""
    state = pacru.new_game("shacru", 2)
    with pytest.raises(IllegalMoveError) as raised:
        state.parse_move(" E1-E3 ")
    assert raised.value.move == " E1-E3 "


def test_azacru_connection_removal_sees_every_opponent_d5() -> None:
    """A connection over the first of two opponents' markers removes the chevron, so the
    crossing move has no twist variants {A-R7, D5}."""
    state = _chevron("azacru players=a,b,c markers=a:e4,d4,f4,e7;b:e6 chevrons=a:e4N;b:a1NE;c:i1NW")
    moves = [str(m) for m in state.legal_moves() if m.target == pacru.parse_field("e7")]
    assert moves == ["e4-e7"]
    after = state.apply_move("e4-e7")
    assert after.chevrons[0] == ()
    assert after.marker_at("e6") == "a"


def test_colour_names_with_digits_dashes_and_underscores() -> None:
    """Colour names are a letter, then letters, digits, ``-`` and ``_`` (setup)."""
    state = pacru.new_game("pacru", 2, colours=("r2d2", "sea_green-2"))
    assert state.players == ("r2d2", "sea_green-2")
    for bad in (("2nd", "b"), ("a b", "c"), ("-a", "b")):
        with pytest.raises(ValueError, match="colour names are words of letters"):
            pacru.new_game("pacru", 2, colours=bad)
    with pytest.raises(ValueError, match="distinct") as raised:
        pacru.new_game("pacru", 2, colours=("red", "RED"))
    assert str(raised.value) == "colour names must be distinct: red, red"


def test_text_board_draws_chevrons_on_markers_and_later_seats_out() -> None:
    """A chevron on a marked field shows the marker letter first; the legend marks any
    eliminated seat (here the second)."""
    state = _chevron("pacru players=a,b,c markers=a:a2 chevrons=a:a2N,e5N;c:e1N out=b")
    lines = str(state).splitlines()
    assert lines[11] == " 2  | aA↑ ·   ·   | ·   ·   ·   | ·   ·   ·   | 2"
    assert lines[-4:-1] == [
        "  A a: 1 marker, supply 27  <- to move",
        "  B b: 0 markers, supply 28, out",
        "  C c: 0 markers, supply 28",
    ]


def test_step_family_iterates_in_index_order() -> None:
    """A step family yields its choices in index order, meeting fields ascending."""
    fam = movelist.StepFamily(60, 69, False, ((0, False, 71, (1 << 3) | (1 << 5)),))
    assert [str(m) for m in fam] == ["g7-g8+i8@d1", "g7-g8+i8@f1"]
    assert [str(fam.get(i)) for i in range(2)] == ["g7-g8+i8@d1", "g7-g8+i8@f1"]
    assert fam.size == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": 5}, "a pass has no fields or choices"),
        ({"capture": True}, "a pass has no fields or choices"),
        ({"twist": 1}, "a pass has no fields or choices"),
        ({"turn": 1}, "a pass has no fields or choices"),
        ({"connection": True}, "a pass has no fields or choices"),
        ({"marker": 3}, "a pass has no fields or choices"),
        ({"meeting": 3}, "a pass has no fields or choices"),
        ({"relinquished": (3,)}, "a pass has no fields or choices"),
        ({"origin": 5, "target": 5}, "a move must leave its field"),
        ({"origin": 5}, "a move needs a target field, or a turn for a reorientation"),
        (
            {"origin": 5, "target": 6, "turn": 1},
            "turn and relinquished fields belong to reorientations only",
        ),
        (
            {"origin": 5, "target": 6, "relinquished": (1,)},
            "turn and relinquished fields belong to reorientations only",
        ),
        (
            {"origin": 5, "turn": 1, "capture": True},
            "a reorientation has no capture, twist or Pacru step choices",
        ),
        (
            {"origin": 5, "turn": 1, "twist": 1},
            "a reorientation has no capture, twist or Pacru step choices",
        ),
        (
            {"origin": 5, "turn": 1, "connection": True},
            "a reorientation has no capture, twist or Pacru step choices",
        ),
        (
            {"origin": 5, "turn": 1, "marker": 3},
            "a reorientation has no capture, twist or Pacru step choices",
        ),
        (
            {"origin": 5, "turn": 1, "meeting": 3},
            "a reorientation has no capture, twist or Pacru step choices",
        ),
    ],
)
def test_moves_that_cannot_be_written_are_refused(kwargs: dict[str, object], message: str) -> None:
    """The Move constructor refuses what the notation cannot express, one choice at a time."""
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        pacru.Move(**kwargs)  # type: ignore[arg-type]


def test_no_meeting_once_a_connection_empties_the_supply_d29() -> None:
    """A connection that places the last markers of the supply wins at once, so it offers
    no meeting field; the same move with a crossing marker keeps one marker for the meeting
    {R8, R12, R16b, D29}."""
    own = ["d1", "e1", "f1", "e4", "e5"]
    kept = {*own, "e2", "e3", "d4", "f4", "d5", "f5", "d6", "e6", "f6", "a9", "i9"}
    rest = [pacru.field_name(f) for f in range(81) if pacru.field_name(f) not in kept]
    state = _chevron(
        f"pacru players=a,b markers=a:{','.join(own + rest[:35])};b:{','.join(rest[35:47])} "
        "chevrons=a:e1N,e5S;b:i9NE"
    )
    assert _supply(state)["a"] == 2
    moves = [m for m in state.legal_moves() if (m.origin, m.target) == (4, 31)]
    assert [str(m) for m in moves if m.connection] == ["e1-e4*"]
    crossing = [m for m in moves if m.marker == pacru.parse_field("d4")]
    assert [str(m) for m in crossing[:3]] == ["e1-e4+d4@e2", "e1-e4+d4@e3", "e1-e4+d4@f4"]
    after = state.apply_move("e1-e4*")
    assert after.outcome == pacru.Outcome(pacru.Termination.SUPPLY_EXHAUSTED, ("a",))


def test_lookahead_reaches_the_corner_field_d33() -> None:
    """The D33 look-ahead walks over own fields to a neutral a1 (field 0): the game goes on
    while a chevron can still acquire it {L7, S-R6b}."""
    others = [pacru.field_name(f) for f in range(81) if f not in (0, 10, 19)]
    state = _chevron(
        f"lilacru players=a,b markers=a:b2,b3;b:{','.join(others)} chevrons=a:b3S;b:i9NE"
    )
    assert state.outcome is None
    assert [str(m) for m in state.legal_moves()] == ["b3-b2"]
    after = state.apply_move("b3-b2")
    assert after.outcome is None
    assert [str(m) for m in after.apply_move("pass").legal_moves()] == ["b2-a1"]


def _pacru_two_short(extra_own: tuple[str, ...] = (), total: int = 40) -> ChevronState:
    """Pacru, a to move with 40 markers (supply 2): a chevron on e1 facing N with power 7,
    a partner on e5 facing S for a meeting, and b holding 12 markers (threshold D22) and a
    chevron that can move to h9."""
    own = ["d1", "e1", "f1", "e4", "e5", *extra_own]
    kept = {*own, "e2", "e3", "d4", "f4", "d5", "f5", "d6", "e6", "f6", "h9", "i9"}
    rest = [pacru.field_name(f) for f in range(81) if pacru.field_name(f) not in kept]
    fill = total - len(own)
    return _chevron(
        f"pacru players=a,b markers=a:{','.join(own + rest[:fill])};"
        f"b:{','.join(rest[fill : fill + 12])} chevrons=a:e1N,e5S;b:i9SW"
    )


def test_supply_runs_out_part_way_through_a_move_r16b_d29() -> None:
    """Each marker placed counts down the supply and the last one wins at once: the crossing
    marker then the meeting field {R4, R12, R16b, D29, D30}."""
    state = _pacru_two_short()
    assert _supply(state)["a"] == 2
    after = state.apply_move("e1-e4+d4@e2")
    assert after.outcome == pacru.Outcome(pacru.Termination.SUPPLY_EXHAUSTED, ("a",))
    assert after.marker_at("d4") == after.marker_at("e2") == "a"
    assert _supply(after)["a"] == 0


def test_connection_counts_only_the_fields_it_changes_r8() -> None:
    """A connection over an own field and a neutral one places one marker, so with three
    left the meeting that follows leaves one and the game goes on {R8, R12, R16b}."""
    state = _pacru_two_short(extra_own=("e2",), total=39)
    assert _supply(state)["a"] == 3
    after = state.apply_move("e1-e4*@d4")
    assert after.outcome is None
    assert _supply(after)["a"] == 1
    assert after.marker_at("e3") == "a"


def test_field_and_index_error_details() -> None:
    """parse_field reads at most 7 characters; IndexError and position errors say what."""
    assert pacru.parse_field("e5     ") == 40
    with pytest.raises(NotationError):
        pacru.parse_field("e5      ")
    moves = pacru.new_game("shacru", 2).legal_moves()
    with pytest.raises(IndexError, match=r"^legal move index out of range$"):
        moves[99]
    text = "pacru players=a,b chevrons=a:e5"
    with pytest.raises(NotationError) as raised:
        from_position(text)
    assert raised.value.text == text
