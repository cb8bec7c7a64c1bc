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

``Waits`` reads its hand's deal part (``MentalHost``: ``setup``, ``dealt``,
``sequencer``, ``party``, ``cheat`` and ``hand_ended()``) and gives what ``HostDeal``
declares: ``awaited``, ``overdue``, ``due_in``, ``away`` and ``keep_waiting``.
"""

from __future__ import annotations

from net.trust.deals.host import Away, Late
from net.trust.deals.mental.sequencer import Holding, holding_up


class Waits:
    def __init__(self, deal):
        self.deal = deal
        self.table = deal.table
        self.moved = self.table.now()  # when the hand last moved on (a deal entry, a move)
        self.kept: dict[bytes, float] = {}  # a party gone's key -> when the host kept waiting

    def moved_on(self) -> None:
        self.moved = self.table.now()

    def awaited(self) -> list[int]:
        """The seats of the parties connected but silent (a party gone is ``away``)."""
        parties = self.deal.setup.parties
        return sorted(s for i, held in self._holding_up().items() if not held.gone
                      for s in parties[i].seats)

    def overdue(self) -> list[Late]:
        """The parties waited for long enough: the deal goes on without them."""
        now = self.table.now()
        return [self._late(i) for i, held in self._holding_up().items() if now >= self._due(i, held)]

    def due_in(self) -> float | None:
        """Seconds until ``overdue`` may next name a party (None: nobody holds it up)."""
        held = self._holding_up()
        if not held:
            return None
        return max(0.0, min(self._due(i, h) for i, h in held.items()) - self.table.now())

    def away(self) -> list[Away]:
        """The parties gone, waited for until their due time; the host person may deal
        again without them once they have been away for the contribution deadline."""
        return [Away(self._late(i), self._due(i, held), held.since + self.table.deadline)
                for i, held in self._holding_up().items() if held.gone]

    def keep_waiting(self, seats) -> None:
        """The wait for the parties gone that play ``seats`` starts again, now."""
        parties, now = self.deal.setup.parties, self.table.now()
        for i, held in self._holding_up().items():
            if held.gone and set(parties[i].seats) & set(seats):
                self.kept[parties[i].key] = now

    def _late(self, party: int) -> Late:
        p = self.deal.setup.parties[party]
        return Late(party, p.seats, p.key, "void" if self.deal.dealt else "dropped")

    def _due(self, party: int, held: Holding) -> float:
        if not held.gone:
            return held.since + self.table.deadline
        since = max(held.since, self.kept.get(self.deal.setup.parties[party].key, held.since))
        return since + max(self.table.drop_wait, self.table.deadline)

    def _holding_up(self) -> dict[int, Holding]:
        deal = self.deal
        if deal.cheat is not None or deal.hand_ended():
            return {}
        if deal.dealt:
            awaited = {i: self.moved for i in deal.party.owed() or ()}
        else:
            awaited = {i: deal.sequencer.since for i in deal.sequencer.awaited()}
        return holding_up(deal.setup.parties, self.table.seats(), self.table.dropped_at, awaited,
                          self.table.now())
