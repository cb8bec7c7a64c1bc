"""Rook for Parlour: the ruleset (``RULESETS``), the rules (``RookGame``), ``make``, and
``TITLE``, which makes it one of the engine's titles."""

from __future__ import annotations

from ..info import TitleInfo, ruleset_info
from ..registry import Title
from .names import NAME
from .rules import DECK, RookGame, RookState
from .ruleset import RULESETS

__all__ = ["DECK", "RULESETS", "TITLE", "RookGame", "RookState", "make"]


def make(ruleset_id: str | None = None, mode: str | None = None,
         options: dict | None = None) -> RookGame:
    """The Rook game; ValueError, naming the choices, for an unknown ruleset or any mode."""
    ruleset_id = ruleset_id or "rook"
    if ruleset_id not in RULESETS:
        raise ValueError(f"unknown Rook ruleset {ruleset_id!r}: choose one of {', '.join(RULESETS)}")
    if mode is not None:
        raise ValueError(f"Rook has no modes (got {mode!r})")
    return RookGame(RULESETS[ruleset_id], mode, options)


TITLE = Title(
    info=TitleInfo("rook", NAME, order=2, rulesets=tuple(ruleset_info(rs) for rs in RULESETS.values())),
    rulesets=RULESETS, make=make, bots="engine.bots.rook",
    expert_bots="engine.bots.rook_expert")
