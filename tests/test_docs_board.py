"""The docs' ``pacru-board`` directive (docs/_ext/pacru_board.py): pictures or a failed build."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import pacru
from docs_extensions import ROOT, load_extension

NS = "{http://www.w3.org/2000/svg}"
PINCER = "pacru players=red,yellow markers=red:d9,d8,i9,i8 chevrons=red:e9S,g9S;yellow:e7N,a1NE"

EXT: Any = load_extension("pacru_board")


def _classes(text: str, name: str) -> list[ET.Element]:
    root = ET.fromstring(text)
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def test_start_position_of_a_game() -> None:
    state = EXT.start(None, "pacru", 3)
    (picture,) = EXT.draw(state)
    assert len(_classes(picture, "chevron")) == 9
    assert _classes(picture, "arrow") == []


def test_before_after_marks_the_move_r11() -> None:
    before, after = EXT.draw(EXT.start(PINCER, None, None), move="g9xe7+f8", before_after=True)
    (arrow,) = _classes(before, "arrow")
    assert (arrow.get("data-tail"), arrow.get("data-head")) == ("g9", "e7")
    assert len(_classes(before, "chevron")) == 4
    assert [e.get("data-field") for e in _classes(after, "last-move")] == ["g9", "e7"]
    assert len(_classes(after, "chevron")) == 3
    assert ("f8", "red") in {
        (m.get("data-field"), m.get("data-owner")) for m in _classes(after, "marker")
    }


def test_reorientation_and_lsd_moves_are_rings() -> None:
    state = EXT.start(
        "pacru players=red,yellow markers=red:a1,c1,a3 chevrons=red:b2NE;yellow:e9S", None, None
    )
    before, _ = EXT.draw(state, move="b2>(a1,a3)", before_after=True)
    (ring,) = _classes(before, "arrow")
    assert (ring.tag, ring.get("data-tail"), ring.get("data-head")) == (f"{NS}circle", "b2", "b2")
    lsd = EXT.start(None, "lsd", 2)
    before, _ = EXT.draw(lsd, move="B+NESW@0,0", before_after=True)
    (ring,) = _classes(before, "arrow")
    assert ring.get("data-tail") == "0,0"


def test_options_arrows_fill_highlight() -> None:
    state = pacru.new_game("shacru")
    (picture,) = EXT.draw(state, arrows="a3-b4 e1-e1=#123456", fill="e5 e6=blue", highlight="a1 i9")
    arrows = _classes(picture, "arrow")
    assert [(a.get("data-tail"), a.get("data-head")) for a in arrows] == [
        ("a3", "b4"),
        ("e1", "e1"),
    ]
    assert arrows[1].get("stroke") == "#123456"
    assert [(f.get("data-field"), f.get("fill")) for f in _classes(picture, "fill")] == [
        ("e5", EXT.FILL),
        ("e6", "#2f6fd6"),
    ]
    assert [h.get("data-field") for h in _classes(picture, "highlight")] == ["a1", "i9"]
    (lsd,) = EXT.draw(pacru.new_game("lsd"), fill="0,0", arrows="0,0-1,0")
    assert [f.get("data-cell") for f in _classes(lsd, "fill")] == ["0,0"]


@pytest.mark.parametrize(
    ("position", "options", "message"),
    [
        ("pacru players=red markers=- chevrons=-", {}, "cannot set up"),
        (PINCER, {"move": "g9-g5"}, "cannot be played"),
        (PINCER, {"move": "nonsense"}, "cannot be played"),
        (PINCER, {"before_after": True}, "needs a :move:"),
        (PINCER, {"fill": "z9"}, "field"),
        (PINCER, {"arrows": "a1"}, "tail-head"),
        ("lsd red:B,yellow:W - - red", {"fill": "e4"}, "LSD cell"),
    ],
)
def test_bad_pictures_raise(position: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(EXT.BoardError, match=message):
        EXT.draw(EXT.start(position, None, None), **options)


def test_game_options_r1_d1() -> None:
    (picture,) = EXT.draw(EXT.start(None, "pacru", 2, "start_layout=ap-legacy-2p move_cap=50"))
    fields = {c.get("data-field") for c in _classes(picture, "chevron")}
    assert {"a9", "i1"} <= fields
    assert "i9" not in fields
    with pytest.raises(EXT.BoardError, match="cannot set up"):
        EXT.start(None, "pacru", 2, "start_layout=nowhere")
    with pytest.raises(EXT.BoardError, match="key=value"):
        EXT.start(None, "pacru", 2, "start_layout")
    with pytest.raises(EXT.BoardError, match="own keys"):
        EXT.start(PINCER, None, None, "move_cap=5")


def test_neither_or_both_sources_raise() -> None:
    with pytest.raises(EXT.BoardError, match="either"):
        EXT.start(None, None, None)
    with pytest.raises(EXT.BoardError, match="either"):
        EXT.start(PINCER, "pacru", 2)
    with pytest.raises(EXT.BoardError, match="cannot set up"):
        EXT.start(None, "chess", 2)


def _build(tmp_path: Path, body: str) -> tuple[int, str]:
    from sphinx.application import Sphinx

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path[:0] = [{str(ROOT / 'src')!r}, {str(ROOT / 'docs' / '_ext')!r}]\n"
        "extensions = ['pacru_board']\n",
        encoding="utf-8",
    )
    (src / "index.rst").write_text(f"Test\n====\n\n{body}\n", encoding="utf-8")
    import io

    warnings = io.StringIO()
    app = Sphinx(
        str(src),
        str(src),
        str(tmp_path / "out"),
        str(tmp_path / "doctrees"),
        "html",
        status=None,
        warning=warnings,
        freshenv=True,
        warningiserror=False,
    )
    app.build()
    return app.statuscode, warnings.getvalue()


def test_sphinx_build_draws_the_picture(tmp_path: Path) -> None:
    status, warnings = _build(
        tmp_path,
        f".. pacru-board:: {PINCER}\n   :move: g9xe7+f8\n   :before-after:\n"
        "   :caption: A pincer *R11*.\n",
    )
    assert (status, warnings) == (0, "")
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert page.count("<svg ") == 2
    assert '<p class="pacru-board-caption">A pincer <em>R11</em>.</p>' in page
    assert (tmp_path / "out" / "_static" / "pacru-board.css").is_file()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (f".. pacru-board:: {PINCER}\n   :move: g9-g5\n", "cannot be played"),
        (".. pacru-board:: pacru players=red chevrons=red:z9N\n", "cannot set up"),
        (".. pacru-board::\n   :game: pacru\n   :players: 7\n", "cannot set up"),
    ],
)
def test_sphinx_build_reports_a_bad_picture(tmp_path: Path, body: str, message: str) -> None:
    """A picture that cannot be drawn is an ERROR of the build, so ``-W`` fails on it."""
    _, warnings = _build(tmp_path, body)
    assert "ERROR: pacru-board: " in warnings
    assert message in warnings
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "<svg " not in page


def _rings(text: str) -> list[str | None]:
    return [h.get("data-field") or h.get("data-cell") for h in _classes(text, "highlight")]


def test_the_fields_a_move_chooses_are_ringed_r4_r12_r14() -> None:
    state = EXT.start(
        "pacru players=red,yellow markers=red:e5,i8;yellow:a4,b4,c4,a5,b5,c5,a6,b6,c6 "
        "chevrons=red:d3N,e3N,e5S;yellow:e4N,a9S",
        None,
        None,
    )
    before, after = EXT.draw(state, move="e3xe4+e6@i9", before_after=True, highlight="a1")
    assert (_rings(before), _rings(after)) == (["a1"], ["a1", "e6", "i9"])
    state = EXT.start(
        "pacru players=red,yellow markers=red:a1,c1,a3 chevrons=red:b2NE;yellow:e9S", None, None
    )
    before, after = EXT.draw(state, move="b2>(a1,a3)", before_after=True)
    assert (_rings(before), _rings(after)) == (["a1", "a3"], [])


def test_lsd_captured_tiles_are_ringed_before_the_move() -> None:
    state = EXT.start("lsd red:B,yellow:W 0B+E@0,0;1W+EW@1,0 - red", None, None)
    before, after = EXT.draw(state, move="B+W@2,0", before_after=True)
    assert (_rings(before), _rings(after)) == (["1,0"], [])
    assert EXT.account(state, "B+W@2,0") == (
        "is legal (LSD-2.2): red places a B+W tile at (2, 0); it makes 1 whole dot (LSD 2.2); "
        "it captures the tile at (1, 0) (LSD 2.3)."
    )
