"""Every cheat the trust protocol promises to catch, caught by every honest replica.

A cheating host is the real HostAuthority with one step bent: a check skipped, an entry
rewritten before it is signed, a state changed behind the engine's back. Each test then
lets play go on and asserts that every replica raised exactly one alert, naming the
right seat and rule, and stopped there.
"""

import pytest

from engine import canonical
from net.trust.alerts import HOST, PLAYER
from net.trust.entries import OptionBody
from net.trust.host.authority import HostAuthority, Out
from net.trust.moves import Admitted
from tests.net.trust_table import Table, forge_entries, identity


def alerts(t):
    by_seat = {}
    for seat, alert in t.alerts:
        assert seat not in by_seat, "a replica raised a second alert after stopping"
        by_seat[seat] = alert
    return by_seat


def assert_caught(t, rule, party, seat):
    caught = alerts(t)
    assert sorted(caught) == sorted(t.replicas), f"not every replica caught it: {caught}"
    for replica_seat, alert in caught.items():
        assert (alert.rule, alert.party, alert.seat) == (rule, party, seat), (replica_seat, alert)
        assert alert.evidence and alert.evidence[-1]["entry"]["seq"] == alert.seq
        assert t.replicas[replica_seat].halted is alert


def wave_through(host):
    """The host stops checking players' signed actions: it logs whatever it is handed
    that its engine accepts."""
    host._check_action = lambda seat, signed, private: Admitted(
        host.game.action_from_json(signed["body"]["action"]), signed["body"]["action"])



def rewrite(t, kind, fn, times=1):
    """The host rewrites the body (or hash) of its next ``times`` entries of ``kind``."""
    left = [times]

    def make(k, body, state_hash):
        if k == kind and left[0]:
            left[0] -= 1
            body, state_hash = fn(body, state_hash)
        return body, state_hash
    forge_entries(t.host.chain, make)




# -- actions -------------------------------------------------------------------------
def test_a_forged_action_is_caught():
    t = Table(("rook", None, None))
    t.start()
    t.play_until(lambda: t.host.state.to_act()[0] == 2)
    mallory = identity("mallory")
    forged = t.raw_act(2, {"pass": True}, signer=mallory)
    wave_through(t.host)
    out = Out()
    t.host._take_action(out, 2, forged)
    t.deliver(out)
    assert_caught(t, "player-signature", HOST, 0)


def test_a_replayed_action_in_a_new_entry_is_caught():
    t = Table(("somerset", "kitty-doubled", None))
    t.start()  # dealer 0: seat 1 opens the auction
    lowest = t.host.state.lowest_bid()
    sent = {}
    for seat, action in [(1, {"pass": True}), (2, {"bid": lowest}), (3, {"pass": True}),
                         (0, {"pass": True})]:
        msg = t.raw_act(seat, action) if seat else None
        sent[seat] = msg
        t.deliver(t.host.receive(t.fp(seat), msg) if seat else t.host.act_local(0, action))
    assert t.host.state.to_act() == (1,) and not t.alerts
    wave_through(t.host)
    out = Out()
    t.host._take_action(out, 1, sent[1])  # seat 1's first pass, again
    t.deliver(out)
    assert_caught(t, "action-binding", HOST, 0)


def test_an_identical_resent_entry_is_harmless_but_a_different_one_is_a_fork():
    t = Table(("rook", None, None))
    t.start()
    out = t.step()
    t.deliver(out)
    assert not t.alerts
    old = t.host.log[-1]
    fork = t.host.chain.make(t.host_id, OptionBody("x", True))
    from net.trust.signing import sign_entry
    fork = sign_entry(t.host_id, {**fork.entry.wire(), "seq": old.seq, "prev": old.entry.prev})
    for seat in t.replicas:
        t.deliver(Out(sends=[(t.fp(seat), {"type": "entry", "entry": fork, "events": [],
                                             "public": None, "private": {"view": None, "action": None}})]))
    assert_caught(t, "fork", HOST, 0)


