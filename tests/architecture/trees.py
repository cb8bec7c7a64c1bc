"""Each source file's syntax tree, parsed once in a test process and shared by the
architecture tests: every rule reads every module of its packages, and parsing the
trees again for each rule (and each file of rules) was most of these tests' CPU. The
trees are only read."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def parsed(path: Path) -> ast.Module:
    """``path``'s syntax tree."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of ``path``'s tree, in ``ast.walk``'s order: walking every tree again
    for each rule cost more than parsing it."""
    return tuple(ast.walk(parsed(path)))
