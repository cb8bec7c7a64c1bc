"""Takeover: the remaining players carry the table on when its host is gone for good.

No I/O. When the host has been gone long enough (``succession``: a couple of seconds
after its app died, or after it went silent), each remaining player's client signs a
*standing* — "at table T, with host H gone, I (seat s) hold the log up to entry ``seq``
whose hash is ``head``" — and sends it to the others it can reach. The successor is the
lowest seat among those standings whose player's client can host (``successor_seat``; a
client with no standby only follows): every client that sees the same standings picks
the same one, with no server. A host leaving on purpose may instead *hand the table
over*: it signs a ``handover`` naming the player who carries it on (``hand_over``), and
that player is the successor, lowest seat or not.

**A majority, so never two tables.** A takeover needs the standings of more than half of
the persons seated at the table (``majority``), the departed host counted among them
(its signed handover counts as its standing). Two groups of players who cannot reach
each other cannot both have that, and the host's own side — if the host is alive in
another part of a partitioned network — is not a majority either when a successor is:
at most one side ever carries the table on. (A table of two persons is carried on only
by a handover: the one player left cannot tell its host gone from itself cut off.)

The successor becomes the host from its own copy of the log (``successor.succeed``). Its
first entry is a ``takeover`` entry, signed with *its own* key, that

* extends the last entry every standing holds (the lowest ``seq`` among them: the
  entries after it are the departed host's that not everyone received, and are dropped
  by the peers that had them — ``rolled_back``);
* names the departed host (key and seat) and the new one (key and seat);
* carries every standing it gathered, each signed by its player — and the handover, if
  the host left it the table: that is the others' acknowledgement, in the log for
  anyone to check later — the old host too, when it comes back;
* says which hand it abandons, if one was in progress: the departed host took its deal
  secret (and its own and its computer players' cards) with it, so that hand cannot be
  finished honestly; it is dealt again with the same number and dealer, scores
  unchanged (``reason`` says so in words).

Every other player checks the entry (``takeover_problem``) before accepting it: signed
by the key of the seat it names, that seat the lowest among the standings (or the one
the departed host's handover names), a majority's standings, every standing signed by
its seat's key and agreeing with this player's log, and the entry extending exactly the
last entry they all hold — a successor that forges the last entries or skips one is
refused with an integrity alert. (A player whose standing came after the entry was
written — it noticed the host gone later than the others — is not in it, and follows
all the same: leaving a standing out changes nothing but the last entry all of them
hold, and every entry up to it is the departed host's, signed by it.)
From the takeover on the replicas check entries against the new host's key; the
computer players are the new host's (``Seats.after_takeover``), and the departed host's
seat is held for it, disconnected, as for any dropped player: it may come back as a
guest with its own key.
"""

from __future__ import annotations

from net.trust.alerts import HOST, Violation
from net.trust.entries import EntryError, TakeoverBody
from net.trust.signing import opens, seal
from net.wire import messages as m
from net.wire.identity import fingerprint

STANDING_DOMAIN = "parlour-standing/1"
HANDOVER_DOMAIN = "parlour-handover/1"
KIND = "takeover"


# -- the standings -------------------------------------------------------------------------
def standing_body(table: str, seat: int, seq: int, head: bytes, departed: bytes,
                  can_host: bool = True) -> dict:
    """``can_host``: this player's client may carry the table on (it has a standby
    listener; one without only follows)."""
    return {"table": table, "seat": seat, "seq": seq, "head": head, "departed": departed,
            "can_host": can_host}


def stand(replica, can_host: bool = True) -> dict:
    """This player's signed standing (``replica`` is its ``PeerReplica``), remembered on
    the replica so that it can check the takeover entry carries it unchanged."""
    if replica.seat is None:
        raise ValueError("only a seated player takes part in a takeover")
    body = standing_body(replica.table, replica.seat, replica.seq, replica.chain.head,
                         replica.host_key, can_host)
    replica.standing = seal(replica.identity, STANDING_DOMAIN, body)
    return replica.standing


def is_standing(value) -> bool:
    """A well-formed standing envelope (its signature not yet checked)."""
    if not (isinstance(value, dict) and set(value) == {"body", "sig"}
            and isinstance(value["sig"], bytes) and len(value["sig"]) == m.SIG_BYTES):
        return False
    body = value["body"]
    return (isinstance(body, dict)
            and set(body) == {"table", "seat", "seq", "head", "departed", "can_host"}
            and isinstance(body["table"], str) and _nat(body["seat"]) and _nat(body["seq"])
            and _key(body["head"]) and _key(body["departed"]) and isinstance(body["can_host"], bool))


