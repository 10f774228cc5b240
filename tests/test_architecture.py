"""The package's structure (docs/architecture.rst): its layers, no import circle, no long module.

The import graph is read from the source with :mod:`ast`, without importing
anything: every runtime import counts, at module level and inside functions
(a lazy import is still a dependency), while imports under ``if TYPE_CHECKING:``
are left out (they never run). ``importlib.import_module`` with a literal
``"pacru...."`` name counts too; a module that calls it with a computed name
depends on every ``"pacru...."`` literal it holds (its table of module names),
and on every module under the constant prefix of an f-string name.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "pacru"

#: The longest a source file in src/pacru may be (lines).
MAX_LINES = 600


def module_name(path: Path) -> str:
    """The dotted module name of a source file under ``src``."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def compiled_modules() -> frozenset[str]:
    """The modules of the package without Python source: compiled extensions and their stubs."""
    files = [p for ext in ("pyi", "so", "pyd") for p in PACKAGE.rglob(f"*.{ext}")]
    return frozenset(module_name(p.with_name(p.name.partition(".")[0] + ".py")) for p in files)


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _runtime_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """Every node below ``node`` except the bodies of ``if TYPE_CHECKING:`` blocks."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield other
                yield from _runtime_nodes(other)
            continue
        yield child
        yield from _runtime_nodes(child)


def _is_import_module_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return name in {"import_module", "__import__"}


def imports_of(
    name: str, path: Path, modules: dict[str, Path], compiled: frozenset[str] = frozenset()
) -> set[str]:
    """The pacru modules that module ``name`` imports at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    dynamic = False
    literals: set[str] = set()
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                # ``from pacru.chevron import state`` imports a module; ``from
                # pacru.chevron.state import ChevronState`` imports from one.
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules or sub in compiled else base)
        elif _is_import_module_call(node):
            assert isinstance(node, ast.Call)
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(arg.value)
            elif isinstance(arg, ast.JoinedStr) and arg.values:
                head = arg.values[0]
                if isinstance(head, ast.Constant) and isinstance(head.value, str):
                    found.update(m for m in modules if m.startswith(head.value))
            else:
                dynamic = True
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            # An f-string's constant head ("pacru.commands.") is no module name.
            and node.value.startswith("pacru.")
            and not node.value.endswith(".")
        ):
            literals.add(node.value)
    if dynamic:
        found.update(literals)
    # The package's modules: its source files, and its compiled extensions (known by their
    # stubs), which import nothing of the package, so close no circle, but are targets that
    # the layering checks must see (who imports ``pacru._native``).
    return found & (modules.keys() | compiled)


