"""SVG drawings (pacru.svg): well-formed XML, the right elements, and real rendering."""

from __future__ import annotations

import io
import random
import xml.etree.ElementTree as ET
from typing import Any, cast

import pytest

import pacru
from pacru import svg
from pacru.chevron.state import ChevronState

NS = "{http://www.w3.org/2000/svg}"


def _parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def _by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def _random_state(game: str, players: int, plies: int, seed: int = 1) -> Any:
    from pacru.commands.play import random_move

    state: pacru.GameState[Any] = pacru.new_game(game, players)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal:
            break
        state = state.apply_move(random_move(state, rng))
    return state


@pytest.mark.parametrize("game", pacru.CHEVRON_GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_has_one_element_per_field_marker_and_chevron_g1_g4(game: str, players: int) -> None:
    state = _random_state(game, players, 25)
    root = _parse(svg.board(state))
    assert root.get("width") == "400"
    assert root.get("viewBox") == "0 0 400 400"
    fields = _by_class(root, "fields")[0]
    assert len(list(fields)) == 81
    markers = _by_class(root, "marker")
    assert {(m.get("data-field"), m.get("data-owner")) for m in markers} == set(
        state.marker_map().items()
    )
    chevrons = _by_class(root, "chevron")
    assert {(c.get("data-field"), c.get("data-owner"), c.get("data-facing")) for c in chevrons} == {
        (f, ch.owner, ch.facing.name) for f, ch in state.chevron_map().items()
    }
    for c in chevrons:
        facing = pacru.Direction[c.get("data-facing") or ""]
        assert f"rotate({45 * int(facing)})" in (c.get("transform") or "")
        assert len(c.findall(f"{NS}polygon")) == 2


def test_start_position_counts_and_grid_g2() -> None:
    root = _parse(svg.board(pacru.new_game("pacru", 2)))
    assert len(_by_class(root, "marker")) == 0
    assert len(_by_class(root, "chevron")) == 8
    lines = list(_by_class(root, "grid")[0])
    assert len(lines) == 20
    thick = [ln for ln in lines if ln.get("stroke") == "#4b3b22"]
    assert len(thick) == 8  # the four borderland lines each way, frame included
    texts = root.findall(f".//{NS}text")
    assert sorted(t.text or "" for t in texts) == sorted(
        [*"abcdefghi", *"abcdefghi", *"123456789", *"123456789"]
    )


def test_last_move_arrow_and_tint() -> None:
    state = pacru.new_game("shacru").apply_move("a3-b4>")
    root = _parse(svg.board(state, last_move=state.last_move))
    assert [e.get("data-field") for e in _by_class(root, "last-move")] == ["a3", "b4"]
    assert len(_by_class(root, "arrow")) == 1
    root = _parse(svg.board(state, last_move="a3-b4>"))
    assert len(_by_class(root, "arrow")) == 1
    root = _parse(svg.board(state))
    assert _by_class(root, "arrow") == []
    assert _by_class(root, "last-move") == []


def test_reorientation_tints_its_field_without_arrow_r14() -> None:
    state = pacru.from_position(
        "pacru players=red,yellow markers=red:a1,c1,a3 chevrons=red:b2NE;yellow:e9S"
    )
    after = cast(ChevronState, state.apply_move("b2>(a1,a3)"))
    root = _parse(svg.board(after, last_move=after.last_move))
    assert [e.get("data-field") for e in _by_class(root, "last-move")] == ["b2"]
    assert _by_class(root, "arrow") == []
    assert [c.get("data-facing") for c in _by_class(root, "chevron")] == ["E", "S"]


def test_highlight_and_no_coordinates() -> None:
    state = pacru.new_game("lilacru")
    root = _parse(svg.board(state, highlight=["e4", 0, "e4"], coordinates=False, size=200))
    assert sorted(e.get("data-field") or "" for e in _by_class(root, "highlight")) == ["a1", "e4"]
    assert root.findall(f".//{NS}text") == []
    assert root.get("width") == "200"


def test_colours_map_and_pass_through_unknown_names() -> None:
    state = pacru.new_game("lilacru", colours=("teal", "navy")).apply_move("e1-e2")
    root = _parse(svg.board(state))
    assert [m.get("fill") for m in _by_class(root, "marker")] == ["teal"]
    root = _parse(svg.board(state, colours={"teal": 'x" onload="y'}))
    assert [m.get("fill") for m in _by_class(root, "marker")] == ['x" onload="y']
    assert svg.css_colour("green") == "#2f9e44"
    assert svg.css_colour("Green", {"green": "lime"}) == "#2f9e44"
    assert svg.css_colour("green", {"green": "lime"}) == "lime"


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="size"):
        svg.board(pacru.new_game("pacru"), size=10)
    with pytest.raises(ValueError, match="field"):
        svg.board(pacru.new_game("pacru"), highlight=["z9"])
    with pytest.raises(pacru.NotationError):
        svg.board(pacru.new_game("pacru"), last_move="nonsense")


