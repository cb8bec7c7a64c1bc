"""The spec's exclude list must never drop a module Parlour imports.

Every ``import`` in app/, net/ and engine/ (at any depth: lazy imports inside
functions count, they are the ones a bundle misses silently) is found with ``ast``
and checked against packaging/lean.py's EXCLUDES, the list the spec passes to
PyInstaller. The developer tools the spec does not collect (lean.DEV_TOOLS) are not
scanned, and nothing else may import them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"

SOURCES = ("app", "net", "engine")


def _resolve(path: Path, node: ast.ImportFrom) -> str:
    """The absolute module a ``from … import`` names (relative ones resolved)."""
    if not node.level:
        return node.module or ""
    package = list(path.relative_to(ROOT).with_suffix("").parts)
    base = package[:len(package) - node.level]
    return ".".join(base + ([node.module] if node.module else []))


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(skip=lambda module: False) -> dict[str, str]:
    """Every module (and ``module.name`` that may be a submodule) imported in our
    sources, but for the modules ``skip`` names -> the first file that imports it."""
    found: dict[str, str] = {}
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if skip(_module_name(path)):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            where = str(path.relative_to(ROOT))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        found.setdefault(alias.name, where)
                elif isinstance(node, ast.ImportFrom):
                    module = _resolve(path, node)
                    found.setdefault(module, where)
                    for alias in node.names:
                        found.setdefault(f"{module}.{alias.name}", where)
    return found


def test_nothing_parlour_imports_is_excluded(lean):
    offenders = {module: f"{where} (excluded by {lean.excluded(module)!r})"
                 for module, where in imported_modules(lean.dev_tool).items()
                 if lean.excluded(module)}
    assert not offenders, f"the spec excludes modules Parlour imports: {offenders}"


def test_the_app_never_imports_a_developer_tool(lean):
    offenders = {module: where for module, where in imported_modules(lean.dev_tool).items()
                 if lean.dev_tool(module)}
    assert not offenders, f"the bundle leaves these out, yet Parlour imports them: {offenders}"
    # Guards the guard: the tools themselves do import one another.
    assert any(lean.dev_tool(module) for module in imported_modules())


def test_the_scan_sees_lazy_and_compiled_imports():
    # Guards the guard: an import scan that found nothing would pass the test above.
    modules = imported_modules()
    for needed in ("PySide6.QtWidgets", "PySide6.QtSvg", "sqlite3", "ssl", "asyncio",
                   "msgpack", "zeroconf", "cryptography.x509", "engine.replay", "net.wire.framing"):
        assert needed in modules, needed


def test_excluded_matches_packages_and_their_submodules_only(lean):
    excludes = ["unittest", "PySide6.QtNetwork"]
    assert lean.excluded("unittest", excludes) == "unittest"
    assert lean.excluded("unittest.mock", excludes) == "unittest"
    assert lean.excluded("unittestx", excludes) is None
    assert lean.excluded("PySide6.QtNetwork", excludes) == "PySide6.QtNetwork"
    assert lean.excluded("PySide6.QtWidgets", excludes) is None


def test_the_spec_passes_the_checked_list_to_pyinstaller():
    tree = ast.parse((PACKAGING / "parlour.spec").read_text(encoding="utf-8"))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and getattr(node.func, "id", None) == "Analysis"]
    assert len(calls) == 1
    excludes = {kw.arg: ast.unparse(kw.value) for kw in calls[0].keywords}["excludes"]
    assert excludes == "lean.EXCLUDES"


def test_developer_tools_are_excluded(lean):
    for module in ("tkinter", "unittest", "pydoc", "pytest", "PySide6.QtQml"):
        assert lean.excluded(module), module
