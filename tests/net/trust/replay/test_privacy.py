"""check_private on its own: what the host sends one seat alone names only its cards."""

import pytest

from net.trust.alerts import HOST, Violation
from net.trust.entries import OptionBody
from net.trust.log import Chain
from net.trust.replay.privacy import check_private, only_own, own_cards
from net.trust.values import card_names
from net.trust.values import EntryMessage
from net.wire import messages as m
from tests.net.trust_table import Table, identity


@pytest.fixture(scope="module")
def dealt():
    t = Table(("horseshoes", "horseshoes", "four"))
    t.start()
    return t, t.replicas[1]


def sent(t, view, events=(), action=None):
    """An "option" entry (it changes no state) with this private part for seat 1."""
    signed = Chain("t").make(identity("host"), OptionBody("x", True))
    wire = m.entry_message(signed.wire, list(events), t.host.state.public_view(), view, action)
    return signed.entry, EntryMessage.from_wire(wire)


def check(t, replica, view, events=(), action=None):
    entry, message = sent(t, view, events, action)
    check_private(replica.game.deck, entry, message, replica.hand.shadow, 1, True, 0)


def test_a_seat_may_be_sent_its_own_view_and_its_own_cards(dealt):
    t, replica = dealt
    mine = t.host.state.view(1)
    check(t, replica, mine, events=[{"type": "note", "cards": mine["hand"]}])


@pytest.mark.parametrize("leak, said", [
    (lambda t: {"view": t.host.state.view(2)}, "the private view of seat 2"),
    (lambda t: {"view": {**t.host.state.view(1), "partner": t.host.state.view(3)["hand"]}},
     "cards that are not mine as 'partner'"),
    (lambda t: {"view": t.host.state.view(1), "events": [{"cards": t.host.state.view(2)["hand"][:1]}]},
     "in its events, cards nobody has shown"),
    (lambda t: {"view": None, "action": {"seat": 2, "discard": ["AS"]}}, "another seat's secret move"),
])
def test_anything_else_is_a_privacy_violation_naming_the_host(dealt, leak, said):
    t, replica = dealt
    parts = leak(t)
    with pytest.raises(Violation, match=said) as caught:
        check(t, replica, parts.get("view"), parts.get("events", ()), parts.get("action"))
    assert (caught.value.rule, caught.value.party, caught.value.seat) == ("privacy", HOST, 0)


def test_the_cards_a_seat_may_see_and_those_a_value_names(dealt):
    t, replica = dealt
    deck, shadow = replica.game.deck, replica.hand.shadow
    own = own_cards(shadow, 1, True)
    assert own == set(shadow.my_hand) and own_cards(shadow, 2, True) is None  # seated mid-hand
    assert own_cards(None, 1, False) == set() and own_cards(None, 1, True) is None
    names = [deck.name(c) for c in sorted(own)]
    assert only_own(deck, [names[:2], None], own) and not only_own(deck, ["not a card"], own)
    assert card_names(deck, {"a": [names[0], {"b": names[1]}], "c": "hello"}) == set(sorted(own)[:2])


def test_looking_for_a_few_cards_finds_what_the_whole_walk_finds():
    """``card_names(…, among=)`` stops once it has met every card it looks for: over a
    whole hand's public views and the cards of every deck, it finds exactly the cards of
    ``among`` that the full walk names."""
    t = Table(("rook", None, None), seed=9)
    t.start()
    views = []

    def keep_view(table):
        if table.host.state is not None:
            views.append(table.host.state.public_view())
    t.play_hand(check=keep_view)
    deck = t.replicas[1].game.deck
    assert len(views) > 40
    for i, view in enumerate(views):
        named = card_names(deck, view)
        for among in ({i % deck.size}, {(i * 7) % deck.size, (i * 11) % deck.size},
                      set(range(0, deck.size, 5)), named, set()):
            assert card_names(deck, view, among=among) == named & among
    # spelled loosely (a name with spaces, in lower case) still counts
    assert card_names(deck, {"x": [" " + deck.name(3).lower()]}, among={3}) == {3}
