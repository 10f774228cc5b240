"""Packaging and project metadata: version, typing marker, entry point, README and CI agree."""

from __future__ import annotations

import ast
import doctest
import importlib.metadata
import importlib.util
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path
from typing import Any

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


def test_version_is_set_once_in_pyproject() -> None:
    """pyproject.toml's ``[project] version`` is the one place: pacru reads the metadata."""
    version = PYPROJECT["project"]["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", version)
    assert "dynamic" not in PYPROJECT["project"]
    assert pacru.__version__ == importlib.metadata.version("pacru") == version
    # No second copy: not in the package's source, not in the extension's crate (maturin takes
    # pyproject's; the crate's own is a placeholder).
    source = (ROOT / "src" / "pacru" / "_version.py").read_text(encoding="utf-8")
    assert not re.search(r"\d+\.\d+\.\d+", source)
    crate = tomllib.loads((ROOT / "rust" / "python" / "Cargo.toml").read_text(encoding="utf-8"))
    assert crate["package"]["version"] == "0.0.0"


def test_version_is_read_lazily() -> None:
    """``import pacru`` does not import importlib.metadata for ``__version__``."""
    code = "import sys, pacru; print('importlib.metadata' in sys.modules); pacru.__version__"
    code += "; print('importlib.metadata' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_package_ships_py_typed() -> None:
    assert (ROOT / "src" / "pacru" / "py.typed").is_file()
    maturin = PYPROJECT["tool"]["maturin"]
    assert PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["src/pacru"]
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


def test_dir_of_the_package_is_its_api_and_its_modules() -> None:
    """``dir(pacru)`` offers ``__all__`` and the submodules; not the typing helpers
    ``__init__`` uses (``Any``, ``TYPE_CHECKING``). The LSD names are imported on first use,
    but offered before it (tab completion)."""
    code = "import pacru; print(' '.join(n for n in dir(pacru) if not n.startswith('_')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    public = set(out.stdout.split())
    assert {"Any", "TYPE_CHECKING", "MoveT"}.isdisjoint(public)
    assert sorted(public - set(pacru.__all__)) == [
        "base",
        "chevron",
        "errors",
        "explanation",
        "game",
        "games",
        "geometry",
    ]
    assert {name for name in pacru.__all__ if not name.startswith("_")} <= public
    code = "import sys, pacru; dir(pacru); print('pacru.lsd' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "False\n"  # offered, not imported
    # In this process, where more is imported, every other public name is a submodule.
    for name in set(dir(pacru)) - set(pacru.__all__):
        assert name.startswith("_") or type(getattr(pacru, name)) is type(pacru), name


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
    for path in PYPROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["only-include"]:
        assert (ROOT / path).exists(), path


def test_readme_set_up_has_two_commands_and_ci_runs_the_test_command() -> None:
    main_job, tests = _setup_commands()
    assert main_job == 'pip install ".[cli]" && pacru play shacru --players 2 --seed 1'
    # Editable: the tests run the working tree, not a copy installed from it.
    assert tests == 'pip install -e ".[test]" && python -m pytest'
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


def test_changelog_before_the_first_release_only_adds() -> None:
    """Before the first release there is nothing to change or fix: every entry of the
    Unreleased section says what the release holds (Keep a Changelog)."""
    lines = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines()
    if any(re.match(r"## \[\d", line) for line in lines):
        return  # a release exists: Changed, Fixed, ... may follow it
    start = lines.index("## [Unreleased]") + 1
    section = []
    for line in lines[start:]:
        if line.startswith("## "):
            break
        section.append(line)
    headings = {line.rstrip() for line in section if line.startswith("### ")}
    assert headings == {"### Added"}


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


# The build: build_backend/pacru_backend.py chooses maturin or hatchling (docs/development.rst).


