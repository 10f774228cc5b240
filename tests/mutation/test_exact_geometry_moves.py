"""Exact values of the geometry tables, the move grammar and the legal-move sequence.

Fast, deterministic tests written to kill mutants (``scripts/mutation.sh``):
each pins one documented value {G1..G6} or one branch of the grammar of
:mod:`pacru.chevron.move` and :mod:`pacru.chevron.movelist`.
"""

from __future__ import annotations

import pytest

import pacru
from pacru import Direction, Move, MoveKind, NotationError
from pacru.chevron.movelist import LegalMoves, ReorientationFamily, StepFamily
from pacru.geometry import (
    ALL_FIELDS,
    BETWEEN,
    BORDERLAND,
    BORDERLAND_FIELDS,
    BORDERLAND_MASK,
    FIELD_NAMES,
    FORWARD,
    FULL_BOARD,
    LINE,
    NEIGHBOUR,
    RAYS,
    bits,
    borderland_of,
    field_index,
    field_name,
    forward_directions,
    parse_field,
)


def test_field_numbering_g1() -> None:
    """a1 = 0, row-major from rank 1, i9 = 80 {G1}."""
    assert FIELD_NAMES[:3] == ("a1", "b1", "c1")
    assert FIELD_NAMES[9] == "a2"
    assert FIELD_NAMES[80] == "i9"
    assert len(FIELD_NAMES) == 81 == len(ALL_FIELDS)
    assert FULL_BOARD == 2**81 - 1
    assert [parse_field(n) for n in ("a1", "E5", " i9 ", "b2")] == [0, 40, 80, 10]
    assert field_name(40) == "e5"
    assert field_index("c3") == 20
    assert field_index(80) == 80


@pytest.mark.parametrize("text", ["", "j1", "a0", "a10", "e5e5e5e5", "5e", "e"])
def test_parse_field_rejects_non_fields(text: str) -> None:
    """Anything but a1..i9 is a NotationError naming the text {G1}."""
    with pytest.raises(NotationError, match=r"is not a field; fields are a1\.\.i9") as err:
        parse_field(text)
    assert err.value.text == text


@pytest.mark.parametrize("bad", [-1, 81, 100])
def test_field_indices_out_of_range(bad: int) -> None:
    """Indices outside 0..80 are a ValueError with the index."""
    with pytest.raises(ValueError, match=rf"field index must be 0\.\.80, not {bad}"):
        field_name(bad)
    with pytest.raises(ValueError, match=r"field index must be 0\.\.80"):
        field_index(bad)
    with pytest.raises(ValueError, match=r"field index must be 0\.\.80"):
        Move(bad, 0)


def test_borderlands_g2() -> None:
    """Nine 3x3 borderlands, indexed (rank0 // 3) * 3 + file0 // 3 {G2}."""
    assert BORDERLAND[:9] == (0, 0, 0, 1, 1, 1, 2, 2, 2)
    assert BORDERLAND[27] == 3
    assert BORDERLAND[40] == 4
    assert BORDERLAND[80] == 8
    assert BORDERLAND_FIELDS[0] == (0, 1, 2, 9, 10, 11, 18, 19, 20)
    assert BORDERLAND_FIELDS[8] == (60, 61, 62, 69, 70, 71, 78, 79, 80)
    assert BORDERLAND_MASK[4] == sum(1 << f for f in BORDERLAND_FIELDS[4])
    assert borderland_of("e5") == 4
    assert borderland_of(80) == 8
    assert bits(BORDERLAND_MASK[1]) == list(BORDERLAND_FIELDS[1])
    assert bits(0) == []


def test_directions_g3() -> None:
    """N..NW = 0..7 clockwise with their steps, turns, opposites and arrows {G3}."""
    assert [d.delta for d in Direction] == [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ]
    assert Direction.N.turned(1) is Direction.NE
    assert Direction.N.turned(-1) is Direction.NW
    assert Direction.W.turned(3) is Direction.NE
    assert [d.opposite.name for d in Direction] == ["S", "SW", "W", "NW", "N", "NE", "E", "SE"]
    assert "".join(d.arrow for d in Direction) == "↑↗→↘↓↙←↖"
    assert repr(Direction.SE) == "Direction.SE"
    assert Direction.parse(" sw ") is Direction.SW
    with pytest.raises(NotationError, match="expected one of N NE E SE S SW W NW"):
        Direction.parse("up")


def test_forward_directions_g4() -> None:
    """Left 45, straight, right 45 of each facing {G4}."""
    assert FORWARD[0] == (7, 0, 1)
    assert FORWARD[7] == (6, 7, 0)
    assert forward_directions(Direction.E) == (Direction.NE, Direction.E, Direction.SE)
    assert forward_directions(10) == (Direction.NE, Direction.E, Direction.SE)


