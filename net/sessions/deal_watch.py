"""The deal's deadline on the host: a deal waiting for a player goes on without them.

A deal may wait for a player's client: its shuffle under the seeded deal, its key share,
shuffle or decryption shares under the mental deal, once the private deal's cards are
dealt a widow's or kitty's shares or its reveal — or a player gone whose cards only its
own client can open. ``DealWatch`` keeps one timer on what the hand's deal part says
(``deal.due_in``), tells the people once the deal has waited a while for a client that
is there (``SHUFFLE_NOTICE``: whose shuffle it waits for), and when the deadline passes
and the deal names someone ``overdue``:

* a client that did not answer in time is treated as gone: its link is closed (it comes
  back as any dropped player does), and a stand-in is armed for its seats;
* the people are told in words: a shuffle skipped, a deal restarted without a player, or
  a hand voided (the scores unchanged), and why;
* the authority goes on without them (``restart_without``: a ``skip``, or a
  ``mental-restart`` with their seats the host's), and waiting stands-ins resume.

A player gone from the private deal (``deal.away()``) is waited for longer (the drop
wait): the host's seat is told, and told again when the wait changes ("waiting" events
for "return": "Waiting for Dad to come back — their cards are locked with their key",
with the countdown and when the host person may deal again without them). The host
person may ``keep_waiting`` (the countdown starts again) or ``deal_again_without`` the
player once the rules allow it (``Away.choice_from``), which goes on as the deadline
does. Each guest tells its own person from its log (``guest_view``).

It talks to its table through ``authority``, ``timers``, ``outbox``, ``emit``, ``apply``,
``stand_ins``, ``is_open`` and ``takeback``.
"""

from __future__ import annotations

from net.constants import SHUFFLE_NOTICE
from net.sessions.events import (WHY_CHOSEN, WHY_GONE, WHY_SILENT, away_event, connection_event,
                                 deal_restart_event, error_event, shuffle_event)
from net.wire.identity import fingerprint

DEADLINE = ("deal-deadline",)
NOTICE = ("deal-notice",)
IDLE = ("deal-idle",)


class DealWatch:
    def __init__(self, table):
        self.table = table
        self._noticed: tuple | None = None  # the deal and seats the notice was armed for
        self._told: dict[tuple, tuple] = {}  # an away player's seats -> (deal, until) told

    def watch(self) -> None:
        """(Re)arm the timers for the deal under way; cancel them when nothing is awaited.
        Work the deal leaves for idle time runs as soon as this change's messages are out."""
        timers, deal = self.table.timers, self.table.authority.deal
        if deal.idle_due() and IDLE not in timers:
            timers.later(IDLE, 0, self._idle)
        self._tell_away(deal)
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
            self.table.emit(shuffle_event(self._names(awaited[1]), dealt=deal.deal_seq is not None))

    def _names(self, seats) -> list[str]:
        return [self.table.authority.seats[s].name for s in seats]

    # -- a player gone from the private deal ------------------------------------------------------
    def _tell_away(self, deal) -> None:
        """Tell the host's seat of each player gone the deal waits for, once, and again
        when their wait changes (the host kept waiting); forget those back or gone on
        without."""
        now = self.table.authority.clock()
        told = {}
        for away in deal.away():
            seats = away.late.seats
            told[seats] = (id(deal), away.until)
            if self._told.get(seats) != told[seats]:
                self.table.emit(away_event(self._names(seats), list(seats), max(0.0, away.until - now),
                                           max(0.0, away.choice_from - now)))
        self._told = told

    def keep_waiting(self, seat: int) -> None:
        """The host person keeps waiting for ``seat``'s player, gone: the countdown starts
        again, and no bot stands in meanwhile (as ``stand_in(seat, False)``)."""
        t = self.table
        if t.is_open:
            t.stand_ins.stand_in(seat, False)
            t.authority.deal.keep_waiting([seat])  # (nothing is logged: the person's choice)
            self.watch()

    def deal_again_without(self, seat: int) -> None:
        """The host person deals the hand again now without ``seat``'s player, gone — if
        they have been away long enough for the rules (else the person is told when). A
        host still taking back what its disk lost signs nothing yet: the command waits."""
        t = self.table
        if not t.is_open:
            return
        if t.takeback.active:
            t.takeback.hold_command(("deal_again_without", seat), lambda: self.deal_again_without(seat))
            return
        away = next((a for a in t.authority.deal.away() if seat in a.late.seats), None)
        if away is None:
            t.emit(error_event("the deal is not waiting for that player"))
            return
        early = away.choice_from - t.authority.clock()
        if early > 0:
            t.emit(error_event(f"You can deal again without {self._names([seat])[0]} in "
                               f"{early:.0f} s: the rules give a player that long to come back"))
            return
        self._go_on_without([away.late], WHY_CHOSEN)

    # -- the deadline --------------------------------------------------------------------------
    def _deadline(self) -> None:
        t = self.table
        if not t.is_open or t.takeback.active:  # a restarted host signs nothing yet
            return
        late = t.authority.deal.overdue()
        if not late:
            self.watch()
            return
        silent = any(gone.key is not None and t.outbox.holds(fingerprint(gone.key)) for gone in late)
        self._go_on_without(late, WHY_SILENT if silent else WHY_GONE)

    def _go_on_without(self, late: list, why: str) -> None:
        t = self.table
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
                                      any(gone.outcome == "void" for gone in late), why))
        t.apply(t.authority.restart_without([gone.who for gone in late]))
        t.stand_ins.resume()
