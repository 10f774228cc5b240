"""The docs' rendering of rule citations in braces (docs/_ext/pacru_rules.py)."""

from __future__ import annotations

from typing import Any

import pytest

from docs_extensions import load_extension

EXT: Any = load_extension("pacru_rules")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "A pincer {R11}.",
            [("A pincer (", ""), ("R11", "pacru-r11"), (").", "")],
        ),
        (
            "{S-R4, A-R6, D3-D5}",
            [
                ("(", ""),
                ("S-R4", "shacru-r4"),
                (", ", ""),
                ("A-R6", "azacru-r6"),
                (", ", ""),
                ("D3", "ruling-d3"),
                ("-", ""),
                ("D5", "ruling-d5"),
                (")", ""),
            ],
        ),
        ("won {R16a}", [("won (", ""), ("R16a", "pacru-r16"), (")", "")]),
        (
            "{A-R3, G2}",
            [("(", ""), ("A-R3", "azacru-r1"), (", ", ""), ("G2", "geometry-g2"), (")", "")],
        ),
        (
            "{LSD.md 1.5, 2.3; RULINGS 4, 20}",
            [
                ("(", ""),
                ("LSD 1.5", "lsd-placement"),
                (", ", ""),
                ("2.3", "lsd-capture"),
                ("; rulings ", ""),
                ("4", "lsd-rulings"),
                (", ", ""),
                ("20", "lsd-rulings"),
                (")", ""),
            ],
        ),
        ("{LSD-R5}", [("(", ""), ("LSD-R5", "lsd-rulings"), (")", "")]),
    ],
)
def test_citation_groups_become_links(text: str, expected: list[tuple[str, str]]) -> None:
    assert EXT.rewrite(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        '{"e5": "#cc000080"}',
        "{0, 1}",
        "{1,6}",
        "{R..}",
        "{R17}",
        "{D51}",
        "{S-R7}",
        "{2.3}",
        "{Yellow mirrors.}",
        "no braces at all: R11",
    ],
)
def test_other_braces_stay_as_written(text: str) -> None:
    assert EXT.rewrite(text) == [(text, "")]


def test_every_lsd_section_has_a_page_section() -> None:
    sections = [f"{a}.{b}" for a, top in ((1, 7), (2, 5)) for b in range(1, top + 1)]
    assert all(EXT.LSD_SECTIONS[s] for s in [*sections, "3.1", "3.2"])
    assert EXT.parse("LSD 2.4.2") == [EXT.Piece("LSD 2.4.2", "lsd-end")]


def test_a_group_may_wrap_across_lines() -> None:
    assert EXT.rewrite("such as i9 {R12,\nR13}.") == [
        ("such as i9 (", ""),
        ("R12", "pacru-r12"),
        (",\n", ""),
        ("R13", "pacru-r13"),
        (").", ""),
    ]
