"""Board geometry {G1-G6} and the edge cases of the rules reference E.3."""

from __future__ import annotations

import pytest

from pacru import Chevron, Direction, NotationError, field_name, parse_field
from pacru import geometry as g

from .helpers import DELTAS, borderland, moves_of, name, pos


def test_g1_field_names_and_indices_row_major_from_a1() -> None:
    """G1: a1 = 0 bottom-left, row-major from rank 1, i9 = 80 top-right."""
    for y in range(1, 10):
        for x in range(1, 10):
            index = (y - 1) * 9 + (x - 1)
            assert field_name(index) == name(x, y)
            assert parse_field(name(x, y)) == index
            assert parse_field(name(x, y).upper()) == index
            assert g.FIELD_NAMES[index] == name(x, y)
    assert (g.A1, g.I1, g.A9, g.E5, g.I9) == (0, 8, 72, 40, 80)
    assert parse_field(" e5 ") == 40


@pytest.mark.parametrize("text", ["", "a0", "a10", "j1", "e", "55", "e5e5", "é5", "a1 b1"])
def test_g1_bad_field_names_raise_notation_error(text: str) -> None:
    """G1: only a1..i9 are fields."""
    with pytest.raises(NotationError):
        parse_field(text)


@pytest.mark.parametrize("index", [-1, 81, 1000])
def test_g1_field_index_out_of_range(index: int) -> None:
    with pytest.raises(ValueError, match=r"0\.\.80"):
        field_name(index)


def test_g2_borderland_of_every_field() -> None:
    """G2: the borderland of all 81 fields is ((x-1)//3, (y-1)//3), named by its centre."""
    for y in range(1, 10):
        for x in range(1, 10):
            bx, by = borderland(x, y)
            expected = by * 3 + bx
            assert g.borderland_of(name(x, y)) == expected, name(x, y)
            assert g.BORDERLAND[(y - 1) * 9 + x - 1] == expected
            centre = name(bx * 3 + 2, by * 3 + 2)
            assert g.BORDERLAND_NAMES[expected] == centre
    assert g.BORDERLAND_NAMES == ("b2", "e2", "h2", "b5", "e5", "h5", "b8", "e8", "h8")
    for b, fields in enumerate(g.BORDERLAND_FIELDS):
        assert len(fields) == 9
        assert all(g.BORDERLAND[f] == b for f in fields)
        assert g.BORDERLAND_MASK[b] == sum(1 << f for f in fields)


def test_g2_borderland_table_rows() -> None:
    """G2 table: e.g. the central borderland e5 is d4-f6, the NE corner h8 is g7-i9."""
    assert {field_name(f) for f in g.BORDERLAND_FIELDS[4]} == {
        "d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6"
    }  # fmt: skip
    assert {field_name(f) for f in g.BORDERLAND_FIELDS[8]} == {
        "g7", "h7", "i7", "g8", "h8", "i8", "g9", "h9", "i9"
    }  # fmt: skip


def test_g3_directions_clockwise_with_deltas() -> None:
    """G3: N, NE, E, SE, S, SW, W, NW = 0..7 clockwise with these (dx, dy)."""
    names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert [d.name for d in Direction] == names
    assert [d.delta for d in Direction] == list(DELTAS)
    assert Direction.N.turned(1) is Direction.NE
    assert Direction.N.turned(-1) is Direction.NW
    assert Direction.SW.opposite is Direction.NE
    assert Direction.parse("sw") is Direction.SW
    with pytest.raises(NotationError):
        Direction.parse("up")


def test_g4_forward_direction_table_exactly() -> None:
    """G4: the three forward directions of each facing, as in the rules table."""
    table = {
        "N": ("NW", "N", "NE"),
        "NE": ("N", "NE", "E"),
        "E": ("NE", "E", "SE"),
        "SE": ("E", "SE", "S"),
        "S": ("SE", "S", "SW"),
        "SW": ("S", "SW", "W"),
        "W": ("SW", "W", "NW"),
        "NW": ("W", "NW", "N"),
    }
    for facing, expected in table.items():
        got = g.forward_directions(Direction[facing])
        assert tuple(d.name for d in got) == expected
        assert tuple(g.FORWARD[Direction[facing]]) == tuple(Direction[e] for e in expected)


