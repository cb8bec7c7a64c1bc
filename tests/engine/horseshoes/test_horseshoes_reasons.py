"""Illegal actions are refused with a reason a player can read, and change nothing."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.errors import IllegalAction
from engine.horseshoes import make
from horseshoes_helpers import bid_all, deal, parse_play, play_script, play_trick, scripted_hand


def refused(state, action: Action) -> str:
    """The reason ``action`` is refused; the state must not change."""
    before = state.state_hash()
    with pytest.raises(IllegalAction) as exc:
        state.apply(action)
    assert state.state_hash() == before
    return exc.value.reason


@pytest.fixture
def four():
    """Mode four, dealer 0: seat 1 bids first, seat 2 leads."""
    game = make(None, "four")
    return deal(game, {2: "AS KS 2H", 3: "AH 3S", 0: "4S", 1: "5S"}, dealer=0)


def test_bidding_out_of_turn(four):
    assert refused(four, Action(2, "bid", 3)) == "it is seat 1's turn, not yours"


def test_first_bid_must_name_trump(four):
    assert refused(four, Action(1, "bid", 3)) == "the first bid names trump as well: S, H, D, C or NT"
    assert refused(four, Action(1, "bid", 3, "X")) == "trump is S, H, D, C or NT, not 'X'"


def test_only_the_first_bid_names_trump(four):
    four.apply(Action(1, "bid", 3, "S"))
    assert refused(four, Action(2, "bid", 3, "H")) == "only the first bidder names trump"


@pytest.mark.parametrize("amount", [-1, 14, "3", True, None])
def test_bids_are_whole_numbers_from_zero_to_thirteen(four, amount):
    assert refused(four, Action(1, "bid", amount, "S")) == "a bid is a whole number of tricks from 0 to 13"


def test_nobody_may_pass(four):
    assert refused(four, Action(1, "pass")) == "nobody may pass: bid from 0 to 13 tricks"


def test_no_play_during_bidding(four):
    assert refused(four, parse_play(four.game, 1, "5S")) == "now is the time to bid, not to play"


def test_no_left_over_card_in_four(four):
    assert refused(four, Action(1, "leftover", "up")) == "there is no left-over card in mode four"


def test_play_out_of_turn_and_cards_not_held(four):
    bid_all(four, [0, 0, 0, 0], trump="C")
    assert refused(four, parse_play(four.game, 3, "3S")) == "it is seat 2's turn, not yours"
    assert refused(four, parse_play(four.game, 2, "5S")) == "you do not hold 5S"
    assert refused(four, Action(2, "play", 99)) == "99 is not a card of this game"


def test_must_follow_suit(four):
    bid_all(four, [0, 0, 0, 0], trump="C")
    play_trick(four, "KS")
    assert refused(four, parse_play(four.game, 3, "AH:high")) == "you must follow spades"


def test_led_ace_and_trump_ace_must_be_declared(four):
    bid_all(four, [0, 0, 0, 0], trump="H")
    assert refused(four, parse_play(four.game, 2, "AS")) == "declare the ace high or low"
    assert refused(four, parse_play(four.game, 2, "AS:middle")) == "declare the ace high or low"
    play_trick(four, "KS", "3S", "4S", "5S")
    play_trick(four, "2H")  # seat 2 won and leads a trump
    assert refused(four, parse_play(four.game, 3, "AH")) == "declare the ace high or low"


def test_only_an_ace_is_declared(four):
    bid_all(four, [0, 0, 0, 0], trump="C")
    assert refused(four, parse_play(four.game, 2, "KS:high")) == "only an ace is declared high or low"


def test_trump_not_led_before_broken():
    game = make(None, "four", {"breaking_trump": True})
    state = deal(game, {2: "KS 2H"}, dealer=0)
    bid_all(state, [0, 0, 0, 0], trump="H")
    assert refused(state, parse_play(game, 2, "2H")) == "trump has not been broken"


def test_breaking_trump_has_no_effect_in_no_trump():
    game = make(None, "four", {"breaking_trump": True})
    state = deal(game, {2: "KS 2H"}, dealer=0)
    bid_all(state, [0, 0, 0, 0], trump="NT")
    play_trick(state, "2H")
    assert state.trick


def test_left_over_choice_reasons():
    dealer_chooses = deal(make(None, "three"), {}, dealer=0)
    assert dealer_chooses.phase == "leftover"
    assert dealer_chooses.to_act() == (0,)
    assert refused(dealer_chooses, Action(1, "bid", 3, "S")) == "it is seat 0's turn, not yours"
    assert refused(dealer_chooses, Action(0, "bid", 3, "S")) == (
        "now is the time to turn the left-over card face up or face down, not to bid")
    assert refused(dealer_chooses, Action(0, "leftover", "sideways")) == (
        'turn the left-over card face "up" or face "down"')
    dealer_chooses.apply(Action(0, "leftover", "down"))
    assert refused(dealer_chooses, Action(1, "leftover", "up")) == "the left-over card is already face down"

    host_chooses = deal(make(None, "three", {"leftover": "up"}), {}, dealer=0)
    assert host_chooses.phase == "bidding"
    assert refused(host_chooses, Action(1, "leftover", "down")) == (
        "the host's options put the left-over card face up")


def test_nothing_after_the_hand():
    state, tricks = scripted_hand("four", [0] * 13)
    bid_all(state, [13, 0, 0, 0])
    play_script(state, tricks)
    assert state.is_over and state.legal_actions() == [] and state.to_act() == ()
    assert refused(state, parse_play(state.game, 0, "2S")) == "the hand is over"
