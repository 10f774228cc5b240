"""Packaging and project metadata: version, typing marker, entry point, README and CI agree."""

from __future__ import annotations

import ast
import doctest
import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest

import pacru
from pacru.commands import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _setup_commands() -> list[str]:
    """The shell commands in the README's "Set-up" section, one per ``sh`` block."""
    section = README.split("\n## Set-up\n", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_version_is_semver_and_matches_installed_metadata() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", pacru.__version__)
    # maturin takes the version from the extension's crate: it must be pacru's.
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    crate = tomllib.loads((ROOT / "rust" / "python" / "Cargo.toml").read_text(encoding="utf-8"))
    assert crate["package"]["version"] == pacru.__version__
    try:
        installed = importlib.metadata.version("pacru")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("pacru is not installed (running from the source tree)")
    assert installed == pacru.__version__


def test_package_ships_py_typed() -> None:
    assert (ROOT / "src" / "pacru" / "py.typed").is_file()
    maturin = PYPROJECT["tool"]["maturin"]
    assert maturin["python-source"] == "src"
    assert maturin["module-name"] == "pacru._native"
    assert (ROOT / maturin["manifest-path"]).is_file()


def test_public_api_all_is_sorted_and_resolves() -> None:
    """``__all__`` in ruff's isort-style order: CONSTANTS, Classes, then the rest."""

    def key(name: str) -> tuple[int, str]:
        return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)

    assert pacru.__all__ == sorted(pacru.__all__, key=key)
    for name in pacru.__all__:
        assert hasattr(pacru, name), name


def test_console_script_is_the_cli_main() -> None:
    assert PYPROJECT["project"]["scripts"] == {"pacru": "pacru.cli:main"}
    from pacru.cli import main

    assert callable(main)


def test_every_command_module_is_registered() -> None:
    modules = sorted(
        p.stem for p in (ROOT / "src" / "pacru" / "commands").glob("*.py") if p.stem[0] != "_"
    )
    assert sorted(COMMANDS) == modules


def test_runtime_dependencies_are_attrs_only() -> None:
    assert [re.split(r"[<>=!~ ]", d)[0] for d in PYPROJECT["project"]["dependencies"]] == ["attrs"]


def test_sdist_includes_exist() -> None:
    for item in PYPROJECT["tool"]["maturin"]["include"]:
        assert item["format"] == "sdist"
        assert list(ROOT.glob(item["path"])), item


def test_readme_set_up_has_two_commands_and_ci_runs_the_test_command() -> None:
    main_job, tests = _setup_commands()
    assert main_job == 'pip install ".[cli]" && pacru play shacru --players 2 --seed 1'
    assert tests == 'pip install ".[test]" && python -m pytest'
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert any(line.startswith(tests) for line in ci.splitlines())


def test_ci_script_is_strict_bash() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in lines
    assert "python -m sphinx -W --keep-going -q -b html docs docs/_build/html" in lines


def test_readme_session_is_real_output() -> None:
    """The README's Python session runs as shown (a doctest of README.md)."""
    parser = doctest.DocTestParser()
    test = parser.get_doctest(README, {}, "README.md", str(ROOT / "README.md"), 0)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_changelog_has_an_unreleased_section() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    assert "\n## [Unreleased]\n" in text
    assert "\n[Unreleased]: " in text


def test_errors_page_lists_every_reason_code() -> None:
    """docs/errors.rst documents each reason code the chevron engine raises."""
    tree = ast.parse((ROOT / "src" / "pacru" / "chevron" / "legality.py").read_text("utf-8"))
    codes: set[str] = {
        node.args[1].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "err"
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    }
    assert {"occupied", "opponent-field", "beyond-power"} <= codes
    page = (ROOT / "docs" / "errors.rst").read_text(encoding="utf-8")
    missing = sorted(c for c in codes | {"game-over"} if f"``{c}``" not in page)
    assert missing == []
