"""Whereabouts: a host that lost most of its players looks whether they carried the
table on without it.

A host whose network was down for a while (a lid closed and opened again, the Wi-Fi
back) — or that a split network left with a minority of its players — may find that
the others carried the table on: most of its players did, which it cannot be
(``takeover.majority``). It cannot know while it cannot reach them. So while most of
the table's persons are away, it asks their standbys (the roster: ``succession``) every
``Timings.takeover_retry`` where the table is now ("where", on the standby protocol). A
player whose log holds a takeover of this host answers "follow" with where the table is
carried on: the host then tells its person — "Dad is carrying the table on …; join
Dad's table from the lobby" (a fatal "error": the app goes back to its lobby, which
offers the carried-on table, and this copy is not offered to resume) — marks its table
done and closes it. Until then its person sees the players away, as after any drop.
"""

from __future__ import annotations

import asyncio
import logging

from net.sessions.events import error_event
from net.sessions.standby import STANDBY
from net.trust import takeover
from net.wire.framing import ConnectionClosed, ProtocolError
from net.wire.identity import fingerprint
from net.wire.transport import HandshakeError, open_connection, within

log = logging.getLogger(__name__)


class Whereabouts:
    """``table``: the ``HostCore`` (its ``authority``, ``roster``, ``timings``,
    ``identity``, ``connected``, ``emit``, and how it stops)."""

    def __init__(self, table):
        self.table = table
        self._task: asyncio.Task | None = None

    def watch(self) -> None:
        """Players came or went: start looking if most of them are away."""
        if self._task is None and self._minority():
            self._task = asyncio.ensure_future(self._look())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _minority(self) -> bool:
        """Whether fewer than a majority of the table's persons are here (the host too)."""
        t = self.table
        auth = t.authority
        if not (t.is_open and t.listen and auth is not None and auth.match is not None):
            return False
        here = sum(1 for info in auth.seats.values() if info.is_player and t.connected(info.key))
        return here < takeover.majority(auth.seats)

    async def _look(self) -> None:
        try:
            while self._minority():
                await asyncio.sleep(self.table.timings.takeover_retry)
                if not self._minority():
                    break
                found = await self._ask_everyone()
                if found is not None:
                    asyncio.ensure_future(self._carried_on(found))  # (not one of its tasks: it stops them)
                    return
        finally:
            self._task = None

    async def _ask_everyone(self) -> dict | None:
        t = self.table
        seats = t.authority.seats
        asks = [self._ask(seats[seat].key, address, port)
                for seat, (address, port) in sorted(t.roster.standby.items())
                if seat in seats and seats[seat].is_player and not t.connected(seats[seat].key)]
        for answer in await asyncio.gather(*asks):
            if answer is not None:
                return answer
        return None

    async def _ask(self, key: bytes, address: str, port: int) -> dict | None:
        """Where this player says the table is carried on (a "follow"), or None."""
        t = self.table
        try:
            conn = await open_connection(address, port, t.identity, fingerprint(key),
                                         schemas=STANDBY, timeout=t.timings.connect)
        except (HandshakeError, OSError, TimeoutError, ProtocolError):
            return None
        try:
            await conn.send({"type": "where", "table": t.table})
            reply = await within(t.timings.connect, conn.recv())
        except (ConnectionClosed, ProtocolError, OSError, TimeoutError):
            return None
        finally:
            await conn.close()
        return reply if reply.get("type") == "follow" else None

    async def _carried_on(self, where: dict) -> None:
        """The others carried the table on without us: say so, and close this copy."""
        t = self.table
        if not t.is_open:
            return
        info = t.authority.seats.get(where["seat"])
        who = info.name if info is not None and info.name else "Another player"
        log.info("the table is carried on by seat %s at %s:%s", where["seat"], where["address"],
                 where["port"])
        t.emit(error_event(f"{who} is carrying the table on: this computer could not reach "
                           f"the others for a while, and most of them carried on without it. "
                           f"Join {who}'s table from the lobby to play on.", fatal=True))
        await t.close_carried_on()
