"""docs/architecture.md names real code: every ``Class.member`` and ``module.function`` it
puts in backticks exists, so the walk of a card cannot quietly go stale."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from tests.architecture.trees import parsed

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "architecture.md"
NAMED = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)`")
FILE_SUFFIXES = {"py", "md", "json"}


@functools.cache
def definitions() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(class -> its members, module stem -> its top-level names) over engine/, net/, app/
    (found once in a test process; they are only read)."""
    classes: dict[str, set[str]] = {}
    modules: dict[str, set[str]] = {}
    for package in ("engine", "net", "app"):
        for path in (ROOT / package).rglob("*.py"):
            tree = parsed(path)
            top = modules.setdefault(path.stem, set())
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    top.add(node.name)
                if isinstance(node, ast.ClassDef):
                    members = classes.setdefault(node.name, set())
                    for item in ast.walk(node):
                        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                            members.add(item.name)
                        elif isinstance(item, ast.Assign):
                            members |= {t.id for t in item.targets if isinstance(t, ast.Name)}
                        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                            members.add(item.target.id)
    return classes, modules


def stale_names(text: str) -> list[str]:
    classes, modules = definitions()
    stale = []
    for owner, member in sorted(set(NAMED.findall(text))):
        if member in FILE_SUFFIXES:
            continue  # a file's name, e.g. `store.py`
        known = classes.get(owner) if owner[:1].isupper() else modules.get(owner)
        if known is None or member not in known:
            stale.append(f"{owner}.{member}")
    return stale


def test_every_name_the_architecture_page_gives_is_in_the_code():
    assert stale_names(PAGE.read_text(encoding="utf-8")) == []


def test_a_name_that_is_not_there_is_found():
    assert stale_names("`GuestPlayer._send`, `moves.sign_action`, `store.py`") == [
        "GuestPlayer._send", "moves.sign_action"]


def test_the_pages_it_links_to_are_in_the_repository():
    text = PAGE.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)", text):
        assert (PAGE.parent / target).exists(), target
