"""Loading the docs' Sphinx extensions (docs/_ext/*.py) in the tests of tests/test_docs_*.py.

The extensions are no package: each is a file Sphinx imports from
``docs/_ext``, so a test loads it from its path under its own module name.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

__all__ = ["ROOT", "load_extension", "load_module"]

#: The repository: the folder holding ``src``, ``tests`` and ``docs``.
ROOT = Path(__file__).resolve().parent.parent


def load_module(name: str, path: Path) -> ModuleType:
    """The Python file ``path``, imported as the module ``name`` (and kept in ``sys.modules``)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_extension(name: str) -> Any:
    """The extension ``docs/_ext/<name>.py``; skips the calling test module without Sphinx.

    Typed ``Any``: the tests use the extension's functions, which mypy does not see.
    """
    pytest.importorskip("sphinx", reason="the docs extension needs Sphinx (test and dev extras)")
    folder = str(ROOT / "docs" / "_ext")
    if folder not in sys.path:  # as docs/conf.py: the extensions import their shared module
        sys.path.insert(0, folder)
    return load_module(name, ROOT / "docs" / "_ext" / f"{name}.py")
