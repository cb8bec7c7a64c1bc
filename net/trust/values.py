"""The small immutable values the trust code passes inward, parsed once at its edge.

What arrives (a message from the network, a record from the store) is plain data and is
schema-checked by ``messages.check``; from there on the trust code reads typed values:

* ``Seat``: who sits in a seat as the log says (a player by key, a bot, nobody);
* ``Entry`` and ``SignedEntry``: a log entry and the host's signature over it, with the
  wire form they were read from (what is hashed, stored and sent) and their hash;
* ``EntryMessage``: what the host sends a peer for one entry;
* ``SignedAction``: a player's signed move (its ``ActionBody``) as it travels.

Bodies of entries stay plain maps: they are what the host signed, one kind each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

HUMAN, BOT, EMPTY = "human", "bot", "empty"


# -- seats -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in one seat: a player (``human``, by key), a bot (playing with the
    host's key) or nobody (``empty``). ``connected`` follows the drop and rejoin entries;
    ``readmit`` marks a seat the host gave to a new key."""

    kind: str
    key: bytes | None = None
    name: str = ""
    level: str | None = None
    connected: bool = True
    readmit: bool = False

    @classmethod
    def from_body(cls, body: Mapping) -> "Seat":
        """The seat a "seat" entry's body puts in place."""
        return cls(body["kind"], body["key"], body["name"], body.get("level"),
                   readmit=bool(body.get("readmit")))

    @property
    def is_player(self) -> bool:
        """A person's seat, with the key that plays it."""
        return self.kind == HUMAN and self.key is not None

    def held_by(self, key: bytes | None) -> bool:
        """Whether ``key`` plays this seat as a person (not as a bot's signer)."""
        return self.kind == HUMAN and self.key == key

    def with_connection(self, connected: bool) -> "Seat":
        return replace(self, connected=connected)


NOBODY = Seat(EMPTY, connected=False)


def seat_held_by(seats: Mapping[int, Seat], key: bytes | None) -> int | None:
    """The first seat ``key`` plays as a person, or None."""
    return next((seat for seat, info in sorted(seats.items()) if info.held_by(key)), None)
