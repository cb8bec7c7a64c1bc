"""A player's proven cheat under the private deal forfeits the hand.

The ruling (docs/design.md, "Rulings"; on the wire, docs/protocol.md, "A player's proven
cheat"): the hand ends where the cheat is proven — it is not dealt again — and the
engine scores it as forfeited by the cheater's side (``State.forfeit``). The first cheat
proven decides: the hand is over then.

Every honest party reaches the same proof from the log alone (``proven``): its own deal
client's verdict, every check of the log that needs no secret run again (a batch for
another party it had not checked yet), or a move the rules forbid on the deal every
party revealed (a revoke nobody could see live). Where the hand ends (``forfeited_hand``):

* a move the rules forbid, seen at the reveal: on the verified deal, just before that
  move (every party revealed, so each replays the same true hand);
* any other cheat (a deal message a client refuses — a wrong share, a false redeal
  claim, a false alarm, a copied card —): the hand as the log has it when the host ends
  it — every move logged this attempt, replayed on public knowledge alone
  (``PartyHand.as_logged``) —, exact in every public fact the forfeit is scored on (who
  bid what, who took which trick; nobody's cards, and none shown: a forfeited hand
  reveals nothing hidden); before the cards are dealt, the hand as it opens. Not this
  party's own replay: that one may lack a move — during an audit a copied card makes
  an honest player's move look wrong to the copy's other holder, which holds it back,
  and the moves logged after it until its audit reaches the host — and would score
  the hand at a point that depends on when each client's messages arrived.

The host logs the hand's ``hand_end`` with the verdict (``forfeit``: ``Verdict.body``)
and no state hash, then its ``reveal``; every party checks that the verdict is the one
it proves and that the result, the scores and the winner are the engine's forfeit, else
it names the host (``MentalPeer``). A party's report of the hand (``report``) has a
record only when the hand was replayed on the true deal.
"""

from __future__ import annotations

from engine import IllegalAction
from engine.records import record_from_state
from engine.scoring import breakdown

from net.trust.deals.mental.errors import Cheat, MentalError
from net.trust.deals.mental.log import ILLEGAL_ACTION, Verdict


def proven(party, own: Verdict | None, dealt: bool) -> Verdict | None:
    """The party this client proves broke a rule of the deal under way: its own deal
    client's verdict (``own``); else every check of the log that needs no secret, run
    now; else, once every party revealed (``dealt``: play had begun), a move the rules
    forbid on the revealed deal. None: nothing this client can prove (an onlooker, no
    party of the deal, can prove nothing)."""
    if party.onlooker:
        return None
    return own or _rechecked(party) or _revealed(party, dealt)


def _rechecked(party) -> Verdict | None:
    machine = party.client.machine
    try:
        machine.recheck()
    except Cheat as exc:
        return Verdict.of(exc)
    except MentalError:
        return Verdict.of(machine.failed)
    return None


def _revealed(party, dealt: bool) -> Verdict | None:
    if party.verified is None or not dealt:
        return None
    try:
        party.final_state()
    except IllegalAction as exc:
        return Verdict.of_move(party.setup, exc)
    return None


def on_true_deal(party, verdict: Verdict) -> bool:
    """Whether the hand ``verdict`` forfeits is replayed on the true deal (a move the rules
    forbid, seen once every party revealed), not on this party's partial knowledge."""
    return verdict.rule == ILLEGAL_ACTION and party.verified is not None


def forfeited_hand(party, verdict: Verdict):
    """The hand ended where ``verdict``'s cheat was proven, scored as its side's forfeit
    (a new state: the party's own replay is left as it was). Raises the engine's
    ``IllegalAction``/``Contradiction`` if the logged moves cannot be replayed at all."""
    if on_true_deal(party, verdict):
        state = party.until_broken()
    else:  # every logged move, on public knowledge (before the cards are dealt: none)
        state = party.as_logged().state
    if verdict.seat is None:
        raise ValueError(f"a verdict names no seat: {verdict}")
    state.forfeit(verdict.seat, verdict.rule)
    return state


def report(reveal, end, state, true_deal: bool) -> dict:
    """What a party reports of a forfeited hand it checked (``ReplicaOut.verified``): the
    result and scores, the forfeit's breakdown (it needs no card), and the hand's record
    only when it was replayed on the true deal (else nobody revealed the deal)."""
    return {"hand": reveal.hand, "result": end.result, "scores": list(end.scores),
            "winner": end.winner, "record": record_from_state(state) if true_deal else None,
            "breakdown": breakdown(state), "deferred": []}