def test_reordered_entries_are_caught():
    t = Table(("rook", None, None))
    t.start()
    first = t.host.act_local(0, {"pass": True}) if t.host.state.to_act()[0] == 0 else \
        t.host.receive(t.fp(t.host.state.to_act()[0]),
                       t.raw_act(t.host.state.to_act()[0], {"pass": True}))
    seat = t.host.state.to_act()[0]
    second = t.host.receive(t.fp(seat), t.raw_act(seat, {"pass": True})) if seat else \
        t.host.act_local(0, {"pass": True})
    assert first.entries and second.entries
    t.deliver(second)
    t.deliver(first)
    assert_caught(t, "sequence", HOST, 0)


def test_a_card_not_held_is_caught_live_by_its_owner_and_by_everyone_at_the_reveal():
    t = Table(("rook", None, None), seed=5)
    t.start()
    t.play_until(lambda: t.host.state.phase == "play" and t.host.state.to_act() == (0,))
    st = t.host.state
    for card in [c for c in range(st.deck.size) if st.hands[1] >> c & 1]:
        give = st.hands[0] & -st.hands[0]  # seat 0's lowest card goes to seat 1
        st.hands[0] ^= give | (1 << card)
        st.hands[1] ^= give | (1 << card)
        if st.legal_play_mask(0) >> card & 1:
            break
        st.hands[0] ^= give | (1 << card)
        st.hands[1] ^= give | (1 << card)
    else:
        pytest.fail("no card of seat 1 would be legal for seat 0 here: the test needs another seed")
    t.deliver(t.host.act_local(0, {"play": st.deck.name(card)}))
    assert [a.rule for s, a in t.alerts] == ["illegal-action"]  # seat 1 saw its own card
    t.play_hand()  # (halted replicas' players sign without their replica)
    assert_caught(t, "illegal-action", PLAYER, 0)
    assert "do not hold" in alerts(t)[2].detail or "dealt to me" in alerts(t)[2].detail


@pytest.mark.parametrize("variant", [("rook", None, None), ("somerset", "kitty-doubled", None)])
def test_a_revoke_let_through_by_the_host_is_caught_at_the_reveal(variant):
    t = Table(variant, seed=11)
    t.start()

    def revoke_possible(s):
        return (s.phase == "play" and s.to_act() == (0,) and s.trick
                and s.hands[0] & ~s.legal_play_mask(0))
    t.play_until(lambda: revoke_possible(t.host.state))
    st = t.host.state
    card = (st.hands[0] & ~st.legal_play_mask(0)).bit_length() - 1
    st.legal_play_mask = lambda seat: st.hands[seat]  # the host's engine looks the other way
    t.deliver(t.host.act_local(0, {"play": st.deck.name(card)}))
    del st.legal_play_mask
    assert not t.alerts  # nobody can tell yet: seat 0's hand is hidden
    t.play_hand()  # (halted replicas' players sign without their replica)
    assert_caught(t, "illegal-action", PLAYER, 0)
    assert "must" in alerts(t)[1].detail


# -- the deal ----------------------------------------------------------------------------
def test_a_deal_that_does_not_match_the_commitment_is_caught():
    t = Table(("somerset", "widow-doubled", None))
    out = t.host.start_game(dealer=0)
    committed = t.host.round.secret
    t.host.round.secret = bytes(32)  # deal from a secret of the host's choosing
    t.deliver(out)
    t.host.round.secret = committed  # ...and reveal the one it committed to
    t.play_hand()  # (halted replicas' players sign without their replica)
    assert_caught(t, "deal", HOST, 0)


def test_a_revealed_secret_that_does_not_open_the_commitment_is_caught():
    t = Table(("horseshoes", "horseshoes", "four"))
    t.start()
    rewrite(t, "reveal", lambda body, h: ({**body, "secret": bytes(32)}, h))
    t.play_hand()  # (halted replicas' players sign without their replica)
    assert_caught(t, "commitment", HOST, 0)


def test_a_contribution_quietly_left_out_is_caught():
    t = Table(("rook", None, None))
    out = t.host.start_game(dealer=0)
    t.host.round.waive(2)  # no drop logged: seat 2's randomness is simply ignored
    t.deliver(out)
    assert_caught(t, "contribution", HOST, 0)


