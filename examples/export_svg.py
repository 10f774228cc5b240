"""
Draw positions as SVG
=====================

Draw positions as SVG files: a Pacru pincer from the rules, and an LSD game.

The pincer of :ref:`worked example 10 <example-10>` {R11}: red chevrons on
e9 and g9 (power of movement 2 each) both attack the yellow chevron on e7, so either may take it.
The script draws the position before and after ``g9xe7+f8`` (the pincer also
crosses into the e8 borderland, so a marker goes on f8 {R4, R13}), with the
last move marked, and a short LSD game. Open the files in any browser.

Run from the repository root (with pacru installed, or ``PYTHONPATH=src``)::

    python examples/export_svg.py [OUTPUT_DIR]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pacru
from pacru import svg

PINCER = "pacru players=red,yellow markers=red:d9,d8,i9,i8 chevrons=red:e9S,g9S;yellow:e7N,a1NE"


def main(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    before = pacru.from_position(PINCER)
    assert isinstance(before, pacru.ChevronState)
    after = before.apply_move("g9xe7+f8")
    files = {
        "pincer-before.svg": svg.board(before, highlight=["e7"]),
        "pincer-after.svg": svg.board(after, last_move=after.last_move),
    }
    lsd = pacru.new_game("lsd", players=2)
    rng = random.Random(7)
    for _ in range(12):
        if lsd.is_terminal:
            break
        moves = lsd.legal_moves()
        lsd = lsd.apply_move(moves[rng.randrange(len(moves))])
    files["lsd.svg"] = svg.board(lsd, size=480)
    for name, text in files.items():
        path = out_dir / name
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({len(text)} characters)")
    print(
        "after the pincer:",
        after.marker_at("e7"),
        "marker on e7,",
        after.marker_at("f8"),
        "marker on f8, chevron",
        after.chevron_at("e7"),
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("svg-out"))
