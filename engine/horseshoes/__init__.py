"""Horseshoes for the engine registry: its ruleset, and ``make`` to build a Game.

    game = make(None, "three", {"leftover": "down"})
"""

from __future__ import annotations

from ..ruleset import Ruleset
from .rules import DEFAULT_MODE, HorseshoesGame, HorseshoesState
from .ruleset import HORSESHOES

RULESETS: dict[str, Ruleset] = {HORSESHOES.id: HORSESHOES}


def make(ruleset_id: str | None = None, mode: str | None = None,
         options: dict | None = None) -> HorseshoesGame:
    """The Horseshoes game for a ruleset id (only "horseshoes"), a mode (default
    "four") and options; ValueError naming the choices for anything unknown."""
    ruleset_id = HORSESHOES.id if ruleset_id is None else ruleset_id
    if ruleset_id not in RULESETS:
        raise ValueError(f"unknown Horseshoes ruleset {ruleset_id!r}: choose {', '.join(RULESETS)}")
    return HorseshoesGame(RULESETS[ruleset_id], DEFAULT_MODE if mode is None else mode, options)


__all__ = ["RULESETS", "HorseshoesGame", "HorseshoesState", "make"]
