"""The binding (rust/python/src) calls into Python only where it must (docs/architecture.rst).

It imports no pacru Python module but ``pacru.errors``, sets no attribute on a
Python object, never names ``__class__``, and calls into Python in three places:
raising an error (``errors::exception``), calling the callable a user gave
(``moves::draw``) and making a successor state by calling the state's class
(``state::handover::made``, for ``State::successor``). The Rust source is read as
text, its comments left out, and every call, import, ``setattr`` and
``__class__`` is placed in its file and function, then compared with
:data:`ALLOWED`. Nothing is built or imported: the
test runs without the extension.
"""

from __future__ import annotations

import re
from pathlib import Path

BINDING = Path(__file__).resolve().parents[2] / "rust" / "python" / "src"

#: Every place of the binding that calls into Python, imports a module, sets an
#: attribute or names ``__class__``: (file, function, what).
ALLOWED: frozenset[tuple[str, str, str]] = frozenset(
    {
        # Raising an error: the exception class (pacru.errors', attrs') looked up and called.
        ("errors.rs", "exception", "call"),
        ("errors.rs", "exception", "import module"),
        # The callable the user gave: _family_draw's randrange.
        ("moves.rs", "draw", "call"),
        # The successor state, made by calling the state's class (its __new__ takes the
        # engine's parts from a thread-local hand-over).
        ("state/handover.rs", "made", "call"),
        # numpy, imported (no function of it called) before the numpy crate reads its C
        # API for an action mask: the crate panics where numpy is missing.
        ("decisions.rs", "numpy_imported", "import numpy"),
    }
)

#: The modules ``errors::exception`` imports its exception classes from.
EXCEPTION_MODULES = frozenset({"pacru.errors", "attrs.exceptions"})

_CALL = re.compile(r"\.\s*(?:call|call0|call1|call_method|call_method0|call_method1)\s*\(")
_IMPORT = re.compile(r"(?:\.|::)\s*import(?:_bound)?\s*\(\s*(?:intern!\s*\(\s*py\s*,\s*)?")
_SETATTR = re.compile(r"\b(?:setattr|delattr|PyObject_SetAttr\w*)\s*\(")
_CLASS = re.compile(r"__class__")
_EVAL = re.compile(r"\b(?:py|Python)\s*(?:\.|::)\s*(?:run|eval)\w*\s*\(|\bfrom_code\w*\s*\(")
_FN = re.compile(r"\bfn\s+(\w+)")
_EXCEPTION = re.compile(r"\bexception\s*\(\s*py\s*,\s*\"([^\"]*)\"")


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def strip_comments(source: str, strings: bool = True) -> str:
    """``source`` with its comments blanked out (line breaks kept, so offsets of code are
    unchanged), and the insides of its string literals too unless ``strings``; strings,
    char literals and lifetimes are read as Rust reads them, so that a ``//`` in a string
    is no comment."""

    def literal(text: str, quotes: int) -> str:
        if strings:
            return text
        return text[:quotes] + _blank(text[quotes:-1]) + text[-1:]

    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif source.startswith("/*", i):
            end, depth, j = i + 2, 1, i + 2
            while j < n and depth:
                if source.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif source.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            end = j
            out.append(_blank(source[i:end]))
            i = end
        elif raw := re.match(r'b?r(#*)"', source[i:]):
            end = source.find('"' + raw.group(1), i + raw.end())
            end = n if end < 0 else end + 1 + len(raw.group(1))
            out.append(literal(source[i:end], raw.end()))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and source[j] != '"':
                j += 2 if source[j] == "\\" else 1
            out.append(literal(source[i : j + 1], 1))
            i = j + 1
        elif char := re.match(r"'(?:\\.[^']*|[^\\'])'", source[i:]):
            out.append(char.group(0))
            i += char.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _function_spans(code: str) -> list[tuple[int, int, str]]:
    """``(start, end, name)`` of every function body in ``code`` (comments stripped):
    from the ``{`` after ``fn name`` to its matching ``}``."""
    spans = []
    for found in _FN.finditer(code):
        start = code.find("{", found.end())
        semicolon = code.find(";", found.end())
        if start < 0 or 0 <= semicolon < start:
            continue  # a declaration without a body (a trait's)
        depth, j = 0, start
        while j < len(code):
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            if depth == 0:
                break
            j += 1
        spans.append((start, j, found.group(1)))
    return spans


