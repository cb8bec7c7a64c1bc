"""Ending: how a table tells its peers it has ended, and waits (bounded) until they know.

A table ends on purpose in two ways, and each peer is sent "end" with the reason and the
last entry (``head``), once:

* ``tell(reason, expected)`` (``HostCore.finish``): the game is over, the hands asked
  for were played, or a restarted host cannot go on; the table waits (``END_GRACE``)
  until every peer has acknowledged the last entry — and until the ``expected`` peers
  that were not connected yet (after a restart, those it was still waiting for) have
  come back and been told;
* ``tell(reason, hang_up=True)`` (the host leaving, the app's Leave): it waits
  (``FAREWELL_GRACE``) until each peer has hung up, because closing first could reset a
  connection with "end" unread.

A seated peer that comes back after the end (``arrived``) is given what it lacks of the
log and told "end" too, as the others were. Turned away with "the table is closing", a
player holding the log would take it for a passing refusal and keep trying a table that
is gone.
"""

from __future__ import annotations

from collections.abc import Iterable

from net.constants import END_GRACE, FAREWELL_GRACE
from net.sessions.clock import wait_until


class Ending:
    def __init__(self, table):
        self.table = table
        self.message: dict | None = None  # the "end" every peer is sent
        self.expected: set[str] = set()  # fingerprints still to be told as they come back

    async def tell(self, reason: str, expected: Iterable[str] = (), hang_up: bool = False) -> None:
        t = self.table
        head = t.authority.chain.seq
        self.message = {"type": "end", "reason": reason, "head": head}
        self.expected = set(expected) - set(t.links)
        t.outbox.broadcast(self.message)
        if hang_up:
            await wait_until(t.outbox.all_hung_up, FAREWELL_GRACE)
        else:
            await wait_until(lambda: not self.expected and t.outbox.all_acked(head), END_GRACE)

    def arrived(self, fp: str, link, join: dict) -> None:
        """A connection's "join" once the table has ended."""
        t = self.table
        auth = t.authority
        seat = auth.seat_of(fp)
        if self.message is None or seat is None:
            link.reject("the table is closing")
            return
        self.expected.discard(fp)
        has = min(join["last_seq"], auth.chain.seq)
        t.outbox.attach(fp, link, has)
        link.send(t.arrivals.joined_message(seat))
        for msg in auth.sync(seat, has):
            t.outbox.send(fp, msg)
        link.send(self.message)
