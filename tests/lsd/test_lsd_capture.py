"""Captures {LSD.md 1.6, 2.3; RULINGS 8-14; the capture cases of 3.3}.

Positions put the diagram tiles of LSD.md 2.3 on the field with dots that
allow the placements (red plays black icons, yellow white; tile 1 is the
first captor, 2 the victim, 3 the tile placed last).
"""

from __future__ import annotations

from pacru.lsd import LsdState, Shape, Tile

from .helpers import pos, texts


def removed(state: LsdState, move: str) -> set[tuple[int, int]]:
    """The cells emptied by playing ``move``."""
    return set(state.field) - set(state.apply_move(move).field)


# --- the '+' diagram of 2.3 -------------------------------------------------------------


def test_plus_diagram_captures_tile_2() -> None:
    """2.3 '+': 1:B+ at (0,0), 2:W? at (1,0); placing 3:B+ at (2,0) captures tile 2."""
    state = pos("0B+E@0,0;1W+EW@1,0", "red")
    after = state.apply_move("B+W@2,0")
    assert set(after.field) == {(0, 0), (2, 0)}
    assert after.captured("yellow") == {Tile("yellow", "+", "white", "NS"): 1}
    assert after.captured_count("red") == 0
    assert dict(after.scores) == {"red": 2, "yellow": 0}
    assert after.current_player == "yellow"


def test_plus_diagram_with_an_x_as_tile_1_captures_nothing() -> None:
    """2.3 '+': "If tile nr. 1 had an 'x' icon, nothing would have happened" (RULING 12)."""
    state = pos("0BxE@0,0;1W+EW@1,0", "red")
    assert removed(state, "B+W@2,0") == set()


def test_plus_victim_shape_is_irrelevant() -> None:
    """2.3 '?': a white 'x' between two black '+' is captured as well (RULING 12)."""
    state = pos("0B+E@0,0;1WxEW@1,0", "red")
    assert removed(state, "B+W@2,0") == {(1, 0)}


# --- the 'x' diagram of 2.3 ----------------------------------------------------------------

#: 1:Bx at (0,0) and 2:W? at (1,0); 3:Bx goes to (1,1); the 'B' spot is (0,1).
X_DIAGRAM = "0BxE@0,0;1W+NW@1,0"


def test_x_diagram_captures_tile_2() -> None:
    """2.3 'x': 3:Bx placed touching the corner of 1:Bx captures tile 2 (RULING 10)."""
    state = pos(X_DIAGRAM, "red")
    after = state.apply_move("BxS@1,1")
    assert set(after.field) == {(0, 0), (1, 1)}
    assert after.captured("yellow") == {Tile("yellow", "+", "white", "NE"): 1}


def test_x_diagram_with_a_plus_as_tile_1_captures_nothing() -> None:
    """2.3 'x': "If tile nr. 1 had a '+' icon, nothing would have happened" (RULING 12)."""
    state = pos("0B+E@0,0;1W+NW@1,0", "red")
    assert removed(state, "BxS@1,1") == set()


def test_x_diagram_white_tile_on_b_spot_is_captured_too() -> None:
    """2.3 'x', 3.3, RULING 10: a white-icon tile on the 'B' spot is captured too: 2 tiles."""
    state = pos(X_DIAGRAM + ";1WxE@0,1", "red")
    after = state.apply_move("BxSW@1,1")
    assert set(after.field) == {(0, 0), (1, 1)}
    assert after.captured("yellow") == {
        Tile("yellow", "+", "white", "NE"): 1,
        Tile("yellow", "x", "white", "N"): 1,
    }


def test_x_diagram_black_tile_on_b_spot_is_not_captured() -> None:
    """3.3: with a black-icon tile on the 'B' spot only tile 2 is captured (RULING 13)."""
    state = pos(X_DIAGRAM + ";0B+E@0,1", "red")
    assert removed(state, "BxSW@1,1") == {(1, 0)}


# --- 3.3 and RULINGS 8-14 --------------------------------------------------------------------


def test_ruling13_tile_of_the_captors_shade_is_not_captured() -> None:
    """3.3, RULING 13: green's black tile between two black '+' is safe, whoever owns it."""
    state = pos("0B+E@0,0;2B+EW@1,0", "red", players=3)
    assert removed(state, "B+W@2,0") == set()


def test_ruling13_same_shade_partners_never_capture_each_other() -> None:
    """RULING 13: in a 4-player game yellow (white) cannot capture blue (white)."""
    state = pos("1W+E@0,0;3W+EW@1,0", "yellow", players=4)
    assert removed(state, "W+W@2,0") == set()


def test_ruling12_captors_of_different_shades_are_no_pair() -> None:
    """3.3, RULING 12: a white '+' and a black '+' do not capture together."""
    state = pos("1W+E@0,0;1W+EW@1,0", "red")
    assert removed(state, "B+W@2,0") == set()


def test_ruling8_tile_placed_into_a_sandwich_is_safe() -> None:
    """3.3, RULING 8: a white tile placed between two black '+' is not captured."""
    state = pos("0B+E@0,0;0B+W@2,0", "yellow")
    after = state.apply_move("W+EW@1,0")
    assert after.tile_at((1, 0)) == Tile("yellow", "+", "white", "EW")
    assert after.captured_count("yellow") == 0