def _function_at(spans: list[tuple[int, int, str]], offset: int) -> str:
    """The innermost function whose body holds ``offset`` ("<module>" outside any)."""
    inside = [(start, name) for start, end, name in spans if start <= offset <= end]
    return max(inside)[1] if inside else "<module>"


def _import_target(code: str, offset: int) -> str:
    """What an import at ``offset`` (just past ``import(``) names: a literal's text, or the
    expression's first word (a variable)."""
    literal = re.match(r'"([^"]*)"', code[offset:])
    if literal:
        return literal.group(1)
    word = re.match(r"\w+", code[offset:])
    return word.group(0) if word else "?"


def places(source: str) -> set[tuple[str, str]]:
    """``(function, what)`` of every call into Python, import, attribute setting and
    ``__class__`` in ``source`` (one file): its code, not its comments or strings (but
    ``__class__`` in a string too: an attribute read by name, and the module a literal
    names for an import)."""
    code = strip_comments(source)
    masked = strip_comments(source, strings=False)
    spans = _function_spans(masked)
    found: set[tuple[str, str]] = set()
    for pattern, what in ((_CALL, "call"), (_EVAL, "call"), (_SETATTR, "setattr")):
        for match in pattern.finditer(masked):
            found.add((_function_at(spans, match.start()), what))
    for match in _CLASS.finditer(code):
        found.add((_function_at(spans, match.start()), "__class__"))
    for match in _IMPORT.finditer(masked):
        target = _import_target(code, match.end())
        found.add((_function_at(spans, match.start()), f"import {target}"))
    return found


def _sources() -> dict[str, str]:
    """Every source file of the binding by its path under src."""
    return {
        path.relative_to(BINDING).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(BINDING.rglob("*.rs"))
    }


def test_the_binding_calls_into_python_only_where_allowed() -> None:
    """Every call into Python, import, ``setattr`` and ``__class__`` of the binding is
    one of :data:`ALLOWED`, and each of those is still there."""
    sources = _sources()
    assert {"errors.rs", "moves.rs", "state.rs", "lib.rs"} <= set(sources)
    found = {(path, *place) for path, code in sources.items() for place in places(code)}
    assert sorted(found - ALLOWED) == []
    assert sorted(ALLOWED - found) == []


def test_the_binding_imports_no_pacru_module_but_its_errors() -> None:
    """The one import of a computed name (``errors::exception``) is given only the modules
    of the exception classes, and no string of the binding names another pacru module
    to import."""
    modules: set[str] = set()
    for source in _sources().values():
        modules.update(_EXCEPTION.findall(strip_comments(source)))
    assert modules == EXCEPTION_MODULES
    imported = {what for _path, _fn, what in ALLOWED if what.startswith("import ")}
    assert all(not name.startswith("import pacru") for name in imported)


_PLANTED = '''
/// Not a call: .call0() in a doc comment, py.import("pacru.rules") /* nor here */.
fn clean(py: Python<'_>) -> &'static str {
    let _ = '"'; // .call1(("x",))
    "// .call0() in a string is no comment, and no call"
}

fn planted<'py>(py: Python<'py>, obj: &Bound<'py, PyAny>) -> PyResult<()> {
    let helper = |o: &Bound<'py, PyAny>| o.call_method0("x");
    helper(obj)?;
    obj.getattr("f")?.call1((1,))?;
    obj.setattr("x", 1)?;
    let _ = obj.getattr(intern!(py, "__class__"))?;
    let _ = py.import(intern!(py, "pacru.chevron.movelist"))?;
    py.run(c"x = 1", None, None)?;
    Ok(())
}

impl Thing {
    fn method(&self, obj: &Bound<'_, PyAny>) -> PyResult<()> {
        obj.call((), None).map(drop)
    }
}
'''


def test_a_planted_call_into_python_is_caught() -> None:
    """The scan sees each kind in its function (a closure's in the function around it),
    and nothing in comments or strings."""
    assert places(_PLANTED) == {
        ("planted", "call"),
        ("planted", "setattr"),
        ("planted", "__class__"),
        ("planted", "import pacru.chevron.movelist"),
        ("method", "call"),
    }
    code = strip_comments(_PLANTED)
    assert ".call1" not in code.split("fn planted")[0]
    assert '"// .call0() in a string is no comment, and no call"' in code
    assert "in a string" not in strip_comments(_PLANTED, strings=False)
