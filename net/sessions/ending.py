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

What a guest is told when the table ended before the game was over is
``closed_by_host(reason)``: "The host closed the table." — the host's own farewell
(``HOST_LEFT``) is not said a second time after it, any other reason is ("… (3 hand(s)
played).").

A seated peer that comes back after the end (``arrived``) is given what it lacks of the
log and told "end" too, as the others were. Turned away with "the table is closing", a
player holding the log would take it for a passing refusal and keep trying a table that
is gone. (A watcher back after the end is the watchers' own: ``Watchers.arrived_after_end``.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from net.constants import END_GRACE, FAREWELL_GRACE
from net.sessions.clock import wait_until
from net.sessions.opened import chain_of
from net.trust.host.authority import HostAuthority


#: The reason a host leaving on purpose (the app's Leave, a carried-on table's new host
#: leaving) gives in its "end": what older guests show in brackets, so it stays as it was.
HOST_LEFT = "the host left the table"


def closed_by_host(reason: str) -> str:
    """What a guest is told when its host ended the table before the game was over: once
    that the host closed it, then the reason only when it says something more."""
    said = "The host closed the table"
    return f"{said}." if reason.strip().lower() in ("", HOST_LEFT) else f"{said} ({reason})."


class Sends(Protocol):
    """What the ending asks of the table's outbox."""
    links: dict

    def broadcast(self, msg: dict) -> None: ...
    def send(self, fp: str, msg: dict) -> None: ...
    def attach(self, fp: str, link, has: int) -> None: ...
    def all_hung_up(self) -> bool: ...
    def all_acked(self, seq: int) -> bool: ...


class Ending:
    """Wired to the table's ``authority`` (a getter: a restore may replace it), its
    ``outbox``, and ``joined_message`` (what a player back in its seat is told first)."""

    def __init__(self, authority: Callable[[], HostAuthority], outbox: Sends,
                 joined_message: Callable[[int], dict]):
        self._authority, self.outbox, self._joined_message = authority, outbox, joined_message
        self.message: dict | None = None  # the "end" every peer is sent
        self.expected: set[str] = set()  # fingerprints still to be told as they come back

    async def tell(self, reason: str, expected: Iterable[str] = (), hang_up: bool = False) -> None:
        outbox = self.outbox
        head = chain_of(self._authority()).seq
        self.message = {"type": "end", "reason": reason, "head": head}
        self.expected = set(expected) - set(outbox.links)
        outbox.broadcast(self.message)
        if hang_up:
            await wait_until(outbox.all_hung_up, FAREWELL_GRACE)
        else:
            await wait_until(lambda: not self.expected and outbox.all_acked(head), END_GRACE)

    def arrived(self, fp: str, link, join: dict) -> None:
        """A connection's "join" once the table has ended."""
        auth = self._authority()
        seat = auth.seat_of(fp)
        if self.message is None or seat is None:
            link.reject("the table is closing")
            return
        self.expected.discard(fp)
        has = min(join["last_seq"], chain_of(auth).seq)
        self.outbox.attach(fp, link, has)
        link.send(self._joined_message(seat))
        for msg in auth.sync(seat, has):
            self.outbox.send(fp, msg)
        link.send(self.message)
