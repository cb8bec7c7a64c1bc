"""The contribution deadline, as a peer can check it on its own clock.

Clocks on different machines cannot be compared, and a "skip" entry cannot prove how
long the host waited. But the host logged the commitment before sending it, and logs
the skip before sending that, so on the peer's own monotonic clock the time from the
earliest moment the commitment could have come in (its ``arrived``: the last time this
peer's link found nothing waiting to be read before it, ``heartbeat.Link``) to reading
the skip is at least the host's wait less the commitment's delivery — however late a
peer starved of CPU reads the two. A peer that got the commitment live (not in a
catch-up sync) therefore names the host if a skip comes sooner than the deadline less
``slack`` after it; and the skipped seat itself knows whether it sent its shuffle in
time on a link that stayed up (docs/protocol.md, "Commit–reveal deal").

No clock of its own: the replica passes its readings in.
"""

from __future__ import annotations


class ShuffleWatch:
    def __init__(self, deadline: float, slack: float):
        self.deadline, self.slack = deadline, slack
        self.commit_seen: tuple[int, float] | None = None  # (hand, when its commit came live: ``arrived``)
        self.sent: tuple[int, float] | None = None  # (hand, when this seat's shuffle went out)

    def committed(self, hand: int, live: bool, arrived: float) -> None:
        self.commit_seen = (hand, arrived) if live else None

    def contributed(self, hand: int, now: float) -> None:
        self.sent = (hand, now)

    def resynced(self) -> None:
        """A catch-up sync: a restarted host may have lost the shuffle sent before."""
        self.sent = None

    def skip_problem(self, hand: int, seat: int, mine: bool, now: float) -> str | None:
        """Why a skip of ``seat`` (``mine``: this peer's own) in ``hand``, read at
        ``now``, came too early, or None."""
        seen = self.commit_seen
        if seen is None or seen[0] != hand:
            return None  # the commitment came in a sync: nothing to time
        least = self.deadline - self.slack
        waited = now - seen[1]
        if waited < least:
            return (f"the host skipped seat {seat}'s shuffle {waited:.1f} s after the "
                    f"commitment; it must wait {self.deadline:g} s")
        sent = self.sent
        if mine and sent is not None and sent[0] == hand and sent[1] - seen[1] < least:
            return f"the host skipped my shuffle, which I sent {sent[1] - seen[1]:.1f} s after the commitment"
        return None
