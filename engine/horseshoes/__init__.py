"""Horseshoes for the engine registry: its ruleset, ``make`` to build a Game, and
``TITLE``, which makes it one of the engine's titles.

    game = make(None, "three", {"leftover": "down"})
"""

from __future__ import annotations

from ..info import ModeInfo, TitleInfo, ruleset_info
from ..registry import Title
from ..ruleset import Ruleset
from .names import LEFTOVER_CHOICES, MODE_NAMES, NAME
from .rules import DEFAULT_MODE, MODE_ORDER, MODES, HorseshoesGame, HorseshoesState
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



TITLE = Title(
    info=TitleInfo(
        "horseshoes", NAME, order=3,
        rulesets=tuple(ruleset_info(rs, LEFTOVER_CHOICES, {"leftover": ("three",)})
                       for rs in RULESETS.values()),
        modes=tuple(ModeInfo(mode, MODE_NAMES[mode], MODES[mode].players, MODES[mode].partnerships)
                    for mode in MODE_ORDER),
        default_mode=DEFAULT_MODE),
    rulesets=RULESETS, make=make, bots="engine.bots.horseshoes")

__all__ = ["RULESETS", "TITLE", "HorseshoesGame", "HorseshoesState", "make"]
