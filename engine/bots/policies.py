"""Which policy decides: each title names the module of its phase deciders
(``registry.Title.bots``: a module with ``DECIDERS``, phase -> decider)."""

from __future__ import annotations

import importlib

from ..registry import title
from .context import Context, Decision


def deciders(game) -> dict:
    """The title's deciders by phase; ValueError for a title without computer players."""
    module = title(game.id).bots
    if module is None:
        raise ValueError(f"{game.info.name} has no computer players")
    return importlib.import_module(module).DECIDERS


def decide(ctx: Context) -> Decision:
    return deciders(ctx.game)[ctx.view["phase"]](ctx)
