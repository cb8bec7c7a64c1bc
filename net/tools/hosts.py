"""What a bench reads of a ``HostCore`` it started: its table's authority and the table's
log. Both are there from ``start`` on; a bench asks only after it awaited ``start``."""

from __future__ import annotations

from net.sessions.host_session import HostCore
from net.trust.host.authority import HostAuthority
from net.trust.log import Chain


def authority(host: HostCore) -> HostAuthority:
    """The host's table (made, or restored from its disk, by ``start``)."""
    if host.authority is None:
        raise RuntimeError("the host has no table before it starts")
    return host.authority


def chain(host: HostCore) -> Chain:
    """The host's log (its table entry, seq 0, is logged as the table opens)."""
    log = authority(host).chain
    if log is None:
        raise RuntimeError("the host's table has not opened its log yet")
    return log
