"""Keeping a link alive: heartbeats, drop detection, acknowledgements and reconnection.

Three small pieces, each a state machine with the clock passed in (no sleeping inside,
so tests drive them with made-up times), and one asyncio wrapper that uses them:

* ``Heartbeat``: when to send the next "hb" and when the other side counts as gone.
  Every frame received counts as a sign of life, so a busy link sends no extra pings.
  Drop detection is ``timeout`` after the last frame heard (≤ 5 s with the defaults).
* ``AckBook``: what each peer has been sent and has acknowledged, by log sequence
  number. The host knows exactly which suffix a returning peer missed, and the bench
  measures "every peer verified entry n" from it.
* ``Backoff``: the delays between a guest's reconnection attempts: short at first (a
  restarted host or a blip is back within a second), doubling to a cap.
* ``Link``: an authenticated ``transport.Connection`` with an outgoing queue (so the
  protocol code never awaits a slow socket), a reader, and a ticker that sends "hb"
  frames and closes the link when the other side has gone quiet. ``run`` returns why
  the link ended. ``arrived``: the earliest moment the message being handled could have
  come in — the last time the link looked and found nothing waiting to be read before
  it — by which a peer times the host's deadlines (``trust.deals``): a peer starved of
  CPU reads a backlog in one go, and the time it read an entry says nothing of when
  the host sent it.

The "hb" frame is ``{"type": "hb", "seq": n}``: from a peer, the last entry it has
verified (its acknowledgement); from the host, the last entry of its log it has sent
that peer, with ``"head"``: that entry's hash. The host sends every entry before the
heartbeat that counts it, so a peer told of an entry it was not sent, or of another
entry with that number, knows within a heartbeat that the host is withholding entries
or forking the log.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from net.constants import (
    BACKOFF_MAX,
    BACKOFF_MIN,
    CONNECT_TIMEOUT,
    CONTRIBUTION_DEADLINE,
    CONTRIBUTION_SLACK,
    DROP_WAIT,
    HEARTBEAT_INTERVAL,
    HEARTBEAT_TIMEOUT,
    STAND_IN_GRACE,
    TAKEOVER_AFTER_RESET,
    TAKEOVER_AFTER_SILENCE,
    TAKEOVER_GATHER,
    TAKEOVER_PROBE,
    TAKEOVER_RETRY,
    UNSEATED_WAIT,
)
from net.wire import messages
from net.wire.framing import SCHEMAS, ConnectionClosed, ProtocolError
from net.wire.transport import Connection

log = logging.getLogger(__name__)

HB = "hb"

# -- what a session link carries ------------------------------------------------------
#: The frame-level schemas of a session: the handshake (registered by transport), the
#: trust protocol's messages (declared in ``messages.TRUST``: the frame layer checks
#: their fields' types, and HostAuthority and PeerReplica check them all the way down
#: with ``messages.check``) but "rejoin", which never travels, and the session's own.
WIRE = SCHEMAS.copy()
WIRE.include(messages.TRUST, exclude=(messages.REJOIN,))
#: peer -> host, first frame: sit me down (``seat`` None: any free seat) or, if I hold a
#: seat, give me the log after ``last_seq`` (of ``table``: the log I hold is that table's —
#: another table's, and I am a newcomer here); ``watch``: I only watch (no seat).
WIRE.message("join", {"seat": (int, None), "standby": (int, None), "table": str, "watch": bool},
             name=str, last_seq=int)
#: host -> peer: every seated guest's standby address, [[seat, address, port], …]: where
#: the players find each other should the host leave for good (sessions.succession).
WIRE.message("roster", peers=list)
#: host -> peer, answer to "join": the table's id and your seat; the log follows.
#: ``origin``: the key that opened the table, when another player carries it on now;
#: ``watch``: you watch (no seat; the log's public part follows).
WIRE.message("joined", {"origin": bytes, "watch": bool}, table=str, seat=(int, None), head=int)
#: either way: heartbeat and acknowledgement; the host's carries its head's hash too.
WIRE.message(HB, {"head": bytes}, seq=int)
#: host -> peer: the table is closing after entry ``head`` (all of it already sent).
WIRE.message("end", reason=str, head=int)
#: host -> every player and watcher: who watches the table (``watchers``: [{"key", "name",
#: "shown": [seats whose players show it their hand]}]), whether watching is ``open`` and
#: its ``cap`` (net/sessions/watchers.py), on every change.
WIRE.message("watchers", watchers=list, open=bool, cap=int)
#: player -> host: my hand, ``sealed`` for the watcher with key ``to`` (``on``: I show it my
#: hand; false: I stop); host -> that watcher alone: ``shown``, the seat it comes from
#: (net/trust/shown.py).
WIRE.message("show", to=bytes, sealed=bytes, on=bool)
WIRE.message("shown", seat=int, sealed=bytes)
#: host -> peer, after its last entry: the host is leaving and hands the table to a
#: player (``signed``: its handover, ``takeover.hand_over``), whose standby is at
#: ``address``:``port`` (sessions.succession).
WIRE.message("handover", signed=dict, address=str, port=int)
#: peer -> host: this player stopped at an alert and says why, with its signed evidence
#: (``trust.reports``; the host's person is told; no answer).
WIRE.message("report", signed=dict)
#: either way: table talk — a person's signed message, reaction, or the host's mute
#: (``net.trust.talk`` checks the envelope all the way down); the host relays what it takes.
WIRE.message("talk", signed=dict)
#: host -> peer: your talk message was not relayed, and why (``refuses``: its signature).
WIRE.message("talk_refused", {"refuses": bytes}, reason=str)


@dataclass(frozen=True)
class Timings:
    """Every delay a session uses, in seconds (tests pass ``Timings.quick()``)."""

    interval: float = HEARTBEAT_INTERVAL  # send an "hb" after this long without sending
    timeout: float = HEARTBEAT_TIMEOUT  # nothing heard for this long: the link is gone
    backoff_min: float = BACKOFF_MIN
    backoff_max: float = BACKOFF_MAX
    connect: float = CONNECT_TIMEOUT  # one connection attempt (TCP + TLS + auth)
    grace: float = STAND_IN_GRACE  # host option: a bot stands in after this long
    unseated_wait: float = UNSEATED_WAIT  # a stranger waits this long for a seat
    contribution: float = CONTRIBUTION_DEADLINE  # a shuffle not in by then is skipped
    contribution_slack: float = CONTRIBUTION_SLACK  # a peer's allowance for delivery
    drop_wait: float = DROP_WAIT  # the private deal waits this long for a player gone
    # The players carry the table on this long after their host's app is gone (its link
    # closed or reset), or after it went silent (its link timed out): ``succession``.
    takeover_reset: float = TAKEOVER_AFTER_RESET
    takeover_silent: float = TAKEOVER_AFTER_SILENCE
    takeover_gather: float = TAKEOVER_GATHER  # the successor waits for standings this long
    takeover_retry: float = TAKEOVER_RETRY  # no majority: tried again after this
    takeover_probe: float = TAKEOVER_PROBE  # the host tried this often meanwhile

    @classmethod
    def quick(cls, **changes) -> "Timings":
        """Short intervals for tests: drops seen within a second."""
        base = cls(interval=0.2, timeout=1.0, backoff_min=0.05, backoff_max=0.5, connect=2.0,
                   grace=1.5, contribution=2.0, contribution_slack=1.0, drop_wait=2.0,
                   takeover_reset=0.5, takeover_silent=0.5, takeover_gather=0.5,
                   takeover_retry=1.0, takeover_probe=0.05)
        return replace(base, **changes)

    def takeover_after(self, silent: bool) -> float:
        """How long after the host link ended the players carry the table on: its app
        gone (a reset: the link closed, connections refused) or its computer silent."""
        return self.takeover_silent if silent else self.takeover_reset

    @property
    def live(self) -> float:
        """A peer heard within this long is there: it sends a frame at least every
        ``interval``; a link that died has been silent longer (its own side gave up
        after ``timeout`` before it tried again)."""
        return self.interval + self.timeout / 2

    @property
    def tick(self) -> float:
        """How often the ticker looks at the clock."""
        return min(self.interval, self.timeout) / 4


class Heartbeat:
    """When to ping and when to give up, from the times frames were sent and heard."""

    def __init__(self, timings: Timings, now: float):
        self.timings = timings
        self.last_heard = now
        self.last_sent = now

    def heard(self, now: float) -> None:
        self.last_heard = now

    def sent(self, now: float) -> None:
        self.last_sent = now

    def due(self, now: float) -> bool:
        """Time to send an "hb" (nothing else has gone out for an interval)."""
        return now - self.last_sent >= self.timings.interval

    def dead(self, now: float) -> bool:
        """The other side has been silent for longer than the timeout."""
        return now - self.last_heard > self.timings.timeout


class AckBook:
    """Per peer: the last entry sent on its current link and the last it acknowledged."""

    def __init__(self):
        self.sent: dict[str, int] = {}
        self.acked: dict[str, int] = {}

    def start(self, peer: str, has: int) -> None:
        """A (re)connected peer says it holds every entry up to ``has``."""
        self.sent[peer] = has
        self.acked[peer] = max(self.acked.get(peer, -1), has) if has >= 0 else has

    def on_sent(self, peer: str, seq: int) -> None:
        self.sent[peer] = max(self.sent.get(peer, -1), seq)

    def on_ack(self, peer: str, seq: int) -> None:
        # Never beyond what was sent: a peer cannot acknowledge what it was not given.
        self.acked[peer] = min(max(self.acked.get(peer, -1), seq), self.sent.get(peer, -1))

    def forget(self, peer: str) -> None:
        self.sent.pop(peer, None)

    def missing(self, peer: str, seq: int) -> bool:
        """Whether an entry numbered ``seq`` would leave a gap on ``peer``'s link."""
        return seq > self.sent.get(peer, -1) + 1

    def all_acked(self, seq: int, peers) -> bool:
        return all(self.acked.get(p, -1) >= seq for p in peers)


