"""The Bot class every level shares: view in, Action (and a one-line reason) out.

A decision is made by the title's policy module (``rook``, ``somerset``, ``horseshoes``)
from a ``context.Context``: the game, the seat's view, the seat's ``Knowledge`` (the hand
rebuilt from the view) and a random generator seeded from the bot's seed and the view
itself, so the same view and seed always give the same choice, whatever was asked before.
Every choice is checked against the rules before it leaves the bot.
"""

from __future__ import annotations

from ..actions import Action
from ..errors import IllegalAction
from . import policies
from .context import Context, Decision

LEVELS = ("easy", "normal", "hard", "expert")


def _seed_bytes(seed) -> bytes:
    if isinstance(seed, (bytes, bytearray)):
        return bytes(seed)
    return str(seed).encode()


class Bot:
    """A computer player of one level. ``choose``/``explain`` take a seat's view."""

    def __init__(self, level: str, seed: int | bytes | str = 0):
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}: choose one of random, {', '.join(LEVELS)}")
        self.level = level
        self.seed = _seed_bytes(seed)

    def decide(self, game, view: dict) -> Decision:
        """The action for the seat whose view this is, and why."""
        ctx = Context(game, view, self.level, self.seed)
        if ctx.seat not in view.get("to_act", ()):
            raise ValueError(f"seat {ctx.seat} has nothing to decide now")
        decision = policies.decide(ctx)
        _check(ctx, decision.action)
        return decision

    def choose(self, game, view=None) -> Action:
        """``choose(game, view)`` → Action. For callers holding a whole State (a table
        host), ``choose(state, seat)`` also works: it passes on only ``state.view(seat)``."""
        game, view = _unpack(game, view)
        return self.decide(game, view).action

    def choose_json(self, game, view) -> dict:
        """The choice in hand-record form, e.g. ``{"seat": 2, "play": "8/8"}``."""
        game, view = _unpack(game, view)
        return game.action_to_json(self.decide(game, view).action)

    def explain(self, game, view=None) -> str:
        """One sentence for a hint button: what this bot would do and why."""
        game, view = _unpack(game, view)
        decision = self.decide(game, view)
        return decision.reason

    def __repr__(self) -> str:
        return f"Bot({self.level!r})"


def _unpack(game, view):
    """Accept (game, view) or (state, seat); in the second case keep only the view."""
    if isinstance(view, int) and hasattr(game, "view"):
        return game.game, game.view(view)
    return game, view


def _check(ctx: Context, action: Action) -> None:
    """A policy bug must never reach the table as an illegal move."""
    try:
        ctx.state.check(action)
    except IllegalAction as exc:  # pragma: no cover - a bug in a policy
        raise AssertionError(f"{ctx.level} bot chose an illegal action {action!r}: {exc}") from exc
