"""The random-legal bot: picks uniformly among the legal actions, from its own seed.

It is the floor every other bot must beat, and what plays games end to end in tests
and benchmarks. Combinatorial decisions (Rook's bury, Somerset's discard) are sampled
directly rather than enumerated.

``choose(state, seat)`` works on a whole State (tests, benchmarks); like the other
levels it also takes ``choose(game, view)``, in which case it rebuilds the seat's
position from the view alone (``knowledge.Knowledge``) and picks from that.
"""

from __future__ import annotations

import random

from ..actions import Action
from .knowledge import Knowledge


class RandomBot:
    level = "random"

    def __init__(self, seed: int | bytes | str = 0):
        self.rng = random.Random(seed)  # a private generator: never the global one

    def choose(self, state, seat) -> Action:
        if isinstance(seat, dict):  # (game, view)
            state, seat = Knowledge(state, seat).state, seat["seat"]
        sample = getattr(state, "sample_action", None)
        if sample is not None:
            action = sample(seat, self.rng)
            if action is not None:
                return action
        return self.rng.choice(state.legal_actions(seat))

    def explain(self, game, view) -> str:
        return "any legal move will do: this player picks at random"
