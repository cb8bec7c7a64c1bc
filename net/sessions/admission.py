"""How many connections without a seat a host keeps, and which it drops first.

Every TCP connection a host accepts costs a file descriptor and some memory until it
ends. A connection that holds a seat is a player and is always kept; every other one —
in its TLS or Parlour handshake, waiting to send ``join``, or a stranger waiting for the
host to give it a seat — is *unseated*, and those are bounded:

* at most ``per_address`` unseated connections from one source (an IPv4 address, or an
  IPv6 /64, which one machine can fill);
* at most ``limit`` unseated connections in all;
* a stranger waits for a seat at most ``UNSEATED_WAIT`` seconds (the host session
  enforces that with a timer).

A new arrival is never refused: a returning player is a stranger until its handshake
shows its key, so refusing newcomers would let anyone lock the players out by keeping
the unseated places full. Instead, when a bound is reached, one connection already
there is dropped to make room: from the newcomer's own source when that source is at
its bound, else from the source holding the most; within a source, waiting strangers
first (their key is known and holds no seat), then the oldest. A flood from one machine
thus only ever evicts its own connections, and a player's reconnection from elsewhere
gets through.

``raise_file_limit`` lifts the soft descriptor limit to the hard one at start, so the
bounds above, not a desktop's default of 1,024 descriptors, decide what happens.

``Admission`` is a small state machine with no I/O: the server tells it about arrivals
and departures, and it answers with the tickets to close.
"""

from __future__ import annotations

import ipaddress
import itertools
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from net.constants import MAX_UNSEATED, MAX_UNSEATED_PER_SOURCE

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Ticket:
    """One accepted connection while it holds no seat."""

    source: str
    close: Callable[[str], None] = field(repr=False)  # drop the connection, saying why
    order: int = 0
    waiting: bool = False  # authenticated, and waiting for the host to give it a seat


def source_of(address: str) -> str:
    """What counts as one source: an IPv4 address, or the /64 an IPv6 address is in."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


class Admission:
    """The unseated connections of one host, and who makes room for a newcomer."""

    def __init__(self, limit: int = MAX_UNSEATED, per_source: int = MAX_UNSEATED_PER_SOURCE):
        self.limit = limit
        self.per_source = per_source
        self._unseated: dict[Ticket, None] = {}  # insertion order = age
        self._counter = itertools.count()
        self.evicted = 0  # connections dropped to make room (for logs and the bench)
        self.most = 0  # the most unseated connections ever held at once

    def __len__(self) -> int:
        return len(self._unseated)

    def from_source(self, source: str) -> int:
        return sum(1 for t in self._unseated if t.source == source)

    def arrive(self, address: str, close: Callable[[str], None]) -> Ticket:
        """A connection was accepted from ``address``: its ticket (room is made first)."""
        ticket = Ticket(source_of(address), close, next(self._counter))
        victim = self._victim(ticket.source)
        if victim is not None:
            self.leave(victim)
            self.evicted += 1
            log.info("dropped an unseated connection from %s to make room", victim.source)
            victim.close("too many connections without a seat; try again later")
        self._unseated[ticket] = None
        self.most = max(self.most, len(self._unseated))
        return ticket

    def _victim(self, source: str) -> Ticket | None:
        same = [t for t in self._unseated if t.source == source]
        if len(same) >= self.per_source:
            return _first_to_go(same)
        if len(self._unseated) < self.limit:
            return None
        counts = Counter(t.source for t in self._unseated)
        busiest = max(counts, key=lambda s: (counts[s], s))
        return _first_to_go([t for t in self._unseated if t.source == busiest])

    def wait(self, ticket: Ticket) -> None:
        """``ticket`` is a stranger waiting for a seat: first to go when room is needed."""
        ticket.waiting = True

    def seat(self, ticket: Ticket) -> None:
        """``ticket`` holds a seat now: it no longer counts, and is never dropped here."""
        self.leave(ticket)

    def leave(self, ticket: Ticket) -> None:
        """The connection ended (or was seated); idempotent."""
        self._unseated.pop(ticket, None)


def _first_to_go(tickets: list[Ticket]) -> Ticket:
    return min(tickets, key=lambda t: (not t.waiting, t.order))


def raise_file_limit(ceiling: int = 1 << 20) -> tuple[int, int] | None:
    """Lift the soft RLIMIT_NOFILE to the hard limit (at most ``ceiling``); the new
    (soft, hard), or None where there is no such limit to change (Windows)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = ceiling if hard == resource.RLIM_INFINITY else min(hard, ceiling)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):  # e.g. macOS caps it below the hard limit
            log.info("could not raise the open-file limit from %s to %s", soft, wanted)
    return resource.getrlimit(resource.RLIMIT_NOFILE)