def standing_problem(seats, table: str, departed: bytes, standing) -> str | None:
    """Why ``standing`` is not a seated player's signed standing at this table after
    ``departed`` left, or None."""
    if not is_standing(standing):
        return "a malformed standing"
    body = standing["body"]
    seat = body["seat"]
    info = seats.get(seat)
    if body["table"] != table or body["departed"] != departed:
        return f"seat {seat}'s standing is about another table or another departed host"
    if info is None or not info.is_player or info.key == departed:
        return f"seat {seat}, whose standing is given, is not a remaining player's seat"
    if not opens(info.key, STANDING_DOMAIN, standing):
        return f"seat {seat}'s standing is not signed by its key"
    return None


def successor_seat(standings, handover: dict | None = None) -> int | None:
    """The seat that takes over: the one the departed host handed the table to, if it
    did (and its player's standing is in, able to host), else the lowest among the
    players whose standings are in and who can carry the table on (None: none can)."""
    hosts = {s["body"]["seat"] for s in standings if s["body"]["can_host"]}
    if handover is not None:
        heir = handover["body"]["seat"]
        return heir if heir in hosts else None
    return min(hosts, default=None)


def majority(seats) -> int:
    """How many of the table's persons must stand for a takeover: more than half of
    those seated (the departed host among them; a seat a computer player stands in for
    is not a person's now)."""
    return sum(1 for info in seats.values() if info.is_player) // 2 + 1


def backing(standings, handover: dict | None = None) -> int:
    """How many persons a takeover speaks for: each standing, and the departed host's
    handover."""
    return len(standings) + (handover is not None)


# -- the handover -------------------------------------------------------------------------
def handover_body(table: str, heir: int, seq: int, head: bytes, departed: bytes) -> dict:
    return {"table": table, "seat": heir, "seq": seq, "head": head, "departed": departed}


def hand_over(identity, table: str, heir: int, seq: int, head: bytes) -> dict:
    """The host (``identity``) leaving on purpose, its log ending at entry ``seq`` with hash
    ``head``: its signed handover of the table to the player in seat ``heir``."""
    return seal(identity, HANDOVER_DOMAIN, handover_body(table, heir, seq, head,
                                                         identity.public_key))


def is_handover(value) -> bool:
    """A well-formed handover envelope (its signature not yet checked)."""
    if not (isinstance(value, dict) and set(value) == {"body", "sig"}
            and isinstance(value["sig"], bytes) and len(value["sig"]) == m.SIG_BYTES):
        return False
    body = value["body"]
    return (isinstance(body, dict) and set(body) == {"table", "seat", "seq", "head", "departed"}
            and isinstance(body["table"], str) and _nat(body["seat"]) and _nat(body["seq"])
            and _key(body["head"]) and _key(body["departed"]))


def handover_problem(seats, table: str, departed: bytes, handover) -> str | None:
    """Why ``handover`` is not the departed host's signed handover of this table to a
    remaining player, or None."""
    if not is_handover(handover):
        return "a malformed handover"
    body = handover["body"]
    info = seats.get(body["seat"])
    if body["table"] != table or body["departed"] != departed:
        return "the handover is about another table or another host"
    if info is None or not info.is_player or info.key == departed:
        return f"the handover names seat {body['seat']}, which is not a remaining player's"
    if not opens(departed, HANDOVER_DOMAIN, handover):
        return "the handover is not signed by the departed host's key"
    return None


def common_seq(standings) -> int:
    """The last entry every standing holds: the takeover entry extends it."""
    return min(s["body"]["seq"] for s in standings)


def hand_in_progress(replica) -> int | None:
    """The number of the hand whose deal round is open (committed, not revealed), or None
    between hands."""
    rnd = replica.round
    return replica.hand_number if rnd is not None and not rnd.revealed else None


# -- the entry -------------------------------------------------------------------------------
def reason(departed_name: str, successor_name: str, abandoned: int | None,
           handed: bool = False) -> str:
    """The takeover in words, for the log and the people at the table (``handed``: the
    host left it to this player on purpose)."""
    if handed:
        text = f"{departed_name or 'The host'} handed the table to {successor_name or 'a player'}."
    else:
        text = f"{departed_name or 'the host'} left the game; {successor_name or 'a player'} is now hosting."
    if abandoned is not None:
        text += (f" Hand {abandoned + 1} was being played: the cards the departed host dealt "
                 "and held left with it, so the hand is dealt again. Scores are unchanged.")
    return text


def takeover_body(replica, standings, new_key: bytes, handover: dict | None = None) -> TakeoverBody:
    """The body of the takeover entry the successor (``replica``'s player, key
    ``new_key``) writes from its own copy of the log (``handover``: the departed host's,
    if it left the table to this player)."""
    departed = replica.host_key
    departed_seat = replica.host_seat
    seat = replica.seat
    abandoned = hand_in_progress(replica)
    names = {s: info.name for s, info in replica.seats.items()}
    return TakeoverBody(departed, departed_seat, new_key, seat,
                        sorted(standings, key=lambda s: s["body"]["seat"]), abandoned,
                        reason(names.get(departed_seat, ""), names.get(seat, ""), abandoned,
                               handover is not None),
                        handover)


