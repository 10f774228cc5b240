"""Placement {LSD.md 1.5, 2.2; RULINGS 4-7, 20; the placement cases of 3.3}."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import pacru
from pacru import lsd
from pacru.base import Outcome, Termination
from pacru.errors import IllegalMoveError

from .helpers import error_of, pos, reference_moves, texts

#: Every face of each default dot pattern (LSD.md 3.1) under rotation (RULING 4).
ROTATIONS = {
    "N": ("N", "E", "S", "W"),
    "NE": ("NE", "ES", "SW", "NW"),
    "NS": ("NS", "EW"),
    "NES": ("NES", "ESW", "NSW", "NEW"),
    "NESW": ("NESW",),
}


def test_ruling20_first_tile_any_tile_any_rotation_at_origin() -> None:
    """RULING 20, 1.4: the first tile is any tile of the supply, in any rotation, at (0, 0)."""
    moves = lsd.new_game(2).legal_moves()
    assert texts(moves) == {
        f"B{shape}{face}@0,0" for shape in "+x" for faces in ROTATIONS.values() for face in faces
    }
    assert len(moves) == 30  # one per distinct oriented tile, not per copy or turn


def test_ruling20_first_tile_elsewhere_is_illegal() -> None:
    """RULING 20: the first tile is placed at the origin."""
    err = error_of(lsd.new_game(2), "B+NESW@3,1")
    assert (err.rule, err.reason) == ("LSD-R20", "first-tile-not-origin")


def test_ruling20_first_tile_has_no_constraint_even_without_dots() -> None:
    """RULING 20: even a 0-dot tile may start (custom set); after it nobody can place (2.4)."""
    state = lsd.new_game(2, tile_set="+0*1,+N*1")
    assert texts(state.legal_moves()) == {"B+0@0,0", "B+N@0,0", "B+E@0,0", "B+S@0,0", "B+W@0,0"}
    after = state.apply_move("B+0@0,0")
    assert after.outcome == Outcome(Termination.BLOCKED, ())
    assert after.current_player is None


def test_moves_after_the_first_tile_are_exactly_the_fitting_ones() -> None:
    """2.2: after B+NESW at the origin yellow may touch it anywhere with a half dot on the
    touching side: 4 cells x 8 oriented tiles x 2 shapes."""
    state = lsd.new_game(2).apply_move("B+NESW@0,0")
    moves = state.legal_moves()
    assert len(moves) == 64
    north = {
        f"W{shape}{sides}@0,1"
        for shape in "+x"
        for sides in ("S", "ES", "SW", "NS", "NES", "ESW", "NSW", "NESW")
    }
    assert texts(m for m in moves if m.cell == (0, 1)) == north
    assert {m.cell for m in moves} == {(0, 1), (1, 0), (0, -1), (-1, 0)}
    assert [str(m) for m in moves[:3]] == ["W+E@-1,0", "W+NE@-1,0", "W+ES@-1,0"]
    assert texts(moves) == reference_moves(state)


def test_identical_tiles_and_identical_rotations_give_one_move() -> None:
    """legal_moves lists each (kind, orientation, cell) once: two copies of a kind and the four
    rotations of a 4-dot tile are one move each."""
    state = lsd.new_game(2).apply_move("B+NESW@0,0")
    moves = state.legal_moves()
    assert len(set(moves)) == len(moves)
    assert [str(m) for m in moves if m.face == "W+NESW"] == [
        "W+NESW@-1,0",
        "W+NESW@0,-1",
        "W+NESW@0,1",
        "W+NESW@1,0",
    ]


def test_no_whole_dot_is_illegal() -> None:
    """2.2, 3.3: a placement must make at least one whole dot."""
    state = pos("0B+N@0,0", "yellow")
    err = error_of(state, "W+N@1,0")  # touches only the empty E side of (0,0)
    assert (err.rule, err.reason) == ("LSD-2.2", "no-whole-dot")
    err = error_of(state, "W+NESW@5,5")  # does not touch the field at all
    assert (err.rule, err.reason) == ("LSD-2.2", "no-whole-dot")


def test_empty_side_against_a_half_dot_is_illegal() -> None:
    """2.2, 3.3: "you may not obstruct a dot by connecting an empty side of a tile to it"."""
    state = pos("0B+NE@0,0", "yellow")
    err = error_of(state, "W+W@0,1")  # makes a whole dot with nothing; S side empty on N dot
    assert (err.rule, err.reason) == ("LSD-2.2", "obstructs-dot")
    err = error_of(state, "W+NE@0,1")
    assert (err.rule, err.reason) == ("LSD-2.2", "obstructs-dot")


def test_occupied_cell_is_illegal() -> None:
    """2.2: the cell must be empty."""
    err = error_of(pos("0B+N@0,0", "yellow"), "W+S@0,0")
    assert (err.rule, err.reason) == ("LSD-2.2", "occupied")


#: (0,1) has a half dot below it (red's (0,0) N) and an empty side east of it
#: (yellow's (1,1), dot only on N).
MIXED = "0B+N@0,0;1W+N@1,1"


def test_ruling5_strict_half_dot_against_empty_side_is_illegal() -> None:
    """RULING 5, 3.3: with strict_dot_matching (default) a new half dot may not touch an old
    empty side."""
    err = error_of(pos(MIXED, "red"), "B+ES@0,1")
    assert (err.rule, err.reason) == ("LSD-R5", "dot-against-empty")


def test_ruling5_lax_allows_half_dot_against_empty_side() -> None:
    """RULING 5: strict_dot_matching=False forbids only new-empty-against-old-dot."""
    state = pos(MIXED, "red", options="strict=off")
    after = state.apply_move("B+ES@0,1")
    assert after.tile_at((0, 1)) == lsd.Tile("red", "+", "black", "ES")
    assert texts(m for m in state.legal_moves() if m.cell == (0, 1)) == {
        f"B{shape}{sides}@0,1"
        for shape in "+x"
        for sides in ("S", "ES", "SW", "NS", "NES", "ESW", "NSW", "NESW")
    }


def test_ruling6_empty_side_against_empty_side_is_legal() -> None:
    """RULING 6, 3.3: empty against empty is allowed once a whole dot is made elsewhere."""
    state = pos(MIXED, "red")
    assert texts(m for m in state.legal_moves() if m.cell == (0, 1)) == {
        f"B{shape}{sides}@0,1" for shape in "+x" for sides in ("S", "SW", "NS", "NSW")
    }
    assert state.apply_move("B+S@0,1").tile_at((0, 1)) == lsd.Tile("red", "+", "black", "S")


def test_ruling7_half_dot_facing_an_empty_cell_is_legal() -> None:
    """RULING 7, 3.3: a half dot may face an empty cell; it stays open for later tiles."""
    after = pos(MIXED, "red").apply_move("B+NS@0,1")
    assert after.open_cells == ((0, 2), (1, 2))


def test_one_tile_completing_several_dots() -> None:
    """3.3: a tile that completes two half dots at once; it must show both."""
    state = pos("0B+N@0,0;1W+W@1,1", "red")
    assert texts(m for m in state.legal_moves() if m.cell == (0, 1)) == {
        f"B{shape}{sides}@0,1" for shape in "+x" for sides in ("ES", "NES", "ESW", "NESW")
    }
    err = error_of(state, "B+S@0,1")
    assert (err.rule, err.reason) == ("LSD-2.2", "obstructs-dot")


def test_ruling4_rotation_on_by_default() -> None:
    """RULING 4: tiles may be turned; B+N is placeable facing any side."""
    state = pos("1W+NESW@0,0", "red")
    one_dot = {"B+N", "B+E", "B+S", "B+W"}
    assert texts(m for m in state.legal_moves() if m.face in one_dot) == {
        "B+S@0,1",
        "B+W@1,0",
        "B+N@0,-1",
        "B+E@-1,0",
    }


def test_ruling4_rotation_off_keeps_the_printed_orientation() -> None:
    """RULING 4: allow_rotation=False: only the orientation of LSD.md 3.1 (dots from N)."""
    state = lsd.new_game(2, allow_rotation=False)
    assert texts(state.legal_moves()) == {
        f"B{shape}{sides}@0,0" for shape in "+x" for sides in ("N", "NE", "NS", "NES", "NESW")
    }
    state = state.apply_move("B+N@0,0")
    assert texts(state.legal_moves()) == {
        f"W{shape}{sides}@0,1" for shape in "+x" for sides in ("NS", "NES", "NESW")
    }
    err = error_of(state, "W+S@0,1")
    assert (err.rule, err.reason) == ("LSD-R4", "rotation-not-allowed")


def test_not_in_supply() -> None:
    """1.5: the tile comes from the mover's own supply: right shade, copies left."""
    state = lsd.new_game(2)
    err = error_of(state, "W+N@0,0")  # red plays black icons
    assert (err.rule, err.reason) == ("LSD-1.5", "not-in-supply")
    state = pos("0B+E@0,0;0B+N@0,1", "red")  # both B+N copies are on the field
    err = error_of(state, "B+S@0,2")
    assert (err.rule, err.reason) == ("LSD-1.5", "not-in-supply")
    assert "B+S@0,2" not in texts(state.legal_moves())
    assert "B+NS@0,2" in texts(state.legal_moves())


