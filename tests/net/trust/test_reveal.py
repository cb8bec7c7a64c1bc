"""verify_hand on its own: the hand a replica kept, replayed at the reveal with every
card known, and the first fault named."""

from dataclasses import replace

import pytest

from net.trust.alerts import HOST, Violation
from net.trust.deals.seeded.reveal import revealed_actions, verify_hand
from tests.net.trust_table import Table


def finished(seed=7):
    """A Rook hand played out: (seat 1's replica, the reveal body, the scores before)."""
    t = Table(("rook", None, None), seed=seed)
    t.start()
    t.play_hand()
    replica = t.replicas[1]
    assert t.host.log[-1].kind == "reveal" and replica.hand.end is not None
    return replica, t.host.log[-1].content, replica.game.initial_scores()


def test_an_honest_hand_replays_to_the_result_it_claims():
    replica, reveal, before = finished()
    state = verify_hand(replica.game, replica.round, replica.hand, reveal, before, 0)
    assert state.is_over and replica.scores == replica.hand.end.scores
    assert [a.seat for a in state.history] == [s.body.seat for s in replica.hand.steps]


def test_a_secret_move_revealed_with_another_salt_is_the_hosts_fault():
    replica, reveal, before = finished()
    assert reveal.hidden, "a Rook hand always has its bury: the reveal lists it"
    assert set(revealed_actions(replica.game, reveal, replica.hand.steps, 0)) == \
        {item["seq"] for item in reveal.hidden}
    salted = [{**reveal.hidden[0], "nonce": bytes(16)}] + reveal.hidden[1:]
    with pytest.raises(Violation) as caught:
        verify_hand(replica.game, replica.round, replica.hand, replace(reveal, hidden=salted), before, 0)
    assert (caught.value.rule, caught.value.party, caught.value.seat) == ("hidden-action", HOST, 0)
    with pytest.raises(Violation, match="leaves out"):
        revealed_actions(replica.game, replace(reveal, hidden=[]), replica.hand.steps, 0)


def test_scores_the_replay_does_not_give_are_named():
    replica, reveal, before = finished()
    end = replica.hand.end
    padded = replace(replica.hand, end=replace(end, scores=[end.scores[0] + 10] + end.scores[1:]))
    with pytest.raises(Violation) as caught:
        verify_hand(replica.game, replica.round, padded, reveal, before, 0)
    assert caught.value.rule == "score"


def test_a_deal_entry_the_seed_does_not_give_is_named():
    replica, reveal, before = finished()
    with pytest.raises(Violation) as caught:
        verify_hand(replica.game, replica.round, replace(replica.hand, deal_hash="0" * 64), reveal,
                    before, 0)
    assert caught.value.rule == "deal"
