"""Which title's policy decides: one table from game id to its phase deciders."""

from __future__ import annotations

from . import horseshoes, rook, somerset
from .context import Context, Decision

TITLES = {"rook": rook.DECIDERS, "somerset": somerset.DECIDERS,
          "horseshoes": horseshoes.DECIDERS}


def decide(ctx: Context) -> Decision:
    deciders = TITLES[ctx.game.id]
    return deciders[ctx.view["phase"]](ctx)