def test_error_message_names_the_rule_and_the_move() -> None:
    """IllegalMoveError carries rule, reason and move text; the message starts with the rule."""
    err = error_of(pos("0B+N@0,0", "yellow"), "W+N@1,0")
    assert str(err).startswith("LSD-2.2: ")
    assert err.move == "W+N@1,0"


def test_parse_move_checks_legality() -> None:
    """parse_move returns only legal moves; the shade may be left out when unambiguous."""
    state = lsd.new_game(2)
    assert str(state.parse_move("+nesw@0,0")) == "B+NESW@0,0"
    assert state.parse_move("x N @ 0,0".replace(" ", "")) == lsd.LsdMove.from_text("BxN@0,0")
    with pytest.raises(IllegalMoveError):
        state.parse_move("B+N@1,0")


@pytest.mark.parametrize("move", [5, None, b"B+N@0,0"])
def test_apply_move_of_no_move_is_a_type_error(move: object) -> None:
    """Neither a move nor its text: a TypeError worded as the chevron games' one."""
    name = type(move).__name__
    with pytest.raises(TypeError, match=f"^apply_move takes an LsdMove or a string, not {name}$"):
        lsd.new_game(2).apply_move(move)  # type: ignore[arg-type]


class _Two:
    def __index__(self) -> int:
        return 2


