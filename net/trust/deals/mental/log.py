"""The mental-poker deal in the table's log: what the host and every replica share.

Under the mental deal (issue 13; a table with two humans or more, when the host turns it
on) the hand's deal is not the commit–reveal round (``commit`` … ``deal`` … ``reveal``
with a seed) but these entries, each signed by the host like every other:

* ``mental-deal`` ``{hand, dealer, parties}``: a deal begins; ``parties`` (the host's
  client first, then each other human in seat order: ``sequencer.parties_for``) are
  who shuffles and who holds which seats' cards. A seat goes to the host's party only
  if it is the host's own, a computer player's, or its player is away.
* ``mental`` ``{party, signed}``: one deal message of a party, signed with its
  identity key (the host relays it, it cannot write it), in the sequencer's order.
* ``mental-restart`` ``{record}``: the deal starts again (``sequencer.restart_record``):
  a Rook redeal; a party that held the deal up past the contribution deadline
  ("dropped"); or, once the cards are dealt, a party whose player is gone past the
  deadline ("void": the hand so far is void, the scores stay). Its seats are the host's
  party's from then on (``restarts`` is every replica's check of it). (Before protocol
  8 a player's proven cheat restarted the deal too, "cheat"; now it forfeits the hand:
  ``forfeits``.)
* ``mental-dealt`` ``{hand, dealer}``: every key share, shuffle and decryption share is
  logged (and the spare shown when the rules show it from the start): play begins.
  Its state hash is the hand's public view, as the ``deal`` entry's is.

While the spare is being turned up for everyone (the shares of an ``OpenToAll`` are
not all logged yet) no move is taken: nobody's view of the table is exact until then.

Then the moves are ``action`` entries as before; a played card's proof is inside the
move its player signs (the action body's ``mental``), and a bury's or discard's
commitment comes with its action message and is logged just before it. A ``mental``
entry ``{party, played}`` logs a player's signed move whose card's proof broke a rule of
the deal, or only an audit can settle, as evidence: the move is not taken. (Logs written
before protocol 4 have each play's proof as a ``mental`` entry before its move.) The action that ends the hand signs no state hash (nobody can
score it before the reveals), nor does one that turns the spare up (the next entry's
hash covers it); the reveals follow as ``mental`` entries, and
``hand_end`` carries the state hash of the hand replayed on the verified deal. The
``reveal`` entry that closes the hand carries only its number. A hand a player's proven
cheat ends has a ``hand_end`` with the verdict (``forfeit``) and no state hash, whenever
the cheat is proven (``forfeits``), and then the ``reveal``.
"""

from __future__ import annotations

from dataclasses import dataclass

from net.trust.deals.mental import flows
from net.trust.deals.mental.errors import Cheat
from net.trust.deals.mental.group import GROUP_NAME
from net.trust.deals.mental.keys import DealContext
from net.trust.deals.mental.outputs import Audit
from net.trust.deals.mental.setup import DealSetup, Party
from net.trust.entries import MentalDealBody, MentalRestartBody
from net.trust.values import card_names

DEAL, MESSAGE, RESTART, DEALT = "mental-deal", "mental", "mental-restart", "mental-dealt"
PLAYED = "played"  # a ``mental`` entry's signed move whose card's proof is logged alone
ILLEGAL_ACTION = "illegal-action"  # a verdict's rule for a move the rules forbid on the revealed deal


@dataclass
class MentalRound:
    """What the session's deal bookkeeping reads of a hand under the mental deal (the
    fair deal's ``DealRound`` has the same attributes): it owes no contribution."""

    hand: int
    dealer: int
    dealt: bool = False
    revealed: bool = False
    waiting_for: tuple = ()
    commitment: bytes = b"mental"

    def waive(self, seat: int) -> None:
        """A player who drops owes no contribution here (its deal messages are awaited)."""


@dataclass(frozen=True)
class Verdict:
    """A party proven to have broken a rule: whose side forfeits the hand (the ``forfeit``
    of its ``hand_end``; a "cheat" restart before protocol 8), and why. Every honest
    client reaches it from the log alone (its own deal client's checks, or the hand
    replayed on the deal every party revealed), so a forfeit that names another party,
    or none this client can prove, is the host's lie."""

    party: int  # the deal's party (index)
    seat: int | None  # the seat whose move, or whose party's message, broke it
    rule: str
    detail: str

    @classmethod
    def of(cls, error) -> "Verdict | None":
        """The verdict of a deal client's error: a ``Cheat`` names its party (anything
        else is no player's proven fault)."""
        if not isinstance(error, Cheat):
            return None
        return cls(error.party, error.seats[0] if error.seats else None, error.rule, error.detail)

    @classmethod
    def of_move(cls, setup, exc) -> "Verdict":
        """A move the rules forbid on the revealed deal (``IllegalAction`` naming its seat)."""
        return cls(setup.owner(exc.seat), exc.seat, ILLEGAL_ACTION,
                   f"seat {exc.seat}: {exc.reason} (seen once every card was revealed)")

    def body(self) -> dict:
        return {"party": self.party, "seat": self.seat, "rule": self.rule, "detail": self.detail}

    @classmethod
    def of_body(cls, body: dict) -> "Verdict":
        """The verdict a ``hand_end``'s ``forfeit`` (or a restart's ``cheat``) names."""
        return cls(body["party"], body["seat"], body["rule"], body["detail"])

    def same(self, body) -> bool:
        """Whether a ``forfeit`` (or a restart's ``cheat``) body names this verdict (party,
        seat and rule)."""
        return isinstance(body, dict) and (body.get("party"), body.get("seat"), body.get("rule")) \
            == (self.party, self.seat, self.rule)


