"""The random-legal bot: picks uniformly among the legal actions, from its own seed.

It is the floor every other bot must beat, and what plays games end to end in tests
and benchmarks. Combinatorial decisions (Rook's bury, Somerset's discard) are sampled
directly rather than enumerated.
"""

from __future__ import annotations

import random

from ..actions import Action
from ..state import State


class RandomBot:
    def __init__(self, seed: int | bytes = 0):
        self.rng = random.Random(seed)  # a private generator: never the global one

    def choose(self, state: State, seat: int) -> Action:
        sample = getattr(state, "sample_action", None)
        if sample is not None:
            action = sample(seat, self.rng)
            if action is not None:
                return action
        return self.rng.choice(state.legal_actions(seat))
