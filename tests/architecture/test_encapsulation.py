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
* **No part holds its owner** (``net`` and ``engine``): a class does not hand ``self`` to
  a part it makes (``Arrivals(self)``), for the part would reach its siblings through it;
  a part is given the collaborators it uses. (The app's Qt widgets pass ``self`` as their
  children's parent: that is Qt's ownership of the widget tree, not a part's reach.)
* **No mode switch by override**: no method of a subclass goes back to its base's own
  method when a field of its object says so (``if self.deal is None: return
  super().receive(…)``), in any form (an ``else`` branch, a conditional expression,
  ``and``/``or``, nested ifs, a ``match``, a guard that returns early): two modes in one
  class, switched per call — use a part chosen per case instead. Qt's event handlers
  that pass on what they do not take, and the few listed in ``MODE_EXCEPTIONS``, are
  not modes.

(A class's length is no rule: a limit rewarded squeezing a class to fit a number rather
than splitting it by job; ``farm-studio look`` shows the biggest rooms.)

The checks are parametrised by package (``engine``, ``app`` and ``net``, all of it). A use
of another module's private name that cannot be avoided is listed in ``EXCEPTIONS`` with
its reason, one by one, so that each is a decision; so is a part that holds its owner
today (``OWNERS``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.architecture.trees import nodes

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["engine", "app", "net"]
OWNED = ["engine", "net"]  # the packages whose parts may not hold their owner (not Qt's tree)
# file:Owner -> Part -> why it still holds its owner (each one a decision, removed when
# rewired). None today: every part of HostCore and GuestCore is given what it uses (issue 21).
OWNERS: dict[tuple[str, str, str], str] = {}
# file:Class.method -> why it may go back to its base on a condition (``mode_switches``).
MODE_EXCEPTIONS = {
    "engine/rook/rules.py:RookState._not_your_turn":
        "the widow phase's own message for a seat that already said Got it: a state of the "
        "game the rules name, not a mode of the object (every other case is the base's)",
}
QT_SLOTS = ("accept", "reject", "done")  # a dialog's buttons, overridden to validate first
# (file, what the scanner reports) -> why there is no other way.
EXCEPTIONS = {
    ("net/houses/reactor.py", "getattr(…, '_register_atexit')"):
        "Twisted's reactor runs on a thread of its own and its thread pool is not a daemon: "
        "it must be stopped before the interpreter joins non-daemon threads, which is before "
        "atexit runs (else the process hangs about a minute on exit); threading's own hook "
        "for that moment has no public name",
    ("net/wire/transport.py", "uses ._transport"):
        "asyncio's StreamWriter.start_tls leaves the writer without a transport when the peer "
        "hangs up during the handshake; the writer gets its (closed) socket back so that it "
        "is closed and collected like any other, and asyncio offers no public way to do that",
    ("net/wire/transport.py", "getattr(…, '_buffer')"):
        "a peer times the host's deadlines from the last moment nothing was waiting to be "
        "read (Connection.nothing_buffered), and asyncio's StreamReader says how much it "
        "holds nowhere else; read with a default that answers 'not empty', and "
        "test_heartbeat holds it to be empty on a quiet connection",
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
def owned_names(walked: tuple[ast.AST, ...]) -> set[str]:
    """The underscored names a module defines (``walked``: every node of its tree):
    functions, classes, variables, and attributes it assigns on ``self``/``cls``."""
    owned = set()
    for node in walked:
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


def private_access(source: str | tuple[ast.AST, ...]) -> list[tuple[int, str]]:
    """(line, what) for each use of another module's underscored name in ``source`` (its
    text, or every node of its tree)."""
    walked = tuple(ast.walk(ast.parse(source))) if isinstance(source, str) else source
    owned = owned_names(walked)
    found = []
    for node in walked:
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
            for line, what in private_access(nodes(path))]


def private_violations(package: str) -> list[str]:
    return [f"{file}:{line} {what}" for file, line, what in private_uses(package)
            if (file, what) not in EXCEPTIONS]


def class_swaps(package: str) -> list[str]:
    """Every assignment to an object's ``__class__``."""
    found = []
    for path in package_modules(package).values():
        for node in nodes(path):
            if isinstance(node, ast.Attribute) and node.attr == "__class__" \
                    and isinstance(node.ctx, ast.Store):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno}")
    return found


def package_classes(package: str) -> set[str]:
    return {node.name for path in package_modules(package).values()
            for node in nodes(path)
            if isinstance(node, ast.ClassDef)}


def parts_holding_their_owner(package: str) -> set[tuple[str, str, str]]:
    """(file, class, part) for each class of the package a method of ``class`` makes with
    ``self`` among its arguments (a copy of itself, ``Seats(self)``, is no part)."""
    known, found = package_classes(package), set()
    for path in package_modules(package).values():
        for owner in nodes(path):
            if not isinstance(owner, ast.ClassDef):
                continue
            for call in ast.walk(owner):
                name = _called_name(call)
                if name in known and name != owner.name and any(
                        isinstance(a, ast.Name) and a.id == "self"
                        for a in [*call.args, *(k.value for k in call.keywords)]):
                    found.add((path.relative_to(ROOT).as_posix(), owner.name, name))
    return found


def _called_name(node: ast.AST) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def mode_switches(package: str) -> list[str]:
    """Every method that goes back to its base's own method only when its object says so:
    a ``super().same(...)`` call under a condition that reads ``self`` (or a name taken
    from it), in any form — an ``if``/``elif``/``else`` branch at any depth, a conditional
    expression, an ``and``/``or`` operand after one, a ``match`` on it, or after an early
    ``return`` such a condition guards. (A guard that raises is a refusal, not a mode.)"""
    found = []
    for path in package_modules(package).values():
        for cls in nodes(path):
            if not isinstance(cls, ast.ClassDef):
                continue
            for method in (f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))):
                if _SuperUnderCondition(method).found():
                    found.append(f"{path.relative_to(ROOT).as_posix()}:{cls.name}.{method.name}")
    return [f for f in found if f not in MODE_EXCEPTIONS and not _qt_handoff(f)]


