"""The small immutable values the trust code passes inward, parsed once at its edge.

What arrives (a message from the network, a record from the store) is plain data and is
schema-checked by ``messages.check``; from there on the trust code reads typed values:

* ``Seat``: who sits in a seat as the log says (a player by key, a bot, nobody), and
  ``Seats``, the table's seats by number;
* ``Entry`` and ``SignedEntry``: a log entry and the host's signature over it, with the
  wire form they were read from (what is hashed, stored and sent) and their hash;
* ``EntryMessage``: what the host sends a peer for one entry.

A player's move has its own: ``engine.Action`` (parsed once), ``moves.ActionBody`` (what
the player signed) and ``signing.SignedMove``. Bodies of entries stay plain maps: they
are what the host signed, one kind each; ``Entry.content`` is the body typed as its
kind's (``entries``), parsed once.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from functools import cached_property

from engine import RecordError, canonical

from net.trust.entries import B, EntryBody, SeatBody
from net.trust.entries import parse as parse_body
from net.trust.signing import entry_signed_by, sign_entry
from net.wire.identity import fingerprint
from net.wire.messages import KEY_BYTES

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
    def from_body(cls, body: SeatBody) -> "Seat":
        """The seat a "seat" entry's body puts in place."""
        return cls(body.kind, body.key, body.name, body.level, readmit=body.readmit)

    @staticmethod
    def body_problem(body: SeatBody, num_players: int, host_key: bytes) -> str | None:
        """Why a "seat" entry's body cannot stand at a table of ``num_players`` hosted
        with ``host_key``, or None."""
        seat, kind, key = body.seat, body.kind, body.key
        if not (isinstance(seat, int) and 0 <= seat < num_players and kind in (HUMAN, BOT, EMPTY)):
            return "a seat entry names no seat"
        if kind == BOT and key != host_key:
            return "a bot must play with the host's key"
        if kind == HUMAN and not (isinstance(key, bytes) and len(key) == KEY_BYTES):
            return "a player's seat needs a key"
        return None

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


class Seats(dict):
    """Seat number -> ``Seat``, as the log has placed them (host and replicas keep one)."""

    def held_by(self, key: bytes | None) -> int | None:
        """The first seat ``key`` plays as a person, or None (a replica asks several
        times per entry: a plain loop over the seat numbers)."""
        for seat in sorted(self):
            if self[seat].held_by(key):
                return seat
        return None

    def of_fingerprint(self, fp: str) -> int | None:
        """The seat of the person whose key has fingerprint ``fp``, or None."""
        return next((seat for seat, info in self.items()
                     if info.is_player and fingerprint(info.key) == fp), None)

    def players(self, besides: bytes | None = None) -> dict[int, bytes]:
        """Seat -> key of every seated person but the one playing with ``besides``."""
        return {seat: info.key for seat, info in sorted(self.items())
                if info.is_player and info.key != besides}

    def away(self) -> set[int]:
        """The seats whose player's connection is down."""
        return {seat for seat, info in self.items() if not info.connected}

    def rejoin_problem(self, seat: int, fp: str) -> str | None:
        """Why the person whose key has fingerprint ``fp`` may not rejoin ``seat``, or None."""
        info = self.get(seat)
        if info is None or not info.is_player:
            return f"seat {seat} is not a player's seat"
        if fingerprint(info.key) != fp:
            return (f"seat {seat} belongs to another player's key; ask the host to "
                    "re-admit you if you lost yours")
        return None

    def reconnected(self, seat: int, connected: bool) -> None:
        self[seat] = self[seat].with_connection(connected)

    def after_takeover(self, departed: bytes, host_key: bytes) -> "Seats":
        """These seats once a new host (``host_key``) took over from ``departed``: the
        computer players are the new host's, and the departed host's seat is held for it,
        disconnected (a copy)."""
        seats = Seats()
        for seat, info in self.items():
            if info.kind == BOT:
                info = replace(info, key=host_key)
            elif info.held_by(departed):
                info = info.with_connection(False)
            seats[seat] = info
        return seats

    def after(self, body: SeatBody) -> "Seats":
        """These seats once a "seat" entry with ``body`` is applied (a copy)."""
        seats = Seats(self)
        seats[body.seat] = Seat(body.kind, body.key)
        return seats


