"""The host's outbox: what each seated peer is sent, in order, exactly once.

The trust layer (``HostAuthority``) answers every change with messages addressed by key
fingerprint. The outbox delivers them over each peer's ``heartbeat.Link``:

* every entry goes once and in order; one that would leave a gap (the peer was catching
  up) is replaced by a sync of what the peer lacks (``sync(fp, after)``);
* a sync is split into messages that each fit in one frame;
* what each peer has acknowledged (its replica verified it) is kept in an ``AckBook``,
  and listeners hear of each acknowledgement (the bench's latency timer);
* ``tamper`` (tests only) lets a dishonest host change or withhold what a peer gets.

No sockets here: a link is anything with ``send(msg)``, ``reject(reason)`` and
``close(reason)``, so tests record the sends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from net.wire import framing
from net.wire import messages as m
from net.wire.framing import ProtocolError
from net.wire.heartbeat import AckBook


class Outbox:
    def __init__(self, sync: Callable[[str, int], list[dict]],
                 tamper: Callable[[str, dict], dict | None] | None = None):
        self.sync = sync  # (fp, last seq sent) -> the sync messages that fill the gap
        self.tamper = tamper
        self.links: dict = {}  # fingerprint -> Link of every seated peer
        self.acks = AckBook()
        self.ack_listeners: list[Callable[[str, int], None]] = []

    # -- peers coming and going -----------------------------------------------------------
    def attach(self, fp: str, link, has: int) -> None:
        """``fp`` is seated on ``link`` and holds the log up to ``has``."""
        old = self.links.get(fp)
        if old is not None and old is not link:
            old.close("replaced by a new connection from the same key")
        self.links[fp] = link
        self.acks.start(fp, has)

    def detach(self, fp: str, link) -> bool:
        """``link`` ended: True if it was ``fp``'s current one (a drop), else False."""
        if self.links.get(fp) is not link:
            return False
        del self.links[fp]
        self.acks.forget(fp)
        return True

    def drop(self, fp: str, reason: str) -> None:
        """Close ``fp``'s link now, telling it why (its seat went to a new key; its client
        did not answer the deal in time): an "error" with the ``reason``, then the end."""
        link = self.links.pop(fp, None)
        if link is not None:
            self.acks.forget(fp)
            link.reject(reason)

    def all_hung_up(self) -> bool:
        """Whether every peer's link is closed (each hangs up once it has read "end")."""
        return all(link.closed for link in self.links.values())

    def sent_on(self, fp: str, link) -> int:
        """The last entry sent to ``fp`` on ``link`` (-1: none, or not its link)."""
        return self.acks.sent.get(fp, -1) if self.links.get(fp) is link else -1

    def holds(self, fp: str, link=None) -> bool:
        """Whether ``fp`` is connected (on ``link``, when given)."""
        return fp in self.links if link is None else self.links.get(fp) is link

    # -- sending ------------------------------------------------------------------------------
    def deliver(self, sends: list[tuple[str, dict]], disconnect: Iterable[str] = ()) -> None:
        """What the trust layer answered: messages to send, peers to cut off."""
        for fp, msg in sends:
            self.send(fp, msg)
        for fp in disconnect:
            link = self.links.get(fp)
            if link is not None:
                link.reject("disconnected after a malformed message")

    def send(self, fp: str, msg: dict) -> None:
        link = self.links.get(fp)
        if link is None:
            return
        kind = msg["type"]
        if kind == m.ENTRY:
            self._send_entry(fp, link, msg)
        elif kind == m.SYNC:
            self._send_sync(fp, link, msg)
        else:
            link.send(msg)

    def broadcast(self, msg: dict) -> None:
        for link in list(self.links.values()):
            link.send(msg)

    def _send_entry(self, fp: str, link, msg: dict) -> None:
        seq = msg["entry"]["entry"]["seq"]
        if seq <= self.acks.sent.get(fp, -1):
            return  # already sent on this link (in a sync)
        if self.acks.missing(fp, seq):
            for sync in self.sync(fp, self.acks.sent[fp]):
                self._send_sync(fp, link, sync)
            return
        tampered = self._tampered(fp, msg)
        if tampered is not None:  # a dishonest host (tests) may withhold it
            link.send(tampered)
        self.acks.on_sent(fp, seq)

    def _tampered(self, fp: str, msg: dict) -> dict | None:
        return msg if self.tamper is None else self.tamper(fp, msg)

    def _send_sync(self, fp: str, link, msg: dict) -> None:
        have = self.acks.sent.get(fp, -1)
        entries = [t for e in msg["entries"] if e["entry"]["entry"]["seq"] > have
                   and (t := self._tampered(fp, e)) is not None]
        if not entries and not msg["last"]:
            return
        whole = isinstance(msg, framing.Framed) and self.tamper is None \
            and len(entries) == len(msg["entries"])
        for chunk in [msg] if whole else fitting(entries, msg["last"]):
            link.send(chunk)  # (a ``Framed`` sync sent whole: its bytes made once, for all)
        if entries:
            self.acks.on_sent(fp, entries[-1]["entry"]["entry"]["seq"])

    # -- acknowledgements -------------------------------------------------------------------------
    def on_ack(self, fp: str, link, seq: int) -> None:
        if self.links.get(fp) is link:
            self.acks.on_ack(fp, seq)
            for listener in self.ack_listeners:
                listener(fp, seq)

    def all_acked(self, head: int) -> bool:
        return self.acks.all_acked(head, list(self.links))

    def acked(self, fp: str) -> int:
        return self.acks.acked.get(fp, -1)


def fitting(entries: list[dict], last: bool) -> list[dict]:
    """Sync messages carrying ``entries``, split so each fits in one frame (each
    ``Framed``: the encoding that showed it fits is the one written)."""
    msg = framing.Framed(m.sync_message(entries, last))
    try:
        msg.frame()
        return [msg]
    except ProtocolError:
        if len(entries) <= 1:
            raise
    half = len(entries) // 2
    return fitting(entries[:half], False) + fitting(entries[half:], last)
