"""What a policy decides from: ``Context`` (one seat's view, its ``Knowledge``, a seeded
generator) and what it answers: a ``Decision`` (the action and a one-line reason).

The generator is seeded from the bot's seed and the view itself, so the same view and
seed always give the same choice, whatever was asked before.
"""

from __future__ import annotations

import hashlib
import random
from functools import cached_property
from typing import NamedTuple

from ..actions import Action
from .knowledge import Knowledge


class Decision(NamedTuple):
    action: Action
    reason: str  # one line for a hint button


class Context:
    """Everything a policy may look at for one decision."""

    def __init__(self, game, view: dict, level: str, seed: bytes):
        self.game = game
        self.view = view
        self.level = level
        # Hard and expert search over sampled deals; a decision the expert has no
        # policy of its own for is made as the hard level makes it.
        self.searches = level in ("hard", "expert")
        self.seat = view["seat"]
        self.rng = random.Random(_decision_seed(seed, level, view))

    @cached_property
    def know(self) -> Knowledge:
        return Knowledge(self.game, self.view)

    @property
    def state(self):
        """The rebuilt state (other seats' hands empty): exact for public facts."""
        return self.know.state

    @cached_property
    def legal(self) -> list[Action]:
        return self.state.legal_actions(self.seat)

    def name(self, card: int) -> str:
        return self.game.deck.name(card)


def _decision_seed(seed: bytes, level: str, view: dict) -> bytes:
    """Same seed + same view → same generator, independent of earlier calls."""
    key = "|".join((level, str(view["seat"]), view["phase"], str(len(view["actions"])),
                    ",".join(view["hand"]), ",".join(str(s) for s in view.get("to_act", ()))))
    return hashlib.sha256(seed + key.encode()).digest()
