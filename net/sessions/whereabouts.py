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
from collections.abc import Awaitable, Callable

from net.sessions.roster import Roster
from net.sessions.standby import STANDBY
from net.trust import takeover
from net.trust.host.authority import HostAuthority
from net.wire.framing import ConnectionClosed, ProtocolError
from net.wire.heartbeat import Timings
from net.wire.identity import fingerprint
from net.wire.transport import HandshakeError, open_connection, within

log = logging.getLogger(__name__)


class Whereabouts:
    """Wired by the ``HostCore`` to what it uses: the host's ``identity`` and ``timings``,
    the ``roster`` (the players' standby addresses), ``watched`` (the table's authority
    while it is open for players with a match under way, else None), ``connected`` (is
    this key's player here) and ``carried_on`` (say this to the person and close the
    copy)."""

    def __init__(self, identity, timings: Timings, roster: Roster, *,
                 watched: Callable[[], HostAuthority | None],
                 connected: Callable[[bytes], bool],
                 carried_on: Callable[[str], Awaitable[None]]):
        self.identity, self.timings, self.roster = identity, timings, roster
        self._watched, self._connected, self._close = watched, connected, carried_on
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
        auth = self._watched()
        if auth is None:
            return False
        here = sum(1 for info in auth.seats.values() if info.is_player and self._connected(info.key))
        return here < takeover.majority(auth.seats)

    async def _look(self) -> None:
        try:
            while self._minority():
                await asyncio.sleep(self.timings.takeover_retry)
                if not self._minority():
                    break
                found = await self._ask_everyone()
                if found is not None:
                    asyncio.ensure_future(self._carried_on(found))  # (not one of its tasks: it stops them)
                    return
        finally:
            self._task = None

    async def _ask_everyone(self) -> dict | None:
        auth = self._watched()
        table = auth.table if auth is not None else None
        if auth is None or table is None:  # (a match under way: its table entry is there)
            return None
        seats = auth.seats
        asks = [self._ask(table, seats[seat].key, address, port)
                for seat, (address, port) in sorted(self.roster.standby.items())
                if seat in seats and seats[seat].is_player and not self._connected(seats[seat].key)]
        for answer in await asyncio.gather(*asks):
            if answer is not None:
                return answer
        return None

    async def _ask(self, table: str, key: bytes, address: str, port: int) -> dict | None:
        """Where this player says the table is carried on (a "follow"), or None."""
        try:
            conn = await open_connection(address, port, self.identity, fingerprint(key),
                                         schemas=STANDBY, timeout=self.timings.connect)
        except (HandshakeError, OSError, TimeoutError, ProtocolError):
            return None
        try:
            await conn.send({"type": "where", "table": table})
            reply = await within(self.timings.connect, conn.recv())
        except (ConnectionClosed, ProtocolError, OSError, TimeoutError):
            return None
        finally:
            await conn.close()
        return reply if reply.get("type") == "follow" else None

    async def _carried_on(self, where: dict) -> None:
        """The others carried the table on without us: say so, and close this copy."""
        auth = self._watched()
        if auth is None:
            return
        info = auth.seats.get(where["seat"])
        who = info.name if info is not None and info.name else "Another player"
        log.info("the table is carried on by seat %s at %s:%s", where["seat"], where["address"],
                 where["port"])
        await self._close(f"{who} is carrying the table on: this computer could not reach "
                          f"the others for a while, and most of them carried on without it. "
                          f"Join {who}'s table from the lobby to play on.")
