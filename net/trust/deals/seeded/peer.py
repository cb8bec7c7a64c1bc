"""The seeded deal as a peer checks it: the commit–reveal round, the shadow deal, the reveal.

``SeededPeer`` follows one hand from its commitment: each contribution (signed by its
seat's key, for this commitment) and each skip (not before the deadline on this peer's
own clock: ``deadline.ShuffleWatch``), the deal once every contribution is in or waived
(the hand the host says this seat holds and the public state it signs checked against
a shadow deal: ``live.compare``), each move (bound to this hand and checked as far as
this seat can see), the hand's end, and at the reveal the whole hand again with every
card known (``reveal.verify_hand``). This seat's own contribution is what it sends.
"""

from __future__ import annotations

from collections.abc import Callable

from net.trust.alerts import HOST, Violation
from net.trust.deals.peer import PeerDeal, PeerTable
from net.trust.deals.seeded import fairdeal
from net.trust.deals.seeded.deadline import ShuffleWatch
from net.trust.deals.seeded.reveal import verified, verify_hand
from net.trust.entries import (ActionEntryBody, CommitBody, ContributionBody, DealBody, EntryBody,
                               HandEndBody, RevealBody, SkipBody)
from net.trust.replay.live import compare, hand_sent, logged_action
from net.trust.moves import Binding, logged_move
from net.trust.replay.shadow import CheckedHand, Shadow, Step
from net.trust.signing import CONTRIBUTION_DOMAIN, opens, seal
from net.wire import messages as m


