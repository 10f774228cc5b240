"""Shipped text shows checked output and cites only what ships.

* Every ``>>>`` session in the docs is a doctest (``sphinx -b doctest`` compares
  it; a session inside a ``code-block`` or a ``::`` literal block is shown
  but never run); every docstring session in ``src/pacru`` runs here, as the
  doctest build runs those it renders.
* No shipped text (the docs, the examples, ``src/pacru``, README.md,
  CHANGELOG.md) cites a document that users do not have: the project's private
  rules reference (``RULES.md``, ``LSD.md``, "rules reference", its appendix
  numbers such as ``E.1``), its design notes or the folders beside the
  repository. The docs state the rules and rulings in their own words
  (docs/rules.rst, docs/rulings.rst, docs/worked-examples.rst).
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

import pacru

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SRC = ROOT / "src" / "pacru"

#: The reST pages of the docs, without the build output and sphinx-gallery's generated pages.
DOC_PAGES = sorted(
    p
    for p in DOCS.rglob("*.rst")
    if not {"_build", "auto_examples"} & set(p.relative_to(DOCS).parts)
)

_DIRECTIVE = re.compile(r"^(\s*)\.\. (code-block|code|sourcecode|highlight)::\s*(\S*)")
_LITERAL = re.compile(r"(^|[^:])::\s*$")


def _indented_block(lines: list[str], start: int, indent: int) -> tuple[list[str], int]:
    """The lines after ``start`` indented deeper than ``indent`` (blank lines included)."""
    block: list[str] = []
    i = start + 1
    while i < len(lines):
        line = lines[i]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        block.append(line)
        i += 1
    return block, i


def unchecked_sessions(text: str) -> list[int]:
    """Line numbers (from 1) of literal or code blocks of ``text`` (reST) holding a ``>>>``."""
    lines = text.splitlines()
    found = []
    i = 0
    while i < len(lines):
        line = lines[i]
        directive = _DIRECTIVE.match(line)
        literal = not directive and _LITERAL.search(line) and not line.lstrip().startswith("..")
        if directive or literal:
            indent = len(line) - len(line.lstrip())
            block, end = _indented_block(lines, i, indent)
            if any(b.lstrip().startswith(">>>") for b in block):
                found.append(i + 1)
            i = max(end, i + 1)
            continue
        i += 1
    return found


def test_the_scanner_finds_sessions_that_are_shown_but_not_run() -> None:
    page = (
        "Text::\n\n   >>> 1 + 1\n   3\n\n"
        ".. code-block:: pycon\n\n   >>> 2\n   2\n\n"
        ".. doctest::\n\n   >>> 1 + 1\n   2\n\n"
        ".. code-block:: python\n\n   x = 1\n\n"
        ">>> 1 + 1\n2\n"
    )
    assert unchecked_sessions(page) == [1, 6]


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_no_session_in_the_docs_is_shown_without_being_run(page: Path) -> None:
    """A ``>>>`` session belongs in a doctest block or ``.. doctest::``, where it is compared."""
    lines = unchecked_sessions(page.read_text(encoding="utf-8"))
    assert lines == [], f"{page.relative_to(ROOT)}: sessions never run at lines {lines}"


def test_the_doctest_build_compares_exception_messages() -> None:
    """Sphinx's default flags ignore an exception's message: the docs would show any text."""
    namespace: dict[str, object] = {"__file__": str(DOCS / "conf.py")}
    exec(compile((DOCS / "conf.py").read_text("utf-8"), "conf.py", "exec"), namespace)
    flags = namespace["doctest_default_flags"]
    assert isinstance(flags, int)
    assert not flags & doctest.IGNORE_EXCEPTION_DETAIL


def _modules() -> list[str]:
    names = []
    for path in sorted(SRC.rglob("*.py")):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1] != "__main__":
            names.append(".".join(parts))
    return names


MODULES = _modules()


def test_every_module_is_collected() -> None:
    assert "pacru" in MODULES
    assert "pacru.explanation" in MODULES
    assert len(MODULES) > 90


@pytest.mark.parametrize("name", MODULES)
def test_docstring_sessions_show_real_output(name: str) -> None:
    """Each ``>>>`` session in a docstring prints what it shows (``import pacru`` given, as
    the doctest build's global set-up gives it)."""
    module = importlib.import_module(name)
    tests = [
        t
        for t in doctest.DocTestFinder().find(module, name, extraglobs={"pacru": pacru})
        if t.examples and t.filename == module.__file__
    ]
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test, out=report.append)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, "".join(report)


