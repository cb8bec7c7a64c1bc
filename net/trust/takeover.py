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

**A standing is held to its player's own signed moves** (``held``): a move signs the
entry it was made on, a contribution the commitment it answers, a deal message the hand
it is for — so the log shows which entries each player held, and a standing that says
less is *understated*. The successor reads the standings it gathered against its whole
log (``gather``): an understated one goes in its entry with the proof (``held``), its
player named, and counts for what the proof shows; and it never goes back past the end
of a hand it holds. So no player can have a scored hand dealt again by saying it never
received its end, once anyone has signed anything after it.

The successor becomes the host from its own copy of the log (``successor.succeed``). Its
first entry is a ``takeover`` entry, signed with *its own* key, that

* extends the last entry every standing holds (the lowest ``seq``, each standing taken
  at no less than its proof shows: the entries after it are the departed host's that
  not everyone received, and are dropped by the peers that had them —
  ``rolled_back``), or the end of a hand past it (``kept_hand_end``: a player whose log
  is shorter is sent what it lacks);
* names the departed host (key and seat) and the new one (key and seat);
* carries every standing it gathered, each signed by its player — and the handover, if
  the host left it the table: that is the others' acknowledgement, in the log for
  anyone to check later — the old host too, when it comes back; and the proofs of what
  understating players held;