def test_a_secret_action_revealed_differently_is_caught():
    t = Table(("rook", None, None), seed=2)
    t.start()

    def other_bury(body, h):
        hidden = [dict(item) for item in body["hidden"]]
        action = dict(hidden[0]["action"])
        action["bury"] = list(reversed(action["bury"]))[:4] + ["B2" if "B2" not in action["bury"] else "B3"]
        hidden[0]["action"] = action
        return {**body, "hidden": hidden}, h
    rewrite(t, "reveal", other_bury)
    t.play_hand()  # (halted replicas' players sign without their replica)
    assert_caught(t, "hidden-action", HOST, 0)


# -- scores and hashes -------------------------------------------------------------------
def test_a_tampered_score_is_caught_at_the_reveal():
    t = Table(("somerset", "kitty-keep", None))
    t.start()

    def more(body, h):
        return {**body, "scores": [body["scores"][0] + 10] + body["scores"][1:]}, h
    rewrite(t, "hand_end", more)
    t.play_hand()  # (halted replicas' players sign without their replica)
    assert_caught(t, "score", HOST, 0)


def test_a_tampered_state_hash_is_caught_live():
    t = Table(("rook", None, None))
    t.start()
    rewrite(t, "action", lambda body, h: (body, "0" * 64))
    t.step()
    assert_caught(t, "state-hash", HOST, 0)


def test_a_consistent_lie_about_the_public_state_is_caught_live():
    t = Table(("horseshoes", "horseshoes", "four"))
    t.start()
    fake = {}

    def lie(body, h):
        st = t.host.state  # the move is applied when its entry is made
        fake["view"] = {**st.public_view(), "to_act": [(st.to_act()[0] + 1) % 4]}
        return body, canonical.digest(fake["view"])
    rewrite(t, "action", lie)
    real_publish = t.host._publish

    def publish(out, signed, events):
        real_publish(out, signed, events)
        for _, msg in out.sends:
            if msg["entry"] is signed.wire and "view" in fake:
                msg["public"] = fake["view"]
    t.host._publish = publish
    t.step()
    assert_caught(t, "state-hash", HOST, 0)
    assert "to_act" in alerts(t)[1].detail


# -- forks and withheld entries ---------------------------------------------------------------
def _only(t, seat, out):
    """``out``'s messages for one seat's replica (a host showing each peer its own log)."""
    return Out(sends=[(fp, msg) for fp, msg in out.sends if fp == t.fp(seat)])


def test_a_forked_log_is_caught_on_both_sides_by_the_other_players_moves():
    t = Table(("rook", None, None), peers=(1, 2))  # seat 3 is a bot
    t.start()
    t.play_until(lambda: t.host.state.phase == "widow")  # everyone says "Got it", in any order
    other = HostAuthority.restore(t.host_id, t.persisted, rng=t._bytes)  # a second copy
    t.deliver(_only(t, 1, t.host.set_option("x", True)))  # seat 1 sees one history...
    t.deliver(_only(t, 2, other.set_option("x", False)))  # ...seat 2 another
    moves = {seat: t.replicas[seat].act({"ack": True}) for seat in (1, 2)}
    t.deliver(_only(t, 1, t.host.receive(t.fp(1), moves[1])))
    t.deliver(_only(t, 2, other.receive(t.fp(2), moves[2])))
    assert not t.alerts  # each history is consistent on its own
    for host, seat, shown_to in ((t.host, 2, 1), (other, 1, 2)):  # relay the other's move
        wave_through(host)
        out = Out()
        host._take_action(out, seat, moves[seat])
        t.deliver(_only(t, shown_to, out))
    assert_caught(t, "fork", HOST, 0)


def test_the_hosts_heartbeat_head_exposes_a_withheld_entry_or_a_fork():
    t = Table(("rook", None, None))
    t.start()
    replica = t.replicas[1]
    head, seq = replica.chain.head, replica.seq
    assert replica.check_head(seq, head).alerts == []  # what it holds: fine
    assert replica.check_head(seq - 3, t.host.archive.hash_at(seq - 3)).alerts == []  # an older head
    [fork] = replica.check_head(seq, bytes(32)).alerts
    assert (fork.rule, fork.party, fork.seat, fork.seq) == ("fork", HOST, 0, seq)
    assert fork.evidence[-1] == {"type": "hb", "seq": seq, "head": bytes(32)}
    ahead = t.replicas[2]
    [withheld] = ahead.check_head(ahead.seq + 1, bytes(32)).alerts
    assert withheld.rule == "sequence" and "withholding" in withheld.detail
    assert ahead.halted is withheld


