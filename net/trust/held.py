"""What a player's own signed messages show it held of the table's log (no I/O).

A player signs things that can only have been made from the log up to a point, and the
host logs them, so that every copy of the log holds the player's word for what it had:

* a **move** (an ``action`` entry, or a ``mental`` entry's ``played``) signs ``seen``
  and ``head``: the player held entry ``seen``, whose hash is ``head``
  (``moves.action_body_problem`` checks this binding for every logged move);
* a **contribution** to a seeded deal signs the hand's ``commitment``: the player held
  the ``commit`` entry that carries it (the commitment is random, and the log is the
  only place it is sent);
* a **deal message** of the mental-poker deal signs its ``hand`` (and attempt): the
  player held the ``mental-deal`` entry that opened that hand's deal (a party's
  machine is built from it).

The host cannot make any of them (it lacks the player's key), and nothing else a player
signs says where in the log it was (an acknowledgement is not signed). ``furthest``
finds, for every player, the furthest entry its signed messages show it held, with the
logged entries that prove it (``Held``): the entry logging the message and, for a
contribution or a deal message, the entry that opened its deal. ``read`` checks such
a proof as it arrives inside a takeover entry, against the log of whoever reads it. A
takeover (``takeover``) holds a player's standing — "I hold the log up to entry N" —
to this: a standing that says less than its player's own signed messages show is
understated, and what they show stands in its place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from net.trust.deals.mental.sequencer import MENTAL_DOMAIN
from net.trust.entries import (ActionEntryBody, CommitBody, ContributionBody, EntryError,
                               MentalBody, MentalDealBody, MentalRestartBody)
from net.trust.moves import ActionBody
from net.trust.signing import ACTION_DOMAIN, CONTRIBUTION_DOMAIN, opens
from net.trust.values import SignedEntry
from net.wire import messages as m


@dataclass(frozen=True)
class Held:
    """``seat``'s player held entry ``seq``, as ``entries`` show (signed entries of the
    log, in order: the one that opened the deal of a contribution or a deal message,
    then the one logging the player's signed message)."""

    seat: int
    seq: int
    entries: tuple[SignedEntry, ...]

    @property
    def message_seq(self) -> int:
        """The entry that logs the player's signed message."""
        return self.entries[-1].seq

    def wire(self) -> dict:
        return {"seat": self.seat, "seq": self.seq, "entries": [e.wire for e in self.entries]}

    def describe(self) -> str:
        """What shows it, in words (for an alert)."""
        what = {"action": "signed move", "contribution": "signed contribution to the deal",
                "mental": "signed deal message"}.get(self.entries[-1].kind, "signed message")
        if self.entries[-1].kind == "mental" and isinstance(self.entries[-1].content, MentalBody) \
                and self.entries[-1].content.played is not None:
            what = "signed move"
        return f"its own {what} in entry {self.message_seq} shows it held entry {self.seq}"


class _Claim(NamedTuple):
    """One logged message that may be a player's (not checked yet): whose key must have
    signed it, and what it would show."""

    seat: int
    seq: int
    entries: tuple[SignedEntry, ...]
    opened_by: Callable[[bytes], bool]  # whether ``key`` signed the message


def furthest(log: Iterable[SignedEntry], players: dict[int, bytes], table: str) -> dict[int, Held]:
    """Seat -> the furthest entry its player (``players``: seat -> key) is shown to have
    held by its own signed messages in ``log`` (a log already checked entry by entry: a
    replica's, a host's). A seat whose player signed nothing there is absent. A message
    signed by another key for the seat (a computer player standing in, a key it had
    before it was re-admitted) shows nothing of this player."""
    claims: dict[int, list[_Claim]] = {}
    for claim in _claims(log, players, table):
        claims.setdefault(claim.seat, []).append(claim)
    found = {}
    for seat, theirs in claims.items():
        theirs.sort(key=lambda c: (-c.seq, c.entries[-1].seq))  # the furthest; the earliest proof
        key = players[seat]
        held = next((c for c in theirs if c.opened_by(key)), None)  # (signatures checked lazily)
        if held is not None:
            found[seat] = Held(seat, held.seq, held.entries)
    return found


def _claims(log: Iterable[SignedEntry], players: dict[int, bytes], table: str,
            signer: int | None = None):
    """Every logged message that would show a player held an entry, in log order. A deal
    message is its party's: the seat whose key the deal's parties (as restarts left them)
    give that party — or, reading a proof (two entries, no restarts between them), the
    seat ``signer`` it is said to be by, its signature to show it."""
    seat_of = {key: seat for seat, key in players.items()}
    commits: dict[bytes, SignedEntry] = {}  # commitment -> its commit entry
    opened: dict[int, SignedEntry] = {}  # hand -> the mental-deal entry that opened it last
    parties: list = []  # the deal's parties now (a restart changes them)
    for signed in log:
        try:
            body = signed.content
        except EntryError:
            continue
        if isinstance(body, CommitBody):
            commits[body.commitment] = signed
        elif isinstance(body, MentalDealBody):
            opened[body.hand], parties = signed, body.parties
        elif isinstance(body, MentalRestartBody):
            parties = body.record.get("parties") or parties
        party_seat = _party_seat(body, parties, seat_of) if signer is None else signer
        claim = _claim(signed, body, table, players, party_seat, commits, opened)
        if claim is not None:
            yield claim