def signer_of(entry, host_key: bytes) -> bytes:
    """The key an entry must be signed with: a takeover entry is the new host's first."""
    if entry.kind == KIND:
        try:
            body = entry.content
        except EntryError:
            return host_key  # refused by ``Chain.problem``, which says why
        if isinstance(body, TakeoverBody):
            return body.host_key
    return host_key


def takeover_problem(replica, body: TakeoverBody, entry) -> str | None:
    """Why ``replica``'s player must refuse this takeover entry, or None. The chain's own
    checks (signed by ``signer_of``, the next seq, linked to the last entry held) come
    first, in the replica."""
    seats = replica.seats
    for name, check in (("departed", _key), ("host_key", _key), ("seat", _nat),
                        ("abandoned", lambda v: v is None or _nat(v)),
                        ("departed_seat", lambda v: v is None or _nat(v))):
        if not check(getattr(body, name)):
            return f"the takeover entry's {name!r} is malformed"
    departed, new_key, seat = body.departed, body.host_key, body.seat
    if departed != replica.host_key or body.departed_seat != replica.host_seat:
        return "the takeover names a departed host that is not this table's host"
    if new_key == departed or not (seat in seats and seats[seat].held_by(new_key)):
        return f"the new host's key ({fingerprint(new_key)}) does not play seat {seat}"
    standings = body.standings
    seen = set()
    for standing in standings:
        problem = standing_problem(seats, replica.table, departed, standing)
        if problem:
            return problem
        s = standing["body"]
        if s["seat"] in seen:
            return f"seat {s['seat']} has two standings"
        seen.add(s["seat"])
        if s["seq"] <= replica.seq and replica.log.hash_at(s["seq"]) != s["head"]:
            return (f"seat {s['seat']}'s standing says entry {s['seq']} is not the one I hold: "
                    "the successor builds on another history")
    handover = body.handover
    if handover is not None:
        problem = handover_problem(seats, replica.table, departed, handover)
        if problem:
            return problem
    if seat not in seen or successor_seat(standings, handover) != seat:
        if handover is not None:
            return (f"seat {seat} took over, but the departed host handed the table to "
                    f"seat {handover['body']['seat']}")
        return (f"seat {seat} took over, but the lowest seat among the standings of the "
                f"players who can host is seat {successor_seat(standings)}")
    if backing(standings, handover) < majority(seats):
        return (f"the takeover speaks for {backing(standings, handover)} of the table's "
                f"{_persons(seats)} players, not a majority ({majority(seats)}): others "
                "may carry the table on too")
    if entry.seq != common_seq(standings) + 1:
        return (f"the takeover follows entry {entry.seq - 1}, but the last entry every "
                f"player holds is {common_seq(standings)}: it skips or forges entries")
    if body.abandoned != hand_in_progress(replica):
        return "the takeover misstates which hand it abandons"
    return None


def checked(replica, body: TakeoverBody, entry):
    """What ``replica`` does once it accepts this takeover entry (``follow``), or a
    Violation naming the successor's seat and why it must be refused."""
    problem = takeover_problem(replica, body, entry)
    if problem:
        raise Violation(HOST, body.seat, "takeover", f"entry {entry.seq}: {problem}")
    return lambda: follow(replica, body)


def follow(replica, body: TakeoverBody) -> None:
    """``replica`` once it accepted a takeover entry with ``body``: the host's key is the
    new one, the computer players are its, and a hand in progress is abandoned (its deal
    round and cards forgotten; it is dealt again, scores unchanged)."""
    replica.seats = replica.seats.after_takeover(body.departed, body.host_key)
    replica.host_key = body.host_key
    replica.standing = None
    if body.abandoned is not None:
        replica.forget_hand()


def rolled_back(replica, messages, seq: int, restore):
    """``replica`` rebuilt by ``restore(messages)`` from the accepted ``messages`` up to
    entry ``seq`` (its standing kept), or ``replica`` if it holds nothing past ``seq``."""
    if replica.seq <= seq:
        return replica
    rebuilt = restore([msg for msg in messages if msg.entry.seq <= seq])
    rebuilt.standing = getattr(replica, "standing", None)
    return rebuilt


def _persons(seats) -> int:
    return sum(1 for info in seats.values() if info.is_player)


def _nat(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 62


def _key(v) -> bool:
    return isinstance(v, bytes) and len(v) == m.KEY_BYTES
