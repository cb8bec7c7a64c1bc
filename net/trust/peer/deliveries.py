"""Which of this client's deal messages the host had, as far as this client can tell.

Under the private deal a host may go on without a client that stays connected but does
not answer the deal in time: it closes that client's link, saying so (an ``error`` whose
reason is ``messages.NO_ANSWER``), and logs its drop and a restart of the deal without
it. A host that withheld a message the client did send could do the same, to learn that
player's cards for the hand. Only the client itself can tell: it sent the message on a
link the host was still reading from when it cut it — long enough before (``slack``)
that TCP had delivered it — and the message is not in the log.

``Deliveries`` keeps, for the session, every deal message this client sent (when, on
which link) and when the host cut a link for not answering; the replica asks it, as a
restart that drops this client's party comes, for the messages the host had and never
logged. No clock and no I/O of its own: the session passes its readings in.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Deliveries:
    sent: list[tuple[dict, int, float]] = field(default_factory=list)  # (envelope, link, when)
    cuts: dict[int, float] = field(default_factory=dict)  # link -> when the host cut it

    def sending(self, envelope: dict, link: int, now: float) -> None:
        """This client sent ``envelope`` (a deal message) on ``link`` at ``now`` (those of
        an earlier deal are forgotten: only the one under way can be restarted)."""
        deal = _deal_of(envelope)
        self.sent = [s for s in self.sent if _deal_of(s[0]) == deal] + [(envelope, link, now)]

    def cut(self, link: int, now: float) -> None:
        """The host closed ``link`` at ``now``, saying this client did not answer in time."""
        self.cuts.setdefault(link, now)

    def had(self, slack: float) -> list[tuple[dict, float]]:
        """The deal messages the host had when it cut the link they went on, each with how
        long before the cut it was sent (at least ``slack``: delivered)."""
        had = []
        for envelope, link, when in self.sent:
            cut = self.cuts.get(link)
            if cut is not None and cut - when >= slack:
                had.append((envelope, cut - when))
        return had


def _deal_of(envelope: dict) -> tuple:
    """The deal a deal message is for: (hand, attempt)."""
    body = envelope.get("body") or {}
    return body.get("hand"), body.get("attempt")