def _party_seat(body, parties: list, seat_of: dict[bytes, int]) -> int | None:
    """The seat of the player whose party sent a logged deal message (None: not one)."""
    if not isinstance(body, MentalBody) or not 0 <= body.party < len(parties):
        return None
    party = parties[body.party]
    key = party.get("key") if isinstance(party, dict) else None
    return seat_of.get(key) if isinstance(key, bytes) else None


def _claim(signed, body, table, players, party_seat, commits, opened) -> _Claim | None:
    if isinstance(body, ActionEntryBody):
        return _move_claim(body.signed, (signed,), table, players)
    if isinstance(body, MentalBody) and body.played is not None:
        return _move_claim(body.played, (signed,), table, players)
    if isinstance(body, ContributionBody):
        return _contribution_claim(body.signed, (signed,), table, players, commits)
    if isinstance(body, MentalBody) and body.signed is not None:
        return _deal_claim(body.signed, (signed,), party_seat, opened)
    return None


def _move_claim(envelope, entries, table, players) -> _Claim | None:
    if not m.is_action_envelope(envelope):
        return None
    move = ActionBody.from_wire(envelope["body"])
    if move.table != table or move.seat not in players:
        return None
    return _Claim(move.seat, move.seen, entries, lambda key: opens(key, ACTION_DOMAIN, envelope))


def _contribution_claim(envelope, entries, table, players, commits) -> _Claim | None:
    if not m.is_contribution_envelope(envelope):
        return None
    body = envelope["body"]
    commit = commits.get(body["commitment"])
    if body["table"] != table or body["seat"] not in players or commit is None \
            or commit.content.hand != body["hand"] or commit.seq >= entries[-1].seq:
        return None
    return _Claim(body["seat"], commit.seq, (commit, *entries),
                  lambda key: opens(key, CONTRIBUTION_DOMAIN, envelope))


def _deal_claim(envelope, entries, seat, opened) -> _Claim | None:
    body = envelope.get("body") if isinstance(envelope, dict) else None
    hand = body.get("hand") if isinstance(body, dict) else None
    deal = opened.get(hand) if isinstance(hand, int) and not isinstance(hand, bool) else None
    if seat is None or deal is None or deal.seq >= entries[-1].seq:
        return None
    return _Claim(seat, deal.seq, (deal, *entries), lambda key: opens(key, MENTAL_DOMAIN, envelope))


# -- a proof that arrives ---------------------------------------------------------------------
class Log(NamedTuple):
    """The log a proof is read against: its table, the key that signed its entries after
    the last one held here (the host that went), the last entry held and each one's hash."""

    table: str
    signer: bytes
    seq: int
    hash_at: Callable[[int], bytes | None]


def read(wire, players: dict[int, bytes], log: Log) -> Held:
    """A proof (``Held.wire``) from a takeover entry, checked: ValueError saying why not.

    Each of its entries is one this log holds (the same hash), or — past the last held —
    signed by the host that went, for this table; the message in the last one is signed
    by the seat's player's key; and it shows the entry the proof says."""
    if not (isinstance(wire, dict) and set(wire) == {"seat", "seq", "entries"}
            and _nat(wire["seat"]) and _nat(wire["seq"]) and isinstance(wire["entries"], list)
            and 1 <= len(wire["entries"]) <= 2 and all(m.is_signed_entry(e) for e in wire["entries"])):
        raise ValueError("a malformed proof of what a player held")
    seat = wire["seat"]
    if seat not in players:
        raise ValueError(f"a proof of what seat {seat} held, which is not a player's seat")
    entries = tuple(SignedEntry.from_wire(e) for e in wire["entries"])
    for signed in entries:
        _logged(signed, log)
    if len(entries) == 2 and entries[0].seq >= entries[1].seq:
        raise ValueError(f"seat {seat}'s proof opens its deal after its message")
    claims = list(_claims(entries, players, log.table, signer=seat))
    claim = next((c for c in claims if c.seat == seat and c.entries == entries), None)
    if claim is None or not claim.opened_by(players[seat]):
        raise ValueError(f"seat {seat}'s proof holds no message of its player's that shows "
                         "where it was in the log")
    if claim.seq != wire["seq"]:
        raise ValueError(f"seat {seat}'s proof shows entry {claim.seq}, not {wire['seq']}")
    return Held(seat, claim.seq, entries)


def _logged(signed: SignedEntry, log: Log) -> None:
    """ValueError unless ``signed`` is an entry of this log (held here, or past it,
    signed by the host that went)."""
    if signed.seq <= log.seq:
        if log.hash_at(signed.seq) != signed.hash:
            raise ValueError(f"a proof's entry {signed.seq} is not the one in the log")
        return
    if signed.entry.table != log.table or not signed.signed_by(log.signer):
        raise ValueError(f"a proof's entry {signed.seq} is not signed by the table's host")
    try:
        signed.content
    except EntryError as exc:
        raise ValueError(f"a proof's entry {signed.seq}: {exc}") from None


def _nat(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 62
