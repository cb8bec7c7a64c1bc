"""The seeded deal's host part on its own (``SeededHost``): a hand followed through its own
entries, the entries only the host writes, and where a seat's next move must fit."""

import pytest

from engine import Match, make_game
from engine.bots.random_bot import RandomBot
from net.trust.deals.host import HandTable
from net.trust.deals.seeded import fairdeal
from net.trust.deals.seeded.host import SeededHost, commit_body, hand_end_body
from net.trust.entries import CommitBody
from net.trust.log import Chain
from net.trust.moves import Admitted, Refusal
from net.trust.signing import CONTRIBUTION_DOMAIN, seal
from net.trust.values import Seat, Seats
from net.wire import messages as m
from tests.net.trust_table import identity

HOST, P1, P2, P3 = identity("host"), identity("peer1"), identity("peer2"), identity("peer3")
SECRET = bytes(range(32))


class Log:
    """Entries made and applied in order, as the authority does (``deals.host.Log``)."""

    def __init__(self, away=()):
        self.chain, self.game = Chain("t"), make_game("rook")
        self.match = Match(self.game, bytes(32), dealer=0)
        self.seats = Seats({0: Seat("human", HOST.public_key)} | {
            s: Seat("human", p.public_key, connected=s not in away) for s, p in ((1, P1), (2, P2), (3, P3))})
        self.table = HandTable(HOST, self.game, "t", self.match, lambda: self.seats, lambda: [],
                               lambda: 0.0, 10.0)
        self.deal: SeededHost | None = None
        self.kinds: list[str] = []
        self.last = None  # the last entry made

    def __call__(self, body, private=None, state_hash=None, applied=None):
        kind = body.KIND
        signed = self.last = self.chain.make(HOST, body, state_hash)
        self.chain.advance(signed)
        self.kinds.append(kind)
        if kind == SeededHost.OPENS:
            self.deal = SeededHost(self.table, signed.entry, private or {})
            return []
        return self.deal.apply(signed.entry, private or {}, applied, restoring=False)


def opened(log: Log, contributors) -> CommitBody:
    body = commit_body("t", 0, 0, SECRET, contributors)
    log(body, {"secret": SECRET})
    log.deal.go_on(log)
    return body


def contribution(signer, seat, commitment):
    return m.contribution_message(seal(signer, CONTRIBUTION_DOMAIN,
                                       m.contribution_body("t", 0, seat, commitment, bytes([seat]) * 32)))


def test_the_deal_waits_for_every_contributor_not_away_then_deals_from_the_seed():
    log = Log(away={3})
    body = opened(log, [1, 2, 3])
    assert body.commitment == fairdeal.commitment("t", 0, SECRET)
    deal = log.deal
    assert deal.round.waiting_for == [1, 2] == deal.awaited()
    assert log.kinds == ["commit"]  # nothing dealt yet
    for signer, seat in ((P1, 1), (P2, 2)):
        deal.take(log, seat, signer.public_key, contribution(signer, seat, body.commitment))
        deal.go_on(log)
    assert log.kinds == ["commit", "contribution", "contribution", "deal"]
    assert log.last.body == {"hand": 0, "dealer": 0, "contributors": [1, 2]}
    assert log.match.state.state_hash() == log.last.entry.state_hash
    assert deal.deal_seq == log.chain.seq
    deal.go_on(log)
    assert log.kinds.count("deal") == 1  # dealt once


def test_a_contribution_is_checked_against_the_key_the_seat_and_the_round():
    log = Log()
    body = opened(log, [1, 2])
    deal = log.deal
    with pytest.raises(Refusal, match="not signed by your key"):
        deal.take(log, 1, P2.public_key, contribution(P1, 1, body.commitment))
    with pytest.raises(Refusal, match="seat 2, not 1"):
        deal.take(log, 2, P1.public_key, contribution(P1, 1, body.commitment))
    with pytest.raises(Refusal, match="another commitment"):
        deal.take(log, 1, P1.public_key, contribution(P1, 1, bytes(32)))
    assert log.kinds == ["commit"]


def test_moves_are_bound_after_the_deal_and_the_seats_last_one_and_secrets_kept_for_the_reveal():
    log = Log()
    opened(log, [])
    deal = log.deal
    binding = deal.binding(1, 9, lambda seq: None)
    assert (binding.deal_seq, binding.last_action, binding.next_seq) == (log.chain.seq, None, 9)
    state = log.match.state
    bot = RandomBot(1)
    moved = {}
    while "bury" not in moved and not state.is_over:
        action = bot.choose(state, state.to_act()[0])
        full = log.game.action_to_json(action)
        public = log.game.action_to_json(action, public=True)
        hidden = bytes(32) if full != public else None
        signed = {"body": {"table": "t", "hand": 0, "seen": log.chain.seq, "head": log.chain.head,
                           "action": public, "hidden": hidden}, "sig": bytes(64)}
        deal.log_move(log, signed, Admitted(action, full, bytes(16) if hidden else None), [])
        moved[action.kind] = (log.chain.seq, action.seat, full)
    seq, seat, full = moved["bury"]
    assert deal.binding(seat, seq + 1, lambda s: None).last_action == seq
    assert deal.secret_of(seq) == full and deal.secret_of(seq - 1) is None
    assert deal.hidden == [{"seq": seq, "action": full, "nonce": bytes(16)}]


def test_the_hand_end_banks_the_score_the_reveal_closes_the_round():
    log = Log()
    opened(log, [])
    bot, state = RandomBot(2), log.match.state
    while not state.is_over:
        state.apply(bot.choose(state, state.to_act()[0]))
    end = hand_end_body(log.game, log.match)
    assert end.scores == [s + d for s, d in zip(log.match.scores, state.result().score)]
    log.deal.go_on(log)
    assert log.kinds[-2:] == ["hand_end", "reveal"]
    assert log.match.state is None and log.match.scores == end.scores
    assert log.last.body == {"hand": 0, "secret": SECRET, "hidden": []}
    assert log.deal.between_hands()
