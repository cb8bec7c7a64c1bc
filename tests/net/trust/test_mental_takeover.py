"""A takeover keeps the private deal: a table that dealt by the mental-poker deal is
carried on by a successor that deals the same way — its client the sequencer and first
party (its own seat, the departed host's held seat, the computer players), every other
human's cards still theirs alone — and every replica checks it (no sockets).

Also: no two deals of a table share a party's secrets (``mental_log.fresh_attempt``):
the hand abandoned at a takeover is dealt again at a fresh attempt, and so is a
rematch's hand 0."""

from types import SimpleNamespace

import pytest

from net.trust import takeover
from net.trust.deals.mental import host as mental_authority
from net.trust.deals.mental import log as ml
from net.trust.deals.mental import messages as mm
from net.trust.deals.peer import NO_DEAL
from net.trust.peer.replica import PeerReplica
from tests.net.trust.mental.test_privacy import every_way_to_decrypt
from tests.net.trust.mental_trust_table import MentalTrustTable
from tests.net.trust.test_takeover import Recording, hand_over

VARIANTS = [
    (("rook", None, None), (1, 2, 3)),
    (("somerset", "kitty-doubled", None), (1, 2)),  # seat 3 a computer player
    (("horseshoes", "horseshoes", "four"), (1, 2, 3)),
]
IDS = ["rook", "somerset-bot", "horseshoes"]


class Recorded(Recording, MentalTrustTable):
    def __init__(self, variant=VARIANTS[0][0], peers=VARIANTS[0][1], seed=5):
        super().__init__(variant, seed=seed, peers=peers)


def deals(host):
    return [e for e in host.log if e.kind == ml.DEAL]


def host_record(host) -> list:
    """Every deal message of the deal under way the host's client holds: its log's
    (the others' and its own), and the played cards' proofs inside the moves."""
    context = host.deal.setup.context
    bodies = [e.body["signed"]["body"] for e in host.log if e.kind == ml.MESSAGE and "signed" in e.body]
    bodies += [e.body["signed"]["body"]["mental"] for e in host.log
               if e.kind == "action" and e.body["signed"]["body"].get("mental") is not None]
    return [(None, b) for b in bodies if (b["hand"], b["attempt"]) == (context.hand, context.attempt)]


def play_checking_privacy(t) -> int:
    """The hand to its end; before each card a human guest plays, the new host's whole
    record (its secrets included) opens none of the cards still in a guest's hand.
    Returns how many cards were checked so."""
    checks, moves = 0, 0
    while t.host.state is not None and not t.host.state.is_over:
        moves += 1
        assert moves < 200, "the hand does not go on"
        seat = t.host.state.to_act()[0]
        deal = t.host.deal
        if seat in t.replicas and deal.dealt and "play" in t.choose(seat):
            setup, record = deal.setup, host_record(t.host)
            found = every_way_to_decrypt(record, deal.party.client.machine.secrets, setup.deck_size)
            played = {b["position"] for _, b in record if b["type"] == mm.PLAY}
            for party in setup.parties[1:]:
                for held in party.seats:
                    assert not (set(setup.dealt(held)) - played) & set(found), \
                        f"the new host opened a card of seat {held}"
            assert set(found) >= set(setup.dealt(t.host_seat))  # its own hand it can open
            checks += 1
        t.step()
    return checks


def assert_dealt_privately_by_the_new_host(t, hand: int, attempt: int) -> None:
    deal = deals(t.host)[-1]
    assert deal.signed_by(t.host_id.public_key) and deal.body["hand"] == hand
    assert deal.content.attempt == attempt
    parties = deal.body["parties"]
    bots = [s for s, info in t.host.seats.items() if info.kind == "bot"]
    assert parties[0] == {"key": t.host_id.public_key, "seats": sorted({t.host_seat, 0, *bots})}
    assert [p["seats"] for p in parties[1:]] == [[s] for s in sorted(t.replicas)]


