"""The table log's entry kinds: one typed body each, in one registry.

A log entry (``values.Entry``) carries its kind and a body: the plain map the host
signed, which is what is hashed, stored and sent. Everything that reads an entry reads
its ``content`` instead: the body parsed once, into the kind's class below, the first
time anyone asks — for a peer that is ``log.Chain.problem``, where an entry arrives
(after its signature and its place in the chain), so an entry whose body does not fit
its kind is refused there, as the host's fault, and nothing downstream meets it. The
host writes entries from these classes too (``wire()`` is the body it signs).

``BODIES`` is the registry: kind -> class. A class lists its fields with their types
(checked on parse: ``int`` is never a bool, ``X | None`` allows None, ``list[int]`` each
item). A field the class does not list is not read (it is signed and hashed with the
rest, so two entries that differ only there are still two entries: a fork, caught as
one). A field with a default may be absent from an older log, and one made with
``omitted()`` is left out of the body while it holds its default, so a body reads as it
always did (the table's first deal of a hand has no ``attempt``). Nested maps that are
someone else's signed envelope (a player's move, a contribution, a deal message, a
standing) stay plain here: their own readers check them (``moves``, ``fairdeal``, the
mental deal's sequencer, ``takeover``).

This is protocol data: adding a kind or a field is a protocol change (docs/protocol.md).
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

from net.trust.moves import ActionBody
from net.wire import messages as m

_OMIT = "omit"


class EntryError(ValueError):
    """An entry's body does not fit its kind (the text says what, for a person)."""


def omitted(default: Any = None) -> Any:
    """A field left out of the body while it holds ``default``."""
    return field(default=default, metadata={_OMIT: True})


B = TypeVar("B", bound="EntryBody")