class Backoff:
    """Reconnection delays: ``min``, doubling, capped at ``max``; ``reset`` on success."""

    def __init__(self, timings: Timings):
        self.timings = timings
        self.attempts = 0

    #: Doublings counted at most: far past any cap, and 2 ** 1024 would be no float.
    MAX_DOUBLINGS = 64

    def next(self) -> float:
        doublings = min(self.attempts, self.MAX_DOUBLINGS)
        delay = min(self.timings.backoff_min * (2 ** doublings), self.timings.backoff_max)
        self.attempts += 1
        return delay

    def reset(self) -> None:
        self.attempts = 0


# -- the asyncio link ---------------------------------------------------------------------

class Link:
    """One live connection: queued sends, heartbeats, and the reason it ended.

    ``on_message(msg)`` is called on the loop for every frame but "hb"; ``on_hb(seq,
    head)`` for the other side's heartbeat (``head`` None when it sends none).
    ``position()`` gives the seq we put in our own heartbeats, and ``head()``, if given,
    the hash that goes with it (the host's; None: none this time). ``silent`` says, once
    it has ended, whether the other side went quiet (rather than closing it).
    ``max_backlog``: the most messages it holds unsent (its connection takes no more: the
    other side stopped reading) before it ends the link; None: no bound.
    ``notes_arrival``: whether it keeps ``arrived`` (a guest's, whose replica judges the
    host's timing by it); a host's links read nothing by it, and so spare a look at the
    socket (a system call) for every frame a player or watcher sends.
    """

    def __init__(self, conn: Connection, timings: Timings, on_message: Callable[[dict], None],
                 position: Callable[[], int],
                 on_hb: Callable[[int, bytes | None], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 head: Callable[[], bytes | None] | None = None,
                 max_backlog: int | None = None, notes_arrival: bool = True):
        self.max_backlog = max_backlog
        self.notes_arrival = notes_arrival
        self.conn = conn
        self.timings = timings
        self.on_message = on_message
        self.position = position
        self.head = head
        self.on_hb = on_hb or (lambda seq, head: None)
        self.clock = clock
        self.heartbeat = Heartbeat(timings, clock())
        # When this side last looked and found nothing from the other waiting to be read
        # (``Connection.nothing_buffered``); at first, when the link was made: nothing on
        # it came before.
        self.quiet = self.heartbeat.last_heard
        #: The earliest moment (on ``clock``) the message being handled could have come
        #: in: ``quiet`` as it was when the message was read. Never later than the truth,
        #: however long this side took to read it (a loop starved of CPU reads a backlog
        #: in one go); earlier only by the time this side could not look.
        self.arrived = self.quiet
        self._queue: asyncio.Queue = asyncio.Queue()
        self._done = asyncio.Event()
        self._writing = False  # the writer holds a message it has not finished sending
        self.reason: str | None = None
        self.silent = False  # it ended because the other side went quiet (not closed)

    @property
    def closed(self) -> bool:
        return self._done.is_set()

    def heard_within(self, seconds: float) -> bool:
        """Whether the link is open and the other side was heard in the last ``seconds``
        (every frame counts; a live peer sends one at least every ``interval``)."""
        return not self.closed and self.clock() - self.heartbeat.last_heard <= seconds

    def send(self, msg: dict) -> bool:
        """Send ``msg``: written at once when nothing is queued or being written before
        it — an acknowledgement leaves before the handler that made it goes on to other
        work — else queued for the writer. Never blocks; dropped silently once the link
        has ended. Whether it was written at once (handed to the connection now)."""
        if self.closed:
            return False
        if self._queue.empty() and not self._writing:
            try:
                sent = self.conn.send_now(msg)
            except (ConnectionClosed, ProtocolError, OSError) as exc:
                self.close(f"send failed ({exc})")
                return False
            if sent:
                self.heartbeat.sent(self.clock())
                return True
        if self.max_backlog is not None and self._queue.qsize() >= self.max_backlog:
            self.close(f"it stopped reading: {self._queue.qsize()} messages unsent")
            return False
        self._queue.put_nowait(msg)
        return False

    def send_raw(self, data: bytes) -> None:
        """Queue bytes written as they are (fault-injection tests only)."""
        if not self.closed:
            self._queue.put_nowait(data)

    def close(self, reason: str) -> None:
        """End the link (idempotent); ``run`` returns soon after."""
        if not self.closed:
            self.reason = reason
            self._done.set()

    def reject(self, reason: str) -> None:
        """Send an error saying why, then end the link."""
        self.send({"type": "error", "reason": reason})
        self.finish()

    def finish(self) -> None:
        """End the link once everything queued so far has been sent."""
        if not self.closed:
            self._queue.put_nowait(_CLOSE)

    async def run(self) -> str:
        tasks = [asyncio.ensure_future(t) for t in (self._reader(), self._writer(), self._ticker())]
        try:
            await self._done.wait()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.conn.close()
        return self.reason or "closed"

    async def _reader(self) -> None:
        try:
            while not self.closed:
                self._look()
                msg = await self.conn.recv()
                self.arrived = self.quiet
                self.heartbeat.heard(self.clock())
                if msg["type"] == HB:
                    self.on_hb(msg["seq"], msg.get("head"))
                else:
                    self.on_message(msg)
                # Frames already buffered are read without yielding to the loop: let the
                # writer send what this message queued (an acknowledgement) before the
                # next one — after a hand's last card, the next is the full replay.
                await asyncio.sleep(0)
        except ConnectionClosed as exc:
            self.close(f"connection closed ({exc})")
        except ProtocolError as exc:
            await self.conn.reject(f"bad message: {exc}")
            self.close(f"sent garbage: {exc}")
        except Exception as exc:  # noqa: BLE001 - a bug in a handler ends this link only
            log.exception("link handler failed")
            self.close(f"internal error: {exc!r}")

    async def _writer(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                if item is _CLOSE:
                    self.close("refused")
                    return
                self._writing = True
                if isinstance(item, bytes):
                    await self.conn.send_raw(item)
                else:
                    await self.conn.send(item)
                self._writing = False
                self.heartbeat.sent(self.clock())
        except (ConnectionClosed, ProtocolError, OSError) as exc:
            self.close(f"send failed ({exc})")

    async def _ticker(self) -> None:
        while not self.closed:
            await asyncio.sleep(self.timings.tick)
            self._look()
            now = self.clock()
            if self.heartbeat.dead(now):
                self.silent = not self.closed
                self.close(f"no heartbeat for {self.timings.timeout:g} s")
                return
            if self.heartbeat.due(now) and self._queue.empty():
                beat = {"type": HB, "seq": self.position()}
                head = self.head() if self.head is not None else None
                if head is not None:
                    beat["head"] = head
                self.send(beat)
                self.heartbeat.sent(now)  # queued: don't queue another before it goes


    def _look(self) -> None:
        """Note the moment if nothing from the other side waits to be read (the clock read
        first: whatever is read later came in after it)."""
        if not self.notes_arrival:
            return
        now = self.clock()
        if self.conn.nothing_buffered():
            self.quiet = now


_CLOSE = object()
