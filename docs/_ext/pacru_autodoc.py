"""Clean class signatures in the API reference: no engine internals.

The states are frozen values; autodoc shows their constructor, which lists
every field, caches and the last move included
(``ChevronState(..., occupied=-1, last=None)``).
Those are not for users: states come from :func:`pacru.new_game`,
:func:`pacru.from_position` and ``apply_move``. This extension drops, from the
signature of an attrs class, each parameter of a private field (``_last``,
given as ``last``) and of a field left out of equality (``eq=False``: a
cache), and from any other class the parameters it names in
``_internal_parameters``. A class with no public parameter left is shown
without a signature.

It also keeps napoleon from reading the first words of an attribute's or a
property's docstring as its type: napoleon takes the docstring "Pacru: the
players who are out." as type ``Pacru`` and shows a stray "Type: Pacru" under it. The
types come from the annotations (``autodoc_typehints = "signature"``), so
such a docstring is shown as written.
"""

from __future__ import annotations

from typing import Any

import attrs
from sphinx.application import Sphinx


def internal_parameters(cls: type) -> frozenset[str]:
    """The constructor parameters of ``cls`` that users never pass: an attrs class's
    private and cache fields, another class's ``_internal_parameters``."""
    if not attrs.has(cls):
        return frozenset(getattr(cls, "_internal_parameters", ()))
    return frozenset(
        f.alias or f.name.lstrip("_")
        for f in attrs.fields(cls)
        if f.init and (f.name.startswith("_") or not f.eq)
    )


def split_parameters(text: str) -> list[str]:
    """The parameters of a signature's text ``(a: int, b: dict[str, int] = {})``, split at
    the top-level commas."""
    inner = text.strip()
    if inner.startswith("(") and inner.endswith(")"):
        inner = inner[1:-1]
    parts, depth, current = [], 0, ""
    quote = ""
    for char in inner:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += char
    if current.strip():
        parts.append(current.strip())
    return parts


def clean_signature(cls: type, signature: str) -> str:
    """``signature`` without the internal parameters of ``cls`` ("" when none is left)."""
    drop = internal_parameters(cls)
    if not drop:
        return signature
    kept = []
    for part in split_parameters(signature):
        name = part.split(":", 1)[0].split("=", 1)[0].strip().lstrip("*")
        if name not in drop:
            kept.append(part)
    kept = [p for p in kept if p != "*"] if all(p == "*" for p in kept) else kept
    return f"({', '.join(kept)})" if kept else ""


def _process_signature(
    app: Sphinx,
    what: str,
    name: str,
    obj: Any,
    options: Any,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str | None, str | None] | None:
    if what != "class" or signature is None or not isinstance(obj, type):
        return None
    return clean_signature(obj, signature), return_annotation


def keep_first_line(what: str, lines: list[str]) -> None:
    """Put an empty comment before an attribute's docstring, in place, so that napoleon
    (which splits the first line at its first colon into type and text) finds no colon."""
    if what in ("attribute", "property", "data") and lines and ":" in lines[0]:
        lines[:0] = ["..", ""]


def _process_docstring(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    keep_first_line(what, lines)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("autodoc-process-signature", _process_signature)
    # Before napoleon (priority 500), which rewrites the docstring's lines.
    app.connect("autodoc-process-docstring", _process_docstring, priority=400)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
