"""Illegal actions are refused with a reason a player can read, and change nothing."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.errors import IllegalAction
from rook_helpers import DECK, deal_with, play, to_bury, to_play


def refused(state, action: Action) -> str:
    before = state.state_hash()
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    assert state.state_hash() == before
    return caught.value.reason


def bidding_at(amount: int | None):
    state = deal_with(dealer=3)
    if amount is not None:
        state.apply(Action(0, "bid", amount))
    return state


@pytest.mark.parametrize("standing, bid, reason", [
    (None, 103, "bids go up in steps of 5"),
    (None, 185, "the highest bid is 180"),
    (None, 95, "the lowest bid is 100"),
    (120, 120, "the bid stands at 120: bid at least 125 or pass"),
    (120, 115, "the bid stands at 120: bid at least 125 or pass"),
    (None, "100", "a bid is a whole number"),
    (None, True, "a bid is a whole number"),
])
def test_bad_bids_are_refused_with_a_reason(standing, bid, reason):
    state = bidding_at(standing)
    assert refused(state, Action(state.to_act()[0], "bid", bid)) == reason


def test_a_bid_naming_trump_is_refused():
    state = bidding_at(None)
    assert "trump comes with the bury" in refused(state, Action(0, "bid", 100, "G"))


def test_acting_out_of_turn_names_whose_turn_it_is():
    state = bidding_at(None)
    assert refused(state, Action(2, "bid", 100)) == "it is seat 0's turn, not yours"
    assert refused(state, Action(0, "ack")) == "now is the time to bid or pass, not to ack"


def raise_step(bid: int = 120):
    state = bidding_at(bid)
    for seat in (1, 2, 3):
        state.apply(Action(seat, "pass"))
    assert state.phase == "raise"
    return state


@pytest.mark.parametrize("to, reason", [
    (120, "your contract is already 120: raise to more, or keep it"),
    (115, "a raise must go above your contract of 120"),
    (185, "the highest contract is 180"),
    (123, "contracts go up in steps of 5"),
    ("max", "raise to a whole number, or keep your bid"),
])
def test_bad_raises_are_refused_with_a_reason(to, reason):
    assert refused(raise_step(120), Action(0, "raise", to)) == reason


def test_raising_a_180_contract_is_refused():
    state = bidding_at(180)
    assert state.phase == "widow"
    assert refused(state, Action(0, "raise", None)) == "a contract of 180 cannot be raised"


def test_raising_after_the_widow_is_shown_is_refused():
    state = raise_step(120)
    state.apply(Action(0, "raise", None))
    assert refused(state, Action(0, "raise", 150)) == "the raise comes before the widow is shown"


def test_a_second_got_it_is_refused_and_changes_nothing():
    state = raise_step(120)
    state.apply(Action(0, "raise", None))
    state.apply(Action(1, "ack"))
    assert refused(state, Action(1, "ack")) == "you have already said Got it"
    assert state.to_act() == (0, 2, 3)


def test_a_second_got_it_is_a_repeat_sessions_accept_and_ignore():
    state = raise_step(120)
    state.apply(Action(0, "raise", None))
    assert not state.repeats(Action(1, "ack"))  # not said yet: a real decision
    state.apply(Action(1, "ack"))
    assert state.repeats(Action(1, "ack"))
    assert not state.repeats(Action(2, "ack")) and not state.repeats(Action(1, "ack", 5))
    for seat in (0, 2, 3):
        state.apply(Action(seat, "ack"))
    assert state.phase == "bury" and state.repeats(Action(3, "ack"))  # late, still nothing
    assert not state.repeats(Action(7, "ack")) and not state.repeats(Action(0, "bid", 100))


def bury_step():
    return to_bury(deal_with({0: ["G1", "G2", "G3", "G4", "G5"]}, voids={0: "B"}))


def held(state, count: int) -> tuple:
    return tuple(c for c in range(DECK.size) if state.hands[0] >> c & 1)[:count]


def test_burying_a_card_not_held_is_refused():
    state = bury_step()
    not_held = DECK.parse("B7")
    reason = refused(state, Action(0, "bury", tuple(sorted(held(state, 4) + (not_held,))), "G"))
    assert reason == "you do not hold B7"


@pytest.mark.parametrize("count", [4, 6])
def test_burying_the_wrong_number_of_cards_is_refused(count):
    state = bury_step()
    assert refused(state, Action(0, "bury", held(state, count), "G")) == f"bury exactly 5 cards, not {count}"


def test_burying_a_card_twice_is_refused():
    state = bury_step()
    card = held(state, 1)[0]
    assert refused(state, Action(0, "bury", (card,) * 5, "G")) == "each buried card must be a different card"


@pytest.mark.parametrize("trump", [None, "NT", "BR", "g"])
def test_a_bury_must_name_one_trump_colour(trump):
    state = bury_step()
    assert refused(state, Action(0, "bury", held(state, 5), trump)) == (
        "name a trump colour: B, R, G or Y (there is no no-trump)")


def test_follow_reasons_name_the_suit_and_the_trump():
    state = to_play(deal_with({0: ["R5", "G9"], 1: ["R7", "B9"], 2: ["G2", "B8"]},
                              widow=["B2"], voids={2: "R"}), trump="G")
    play(state, "R5")
    assert refused(state, Action(1, "play", DECK.parse("B9"))) == "you must follow Red"
    play(state, "R7")
    assert refused(state, Action(2, "play", DECK.parse("B8"))) == (
        "you have no Red, so you must play a trump (Green or the Rook)")
    assert refused(state, Action(2, "play", DECK.parse("R1"))) == "you do not hold R1"
