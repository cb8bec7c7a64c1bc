"""The host's roster of its guests' standby addresses (``succession``): where the
players find each other should the host leave for good.

A guest that may carry the table on names its standby port in its "join"; the host
pairs it with the address the guest's connection comes from and sends every seated
guest the whole list, ``{"type": "roster", "peers": [[seat, address, port], …]}``,
whenever it changes, and to each guest that joins (a guest that only follows included,
and every watcher: it follows the table too).

A standby is its *player's*, not its seat's: it is kept by the key whose "join" named it
(forgotten when that key joins again naming none: a client that can no longer carry the
table on), and the list says the seat each key holds now. So seats swapped before the
deal, or a seat given to a new key, never leave one player's standby under another's
seat — which would offer the host person a player who cannot take the table, and send
every standing to the wrong computer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Peers = list[list]  # [[seat, address, port], …], by seat


class Roster:
    """The host's list of its guests' standby addresses, sent to every guest on change;
    ``links`` gives the links of the guests here (the outbox's), ``seat_of`` the seat a
    key (its fingerprint) holds now, None if none."""

    def __init__(self, links: Callable[[], Iterable], seat_of: Callable[[str], int | None]):
        self._links, self._seat_of = links, seat_of
        self._by_key: dict[str, tuple[str, int]] = {}  # fingerprint -> its standby
        self._sent: Peers = []  # the list as the guests were last sent it

    @property
    def standby(self) -> dict[int, tuple[str, int]]:
        """Seat -> the standby address of the player who holds it now."""
        held = {self._seat_of(fp): where for fp, where in self._by_key.items()}
        return {seat: held[seat] for seat in sorted(s for s in held if s is not None)}

    def joined(self, fp: str, link, join: dict) -> bool:
        """``link``'s "join" (by the key ``fp``) was answered. A new or changed list goes to
        every guest; else a seated guest is sent the list as it stands: it must know where
        the others are, to follow them. Whether the list changed."""
        port = join.get("standby")
        address = link.conn.address[0] if link.conn.address else None
        if port is not None and address is not None:
            self._by_key[fp] = (address, port)
        else:
            self._by_key.pop(fp, None)  # (this client no longer stands by)
        if self.reseated():
            return True
        if self._seat_of(fp) is not None and self._sent:
            link.send(self.message())
        return False

    def reseated(self) -> bool:
        """Seats or standbys changed: the list to every guest, if it reads otherwise now.
        Whether it did."""
        peers = self._peers()
        if peers == self._sent:
            return False
        self._sent = peers
        message = self.message()
        for each in list(self._links()):
            each.send(message)
        return True

    def _peers(self) -> Peers:
        return [[seat, address, port] for seat, (address, port) in self.standby.items()]

    def message(self) -> dict:
        return {"type": "roster", "peers": self._peers()}

    def tell(self, link) -> None:
        """One link (a watcher's, just joined) is sent the list as it stands, if any: a
        watcher follows the players should the host leave for good."""
        if self.standby:
            link.send(self.message())