@pytest.mark.parametrize("variant, peers", VARIANTS, ids=IDS)
def test_a_takeover_mid_hand_deals_that_hand_again_privately(variant, peers):
    t = Recorded(variant, peers)
    t.start()
    t.play_until(lambda: len(t.host.state.history) >= 5)
    hand, scores = t.replicas[1].hand_number, list(t.replicas[1].scores)
    entry = hand_over(t)  # a computer player stands in for the departed host
    assert entry.body["abandoned"] == hand and not t.alerts and not t.errors
    assert t.host.mental_deal
    for replica in t.replicas.values():
        assert replica.deal is NO_DEAL and replica.round is None and replica.scores == scores
    t.next_hand()  # the same hand number, a fresh attempt: no secret of the abandoned deal again
    earlier = ml.fresh_attempt(t.host.log[:entry.seq], hand)  # 1, or more after a Rook redeal
    assert earlier >= 1
    assert_dealt_privately_by_the_new_host(t, hand, attempt=earlier)
    assert play_checking_privacy(t) > 0
    assert not t.alerts and not t.errors and t.heads_agree()
    for seat in t.replicas:
        [verified] = t.verified[seat]  # the redealt hand, every share and shuffle checked
        assert verified["scores"] == t.host.match.scores
    if t.host.match.is_over:  # (a short game may end with the redealt hand)
        return
    t.next_hand()
    t.play_hand()
    assert not t.alerts and not t.errors and t.heads_agree()
    assert all(len(t.verified[seat]) == 2 for seat in t.replicas)


@pytest.mark.parametrize("variant, peers", VARIANTS[:2], ids=IDS[:2])
def test_a_takeover_between_hands_goes_on_with_the_private_deal(variant, peers):
    t = Recorded(variant, peers)
    t.start()
    t.play_hand()
    entry = hand_over(t)  # a computer player stands in for the departed host
    assert entry.body["abandoned"] is None
    t.next_hand()
    assert_dealt_privately_by_the_new_host(t, hand=1, attempt=0)
    assert play_checking_privacy(t) > 0
    assert not t.alerts and not t.errors and t.heads_agree()
    assert all(len(t.verified[seat]) == 2 for seat in t.replicas)


def test_the_departed_host_comes_back_as_a_guest_under_the_private_deal():
    t = Recorded()
    t.start()
    t.play_until(lambda: len(t.host.state.history) >= 4)
    old = t.host_id
    hand_over(t)
    t.next_hand()
    t.play_hand()  # (an onlooker's moves mid-hand are the seeded deal's tests')
    t.old_host_returns(old, PeerReplica)
    assert not t.alerts and not t.errors and t.heads_agree()
    assert t.replicas[0].host_key == t.ids[1].public_key
    t.next_hand()  # the old host is a party of the deal now, as a guest
    assert [p["seats"] for p in deals(t.host)[-1].body["parties"]][1] == [0]
    t.play_hand()
    assert not t.alerts and not t.errors and t.heads_agree()
    assert t.verified[0]


def test_a_rematch_deals_its_first_hand_at_a_fresh_attempt():
    t = MentalTrustTable(("horseshoes", "horseshoes", "four"), seed=3)
    t.start()
    t.play_hand()
    t.deliver(t.host.start_game(dealer=0))  # a new game: its hands are numbered from 0 again
    first, again = [d for d in deals(t.host) if d.body["hand"] == 0]
    assert first.content.attempt == 0 and again.content.attempt == 1
    t.play_hand()
    assert not t.alerts and not t.errors and t.heads_agree()


def test_a_host_that_deals_with_secrets_used_before_is_caught(monkeypatch):
    t = MentalTrustTable(("horseshoes", "horseshoes", "four"), seed=3)
    t.start()
    t.play_hand()  # every party revealed the secrets of (table, hand 0, attempt 0)
    reusing = SimpleNamespace(**{**vars(ml), "fresh_attempt": lambda log, hand: 0})
    monkeypatch.setattr(mental_authority, "ml", reusing)
    t.deliver(t.host.start_game(dealer=0))
    assert t.alerts and {a.rule for _, a in t.alerts} == {"deal"}
    assert all("reuses the secrets" in a.detail and a.party == "host" for _, a in t.alerts)


def test_what_the_log_says_about_the_deal():
    t = MentalTrustTable(("horseshoes", "horseshoes", "four"), seed=3)
    assert ml.dealt_privately(t.host.log) is None  # no hand dealt yet
    t.start()
    assert ml.dealt_privately(t.host.log) is True
    assert ml.fresh_attempt(t.host.log, 0) == 1 and ml.fresh_attempt(t.host.log, 1) == 0
    assert takeover.KIND not in {e.kind for e in t.host.log}