def test_rays_lines_and_between_g5() -> None:
    """Rays run to the edge, nearest first; LINE and BETWEEN describe straight lines {G5}."""
    assert NEIGHBOUR[0] == (9, 10, 1, -1, -1, -1, -1, -1)
    assert NEIGHBOUR[40][Direction.SW] == 30
    assert RAYS[0][Direction.NE] == (10, 20, 30, 40, 50, 60, 70, 80)
    assert RAYS[4][Direction.N] == (13, 22, 31, 40, 49, 58, 67, 76)
    assert RAYS[80][Direction.N] == ()
    assert RAYS[40][Direction.W] == (39, 38, 37, 36)
    assert LINE[0 * 81 + 80] == (Direction.NE, 8)
    assert LINE[40 * 81 + 39] == (Direction.W, 1)
    assert 0 * 81 + 11 not in LINE  # a1 -> c2 is a knight's step
    assert bits(BETWEEN[0 * 81 + 30]) == [10, 20]
    assert BETWEEN[0 * 81 + 10] == 0
    assert bits(BETWEEN[4 * 81 + 76]) == [13, 22, 31, 40, 49, 58, 67]


def test_move_grammar_examples() -> None:
    """Each documented form parses to its fields and prints canonically."""
    cases = {
        "e4-e6": Move(31, 49),
        "a3-b4>": Move(18, 28, twist=1),
        "a3-b4<": Move(18, 28, twist=-1),
        "e9xe7": Move(76, 58, capture=True),
        "g9-e7*": Move(78, 58, connection=True),
        "g9-e7+d9": Move(78, 58, marker=75),
        "e3xe4+e6@i9": Move(22, 31, capture=True, marker=49, meeting=80),
        "d9>>(c4,b5,a7,b7)": Move(75, None, turn=2, relinquished=(54, 37, 55, 29)),
        "e5<<(a1,a2,a3,a4)": Move(40, None, turn=-2, relinquished=(0, 9, 18, 27)),
        "e5<(a1,a2)": Move(40, None, turn=-1, relinquished=(9, 0)),
        "pass": Move(),
    }
    for text, move in cases.items():
        assert Move.parse(text) == move
        assert str(move) == text
        assert Move.parse(f" {text.upper()} ") == move
    assert Move.parse("PASS") is Move.pass_move()
    assert Move(40, None, turn=1, relinquished=(9, 0)).relinquished == (0, 9)
    assert str(Move.parse("d9>>(a7,b5,b7,c4)")) == "d9>>(c4,b5,a7,b7)"  # ascending fields
    assert repr(Move(31, 49)) == "Move.parse('e4-e6')"
    assert [Move.parse(t).kind for t in ("e4-e6", "e9xe7", "e5>(a1,a2)", "pass")] == [
        MoveKind.STEP,
        MoveKind.PINCER,
        MoveKind.REORIENTATION,
        MoveKind.PASS,
    ]
    assert Move.parse("a1-a2@i9").meeting == 80
    assert Move.parse("a1-a2@i9").marker is None


_GRAMMAR = (
    "; expected e.g. 'e4-e5', 'a3-b4>', 'g9-e7*', 'e3xe4+e6@i9', 'd9>>(c4,b5,a7,b7)' or 'pass'"
)
_STEP_END = (
    "the end, or a twist ('<', '>'), '*', '+' and a field, '@' and a field, "
    "each at most once and in this order"
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("e4-e4", "'e4-e4': a move must leave its field"),
        ("e5>(a1,a1)", "'e5>(a1,a1)': a relinquished field is named twice"),
        ("x" * 65, "move text longer than 64 characters"),
        ("é4-e5", "'é4-e5' is not a move" + _GRAMMAR),
        ("", "'' is not a move: a move begins with a field (a1 to i9)" + _GRAMMAR),
        (
            " PAS ",
            "' PAS ' is not a move: a move begins with a field (a1 to i9)" + _GRAMMAR,
        ),
        (
            "e4e5",
            "'e4e5' is not a move: after 'e4' comes '-', 'x' or a turn ('<', '<<', '>', '>>'), "
            "not 'e5'" + _GRAMMAR,
        ),
        (
            "E4-J5",
            "'E4-J5' is not a move: after 'e4-' comes a field (a1 to i9), not 'j5'" + _GRAMMAR,
        ),
        ("e4-e", "'e4-e' is not a move: after 'e4-' comes a field (a1 to i9), not 'e'" + _GRAMMAR),
        (
            "e4-e5+",
            "'e4-e5+' is not a move: after 'e4-e5+' comes a field (a1 to i9), not the end"
            + _GRAMMAR,
        ),
        (
            "e4-e5<>",
            f"'e4-e5<>' is not a move: after 'e4-e5<' comes {_STEP_END}, not '>'" + _GRAMMAR,
        ),
        (
            "e4-e5@a1+a2",
            f"'e4-e5@a1+a2' is not a move: after 'e4-e5@a1' comes {_STEP_END}, not '+a2'"
            + _GRAMMAR,
        ),
        (
            "e5>>>(a1,a2)",
            "'e5>>>(a1,a2)' is not a move: after 'e5>>' comes '(' and the fields given up, "
            "not '>(a1,a2)'" + _GRAMMAR,
        ),
        (
            "e5>()",
            "'e5>()' is not a move: after 'e5>(' comes a field (a1 to i9), not ')'" + _GRAMMAR,
        ),
        (
            "e5>(a1",
            "'e5>(a1' is not a move: after 'e5>(a1' comes ',' and a field, or ')', not the end"
            + _GRAMMAR,
        ),
        ("e5>(a1))", "'e5>(a1))' is not a move: after 'e5>(a1)' comes the end, not ')'" + _GRAMMAR),
    ],
)
def test_move_grammar_errors(text: str, message: str) -> None:
    """Text outside the grammar is a NotationError saying where it leaves the grammar and
    what would come there, keeping the text; both engines word it alike."""
    with pytest.raises(NotationError) as err:
        Move.parse(text)
    assert str(err.value) == message
    assert err.value.text == text[:200]


