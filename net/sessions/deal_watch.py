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
for "return": "Waiting for Dad to come back — only their computer knows their cards",
with the countdown and when the host person may deal again without them). The host
person may ``keep_waiting`` (the countdown starts again) or ``deal_again_without`` the
player once the rules allow it (``Away.choice_from``), which goes on as the deadline
does. Each guest tells its own person from its log (``guest_view``).

It is wired to the table's ``authority`` (a getter: a restore or a takeback may replace
it), ``timers``, ``outbox`` (to cut off a silent client), ``stand_ins`` and ``takeback``
(a restarted host signs nothing until it is done), and the calls ``emit`` (tell the host's
seat), ``apply`` (log a change and go on) and ``is_open``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from net.constants import SHUFFLE_NOTICE
from net.sessions.clock import Timers
from net.sessions.events import (WHY_CHOSEN, WHY_GONE, WHY_SILENT, away_event, connection_event,
                                 deal_restart_event, error_event, shuffle_event)
from net.sessions.facade import EventCallback, WhyRestarted
from net.trust.host.authority import HostAuthority, Out
from net.wire import messages as m
from net.wire.identity import fingerprint

DEADLINE = ("deal-deadline",)
DECIDE = ("deal-deadline-decide",)
NOTICE = ("deal-notice",)
IDLE = ("deal-idle",)


class Cuts(Protocol):
    """The outbox, as the deal's deadline uses it."""
    def holds(self, fp: str) -> bool: ...
    def drop(self, fp: str, reason: str) -> None: ...


class StandsIn(Protocol):
    def arm(self, seat: int) -> None: ...
    def stand_in(self, seat: int, bot: bool) -> None: ...
    def resume(self) -> None: ...


class Holds(Protocol):
    """The takeback: while active, nothing is signed; a command waits for its end."""
    @property
    def active(self) -> bool: ...

    def hold_command(self, key: tuple, run: Callable[[], object]) -> None: ...


class DealWatch:
    def __init__(self, authority: Callable[[], HostAuthority], timers: Timers, outbox: Cuts,
                 stand_ins: StandsIn, takeback: Holds, *, emit: EventCallback,
                 apply: Callable[[Out], None], is_open: Callable[[], bool]):
        self._authority, self.timers, self.outbox = authority, timers, outbox
        self.stand_ins, self.takeback = stand_ins, takeback
        self._emit, self._apply, self._is_open = emit, apply, is_open
        self._noticed: tuple | None = None  # the deal and seats the notice was armed for
        self._told: dict[tuple, tuple] = {}  # an away player's seats -> (deal, until) told

    def watch(self) -> None:
        """(Re)arm the timers for the deal under way; cancel them when nothing is awaited.
        Work the deal leaves for idle time runs as soon as this change's messages are out."""
        timers, deal = self.timers, self._authority().deal
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
        if self._is_open() and not self.takeback.active:
            self._apply(self._authority().idle())

    def _notice(self, awaited: tuple) -> None:
        deal = self._authority().deal
        if (id(deal), tuple(deal.awaited())) == awaited and self._is_open():
            self._emit(shuffle_event(self._names(awaited[1]), dealt=deal.deal_seq is not None))

    def _names(self, seats) -> list[str]:
        return [self._authority().seats[s].name for s in seats]

    # -- a player gone from the private deal ------------------------------------------------------
    def _tell_away(self, deal) -> None:
        """Tell the host's seat of each player gone the deal waits for, once, and again
        when their wait changes (the host kept waiting); forget those back or gone on
        without."""
        now = self._authority().clock()
        told = {}
        for away in deal.away():
            seats = away.late.seats
            told[seats] = (id(deal), away.until)
            if self._told.get(seats) != told[seats]:
                self._emit(away_event(self._names(seats), list(seats), max(0.0, away.until - now),
                                           max(0.0, away.choice_from - now)))
        self._told = told

    def keep_waiting(self, seat: int) -> None:
        """The host person keeps waiting for ``seat``'s player, gone: the countdown starts
        again, and no bot stands in meanwhile (as ``stand_in(seat, False)``)."""
        if self._is_open():
            self.stand_ins.stand_in(seat, False)
            self._authority().deal.keep_waiting([seat])  # (nothing is logged: the person's choice)
            self.watch()

    def deal_again_without(self, seat: int) -> None:
        """The host person deals the hand again now without ``seat``'s player, gone — if
        they have been away long enough for the rules (else the person is told when). A
        host still taking back what its disk lost signs nothing yet: the command waits."""
        if not self._is_open():
            return
        if self.takeback.active:
            self.takeback.hold_command(("deal_again_without", seat), lambda: self.deal_again_without(seat))
            return
        away = next((a for a in self._authority().deal.away() if seat in a.late.seats), None)
        if away is None:
            self._emit(error_event("the deal is not waiting for that player"))
            return
        early = away.choice_from - self._authority().clock()
        if early > 0:
            self._emit(error_event(f"You can deal again without {self._names([seat])[0]} in "
                               f"{early:.0f} s: the rules give a player that long to come back"))
            return
        self._go_on_without([away.late], WHY_CHOSEN)

    # -- the deadline --------------------------------------------------------------------------
    def _deadline(self) -> None:
        """The deadline has come. An answer that reached this computer in time — read from
        its link in this same turn of the loop, but not yet taken (the link's reader runs
        on the next turn) — is taken first: the decision waits that one turn. The client
        would rightly name a host that cut it for silence while its answer was in
        (``trust.peer.deliveries``)."""
        self.timers.later(DECIDE, 0, self._decide)

    def _decide(self) -> None:
        if not self._is_open() or self.takeback.active:  # a restarted host signs nothing yet
            return
        late = self._authority().deal.overdue()
        if not late:
            self.watch()
            return
        silent = any(gone.key is not None and self.outbox.holds(fingerprint(gone.key)) for gone in late)
        self._go_on_without(late, WHY_SILENT if silent else WHY_GONE)

    def _go_on_without(self, late: list, why: WhyRestarted) -> None:
        for gone in late:
            if gone.key is not None and self.outbox.holds(fingerprint(gone.key)):
                self.outbox.drop(fingerprint(gone.key), m.NO_ANSWER)
                for seat in gone.seats:
                    self._emit(connection_event(seat, "dropped", "did not answer the deal in time"))
                    self.stand_ins.arm(seat)
        seats = sorted(s for gone in late for s in gone.seats)
        if all(gone.outcome == "skipped" for gone in late):
            self._emit(shuffle_event(self._names(seats), skipped=True))
        else:
            self._emit(deal_restart_event(self._names(seats), seats,
                                      any(gone.outcome == "void" for gone in late), why))
        self._apply(self._authority().restart_without([gone.who for gone in late]))
        self.stand_ins.resume()