def test_repr_svg_marks_the_last_move() -> None:
    state = pacru.new_game("azacru").apply_move("e1-e2")
    assert state._repr_svg_() == svg.board(state, last_move=state.last_move)
    assert len(_by_class(_parse(state._repr_svg_()), "arrow")) == 1


def _lsd_state(plies: int, players: int = 2, seed: int = 3) -> Any:
    return _random_state("lsd", players, plies, seed)


def test_lsd_tiles_dots_icons_and_open_cells() -> None:
    state = _lsd_state(8)
    root = _parse(svg.board(state, last_move=state.last_move, highlight=[(0, 0)]))
    tiles = _by_class(root, "tile")
    assert {(t.get("data-cell"), t.get("data-owner")) for t in tiles} == {
        (f"{x},{y}", tile.owner) for (x, y), tile in state.field.items()
    }
    assert len(_by_class(root, "dot")) == sum(sum(t.sides) for t in state.field.values())
    icons = _by_class(root, "icon")
    assert sorted(i.get("data-shade") or "" for i in icons) == sorted(
        t.shade.value for t in state.field.values()
    )
    assert len(_by_class(root, "open")) == len(state.open_cells)
    assert [h.get("data-cell") for h in _by_class(root, "highlight")] == ["0,0"]


def test_lsd_empty_field_shows_the_origin() -> None:
    state = _lsd_state(0)
    root = _parse(svg.board(state))
    assert [e.get("data-cell") for e in _by_class(root, "open")] == ["0,0"]
    assert _by_class(root, "tile") == []


# -- rendering in a real SVG renderer -----------------------------------------------------------


def _render(text: str) -> Any:
    try:
        import cairosvg  # type: ignore[import-untyped,import-not-found,unused-ignore]
        from PIL import Image  # type: ignore[import-not-found,unused-ignore]
    except (ImportError, OSError) as err:  # OSError: cairosvg without the system cairo library
        pytest.skip(f"rendering needs cairosvg and the cairo library (test extra): {err}")

    png = cairosvg.svg2png(bytestring=text.encode("utf-8"))
    return Image.open(io.BytesIO(png)).convert("RGB")