class SeededPeer(PeerDeal):
    OPENS = "commit"
    KINDS = ("skip", "contribution", "deal", "hand_end", "reveal")
    SELF_CHECKED = ("deal", "action")
    round: fairdeal.DealRound
    hand: CheckedHand

    @classmethod
    def opening(cls, t: PeerTable, entry, message) -> "SeededPeer":
        """The hand a ``commit`` opens: every seated human but the host is asked for
        randomness, and the commitment is 32 bytes."""
        body = entry.body_as(CommitBody)
        required = sorted(t.seats().players(besides=t.host_key()))
        if sorted(body.contributors) != required:
            raise Violation(HOST, t.host_seat(), "contribution",
                            f"the commitment for hand {body.hand} asks {body.contributors} "
                            f"for randomness, not every player {required}")
        t.need(len(body.commitment) == m.HASH_BYTES, entry, "a commitment is 32 bytes")
        return cls(t, entry)

    def __init__(self, t: PeerTable, entry):
        body = entry.body_as(CommitBody)
        self.t = t
        self.round = fairdeal.DealRound(t.table, body.hand, body.dealer, body.commitment,
                                        body.contributors)
        for seat in t.seats().away() & set(body.contributors):
            self.round.waive(seat)
        self.hand = CheckedHand(entry.seq)
        self.shuffles = ShuffleWatch(t.deadline, t.slack)
        self.shuffles.committed(body.hand, t.live(), t.arrived())
        self._contributed = False  # this seat's contribution sent (since the last sync)

    def check(self, entry, message):
        body = entry.content
        return self._CHECKS[type(body)](self, body, entry, message)

    # -- the round ---------------------------------------------------------------------------
    def _on_skip(self, body: SkipBody, entry, message):
        """A contributor skipped for missing the deadline: it must have owed one, and
        the skip may not come sooner than this peer's own clock allows (``deadline``)."""
        t, rnd = self.t, self.round
        t.need(not rnd.dealt and body.hand == rnd.hand, entry, "a skip with no deal waiting")
        seat = body.seat
        if seat not in rnd.waiting_for:
            raise Violation(HOST, t.host_seat(), "contribution",
                            f"the host skipped seat {seat}, which owed no contribution")
        problem = self.shuffles.skip_problem(rnd.hand, seat, seat == t.seat(), t.clock())
        if problem:
            raise Violation(HOST, t.host_seat(), "contribution", problem)
        return lambda: rnd.waive(seat)

    def _on_contribution(self, body: ContributionBody, entry, message):
        t = self.t
        t.need(not self.round.dealt, entry, "a contribution with no deal waiting")
        signed = body.signed
        t.need(m.is_contribution_envelope(signed), entry, "a malformed contribution")
        seat = signed["body"]["seat"]
        t.need(body.seat == seat and seat in t.seats(), entry,
               "the contribution is filed under another seat")
        if not opens(t.seats()[seat].key, CONTRIBUTION_DOMAIN, signed):
            raise Violation(HOST, t.host_seat(), "contribution",
                            f"seat {seat}'s contribution is not signed by its key")
        problem = self.round.contribution_problem(signed["body"])
        if problem:
            raise Violation(HOST, t.host_seat(), "contribution", problem)
        return lambda: self.round.add(seat, signed["body"]["random"])

    def _on_deal(self, body: DealBody, entry, message):
        t, rnd = self.t, self.round
        t.need(not rnd.dealt and body.hand == rnd.hand and body.dealer == rnd.dealer, entry,
               "a deal with no commitment before it")
        if rnd.waiting_for or body.contributors != rnd.contributors():
            raise Violation(HOST, t.host_seat(), "contribution",
                            f"hand {rnd.hand} was dealt without the randomness of seat(s) "
                            f"{rnd.waiting_for or body.contributors}")
        me, game = t.seat(), t.game()
        my_hand = hand_sent(game, message.view, t.host_seat()) if me is not None else frozenset()
        shadow, deferred = compare(game, Shadow(game, me, rnd.dealer, my_hand), entry, message, me,
                                   t.host_seat())
        self.check_private(game, entry, message, shadow, me, t.host_seat())
        hand = self.hand

        def commit():
            rnd.dealt = True
            self.hand = hand.with_deal(entry.seq, entry.state_hash, shadow, deferred)
        return commit

    # -- moves ---------------------------------------------------------------------------------
    def _on_action(self, logged: ActionEntryBody, entry, message):
        t, hand = self.t, self.hand
        t.need(hand.playing and not hand.over, entry,
               "an action while no hand is being played")
        t.need(logged.move.mental is None, entry, "a deal proof with a move under the seeded deal")
        game, host_seat = t.game(), t.host_seat()
        body = logged_move(entry, logged.signed, t.seats(), host_seat, self.binding(entry))
        action, hidden = logged_action(game, body, message.action, hand.me, entry.seq)
        shadow, deferred = compare(game, hand.dealt_shadow.with_step(action, hidden), entry, message,
                                   hand.me, host_seat)
        self.check_private(game, entry, message, shadow, t.seat(), host_seat)
        step = Step(entry.seq, body, entry.state_hash)

        def commit():
            self.hand = hand.with_step(step, shadow, deferred)
        return commit

    def binding(self, entry):
        """What a move logged in ``entry`` must be bound to, by seat (``moves.Binding``)."""
        hand, log = self.hand, self.t.log()
        return lambda seat: Binding(self.t.table, self.round.hand, hand.deal_seq,
                                    hand.last_action(seat), entry.seq, log.hash_at)

    def teach(self, shadow) -> None:
        self.hand = self.hand.with_shadow(shadow)

    # -- the end of the hand ----------------------------------------------------------------------
    def _on_hand_end(self, body: HandEndBody, entry, message):
        hand = self.hand
        self.t.need(hand.playing and hand.over and body.hand == self.round.hand,
                    entry, "a hand end while the hand is being played")
        return lambda: setattr(self, "hand", hand.ended(body))

    def _on_reveal(self, body: RevealBody, entry, message):
        t, hand, rnd = self.t, self.hand, self.round
        t.need(hand.end is not None and not rnd.revealed and body.hand == rnd.hand, entry,
               "a reveal before the hand ended")
        problem = "the reveal does not give the hand's secret" if body.secret is None \
            else rnd.reveal_problem(body.secret)
        if problem:
            raise Violation(HOST, t.host_seat(), "commitment", problem)
        state = verify_hand(t.game(), rnd, hand, body, t.scores(), t.host_seat())

        def commit():
            assert hand.end is not None  # (the need above)
            rnd.secret, rnd.revealed = body.secret, True
            t.close_hand(list(hand.end.scores), hand.end.winner)
            return verified(body, hand, state)
        return commit

    #: This deal's entries, by their body's class: each one's check.
    _CHECKS: dict[type[EntryBody], Callable] = {
        SkipBody: _on_skip, ContributionBody: _on_contribution, DealBody: _on_deal,
        ActionEntryBody: _on_action, HandEndBody: _on_hand_end, RevealBody: _on_reveal}

    # -- what this seat sends -----------------------------------------------------------------------
    def sends(self) -> list[dict]:
        """This seat's contribution, once, when the round waits for it."""
        me, rnd = self.t.seat(), self.round
        if me is None or me not in rnd.waiting_for or rnd.dealt or self._contributed:
            return []
        self._contributed = True
        self.shuffles.contributed(rnd.hand, self.t.clock())
        body = m.contribution_body(self.t.table, rnd.hand, me, rnd.commitment, self.t.rng(m.RANDOM_BYTES))
        return [m.contribution_message(seal(self.t.identity, CONTRIBUTION_DOMAIN, body))]

    def resynced(self) -> None:
        self._contributed = False  # a restarted host may have lost it: offer again
        self.shuffles.resynced()

    def on_dropped(self, seat: int) -> None:
        self.round.waive(seat)