def test_legal_moves_sequence_protocol() -> None:
    """Indexing, slicing, iteration, ``in``, equality and repr of LegalMoves."""
    state = pacru.new_game("shacru", 2)
    moves = state.legal_moves()
    listed = list(moves)
    assert len(moves) == 16
    assert moves[0] == listed[0] == Move.parse("e1-d2")  # chevrons by field: e1 first
    assert moves[-1] == listed[-1]
    assert moves[2:5] == tuple(listed[2:5])
    assert moves == listed
    assert moves == tuple(listed)
    assert moves == state.legal_moves()
    assert moves != listed[:-1]
    assert (moves == 5) is False
    assert Move.parse("a3-b4>") in moves
    assert Move.parse("a3-b4") in moves
    assert Move.parse("e1-e2>") not in moves
    texts: list[object] = ["a3-b4", "e1-e2>", "not a move", 5]
    # A move's text is looked up as the move; anything else is not in the list.
    assert [t in moves for t in texts] == [True, False, False, False]
    assert Move.pass_move() not in moves
    assert bool(moves)
    assert not moves.is_pass
    assert repr(moves) == (
        "<LegalMoves [e1-d2, e1-e2, e1-f2, a3-b4, a3-b4<, a3-b4>, a3-b3, a3-b2, ... (16 moves)]>"
    )
    with pytest.raises(IndexError):
        moves[16]
    with pytest.raises(IndexError):
        moves[-17]
    with pytest.raises(TypeError):
        hash(moves)
    family = moves.family_of(Move.parse("a3-b4"))
    assert isinstance(family, StepFamily)
    assert [str(m) for m in family] == ["a3-b4", "a3-b4<", "a3-b4>"]
    assert [str(family.get(i)) for i in range(3)] == ["a3-b4", "a3-b4<", "a3-b4>"]
    with pytest.raises(IndexError):
        family.get(3)


def test_empty_and_pass_only_lists() -> None:
    """An empty list and the pass-only list {S-R2}."""
    empty = LegalMoves.empty()
    assert len(empty) == 0
    assert not empty
    assert list(empty) == []
    assert repr(empty) == "<LegalMoves []>"
    passes = LegalMoves.pass_only()
    assert len(passes) == 1
    assert passes.is_pass
    assert list(passes) == [Move.pass_move()]
    assert passes[0] == passes[-1] == Move.pass_move()
    assert Move.pass_move() in passes
    assert Move.parse("a1-a2") not in passes
    assert repr(passes) == "<LegalMoves [pass]>"


def test_reorientation_family_unranks_combinations_r14() -> None:
    """Index i of a reorientation family is the i-th relinquished set in lexicographic
    order; membership needs exactly ``cost`` distinct fields of the family {R14, D25}."""
    fam = ReorientationFamily(40, 2, (0, 1, 2, 3, 4, 5))
    assert fam.size == 15
    assert fam.cost == 4
    listed = list(fam)
    assert [m.relinquished for m in listed[:3]] == [(0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 2, 5)]
    assert listed[-1].relinquished == (2, 3, 4, 5)
    assert [fam.get(i) for i in range(15)] == listed
    assert fam.contains(Move(40, None, turn=2, relinquished=(1, 2, 4, 5)))
    assert not fam.contains(Move(40, None, turn=2, relinquished=(1, 2, 4)))
    assert not fam.contains(Move(40, None, turn=2, relinquished=(1, 2, 4, 9)))
    half = ReorientationFamily(40, -1, (7, 9, 11))
    assert half.cost == 2
    assert [m.relinquished for m in half] == [(7, 9), (7, 11), (9, 11)]
    assert str(half.get(2)) == "e5<(a2,c2)"
