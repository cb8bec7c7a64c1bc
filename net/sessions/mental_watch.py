"""The contribution deadline under the mental-poker deal: a party gone is restarted out.

Under the mental deal (``MentalAuthority``) nobody can deal a party's cards but its own
client, so a player who vanishes would hold the table up for good. ``MentalWatch`` keeps
one timer on the authority's ``due_in``: when it fires and ``overdue`` names parties —

* before every hand is dealt: a party awaited (key share, shuffle, shares) for the
  contribution deadline since the deal last moved on;
* after: a party whose every seat dropped, and has not come back, the deadline since —

it closes the link of any of their players still connected (a client that did not answer
in time is treated as gone: it comes back as any dropped player does), and the authority
logs ``drop`` for them and ``mental-restart`` ("dropped", or "void": the hand so far is
void, the scores unchanged), the deal again among those left, their seats the host's
party's. A stand-in the table keeps for a seat waits until its cards are the host's
(``StandIns``), then plays them; the person is told why (a "waiting" event).

It talks to its table through ``authority``, ``timers``, ``outbox``, ``emit``, ``apply``,
``stand_ins``, ``is_open``, ``takeback``.
"""

from __future__ import annotations

from net.sessions.events import connection_event, deal_restart_event
from net.wire.identity import fingerprint

TIMER = ("mental-deadline",)


class MentalWatch:
    def __init__(self, table):
        self.table = table

    def watch(self) -> None:
        """(Re)arm the one timer for the deal under way; cancel it when nothing is awaited."""
        due_in = getattr(self.table.authority, "due_in", None)
        wait = due_in() if due_in is not None else None
        if wait is None:
            self.table.timers.cancel(TIMER)
        else:
            self.table.timers.later(TIMER, wait, self._deadline)

    def _deadline(self) -> None:
        t = self.table
        if not t.is_open or t.takeback.active:  # a restarted host signs nothing yet
            return
        auth = t.authority
        parties = auth.overdue()
        if not parties:
            self.watch()
            return
        setup = auth.deal.setup
        seats = sorted(s for i in parties for s in setup.parties[i].seats)
        voided = auth.deal.dealt
        for i in parties:
            fp = fingerprint(setup.parties[i].key)
            if t.outbox.holds(fp):
                t.outbox.drop(fp, "your client did not answer the deal in time")
                for seat in setup.parties[i].seats:
                    t.emit(connection_event(seat, "dropped", "did not answer the deal in time"))
                    t.stand_ins.arm(seat)
        t.emit(deal_restart_event([auth.seats[s].name for s in seats], seats, voided))
        t.apply(auth.restart_without(parties))
        t.stand_ins.resume()