# -- log entries -------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One entry of the table's log (see ``log``): ``body`` is the plain map the host
    signed, ``content`` the same body typed as its kind's (``entries``), parsed once."""

    table: str
    seq: int
    prev: bytes
    kind: str
    body: dict
    state_hash: str | None = None

    @cached_property
    def content(self) -> EntryBody:
        """The body typed as its kind's (``entries.EntryError`` if it does not fit:
        ``log.Chain.problem`` asks first, where an entry arrives)."""
        return parse_body(self.kind, self.body)

    def body_as(self, kind: type[B]) -> B:
        """``content``, for a reader that knows the entry's kind (TypeError if it is not)."""
        body = self.content
        if not isinstance(body, kind):
            raise TypeError(f"entry {self.seq} is a {self.kind!r} entry, not {kind.KIND!r}")
        return body

    def wire(self) -> dict:
        return {"table": self.table, "seq": self.seq, "prev": self.prev, "kind": self.kind,
                "body": self.body, "state_hash": self.state_hash}


def entry_hash(signed_entry: dict) -> bytes:
    """SHA-256 of the canonical encoding of a whole signed entry (its wire form): the
    next entry's ``prev``, so the chain pins every signature too."""
    return hashlib.sha256(canonical.encode(signed_entry)).digest()


@dataclass(frozen=True)
class SignedEntry:
    """An entry and the host's signature over it. ``wire`` is the form it was read from
    or made as, ``{"entry": …, "sig": …}``: what is hashed, stored and sent."""

    entry: Entry
    sig: bytes
    wire: dict = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, wire: dict) -> "SignedEntry":
        """A schema-checked signed entry (``messages.check``), or a stored one."""
        return cls(Entry(**wire["entry"]), wire["sig"], wire)

    @classmethod
    def sign(cls, signer, entry: Entry) -> "SignedEntry":
        plain = entry.wire()
        inner = canonical.canonical(plain)
        wire = sign_entry(signer, plain, inner)
        signed = cls(entry, wire["sig"], wire)
        # what ``_canonical`` would make again (a cached_property keeps its value here)
        signed.__dict__["_canonical"] = [["entry", inner], ["sig", wire["sig"]]]
        return signed

    @cached_property
    def _canonical(self) -> list:
        """The whole signed entry in canonical form (``[["entry", …], ["sig", …]]``),
        made once: its hash and the bytes its signature covers are both packed from it."""
        return canonical.canonical(self.wire)

    @cached_property
    def hash(self) -> bytes:
        """``entry_hash(self.wire)``, from the canonical form made once."""
        return hashlib.sha256(canonical.pack(self._canonical)).digest()

    def signed_by(self, key: bytes) -> bool:
        inner = next((value for name, value in self._canonical if name == "entry"), None)
        return inner is not None and entry_signed_by(key, self.wire, inner)

    @property
    def seq(self) -> int:
        return self.entry.seq

    @property
    def kind(self) -> str:
        return self.entry.kind

    @property
    def body(self) -> dict:
        return self.entry.body

    @property
    def content(self) -> EntryBody:
        return self.entry.content


@dataclass(frozen=True)
class EntryMessage:
    """What the host sends a peer for one entry: the signed entry, the engine's events,
    the public view after it, and this peer's private part (``own``: what its view adds
    to the public one — its seat, its hand, its secrets; and its own secret move echoed
    back). ``view`` is the peer's whole view, the public one with ``own`` over it (a
    whole view sent as ``own``, as before protocol 5, gives the same). ``wire`` is the
    message as it came."""

    signed: SignedEntry
    events: list
    public: dict | None
    own: dict | None
    action: dict | None
    wire: dict = field(repr=False, compare=False)

    @classmethod
    def from_wire(cls, message: dict) -> "EntryMessage":
        """A schema-checked "entry" message (``messages.check``)."""
        private = message["private"]
        return cls(SignedEntry.from_wire(message["entry"]), message["events"], message["public"],
                   private["view"], private["action"], message)

    @cached_property
    def view(self) -> dict | None:
        if self.own is None or self.public is None:
            return self.own
        return {**self.public, **self.own}

    @property
    def entry(self) -> Entry:
        return self.signed.entry


def card_names(deck, value, among: set[int] | None = None) -> set[int]:
    """Every card a plain value names (any string that is a card's name); given
    ``among``, those of ``among`` it names, the walk stopping once all are found."""
    found, stack = set(), [value]
    wanted = len(among) if among is not None else -1
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                card = deck.parse(item)
            except RecordError:
                continue
            if among is None:
                found.add(card)
            elif card in among:
                found.add(card)
                if len(found) == wanted:
                    break
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found
