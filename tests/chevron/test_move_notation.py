"""The move grammar of the chevron games (module docstring of pacru.chevron.move)."""

from __future__ import annotations

import pytest

from pacru import Move, MoveKind, NotationError, parse_field
from pacru.chevron.move import MAX_MOVE_TEXT

from .helpers import pos


def f(text: str) -> int:
    return parse_field(text)


# Every form of the grammar: text -> the Move it denotes.
FORMS = [
    ("e4-e6", Move(f("e4"), f("e6"))),
    ("a3-b4>", Move(f("a3"), f("b4"), twist=1)),
    ("a3-b4<", Move(f("a3"), f("b4"), twist=-1)),
    ("e9xe7", Move(f("e9"), f("e7"), capture=True)),
    ("g9-e7*", Move(f("g9"), f("e7"), connection=True)),
    ("g9-e7+d9", Move(f("g9"), f("e7"), marker=f("d9"))),
    ("g9-g8@e5", Move(f("g9"), f("g8"), meeting=f("e5"))),
    ("e3xe4+e6@i9", Move(f("e3"), f("e4"), capture=True, marker=f("e6"), meeting=f("i9"))),
    ("g9-e7*@a1", Move(f("g9"), f("e7"), connection=True, meeting=f("a1"))),
    ("a3-b4>*+c5@d6", Move(
        f("a3"), f("b4"), twist=1, connection=True, marker=f("c5"), meeting=f("d6")
    )),
    ("e5>(a1,a2)", Move(f("e5"), None, turn=1, relinquished=(f("a1"), f("a2")))),
    ("e5<(a1,a2)", Move(f("e5"), None, turn=-1, relinquished=(f("a1"), f("a2")))),
    ("e5>>(a1,a2,a3,a4)", Move(f("e5"), None, turn=2, relinquished=(0, 9, 18, 27))),
    ("e5<<(a1,a2,a3,a4)", Move(f("e5"), None, turn=-2, relinquished=(0, 9, 18, 27))),
    ("pass", Move.pass_move()),
]  # fmt: skip


@pytest.mark.parametrize(("text", "move"), FORMS)
def test_every_form_parses_and_prints_canonically(text: str, move: Move) -> None:
    """Move.parse(str(m)) == m and str(Move.parse(t)) == t for canonical text."""
    assert Move.parse(text) == move
    assert str(move) == text
    assert Move.parse(str(move)) == move
    assert repr(move) == f"Move.parse({text!r})"
    assert hash(Move.parse(text)) == hash(move)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("e4-e6", MoveKind.STEP),
        ("e9xe7", MoveKind.PINCER),
        ("e5>(a1,a2)", MoveKind.REORIENTATION),
        ("pass", MoveKind.PASS),
    ],
)
def test_move_kind(text: str, kind: MoveKind) -> None:
    assert Move.parse(text).kind is kind


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("E4-E6", "e4-e6"),
        ("  a3-B4>  ", "a3-b4>"),
        ("\te9Xe7\n", "e9xe7"),
        ("PASS", "pass"),
        (" Pass ", "pass"),
        ("G9-E7+D9@I1", "g9-e7+d9@i1"),
        # Relinquished fields print in ascending field index (a1 = 0 ... i9 = 80).
        ("e5<(a2,a1)", "e5<(a1,a2)"),
        ("d9>>(a7,b5,b7,c4)", "d9>>(c4,b5,a7,b7)"),
    ],
)
def test_case_and_surrounding_whitespace_are_ignored(text: str, canonical: str) -> None:
    """Input is case-insensitive and may be surrounded by white space; output is canonical."""
    assert str(Move.parse(text)) == canonical


BAD = [
    "",
    "   ",
    "e4e5",
    "e4-e4",  # a move must leave its field
    "j1-a1",
    "a0-a1",
    "e4-e5<<",  # a twist is one 45-degree turn
    "e4-e5<>",
    "e5>(a1,a1)",  # a relinquished field named twice
    "e5>()",
    "e5>>>(a1,a2)",
    "e5(a1,a2)",
    "e4 - e5",  # white space inside a move
    "e4-e5 >",
    "e4-e5**",
    "e4-e5@",
    "e4-e5+",
    "e4-e5@a1+b2",  # the marker comes before the meeting
    "e4-e5*>",  # the twist comes before the star
    "e4_e5",
    "pass pass",
    "passe",
    "e4-e5" + " " * MAX_MOVE_TEXT,  # overlong, even if only padding
    "x" * 10_000,
]


@pytest.mark.parametrize("text", BAD)
def test_bad_text_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Move.parse(text)
    assert info.value.text == text[:200]


def test_non_string_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="string"):
        Move.parse(None)  # type: ignore[arg-type]


def test_longest_accepted_text_is_max_move_text() -> None:
    """The length limit counts the raw input: 64 characters pass, 65 do not."""
    padded = "e4-e5".ljust(MAX_MOVE_TEXT)
    assert Move.parse(padded) == Move.parse("e4-e5")
    with pytest.raises(NotationError, match="longer than 64"):
        Move.parse(padded + " ")


def test_grammar_is_context_free() -> None:
    """A syntactically valid but geometrically odd move parses; legality is the state's job."""
    m = Move.parse("a1-c2")
    assert (m.origin, m.target) == (0, f("c2"))


def test_moves_are_values() -> None:
    """Moves are frozen, hashable values; equal text gives equal moves."""
    a, b = Move.parse("a3-b4>"), Move.parse("A3-B4>")
    assert a == b
    assert len({a, b, Move.parse("a3-b4")}) == 2
    with pytest.raises(AttributeError):
        a.twist = 0  # type: ignore[misc]


def test_hand_built_moves_outside_the_grammar_are_refused() -> None:
    """A Move that the notation could not write cannot be built (S-R2, R14, D24)."""
    stuck = pos("shacru players=red,yellow chevrons=red:a1S;yellow:e5N")
    assert stuck.is_legal(Move.pass_move())
    with pytest.raises(ValueError, match="needs a target field"):
        Move(f("a2"))
    with pytest.raises(ValueError, match="a pass has no fields"):
        Move(target=f("a2"))
    pacru_state = pos("pacru players=red,yellow markers=red:a1,a2 chevrons=red:e5N;yellow:e9S")
    plain = Move(f("e5"), None, turn=1, relinquished=(f("a1"), f("a2")))
    assert pacru_state.is_legal(plain)
    with pytest.raises(ValueError, match="reorientation has no"):
        Move(f("e5"), None, turn=1, relinquished=(f("a1"), f("a2")), twist=1)
    with pytest.raises(ValueError, match="reorientation has no"):
        Move(f("e5"), None, turn=1, relinquished=(f("a1"), f("a2")), marker=f("e6"))
    with pytest.raises(ValueError, match="must leave its field"):
        Move(f("e5"), f("e5"))
    with pytest.raises(ValueError, match="'twist' must be in"):
        Move(f("e5"), f("e6"), twist=5)
