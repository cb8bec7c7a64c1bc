"""The live checks on their own: the hand a seat was sent, a logged move read for the
shadow, and the host's public view against the replayed one."""

import pytest

from engine import canonical, make_game
from engine.cards import cards_of
from net.trust.alerts import HOST, PLAYER, Violation
from net.trust.replay.live import CORE, check_hand, compare, hand_sent, logged_action
from net.trust.values import Entry, SignedEntry
from net.trust.moves import ActionBody
from net.trust.replay.shadow import Shadow
from net.trust.values import EntryMessage
from net.wire import messages as m
from tests.net.trust_table import Table, identity


def test_the_hand_sent_with_the_deal_must_be_cards_each_once():
    game = make_game("rook")
    assert hand_sent(game, {"hand": ["B2", "R5"]}, 0) == {game.deck.parse("B2"), game.deck.parse("R5")}
    for view, said in [(None, "no hand"), ({"hand": ["B2", "B2"]}, "repeats"), ({"hand": ["Q9"]}, "the hand sent")]:
        with pytest.raises(Violation, match=said) as caught:
            hand_sent(game, view, 0)
        assert (caught.value.rule, caught.value.party) == ("private-view", HOST)


def body(action, hidden=None):
    return ActionBody("t", 0, 3, bytes(32), action, hidden)


def test_a_secret_move_is_shadow_played_hidden_unless_it_is_mine():
    game = make_game("rook")
    public = {"seat": 2, "bury": None, "trump": "G"}
    action, hidden = logged_action(game, body(public, bytes(32)), None, 1, 9)
    assert hidden and (action.seat, action.kind, action.value, action.extra) == (2, "bury", None, "G")
    full = {"seat": 2, "bury": ["B2", "B3", "R2", "G5", "Y7"], "trump": "G"}
    action, hidden = logged_action(game, body(public, bytes(32)), full, 2, 9)
    assert not hidden and action == game.action_from_json(full)
    with pytest.raises(Violation) as caught:
        logged_action(game, body({"seat": 2, "pass": True, "bid": 5}), None, 1, 9)
    assert (caught.value.rule, caught.value.party, caught.value.seat) == ("illegal-action", PLAYER, 2)


def unchecked_action(state_hash: str) -> SignedEntry:
    """An action entry signing ``state_hash`` (``compare`` reads only the hash)."""
    return SignedEntry.sign(identity("host"), Entry("t", 0, m.GENESIS_PREV, "action", {}, state_hash))


def test_a_public_view_that_differs_where_the_public_moves_decide_is_the_hosts_lie():
    t = Table(("rook", None, None))
    t.start()
    t.step()
    replica = t.replicas[1]
    shadow, view = replica.hand.shadow, dict(replica.public)
    assert shadow.state.public_view() == view
    lie = {**view, "to_act": [(view["to_act"][0] + 1) % 4]}
    signed = unchecked_action(canonical.digest(lie))
    message = EntryMessage.from_wire(m.entry_message(signed.wire, [], lie, None, None))
    with pytest.raises(Violation, match="to_act") as caught:
        compare(replica.game, shadow, signed.entry, message, 1, 0)
    assert caught.value.rule == "state-hash" and "to_act" in CORE
    honest = unchecked_action(shadow.state.state_hash())
    message = EntryMessage.from_wire(m.entry_message(honest.wire, [], view, None, None))
    assert compare(replica.game, shadow, honest.entry, message, 1, 0) == (shadow, [])


def test_a_kitty_the_shadow_guessed_right_is_still_learnt_as_the_spare():
    # The shadow deals the unseen cards at random; when its made-up kitty happens to be
    # the real one, the bidder's hand already matches the one sent — and the kitty's cards
    # must still count as its own (known spare), or its privacy check calls them another
    # seat's (a real soak game raised "cards that are not mine as 'hand'" this way).
    t = Table(("somerset", "kitty-doubled", None), seed=3)
    t.start()
    while t.host.state.phase != "kitty" or t.host.state.to_act()[0] not in t.replicas:
        if t.host.state.phase == "kitty":
            t.play_hand()
            t.next_hand()
        t.step()
    bidder = t.host.state.to_act()[0]
    learnt = t.replicas[bidder].hand.shadow
    assert learnt.known_spare  # the real kitty, learnt from the hand the host sent
    guess = Shadow(learnt.game, learnt.me, learnt.dealer, learnt.my_hand, frozenset(), learnt.steps)
    held = frozenset(cards_of(guess.state.hands[bidder]))
    view = {"hand": [learnt.game.deck.name(c) for c in sorted(held)]}
    checked = check_hand(learnt.game, guess, view, 99, 0)
    assert held - checked.my_hand <= checked.known_spare and checked.known_spare


@pytest.mark.parametrize("variant, shown", [(("rook", None, None), True),
                                            (("somerset", "widow-keep", None), True),
                                            (("horseshoes", "horseshoes", "three"), None)])
def test_spare_cards_the_public_view_shows_are_learnt_and_the_entries_after_checked_live(variant, shown):
    """A widow turned up (Rook), an open widow (Somerset), a left-over card face up
    (Horseshoes, if the dealer turns it up): once shown, every entry's public view is
    checked as it comes, not deferred to the reveal."""
    t = Table(variant, seed=5)
    t.start()
    first_shown = {}

    def note(table):
        for seat, replica in table.replicas.items():
            if seat not in first_shown and replica.hand is not None and replica.hand.shadow is not None \
                    and replica.hand.shadow.shown_spare:
                first_shown[seat] = replica.seq

    def deferred_after_shown(table):
        note(table)
        for seat, replica in table.replicas.items():
            if replica.hand is not None and seat in first_shown:
                late = [s for s in replica.hand.deferred if s > first_shown[seat]]
                assert not late, (seat, late)
    t.play_hand(deferred_after_shown)
    if shown:
        assert set(first_shown) == set(t.replicas)
    assert not t.alerts and not t.errors
    t.next_hand()  # the reveal: the hand verified in full, as before
    assert not t.alerts and all(t.verified[s] for s in t.replicas)
