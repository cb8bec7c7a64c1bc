"""No title switch outside the engine, checked by reading the source with ``ast``.

What a title is (its names, sides, target, deck, trumps, decisions) lives in its folder
under ``engine/`` and reaches everything else as ``GameInfo`` (docs/adding-a-game.md).
So outside ``engine/`` a title's id may be a value (``{"game": "rook"}`` chooses a game
to play) but never something code branches or looks up on:

* compared: ``game == "rook"``, ``game in ("rook", "somerset")``, ``case "rook":``;
* a key: ``{"rook": 500}``, ``table["rook"]``, ``names.get("rook")``, ``dict(rook=…)``;
* a fallback: ``view.get("game", "somerset")``, ``game or "somerset"`` (an unknown or
  missing title drawn as another);
* a list of titles: ``choices=("somerset", "rook", "horseshoes")`` (``engine.TITLES``
  is the list).

The product code is scanned: ``app/``, ``net/`` and ``packaging/``. Tests may compare
ids freely (they check what the product did).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.registry import TITLES

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("app", "net", "packaging")
TITLE_IDS = frozenset(TITLES) | {"tiny"}  # the test-only title too: no code may know it
KEY_METHODS = {"get", "pop", "setdefault", "__getitem__", "__contains__"}


def _ids_in(node: ast.AST | None, ids: frozenset[str]) -> list[str]:
    """The title ids ``node`` is, or holds as an element (a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in ids:
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [found for element in node.elts for found in _ids_in(element, ids)]
    return []


def title_switches(source: str, ids: frozenset[str] = TITLE_IDS) -> list[tuple[int, str]]:
    """(line, what) for each place ``source`` compares a title id, keys on one, or falls
    back to one."""
    found = []
    compared = set()  # collections already flagged as compared, not listed again

    def flag(node: ast.AST, what: str, names: list[str]) -> None:
        found.extend((node.lineno, f"{what} {name!r}") for name in names)

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                flag(node, "compares", _ids_in(operand, ids))
                compared.add(id(operand))
        elif isinstance(node, ast.match_case):
            for pattern in ast.walk(node.pattern):
                if isinstance(pattern, ast.MatchValue):
                    flag(pattern, "matches", _ids_in(pattern.value, ids))
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                flag(key or node, "keys on", _ids_in(key, ids))
        elif isinstance(node, ast.Subscript):
            flag(node, "keys on", _ids_in(node.slice, ids))
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in KEY_METHODS and node.args:
                flag(node, "keys on", _ids_in(node.args[0], ids))
                if func.attr in ("get", "pop") and len(node.args) > 1:
                    flag(node, "falls back to", _ids_in(node.args[1], ids))
            if isinstance(func, ast.Name) and func.id == "dict":
                flag(node, "keys on", [k.arg for k in node.keywords if k.arg in ids])
        elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            flag(node, "falls back to", _ids_in(node.values[-1], ids))
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and id(node) not in compared:
            listed = [e.value for e in node.elts if isinstance(e, ast.Constant) and _ids_in(e, ids)]
            if len(listed) > 1:
                flag(node, "lists", listed)
    return sorted(found)


def switches_in(folder: str) -> list[str]:
    return [f"{path.relative_to(ROOT).as_posix()}:{line} {what}"
            for path in sorted((ROOT / folder).rglob("*.py"))
            for line, what in title_switches(path.read_text(encoding="utf-8"))]


def test_the_scanner_finds_each_kind_of_switch():
    source = ("if game == 'rook': pass\n"
              "if game in ('horseshoes', 'x'): pass\n"
              "TARGETS = {'somerset': 66}\n"
              "names['rook']\n"
              "names.get('tiny', 0)\n"
              "view.get('game', 'somerset')\n"
              "game = chosen or 'rook'\n"
              "dict(horseshoes=13)\n"
              "match game:\n    case 'rook':\n        pass\n"
              "parser.add_argument('--game', choices=['rook', 'somerset'])\n")
    assert sorted({line for line, _what in title_switches(source)}) == list(range(1, 9)) + [10, 12]


def test_the_scanner_lets_a_title_be_a_value():
    """Choosing a game to play, or naming one in a message, is not a switch."""
    source = ("settings = {'game': 'rook', 'ruleset': 'kitty'}\n"
              "start({'game': 'somerset'})\n"
              "advert = Advert(game='horseshoes')\n"
              "if settings['game'] == chosen: pass\n"
              "text = 'rook'.upper()\n"
              "for title, ruleset in (('rook', None), ('somerset', 'kitty')): pass\n")
    assert title_switches(source) == []


@pytest.mark.parametrize("folder", SCANNED)
def test_no_title_switch_outside_the_engine(folder):
    assert switches_in(folder) == []