def test_ruling8_vacated_spot_is_harmless() -> None:
    """1.6, 3.3: "the empty spot left by a capture is harmless": refilling it is safe."""
    state = pos("0B+E@0,0;1W+EW@1,0", "red").apply_move("B+W@2,0")
    assert state.open_cells == ((1, 0),)
    assert texts(state.legal_moves()) == {
        f"W{shape}{sides}@1,0" for shape in "+x" for sides in ("EW", "NEW", "ESW", "NESW")
    }
    refilled = state.apply_move("WxEW@1,0")
    assert set(refilled.field) == {(0, 0), (1, 0), (2, 0)}
    assert refilled.captured_count("yellow") == 1  # the earlier capture only


def test_ruling8_captors_away_from_the_new_tile_do_nothing() -> None:
    """RULING 8: a sandwich already on the field stays when another tile is placed."""
    state = pos("0B+NE@0,0;1W+EW@1,0;0B+W@2,0", "red")
    after = state.apply_move("B+S@0,1")
    assert set(after.field) == {(0, 0), (1, 0), (2, 0), (0, 1)}


def test_ruling9_captures_are_automatic() -> None:
    """RULING 9: every '+' placed at (2,0) captures tile 2; no move there declines it."""
    state = pos("0B+E@0,0;1W+EW@1,0", "red")
    at_2_0 = [m for m in state.legal_moves() if m.cell == (2, 0)]
    assert texts(at_2_0) == {
        f"B{shape}{sides}@2,0"
        for shape in "+x"
        for sides in ("W", "NW", "SW", "EW", "NSW", "NEW", "ESW", "NESW")
    }
    for move in at_2_0:
        expected = {(1, 0)} if move.shape is Shape.PLUS else set()
        assert removed(state, str(move)) == expected


def test_ruling11_plus_captures_only_at_distance_two() -> None:
    """RULING 11: no Othello lines; two white tiles between black '+' tiles are safe."""
    state = pos("0B+E@0,0;1W+EW@1,0;1WxEW@2,0", "red")
    assert removed(state, "B+W@3,0") == set()


def test_ruling14_partner_may_belong_to_another_player() -> None:
    """RULING 14, 1.6: green's black '+' helps red capture blue's tile ("work together")."""
    state = pos("2B+E@0,0;3W+EW@1,0", "red", players=4)
    after = state.apply_move("B+W@2,0")
    assert after.tile_at((1, 0)) is None
    assert after.captured("blue") == {Tile("blue", "+", "white", "NS"): 1}
    assert after.captured_count("yellow") == 0


def test_quadruple_capture_by_one_plus() -> None:
    """3.3, 1.6: one '+' captures four tiles ("theoretically ... 4 tiles in one turn")."""
    field = "0B+S@0,2;0B+N@0,-2;0B+EW@2,0;0B+EW@-2,0;1W+NS@0,1;1W+NS@0,-1;1WxEW@1,0;1WxEW@-1,0"
    state = pos(field, "red")
    after = state.apply_move("B+NESW@0,0")
    assert set(state.field) - set(after.field) == {(0, 1), (0, -1), (1, 0), (-1, 0)}
    assert after.captured("yellow") == {
        Tile("yellow", "+", "white", "NS"): 2,
        Tile("yellow", "x", "white", "NS"): 2,
    }
    assert dict(after.scores) == {"red": 5, "yellow": 0}
    assert after.current_player == "yellow"


def test_quadruple_capture_by_one_x() -> None:
    """3.3, RULING 10: one 'x' with four diagonal partners captures its four neighbours."""
    field = "0BxNE@1,1;0BxNW@-1,1;0BxE@1,-1;0BxW@-1,-1;1W+S@0,1;1W+W@1,0;1WxN@0,-1;1WxE@-1,0"
    state = pos(field, "red")
    after = state.apply_move("BxNESW@0,0")
    assert set(state.field) - set(after.field) == {(0, 1), (1, 0), (0, -1), (-1, 0)}
    assert after.captured("yellow") == {
        Tile("yellow", "+", "white", "N"): 2,
        Tile("yellow", "x", "white", "N"): 2,
    }


def test_x_victim_shared_by_two_partners_is_captured_once() -> None:
    """2.3, RULING 9: a victim beside two partners' corners is taken once."""
    state = pos("0BxNE@1,1;0BxE@1,-1;1W+W@1,0", "red")
    after = state.apply_move("BxE@0,0")
    assert after.captured("yellow") == {Tile("yellow", "+", "white", "N"): 1}


def test_ruling21_captured_tiles_never_return_to_a_supply() -> None:
    """RULING 21: a captured tile is out of the game, recorded under its owner."""
    state = pos("0B+E@0,0;1W+EW@1,0", "red").apply_move("B+W@2,0")
    assert state.supply_size("yellow") == 19
    assert state.supply_tiles("yellow")[Tile("yellow", "+", "white", "NS")] == 1
    assert state.captured("yellow") == {Tile("yellow", "+", "white", "NS"): 1}
    assert state.captured("red") == {}
