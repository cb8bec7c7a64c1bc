"""The deal's deadline on the host: a deal waiting for a player goes on without them.

A deal may wait for a player's client: its shuffle under the seeded deal, its key share,
shuffle or decryption shares under the mental deal, or — once the private deal's cards
are dealt — a player gone whose cards only its own client can open. ``DealWatch`` keeps
one timer on what the hand's deal part says (``deal.due_in``), tells the people once the
deal has waited a while (``SHUFFLE_NOTICE``: whose shuffle it waits for), and when the
deadline passes and the deal names someone ``overdue``:

* a client that did not answer in time is treated as gone: its link is closed (it comes
  back as any dropped player does), and a stand-in is armed for its seats;
* the people are told in words: a shuffle skipped, a deal restarted without a player, or
  a hand voided (the scores unchanged);
* the authority goes on without them (``restart_without``: a ``skip``, or a
  ``mental-restart`` with their seats the host's), and waiting stand-ins resume.

It talks to its table through ``authority``, ``timers``, ``outbox``, ``emit``, ``apply``,
``stand_ins``, ``is_open`` and ``takeback``.
"""

from __future__ import annotations

from net.constants import SHUFFLE_NOTICE
from net.sessions.events import connection_event, deal_restart_event, shuffle_event
from net.wire.identity import fingerprint

DEADLINE = ("deal-deadline",)
NOTICE = ("deal-notice",)
IDLE = ("deal-idle",)


class DealWatch:
    def __init__(self, table):
        self.table = table
        self._noticed: tuple | None = None  # the deal and seats the notice was armed for

    def watch(self) -> None:
        """(Re)arm the timers for the deal under way; cancel them when nothing is awaited.
        Work the deal leaves for idle time runs as soon as this change's messages are out."""
        timers, deal = self.table.timers, self.table.authority.deal
        if deal.idle_due() and IDLE not in timers:
            timers.later(IDLE, 0, self._idle)
        wait = deal.due_in()
        if wait is None:
            timers.cancel(DEADLINE)
            timers.cancel(NOTICE)
            return
        timers.later(DEADLINE, wait, self._deadline)
        awaited = (id(deal), tuple(deal.awaited()))
        if awaited[1] and awaited != self._noticed:
            self._noticed = awaited
            timers.later(NOTICE, SHUFFLE_NOTICE, self._notice, awaited)

    def _idle(self) -> None:
        t = self.table
        if t.is_open and not t.takeback.active:
            t.apply(t.authority.idle())

    def _notice(self, awaited: tuple) -> None:
        deal = self.table.authority.deal
        if (id(deal), tuple(deal.awaited())) == awaited and self.table.is_open:
            self.table.emit(shuffle_event(self._names(awaited[1])))

    def _names(self, seats) -> list[str]:
        return [self.table.authority.seats[s].name for s in seats]

    def _deadline(self) -> None:
        t = self.table
        if not t.is_open or t.takeback.active:  # a restarted host signs nothing yet
            return
        late = t.authority.deal.overdue()
        if not late:
            self.watch()
            return
        for gone in late:
            if gone.key is not None and t.outbox.holds(fingerprint(gone.key)):
                t.outbox.drop(fingerprint(gone.key), "your client did not answer the deal in time")
                for seat in gone.seats:
                    t.emit(connection_event(seat, "dropped", "did not answer the deal in time"))
                    t.stand_ins.arm(seat)
        seats = sorted(s for gone in late for s in gone.seats)
        if all(gone.outcome == "skipped" for gone in late):
            t.emit(shuffle_event(self._names(seats), skipped=True))
        else:
            t.emit(deal_restart_event(self._names(seats), seats,
                                      any(gone.outcome == "void" for gone in late)))
        t.apply(t.authority.restart_without([gone.who for gone in late]))
        t.stand_ins.resume()
