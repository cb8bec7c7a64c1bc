"""A host restarted under the mental-poker deal goes on from its own log (no sockets):
restored in the middle of the deal, in the middle of a hand, or between hands (past a
``hand_end`` scored on the verified deal), its replay makes every stored state hash, its
peers rejoin, and the game goes on with every hand verified and nobody alerted."""

import pytest

from net.trust.host.authority import RestoreError
from net.trust.host.authority import HostAuthority
from tests.net.trust.mental_trust_table import MentalTrustTable

VARIANTS = [("rook", None, None), ("somerset", "kitty-doubled", None),
            ("horseshoes", "horseshoes", "four")]
IDS = ["rook", "somerset", "horseshoes"]


def restart(t) -> HostAuthority:
    """The host stops and starts again from what it wrote; its peers rejoin it."""
    old = t.host
    t.host = HostAuthority.restore(t.host_id, list(t.persisted), rng=t._bytes,
                                     persist=lambda s, p: t.persist(s, p))
    back = set()  # a peer not back yet is sent nothing live (its link is down)
    t.tamper = lambda fp, msg: msg if fp in back else None
    for seat in t.peer_seats:
        back.add(t.fp(seat))
        t.deliver(t.host.rejoin(t.fp(seat), seat, t.replicas[seat].seq))
    t.tamper = None
    return old


def play_on(t, hands: int) -> None:
    for _ in range(hands):
        if t.host.state is None:
            t.next_hand()
        t.play_hand()


def assert_went_on(t, hands_verified: int) -> None:
    assert not t.alerts and not t.errors and t.heads_agree()
    assert all(len(t.verified[s]) == hands_verified for s in t.replicas)
    assert all(r.scores == t.host.match.scores for r in t.replicas.values())


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_a_host_restored_between_hands_deals_the_next_hand_privately(variant):
    t = MentalTrustTable(variant, seed=4)
    t.start()
    t.play_hand()
    old = restart(t)
    assert t.host.match.scores == old.match.scores and t.host.match.hand_number == 1
    assert t.host.mental_deal and t.host.state is None
    play_on(t, 1)
    assert [e.kind for e in t.host.log].count("mental-deal") == 2
    assert_went_on(t, 2)


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_a_host_restored_mid_hand_plays_it_on(variant):
    t = MentalTrustTable(variant, seed=4)
    t.start()
    t.play_until(lambda: len([a for a in t.host.state.public_view()["actions"] if "play" in a]) >= 6)
    old = restart(t)
    assert t.host.state.state_hash() == old.state.state_hash()
    assert t.host.deal.party.played == old.deal.party.played
    t.play_hand()  # the host's own party's cards, bids and buries replayed from its log
    play_on(t, 1)
    assert_went_on(t, 2)


def test_a_host_restored_in_the_middle_of_the_deal_deals_on():
    t = MentalTrustTable(VARIANTS[0], seed=4)
    t.tamper = lambda fp, msg: None  # the guests hear nothing: only the host's part is logged
    t.start()
    assert [e.kind for e in t.host.log][-2:] == ["mental-deal", "mental"]
    restart(t)  # the guests come (back) and send their part to the restored host
    assert t.host.deal.dealt
    play_on(t, 2)
    assert_went_on(t, 2)


def test_a_stored_hand_end_that_is_not_the_verified_deals_is_refused():
    t = MentalTrustTable(VARIANTS[2], seed=4)
    t.start()
    t.play_hand()
    records = list(t.persisted)
    at = next(i for i, (s, _) in enumerate(records) if s.kind == "hand_end")
    signed, private = records[at]
    forged = type(signed).sign(t.host_id, signed.entry.__class__(
        **{**{f: getattr(signed.entry, f) for f in ("table", "seq", "prev", "kind", "body")},
           "state_hash": "0" * 64}))
    with pytest.raises(RestoreError, match="does not replay to its state hash"):
        HostAuthority.restore(t.host_id, records[:at] + [(forged, private)], rng=t._bytes)


def test_a_change_that_cannot_be_written_keeps_the_private_deal(tmp_path):
    """A failed write puts the host back at its log (``_undo``): its settings, which the
    log does not hold — the private deal, its deadline and clock — stay as they were."""
    from tests.net.trust.test_store import CommitFails
    store = CommitFails(tmp_path / "table.db")
    t = MentalTrustTable(VARIANTS[0], seed=4, persist=store)
    t.host.persist = store
    clock, deadline = t.host.clock, t.host.deadline = (lambda: 7.0), 3.5
    store.failing = True
    out = t.host.start_game(dealer=0)  # a new game's first deal: nothing written
    assert out.error and "disk full" in out.error and not out.entries
    assert (t.host.mental_deal, t.host.clock, t.host.deadline) == (True, clock, deadline)
    store.failing = False
    t.deliver(t.host.start_game(dealer=0))
    assert [e.kind for e in t.host.log].count("mental-deal") == 1  # dealt privately all the same
    t.play_hand()
    assert_went_on(t, 1)