@pytest.mark.parametrize(
    "bounds",
    [(), (None,), (0, None), (1.0,), (2,), (3,), (-30,), (-(1 << 70), 1 << 70), (0, 3), (0, 4),
     (0, -1), (True,), (_Two(),)],
)
def test_lsd_index_takes_its_bounds_as_list_index(bounds: tuple[object, ...]) -> None:
    """``moves.index(m, *bounds)`` returns and raises (class and message) what
    ``list(moves).index(m, *bounds)`` does, as the chevron games' list does."""
    moves = pacru.new_game("lsd", players=2).legal_moves()
    move = moves[3]

    def outcome(call: Callable[[], int]) -> tuple[str, object]:
        try:
            return ("value", call())
        except (TypeError, ValueError) as err:
            return (type(err).__name__, str(err))

    expected = outcome(lambda: list(moves).index(move, *bounds))  # type: ignore[arg-type]
    assert outcome(lambda: moves.index(move, *bounds)) == expected  # type: ignore[arg-type]
    assert expected[0] != "value" or expected[1] == 3
    text = str(move)  # a move text is no item
    assert outcome(lambda: moves.index(text)) == ("ValueError", f"{text!r} is not in list")
    with pytest.raises(TypeError):
        moves.index(move, start=0)  # type: ignore[call-arg]
