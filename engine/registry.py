"""Every title, ruleset and mode the engine knows, and how to make a Game from names."""

from __future__ import annotations

import importlib

from .ruleset import Ruleset
from .state import Game

TITLES = ("somerset", "rook", "horseshoes")


def _module(title: str):
    if title not in TITLES:
        raise ValueError(f"unknown game {title!r}: choose one of {', '.join(TITLES)}")
    return importlib.import_module(f"engine.{title}")


def rulesets(title: str) -> dict[str, Ruleset]:
    """The title's rulesets by id (the default one first)."""
    return _module(title).RULESETS


def make_game(title: str, ruleset: str | None = None, mode: str | None = None,
              options: dict | None = None) -> Game:
    """The Game for a title, ruleset id (default: the title's default), mode and options.

    ValueError, with a message naming the choices, for anything unknown."""
    return _module(title).make(ruleset, mode, options)


def variants():
    """Every (title, ruleset id, mode) combination, for tests and benchmarks."""
    for title in TITLES:
        for rs in rulesets(title).values():
            for mode in rs.modes or (None,):
                yield title, rs.id, mode