def parties_body(parties) -> list[dict]:
    return [{"key": p.key, "seats": list(p.seats)} for p in parties]


def deal_body(hand: int, dealer: int, parties, attempt: int) -> MentalDealBody:
    """A ``mental-deal`` entry's body (``attempt`` is written only when it is not the
    first, so a table's first deal of each hand number reads as it always did), its
    shuffles proven, in this Parlour's group."""
    return MentalDealBody(hand, dealer, parties_body(parties), attempt, proven=True, group=GROUP_NAME)


def fresh_attempt(log, hand: int) -> int:
    """The attempt a new deal of hand number ``hand`` starts at: one past every attempt
    this table's ``log`` already dealt that hand number with (0 if none). A party's deal
    secrets follow from (table, hand, attempt), so no two deals of a table may share
    them: a rematch's hands start again at number 0 (the first game's secrets were all
    revealed at its hands' ends), and a hand abandoned at a takeover is dealt again with
    the same number (its shuffles are in the log: the same permutations and nonces on
    another deck would show them)."""
    used = []
    for signed in log:
        body = signed.content
        if isinstance(body, (MentalDealBody, MentalRestartBody)) and body.hand == hand:
            used.append(body.attempt)
    return max(used) + 1 if used else 0


def dealt_privately(log) -> bool | None:
    """Whether the table in ``log`` deals by the mental-poker deal (a successor goes on as
    its host did): True once any hand was dealt so, False if hands were dealt only by the
    seeded deal, None before the first deal."""
    kinds = {e.kind for e in log}
    if DEAL in kinds:
        return True
    return False if "commit" in kinds else None


def dealt_proven(log) -> bool:
    """Whether any deal in ``log`` had its shuffles proven: every later one must too (a
    deal without proofs is one logged before protocol 14, whose shares no client
    publishes: ``chain``)."""
    return any(isinstance(signed.content, MentalDealBody) and signed.content.proven
               for signed in log if signed.kind == DEAL)


def setup_for(game, table: str, body: MentalDealBody) -> DealSetup:
    """The deal a ``mental-deal`` entry's body starts."""
    parties = tuple(Party(p["key"], tuple(p["seats"])) for p in body.parties)
    return DealSetup.for_game(game, DealContext(table, body.hand, body.attempt), parties,
                              body.dealer, flows.redeal_rule(game), body.proven)


def ready_to_play(game, party_hand, awaited) -> bool:
    """Whether play may begin: this client's seats are dealt, no deal message is awaited,
    and a spare shown from the start is known."""
    if party_hand.partial is None or awaited:
        return False
    return not flows.at_deal(game, party_hand.state) or bool(party_hand.spare)


def spare_pending(party_hand) -> bool:
    """The rules turned the spare up for everyone, and its shares are not all logged yet:
    nobody's public view is exact until they are, so no move is taken and the move that
    turned it up signs no state hash (the next entry's does)."""
    return party_hand.opened and not party_hand.spare


def spare_coming(party_hand, seat: int) -> bool:
    """The spare was given to ``seat`` alone (Somerset's kitty to the bidder), and the
    shares that open it to this client have not all come: the seat decides nothing yet."""
    machine = party_hand.client.machine
    given = machine is not None and set(party_hand.setup.spare()) & machine.holdings.get(seat, set())
    return bool(given) and not party_hand.spare


def auditing(party_hand) -> bool:
    """This client, or another party (its ``audit`` reveal logged), saw what only a cheat
    explains (a card seen twice) and asked every party to reveal: until the verdict the
    replay is not to be trusted, and nobody moves."""
    machine = party_hand.client.machine
    return (machine is not None and machine.auditor is not None and party_hand.verified is None) \
        or any(isinstance(out, Audit) for out in party_hand.client.learned)


def signs_state(party_hand) -> bool:
    """Whether an action entry signs the state after it: not while the spare is being
    turned up, and not at the hand's end (scored on the verified deal, ``hand_end``)."""
    return not spare_pending(party_hand) and not party_hand.state.is_over


def public_events(deck, events, public: dict | None) -> list:
    """The engine events a replay on a made-up deal may publish: those naming no card the
    public view does not show (the made-up cards of others' hands must not go out)."""
    named = [card_names(deck, dict(e)) for e in events]
    wanted = set().union(*named)
    shown = card_names(deck, public, among=wanted) if wanted else set()  # stops once all are found
    return [e for e, cards in zip(events, named) if cards <= shown]


def voided_at(log, seq: int) -> bool:
    """Whether the ``mental-restart`` entry ``seq`` voided a hand in play: the attempt it
    ends had been dealt (a ``mental-dealt`` since that attempt began). Else the deal
    merely started again."""
    for signed in reversed(log[:seq]):
        if signed.kind == DEALT:
            return True
        if signed.kind in (DEAL, RESTART):
            return False
    return False