def import_graph() -> dict[str, set[str]]:
    """The runtime import graph of the package: module -> the modules it imports."""
    modules, compiled = all_modules(), compiled_modules()
    return {name: imports_of(name, path, modules, compiled) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected components of more than one module, and
    modules that import themselves (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    found.append(sorted(component))
    return sorted(found)


def _path(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One concrete circle through the component's first module (breadth-first)."""
    members = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for step in sorted(graph[node] & members):
                if step == start:
                    chain = [node]
                    while chain[-1] != start:
                        chain.append(previous[chain[-1]])
                    return [*reversed(chain), start]
                if step not in previous:
                    previous[step] = node
                    following.append(step)
        frontier = following
    return [start, start]


def test_no_import_circle() -> None:
    """No module imports itself or reaches itself through others (docs/architecture.rst)."""
    graph = import_graph()
    found = circles(graph)
    report = [
        f"{len(component)} modules: {', '.join(component)}\n"
        f"    e.g. {' -> '.join(_path(graph, component))}"
        for component in found
    ]
    assert not found, "import circles in src/pacru:\n  " + "\n  ".join(report)


#: The bottom of the package: the words every layer uses, and the protocol of a game.
#: These import nothing game-specific and nothing above them.
VOCABULARY = frozenset(
    {
        "pacru._version",
        "pacru._integers",
        "pacru.errors",
        "pacru._status",
        "pacru.geometry",
        "pacru.explanation",
        "pacru.base",
        "pacru.drawable",
    }
)
#: The two game families: each is self-contained above the vocabulary.
FAMILIES = ("pacru.chevron", "pacru.lsd")
#: The move grammars, the only family modules the shared drawing code reads.
GRAMMARS = frozenset({"pacru.chevron.move", "pacru.lsd.moves"})


def _family(module: str) -> str | None:
    return next((f for f in FAMILIES if module == f or module.startswith(f + ".")), None)


def _breaches(allowed: Callable[[str, str], bool], sources: Callable[[str], bool]) -> list[str]:
    graph = import_graph()
    return sorted(
        f"{source} -> {target}"
        for source, targets in graph.items()
        if sources(source)
        for target in targets
        if not allowed(source, target)
    )


def test_vocabulary_and_protocol_import_nothing_above() -> None:
    """errors, status, geometry, explain, base, drawable: no game and no tool above them."""
    assert _breaches(lambda _, target: target in VOCABULARY, VOCABULARY.__contains__) == []


#: The one import between the families: LSD's side of the engine boundary asks the package's
#: engine boundary which engine is in use (one choice, one place that reads PACRU_ENGINE).
ENGINE_BRIDGE = ("pacru.lsd.native", "pacru.chevron.engine")


def test_each_family_stands_on_the_vocabulary_alone() -> None:
    """chevron/ and lsd/ import their own modules, the vocabulary and the drawing; not each
    other (but for ENGINE_BRIDGE), and nothing that uses them (games, records, encoding, bots,
    the command line)."""

    def allowed(source: str, target: str) -> bool:
        if target == "pacru._native":  # the extension: the engine boundary's native side
            return source in NATIVE_IMPORTERS
        if (source, target) == ENGINE_BRIDGE:
            return True
        return _family(target) == _family(source) or target in VOCABULARY | {"pacru.svg"}

    assert _breaches(allowed, lambda module: _family(module) is not None) == []


#: The family states, and the only modules that import them at run time: those that build
#: states (position readers, starting layouts), the package's entry points, and the
#: engines' concrete state classes with the boundary that picks one of them. Every other
#: family module is a helper below its state, which reads the state it is given as a value.
STATES = frozenset({"pacru.chevron.state", "pacru.chevron.pystate", "pacru.lsd.state"})
STATE_BUILDERS = frozenset(
    {
        "pacru.chevron",
        "pacru.chevron.notation",
        "pacru.chevron.setup",
        "pacru.chevron.pystate",
        "pacru.chevron.native",
        "pacru.chevron.engine",
        "pacru.lsd",
        "pacru.lsd.position",
    }
)


def test_only_builders_import_a_state_in_its_family() -> None:
    """Explanation, SAN, rendering, the position string and hashing import no state class at
    run time: the state calls them from its own methods, never the reverse."""

    def allowed(source: str, target: str) -> bool:
        return target not in STATES or source in STATE_BUILDERS

    assert _breaches(allowed, lambda module: _family(module) is not None) == []


def test_drawing_imports_no_state() -> None:
    """svg.py draws through pacru.drawable's interfaces; of the families it reads only the
    move grammars (to mark a last move given as text)."""

    def allowed(_: str, target: str) -> bool:
        return target in VOCABULARY | GRAMMARS

    assert _breaches(allowed, {"pacru.svg"}.__contains__) == []


def test_no_long_module() -> None:
    """No source file in src/pacru is over MAX_LINES lines."""
    long = {
        str(path.relative_to(PACKAGE)): count
        for path in PACKAGE.rglob("*.py")
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_no_long_rust_source() -> None:
    """No Rust source file of a crate is over MAX_LINES lines either (a long one is split
    by meaning into a module folder, as ``pacru_batch``'s ``decision``)."""
    rust = SRC.parent / "rust"
    sources = sorted(rust.glob("*/src/**/*.rs")) + sorted(rust.glob("*/tests/**/*.rs"))
    assert len(sources) > 40
    long = {
        str(path.relative_to(rust)): count
        for path in sources
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


#: The learning adapters on pacru.vector: they use its public attributes only.
VECTOR_ADAPTERS = ("pacru.gymnasium_vector", "pacru.sb3")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_reads(tree: ast.AST) -> list[str]:
    """The private attributes a module reads of objects other than its own instance
    (``x._y``, ``self.env._y``; ``self._y`` and ``cls._y`` are its own), and the private
    names or modules it imports from :mod:`pacru.vector` (``from pacru.vector import _y``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            own = isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}
            if not own:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pacru.vector"):
            parts = [*(node.module or "").split("."), *(a.name for a in node.names)]
            if any(_private(part) for part in parts):
                found.append(f"line {node.lineno}: from {node.module} import ...")
    return found


def test_the_adapters_use_only_the_public_attributes_of_the_vector_layer() -> None:
    """gymnasium_vector.py and sb3.py read no private attribute of a VectorEnv, a
    VectorState or anything else (what they need is a public, documented member)."""
    modules = all_modules()
    reads = {
        name: _private_reads(ast.parse(modules[name].read_text(encoding="utf-8")))
        for name in VECTOR_ADAPTERS
    }
    assert reads == {name: [] for name in VECTOR_ADAPTERS}


def test_a_private_read_in_an_adapter_is_caught() -> None:
    tree = ast.parse(
        "from pacru.vector import VectorEnv, _restore_env\n"
        "from pacru.vector._x import y\n"
        "class A:\n"
        "    def f(self, env, state):\n"
        "        self._mine, cls._too, env.__class__\n"
        "        return env._loop, state._games, self.env._advance(state)\n"
    )
    assert _private_reads(tree) == [
        "line 1: from pacru.vector import ...",
        "line 2: from pacru.vector._x import ...",
        "line 6: env._loop",
        "line 6: state._games",
        "line 6: self.env._advance",
    ]


# The checker checked: it must see each kind of import, or a circle could hide.


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    package = tmp_path / "pacru"
    (package / "sub").mkdir(parents=True)
    this = sys.modules[__name__]
    monkeypatch.setattr(this, "SRC", tmp_path)
    monkeypatch.setattr(this, "PACKAGE", package)
    return package


def _write(package: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        (package / relative).write_text(text, encoding="utf-8")


def test_graph_sees_every_runtime_import_form(toy: Path) -> None:
    _write(
        toy,
        {
            "__init__.py": "",
            "a.py": (
                "from typing import TYPE_CHECKING\n"
                "import pacru.b\n"
                "import pacru._compiled\n"  # no source here: an extension module
                "from pacru import _stubbed\n"  # an extension module with its stub
                "if TYPE_CHECKING:\n    import pacru.c\n"
                "else:\n    from pacru import d\n"
                "def f():\n    from .sub.e import X\n"
                "def g():\n    import importlib\n    importlib.import_module('pacru.sub')\n"
            ),
            "b.py": "from pacru.sub import e\n",
            "c.py": "",
            "d.py": "",
            "_stubbed.pyi": "",
            "sub/__init__.py": "from . import e\nfrom .. import c\n",
            "sub/e.py": "from ..b import thing\n",
        },
    )
    graph = import_graph()
    # pacru._stubbed counts (an extension, known by its stub); pacru._compiled has neither
    # source nor stub here, so it is no module of this package.
    assert graph["pacru.a"] == {"pacru.b", "pacru.d", "pacru.sub.e", "pacru.sub", "pacru._stubbed"}
    assert graph["pacru.b"] == {"pacru.sub.e"}
    assert graph["pacru.sub"] == {"pacru.sub.e", "pacru.c"}
    assert graph["pacru.sub.e"] == {"pacru.b"}
    assert circles(graph) == [["pacru.b", "pacru.sub.e"]]


def test_graph_sees_tables_of_module_names(toy: Path) -> None:
    _write(
        toy,
        {
            "__init__.py": "",
            "a.py": (
                "import importlib\n_TABLE = {'x': 'pacru.b'}\n"
                "def f(n):\n    return importlib.import_module(_TABLE[n])\n"
                "def g(n):\n    return importlib.import_module(f'pacru.sub.{n}')\n"
            ),
            "b.py": "",
            "sub/__init__.py": "",
            "sub/e.py": "import pacru.sub.e\n",
        },
    )
    graph = import_graph()
    assert graph["pacru.a"] == {"pacru.b", "pacru.sub.e"}
    assert circles(graph) == [["pacru.sub.e"]]


#: The Python engine behind the engine boundary (:mod:`pacru.chevron.engine`): move
#: generation, its families, applying a move and the end of the game.
PYTHON_ENGINE = frozenset(
    {
        "pacru.chevron.movegen",
        "pacru.chevron.families",
        "pacru.chevron.resolve",
        "pacru.chevron.ending",
    }
)
#: The only other modules that reach into it, each for a reason the boundary does not cover:
#: the boundary itself and the native engine's Python side (which builds the same family
#: objects), the Python engine's state class (its moves and successors), the shared state
#: (the power of movement query), the diagnosis of a refused move (the readable rules
#: explain a refusal for both engines) and the judging of a typed-in position.
ENGINE_CLIENTS = frozenset(
    {
        "pacru.chevron.engine",
        "pacru.chevron.native",
        "pacru.chevron.pystate",
        "pacru.chevron.state",
        "pacru.chevron.legality",
        "pacru.chevron.position",
    }
)


def test_nothing_reaches_around_the_engine_boundary() -> None:
    """Move generation and application are reached through pacru.chevron.engine only."""

    def allowed(source: str, target: str) -> bool:
        return target not in PYTHON_ENGINE or source in PYTHON_ENGINE | ENGINE_CLIENTS | {
            "pacru.chevron.movelist"
        }

    assert _breaches(allowed, lambda module: True) == []


#: The modules that import the extension ``pacru._native`` at run time: the engine boundary
#: (to know whether it is there, and for the native search on either engine) with its
#: native side (imported by the boundary alone, when the native engine is chosen, and by
#: the batch layer), and the batch layer of :mod:`pacru.vector`, which steps whole batches
#: inside the extension (docs/architecture.rst). Everyone else asks the boundary's engine
#: object (``pacru.chevron.engine.OPS``). At most three, and to shrink, not to grow.
NATIVE_IMPORTERS = frozenset(
    {"pacru.chevron.engine", "pacru.chevron.native", "pacru.vector.native"}
)


def _extension_breaches() -> list[str]:
    """The imports of ``pacru._native`` (and of the boundary's native side) from elsewhere."""

    def allowed(source: str, target: str) -> bool:
        if target == "pacru.chevron.native":  # the native side of the boundary
            return source in NATIVE_IMPORTERS - {"pacru.chevron.native"}
        return target != "pacru._native" or source in NATIVE_IMPORTERS

    return _breaches(allowed, lambda module: True)


def _extension_importers() -> set[str]:
    """The modules that import ``pacru._native`` at run time."""
    return {name for name, targets in import_graph().items() if "pacru._native" in targets}


def test_only_the_boundary_and_the_batch_layer_import_the_extension() -> None:
    assert _extension_breaches() == []
    # The list is exact (no stale entry to let a new importer in) and short.
    assert _extension_importers() == NATIVE_IMPORTERS
    assert len(NATIVE_IMPORTERS) <= 3


def test_an_import_of_the_extension_elsewhere_is_caught(toy: Path) -> None:
    """The check fails on a planted import of the extension, in each form: the graph keeps
    the compiled module (known by its stub) as a target; and on an import of the
    boundary's native side from elsewhere."""
    (toy / "chevron").mkdir()
    _write(
        toy,
        {
            "__init__.py": "",
            "_native.pyi": "",
            "planted.py": "import pacru._native\n",
            "lazy.py": "def f():\n    from pacru import _native\n",
            "named.py": "import importlib\nimportlib.import_module('pacru._native')\n",
            "chevron/__init__.py": "",
            "chevron/native.py": "",
            "client.py": "from pacru.chevron.native import NativeEngine\n",
        },
    )
    assert _extension_breaches() == [
        "pacru.client -> pacru.chevron.native",
        "pacru.lazy -> pacru._native",
        "pacru.named -> pacru._native",
        "pacru.planted -> pacru._native",
    ]
    assert _extension_importers() == {"pacru.lazy", "pacru.named", "pacru.planted"}


def _raw_extension_reads(tree: ast.AST) -> Iterator[ast.AST]:
    """The extension module asked of the boundary itself: ``native_module`` named
    (called, imported or handed on), not an operation of its engine object."""
    for node in ast.walk(tree):
        named = (isinstance(node, ast.Name) and node.id == "native_module") or (
            isinstance(node, ast.Attribute) and node.attr == "native_module"
        )
        imported = isinstance(node, ast.ImportFrom) and any(
            alias.name == "native_module" for alias in node.names
        )
        if named or imported:
            yield node


def _raw_extension_readers() -> list[str]:
    return sorted(
        name
        for name, path in all_modules().items()
        if any(_raw_extension_reads(ast.parse(path.read_text(encoding="utf-8"))))
    )


def test_only_the_boundary_reads_the_extension_module() -> None:
    """``pacru.chevron.engine.native_module()`` (the raw extension module) is the
    boundary's own: every other module asks for an operation of its engine object."""
    assert _raw_extension_readers() == ["pacru.chevron.engine"]


def test_a_read_of_the_extension_module_elsewhere_is_caught(toy: Path) -> None:
    _write(
        toy,
        {
            "__init__.py": "",
            "a.py": "from pacru.chevron.engine import native_module\nx = native_module()\n",
            "b.py": "from pacru.chevron import engine\next = engine.native_module()\n",
            "c.py": "import pacru.chevron.engine as e\nget = e.native_module\n",
            "d.py": "from pacru.chevron.engine import SEARCH\nSEARCH.searcher()\n",
        },
    )
    assert _raw_extension_readers() == ["pacru.a", "pacru.b", "pacru.c"]


def _environment_reads(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes that read the environment variable PACRU_ENGINE: a call with the
    literal name as an argument (``os.environ.get``, ``os.getenv``) or a subscript."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            args: list[ast.expr] = [*node.args, *(k.value for k in node.keywords)]
        elif isinstance(node, ast.Subscript):
            args = [node.slice]
        else:
            continue
        if any(isinstance(a, ast.Constant) and a.value == "PACRU_ENGINE" for a in args):
            yield node


def _engine_attribute_reads(tree: ast.AST) -> Iterator[ast.AST]:
    """The engine's name read: ``ENGINE`` as an attribute (``pacru.ENGINE``,
    ``engine.ENGINE``, ``pacru.chevron.engine.ENGINE``) or imported from a pacru module
    (``from pacru.chevron.engine import ENGINE``), and the engine object's name
    (``OPS.name``, ``engine.OPS.name``). A module that reads it branches on the engine."""
    for node in ast.walk(tree):
        attribute = isinstance(node, ast.Attribute) and (
            node.attr == "ENGINE" or (node.attr == "name" and _names(node.value, "OPS"))
        )
        imported = (
            isinstance(node, ast.ImportFrom)
            and (node.module or "").split(".")[0] in {"pacru", ""}
            and any(alias.name == "ENGINE" for alias in node.names)
        )
        if attribute or imported:
            yield node


def _names(node: ast.expr, name: str) -> bool:
    """Whether ``node`` is the name ``name`` or an attribute ``name`` of something."""
    if isinstance(node, ast.Name):
        return node.id == name
    return isinstance(node, ast.Attribute) and node.attr == name


#: The modules besides the boundary that read the engine's name: the package's face
#: alone, which re-exports it as ``pacru.ENGINE`` (a name shown, no branch on it). Every
#: other module asks the boundary's engine object (``pacru.chevron.engine.OPS``) for what
#: it needs of the engine in use. Not to grow.
ENGINE_READERS = frozenset({"pacru"})


def _engine_readers() -> list[str]:
    return sorted(
        name
        for name, path in all_modules().items()
        if any(_engine_attribute_reads(ast.parse(path.read_text(encoding="utf-8"))))
    )


def test_only_the_boundary_picks_the_engine() -> None:
    """PACRU_ENGINE is read by pacru.chevron.engine alone, and no module outside
    ENGINE_READERS reads the engine's name (they ask pacru.chevron.engine)."""
    readers = sorted(
        name
        for name, path in all_modules().items()
        if any(_environment_reads(ast.parse(path.read_text(encoding="utf-8"))))
    )
    assert readers == ["pacru.chevron.engine"]
    assert set(_engine_readers()) - {"pacru.chevron.engine"} == ENGINE_READERS


def test_a_branch_on_the_engine_elsewhere_is_caught(toy: Path) -> None:
    _write(
        toy,
        {
            "__init__.py": "",
            "a.py": "from pacru.chevron.engine import ENGINE\n",
            "b.py": "from .chevron import engine\nif engine.ENGINE == 'native':\n    pass\n",
            "c.py": "import pacru\nx = pacru.ENGINE\n",
            "d.py": "ENGINE = 'mine'\n",
            "e.py": "import pacru.chevron.engine\nx = pacru.chevron.engine.ENGINE == 'python'\n",
            "f.py": "from pacru.chevron.engine import OPS\nif OPS.name == 'native':\n    pass\n",
            "g.py": "from pacru.chevron import engine\nx = engine.OPS.name\n",
            "h.py": "from pacru.chevron.engine import OPS\nif OPS.batches:\n    pass\n",
        },
    )
    assert _engine_readers() == ["pacru.a", "pacru.b", "pacru.c", "pacru.e", "pacru.f", "pacru.g"]


def test_the_boundary_checks_see_what_they_look_for() -> None:
    tree = ast.parse(
        "import os, pacru\nos.environ.get('PACRU_ENGINE')\nos.environ['PACRU_ENGINE']\n"
        "os.getenv(key='PACRU_ENGINE')\npacru.ENGINE\nfrom pacru import ENGINE\n"
        "'PACRU_ENGINE'\n"
    )
    assert len(list(_environment_reads(tree))) == 3
    assert len(list(_engine_attribute_reads(tree))) == 2


def test_every_crate_forbids_unsafe_code() -> None:
    """Every Rust crate's root forbids ``unsafe`` (the stable ABI promises no object
    layout: the extension never touches CPython's memory), and no code line says it."""
    rust = SRC.parent / "rust"
    crates = sorted(path.parent for path in rust.glob("*/Cargo.toml"))
    assert {c.name for c in crates} >= {"batch", "engine", "python", "search"}
    for crate in crates:
        root = (crate / "src" / "lib.rs").read_text(encoding="utf-8").splitlines()
        assert "#![forbid(unsafe_code)]" in root, crate.name
        for source in sorted((crate / "src").rglob("*.rs")):
            for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("//", 1)[0]
                assert "unsafe" not in code.replace("unsafe_code", ""), f"{source}:{number}"


#: The modules allowed to assign ``__class__``: none (the Python engine builds its frozen
#: moves and states through their slots' descriptors, never as a retyped draft).
RETYPERS: frozenset[str] = frozenset()


def _module_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements a module runs at import (inside its ``if``, ``try`` and ``with``
    blocks too), not those of its functions and classes."""
    for node in body:
        if isinstance(node, ast.If | ast.With):
            yield from _module_statements(node.body)
            yield from _module_statements(getattr(node, "orelse", []))
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _module_statements(block)
            for handler in node.handlers:
                yield from _module_statements(handler.body)
        else:
            yield node


def _retypings(tree: ast.Module) -> Iterator[str]:
    """``x.__class__ = ...``, ``setattr(...)`` on anything but ``self``, and an attribute
    assigned at import (``SomeClass.method = f``): a class patched after its definition,
    a frozen object written around its refusal."""
    for statement in _module_statements(tree.body):
        if isinstance(statement, ast.Assign | ast.AugAssign | ast.AnnAssign):
            assigned = (
                statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            )
            if any(isinstance(t, ast.Attribute) for t in assigned):
                yield "patch"
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr == "__class__" for t in targets):
                yield "__class__"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and not (node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == "self")
        ):
            yield "setattr"


def _retypers() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for name, path in all_modules().items():
        kinds = set(_retypings(ast.parse(path.read_text(encoding="utf-8"))))
        if kinds:
            found[name] = kinds
    return found


def test_no_class_is_patched_and_no_object_is_retyped() -> None:
    """No ``setattr`` on a class (or any object but ``self``) and no attribute assigned at
    import anywhere in the package, and ``__class__`` assigned only where
    :data:`RETYPERS` says: nowhere."""
    assert _retypers() == {name: {"__class__"} for name in RETYPERS}


def test_a_patched_class_or_a_retyped_object_is_caught(toy: Path) -> None:
    _write(
        toy,
        {
            "__init__.py": "",
            "a.py": "class A:\n    pass\nsetattr(A, 'x', 1)\n",
            "b.py": "def f(o, c):\n    o.__class__ = c\n",
            "c.py": "class C:\n    def set(self, v):\n        setattr(self, 'v', v)\n",
            "d.py": "class D:\n    pass\nif D:\n    D.method = len\n",
        },
    )
    assert _retypers() == {
        "pacru.a": {"setattr"},
        "pacru.b": {"__class__"},
        "pacru.d": {"patch"},
    }
