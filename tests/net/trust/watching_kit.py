"""A watcher at an in-memory trust table (``trust_table.Table``, ``MentalTrustTable``).

The host's authority knows nothing of watchers: the sessions send each one every entry
as anyone may see it (``Archive.public_message``), and a watcher that joins is first sent
the whole log so (``Archive.public_sync``). ``Watcher`` does the same by hand, after each
of the table's deliveries: its ``PeerReplica`` is a key that holds no seat, checking every
entry as a seated peer's does, and it keeps everything it was sent (``received``) for the
curious-watcher tests. ``tamper`` lets a test be a dishonest host towards the watcher.
"""

from __future__ import annotations

from net.trust.peer.replica import PeerReplica
from net.wire import messages as m
from tests.net.trust_table import TABLE, identity


class Watcher:
    """A watcher of ``table``; ``join()`` now (the whole log so far, then live entries)."""

    def __init__(self, table, name: str = "watcher"):
        self.table = table
        self.identity = identity(name)
        self.replica = PeerReplica(self.identity, table.host_id.public_key, TABLE, table._bytes)
        self.received: list[dict] = []  # every message the watcher was sent, in order
        self.alerts: list = []
        self.verified: list = []
        self.sent = None  # the last entry sent to it (None: not joined yet)
        self.tamper = None  # fn(message) -> message or None (withheld): a dishonest host
        self.checks: list = []  # fn(watcher) after each message it accepted
        deliver = table.deliver

        def deliver_and_watch(out):
            deliver(out)
            self.catch_up()
        table.deliver = deliver_and_watch

    def join(self) -> None:
        """Sent the whole log so far (as the sessions' ``Watchers.join`` sends it)."""
        archive = self.table.host.archive
        for sync in archive.public_sync(-1):
            self._give(sync)
        self.sent = len(archive.log) - 1

    def catch_up(self) -> None:
        """Every entry logged since the last one sent, live."""
        if self.sent is None:
            return
        archive = self.table.host.archive
        while self.sent + 1 < len(archive.log):
            self.sent += 1
            self._give(archive.public_message(self.sent))

    def _give(self, message: dict) -> None:
        if self.tamper is not None:
            message = self.tamper(message)
            if message is None:
                return
        self.received.append(message)
        out = self.replica.receive(message)
        self.alerts += out.alerts
        self.verified += out.verified
        if out.sends:  # a watcher is no party of any deal: it never has anything to send
            raise AssertionError(f"a watcher's replica wanted to send {out.sends!r}")
        if not out.alerts:
            for check in self.checks:
                check(self)


def entries_in(message: dict) -> list[dict]:
    """The entry messages a message the host sent carries (one, or a sync's)."""
    return message["entries"] if message.get("type") == m.SYNC else [message]
