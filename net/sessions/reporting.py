"""Evidence travels: a guest that names the host tells the other players directly.

A guest whose replica stops at an alert naming the host has found it on what it was
sent — often on what it alone was sent, which nobody else can see. Left at that, the
table would wait for ever at a seat that no longer moves, with nobody else told why. So
``Reporter.report`` sends the signed report (``trust.reports``) to every other player
at once, over the standby links the players already keep for a takeover — each pinned
to the key the log seats there, at the address the host's roster gave — and to the host
over its own link (its person is told too). Each other player's client weighs it
itself (``PeerReplica.weigh``): checked there, it stops as at its own finding; not, it
tells its person "Maya's client reports …" and goes on.

A guest with no standby of its own (``parlour join`` without ``--carry-on``) can send a
report but is sent none: nothing listens for it. The roster comes from the host, which
a host that never sent one keeps from its players, as it keeps them from carrying the
table on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from net.sessions.standby import STANDBY
from net.trust import reports
from net.trust.alerts import IntegrityAlert
from net.trust.peer.replica import PeerReplica
from net.wire.framing import ConnectionClosed, ProtocolError
from net.wire.heartbeat import Link, Timings
from net.wire.identity import fingerprint
from net.wire.transport import HandshakeError, open_connection

log = logging.getLogger(__name__)


class Reporter:
    """Wired by the ``GuestCore`` to its ``identity``, ``timings``, and getters for its
    ``replica`` and its ``link`` to the host."""

    def __init__(self, identity, timings: Timings, *, replica: Callable[[], PeerReplica | None],
                 link: Callable[[], Link | None]):
        self.identity, self.timings = identity, timings
        self._replica, self._link = replica, link
        self.roster: dict[int, tuple[str, int]] = {}  # seat -> standby address, as the host said
        self._sending: list[asyncio.Task] = []
        self.delivered: list[int] = []  # the seats a report reached (tests, logs)

    def on_roster(self, message: dict) -> None:
        self.roster = {seat: (address, port) for seat, address, port in message["peers"]}

    def report(self, alert: IntegrityAlert) -> None:
        """Send the report of ``alert`` — this client's own finding — to the host and to
        every other player with a standby, all at once."""
        replica = self._replica()
        if replica is None or replica.seat is None:
            return  # no seat: nobody would take our word for anything
        message = reports.make(self.identity, alert, replica.seat)
        link = self._link()
        if link is not None:
            link.send(message)  # (queued before the link is closed: it goes first)
        for seat, key in replica.seats.players(besides=replica.host_key).items():
            if seat != replica.seat and seat in self.roster:
                self._sending.append(asyncio.ensure_future(self._send(seat, key, message)))

    async def _send(self, seat: int, key: bytes, message: dict) -> None:
        address, port = self.roster[seat]
        try:
            conn = await open_connection(address, port, self.identity, fingerprint(key),
                                         schemas=STANDBY, timeout=self.timings.connect)
        except (HandshakeError, OSError, TimeoutError, ProtocolError) as exc:
            log.info("our report could not reach seat %s: %s", seat, exc)
            return
        try:
            await conn.send(message)
            self.delivered.append(seat)
        except (ConnectionClosed, ProtocolError, OSError) as exc:
            log.info("our report could not reach seat %s: %s", seat, exc)
        finally:
            await conn.close()

    async def flush(self) -> None:
        """Until every report under way has gone, or could not (each within a connection
        attempt's time)."""
        sending, self._sending = self._sending, []
        if sending:
            await asyncio.gather(*sending, return_exceptions=True)
