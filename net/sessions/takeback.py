"""Takeback: a restarted host gets back, from its peers, the entries its disk lost.

The host's log is fsynced after its entries are sent (``store.GROUP``), so a power cut
may cost it entries its peers hold. ``net.trust.host.recovery.TailRecovery`` decides what
to ask whom and checks what comes back; this part runs it on the table:

* from the restart until recovery ends, the table signs nothing — no bot moves, no
  deal, no drops, no new seats; the host person's commands are held (the person is
  told "a moment") and run once it ends — so it never signs a second entry with a
  number it used, and a click made meanwhile is not lost;
* each returning peer's "join" (its ``last_seq``) goes to the recovery instead of
  being answered with the log at once; the peers' moves that come meanwhile are held
  and taken afterwards, in order;
* entries handed over are adopted by the authority (written, then fsynced), a peer
  that offers a forged one gets an integrity alert (evidence saved) and is cut off;
* when recovery is done, every returned peer gets the log it lacks, as on any rejoin,
  the restart grace goes on for those still away, and the table carries on; when it
  fails, the table ends, saying why, before signing anything.

A table with no peer to wait for (a game against the computer, or everyone away when
it stopped) goes on from its disk at once: nobody was sent anything the disk lost but
the host person's own screen, and at most the entries written after the last fsync
(the move in flight) are lost.

It is wired to the table's ``authority`` (a getter: the entries are adopted into the
one the table runs), ``timers`` and ``outbox``, where alerts keep their ``evidence``,
and the calls ``emit`` (tell the host's seat), ``sync`` (fsync the log), ``log_only``
(send what an authority call answered), ``receive`` (a peer's message, held meanwhile,
taken now), ``went_on`` (done: the restart grace left for those still away) and
``failed`` (the table ends: why, and the peers it waited for).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from net.sessions.clock import Timers
from net.sessions.events import error_event, notice_event
from net.sessions.facade import EventCallback
from net.sessions.opened import chain_of, table_of
from net.trust.alerts import alert_event
from net.trust.host.authority import HostAuthority, Out, RestoreError
from net.trust.host.recovery import RecoveryOut, TailRecovery
from net.trust.store import StoreError
from net.wire import messages as m

#: What the host person is told if they act while the table takes its log back.
WAIT = "The table is getting back moves this computer lost when it stopped; a moment…"


class Hands(Protocol):
    """The outbox, as the takeback uses it."""
    links: dict

    def send(self, fp: str, msg: dict) -> None: ...
    def attach(self, fp: str, link, has: int) -> None: ...


class Takeback:
    def __init__(self, authority: Callable[[], HostAuthority], timers: Timers, outbox: Hands, *,
                 evidence: Path, emit: EventCallback, sync: Callable[[], None],
                 log_only: Callable[[Out], None], receive: Callable[[str, object, dict], None],
                 went_on: Callable[[float], None], failed: Callable[[str, list], None],
                 grace: float):
        self._authority, self.timers, self.outbox, self.evidence = authority, timers, outbox, evidence
        self._emit, self._sync, self._log_only, self._receive = emit, sync, log_only, receive
        self._went_on, self._failed_with = went_on, failed
        self.grace = grace  # the restart grace: how long absent peers are waited for
        self.recovery: TailRecovery | None = None
        self._held: list[tuple] = []  # (fp, link, message) that came meanwhile
        self._commands: dict[tuple, Callable[[], object]] = {}  # the host person's, held meanwhile
        self._until = 0.0

    @property
    def active(self) -> bool:
        return self.recovery is not None

    @property
    def _recovering(self) -> TailRecovery:
        """The recovery under way: the peers' answers and the grace's end come here only
        while the takeback is ``active`` (arrivals and the core ask first)."""
        if self.recovery is None:
            raise RuntimeError("no takeback is under way")
        return self.recovery

    def begin(self) -> bool:
        """After a restart: wait for the peers that were connected, if any (True)."""
        auth = self._authority()
        awaited = {fp: seat for seat, fp in auth.peers().items() if auth.seats[seat].connected}
        if not awaited:
            return False
        chain = chain_of(auth)
        self.recovery = TailRecovery(auth.key, table_of(auth), chain.seq, chain.head, awaited)
        self._until = time.monotonic() + self.grace
        self.timers.later(("takeback",), self.grace, self._grace_over)
        return True

    def hold_command(self, key: tuple, run: Callable[[], object]) -> None:
        """A command of the host person's that would sign an entry came meanwhile: told
        to wait, it is run (``run()``) once the table goes on; the same one twice, once."""
        self._emit(error_event(WAIT))
        self._commands.setdefault(key, run)

    # -- the peers -------------------------------------------------------------------------
    def joined(self, fp: str, seat: int, last_seq: int) -> None:
        self._run(self._recovering.joined(fp, seat, last_seq))

    def left(self, fp: str) -> None:
        self._run(self._recovering.left(fp))

    def message(self, fp: str, link, msg: dict) -> None:
        """A message from a returned peer while the tail is being taken back."""
        if msg["type"] == m.TAIL:
            self._run(self._recovering.tail(fp, msg))
        else:
            self._held.append((fp, link, msg))

    def _grace_over(self) -> None:
        if self.active:
            self._run(self._recovering.grace_over())
        if self.active:  # another peer was asked for the tail: it gets a grace too
            self.timers.later(("takeback",), self.grace, self._grace_over)

    # -- what the recovery answered ------------------------------------------------------------
    def _run(self, out: RecoveryOut) -> None:
        for alert in out.alerts:
            self._emit(alert_event(alert, self.evidence))
        for fp in out.disconnect:
            link = self.outbox.links.get(fp)
            if link is not None:
                link.reject("you offered log entries this host did not sign")
        try:
            for signed, private in out.adopt:
                self._authority().adopt(signed, private)
            if out.adopt:
                self._sync()  # this disk lost them once
        except (RestoreError, StoreError) as exc:
            out = self._recovering.failed(f"an entry given back could not be taken: {exc}")
        except Exception as exc:  # noqa: BLE001 - a signed entry the engine refuses to replay
            out = self._recovering.failed(f"an entry given back does not replay ({exc})")
        for fp, msg in out.sends:
            self.outbox.send(fp, msg)
        if out.failed:
            self._failed(out.failed)
        elif out.done:
            self._done()

    def _done(self) -> None:
        rec = self._recovering
        self.recovery = None
        self.timers.cancel(("takeback",))
        if rec.recovered:
            self._emit(notice_event(f"Got back {rec.recovered} entries of the table's log that this "
                                "computer lost when it stopped, from the other players' copies."))
        auth = self._authority()
        for fp, last_seq in rec.reported.items():
            link, seat = self.outbox.links.get(fp), auth.seat_of(fp)
            if link is None or seat is None:
                continue
            has = min(last_seq, chain_of(auth).seq)
            self.outbox.attach(fp, link, has)
            self._log_only(auth.rejoin(fp, seat, has))
        held, self._held = self._held, []
        for fp, link, msg in held:
            self._receive(fp, link, msg)
        commands, self._commands = list(self._commands.values()), {}
        for run in commands:
            run()
        self._went_on(max(0.0, self._until - time.monotonic()))

    def _failed(self, reason: str) -> None:
        waited_for = list(self._recovering.seats)  # each told why, as it comes back
        self.recovery = None
        self._held.clear()
        self._commands.clear()
        self.timers.cancel(("takeback",))
        self._emit(error_event(f"The table cannot go on: {reason}.", fatal=True, cause="failed"))
        self._failed_with(reason, waited_for)
