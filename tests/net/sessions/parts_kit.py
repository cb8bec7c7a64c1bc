"""Stand-ins for what the host's parts talk to, for tests that record calls without
I/O: a fake clock, a link that keeps what is sent, and a table that records what its
parts ask of it around a real (sans-I/O) ``HostAuthority``."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

from net.sessions.clock import Timers
from net.sessions.outbox import Outbox
from net.sessions.stand_ins import StandIns
from net.sessions.takeback import Takeback
from net.trust.host.authority import HostAuthority
from net.wire.identity import fingerprint
from tests.net.trust_table import identity


class FakeClock:
    """``call_later`` that runs nothing until ``run_all`` (or ``run_next``)."""

    def __init__(self):
        self.pending: list[list] = []  # [delay, fn, args, cancelled]

    def call_later(self, delay, fn, *args):
        entry = [delay, fn, args, False]
        self.pending.append(entry)
        return SimpleNamespace(cancel=lambda: entry.__setitem__(3, True))

    def live(self) -> list[list]:
        return [e for e in self.pending if not e[3]]

    def run_next(self) -> None:
        entry = self.live()[0]
        self.pending.remove(entry)
        entry[1](*entry[2])

    def run_all(self, limit: int = 100) -> None:
        for _ in range(limit):
            if not self.live():
                return
            self.run_next()
        raise AssertionError("timers kept coming")


class FakeLink:
    def __init__(self, name: str = "Peer", ticket=None):
        self.conn = SimpleNamespace(peer_name=name, ticket=ticket)
        self.sent: list[dict] = []
        self.closed: str | None = None
        self.finished = False
        self.live = False  # the peer is heard from (``heard_within``)

    def send(self, msg: dict) -> None:
        self.sent.append(msg)

    def reject(self, reason: str) -> None:
        self.closed = f"rejected: {reason}"

    def close(self, reason: str) -> None:
        self.closed = reason

    def finish(self) -> None:
        self.finished = True

    def heard_within(self, seconds: float) -> bool:
        return self.live and self.closed is None

    def kinds(self) -> list[str]:
        return [m["type"] for m in self.sent]


class RecordingTable:
    """What a part of the host sees of its table: a real authority (Rook, the host in
    seat 0, the other seats empty) and a record of every call the part makes."""

    def __init__(self, stand_in_after: float | None = None, stand_in_level: str | None = None):
        self.clock = FakeClock()
        self.timers = Timers(self.clock.call_later)
        host = identity("host")
        self.key, self.fingerprint, self.you = host.public_key, host.fingerprint, 0
        self.authority = HostAuthority(host, rng=random.Random(3).randbytes)
        self.authority.open_table("table-1", {"game": "rook"}, "Test table")
        self.authority.seat(0, "human", self.key, "Host")
        for seat in (1, 2, 3):
            self.authority.seat(seat, "empty")
        self.outbox = Outbox(lambda fp, after: self.authority.sync(self.authority.seat_of(fp), after))
        self.stand_ins = StandIns(lambda: self.authority, self.key, self.timers, emit=self.emit,
                                  apply=self.apply, forget_bot=self.forget_bot,
                                  after=stand_in_after, level=stand_in_level)
        self.takeback = Takeback(  # idle: this table was not restarted
            lambda: self.authority, self.timers, self.outbox, evidence=Path("evidence"),
            emit=self.emit, sync=lambda: None, log_only=self.log_only, receive=self.receive,
            went_on=lambda grace: self.calls.append(("went on", grace)),
            failed=lambda reason, waited: self.calls.append(("failed", reason)), grace=10.0)
        self.admission = SimpleNamespace(seat=lambda t: self.calls.append(("seat ticket", t)),
                                         wait=lambda t: self.calls.append(("wait ticket", t)))
        self.is_open = True
        self.calls: list[tuple] = []
        self.events: list[dict] = []

    # what parts call
    def emit(self, event: dict) -> None:
        self.events.append(event)

    def apply(self, out) -> None:
        self.calls.append(("apply", [e.kind for e in out.entries], out.error))
        self.outbox.deliver(out.sends, out.disconnect)

    def log_only(self, out) -> None:
        self.calls.append(("log_only", [e.kind for e in out.entries], out.error))
        self.outbox.deliver(out.sends, out.disconnect)

    def receive(self, fp: str, link, msg: dict) -> None:
        self.calls.append(("receive", fp, msg["type"]))

    def settled(self) -> None:
        self.calls.append(("settled",))

    def refresh(self) -> None:
        self.calls.append(("refresh",))

    def reseated(self) -> None:
        self.calls.append(("reseated",))

    def forget_bot(self, seat: int) -> None:
        self.calls.append(("forget_bot", seat))

    def connected(self, key) -> bool:
        return key is not None and (key == self.key or self.outbox.holds(fingerprint(key)))

    def names(self) -> list[str]:
        return [c[0] for c in self.calls]