@dataclass(frozen=True)
class EntryBody:
    """The base of every kind's body: ``parse`` from the signed map, ``wire`` back."""

    KIND: ClassVar[str]

    @classmethod
    def parse(cls: type[B], body: Mapping) -> B:
        """This kind's body read from ``body``, or EntryError saying what does not fit."""
        if not isinstance(body, Mapping):
            raise EntryError(f"a {cls.KIND!r} entry's body is not a map")
        hints = _hints(cls)
        values = {}
        for f in fields(cls):
            if f.name not in body:
                if f.default is MISSING:
                    raise EntryError(f"a {cls.KIND!r} entry has no {f.name!r}")
                continue
            if not _fits(body[f.name], hints[f.name]):
                raise EntryError(f"a {cls.KIND!r} entry's {f.name!r} is malformed")
            values[f.name] = body[f.name]
        made = cls(**values)
        problem = made.problem()
        if problem:
            raise EntryError(f"a {cls.KIND!r} entry is malformed: {problem}")
        return made

    def problem(self) -> str | None:
        """What is wrong with these fields together (their types are already right)."""
        return None

    def wire(self) -> dict:
        """The body the host signs (a field made with ``omitted`` only when it is set)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if not (f.metadata.get(_OMIT) and getattr(self, f.name) == f.default)}


BODIES: dict[str, type[EntryBody]] = {}


def kind(name: str):
    """Register a body class as the kind ``name``."""
    def register(cls: type[B]) -> type[B]:
        cls.KIND = name
        BODIES[name] = cls
        return cls
    return register


def parse(kind_name: str, body: Mapping) -> EntryBody:
    """The typed body of an entry of ``kind_name``, or EntryError."""
    cls = BODIES.get(kind_name)
    if cls is None:
        raise EntryError(f"there is no entry kind {kind_name!r}")
    return cls.parse(body)


# -- the table ----------------------------------------------------------------------------
@kind("table")
@dataclass(frozen=True)
class TableBody(EntryBody):
    """Seq 0: the protocol, the host's key, the rules in force (``Game.key()``), the name;
    ``version``: the Parlour protocol (``PROTOCOL_VERSION``) of the host that opened the
    table — absent from a table opened before protocol 12, which a reader cannot date
    (``opened_before``)."""

    protocol: str
    host_key: bytes
    game: dict
    name: str = ""
    version: int | None = omitted()

    #: The first protocol whose table entry says its version: a table entry that says
    #: an older one is a lie (its host could read its log by rulings long gone).
    FIRST_VERSIONED: ClassVar[int] = 12

    def problem(self) -> str | None:
        if self.version is not None and self.version < self.FIRST_VERSIONED:
            return f"a table entry says protocol {self.version}, older than any that says one"
        return None

    def opened_before(self, version: int) -> bool:
        """Whether the table may have been opened by a host older than protocol
        ``version``: what an old ruling written in its log is read by (a table that does
        not say its protocol may be that old)."""
        return self.version is None or self.version < version


@kind("seat")
@dataclass(frozen=True)
class SeatBody(EntryBody):
    """Who sits in ``seat``: a person by key, a bot (the host's key) or nobody.
    ``readmit``: the host gave the seat to a new key (its player lost theirs)."""

    seat: int
    kind: str
    key: bytes | None
    name: str = ""
    level: str | None = None
    readmit: bool = False


@kind("option")
@dataclass(frozen=True)
class OptionBody(EntryBody):
    name: str
    value: bool


@kind("start")
@dataclass(frozen=True)
class StartBody(EntryBody):
    """A new game (scores to zero), its first dealer."""

    game_number: int
    dealer: int


@kind("drop")
@dataclass(frozen=True)
class DropBody(EntryBody):
    """``seat``'s player lost its connection (the deal may go on without it)."""

    seat: int


@kind("rejoin")
@dataclass(frozen=True)
class RejoinBody(EntryBody):
    seat: int


@kind("takeover")
@dataclass(frozen=True)
class TakeoverBody(EntryBody):
    """A new host's first entry, signed with its own key (``takeover``): whom it took
    over from, the standings that back it, the hand it abandons and why, in words;
    ``handover``: the departed host's, if it left the table to this player; ``held``:
    for each player whose standing says less than its own signed messages show, the
    logged entries that show what it held (``held.Held.wire``)."""

    departed: bytes
    departed_seat: int | None
    host_key: bytes
    seat: int
    standings: list[dict]
    abandoned: int | None
    reason: str
    handover: dict | None = omitted()
    held: list[dict] | None = omitted()

    def problem(self) -> str | None:
        return None if self.standings else "it carries no standings"


# -- a hand's end (both deals) --------------------------------------------------------------
@kind("hand_end")
@dataclass(frozen=True)
class HandEndBody(EntryBody):
    """The hand's result (``log.result_dict``), the running scores and the match's
    winner, if it is over; ``forfeit``: the player's proven cheat that ended it (the
    mental deal's ``log.Verdict``: party, seat, rule, detail), from protocol 8."""

    hand: int
    result: dict
    scores: list[int]
    winner: Any = None
    forfeit: dict | None = omitted()

    def problem(self) -> str | None:
        forfeit = self.forfeit
        if forfeit is None:
            return None
        if sorted(forfeit) != ["detail", "party", "rule", "seat"] \
                or not all(type(forfeit[k]) is int for k in ("party", "seat")) \
                or not all(isinstance(forfeit[k], str) for k in ("rule", "detail")):
            return "its forfeit is not {party, seat, rule, detail}"
        return None


@kind("reveal")
@dataclass(frozen=True)
class RevealBody(EntryBody):
    """The hand is closed. The seeded deal reveals its secret and each secret action's
    salt (``hidden``, seq -> full form); the mental deal carries only the number."""

    hand: int
    secret: bytes | None = omitted()
    hidden: list | None = omitted()


@kind("action")
@dataclass(frozen=True)
class ActionEntryBody(EntryBody):
    """A player's signed move (``signing.sign_action``), as it arrived."""

    signed: dict

    @classmethod
    def of(cls, signed: dict, move: ActionBody | None) -> "ActionEntryBody":
        """The body the host logs for a move it admitted, with what the player signed as
        it was read on the way in (``move``; not read again)."""
        body = cls(signed)
        if move is not None:
            object.__setattr__(body, "_move", move)
        return body

    @property
    def move(self) -> ActionBody:
        """What the player signed, read once."""
        move = self.__dict__.get("_move")
        if move is None:
            move = ActionBody.from_wire(self.signed["body"])
            object.__setattr__(self, "_move", move)
        return move

    def problem(self) -> str | None:
        return None if m.is_action_envelope(self.signed) else "its move is not a signed action"


@dataclass(frozen=True)
class HandBody(EntryBody):
    """The entries that open a hand's deal, or deal it, begin with its number and dealer."""

    hand: int
    dealer: int


# -- the seeded (commit-reveal) deal ---------------------------------------------------------
@kind("commit")
@dataclass(frozen=True)
class CommitBody(HandBody):
    """The host's commitment to the hand's secret; who is asked for randomness."""

    commitment: bytes
    contributors: list[int]


@kind("contribution")
@dataclass(frozen=True)
class ContributionBody(EntryBody):
    """A player's signed randomness (``messages.contribution_body``)."""

    seat: int
    signed: dict


@kind("skip")
@dataclass(frozen=True)
class SkipBody(EntryBody):
    """A contribution not in by the deadline: the deal goes on without it."""

    hand: int
    seat: int


@kind("deal")
@dataclass(frozen=True)
class DealBody(HandBody):
    contributors: list[int]


# -- the mental-poker deal (net.trust.deals.mental.log) ---------------------------------------
OLD_DEAL_GROUP = "edwards25519"  # the private deal's group before protocol 16


@kind("mental-deal")
@dataclass(frozen=True)
class MentalDealBody(HandBody):
    """A deal begins: who shuffles and holds which seats' cards (``parties``: each
    ``{"key", "seats"}``); ``attempt`` only after a restart of the same hand; ``proven``:
    every shuffle carries its proof (always, since protocol 14; absent in an older log);
    ``group``: the group its cards are encrypted in ("secp256k1" since protocol 16; absent
    in an older log, whose deals were over edwards25519)."""

    parties: list[dict]
    attempt: int = omitted(0)
    proven: bool = omitted(False)
    group: str = omitted(OLD_DEAL_GROUP)


@kind("mental")
@dataclass(frozen=True)
class MentalBody(EntryBody):
    """One party's signed deal message (``signed``), or a player's signed move whose
    card's proof is logged alone, as evidence (``played``)."""

    party: int
    signed: dict | None = omitted()
    played: dict | None = omitted()

    def problem(self) -> str | None:
        if (self.signed is None) == (self.played is None):
            return "it must carry a deal message or a played move, one of the two"
        return None


@kind("mental-restart")
@dataclass(frozen=True)
class MentalRestartBody(EntryBody):
    """The deal starts again (``record``: the sequencer's restart record); ``seats``
    are the seats that go to the host's party; ``cheat``: the verdict it rests on."""

    record: dict
    seats: list[int]
    cheat: dict | None = omitted()

    @property
    def reason(self) -> Any:
        return self.record.get("reason")

    @property
    def hand(self) -> Any:
        return self.record.get("hand")

    @property
    def attempt(self) -> Any:
        return self.record.get("attempt")


@kind("mental-dealt")
@dataclass(frozen=True)
class MentalDealtBody(HandBody):
    """Every share is logged: play begins."""


KINDS = tuple(BODIES)


# -- checking a value against a field's type ------------------------------------------------
_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """A body class's field types, read once per class."""
    if cls not in _HINTS:
        hints = get_type_hints(cls)
        _HINTS[cls] = {f.name: hints[f.name] for f in fields(cls)}
    return _HINTS[cls]


def _fits(value: Any, hint: Any) -> bool:
    """Whether a plain value has the type a field declares (a bool is not an int)."""
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        return any(_fits(value, arg) for arg in get_args(hint))
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    if origin is list:
        (item,) = get_args(hint)
        return isinstance(value, list) and all(_fits(v, item) for v in value)
    if hint is list or origin is dict or hint is dict:
        return isinstance(value, (list if hint is list else dict))
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