def test_g5_rays_go_straight_to_the_edge_without_wrapping() -> None:
    """G5: RAYS hold the fields in a straight line, nearest first, stopping at the edge."""
    for f in range(81):
        x, y = f % 9 + 1, f // 9 + 1
        for d, (dx, dy) in enumerate(DELTAS):
            expected = []
            k = 1
            while 1 <= x + k * dx <= 9 and 1 <= y + k * dy <= 9:
                expected.append(parse_field(name(x + k * dx, y + k * dy)))
                k += 1
            assert list(g.RAYS[f][d]) == expected
            assert g.NEIGHBOUR[f][d] == (expected[0] if expected else -1)
    assert [field_name(f) for f in g.RAYS[g.C1][Direction.E]] == [
        "d1", "e1", "f1", "g1", "h1", "i1"
    ]  # fmt: skip


def test_g5_line_and_between_tables() -> None:
    """G5: LINE gives (direction, distance) and BETWEEN the intervening fields."""
    c1, g1 = parse_field("c1"), parse_field("g1")
    assert g.LINE[c1 * 81 + g1] == (Direction.E, 4)
    assert [field_name(f) for f in g.bits(g.BETWEEN[c1 * 81 + g1])] == ["d1", "e1", "f1"]
    assert c1 * 81 + parse_field("d3") not in g.LINE  # a knight's step is no line
    assert g.BETWEEN[c1 * 81 + parse_field("d2")] == 0


@pytest.mark.parametrize(
    ("start", "end", "lands_in"),
    [("c5", "d5", "e5"), ("c3", "d4", "e5"), ("c1", "g1", "h2"), ("e5", "e6", "e5")],
)
def test_g6_crossing_examples(start: str, end: str, lands_in: str) -> None:
    """G6: c5-d5 and the corner step c3-d4 cross; c1-g1 crosses two borders into h2."""
    a, b = g.borderland_of(start), g.borderland_of(end)
    assert g.BORDERLAND_NAMES[b] == lands_in
    assert (a != b) == (start != "e5")


def test_g6_multi_border_move_gives_one_twist_judged_on_destination() -> None:
    """G6, D42: an Azacru c1-g1 (PoM 4) is one crossing: three twist variants, no more."""
    state = pos("azacru players=red,yellow markers=red:a1,b1,c1,a2 chevrons=red:c1E;yellow:a9S")
    assert {m for m in moves_of(state) if m.startswith("c1-g1")} == {"c1-g1", "c1-g1<", "c1-g1>"}
    after = state.apply_move("c1-g1<")
    assert after.chevron_at("g1") == Chevron("red", Direction.NE)
    assert after.marker_map() == {"a1": "red", "b1": "red", "c1": "red", "a2": "red", "g1": "red"}


# E.3: a chevron on a1 facing each of the 8 directions (G4, G5).
A1_MOVES = {
    "N": {"a1-a2", "a1-b2"},
    "NE": {"a1-a2", "a1-b2", "a1-b1"},
    "E": {"a1-b2", "a1-b1"},
    "SE": {"a1-b1"},
    "S": {"pass"},
    "SW": {"pass"},
    "W": {"pass"},
    "NW": {"a1-a2"},
}


@pytest.mark.parametrize("game", ["lilacru", "shacru"])
@pytest.mark.parametrize("facing", list(A1_MOVES))
def test_e3_a1_facing_each_direction(game: str, facing: str) -> None:
    """E.3: at a1, SW/S/W give 0 moves, SE only b1, NW only a2, N and E two, NE three."""
    state = pos(f"{game} players=red,yellow chevrons=red:a1{facing};yellow:i9S")
    assert moves_of(state) == A1_MOVES[facing]
