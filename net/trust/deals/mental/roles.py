"""This client's role in one attempt of the mental deal, as its peer checks the hand: a
party that holds cards (``Seated``), or an onlooker that holds none (``Onlooker``: a
watcher, or a player whose cards are the host's party's this attempt — away at the deal,
or restarted out of it).

The peer (``peer.MentalPeer``) checks every entry the same way for both; what differs is
here, behind one small interface, chosen per attempt by ``role_for`` (a restart may drop
this client's party: from then on it is an onlooker):

* ``seat``: the seat whose cards this client holds (None: an onlooker's are the host's);
* ``witnessing()``: whether its replay of the public view is exact (a party's always; an
  onlooker's while its witness follows the deal);
* the moves it makes: ``may_decide``, ``act``;
* the checks only a party can make: a secret move's commitment (``check_sealed``), no
  state hash while nobody can know it (``check_unsigned``), a restart that withheld its
  own messages (``check_withheld``), a hand's end on the verified deal (``hand_end``) and
  a forfeit it proves itself (``forfeit``);
* what the host may send it: a private view (``check_private``), a shadow to learn the
  spare from (``shown``), a public view before play (``checks_public_before_play``).

No I/O; each role holds the table it checks against (``PeerTable``) and its
``PartyHand``, never the peer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Contradiction, IllegalAction

from net.trust.alerts import HOST, Violation
from net.trust.deals.mental import forfeits
from net.trust.deals.mental import log as ml
from net.trust.deals.mental.errors import MentalError
from net.trust.deals.mental.hand import PartyHand
from net.trust.deals.mental.log import Verdict
from net.trust.deals.peer import PeerTable
from net.trust.entries import HandEndBody, MentalBody
from net.trust.log import result_dict
from net.trust.replay.privacy import check_private


@dataclass(frozen=True)
class Forfeit:
    """What ending a hand with a forfeit leaves: the verdict this client proved (None:
    an onlooker takes the host's word), the forfeited hand, and whether on the true deal."""

    verdict: Verdict | None = None
    final: Any = None  # the engine's state of the hand (untyped, as ``forfeited_hand``'s)
    true_deal: bool | None = None


def role_for(t: PeerTable, party: PartyHand) -> Seated | Onlooker:
    """This client's role in the deal attempt ``party`` follows."""
    return Onlooker(t, party) if party.onlooker else Seated(t, party)


def host_violation(t: PeerTable, rule: str, entry, detail: str) -> Violation:
    return Violation(HOST, t.host_seat(), rule, f"entry {entry.seq}: {detail}")


def scored(t: PeerTable, body: HandEndBody, final) -> bool:
    """Whether the host's result, scores and winner are those of ``final``."""
    result = final.result()
    scores = [s + d for s, d in zip(t.scores(), result.score)]
    return body.result == result_dict(result) and body.scores == scores \
        and body.winner == t.game().match_winner(scores, result)


class Seated:
    """A party of the deal: it holds its seats' cards and proves what it can."""

    def __init__(self, t: PeerTable, party: PartyHand):
        self.t, self.party = t, party

    @property
    def seat(self) -> int | None:
        return self.t.seat()

    def witnessing(self) -> bool:
        return True

    checks_public_before_play = True

    def may_decide(self, seat: int | None) -> None:
        if ml.spare_pending(self.party) or (seat is not None and ml.spare_coming(self.party, seat)):
            raise IllegalAction("the spare is on its way: wait a moment", seat)

    def act(self, parsed, message: dict) -> dict:
        """Its move carries its deal step (a bury's commitment) and no private part."""
        envelopes = []
        if parsed.kind != "play":
            try:
                envelopes = self.party.own_move(parsed)
            except MentalError as exc:
                raise IllegalAction(str(exc), parsed.seat) from None
        return {**message, "private": None, "mental": envelopes}

    def check_sealed(self, body, action, entry) -> None:
        if body.hidden is not None:
            self.t.need(self.party.sealed(action), entry, f"a secret move ({action.kind}) logged "
                        "without its commitment in the deal")

    def check_unsigned(self, entry) -> None:
        """The spare being turned up, or the end (scored on the verified deal)."""
        self.t.need(entry.state_hash is None, entry, "a state hash nobody can know yet")

    def check_withheld(self, record: dict, entry, since: int) -> None:
        """A restart that drops this client's own party, as if it had not answered: a
        Violation naming the host if the host had a deal message of ours for this attempt
        — sent on a link it cut for silence well after (``Deliveries``) — and never
        logged it (since ``since``). Our own signed messages go with the alert: no one
        else can time them, but anyone can see they were made."""
        t, me = self.t, self.party.client.me
        if me not in record["dropped"] or record["reason"] not in ("dropped", "void"):
            return
        context = self.party.setup.context
        logged = {body.signed["sig"] for e in t.log()[since:]
                  if isinstance(body := e.content, MentalBody) and body.party == me and body.signed}
        withheld = [(envelope, ahead) for envelope, ahead in t.deliveries().had(t.slack)
                    if envelope["sig"] not in logged and envelope["body"].get("hand") == context.hand
                    and envelope["body"].get("attempt") == context.attempt]
        if withheld:
            envelope, ahead = withheld[0]
            raise Violation(HOST, t.host_seat(), "deal", f"entry {entry.seq}: the host restarted "
                            "the deal without my seat, as if my client had not answered, yet it had "
                            f"my {envelope['body'].get('type')} from {ahead:.1f} s before it closed my "
                            "link, and never logged it", [e for e, _ in withheld])

    def hand_end(self, body: HandEndBody, entry, hand, round_hand: int, cheat: Verdict | None):
        """The hand replayed on the verified deal with every bury and discard opened: it
        must give the host's result, scores and state hash; the final state."""
        t, party = self.t, self.party
        t.need(hand.playing and hand.over and body.hand == round_hand
               and party.verified is not None and cheat is None, entry,
               "a hand end before the hand was over and the deal verified")
        try:
            final = party.final_state()
        except IllegalAction as exc:
            raise host_violation(t, "score", entry, "the host scored a hand whose replay on the "
                                 f"revealed deal breaks a rule (seat {exc.seat}: {exc.reason})") from None
        if entry.state_hash != final.state_hash():
            raise host_violation(t, "state-hash", entry, "the signed state hash is not the hand's public state")
        if not scored(t, body, final):
            raise Violation(HOST, t.host_seat(), "score", f"hand {body.hand}: the host's result and "
                            "scores are not the verified deal's")
        return final

    def forfeit(self, body: HandEndBody, entry, cheat: Verdict | None, dealt: bool) -> Forfeit:
        """This client proves the same verdict itself, and the result, scores and winner
        are the engine's forfeit of the hand where the cheat was proven — else the host
        is named."""
        t, party = self.t, self.party
        verdict = forfeits.proven(party, cheat, dealt)
        if verdict is None:
            raise host_violation(t, "deal", entry, "the host forfeited the hand for a cheat the log "
                                 "does not show")
        if not verdict.same(body.forfeit):
            raise host_violation(t, "deal", entry, f"the host forfeited the hand naming {body.forfeit!r}, "
                                 f"but the log shows {verdict.body()!r}")
        try:
            final = forfeits.forfeited_hand(party, verdict)
        except (IllegalAction, Contradiction) as exc:  # (the host took every one of them)
            raise host_violation(t, "score", entry, f"the host forfeited a hand whose logged moves "
                                 f"cannot be replayed (seat {exc.seat}: {exc.reason})") from None
        if not scored(t, body, final):
            raise Violation(HOST, t.host_seat(), "score", f"hand {body.hand}: the host's result "
                            f"{body.result} and scores {body.scores} are not the forfeit's")
        return Forfeit(verdict, final, forfeits.on_true_deal(party, verdict))

    def check_private(self, game, entry, message, shadow, me: int | None, playing: bool,
                      host_seat: int | None) -> None:
        """The host sends no private view under the mental deal: it cannot have one."""
        no_private_view(entry, message, host_seat)
        check_private(game.deck if game else None, entry, message, shadow, me, playing, host_seat)

    def shown(self, shadow):
        """None: its hand is its own deal client's, so there is no hand from the host to
        learn the spare from (``live.shown_hand``)."""
        return None


class Onlooker:
    """No party of the deal: it follows the public moves (and the spare the rules turn up
    for everyone, by its witness); its seat's cards, if it has a seat, are the host's."""

    def __init__(self, t: PeerTable, party: PartyHand):
        self.t, self.party = t, party

    seat = None
    checks_public_before_play = False  # (its public replay runs from the start: checked once dealt)

    def witnessing(self) -> bool:
        """While its witness follows the deal (one that met a message it could not take
        stopped: the parties judge it, and this client checks only signatures)."""
        return self.party.client.witness is not None

    def may_decide(self, seat: int | None) -> None:
        """Its seat's cards are the host's: nothing of the deal to wait for here."""

    def act(self, parsed, message: dict) -> dict:
        return message  # its cards are the host's party's: the host proves them

    def check_sealed(self, body, action, entry) -> None:
        """A secret move's commitment is the parties' to check."""

    def check_unsigned(self, entry) -> None:
        """The host signs what its own replay says: a witness that knows less takes it."""

    def check_withheld(self, record: dict, entry, since: int) -> None:
        """No message of its own to withhold."""

    def hand_end(self, body: HandEndBody, entry, hand, round_hand: int, cheat: Verdict | None):
        """What it witnessed: the hand on the whole deal, once its witness learned it, if
        it gives the host's result and scores (else None: nothing reported of it)."""
        self.t.need(hand.playing and body.hand == round_hand, entry,
                    "a hand end while no hand is being played")
        party = self.party
        if party.verified is None or cheat is not None:
            return None
        try:
            final = party.final_state()
        except (IllegalAction, Contradiction, KeyError, ValueError):
            return None  # (a move the whole deal refuses: the parties name it)
        result = final.result()
        scores = [s + d for s, d in zip(self.t.scores(), result.score)]
        if body.result != result_dict(result) or body.scores != scores:
            return None
        return final

    def forfeit(self, body: HandEndBody, entry, cheat: Verdict | None, dealt: bool) -> Forfeit:
        """It takes the host's word, as it takes any hand's score."""
        return Forfeit()

    def check_private(self, game, entry, message, shadow, me: int | None, playing: bool,
                      host_seat: int | None) -> None:
        """A player's seat's cards are the host's this hand: the host may show them. A
        client with no seat — a watcher — may be shown nothing private at all."""
        if me is None:
            no_private_view(entry, message, host_seat)
            check_private(game.deck if game else None, entry, message, shadow, me, playing, host_seat)

    def shown(self, shadow):
        """The host's hand teaches it the spare, as under the seeded deal."""
        return shadow


def no_private_view(entry, message, host_seat: int | None) -> None:
    if message.own is not None:
        raise Violation(HOST, host_seat, "privacy", f"entry {entry.seq}: the host sent "
                        "me a private view, which it cannot have under the mental deal")
