"""The host's roster of its guests' standby addresses (``succession``): where the
players find each other should the host leave for good.

A guest that may carry the table on names its standby port in its "join"; the host
pairs it with the address the guest's connection comes from and sends every seated
guest the whole list, ``{"type": "roster", "peers": [[seat, address, port], …]}``,
whenever it changes, and to each guest that joins (a guest that only follows included,
and every watcher: it follows the table too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


class Roster:
    """The host's list of its guests' standby addresses, sent to every guest on change;
    ``links`` gives the links of the guests here (the outbox's)."""

    def __init__(self, links: Callable[[], Iterable]):
        self._links = links
        self.standby: dict[int, tuple[str, int]] = {}

    def joined(self, seat: int | None, link, join: dict) -> bool:
        """``link``'s "join" was answered: ``seat`` is where it sits (None: nowhere). A new
        standby address goes to every guest; a guest with none (or the same) is sent the
        list as it stands: it must know where the others are, to follow them. Whether the
        list changed."""
        if seat is None:
            return False
        port = join.get("standby")
        address = link.conn.address[0] if link.conn.address else None
        links, changed = [link], False
        if port is not None and address is not None and self.standby.get(seat) != (address, port):
            self.standby[seat] = (address, port)
            links, changed = list(self._links()), True
        if not self.standby:
            return changed
        message = self.message()
        for each in links:
            each.send(message)
        return changed

    def message(self) -> dict:
        return {"type": "roster", "peers": [[s, a, p] for s, (a, p) in sorted(self.standby.items())]}

    def tell(self, link) -> None:
        """One link (a watcher's, just joined) is sent the list as it stands, if any: a
        watcher follows the players should the host leave for good."""
        if self.standby:
            link.send(self.message())
