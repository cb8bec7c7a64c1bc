"""Paired comparisons for a bench on a shared machine: is B within a margin of A?

On a machine others load, the same code measured twice differs by more than the effect
a bench looks for. So a comparison (a table without watchers, A, against the same table
with them, B) is run as many short **rounds**, each one run of A and one of B back to back
(``abba_order``: A B, then B A, ... — a load that rises or falls through a round weighs on
both sides alike over two rounds), and what is compared is each round's own difference:
the median of B's samples minus the median of A's (``Round.difference``). The estimate is
the mean of those paired differences; its uncertainty, a two-level bootstrap
(``Comparison.interval``): rounds drawn again with replacement (how much the machine
moved between rounds) and, in each, every side's samples drawn again (how few there
were). ``verdict`` then says plainly whether the interval lies within the margin, outside
it, or across it (the bench cannot tell).

Pure: no clock, no I/O; the bootstrap's randomness is its own seeded ``random.Random``,
so the same samples give the same interval.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

#: How many times the bootstrap draws the rounds again (enough for a 95% interval's ends
#: to settle within a few hundredths of its width).
RESAMPLES = 2000

WITHIN, OUTSIDE, UNDECIDED = "met", "not met", "cannot tell: the interval crosses the margin"


def abba_order(rounds: int) -> list[tuple[bool, bool]]:
    """For each round, its two runs in order as ``(first_is_b, second_is_b)``: A then B in
    even rounds, B then A in odd ones."""
    return [(False, True) if i % 2 == 0 else (True, False) for i in range(rounds)]


@dataclass(frozen=True)
class Round:
    """One round's samples: side A's (``a``) and side B's (``b``), taken back to back."""

    a: tuple[float, ...]
    b: tuple[float, ...]

    @property
    def difference(self) -> float:
        """B's median minus A's."""
        return statistics.median(self.b) - statistics.median(self.a)


@dataclass(frozen=True)
class Comparison:
    """Rounds of A against B, each with samples on both sides (``of`` leaves out the rest)."""

    rounds: tuple[Round, ...]

    @classmethod
    def of(cls, pairs: Sequence[tuple[Sequence[float], Sequence[float]]]) -> "Comparison":
        """From each round's (A's samples, B's samples); a round missing either side
        (a run that measured nothing) cannot be paired and is left out."""
        return cls(tuple(Round(tuple(a), tuple(b)) for a, b in pairs if a and b))

    def differences(self) -> list[float]:
        return [r.difference for r in self.rounds]

    def estimate(self) -> float:
        """The mean of the rounds' paired differences (B − A)."""
        return statistics.fmean(self.differences())

    def interval(self, level: float = 0.95, resamples: int = RESAMPLES,
                 seed: int = 0) -> tuple[float, float]:
        """A ``level`` percentile interval for ``estimate``, by a two-level bootstrap:
        the rounds drawn again with replacement, and each drawn round's samples on each
        side drawn again. One round gives only its own samples' spread: it says nothing
        of how far the machine moves between rounds."""
        rng = random.Random(seed)
        means = sorted(statistics.fmean(_redrawn(rng, r) for r in rng.choices(self.rounds,
                                                                             k=len(self.rounds)))
                       for _ in range(resamples))
        tail = (1 - level) / 2
        return means[int(tail * (resamples - 1))], means[int(round((1 - tail) * (resamples - 1)))]


def _redrawn(rng: random.Random, round_: Round) -> float:
    """``round_``'s difference with each side's samples drawn again with replacement."""
    a = rng.choices(round_.a, k=len(round_.a))
    b = rng.choices(round_.b, k=len(round_.b))
    return statistics.median(b) - statistics.median(a)


def verdict(interval: tuple[float, float], margin: float) -> str:
    """Whether B is within ``margin`` of A: ``WITHIN`` if the whole interval is in
    [−margin, +margin], ``OUTSIDE`` if none of it is, else ``UNDECIDED``."""
    low, high = interval
    if -margin <= low and high <= margin:
        return WITHIN
    if high < -margin or low > margin:
        return OUTSIDE
    return UNDECIDED


def direction(interval: tuple[float, float]) -> str:
    """Which way B differs from A, if the interval shows it: "longer" (all of it above
    0), "shorter" (all below) or "no difference shown" (0 inside)."""
    low, high = interval
    if low > 0:
        return "longer"
    if high < 0:
        return "shorter"
    return "no difference shown"