def _close(pixel: tuple[int, int, int], css: str, tolerance: int = 12) -> bool:
    want = tuple(int(css[i : i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, want, strict=True))


def test_rendered_marker_and_chevron_pixels() -> None:
    state = pacru.from_position(
        "pacru players=green,yellow markers=green:e4 chevrons=green:a1N;yellow:i9E"
    )
    image = _render(svg.board(state, size=400))
    margin, c = 24.0, 352 / 9

    def at(field: str, dx: float, dy: float) -> tuple[int, int, int]:
        f = pacru.parse_field(field)
        x = margin + (f % 9 + 0.5 + dx) * c
        y = margin + (8 - f // 9 + 0.5 + dy) * c
        return image.getpixel((round(x), round(y)))  # type: ignore[no-any-return]

    assert _close(at("e4", 0, 0), svg.DEFAULT_COLOURS["green"])
    # A point inside the chevron's right arm, turned with its facing (N: as drawn).
    assert _close(at("a1", 0.19, -0.02), svg.DEFAULT_COLOURS["green"])
    # The yellow chevron faces E: the arm point turns 90 degrees clockwise.
    assert _close(at("i9", 0.02, 0.19), svg.DEFAULT_COLOURS["yellow"])
    # An empty field keeps the board colours of the checker.
    assert _close(at("e5", 0.3, 0.3), "#e2d0a8")
    assert _close(at("e6", 0.3, 0.3), "#f4ead3")


def test_rendered_lsd_tile_colour() -> None:
    state = _lsd_state(1)
    image = _render(svg.board(state, size=300, coordinates=False))
    tile = next(iter(state.field.values()))
    root = _parse(svg.board(state, size=300, coordinates=False))
    rect = _by_class(root, "tile")[0].find(f"{NS}rect")
    assert rect is not None
    left, top = float(rect.get("x") or 0), float(rect.get("y") or 0)
    pixel = image.getpixel((round(left + 6), round(top + 20)))
    assert _close(pixel, svg.css_colour(tile.owner))


def test_lsd_repr_svg_rings_the_last_tile() -> None:
    state = _lsd_state(3)
    assert state._repr_svg_() == svg.board(state, last_move=state.last_move)


# -- arrows= and fill= (as chess.svg) ------------------------------------------------------------
# At size 400 the margin is 24 and a field c = 352 / 9 = 39.11 pixels: a3's centre is
# (24 + c/2, 24 + 6.5c) = (43.56, 278.22), b4's (24 + 1.5c, 24 + 5.5c) = (82.67, 239.11).


def test_arrow_pair_runs_from_tail_to_head_centre() -> None:
    root = _parse(svg.board(pacru.new_game("shacru"), arrows=[("a3", "b4")]))
    (arrow,) = _by_class(root, "arrow")
    assert (arrow.get("data-tail"), arrow.get("data-head")) == ("a3", "b4")
    line = arrow.find(f"{NS}line")
    polygon = arrow.find(f"{NS}polygon")
    assert line is not None
    assert polygon is not None
    # The shaft starts c/4 = 9.78 from a3's centre along the diagonal (6.91 each way).
    assert (line.get("x1"), line.get("y1")) == ("50.47", "271.31")
    assert (polygon.get("points") or "").split()[0] == "82.67,239.11"
    assert line.get("stroke") == polygon.get("fill") == "#1f6fd9"
    # Drawn after the chevrons, so it is on top of them.
    order = [e.get("class") for e in root if e.get("class") in ("chevron", "arrow")]
    assert order[-1] == "arrow"


def test_arrow_objects_colours_and_rings() -> None:
    state = pacru.new_game("shacru")
    arrows = [svg.Arrow("e1", "e3", colour="red"), svg.Arrow(18, 18, colour="#123456")]
    root = _parse(svg.board(state, arrows=arrows))
    line, ring = _by_class(root, "arrow")
    assert (line.get("data-tail"), line.get("data-head")) == ("e1", "e3")
    shaft = line.find(f"{NS}line")
    assert shaft is not None
    assert shaft.get("stroke") == svg.DEFAULT_COLOURS["red"]
    # Straight north: x stays on e's centre, 24 + 4.5c = 200.
    assert (shaft.get("x1"), shaft.get("x2")) == ("200", "200")
    assert ring.tag == f"{NS}circle"
    assert (ring.get("data-tail"), ring.get("cx"), ring.get("cy")) == ("a3", "43.56", "278.22")
    assert ring.get("stroke") == "#123456"
    assert svg.Arrow.of(("a1", "b2")) == svg.Arrow("a1", "b2", colour="#1f6fd9")


def test_fill_paints_fields_under_the_pieces() -> None:
    state = pacru.from_position(
        "pacru players=red,yellow markers=red:e5 chevrons=red:e5N;yellow:a1N"
    )
    root = _parse(svg.board(state, fill={"e5": "#cc000080", 0: "blue"}))
    fills = _by_class(root, "fill")
    assert [(f.get("data-field"), f.get("fill")) for f in fills] == [
        ("a1", svg.DEFAULT_COLOURS["blue"]),
        ("e5", "#cc000080"),
    ]
    e5 = fills[1]
    c = "39.11"
    assert (e5.get("x"), e5.get("y"), e5.get("width"), e5.get("height")) == (
        "180.44",
        "180.44",
        c,
        c,
    )
    order = [e.get("class") for e in root]
    assert order.index("fill") < order.index("marker") < order.index("chevron")


def test_lsd_arrows_and_fill_use_cells() -> None:
    state = pacru.from_position("lsd red:B,yellow:W 0B+NESW@0,0 - yellow")
    root = _parse(svg.board(state, arrows=[((0, 0), (1, 0))], fill={(0, 0): "#cc000080"}))
    # The box spans cells -1..1 each way: c = (400 - 48) / 3 = 117.33, (0, 0) at 141.33.
    (fill,) = _by_class(root, "fill")
    assert (fill.get("data-cell"), fill.get("x"), fill.get("y")) == ("0,0", "141.33", "141.33")
    order = [e.get("class") for e in root]
    assert order.index("tile") < order.index("fill")
    (arrow,) = _by_class(root, "arrow")
    assert (arrow.get("data-tail"), arrow.get("data-head")) == ("0,0", "1,0")
    polygon = arrow.find(f"{NS}polygon")
    assert polygon is not None
    assert (polygon.get("points") or "").split()[0] == "317.33,200"


def test_bad_arrows_and_fill() -> None:
    state = pacru.new_game("pacru")
    with pytest.raises(ValueError, match="field"):
        svg.board(state, arrows=[("a1", "z9")])
    with pytest.raises(ValueError, match="field"):
        svg.board(state, fill={"j1": "red"})
    with pytest.raises(ValueError, match="Arrow or a"):
        svg.board(state, arrows=["a1"])  # type: ignore[list-item]
    lsd = pacru.new_game("lsd")
    with pytest.raises(ValueError, match="LSD cell"):
        svg.board(lsd, fill={"e4": "red"})