#: What shipped text must not cite: the private rules reference and design notes, by name,
#: by description, by its appendix numbering ("E.1", "scenario 11"), and the folders
#: beside the repository where they live.
PRIVATE = re.compile(
    r"RULES\.md|LSD\.md|ARCHITECTURE\.md|rules reference|reference document"
    r"|\b[A-G]\.\d+\b|\bscenario \d|\.\./shared|/work/|shared/(rules|seeds|games|design)"
    r"|\bseeds/",
    re.IGNORECASE,
)


def _shipped() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md"]
    files += DOC_PAGES
    files += [*sorted((DOCS / "_ext").glob("*.py")), DOCS / "conf.py"]
    files += sorted((ROOT / "examples").glob("*.py")) + sorted((ROOT / "examples").glob("*.rst"))
    files += sorted(SRC.rglob("*.py")) + sorted(SRC.rglob("*.pyi"))
    return files


def test_the_private_pattern_matches_what_it_must() -> None:
    cited = [
        "see RULES.md",
        "Rules reference E.1, scenario 11",
        "rules reference E.3",
        "../shared/rules",
        "LSD.md 2.4",
        "(B.5)",
    ]
    assert all(PRIVATE.search(text) for text in cited)
    fine = ["{LSD 2.4}", "ruling D22", "{S-R4}", "R16a", "e.g. e1-e2", "version 1.2", "E5"]
    assert not any(PRIVATE.search(text) for text in fine)


def test_no_shipped_text_cites_a_document_users_do_not_have() -> None:
    places = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _shipped()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PRIVATE.search(line)
    ]
    assert places == [], "cites what is not shipped:\n" + "\n".join(places)


#: Words that describe a change from an earlier release: pacru has none before the first.
BEFORE_FIRST = re.compile(
    r"before this change|migrating from|earlier releases?\b|older releases?\b|no longer listed",
    re.IGNORECASE,
)


def test_the_docs_describe_a_first_release() -> None:
    places = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in [ROOT / "README.md", *DOC_PAGES, *sorted((ROOT / "examples").glob("*.py"))]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BEFORE_FIRST.search(line)
    ]
    assert places == [], "text about an earlier release:\n" + "\n".join(places)


def _unreleased_entries() -> list[str]:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    section = text.split("\n## [Unreleased]\n", 1)[1].split("\n## [", 1)[0]
    entries: list[str] = []
    for line in section.splitlines():
        if line.startswith("- "):
            entries.append(line[2:])
        elif line.startswith("  ") and entries:
            entries[-1] += " " + line.strip()
    return entries


def test_changelog_lists_each_change_once() -> None:
    entries = _unreleased_entries()
    assert len(entries) > 50
    repeated = sorted({e[:80] for e in entries if entries.count(e) > 1})
    assert repeated == []


def test_changelog_does_not_add_and_remove_the_same_build() -> None:
    """What ships in the first release: no build that the same release also removes."""
    assert not [e for e in _unreleased_entries() if "mypyc" in e]


