"""Which policy decides: each title names the module of its phase deciders
(``registry.Title.bots``: a module with ``DECIDERS``, phase -> decider), and may name
another for the expert level (``Title.expert_bots``); a title without one has its
expert play as its hard level does (``Context.searches``)."""

from __future__ import annotations

import importlib

from ..registry import title
from .context import Context, Decision


def deciders(game, level: str = "normal") -> dict:
    """The title's deciders by phase for ``level``; ValueError for a title without
    computer players."""
    found = title(game.id)
    if found.bots is None:
        raise ValueError(f"{game.info.name} has no computer players")
    module = found.expert_bots if level == "expert" and found.expert_bots else found.bots
    return importlib.import_module(module).DECIDERS


def decide(ctx: Context) -> Decision:
    return deciders(ctx.game, ctx.level)[ctx.view["phase"]](ctx)
