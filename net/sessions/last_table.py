"""The last table this installation held a seat at as a guest, remembered on disk.

A guest's app can close mid-game (a crash, a restart, a flat battery) while the host
keeps the seat for its key. What the restarted app needs is *where* that table is and
what to say about it, so ``LastTable`` keeps one small JSON record next to the identity:
the host's address, port and key fingerprint, the table's id and name, our seat, and
the hand and scores last seen. ``GuestCore`` writes it as the game goes on — and as it
follows a takeover, naming the player who carries the table on before it reaches them —
and forgets it when the table ends or turns us away; the lobby (``session.Lobby``) reads
it to offer "Rejoin", finding the host by its key over mDNS or — where multicast is
blocked — at the address it last used, or the table by its id under another host (one
carried on while this app was away).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from net.constants import LAST_TABLE_FILE

log = logging.getLogger(__name__)


def seat_record(replica, address, port, fingerprint, name: str, host: str) -> dict:
    """What ``LastTable`` keeps of the seat ``replica`` plays at the table found at
    ``address``:``port`` (host key ``fingerprint``)."""
    game, seat = replica.game, replica.seat
    return {"address": address, "port": port, "fingerprint": fingerprint,
            "table": replica.table, "name": name, "host": host, "game": game.id,
            "mode": game.mode, "seat": seat, "players": game.num_players,
            "side": game.side_of(seat), "hand": replica.hand_number + 1,
            "scores": list(replica.scores or []), "started": replica.scores is not None}

# field -> the types a record's value may have (a record failing this is ignored)
FIELDS = {"address": (str,), "port": (int,), "fingerprint": (str,), "table": (str,),
          "name": (str,), "host": (str,), "game": (str,), "mode": (str, type(None)),
          "seat": (int,), "players": (int,), "side": (int,), "hand": (int,),
          "scores": (list,), "started": (bool,)}


def valid(record) -> bool:
    return isinstance(record, dict) and all(
        isinstance(record.get(k), kinds) and not (isinstance(record.get(k), bool) and bool not in kinds)
        for k, kinds in FIELDS.items()) and all(isinstance(s, int) for s in record["scores"]) \
        and 0 < record["port"] < 65536 and 0 <= record["seat"] < record["players"]


class LastTable:
    """One record in ``directory``; reading never raises, writing logs its failures."""

    def __init__(self, directory: str | os.PathLike):
        self.path = Path(directory) / LAST_TABLE_FILE
        self.saved: dict | None = None  # the record last written (the same is not rewritten)

    def load(self) -> dict | None:
        try:
            record = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return None
        return {k: record[k] for k in FIELDS} if valid(record) else None

    def save(self, record: dict) -> None:
        if record == self.saved:
            return
        if not valid(record):  # a bug, but one that must not cost the game: log it
            log.warning("not a last-table record, not kept: %r", record)
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({k: record[k] for k in FIELDS}))
            os.replace(tmp, self.path)
            self.saved = dict(record)
        except OSError:  # a full or read-only disk costs the rejoin offer, not the game
            log.warning("could not remember the table in %s", self.path, exc_info=True)

    def keep(self, replica, address, port, fingerprint, name: str, host: str) -> None:
        """Remember the seat ``replica`` plays at the table found at ``address``:``port``
        (``seat_record``), once it has one: a guest calls it as the game goes on."""
        if replica is not None and replica.game is not None and replica.seat is not None:
            self.save(seat_record(replica, address, port, fingerprint, name, host))

    def forget(self, table: str | None = None) -> None:
        """Forget the record (only if it is ``table``'s, when given)."""
        self.saved = None
        record = self.load()
        if record is not None and table is not None and record["table"] != table:
            return
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        except OSError:
            log.warning("could not forget the table in %s", self.path, exc_info=True)


class NoLastTable:
    """Where a guest that keeps no record of its seat (headless, tests) remembers it:
    nowhere."""

    def keep(self, replica, address, port, fingerprint, name: str, host: str) -> None:
        pass

    def forget(self, table: str | None = None) -> None:
        pass

    def load(self) -> dict | None:
        return None
