"""The ``pacru-traceability`` directive: where each rule is implemented and tested.

The table is made at docs build time from the rule citations in ``src/`` and
``tests/`` -- ``{R11}``, ``{S-R4, A-R6}``, ``ruling D18``, ``{L7}``, ``"L4"``, ``G2``,
``LSD 2.3``, ``RULING 12`` -- so it cannot go stale: a rule cited in a
docstring, comment or test is listed with the function, class or test that
cites it, and a rule no code or no test cites shows up as a gap.

.. code-block:: rst

   .. pacru-traceability::

Each citation is credited to the innermost function or class around it (by
:mod:`ast`), or to the module when it is at the top level.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from pacru_generated import GeneratedRst, add_directive
from sphinx.application import Sphinx


class Family(NamedTuple):
    """A numbered set of rules: its title, rule ids in order, and the docs label of each."""

    title: str
    ids: tuple[str, ...]
    label: str  # a format string for the rule's link target, "" for none


FAMILIES: tuple[Family, ...] = (
    Family("Board geometry (G1-G7)", tuple(f"G{i}" for i in range(1, 8)), "geometry-g{n}"),
    Family("Lilacru (L1-L7)", tuple(f"L{i}" for i in range(1, 8)), "lilacru-l{n}"),
    Family("Shacru (S-R1-S-R6)", tuple(f"S-R{i}" for i in range(1, 7)), "shacru-r{n}"),
    Family("Azacru (A-R1-A-R10)", tuple(f"A-R{i}" for i in range(1, 11)), "azacru-r{n}"),
    Family("Pacru (R1-R16)", tuple(f"R{i}" for i in range(1, 17)), "pacru-r{n}"),
    Family("Rulings (D1-D50)", tuple(f"D{i}" for i in range(1, 51)), "ruling-d{n}"),
    Family(
        "LSD rules (sections of the LSD page)",
        tuple(f"LSD {a}.{b}" for a, top in ((1, 7), (2, 5), (3, 3)) for b in range(1, top + 1)),
        "",
    ),
    Family("LSD rulings (1-23)", tuple(f"LSD RULING {i}" for i in range(1, 24)), ""),
)
#: Rules that share a section (and its link target) with another.
SHARED_LABELS: dict[str, str] = {"A-R2": "azacru-r1", "A-R3": "azacru-r1"}
KNOWN: frozenset[str] = frozenset(i for f in FAMILIES for i in f.ids)

# A chevron-game rule id, not part of a longer word or of "LSD-R5"; a letter after
# the number (R16b, S-R6a) is a part of the rule and counts for the rule.
_CHEVRON = re.compile(r"(?<![\w.-])((?:[SA]-)?R\d{1,2}|D\d{1,2}|G\d)[a-z]?\b")
_BRACES = re.compile(r"\{([^{}\n]{1,80})\}")
_LILACRU = re.compile(r"(?<![\w-])L([1-7])\b")
_QUOTED_L = re.compile(r"[\"']L([1-7])[\"']")
_SECTION = re.compile(r"(?<![\d.])([1-3]\.[1-9])(?![\d.])")
_LSD_SECTION = re.compile(r"\bLSD(?:\.md)?[ -]([1-3]\.[1-9])\b")
# A row of field constants, "(A1, B1, ..., I1) = range(9)": its D1 and G1 are fields, not rules.
_FIELD_ROW = re.compile(r"\s*\((?:[A-I][1-9], ){8}[A-I][1-9]\)\s*=")
_LSD_RULING = re.compile(r"\b(?:LSD-R(\d{1,2})\b|RULINGS? (\d{1,2}(?:(?:-|, | and )\d{1,2})*))")


def citations(line: str) -> set[str]:
    """The rule ids cited on one line of source, as in :data:`KNOWN`."""
    if _FIELD_ROW.match(line):
        return set()
    found = {m.group(1) for m in _CHEVRON.finditer(line)}
    for group in _BRACES.findall(line):
        found.update(f"L{n}" for n in _LILACRU.findall(group))
        if "LSD" in group:  # {LSD 1.5, 2.2; ...}: every section number in it
            found.update(f"LSD {s}" for s in _SECTION.findall(group))
    # A Lilacru rule as a rule code in quotes, as in error and explanation tables.
    found.update(f"L{n}" for n in _QUOTED_L.findall(line))
    found.update(f"LSD {s}" for s in _LSD_SECTION.findall(line))
    for single, listed in _LSD_RULING.findall(line):
        for part in (single or listed).replace(" and ", ", ").split(", "):
            low, _, high = part.partition("-")
            for n in range(int(low), int(high or low) + 1):
                found.add(f"LSD RULING {n}")
    return found & KNOWN


def _scopes(tree: ast.Module) -> list[tuple[int, int, str]]:
    """(first line, last line, qualified name) of every function and class, outermost first."""
    scopes: list[tuple[int, int, str]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                scopes.append((first, child.end_lineno or child.lineno, name))
                walk(child, f"{name}.")
            else:
                walk(child, prefix)

    walk(tree, "")
    return scopes


def scan(path: Path) -> Iterator[tuple[str, str]]:
    """(rule id, innermost function or class name, "" at module level) for each citation."""
    text = path.read_text(encoding="utf-8")
    scopes = _scopes(ast.parse(text))
    for number, line in enumerate(text.splitlines(), start=1):
        cited = citations(line)
        if not cited:
            continue
        inside = [s for s in scopes if s[0] <= number <= s[1]]
        where = inside[-1][2] if inside else ""
        for rule in cited:
            yield rule, where


def _module(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class Trace(NamedTuple):
    """For each rule id: the code objects and the test files (with test names) citing it."""

    code: dict[str, set[str]]
    tests: dict[str, dict[str, set[str]]]
    files: tuple[Path, ...]


def trace(root: Path) -> Trace:
    """Scan ``root/src`` and ``root/tests`` for rule citations."""
    code: dict[str, set[str]] = defaultdict(set)
    cited: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    src = root / "src"
    # The docs extensions' own tests cite rules as test data, not as rules they check.
    tests = [p for p in (root / "tests").rglob("*.py") if not p.name.startswith("test_docs_")]
    files = sorted([*src.rglob("*.py"), *tests])
    for path in files:
        if path.is_relative_to(src):
            module = _module(path, src)
            for rule, where in scan(path):
                code[rule].add(f"{module}.{where}" if where else module)
        else:
            name = path.relative_to(root / "tests").as_posix()
            for rule, where in scan(path):
                cited[rule][name].add(where.split(".")[-1] if where else "")
    return Trace(code, cited, tuple(files))


def _rule_cell(rule: str, family: Family) -> str:
    if not family.label:
        return rule
    number = re.sub(r"\D", "", rule)
    label = SHARED_LABELS.get(rule, family.label.format(n=number))
    return f":ref:`{rule} <{label}>`"


def _code_cell(names: Iterable[str]) -> str:
    return ", ".join(f":py:obj:`{n}`" for n in sorted(names)) or "**none cited**"


def _tests_cell(files: dict[str, set[str]]) -> str:
    if not files:
        return "**none cited**"
    parts = []
    for name in sorted(files):
        count = len({t for t in files[name] if t.startswith("test")})
        parts.append(f"``{name}`` ({count})" if count else f"``{name}``")
    return ", ".join(parts)


def render(found: Trace) -> list[str]:
    """The page body as reStructuredText lines."""
    lines: list[str] = []
    gaps = [r for f in FAMILIES for r in f.ids if not found.code.get(r) or not found.tests.get(r)]
    lines += [
        f"{len(found.files)} files scanned; {len(KNOWN) - len(gaps)} of {len(KNOWN)} rules and "
        "rulings are cited by both the code and the tests.",
        "",
    ]
    if gaps:
        lines += ["Cited by no code or no test: " + ", ".join(gaps) + ".", ""]
    for family in FAMILIES:
        lines += [family.title, "-" * len(family.title), ""]
        lines += [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 12 50 38",
            "   :class: pacru-trace",
            "",
            "   * - Rule",
            "     - Code citing it",
            "     - Test files citing it, under tests/ (number of tests)",
        ]
        for rule in family.ids:
            lines += [
                f"   * - {_rule_cell(rule, family)}",
                f"     - {_code_cell(found.code.get(rule, ()))}",
                f"     - {_tests_cell(found.tests.get(rule, {}))}",
            ]
        lines.append("")
    return lines


class Traceability(GeneratedRst):
    """``.. pacru-traceability::``: the generated tables (see the module docstring)."""

    source = "<traceability>"

    def generate(self) -> tuple[list[str], list[str]]:
        found = trace(Path(self.env.srcdir).parent)
        return render(found), [str(path) for path in found.files]


def setup(app: Sphinx) -> dict[str, Any]:
    return add_directive(app, "pacru-traceability", Traceability)
