"""The host's roster of its guests' standby addresses (``succession``): where the
players find each other should the host leave for good.

A guest that may carry the table on names its standby port in its "join"; the host
pairs it with the address the guest's connection comes from and sends every seated
guest the whole list, ``{"type": "roster", "peers": [[seat, address, port], …]}``,
whenever it changes.
"""

from __future__ import annotations


class Roster:
    """The host's list of its guests' standby addresses, sent to every guest on change."""

    def __init__(self, table):
        self.table = table
        self.standby: dict[int, tuple[str, int]] = {}

    def joined(self, seat: int | None, link, join: dict) -> None:
        """``link``'s "join" was answered: ``seat`` is where it sits (None: nowhere)."""
        port = join.get("standby")
        address = link.conn.address[0] if link.conn.address else None
        if seat is None or port is None or address is None or self.standby.get(seat) == (address, port):
            return
        self.standby[seat] = (address, port)
        message = {"type": "roster", "peers": [[s, a, p] for s, (a, p) in sorted(self.standby.items())]}
        for each in list(self.table.outbox.links.values()):
            each.send(message)
