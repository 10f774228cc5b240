"""The docs' signature and docstring clean-up for the API reference (docs/_ext/pacru_autodoc.py)."""

from __future__ import annotations

import inspect
from typing import Any

import attrs
import pytest

import pacru
from docs_extensions import load_extension
from pacru.lsd import LsdState

EXT: Any = load_extension("pacru_autodoc")


@attrs.frozen
class _Example:
    name: str
    table: dict[str, tuple[int, int]] = attrs.field(factory=dict)
    cache: int = attrs.field(default=0, eq=False)
    _parent: _Example | None = None


@attrs.frozen
class _Hidden:
    _a: int


def test_private_and_cache_fields_leave_the_signature() -> None:
    signature = "(name: str, table: dict[str, tuple[int, int]] = {}, cache: int = 0, parent=None)"
    assert EXT.internal_parameters(_Example) == {"cache", "parent"}
    assert EXT.clean_signature(_Example, signature) == (
        "(name: str, table: dict[str, tuple[int, int]] = {})"
    )
    assert EXT.clean_signature(_Hidden, "(a: int)") == ""
    assert EXT.clean_signature(pacru.Move, "(x)") == "(x)"
    assert EXT.split_parameters("(a: str = 'x, y', b: tuple[int, ...] = (1, 2), *, c)") == [
        "a: str = 'x, y'",
        "b: tuple[int, ...] = (1, 2)",
        "*",
        "c",
    ]


@pytest.mark.parametrize("cls", [pacru.ChevronState, LsdState])
def test_the_states_show_no_internals(cls: type) -> None:
    # As autodoc passes it: the parameters, the return annotation apart.
    signature = inspect.signature(cls).replace(return_annotation=inspect.Signature.empty)
    shown = EXT.clean_signature(cls, str(signature))
    for internal in ("parent", "last", "moves", "occupied", "frontier", "legal", "hash"):
        assert f"{internal}:" not in shown
        assert f"{internal}=" not in shown
    assert "players" in shown


def test_attribute_docstrings_keep_their_first_words() -> None:
    lines = ["Pacru: the players who are out {R15}.", "More."]
    EXT.keep_first_line("property", lines)
    assert lines == ["..", "", "Pacru: the players who are out {R15}.", "More."]
    function = ["Returns: nothing."]
    EXT.keep_first_line("function", function)
    assert function == ["Returns: nothing."]
    plain = ["The colour to move."]
    EXT.keep_first_line("attribute", plain)
    assert plain == ["The colour to move."]
