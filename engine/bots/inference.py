"""Deals weighted by what the other seats did: the expert level's sampling of hidden cards.

``Knowledge.determinize`` draws the unseen cards uniformly among the layouts the view
allows (cards played, voids shown, piles). But the other seats also *chose*: a seat
that bid high holds a strong hand, one that passed at once a weak one, and a bidder who
named a trump is usually long in it. The expert weighs each sampled layout by how well
it explains those choices and keeps the likely ones:

    worlds = Posterior(ctx, likelihood).worlds(count)   # [(State, weight), …]

``likelihood(know, placed)`` is the title's (``rook.expert_likelihood``,
``somerset.expert_likelihood``): a log-weight for one layout ``placed`` ({sink name:
mask}, as ``Knowledge.sample`` gives it), built from the *normal* level's hand
evaluation — a model of why a seat bids, passes or names a trump, not a claim about how
any particular player decides. Drawing ``POOL`` times more layouts than are kept and
resampling them by weight (systematic resampling: every draw's share is its weight,
none is lost to luck of the draw) costs a few sampled layouts per play-out, which are
cheap beside the play-out itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .context import Context

POOL = 4  # layouts drawn per layout kept


class Posterior:
    """Deals consistent with ``ctx``'s view, resampled by ``likelihood``."""

    def __init__(self, ctx: Context, likelihood: Callable[..., float] | None, pool: int = POOL):
        self.ctx = ctx
        self.likelihood = likelihood
        self.pool = pool if likelihood is not None else 1

    def worlds(self, count: int) -> list[tuple[Any, int]]:  # (the title's State)
        """``count`` deals as (State, how many of the ``count`` it stands for): a likely
        layout drawn twice is played out once and counted twice."""
        know, rng = self.ctx.know, self.ctx.rng
        drawn = [know.sample(rng) for _ in range(count * self.pool)]
        if self.likelihood is None:
            return [(self._state(placed), 1) for placed in drawn]
        logs = [self.likelihood(know, placed) for placed in drawn]
        top = max(logs)
        weights = [math.exp(value - top) for value in logs]
        kept = systematic(weights, count, rng.random())
        return [(self._state(drawn[i]), times) for i, times in kept]

    def _state(self, placed: dict[str, int]) -> Any:
        know = self.ctx.know
        hands = {sink.seat: placed[sink.name] for sink in know.sinks if sink.seat is not None}
        piles = {sink.name: placed[sink.name] for sink in know.sinks if sink.seat is None}
        state = know.state.clone()
        state.place_unseen(hands, piles)
        return state


def systematic(weights: list[float], count: int, offset: float) -> list[tuple[int, int]]:
    """Systematic resampling: ``count`` picks among ``weights`` (``offset`` in [0, 1)
    places the first), as (index, times picked) in index order."""
    step = sum(weights) / count
    point = offset * step
    picked: list[tuple[int, int]] = []
    running, taken = 0.0, 0
    for index, weight in enumerate(weights):
        running += weight
        times = 0
        while taken < count and point < running:
            times, taken, point = times + 1, taken + 1, point + step
        if times:
            picked.append((index, times))
    if taken < count:  # float rounding at the very end: the last point fell past the sum
        index, times = picked[-1] if picked else (len(weights) - 1, 0)
        picked[-1:] = [(index, times + count - taken)]
    return picked


def log_sigmoid(x: float) -> float:
    """log(1 / (1 + e^-x)), without overflow."""
    return -math.log1p(math.exp(-x)) if x > -30 else x
