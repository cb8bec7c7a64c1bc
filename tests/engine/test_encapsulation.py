"""Two rules about how a package's modules use each other, enforced by reading the source:

* **No cross-module underscore access.** A name that starts with one underscore is
  private to the module that defines it. Another module may not import it, nor read,
  write or call it as an attribute (``state._trump_mask``, ``getattr(x, "_win_key")``).
  The one exception is ``self``/``cls``: a subclass fills in and uses its base class's
  hooks (``_legal_bidding``, ``_result``) through its own instance; and NamedTuple's
  own public methods (``_replace``, ``_make``…) are not private.
* **No class swap**: no assignment to an object's ``__class__``.
* **No import circle** between the package's modules, counting every import wherever it
  is written (a function-local import that breaks a circle at run time is still one).
* **No class over 400 lines** (``SIZED``): a class that long does more than one job.

The checks are parametrised by package (``engine``, ``app`` and ``net``, all of it). A use of another module's private name that cannot be avoided is
listed in ``EXCEPTIONS`` with its reason, one by one, so that each is a decision.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["engine", "app", "net"]
SIZED = ["engine", "app", "net"]  # the packages held to MAX_CLASS_LINES
MAX_CLASS_LINES = 400
# file:class -> why it may still be longer for now (each one a decision, removed when split).
OVERSIZED: dict[str, str] = {}
# (file, what the scanner reports) -> why there is no other way.
EXCEPTIONS = {
    ("net/wire/transport.py", "uses ._transport"):
        "asyncio's StreamWriter.start_tls leaves the writer without a transport when the peer "
        "hangs up during the handshake; the writer gets its (closed) socket back so that it "
        "is closed and collected like any other, and asyncio offers no public way to do that",
}


# -- reading a package -------------------------------------------------------------------
def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_modules(package: str) -> dict[str, Path]:
    """Dotted module name -> source file, for every module of ``package``."""
    return {module_name(p): p for p in sorted((ROOT / package).rglob("*.py"))}


# NamedTuple's public API is spelt with one underscore so as not to clash with fields.
NAMEDTUPLE_API = {"_replace", "_make", "_asdict", "_fields", "_field_defaults"}


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in NAMEDTUPLE_API


# -- private names -------------------------------------------------------------------------
def owned_names(tree: ast.AST) -> set[str]:
    """The underscored names a module defines: functions, classes, variables, and
    attributes it assigns on ``self``/``cls``."""
    owned = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            owned.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            owned.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            owned.add(node.attr)
        elif isinstance(node, ast.arg):
            owned.add(node.arg)
    return {name for name in owned if is_private(name)}


def _through_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def private_access(source: str) -> list[tuple[int, str]]:
    """(line, what) for each use of another module's underscored name in ``source``."""
    tree = ast.parse(source)
    owned = owned_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [(node.lineno, f"imports {alias.name} from {'.' * node.level}{node.module or ''}")
                      for alias in node.names if is_private(alias.name)]
        elif isinstance(node, ast.Attribute) and is_private(node.attr):
            if not _through_self(node.value) and node.attr not in owned:
                found.append((node.lineno, f"uses .{node.attr}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2:
            target, name = node.args[0], node.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str) and is_private(name.value) \
                    and not _through_self(target) and name.value not in owned:
                found.append((node.lineno, f"{node.func.id}(…, {name.value!r})"))
    return found


def private_uses(package: str) -> list[tuple[str, int, str]]:
    """(file, line, what) for each use of another module's private name in ``package``."""
    return [(path.relative_to(ROOT).as_posix(), line, what)
            for path in package_modules(package).values()
            for line, what in private_access(path.read_text(encoding="utf-8"))]


def private_violations(package: str) -> list[str]:
    return [f"{file}:{line} {what}" for file, line, what in private_uses(package)
            if (file, what) not in EXCEPTIONS]


def class_swaps(package: str) -> list[str]:
    """Every assignment to an object's ``__class__``."""
    found = []
    for path in package_modules(package).values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "__class__" \
                    and isinstance(node.ctx, ast.Store):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno}")
    return found


def long_classes(package: str, limit: int = MAX_CLASS_LINES) -> list[str]:
    """Every class longer than ``limit`` lines, with its length."""
    found = []
    for path in package_modules(package).values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > limit:
                found.append(f"{path.relative_to(ROOT).as_posix()}:{node.name} "
                             f"{node.end_lineno - node.lineno + 1} lines")
    return found


# -- import circles ------------------------------------------------------------------------
def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports, wherever the import is written."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # "from pkg import sub" imports the submodule; "from mod import name" the module
            targets |= {f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module
                        for alias in node.names}
        elif isinstance(node, ast.Call) and _is_import_call(node) and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            targets.add(node.args[0].value)
    return {_known(t, modules) for t in targets if _known(t, modules)} - {name}


def _is_import_call(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Name) and func.id in ("__import__", "import_module")) or \
        (isinstance(func, ast.Attribute) and func.attr == "import_module")


def _known(target: str, modules: dict[str, Path]) -> str | None:
    """``target`` or its nearest enclosing module that belongs to the package."""
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


def import_circles(package: str) -> list[list[str]]:
    """Every set of modules that import each other round in a circle (Tarjan's strongly
    connected components of more than one module)."""
    modules = package_modules(package)
    graph = {name: sorted(imports_of(name, path, modules)) for name, path in modules.items()}
    return strongly_connected(graph)


def strongly_connected(graph: dict[str, list[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


# -- the scanners themselves ---------------------------------------------------------------
def test_the_private_scanner_tells_own_names_from_others():
    source = ("class A:\n"
              "    def __init__(self):\n        self._mine = 1\n"
              "    def _helper(self):\n        return self._inherited\n"
              "def f(a, other):\n"
              "    a._mine; a._helper()\n"
              "    other._theirs = 2\n"
              "    getattr(other, '_hidden')\n"
              "    return other.__class__\n"
              "from .state import _new_tuple\n")
    found = {what for _line, what in private_access(source)}
    assert found == {"uses ._theirs", "getattr(…, '_hidden')", "imports _new_tuple from .state"}
    assert private_access("def f(t):\n    return t._replace(seat=1)._asdict()\n") == []


def test_the_circle_finder_finds_a_function_local_circle(tmp_path):
    graph = {"p.a": ["p.b"], "p.b": ["p.c"], "p.c": ["p.a"], "p.d": ["p.a"], "p.e": []}
    assert strongly_connected(graph) == [["p.a", "p.b", "p.c"]]
    assert strongly_connected({"p.a": ["p.b"], "p.b": []}) == []


# -- the rules -----------------------------------------------------------------------------
@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_uses_another_modules_private_names(package):
    assert private_violations(package) == []


def test_every_listed_exception_is_still_needed():
    found = {(file, what) for package in PACKAGES for file, _line, what in private_uses(package)}
    assert set(EXCEPTIONS) <= found, "an exception no longer needed: take it off the list"


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle(package):
    assert import_circles(package) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_class_swap(package):
    assert class_swaps(package) == []


@pytest.mark.parametrize("package", SIZED)
def test_no_class_over_the_size_limit(package):
    assert [c for c in long_classes(package) if c.split(" ")[0] not in OVERSIZED] == []


def test_each_oversized_class_is_still_oversized():
    """An entry in OVERSIZED goes once its class is split."""
    long = {c.split(" ")[0] for package in SIZED for c in long_classes(package)}
    assert set(OVERSIZED) <= long


def test_the_size_check_measures_a_class_whole():
    assert long_classes("app", limit=50)  # the app has classes longer than 50 lines