# -- cards leaked to a peer --------------------------------------------------------------------
def leaky(t, leak, kind):
    """The host passes each message for an entry of ``kind`` through ``leak(seat, msg)``."""
    real = t.host._publish

    def publish(out, signed, events):
        before = len(out.sends)
        real(out, signed, events)
        if signed.kind == kind:
            for fp, msg in out.sends[before:]:
                leak(t.seat_of_fp(fp), msg)
    t.host._publish = publish


def only_seat_caught(t, seat, rule="privacy"):
    caught = alerts(t)
    assert list(caught) == [seat], caught
    assert (caught[seat].rule, caught[seat].party, caught[seat].seat) == (rule, HOST, 0)
    assert "the host sent me" in caught[seat].detail


def test_another_seats_hand_in_a_private_view_is_caught_live():
    t = Table(("somerset", "kitty-doubled", None))

    def peek(seat, msg):
        if seat == 1:
            msg["private"]["view"] = {**msg["private"]["view"],
                                      "partner": t.host.state.view(3)["hand"]}
    leaky(t, peek, "deal")
    t.start()
    only_seat_caught(t, 1)
    assert "'partner'" in alerts(t)[1].detail


def test_another_seats_secret_move_sent_to_a_peer_is_caught_live():
    t = Table(("rook", None, None), seed=3)
    t.start()
    t.play_until(lambda: t.host.state.phase == "bury")
    bidder = t.host.state.to_act()[0]
    told = 2 if bidder != 2 else 1

    def tell(seat, msg):
        if seat == told:
            full = t.host.deal.hidden[-1]["action"]
            msg["private"] = {**msg["private"], "action": full}
    leaky(t, tell, "action")
    t.step()  # the bidder buries
    only_seat_caught(t, told)
    assert "secret move" in alerts(t)[told].detail


def test_cards_named_in_the_events_are_caught_by_everyone_they_do_not_belong_to():
    t = Table(("horseshoes", "horseshoes", "four"))

    def gossip(seat, msg):
        msg["events"] = msg["events"] + [{"type": "note", "cards": t.host.state.view(2)["hand"]}]
    leaky(t, gossip, "deal")
    t.start()
    caught = alerts(t)
    assert sorted(caught) == [1, 3]  # seat 2 was only told its own hand
    assert all(a.rule == "privacy" and "events" in a.detail for a in caught.values())


def test_a_public_view_padded_with_a_hand_is_caught():
    t = Table(("rook", None, None))
    t.start()
    t.step()

    def pad(seat, msg):
        msg["public"] = {**msg["public"], "hands": t.host.state.view(2)["hand"]}
    leaky(t, pad, "option")
    t.deliver(t.host.set_option("live_scores", True))
    assert_caught(t, "state-hash", HOST, 0)


# -- the contribution deadline -------------------------------------------------------------------
def test_a_skip_before_the_deadline_is_caught():
    t = Table(("rook", None, None))
    commit = t.host.start_game(dealer=0)
    skip = t.host.restart_without([1])  # at once: the host would rather deal without seat 1's shuffle
    t.deliver(Out(sends=commit.sends + skip.sends))
    assert_caught(t, "contribution", HOST, 0)
    assert "must wait 10 s" in alerts(t)[2].detail


def test_a_shuffle_sent_in_time_yet_skipped_is_caught_by_its_sender():
    t = Table(("rook", None, None))
    clock = [100.0]
    for replica in t.replicas.values():
        replica.clock = lambda: clock[0]
    receive = t.host.receive
    t.host.receive = lambda fp, msg: Out() if fp == t.fp(1) else receive(fp, msg)  # ignored
    t.deliver(t.host.start_game(dealer=0))
    clock[0] += 10.0
    t.deliver(t.host.restart_without([1]))  # "it never came"
    caught = alerts(t)
    assert list(caught) == [1] and caught[1].rule == "contribution"
    assert "which I sent" in caught[1].detail  # the others could not know better