* says which hand it abandons, if one was in progress: the departed host took its deal
  secret (and its own and its computer players' cards) with it, so that hand cannot be
  finished honestly; it is dealt again with the same number and dealer, scores
  unchanged (``reason`` says so in words).

Every other player checks the entry twice. Before it follows — when the successor's
answer brings the entry — against its whole log (``audit``): a standing in it that says
less than its player's signed moves there show names its player, and if that is the
successor's own, or the entry would throw a scored hand away, the player does not
follow it: it goes on to the next seat, as if that one had not answered (the next
successor counts the liar's own standing, corrected). Then, as the entry arrives
(``takeover_problem``): signed by the key of the seat it names, that seat the lowest
among the standings not shown understated (or the one the departed host's handover
names), a majority's standings, every standing signed by its seat's key and agreeing
with this player's log, every proof checking, and the entry extending an entry between
the last one they all hold and the successor's own — a successor that forges the last
entries or skips one is refused with an integrity alert. (A player whose standing came
after the entry was written — it noticed the host gone later than the others — is not
in it, and follows all the same: every entry up to the one the takeover extends is the
departed host's, signed by it.) The departed host, still running, believes its table was
carried on only on the same proof (``sessions.whereabouts``).
From the takeover on the replicas check entries against the new host's key; the
computer players are the new host's (``Seats.after_takeover``), and the departed host's
seat is held for it, disconnected, as for any dropped player: it may come back as a
guest with its own key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from net.trust import held as shown_by
from net.trust.alerts import HOST, PLAYER, IntegrityAlert, Violation
from net.trust.entries import EntryError, SeatBody, TakeoverBody
from net.trust.held import Held
from net.trust.signing import opens, seal
from net.trust.values import Seat, Seats, SignedEntry
from net.wire import messages as m
from net.wire.identity import fingerprint

STANDING_DOMAIN = "parlour-standing/1"
HANDOVER_DOMAIN = "parlour-handover/1"
KIND = "takeover"
#: The rule an alert names for a standing that says its player holds less of the log
#: than its own signed messages show (``alerts.RULES``).
UNDERSTATED = "standing"


class Holder(NamedTuple):
    """What checking a takeover reads of a copy of the log and its table: the table's id
    and seats, the host it would take over from (``host_key``, ``host_seat``: the host
    that went), and the log held (its last entry, ``seq``, and each entry's hash) — a
    player's replica (``of``), or the departed host's own authority (``whereabouts``)."""

    table: str
    seats: Seats
    host_key: bytes
    host_seat: int | None
    seq: int
    hash_at: Callable[[int], bytes | None]

    @classmethod
    def of(cls, replica) -> "Holder":
        return cls(replica.table, replica.seats, replica.host_key, replica.host_seat,
                   replica.seq, replica.log.hash_at)

    def proofs_log(self) -> shown_by.Log:
        """The log a proof of what a player held is read against."""
        return shown_by.Log(self.table, self.host_key, self.seq, self.hash_at)


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


def successor_seat(standings, handover: dict | None = None,
                   caught: Iterable[int] = ()) -> int | None:
    """The seat that takes over: the one the departed host handed the table to, if it
    did (and its player's standing is in, able to host), else the lowest among the
    players whose standings are in and who can carry the table on (None: none can). A
    player ``caught`` understating its standing never carries the table on."""
    hosts = {s["body"]["seat"] for s in standings if s["body"]["can_host"]} - set(caught)
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


def common_seq(standings, held: Iterable[Held] = ()) -> int:
    """The last entry every standing holds — each at least what its player's own signed
    messages show (``held``) —: the takeover entry extends it, or the end of a hand past
    it (``gather``)."""
    return min(effective(standings, held).values())


def effective(standings, held: Iterable[Held] = ()) -> dict[int, int]:
    """Seat -> the last entry its player holds: what its standing says, or what its own
    signed messages show (``held``), whichever is further."""
    shown = {h.seat: h.seq for h in held}
    return {s["body"]["seat"]: max(s["body"]["seq"], shown.get(s["body"]["seat"], -1))
            for s in standings}


def head_problem(holder: Holder, standing) -> str | None:
    """Why a (checked) standing's last entry is not the one this log holds there, or None
    (a standing past this log says nothing about it)."""
    s = standing["body"]
    if s["seq"] <= holder.seq and holder.hash_at(s["seq"]) != s["head"]:
        return (f"seat {s['seat']}'s standing says entry {s['seq']} is not the one I hold: "
                "the successor builds on another history")
    return None


# -- what a standing may say: its player's own signed moves ------------------------------------
def last_hand_end(log, upto: int) -> int:
    """The seq of the last ``hand_end`` entry at or before entry ``upto`` (-1: none)."""
    for signed in reversed(log[:upto + 1]):
        if signed.kind == "hand_end":
            return signed.seq
    return -1


def closed_hand(log, upto: int) -> int:
    """Where the last hand ended by entry ``upto`` closes: its ``reveal``, if held by
    then, else its ``hand_end`` (-1: no hand ended)."""
    end = last_hand_end(log, upto)
    after = log[end + 1] if 0 <= end < min(upto, len(log) - 1) else None
    return after.seq if after is not None and after.kind == "reveal" else end


def understated(table: str, standing: dict, held: Held, seq: int, evidence: list) -> IntegrityAlert:
    """The alert naming a player whose standing says it holds less than ``held`` shows
    (``seq``: the takeover entry, or the entry the alert is about)."""
    s = standing["body"]
    return IntegrityAlert(s["seat"], PLAYER, UNDERSTATED,
                          f"seat {s['seat']}'s standing says it holds the log up to entry "
                          f"{s['seq']}, but {held.describe()}: a player may not say it holds "
                          "less than its own signed moves show (the table is carried on "
                          "from where it was)", table, seq,
                          [standing] + [e.wire for e in held.entries] + list(evidence))


@dataclass(frozen=True)
class Gathered:
    """What the successor carries the table on with: the ``standings`` it puts in its
    takeover entry (by seat), the proofs of what understating players held (``held``),
    the entry its takeover extends (``base``), the players it caught understating
    (``named``) and the standings it left out, with why (``left_out``)."""

    standings: list[dict]
    held: list[Held]
    base: int
    named: list[IntegrityAlert] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


def gather(replica, standings, handover: dict | None = None, liars=()) -> Gathered:
    """The successor (``replica``: its whole log, before any roll-back) reads the
    standings it gathered — its own among them — against its log:

    * a standing that is not a remaining player's, signed, or that names another entry
      than this log holds at its seq, is left out (it cannot be checked by the others);
    * a standing that says less than its player's own signed messages in this log show
      (``held.furthest``) is **understated**: its player is named, and the proof goes in
      the entry, so that every player checks it and takes what it shows instead;
    * the entry the takeover extends is the last one every standing holds — but never
      before the end of a hand this log holds (its reveal, if held: ``kept_hand_end``):
      a hand that was scored is not dealt again. A player whose log ends before it (its
      link was slow, or it says so) is sent what it lacks, signed by the departed host,
      as a late follower is — up to a hand's deal it lacks, which only the departed host
      could send it with its cards.

    ``liars``: the standings of successors this player refused for understating (it read
    them in their takeover entries); each counts, corrected, only if this log shows it
    understated too: its player said its host was gone, and carries no table of its own
    anyone follows.
    """
    holder = Holder.of(replica)
    kept: dict[int, dict] = {}
    left_out: list[str] = []

    def keep(standing, shown: dict[int, Held] | None = None) -> None:
        """Keep ``standing`` unless it cannot stand (``shown``: only if its player is
        shown here to hold more than it says)."""
        problem = standing_problem(replica.seats, replica.table, replica.host_key, standing) \
            or head_problem(holder, standing)
        seat = standing["body"]["seat"] if problem is None else -1
        if problem is None and seat in kept:
            problem = f"seat {seat} gave a second standing"
        if problem is None and shown is not None \
                and (seat not in shown or shown[seat].seq <= standing["body"]["seq"]):
            problem = f"seat {seat}'s standing is not shown understated here"
        if problem is not None:
            left_out.append(problem)
        else:
            kept[seat] = standing
    for standing in standings:
        keep(standing)
    if handover is not None and handover_problem(replica.seats, replica.table, replica.host_key,
                                                 handover) is not None:
        raise ValueError("the handover is not the departed host's")
    shown = shown_by.furthest(replica.log, replica.seats.players(), replica.table)
    for standing in liars:
        keep(standing, shown)
    held = [shown[seat] for seat, standing in sorted(kept.items())
            if seat in shown and shown[seat].seq > standing["body"]["seq"]]
    ordered = [kept[seat] for seat in sorted(kept)]
    base = max(common_seq(ordered, held), kept_hand_end(replica.log, effective(ordered, held)))
    named = [understated(replica.table, kept[h.seat], h, base + 1, []) for h in held]
    return Gathered(ordered, held, base, named, left_out)


#: The entries that open a hand's deal (a seeded one, a private one).
OPENINGS = ("commit", "mental-deal")


def kept_hand_end(log, holds: dict[int, int]) -> int:
    """The end of the last hand in ``log`` (its reveal, if held) that a takeover keeps,
    whatever the players' standings (``holds``: seat -> the last entry each holds) — so
    that no hand that was scored is dealt again. A player whose log ends before it is
    sent what it lacks; but never a hand's deal it lacks (only the departed host could
    send it its cards): so it is the last hand end before the next deal any of them
    lacks (-1: none)."""
    upto = len(log) - 1
    for seq in holds.values():
        opening = next((e.seq for e in log[seq + 1:] if e.kind in OPENINGS), None)
        if opening is not None:
            upto = min(upto, opening - 1)
    return closed_hand(log, upto)


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


def takeover_body(replica, standings, new_key: bytes, handover: dict | None = None,
                  held: Iterable[Held] = ()) -> TakeoverBody:
    """The body of the takeover entry the successor (``replica``'s player, key
    ``new_key``) writes from its own copy of the log, rolled back to the entry it
    extends (``handover``: the departed host's, if it left the table to this player;
    ``held``: the proofs of what understating players held)."""
    departed = replica.host_key
    departed_seat = replica.host_seat
    seat = replica.seat
    abandoned = hand_in_progress(replica)
    names = {s: info.name for s, info in replica.seats.items()}
    return TakeoverBody(departed, departed_seat, new_key, seat,
                        sorted(standings, key=lambda s: s["body"]["seat"]), abandoned,
                        reason(names.get(departed_seat, ""), names.get(seat, ""), abandoned,
                               handover is not None),
                        handover, sorted((h.wire() for h in held), key=lambda w: w["seat"]) or None)


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


def entry_problem(holder: Holder, body: TakeoverBody, entry) -> tuple[str | None, list[Held]]:
    """Why a copy of the log (``holder``) must refuse this takeover entry (None: it
    holds), and the proofs of what understating players held that it carries, checked.
    Everything here reads the entry and the log up to the entry it extends, so a player
    who reads the log later (a restarted app, the departed host back as a guest) checks
    the same. The chain's own checks (signed by ``signer_of``, linked to the entry it
    extends) are the replica's."""
    seats = holder.seats
    for name, check in (("departed", _key), ("host_key", _key), ("seat", _nat),
                        ("abandoned", lambda v: v is None or _nat(v)),
                        ("departed_seat", lambda v: v is None or _nat(v))):
        if not check(getattr(body, name)):
            return f"the takeover entry's {name!r} is malformed", []
    departed, new_key, seat = body.departed, body.host_key, body.seat
    if departed != holder.host_key or body.departed_seat != holder.host_seat:
        return "the takeover names a departed host that is not this table's host", []
    if new_key == departed or not (seat in seats and seats[seat].held_by(new_key)):
        return f"the new host's key ({fingerprint(new_key)}) does not play seat {seat}", []
    standings = body.standings
    by_seat: dict[int, dict] = {}
    for standing in standings:
        problem = standing_problem(seats, holder.table, departed, standing)
        if problem is None and standing["body"]["seat"] in by_seat:
            problem = f"seat {standing['body']['seat']} has two standings"
        problem = problem or head_problem(holder, standing)
        if problem:
            return problem, []
        by_seat[standing["body"]["seat"]] = standing
    handover = body.handover
    if handover is not None:
        problem = handover_problem(seats, holder.table, departed, handover)
        if problem:
            return problem, []
    held, problem = _proofs(holder, body, by_seat)
    if problem:
        return problem, []
    caught = {h.seat for h in held}
    if seat not in by_seat or successor_seat(standings, handover, caught) != seat:
        if seat in caught:
            return (f"seat {seat} took over, but its own standing says it holds less than "
                    "its own signed moves show"), held
        if handover is not None:
            return (f"seat {seat} took over, but the departed host handed the table to "
                    f"seat {handover['body']['seat']}"), held
        return (f"seat {seat} took over, but the lowest seat among the standings of the "
                f"players who can host is seat {successor_seat(standings, None, caught)}"), held
    if backing(standings, handover) < majority(seats):
        return (f"the takeover speaks for {backing(standings, handover)} of the table's "
                f"{persons(seats)} players, not a majority ({majority(seats)}): others "
                "may carry the table on too"), held
    base, lowest, own = entry.seq - 1, common_seq(standings, held), effective(standings, held)[seat]
    if base < lowest:
        return (f"the takeover follows entry {base}, but the last entry every player holds "
                f"is {lowest}: it skips or forges entries"), held
    if base > own:
        return (f"the takeover follows entry {base}, past the last entry its own player's "
                f"standing holds ({own})"), held
    return None, held


def _proofs(holder: Holder, body: TakeoverBody, by_seat: dict) -> tuple[list[Held], str | None]:
    """The proofs of what understating players held (``body.held``), each checked: a
    player's own signed message that shows more than its standing in the entry says."""
    held: dict[int, Held] = {}
    for wire in body.held or ():
        try:
            proof = shown_by.read(wire, holder.seats.players(), holder.proofs_log())
        except ValueError as exc:
            return [], str(exc)
        standing = by_seat.get(proof.seat)
        if standing is None or proof.seat in held:
            return [], f"a proof of what seat {proof.seat} held, which has no standing of its own here"
        if proof.seq <= standing["body"]["seq"]:
            return [], f"a proof of what seat {proof.seat} held shows no more than its standing says"
        held[proof.seat] = proof
    return list(held.values()), None


def takeover_problem(replica, body: TakeoverBody, entry) -> tuple[str | None, list[Held]]:
    """Why ``replica``'s player must refuse this takeover entry, or None (``entry_problem``,
    and the hand it abandons is the one in progress at the entry it extends); the
    proofs it carries."""
    problem, held = entry_problem(Holder.of(replica), body, entry)
    if problem is None and body.abandoned != hand_in_progress(replica):
        problem = "the takeover misstates which hand it abandons"
    return problem, held


def checked(replica, body: TakeoverBody, entry,
            name: Callable[[Violation], None] = lambda v: None):
    """What ``replica`` does once it accepts this takeover entry (``follow``, and
    ``name`` every player the entry shows understated its standing: the table goes on),
    or a Violation naming the successor's seat and why it must be refused."""
    problem, held = takeover_problem(replica, body, entry)
    if problem:
        raise Violation(HOST, body.seat, "takeover", f"entry {entry.seq}: {problem}")
    standings = {s["body"]["seat"]: s for s in body.standings}

    def commit():
        follow(replica, body)
        for proof in held:
            alert = understated(replica.table, standings[proof.seat], proof, entry.seq, [])
            name(Violation(PLAYER, proof.seat, UNDERSTATED, alert.detail))
    return commit


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


# -- before following: the whole log -----------------------------------------------------------
@dataclass(frozen=True)
class Audit:
    """A takeover entry read against a whole copy of the log — a player's before it rolls
    back to follow it, the departed host's before it believes its table was carried on
    (``audit``): the players it names, and why the entry is not to be followed (None:
    it may be)."""

    named: list[IntegrityAlert]
    refusal: str | None = None


def audit(holder: Holder, log, signed: SignedEntry, behind: bool = True) -> Audit:
    """``signed``, a takeover entry offered as where the table is carried on, read against
    this whole copy of the log (``holder``, ``log``: every entry held, none rolled back)
    — more than the entry's own checks can see later, once the log is rolled back:

    * the entry's own checks (``entry_problem``), and it extends an entry of this log
      (``behind``: or one past it — a player whose log is shorter follows all the same);
    * no standing in it says less than its player's own signed messages in this log
      show, the proofs it carries counted: each that does names its player; the
      successor's own makes the entry one not to follow (it would roll the table back);
    * it keeps the end of every hand that any of its standings' players is shown here to
      have held (``last_hand_end``): else it would deal a scored hand again.
    """
    entry = signed.entry
    try:
        body = entry.content
    except EntryError as exc:
        return Audit([], f"the takeover entry is malformed: {exc}")
    if not isinstance(body, TakeoverBody) or entry.table != holder.table:
        return Audit([], "it is not a takeover entry of this table")
    if not signed.signed_by(body.host_key):
        return Audit([], "the takeover entry is not signed by the key it names")
    base = entry.seq - 1
    if base <= holder.seq and holder.hash_at(base) != entry.prev:
        return Audit([], f"the takeover does not follow entry {base} of this log")
    if base > holder.seq and not behind:
        return Audit([], f"the takeover follows entry {base}, which this log does not hold")
    problem, held = entry_problem(holder, body, entry)
    evidence = [signed.wire]
    if problem:
        return Audit([IntegrityAlert(body.seat, PLAYER, "takeover", problem, holder.table,
                                     entry.seq, evidence)], problem)
    standings = {s["body"]["seat"]: s for s in body.standings}
    held_now = effective(body.standings, held)
    shown = shown_by.furthest(log, holder.seats.players(), holder.table)
    named, refusal = [], None
    for seat, standing in standings.items():
        proof = shown.get(seat)
        if proof is not None and proof.seq > held_now[seat]:
            named.append(understated(holder.table, standing, proof, entry.seq, evidence))
            if seat == body.seat:
                refusal = named[-1].detail
    proofs = [shown[s] for s in standings if s in shown] + list(held)
    if refusal is None and proofs:
        furthest = max(proofs, key=lambda h: h.seq)
        end = last_hand_end(log, min(furthest.seq, holder.seq))
        if base < end:
            refusal = (f"the takeover goes back to entry {base}, before the end of the hand in "
                       f"entry {end}, which seat {furthest.seat} held — {furthest.describe()}: "
                       "that hand's result would be thrown away")
            if held_now[body.seat] >= furthest.message_seq:  # it held the proof, and left it out
                named.append(IntegrityAlert(body.seat, PLAYER, "takeover", refusal, holder.table,
                                            entry.seq, evidence + [e.wire for e in furthest.entries]))
    return Audit(named, refusal)


def seats_at(log, seq: int) -> Seats:
    """The seats as ``log`` (signed entries from the table's first) had placed them after
    entry ``seq``: what a takeover extending that entry is judged by. A departed host's
    own seats may have moved on since, alone (a computer given a silent player's seat)."""
    seats = Seats()
    for signed in log:
        entry = signed.entry
        if entry.seq > seq:
            break
        if entry.kind == SeatBody.KIND:
            body = entry.body_as(SeatBody)
            seats[body.seat] = Seat.from_body(body)
        elif entry.kind == TakeoverBody.KIND:
            taken = entry.body_as(TakeoverBody)
            seats = seats.after_takeover(taken.departed, taken.host_key)
    return seats


def persons(seats) -> int:
    """How many persons are seated at the table (the host among them)."""
    return sum(1 for info in seats.values() if info.is_player)


def _nat(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 62


def _key(v) -> bool:
    return isinstance(v, bytes) and len(v) == m.KEY_BYTES
