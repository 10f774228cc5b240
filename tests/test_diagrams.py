"""Studying positions: diagrams loaded with ``adjudicate=False`` and ``status()`` (issue 16).

A rulebook diagram shows part of a board. Loaded as play would load it, it may
end at once (one side's chevrons only: {R16a}; nobody can move: {S-R6a}), so
nothing can be asked of it; ``from_position(text, adjudicate=False)`` keeps it
open and ``status()`` names what play could not reach (B.2, R1, D29, D33).
"""

from __future__ import annotations

from typing import Any

import pytest

import pacru
from pacru import InvalidPositionError, Status, Termination


def test_one_sided_pacru_diagram_stays_open() -> None:
    """{R16a}: red alone would win on loading; unadjudicated, red's moves can be studied."""
    text = "pacru players=red,yellow chevrons=red:e4N"
    assert pacru.from_position(text).outcome == pacru.Outcome(Termination.LAST_PLAYER, ("red",))
    diagram = pacru.from_position(text, adjudicate=False)
    assert diagram.outcome is None
    assert diagram.current_player == "red"
    assert [str(m) for m in diagram.legal_moves()] == ["e4-d5", "e4-e5", "e4-f5"]
    assert diagram.status() == Status.UNADJUDICATED_END
    assert diagram.explain("e4-e6").legal is False
    after = diagram.apply_move("e4-e5")  # play adjudicates again from here
    assert after.outcome == pacru.Outcome(Termination.LAST_PLAYER, ("red",))


def test_blocked_shacru_diagram_stays_open() -> None:
    """{S-R6a}: nobody can move, so the game ends on loading; unadjudicated, red must pass."""
    text = "shacru players=red,yellow chevrons=red:e9N;yellow:e1S"
    assert pacru.from_position(text).outcome == pacru.Outcome(
        Termination.NO_MOVES, ("red", "yellow")
    )
    diagram = pacru.from_position(text, adjudicate=False)
    assert [str(m) for m in diagram.legal_moves()] == ["pass"]
    assert diagram.status() == Status.UNADJUDICATED_END


@pytest.mark.parametrize(
    ("text", "status"),
    [
        (
            "pacru players=red,yellow chevrons=red:e4N,e5N,e6N,e7N,e8N;yellow:a1NE",
            Status.TOO_MANY_CHEVRONS,
        ),
        (
            "pacru players=red,yellow,green chevrons=red:e4N,e5N,e6N,e7N;yellow:a1NE;green:i1NW",
            Status.TOO_MANY_CHEVRONS,
        ),
        ("lilacru players=red,yellow chevrons=red:e4N;yellow:a1NE idle=7", Status.IDLE_ABOVE_PLY),
        (
            "shacru players=red,yellow markers=yellow:e4 chevrons=red:e4N;yellow:a1NE",
            Status.CHEVRON_ON_OPPONENT_MARKER,
        ),
        (
            "pacru players=red,yellow turn=yellow chevrons=red:e4N,e5N",
            Status.NO_CHEVRONS_TO_MOVE | Status.UNADJUDICATED_END,
        ),
        ("pacru players=red,yellow chevrons=red:e4N;yellow:a1NE", Status.VALID),
    ],
)
def test_status_names_what_play_cannot_reach(text: str, status: Status) -> None:
    """B.2 (3 chevrons, 4 with two players), D33 (idle <= ply), L5/L6/S-R5 (no chevron on
    another's colour in Lilacru/Shacru); the same flags with or without adjudication."""
    assert pacru.from_position(text, adjudicate=False).status() == status


def test_markers_above_the_supply_load_only_unadjudicated() -> None:
    """{R1, D29}: 45 markers cannot be on the board; a diagram may still show them."""
    fields = ",".join(c + r for r in "12345" for c in "abcdefghi")
    text = f"pacru players=red,yellow markers=red:{fields} chevrons=red:e6N;yellow:a9E"
    with pytest.raises(InvalidPositionError, match="at most 42 markers"):
        pacru.from_position(text)
    diagram = pacru.from_position(text, adjudicate=False)
    assert diagram.supply == {"red": -3, "yellow": 42}
    assert diagram.status() == Status.MARKERS_ABOVE_SUPPLY | Status.UNADJUDICATED_END


def test_lsd_row_diagram_stays_open() -> None:
    """{LSD 2.4}: a typed row of four ends the game on loading unless unadjudicated."""
    tiles = "0B+NESW@0,0;0B+NESW@1,0;0BxNESW@2,0;0BxNESW@3,0"
    with pytest.raises(InvalidPositionError, match="the game is over"):
        pacru.from_position(f"lsd red:B,yellow:W {tiles} - yellow")
    diagram = pacru.from_position(f"lsd red:B,yellow:W {tiles} - yellow", adjudicate=False)
    assert diagram.outcome is None
    assert diagram.current_player == "yellow"
    assert diagram.status() == Status.UNADJUDICATED_END
    # Play goes on from the diagram: yellow places beside the row, e.g. a white tile
    # with one edge facing east on the open cell left of it (160 placements in all).
    moves = diagram.legal_moves()
    assert "W+E@-1,0" in moves
    assert len(moves) == 160


