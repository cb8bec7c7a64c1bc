"""TailRecovery: a restarted host takes back, from its peers, entries it sent and lost.

The host sends an entry once it is written, before it is on the disk (``store.GROUP``):
the peers' verified copies are the backup. A power cut can therefore cost the host the
tail of its log — entries some peers hold and have shown their players. Were the host
to sign new entries from the shorter log, it would sign two different entries with one
number: a fork, which every honest peer reports. So a host restarted from its log
first asks for that tail, and signs nothing until it knows it has it.

The state machine (no I/O; the session sends what it answers, and applies the entries
it hands over with ``HostAuthority.adopt``):

``WAITING``
    for each peer that was connected (``awaited``) to come back; its "join" says how far
    its log goes (``joined(fp, last_seq)``). A peer that holds more than the host gets
    ``{"type": "tail_request", "after": seq}`` (→ ``FETCHING``).
``FETCHING``
    one peer's tail, in ``{"type": "tail", "entries": [signed entry, …], "last": bool}``
    messages. Every entry is checked as a replica checks the host's: signed by this
    host's key, for this table, the next number, linked to the hash before it. Checked
    entries go to the host (``RecoveryOut.adopt``) as they come; the first that is not
    ends that peer's offer with an integrity alert naming it (``party`` "player"), and
    it is cut off. Then back to ``WAITING`` (another peer may hold more).
``DONE``
    every awaited peer has reported (or left, or ``grace_over``: the restart grace
    ended) and no tail is being fetched (a tail still not in at the end of a grace is
    not waited for: a silent peer cannot hold the table): the host goes on from its
    head.
``FAILED``
    a given-back entry cannot be rebuilt — it held something only the host knew (a
    deal's secret, a hidden move's full form: ``store.host_only``), so the host's own
    disk lost an entry it had fsynced (a damaged or truncated file) — or does not replay
    (``failed(reason)``). The host cannot go on without forking: it stops the table,
    saying why.

What is not covered: a peer that held entries no other peer holds and does not come
back within the restart grace. The host goes on without it, and should that peer come
back later, its replica reports the new entries at those numbers as a fork — correctly:
the host did sign two entries with one number. docs/protocol.md ("Host restart")
discusses the trade.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from net.trust.alerts import PLAYER, IntegrityAlert
from net.trust.entries import ActionEntryBody
from net.trust.log import Chain
from net.trust.store import host_only
from net.trust.values import SignedEntry
from net.wire import messages as m


class Phase(enum.Enum):
    WAITING = "waiting"
    FETCHING = "fetching"
    DONE = "done"
    FAILED = "failed"


@dataclass
class RecoveryOut:
    sends: list = field(default_factory=list)  # (fingerprint, message)
    adopt: list = field(default_factory=list)  # (SignedEntry, private) to append, in order
    alerts: list = field(default_factory=list)  # IntegrityAlerts against a peer
    disconnect: list = field(default_factory=list)  # fingerprints to cut off
    done: bool = False  # recovery just ended well: go on
    failed: str | None = None  # recovery just failed: stop, saying this


def rebuilt_private(signed: SignedEntry) -> dict | None:
    """The host's private part of an entry given back by a peer, from the entry alone:
    a visible move's full form is its public form. (Only asked of entries for which
    ``store.host_only`` would be False.)"""
    body = signed.content
    if isinstance(body, ActionEntryBody):
        return {"action": body.move.action, "nonce": None}
    return None


#: Entry kinds whose private part only the host holds (``store.host_only``).
WITH_SECRETS = frozenset({"commit"})


def can_rebuild(signed: SignedEntry) -> bool:
    """Whether the host can take ``signed`` back without a private part it lost."""
    if signed.kind in WITH_SECRETS:
        return False
    return not host_only(signed, rebuilt_private(signed))


class TailRecovery:
    def __init__(self, host_key: bytes, table: str, seq: int, head: bytes,
                 awaited: dict[str, int]):
        """``seq``/``head``: where the host's log ends; ``awaited``: fingerprint -> seat
        of every peer that was connected when the host stopped."""
        self.host_key = host_key
        self.chain = Chain(table)
        self.chain.seq, self.chain.head = seq, head
        self.awaited = dict(awaited)
        self.seats = dict(awaited)  # every peer heard from, for alerts
        self.reported: dict[str, int] = {}  # fingerprint -> last seq it holds
        self.phase = Phase.WAITING
        self.source: str | None = None  # the peer whose tail is being fetched
        self.recovered = 0  # entries taken back
        self.reason: str | None = None  # why it failed

    # -- where the host's log ends ----------------------------------------------------------
    @property
    def seq(self) -> int:
        return self.chain.seq

    @property
    def active(self) -> bool:
        return self.phase in (Phase.WAITING, Phase.FETCHING)

    # -- input --------------------------------------------------------------------------------
    def joined(self, fp: str, seat: int, last_seq: int) -> RecoveryOut:
        """A peer is back and holds its log up to ``last_seq``."""
        out = RecoveryOut()
        if self.active:
            self.seats[fp] = seat
            self.reported[fp] = last_seq
            self._next(out)
        return out

    def left(self, fp: str) -> RecoveryOut:
        """A peer's link ended (mid-tail, or while the others are awaited)."""
        out = RecoveryOut()
        if not self.active:
            return out
        self.awaited.pop(fp, None)
        self.reported.pop(fp, None)
        if self.source == fp:
            self.source, self.phase = None, Phase.WAITING
        self._next(out)
        return out

    def grace_over(self) -> RecoveryOut:
        """The restart grace ended: stop waiting for peers that are not back, nor for a
        tail that has not come (its peer is taken to hold nothing more)."""
        out = RecoveryOut()
        if self.active:
            self.awaited = {fp: s for fp, s in self.awaited.items() if fp in self.reported}
            if self.phase is Phase.FETCHING and self.source is not None:  # (always one then)
                self.reported[self.source] = self.chain.seq
                self.source, self.phase = None, Phase.WAITING
            self._next(out)
        return out

    def tail(self, fp: str, message) -> RecoveryOut:
        """A peer's answer to "tail_request"."""
        out = RecoveryOut()
        if self.phase is not Phase.FETCHING or fp != self.source:
            return out  # not asked (or no longer): ignored
        try:
            message = m.check(message, (m.TAIL,))
        except m.ProtocolError as exc:
            return self._refuse(out, fp, None, "kind", f"its tail was malformed: {exc}", None)
        for wire in message["entries"]:
            try:
                signed = SignedEntry.from_wire(wire)
            except Exception as exc:  # noqa: BLE001 - any unreadable entry is the peer's fault
                return self._refuse(out, fp, None, "kind",
                                    f"it offered an unreadable entry ({type(exc).__name__})", wire)
            if signed.seq <= self.chain.seq:
                continue  # one the host holds (it asked from its head on)
            problem = self.chain.problem(self.host_key, signed)
            if problem:
                return self._refuse(out, fp, signed.seq, problem[0],
                                    f"it offered entry {signed.seq} of the host's lost tail, but "
                                    f"{problem[1]}", wire)
            if not can_rebuild(signed):
                self.phase = Phase.FAILED
                self.reason = (f"this computer lost entry {signed.seq} ({signed.kind}) of the table's "
                               "log from its disk, and the secret it held with it; going on would "
                               f"mean signing a different entry {signed.seq}, so the table stops here")
                out.failed = self.reason
                return out
            self.chain.advance(signed)
            self.recovered += 1
            out.adopt.append((signed, rebuilt_private(signed)))
        if message["last"]:
            self.source, self.phase = None, Phase.WAITING
            self._next(out)
        return out

    def failed(self, reason: str) -> RecoveryOut:
        """The host could not apply an entry handed over (it does not replay)."""
        self.phase, self.reason = Phase.FAILED, reason
        return RecoveryOut(failed=reason)

    # -- what next ----------------------------------------------------------------------------
    def _next(self, out: RecoveryOut) -> None:
        if self.phase is not Phase.WAITING:
            return
        ahead = [(seq, fp) for fp, seq in self.reported.items() if seq > self.chain.seq]
        if ahead:
            _, fp = max(ahead)  # the longest copy: one request gets the whole tail
            self.source, self.phase = fp, Phase.FETCHING
            out.sends.append((fp, m.tail_request_message(self.chain.seq)))
            return
        if all(fp in self.reported for fp in self.awaited):
            self.phase = Phase.DONE
            out.done = True

    def _refuse(self, out: RecoveryOut, fp: str, seq: int | None, rule: str, detail: str,
                wire) -> RecoveryOut:
        """``fp`` offered something that is not this host's log: an alert naming it, and
        it is cut off; the others may still hold the tail."""
        seat = self.seats.get(fp)
        out.alerts.append(IntegrityAlert(seat, PLAYER, rule, f"seat {seat}: {detail}",
                                         self.chain.table, seq, [] if wire is None else [wire]))
        out.disconnect.append(fp)
        self.awaited.pop(fp, None)
        self.reported.pop(fp, None)
        self.source, self.phase = None, Phase.WAITING
        self._next(out)
        return out