def _qt_handoff(found: str) -> bool:
    """A Qt widget's event handler or dialog button (``keyPressEvent``, ``accept``) that
    passes on what it does not take: Qt's own protocol (an event goes on to the base),
    not a mode of the widget."""
    where, _, method = found.rpartition(".")
    return where.startswith("app/") and (method.endswith("Event") or method in QT_SLOTS)


class _SuperUnderCondition:
    """Whether ``method`` calls its base's same method on a condition its object decides."""

    def __init__(self, method: ast.FunctionDef | ast.AsyncFunctionDef):
        self.name = method.name
        self.body = method.body
        self.from_self = _names_taken_from_self(method)

    def found(self) -> bool:
        return self._in_block(self.body, False)

    def _reads_self(self, test: ast.AST) -> bool:
        return any(isinstance(n, ast.Name) and n.id in self.from_self for n in ast.walk(test))

    def _in_block(self, block: list[ast.stmt], conditional: bool) -> bool:
        for statement in block:
            if self._in_statement(statement, conditional):
                return True
            if isinstance(statement, ast.If) and self._reads_self(statement.test) \
                    and any(branch and isinstance(branch[-1], ast.Return)
                            for branch in (statement.body, statement.orelse)):
                conditional = True  # the rest runs only when the guard lets it
        return False

    def _in_statement(self, statement: ast.stmt, conditional: bool) -> bool:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return False  # (a zero-argument super() is the method's own, not a closure's)
        if isinstance(statement, (ast.If, ast.While)):
            inner = conditional or self._reads_self(statement.test)
            return self._in_expression(statement.test, conditional) \
                or self._in_block(statement.body, inner) or self._in_block(statement.orelse, inner)
        if isinstance(statement, ast.Match):
            inner = conditional or self._reads_self(statement.subject)
            return self._in_expression(statement.subject, conditional) or any(
                self._in_block(case.body, inner) for case in statement.cases)
        blocks = [value for _, value in ast.iter_fields(statement)
                  if isinstance(value, list) and value and isinstance(value[0], ast.stmt)]
        handlers = getattr(statement, "handlers", [])
        return any(self._in_block(b, conditional) for b in blocks) \
            or any(self._in_block(h.body, conditional) for h in handlers) \
            or any(self._in_expression(child, conditional) for child in ast.iter_child_nodes(statement)
                   if isinstance(child, ast.expr))

    def _in_expression(self, node: ast.expr, conditional: bool) -> bool:
        if isinstance(node, ast.Lambda):
            return False
        if _calls_super(node, self.name):
            return conditional or any(self._in_expression(a, conditional) for a in node.args)  # type: ignore[attr-defined]
        if isinstance(node, ast.IfExp):
            inner = conditional or self._reads_self(node.test)
            return self._in_expression(node.test, conditional) \
                or self._in_expression(node.body, inner) or self._in_expression(node.orelse, inner)
        if isinstance(node, ast.BoolOp):
            for i, value in enumerate(node.values):
                if self._in_expression(value, conditional or any(self._reads_self(v) for v in node.values[:i])):
                    return True
            return False
        return any(self._in_expression(child, conditional) for child in ast.iter_child_nodes(node)
                   if isinstance(child, ast.expr))


def _names_taken_from_self(method: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """``self`` and every local name assigned from an expression that reads it
    (``party = self.party``; ``t, hand = self.t, self.hand``)."""
    names = {"self"}
    assignments = [n for n in ast.walk(method) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr))]
    while True:
        more = {target.id for a in assignments if a.value is not None
                and any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(a.value))
                for t in (a.targets if isinstance(a, ast.Assign) else [a.target])
                for target in ast.walk(t) if isinstance(target, ast.Name)}
        if more <= names:
            return names
        names |= more


