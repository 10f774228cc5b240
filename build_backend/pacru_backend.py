"""pacru's PEP 517 build backend: the native engine when Rust is there, else pure Python.

``pyproject.toml`` names this module (``backend-path = ["build_backend"]``); it chooses one of
two ordinary backends and hands every hook to it:

* **maturin** when ``cargo --version`` runs: the wheel carries the native engine
  (``pacru._native``, rust/python) beside the Python package (``pacru.ENGINE == "native"``);
* **hatchling** otherwise: a pure-Python wheel of the same package, on the pure-Python engine
  (``pacru.ENGINE == "python"``). One line on stderr says why (``pip install -v`` shows it).
  maturin is then not even installed, so nothing tries to download a Rust toolchain.

The environment variable ``PACRU_BUILD_ENGINE`` overrides the choice: ``python`` builds the
pure wheel even where cargo is present (the ``py3-none-any`` wheel of a release), ``native``
requires the native engine (the build fails, in one line, without cargo).

The sdist is always hatchling's (it needs no cargo): the Python package, the Rust workspace,
this backend, the tests and the docs, from which either wheel builds. The version is
``pyproject.toml``'s ``[project] version``, which both backends read.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

__all__ = [
    "build_editable",
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_editable",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
]

_OPTIONAL = frozenset({"prepare_metadata_for_build_editable", "prepare_metadata_for_build_wheel"})

ENV = "PACRU_BUILD_ENGINE"
MATURIN = "maturin>=1.5,<2"
_Config = Mapping[str, Any] | None


def missing_cargo() -> str | None:
    """Why no Rust toolchain can build the native engine here, or None when one can."""
    cargo = shutil.which("cargo")
    if cargo is None:
        return "no Rust toolchain (cargo is not on the PATH)"
    try:
        subprocess.run([cargo, "--version"], capture_output=True, check=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as err:
        return f"no working Rust toolchain (`cargo --version` failed: {err})"
    return None


def engine() -> str:
    """``"native"`` or ``"python"``: the wheel's engine (``PACRU_BUILD_ENGINE``, else cargo)."""
    choice = os.environ.get(ENV, "").strip().lower()
    if choice not in {"", "auto", "native", "python"}:
        raise SystemExit(f"pacru: {ENV}={choice!r} is not one of native, python, auto")
    if choice == "python":
        return "python"
    why = missing_cargo()
    if why is None:
        return "native"
    if choice == "native":
        raise SystemExit(f"pacru: {ENV}=native but {why}")
    return "python"


def _say_why() -> None:
    if os.environ.get(ENV, "").strip().lower() != "python":
        print(
            f"pacru: {missing_cargo()}: building the pure-Python engine (pacru.ENGINE == 'python');"
            " install Rust (https://rustup.rs) and reinstall for the native engine",
            file=sys.stderr,
        )


def _backend(native: bool) -> Any:
    if native:
        # Never let maturin fetch a toolchain of its own: the choice was made above.
        os.environ["MATURIN_NO_INSTALL_RUST"] = "1"
        return importlib.import_module("maturin")
    return importlib.import_module("hatchling.build")


def get_requires_for_build_wheel(config_settings: _Config = None) -> list[str]:
    """maturin for the native engine, else nothing (hatchling is in ``[build-system] requires``)."""
    return [MATURIN] if engine() == "native" else []


def get_requires_for_build_editable(config_settings: _Config = None) -> list[str]:
    return get_requires_for_build_wheel(config_settings)


def get_requires_for_build_sdist(config_settings: _Config = None) -> list[str]:
    return []


def __getattr__(name: str) -> Any:
    """The optional hooks, only where the chosen backend has them (hatchling hides its
    ``prepare_metadata_*`` from pip, which then builds the wheel to read the metadata)."""
    if name in _OPTIONAL:
        return getattr(_backend(engine() == "native"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_wheel(
    wheel_directory: str, config_settings: _Config = None, metadata_directory: str | None = None
) -> str:
    native = engine() == "native"
    if not native:
        _say_why()
    name: str = _backend(native).build_wheel(wheel_directory, config_settings, metadata_directory)
    return name


def build_editable(
    wheel_directory: str, config_settings: _Config = None, metadata_directory: str | None = None
) -> str:
    native = engine() == "native"
    if not native:
        _say_why()
    backend = _backend(native)
    name: str = backend.build_editable(wheel_directory, config_settings, metadata_directory)
    return name


def build_sdist(sdist_directory: str, config_settings: _Config = None) -> str:
    name: str = _backend(False).build_sdist(sdist_directory, config_settings)
    return name
