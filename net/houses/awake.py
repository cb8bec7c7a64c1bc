"""A deadline counted in the time this process was awake to notice (sans-I/O).

A claim whose other side sent its key but no confirmation is a ghost's after a while
(``links.Claim``). Measured by a plain timer, that while includes every second *this*
process did not run: on a busy or old computer a timer set for a few seconds fires late,
and fires before the reactor reads the confirmation that came meanwhile (Twisted runs
the timers that are due before it reads the sockets) — so a live, answering host was
taken for a ghost, and a wrong code was told "stopped answering" instead of "did not
match". ``AwakeDeadline`` is ticked every ``step`` seconds; a tick that comes much later
than asked (the process was starved) counts as at most ``2 * step``, so a stall of ours
never counts against the other side — and never decides: whatever arrived during the
stall is read before the next tick, on time, can say the allowance is spent.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class AwakeDeadline:
    """``allowance`` seconds of awake time from ``start``; ``tick(now)`` says whether it
    has run out. ``step``: how often the owner ticks it."""

    allowance: float
    start: float
    step: float = 0.25
    waited: float = 0.0  # awake seconds counted so far

    def __post_init__(self) -> None:
        self._last = self.start

    def tick(self, now: float) -> bool:
        """Count the time since the last tick (at most two steps of it: more means we
        were not running); whether the allowance is spent — never said by a late tick."""
        gap = max(now - self._last, 0.0)
        self.waited += min(gap, 2 * self.step)
        self._last = now
        return self.waited >= self.allowance and gap <= 2 * self.step
