"""Whom a hand's private deal waits for on the host, and until when (its clock).

A party holds the deal up (``sequencer.holding_up``) in one of two ways, the host's own
party never:

* *silent*: its client is connected but owes a message — before the cards are dealt, a
  key share, its shuffle or its shares (what the sequencer awaits, since the deal last
  moved on); after, a spare's shares or its reveal (``PartyHand.owed``, since the hand
  last moved on: ``moved_on``). It is gone on without at the contribution deadline
  (``HandTable.deadline``);
* *gone*: every seat of it dropped, not back. Its cards are locked with its key, and
  its client may come back to the same hand at any time (its secrets derive from its
  key), so it is waited for the drop wait (``HandTable.drop_wait``, ``DROP_WAIT``;
  never less than the deadline) from its drop, or from when the host person chose to
  keep waiting (``keep_waiting``). The host person may deal again without it sooner, once
  it has been away for the deadline — the floor every peer checks
  (``restarts.RestartWatch``): ``Away.choice_from``.

``Waits`` keeps the times (when the hand last moved on, when the host kept waiting for
whom) and, given who holds the deal up now (``Holding``, by party: the deal part reads
that off its sequencer and its party), answers what ``HostDeal`` declares: ``awaited``,
``overdue``, ``due_in``, ``away`` and ``keep_waiting``.
"""

from __future__ import annotations

from net.trust.deals.host import Away, Late
from net.trust.deals.mental.sequencer import Holding


class Waits:
    def __init__(self, table):
        self.table = table  # the deal's ``HandTable``: its clock, deadline and drop wait
        self.moved = self.table.now()  # when the hand last moved on (a deal entry, a move)
        self.kept: dict[bytes, float] = {}  # a party gone's key -> when the host kept waiting

    def moved_on(self) -> None:
        self.moved = self.table.now()

    def awaited(self, held: dict[int, Holding], parties) -> list[int]:
        """The seats of the parties connected but silent (a party gone is ``away``)."""
        return sorted(s for i, h in held.items() if not h.gone for s in parties[i].seats)

    def overdue(self, held: dict[int, Holding], parties, dealt: bool) -> list[Late]:
        """The parties waited for long enough: the deal goes on without them."""
        now = self.table.now()
        return [_late(parties[i], i, dealt) for i, h in held.items() if now >= self._due(parties[i], h)]

    def due_in(self, held: dict[int, Holding], parties) -> float | None:
        """Seconds until ``overdue`` may next name a party (None: nobody holds it up)."""
        if not held:
            return None
        return max(0.0, min(self._due(parties[i], h) for i, h in held.items()) - self.table.now())

    def away(self, held: dict[int, Holding], parties, dealt: bool) -> list[Away]:
        """The parties gone, waited for until their due time; the host person may deal
        again without them once they have been away for the contribution deadline."""
        return [Away(_late(parties[i], i, dealt), self._due(parties[i], h), h.since + self.table.deadline)
                for i, h in held.items() if h.gone]

    def keep_waiting(self, held: dict[int, Holding], parties, seats) -> None:
        """The wait for the parties gone that play ``seats`` starts again, now."""
        now = self.table.now()
        for i, h in held.items():
            if h.gone and set(parties[i].seats) & set(seats):
                self.kept[parties[i].key] = now

    def _due(self, party, held: Holding) -> float:
        if not held.gone:
            return held.since + self.table.deadline
        since = max(held.since, self.kept.get(party.key, held.since))
        return since + max(self.table.drop_wait, self.table.deadline)


def _late(party, index: int, dealt: bool) -> Late:
    return Late(index, party.seats, party.key, "void" if dealt else "dropped")