def _calls_super(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr == name and isinstance(node.func.value, ast.Call) \
        and isinstance(node.func.value.func, ast.Name) and node.func.value.func.id == "super"


# -- import circles ------------------------------------------------------------------------
def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports, wherever the import is written."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in nodes(path):
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


@pytest.mark.parametrize("package", OWNED)
def test_no_part_holds_its_owner(package):
    listed = {key for key in OWNERS if key[0].startswith(package + "/")}
    assert parts_holding_their_owner(package) - listed == set()


def test_every_part_listed_as_holding_its_owner_still_does():
    """An entry in OWNERS goes once its part is given only what it uses."""
    found = set().union(*(parts_holding_their_owner(p) for p in OWNED))
    assert set(OWNERS) <= found, "a part no longer holds its owner: take it off the list"


@pytest.mark.parametrize("package", PACKAGES)
def test_no_class_switches_mode_by_going_back_to_its_base(package):
    assert mode_switches(package) == []


def test_every_listed_mode_exception_is_still_needed():
    found = {f for package in PACKAGES for f in _all_mode_switches(package)}
    assert set(MODE_EXCEPTIONS) <= found, "a mode exception no longer needed: take it off the list"


def _all_mode_switches(package: str) -> list[str]:
    """``mode_switches`` before its exceptions are taken off."""
    exceptions = dict(MODE_EXCEPTIONS)
    MODE_EXCEPTIONS.clear()
    try:
        return mode_switches(package)
    finally:
        MODE_EXCEPTIONS.update(exceptions)


#: Methods each going back to ``super()`` on a condition its object decides, in one form.
_MODE_SWITCHES = {
    "if_branch": "if self.deal is None:\n        return super().m(x)\n    return 1",
    "else_branch": "if self.deal:\n        return 1\n    else:\n        return super().m(x)",
    "elif_branch": "if x:\n        return 1\n    elif self.deal:\n        super().m(x)",
    "nested_if": "if x:\n        if self.deal:\n            super().m(x)",
    "statement": "if self.deal:\n        super().m(x)\n    return 2",
    "conditional_expression": "return super().m(x) if self.deal else None",
    "conditional_expression_else": "return None if self.deal else super().m(x)",
    "and": "return self.deal and super().m(x)",
    "or": "return not self.deal or super().m(x)",
    "guard_return": "if self.deal:\n        return 1\n    return super().m(x)",
    "guard_return_bare": "if not self.deal:\n        return\n    super().m(x)",
    "local_from_self": "deal = self.deal\n    if deal is None:\n        return super().m(x)",
    "match": "match self.deal:\n        case None:\n            return super().m(x)",
    "while": "while self.deal:\n        super().m(x)",
    "in_a_loop": "for y in x:\n        if self.deal:\n            super().m(y)",
}
#: Methods that are no mode switch: a hook on its argument, a refusal, an extension.
_NO_MODE_SWITCHES = {
    "on_argument": "if not x:\n        return super().m(x)",
    "always": "y = self.deal\n    return super().m(x)",
    "guard_raises": "if self.deal:\n        raise ValueError(x)\n    return super().m(x)",
    "branch_without_return": "if self.deal:\n        x = 2\n    return super().m(x)",
    "other_method": "if self.deal:\n        return super().other(x)",
    "argument_or": "return x or super().m(x)",
    "closure": "def later():\n        if self.deal:\n            return super().m(x)\n    return later",
}


@pytest.mark.parametrize("form", sorted(_MODE_SWITCHES))
def test_the_mode_switch_scanner_finds_a_conditional_super_in_any_form(form, tmp_path, monkeypatch):
    source = f"class Mode(Base):\n    def m(self, x):\n    {_indent(_MODE_SWITCHES[form])}\n"
    assert _scan_source(tmp_path, monkeypatch, source) == ["pkg/mod.py:Mode.m"], source


@pytest.mark.parametrize("form", sorted(_NO_MODE_SWITCHES))
def test_the_mode_switch_scanner_leaves_what_is_no_mode(form, tmp_path, monkeypatch):
    source = f"class Mode(Base):\n    def m(self, x):\n    {_indent(_NO_MODE_SWITCHES[form])}\n"
    assert _scan_source(tmp_path, monkeypatch, source) == [], source


def _indent(body: str) -> str:
    return "    " + body.replace("\n", "\n    ")


def _scan_source(tmp_path, monkeypatch, source: str) -> list[str]:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "mod.py").write_text(source)
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    return mode_switches("pkg")


def test_the_structure_scanners_see_what_they_look_for(tmp_path, monkeypatch):
    source = ("class Core:\n"
              "    def __init__(self):\n        self.part = Part(self)\n        self.copy = Core(self)\n"
              "class Part:\n    pass\n"
              "class Mode(Base):\n"
              "    def receive(self, m):\n"
              "        if self.deal is None:\n            return super().receive(m)\n"
              "        return 1\n"
              "    def hook(self, view):\n"
              "        if not view:\n            return super().hook(view)\n")
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "mod.py").write_text(source)
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert parts_holding_their_owner("pkg") == {("pkg/mod.py", "Core", "Part")}
    assert mode_switches("pkg") == ["pkg/mod.py:Mode.receive"]  # a hook on its argument is no mode