def _backend() -> Any:
    spec = importlib.util.spec_from_file_location(
        "pacru_backend", ROOT / "build_backend" / "pacru_backend.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_cargo(directory: Path, status: int) -> str:
    """A directory holding a ``cargo`` that exits with ``status``, as a PATH."""
    cargo = directory / "cargo"
    cargo.write_text(f"#!/bin/sh\nexit {status}\n", encoding="utf-8")
    cargo.chmod(0o755)
    return str(directory)


def test_build_system_needs_no_rust_to_start() -> None:
    """pip installs only hatchling first; maturin is asked for only where cargo runs."""
    system = PYPROJECT["build-system"]
    assert system["build-backend"] == "pacru_backend"
    assert system["backend-path"] == ["build_backend"]
    assert [re.split(r"[<>=!~ ]", r)[0] for r in system["requires"]] == ["hatchling"]


@pytest.mark.skipif(sys.platform == "win32", reason="the fake cargo is a shell script")
@pytest.mark.parametrize(
    ("cargo_status", "choice", "engine", "requires"),
    [
        (None, "", "python", []),
        (1, "", "python", []),
        (0, "", "native", ["maturin>=1.5,<2"]),
        (0, "auto", "native", ["maturin>=1.5,<2"]),
        (0, "python", "python", []),
        (0, "native", "native", ["maturin>=1.5,<2"]),
    ],
)
def test_backend_chooses_native_only_where_cargo_runs(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    cargo_status: int | None,
    choice: str,
    engine: str,
    requires: list[str],
) -> None:
    backend = _backend()
    path = str(tmp_path) if cargo_status is None else _fake_cargo(tmp_path, cargo_status)
    monkeypatch.setenv("PATH", path)
    monkeypatch.setenv("PACRU_BUILD_ENGINE", choice)
    assert backend.engine() == engine
    assert backend.get_requires_for_build_wheel() == requires
    assert backend.get_requires_for_build_editable() == requires
    assert backend.get_requires_for_build_sdist() == []


@pytest.mark.parametrize(
    ("cargo_status", "why"),
    [
        (None, "no Rust toolchain (cargo is not on the PATH)"),
        (1, "no working Rust toolchain (`cargo --version` failed: "),
    ],
)
def test_backend_says_why_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    cargo_status: int | None,
    why: str,
) -> None:
    backend = _backend()
    path = str(tmp_path) if cargo_status is None else _fake_cargo(tmp_path, cargo_status)
    monkeypatch.setenv("PATH", path)
    monkeypatch.delenv("PACRU_BUILD_ENGINE", raising=False)
    assert backend.missing_cargo().startswith(why)
    backend._say_why()
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"pacru: {why}")
    assert "building the pure-Python engine (pacru.ENGINE == 'python')" in err
    # Required native engine, or a misspelt choice: a one-line error, not a fallback.
    monkeypatch.setenv("PACRU_BUILD_ENGINE", "native")
    with pytest.raises(SystemExit, match=r"^pacru: PACRU_BUILD_ENGINE=native but no "):
        backend.engine()
    monkeypatch.setenv("PACRU_BUILD_ENGINE", "rust")
    with pytest.raises(SystemExit, match="'rust' is not one of native, python, auto"):
        backend.engine()


def test_pure_wheel_and_sdist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure wheel is ``py3-none-any`` with every module but the extension; the sdist holds
    what either wheel builds from, and no build output."""
    backend = _backend()
    monkeypatch.setenv("PACRU_BUILD_ENGINE", "python")
    monkeypatch.chdir(ROOT)
    version = PYPROJECT["project"]["version"]
    wheel = tmp_path / backend.build_wheel(str(tmp_path))
    assert wheel.name == f"pacru-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(f"pacru-{version}.dist-info/METADATA").decode()
    modules = {
        p.relative_to(ROOT / "src").as_posix()
        for p in (ROOT / "src" / "pacru").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.name.startswith("_native.")
    }
    assert modules | {"pacru/_native.pyi"} <= names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert f"\nVersion: {version}\n" in metadata
    assert "\nRequires-Dist: attrs>=23.2\n" in metadata
    sdist = tmp_path / backend.build_sdist(str(tmp_path))
    assert sdist.name == f"pacru-{version}.tar.gz"
    with tarfile.open(sdist) as archive:
        listed = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    expected = {
        "pyproject.toml",
        "build_backend/pacru_backend.py",
        ".cargo/config.toml",
        "rust/Cargo.lock",
        "rust/python/Cargo.toml",
        "rust/engine/src/lib.rs",
        "src/pacru/__init__.py",
        "tests/conftest.py",
        "LICENSE",
        "CHANGELOG.md",
    }
    assert expected <= listed
    assert not [n for n in listed if n.startswith("rust/target") or n.endswith((".so", ".pyc"))]


def test_ci_and_release_workflow_check_every_distribution() -> None:
    """.ci/run and the release workflow run the same core tests and the same checks."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    workflow = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    core = re.search(r"^core_tests=\((.*)\)$", ci, re.M)
    assert core is not None
    assert f"CORE_TESTS: {core[1]}\n" in workflow
    for check in ("abi3audit --strict", "PACRU_BUILD_ENGINE=python", "pacru: no Rust toolchain"):
        assert check in ci
        assert check in workflow
    assert "--zig --compatibility manylinux2014" in ci
    assert "auditwheel show" in ci
    builds = re.findall(r"name: ([\w-]+), os: [\w.-]+, target: (\w+)", workflow)
    assert sorted(builds) == [
        ("macos-arm64", "aarch64"),
        ("macos-x86_64", "x86_64"),
        ("manylinux-aarch64", "aarch64"),
        ("manylinux-x86_64", "x86_64"),
        ("musllinux-aarch64", "aarch64"),
        ("musllinux-x86_64", "x86_64"),
        ("windows-x64", "x64"),
    ]
    assert workflow.count('manylinux: "2014" }') == 2
    assert workflow.count("manylinux: musllinux_1_2 }") == 2


def test_development_page_gives_the_build_commands_that_ci_runs() -> None:
    """docs/development.rst shows how to build the sdist and both wheels by hand: the very
    command lines of .ci/run (a changed build in CI fails here until the page follows)."""
    page = (ROOT / "docs" / "development.rst").read_text(encoding="utf-8")
    section = page.split("\nBuilding the distributions\n", 1)[1]
    block = section.split("\n.. code-block:: sh\n", 1)[1].strip("\n").split("\n\n", 1)[0]
    commands = [line.strip() for line in block.splitlines() if not line.strip().startswith("#")]
    sdist = "PACRU_BUILD_ENGINE=python python -m build --sdist --wheel --outdir dist ."
    assert commands[0] == sdist
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    for command in commands:
        assert command in ci, command
    assert len(commands) == 4
