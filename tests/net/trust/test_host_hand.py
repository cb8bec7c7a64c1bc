"""HostHand on its own: a hand followed through its own entries, the bodies only the
host writes, and where a seat's next move must fit."""

from engine import Match, make_game
from engine.bots.random_bot import RandomBot
from net.trust.deals.seeded import fairdeal
from net.trust.deals.seeded.host import HostHand
from net.trust.log import Chain
from net.trust.signing import CONTRIBUTION_DOMAIN, seal
from net.wire import messages as m
from tests.net.trust_table import identity

HOST, P1, P2 = identity("host"), identity("peer1"), identity("peer2")
SECRET = bytes(range(32))


class Log:
    """Entries made and followed in order, as the authority does."""

    def __init__(self):
        self.chain, self.game = Chain("t"), make_game("rook")
        self.match, self.hand = Match(self.game, bytes(32), dealer=0), HostHand()

    def follow(self, kind, body, private=None, away=frozenset()):
        signed = self.chain.make(HOST, kind, body)
        self.chain.advance(signed)
        return self.hand.follow("t", signed.entry, private or {}, self.match, set(away))


def contribution(signer, seat, commitment):
    return seal(signer, CONTRIBUTION_DOMAIN, m.contribution_body("t", 0, seat, commitment, bytes([seat]) * 32))


def test_the_deal_waits_for_every_contributor_not_away_then_deals_from_the_seed():
    log = Log()
    body = HostHand.commit_body("t", 0, 0, SECRET, [1, 2, 3])
    assert body["commitment"] == fairdeal.commitment("t", 0, SECRET)
    log.follow("commit", body, {"secret": SECRET}, away={3})
    assert log.hand.round.waiting_for == [1, 2] and log.hand.owes(1) and not log.hand.owes(3)
    assert log.hand.deal_body(log.game) is None
    for signer, seat in ((P1, 1), (P2, 2)):
        signed = contribution(signer, seat, body["commitment"])
        assert log.hand.contribution_problem(seat, signer.public_key, signed) is None
        log.follow("contribution", {"seat": seat, "signed": signed})
    deal, state_hash = log.hand.deal_body(log.game)
    assert deal == {"hand": 0, "dealer": 0, "contributors": [1, 2]}
    events = log.follow("deal", deal)
    assert log.match.state.state_hash() == state_hash and log.hand.deal_seq == log.chain.seq
    assert events == list(getattr(log.match.state, "deal_events", ()))
    assert log.hand.deal_body(log.game) is None  # dealt once


def test_a_contribution_is_checked_against_the_key_the_seat_and_the_round():
    log = Log()
    body = HostHand.commit_body("t", 0, 0, SECRET, [1, 2])
    assert "no deal" in log.hand.contribution_problem(1, P1.public_key, contribution(P1, 1, body["commitment"]))
    log.follow("commit", body, {"secret": SECRET})
    assert "not signed by your key" in log.hand.contribution_problem(1, P2.public_key, contribution(P1, 1, body["commitment"]))
    assert "seat 2, not 1" in log.hand.contribution_problem(2, P1.public_key, contribution(P1, 1, body["commitment"]))
    assert "another commitment" in log.hand.contribution_problem(1, P1.public_key, contribution(P1, 1, bytes(32)))


def test_moves_are_bound_after_the_deal_and_the_seats_last_one_and_secrets_kept_for_the_reveal():
    log = Log()
    log.follow("commit", HostHand.commit_body("t", 0, 0, SECRET, []), {"secret": SECRET})
    log.follow("deal", log.hand.deal_body(log.game)[0])
    binding = log.hand.binding("t", 0, 1, 9, lambda seq: None)
    assert (binding.deal_seq, binding.last_action, binding.next_seq) == (log.chain.seq, None, 9)
    log.hand.moved(7, 1, False, {"action": {"seat": 1, "pass": True}, "nonce": None})
    log.hand.moved(8, 2, True, {"action": {"seat": 2, "bury": ["B2"]}, "nonce": bytes(16)})
    assert log.hand.binding("t", 0, 1, 9, lambda seq: None).last_action == 7
    assert log.hand.secret_of(8) == {"seat": 2, "bury": ["B2"]} and log.hand.secret_of(7) is None
    assert log.hand.reveal_body() == {"hand": 0, "secret": SECRET, "hidden": [
        {"seq": 8, "action": {"seat": 2, "bury": ["B2"]}, "nonce": bytes(16)}]}


def test_the_hand_end_banks_the_score_the_reveal_closes_the_round():
    log = Log()
    log.follow("commit", HostHand.commit_body("t", 0, 0, SECRET, []), {"secret": SECRET})
    log.follow("deal", log.hand.deal_body(log.game)[0])
    bot, state = RandomBot(2), log.match.state
    while not state.is_over:
        state.apply(bot.choose(state, state.to_act()[0]))
    end = HostHand.hand_end_body(log.game, log.match)
    assert end["scores"] == [s + d for s, d in zip(log.match.scores, state.result().score)]
    log.follow("hand_end", end)
    assert log.match.state is None and log.match.scores == end["scores"] and not log.hand.between_hands()
    log.follow("reveal", log.hand.reveal_body())
    assert log.hand.between_hands()