#: ``$ pacru ...`` sessions that the docs show as measurements, run by hand (each takes minutes:
#: MCTS ladders, the network's training and its matches); every other session shown in the
#: docs is run by the test below.
MEASURED = re.compile(
    r"^pacru ladder \w+ --bot random --bot greedy --bot mcts( --bot search)? --games 10 --seed 2026"
    r" --out ladder-\w+$"
    r"|^pacru train net --jobs 2$"
    r"|^pacru train net-pacru --configs pacru-2 --games 2000 --jobs 2$"
    r"|^pacru match pacru --players 2 --bot network:time_limit=0\.1 --bot search:time_limit=0\.1"
    r" --games 200 --sprt --workers 2 --seed 1$"
)
#: What varies from run to run in a shown output: wall-clock time.
_TIMING = re.compile(r"\d+(\.\d+)? s of play in total")


def shell_sessions(text: str) -> list[tuple[int, list[str], list[str]]]:
    """The ``$ command`` sessions of ``text``'s code blocks: (line, commands, shown output).

    A session is the ``$`` lines of one block up to a ``$ pacru`` line and that
    command's output (up to the next ``$`` line or the end of the block); a ``$
    cat FILE`` before it shows a file the command reads.
    """
    lines = text.splitlines()
    sessions = []
    i = 0
    while i < len(lines):
        if _DIRECTIVE.match(lines[i]):
            indent = len(lines[i]) - len(lines[i].lstrip())
            block, end = _indented_block(lines, i, indent)
            body = [b[indent + 3 :] if b.strip() else "" for b in block]
            start: int | None = None
            for k, line in enumerate([*body, "$ "]):
                if line.startswith("$ ") and start is not None:
                    shown = body[start + 1 : k]
                    while shown and not shown[-1]:
                        shown.pop()
                    sessions.append((i + 2 + start, [body[start][2:]], shown))
                    start = None
                if line.startswith("$ "):
                    start = k
            i = max(end, i + 1)
            continue
        i += 1
    return sessions


SESSIONS = [
    (page, line, command, shown)
    for page in DOC_PAGES
    for line, (command,), shown in shell_sessions(page.read_text(encoding="utf-8"))
    if command.startswith(("pacru ", "cat "))
]


RUN = [s for s in SESSIONS if s[2].startswith("pacru ") and not MEASURED.match(s[2])]


def test_the_docs_show_pacru_sessions() -> None:
    """The sessions the next test runs, and the measurements it leaves out (the ladders)."""
    assert [command for _, _, command, _ in RUN] == [
        "pacru match shacru --bot greedy --bot random --games 4 --seed 1",
        "pacru match lilacru --bot greedy --bot random --games 8 --seed 1 --sprt=0,400 "
        "--elo-model logistic --alpha 0.2 --beta 0.2 --no-progress",
        "pacru play shacru --players 2 --seed 1",
        "pacru play pacru --players 3 --seed 3 --quiet",
        "pacru replay bad.pgn",
    ]
    measured = [command.split()[2] for _, _, command, _ in SESSIONS if MEASURED.match(command)]
    assert measured == ["lilacru", "shacru", "azacru", "pacru", "lsd", "net", "net-pacru", "pacru"]


@pytest.mark.parametrize(
    ("page", "line", "command", "shown"), RUN, ids=[f"{s[0].name}:{s[1]}" for s in RUN]
)
def test_shell_sessions_in_the_docs_print_what_they_show(
    page: Path,
    line: int,
    command: str,
    shown: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each ``$ pacru ...`` of the docs prints its shown output (timings aside); the files it
    reads are the ``$ cat FILE`` shown before it in the same block."""
    from pacru.cli import main

    for other_page, other_line, other, text in SESSIONS:
        if other_page == page and other_line < line and other.startswith("cat "):
            (tmp_path / other.split()[1]).write_text("\n".join(text) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status = main(command.split()[1:])
    out, err = capsys.readouterr()
    printed = (out or err).rstrip("\n").splitlines()
    assert status == (1 if err and not out else 0)
    assert [_TIMING.sub("T", p.rstrip()) for p in printed] == [
        _TIMING.sub("T", s.rstrip()) for s in shown
    ]