LSD_APART = "lsd red:B,yellow:W 0B+N@0,0;1W+S@50,0 - red"


def test_lsd_tiles_apart_are_named_by_status() -> None:
    """{LSD 2.2}: every tile is placed against one on the field. Two tiles 50 cells apart with
    no capture cannot be reached: status says so, and the encoding refuses the diagram with a
    InvalidPositionError (it used to pass as VALID, then fail on an AssertionError)."""
    from pacru.encoding import Encoding

    for adjudicate in (True, False):
        diagram = pacru.from_position(LSD_APART, adjudicate=adjudicate)
        assert diagram.status() == Status.DISCONNECTED_TILES
        with pytest.raises(InvalidPositionError, match="outgrow the LSD window of radius 20"):
            Encoding.of(diagram).start(diagram)
    # A rulebook diagram with a gap (3.3, RULING 8) is flagged too, yet fits the window.
    sandwich = pacru.from_position("lsd red:B,yellow:W 0B+E@0,0;0B+W@2,0 - yellow")
    assert sandwich.status() == Status.DISCONNECTED_TILES
    assert Encoding.of(sandwich).start(sandwich).kind == "cell"


@pytest.mark.parametrize(
    ("field", "captured", "status"),
    [
        ("0B+E@0,0;1W+EW@1,0", "-", Status.VALID),
        # The tile between was captured (RULING 21): the pieces are one cell apart.
        ("0B+E@0,0;0B+W@2,0", "1W+NS", Status.VALID),
        # Two cells apart: one captured tile cannot have joined them.
        ("0B+E@0,0;0B+W@3,0", "1W+EW", Status.DISCONNECTED_TILES),
        ("0B+E@0,0;0B+W@3,0", "1W+EW*2", Status.VALID),
        ("0B+E@0,0;0B+W@1,1", "-", Status.DISCONNECTED_TILES),
    ],
)
def test_lsd_captures_may_leave_pieces_within_reach(
    field: str, captured: str, status: Status
) -> None:
    assert pacru.from_position(f"lsd red:B,yellow:W {field} {captured} red").status() == status


def test_lsd_capture_that_splits_the_field_stays_valid() -> None:
    """{LSD 2.3}: red's '+' captures the tile between; the two pieces left are reachable."""
    state: Any = pacru.from_position("lsd red:B,yellow:W 0B+E@0,0;1W+EW@1,0 - red")
    after = state.apply_move("B+W@2,0")
    assert set(after.field) == {(0, 0), (2, 0)}
    assert after.status() == Status.VALID
    assert pacru.from_position(after.to_position()).status() == Status.VALID


@pytest.mark.parametrize(
    ("text", "status"),
    [
        # Yellow's two tiles were captured: play would skip yellow (RULING 19).
        ("lsd red:B,yellow:W 0B+NS@0,0 1W+NS*2 yellow set=+NS*2", Status.NO_LEGAL_MOVE),
        # Yellow's chevron is boxed in: play would eliminate yellow (R15).
        (
            "pacru players=red,yellow turn=yellow chevrons=red:e4N;yellow:a1N markers=red:a2,b2,b1",
            Status.UNADJUDICATED_END,
        ),
    ],
)
def test_no_decision_without_a_legal_action(text: str, status: Status) -> None:
    """A diagram whose player to move has no legal move gave a decision that was neither done
    nor had a legal action (a framework loop stalled there); the encoding now refuses it, as
    play never asks such a player to decide."""
    from pacru.encoding import Encoding

    diagram = pacru.from_position(text, adjudicate=False)
    assert diagram.status() == status
    assert len(diagram.legal_moves()) == 0
    with pytest.raises(InvalidPositionError, match="yellow has no legal move in this diagram"):
        Encoding.of(diagram).start(diagram)


def test_positions_reached_by_play_round_trip_unadjudicated() -> None:
    state = pacru.new_game("pacru", 3).apply_move("e9-e8")
    assert pacru.from_position(state.to_position(), adjudicate=False) == state
    assert state.status() == Status.VALID


def test_a_game_from_an_unadjudicated_diagram() -> None:
    """``Game.from_position(text, adjudicate=False)`` keeps a diagram open, as the function does."""
    text = "pacru players=red,yellow chevrons=red:e4N"
    assert pacru.Game.from_position(text).state.outcome == pacru.Outcome(
        Termination.LAST_PLAYER, ("red",)
    )
    game = pacru.Game.from_position(text, ["e4-e5"], adjudicate=False)
    assert game.root == pacru.from_position(text, adjudicate=False)
    assert game.root.outcome is None
    assert game.state == game.root.apply_move("e4-e5")
    assert game.state.outcome == pacru.Outcome(Termination.LAST_PLAYER, ("red",))
