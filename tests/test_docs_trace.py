"""The docs' traceability page generator (docs/_ext/pacru_trace.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from docs_extensions import ROOT, load_extension

EXT: Any = load_extension("pacru_trace")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("A pincer {R11}.", {"R11"}),
        ("{S-R4, A-R6, R4}", {"S-R4", "A-R6", "R4"}),
        ("a letter after the number {R16b, S-R6a}", {"R16", "S-R6"}),
        ("per ruling D18 and D50; D51 is no ruling", {"D18", "D50"}),
        ("{L7} and 'L4', but L5 alone is not a citation", {"L7", "L4"}),
        ("{G2} R17 XR3 LSD-R5 rule-R2", {"G2", "LSD RULING 5"}),
        (
            "{LSD.md 1.5, 2.2; RULINGS 4-6, 20}",
            {"LSD 1.5", "LSD 2.2", *(f"LSD RULING {n}" for n in (4, 5, 6, 20))},
        ),
        ("LSD 2.4 and RULING 9", {"LSD 2.4", "LSD RULING 9"}),
        ("nothing here: e4-e5, 2.3, RGB", set()),
        ("(A4, B4, C4, D4, E4, F4, G4, H4, I4) = range(27, 36)", set()),
    ],
)
def test_citations(line: str, expected: set[str]) -> None:
    assert EXT.citations(line) == expected


def test_trace_credits_the_innermost_function(tmp_path: Path) -> None:
    (tmp_path / "src" / "pacru" / "chevron").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "src" / "pacru" / "__init__.py").write_text('"""Top {R1}."""\n')
    (tmp_path / "src" / "pacru" / "chevron" / "movegen.py").write_text(
        "class Gen:\n"
        "    def pincers(self) -> None:\n"
        '        """Pincers {R11}, ruling D18."""\n'
        "\n"
        "\n"
        "def steps() -> None:\n"
        "    x = 1  # {R3}\n"
    )
    (tmp_path / "tests" / "test_docs_x.py").write_text('"""{R2}: test data, not a citation."""\n')
    (tmp_path / "tests" / "test_x.py").write_text(
        "def helper() -> None:\n"
        "    pass  # {R3}\n"
        "\n"
        "\n"
        "def test_one() -> None:\n"
        '    """{R11}."""\n'
        "\n"
        "\n"
        "def test_two() -> None:\n"
        '    """{R11}, {R3}."""\n'
    )
    found = EXT.trace(tmp_path)
    assert dict(found.code) == {
        "R1": {"pacru"},
        "R11": {"pacru.chevron.movegen.Gen.pincers"},
        "D18": {"pacru.chevron.movegen.Gen.pincers"},
        "R3": {"pacru.chevron.movegen.steps"},
    }
    assert {rule: dict(files) for rule, files in found.tests.items()} == {
        "R3": {"test_x.py": {"helper", "test_two"}},
        "R11": {"test_x.py": {"test_one", "test_two"}},
    }
    text = "\n".join(EXT.render(found))
    assert (
        "   * - :ref:`R11 <pacru-r11>`\n     - :py:obj:`pacru.chevron.movegen.Gen.pincers`\n"
        in (text)
    )
    # Two tests cite R3 in the file, one of them a helper: the count is of tests.
    assert "     - ``test_x.py`` (1)\n" in text
    assert "   * - :ref:`R2 <pacru-r2>`\n     - **none cited**\n     - **none cited**" in text
    # R3 and R11 are cited by both code and tests.
    assert text.startswith("3 files scanned; 2 of 134 rules and rulings are cited by both")


def test_the_real_tree_cites_the_pincer_in_code_and_tests() -> None:
    found = EXT.trace(ROOT)
    assert "pacru.chevron.movegen.raw_steps" in found.code["R11"]
    assert (
        "test_e1_11_two_attackers_either_may_take"
        in (found.tests["R11"]["chevron/test_pacru_pincer.py"])
    )
