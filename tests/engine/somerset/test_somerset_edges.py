"""The 21 edge cases listed in rules/somerset.md, one test each, from explicit hands.

Seat 0 bids and leads unless a test says otherwise; seats 0+2 and 1+3 are partners.
"""

from __future__ import annotations

import pytest
from somerset_helpers import (bid_and_pass, cards, explicit_deal, legal_names, names, play,
                              play_lowest, to_play)

from engine.actions import Action
from engine.match import Match
from engine.somerset import make

KITTY, WIDOW = "kitty-doubled", "widow-doubled"


def last_winner(state) -> int:
    return state.tricks[-1].winner


def test_edge_01_rover_after_a_real_trump_loses_to_the_trump():
    state = to_play(KITTY, {0: ["3/4"], 1: ["2/8"], 2: ["0/0"], 3: ["0/4"]}, trump="8",
                    voids={1: (4,)})
    play(state, "3/4", "2/8", "0/0", "0/4")
    assert last_winner(state) == 1


def test_edge_02_real_trump_after_the_rover_wins_and_cancels_promotion():
    # 12/12 would top every promoted double; the 0/8 trump beats it all the same.
    state = to_play(KITTY, {0: ["6/6"], 1: ["0/0"], 2: ["0/8"], 3: ["12/12"]}, trump="8",
                    voids={2: (6,), 3: (6,)})
    play(state, "6/6", "0/0", "0/8", "12/12")
    assert last_winner(state) == 2


@pytest.mark.parametrize("trump", ["8", "NT"])
def test_edge_03_rover_led_with_no_trump_and_no_other_double_wins(trump):
    state = to_play(KITTY, {0: ["0/0"], 1: ["3/4"], 2: ["5/6"], 3: ["7/10"]}, trump=trump)
    play(state, "0/0", "3/4", "5/6", "7/10")
    assert last_winner(state) == 0


def test_edge_04_rover_led_the_highest_double_wins():
    state = to_play(KITTY, {0: ["0/0"], 1: ["6/6"], 2: ["10/10"], 3: ["3/4"]}, trump="8")
    play(state, "0/0", "6/6", "10/10", "3/4")
    assert last_winner(state) == 2


def test_edge_05_a_double_played_before_the_rover_counts():
    # Were only doubles after the 0/0 promoted, the 0/0 itself would take this trick.
    state = to_play(KITTY, {0: ["8/8"], 1: ["0/0"], 2: ["3/8"], 3: ["4/8"]}, trump="NT")
    play(state, "8/8", "0/0", "3/8", "4/8")
    assert last_winner(state) == 0


def test_edge_06_with_the_rover_down_a_double_may_replace_following_until_a_trump_falls():
    # No trump on the trick: seat 2 holds /4 yet may play its 10/10, which then wins.
    state = to_play(KITTY, {0: ["3/4"], 1: ["0/0"], 2: ["1/4", "10/10"], 3: ["2/4"]},
                    trump="12")
    play(state, "3/4", "0/0")
    assert "10/10" in legal_names(state)
    play(state, "10/10", "2/4")
    assert last_winner(state) == 2

    # A real trump on the trick: seat 3 holds /4 and may not play its 6/6.
    state = to_play(KITTY, {0: ["1/4"], 1: ["2/12"], 2: ["0/0"], 3: ["3/4", "6/6"]},
                    trump="12", voids={1: (4,)})
    play(state, "1/4", "2/12", "0/0")
    assert "6/6" not in legal_names(state)
    with pytest.raises(Exception) as err:
        play(state, "6/6")
    assert "you must follow /4" in str(err.value)


def test_edge_07_trump_led_and_your_only_trump_is_the_ss_you_must_play_it():
    state = to_play(KITTY, {0: ["5/8"], 1: ["S/S", "0/0"]}, trump="8", voids={1: (8,)})
    play(state, "5/8")
    assert legal_names(state) == {"S/S", "0/0"}

    without_rover = to_play(KITTY, {0: ["5/8"], 1: ["S/S"]}, trump="8", voids={1: (8,)})
    play(without_rover, "5/8")
    assert legal_names(without_rover) == {"S/S"}


def test_edge_08_ss_led_under_no_trump_next_card_sets_suit_and_ss_cannot_win():
    state = to_play(KITTY, {0: ["S/S"], 1: ["2/6"], 2: ["1/6", "7/8"], 3: ["0/6"]},
                    trump="NT")
    play(state, "S/S")
    assert legal_names(state) == names(state.hands[1])  # the second card is free
    play(state, "2/6")
    assert "7/8" not in legal_names(state)  # /6 was set: seat 2 must follow it
    play(state, "1/6", "0/6")
    assert last_winner(state) == 1
    assert state.taken == [0, 1 + 3]  # the trick point and the S/S's 3


def test_edge_09_under_no_trump_the_ss_may_be_discarded_while_holding_the_suit_led():
    state = to_play(KITTY, {0: ["5/10"], 1: ["3/10", "S/S"]}, trump="NT")
    play(state, "5/10")
    assert "S/S" in legal_names(state)
    play(state, "S/S")
    assert state.trick[-1] == (1, cards("S/S")[0])


def test_edge_10_rover_trump_and_led_the_ss_holder_must_play_it_and_the_rover_wins():
    state = to_play(KITTY, {0: ["0/0"], 1: ["S/S", "4/4"]}, trump="0")
    play(state, "0/0")
    assert legal_names(state) == {"S/S"}
    play(state, "S/S")
    assert legal_names(state) == names(state.hands[2])  # trump is exhausted: anything goes
    play_trick_rest(state)
    assert last_winner(state) == 0


def test_edge_11_rover_trump_once_it_is_out_the_ss_wins_any_trick_even_as_lead():
    # Played to a trick: seat 1 ruffs /12 with the 0/0, then the S/S wins over 4/4.
    state = to_play(KITTY, {0: ["5/12"], 1: ["0/0", "3/4"], 2: ["S/S"], 3: ["4/4", "12/12"]},
                    trump="0", voids={1: (12,), 2: (4,)})
    play(state, "5/12", "0/0")
    play_trick_rest(state)
    assert last_winner(state) == 1
    play(state, "3/4", "S/S", "4/4")
    play_trick_rest(state)
    assert last_winner(state) == 2

    # As the lead: seat 1 wins with the 0/0, then leads the S/S under 12/12.
    state = to_play(KITTY, {0: ["5/12"], 1: ["0/0", "S/S"], 2: ["11/12", "12/12"], 3: ["0/12"]},
                    trump="0", voids={1: (12,)})
    play(state, "5/12", "0/0", "11/12", "0/12")
    assert last_winner(state) == 1
    play(state, "S/S", "12/12")
    play_trick_rest(state)
    assert last_winner(state) == 1


def test_edge_12_rover_trump_ss_in_the_kitty_nobody_can_follow_a_rover_lead():
    state = to_play(KITTY, {0: ["0/0"]}, trump="0", spare=["S/S", "12/12"])
    play(state, "0/0")
    while state.trick:
        assert legal_names(state) == names(state.hands[state.turn])
        state.apply(state.legal_actions()[0])
    assert last_winner(state) == 0


def test_edge_13_a_lone_card_of_the_suit_led_wins_however_low():
    void = (2, 4, "S")  # nobody else holds /2 or a trump
    state = to_play(KITTY, {0: ["0/2"], 1: ["9/10"], 2: ["7/8"], 3: ["5/6"]}, trump="4",
                    voids={1: void, 2: void, 3: void})
    play(state, "0/2", "9/10", "7/8", "5/6")
    assert last_winner(state) == 0


def test_edge_14_four_passes_throw_the_hand_in_and_the_deal_moves_left():
    game = make(KITTY)
    match = Match(game, bytes(32), dealer=2)
    match.scores = [30, 41]
    state = match.start_hand()
    assert state.turn == 3  # the dealer's left opens
    for seat in (3, 0, 1, 2):
        events = state.apply(Action(seat, "pass"))
    assert events[-1] == {"type": "thrown_in"}
    result = match.finish_hand()
    assert result.thrown_in and result.made is None and result.score == (0, 0)
    assert match.scores == [30, 41]
    assert match.dealer == 3 and match.winner is None


def test_edge_15_a_bid_of_24_ends_the_auction_at_once():
    game = make(KITTY)
    hands, spare = explicit_deal({})
    state = game.new_hand(hands, spare, dealer=3)
    state.apply(Action(0, "pass"))
    events = state.apply(Action(1, "bid", 24))
    assert {"type": "contract", "bidder": 1, "bid": 24} in events
    assert state.phase == "kitty" and state.to_act() == (1,)


def test_edge_16_a_player_who_passed_may_bid_after_a_raise():
    game = make(WIDOW)
    hands, spare = explicit_deal({})
    state = game.new_hand(hands, spare, dealer=3)
    state.apply(Action(0, "pass"))
    state.apply(Action(1, "bid", 12))
    state.apply(Action(2, "pass"))
    state.apply(Action(3, "bid", 13))
    state.apply(Action(0, "bid", 14))  # seat 0 passed before: still legal
    for seat in (1, 2, 3):
        state.apply(Action(seat, "pass"))
    assert state.phase == "trump" and (state.bidder, state.high_bid) == (0, 14)


def test_edge_17_widow_first_trick_winner_takes_the_open_cards_count():
    state = to_play(WIDOW, {0: ["0/4"], 1: ["4/4"], 2: ["1/4"], 3: ["3/4"]}, trump="NT",
                    spare=["4/8", "1/2"])
    assert state.public_view()["widow"] == ["4/8", "1/2"]
    play(state, "0/4", "4/4", "1/4", "3/4")
    assert state.taken == [0, 1 + 2 + 1]  # one trick point, no point for the widow
    assert state.public_view()["widow_side"] == 1
    play_lowest(state)
    assert sum(state.taken) == 24


def test_edge_18_kitty_count_card_discarded_scores_for_the_last_tricks_side():
    game = make(KITTY)
    hands, spare = explicit_deal({0: ["5/10", "6/12"]}, spare=["1/2", "3/4"])
    state = game.new_hand(hands, spare, dealer=3)
    bid_and_pass(state, 0, 12)
    state.apply(Action(0, "discard", tuple(sorted(cards("5/10", "6/12")))))
    state.apply(Action(0, "trump", "NT"))
    play_lowest(state)
    expected = [0, 0]
    for trick in state.tricks:
        expected[trick.winner % 2] += 1 + sum(game.deck.points_of[c] for _, c in trick.cards)
    expected[state.tricks[-1].winner % 2] += 4  # 5/10 and 6/12 count 2 each
    assert state.taken == expected
    assert sum(state.taken) == 24


# Full hands for the scoring cases: seat 0 bids 16, names 8 and everyone plays its lowest
# legal card; found by search and pinned here card for card.
TOOK_13 = ([["1/2", "2/2", "0/6", "3/10", "4/10", "6/10", "8/10", "1/12", "2/12", "6/12", "7/12", "9/12"],
            ["1/4", "2/6", "0/8", "1/8", "2/8", "3/8", "6/8", "8/8", "5/10", "0/12", "10/12", "11/12"],
            ["0/2", "2/4", "3/4", "4/4", "1/6", "5/6", "6/6", "4/8", "7/8", "7/10", "10/10", "3/12"],
            ["0/0", "0/4", "3/6", "4/6", "5/8", "0/10", "9/10", "4/12", "5/12", "8/12", "12/12", "S/S"]],
           ["1/10", "2/10"])
TOOK_18 = ([["0/2", "2/2", "1/4", "0/6", "1/6", "7/8", "8/10", "10/10", "1/12", "5/12", "10/12", "12/12"],
            ["3/4", "6/6", "3/8", "4/8", "5/8", "6/8", "1/10", "7/10", "9/10", "2/12", "3/12", "9/12"],
            ["0/0", "0/4", "0/8", "1/8", "2/8", "8/8", "0/10", "4/10", "6/10", "6/12", "11/12", "S/S"],
            ["1/2", "2/4", "4/4", "2/6", "3/6", "4/6", "5/6", "3/10", "5/10", "0/12", "7/12", "8/12"]],
           ["4/12", "2/10"])


def played_hand(ruleset: str, deal, bid: int = 16):
    game = make(ruleset)
    hands = [cards(*h) for h in deal[0]]
    spare = cards(*deal[1])
    state = game.new_hand(hands, spare, dealer=3)
    bid_and_pass(state, 0, bid)
    state.apply(Action(0, "discard", tuple(sorted(spare))))
    state.apply(Action(0, "trump", "8"))
    play_lowest(state)
    return state


def test_edge_19_doubled_bid_16_took_13_bidders_minus_6_defenders_plus_22():
    result = played_hand("kitty-doubled", TOOK_13).result()
    assert result.taken == (13, 11)
    assert result.made is False
    assert result.score == (-6, 22)


def test_edge_20_keep_set_loses_the_bid_and_made_scores_both_sides():
    set_hand = played_hand("kitty-keep", TOOK_13).result()
    assert set_hand.taken == (13, 11) and set_hand.made is False
    assert set_hand.score == (-16, 11)

    made_hand = played_hand("kitty-keep", TOOK_18).result()
    assert made_hand.taken == (18, 6) and made_hand.made is True
    assert made_hand.score == (18, 6)


def test_edge_21_both_sides_pass_66_on_one_hand_the_bidding_side_wins_if_it_made():
    game = make("kitty-keep")
    match = Match(game, bytes(32), dealer=3)
    match.scores = [54, 60]  # the bidders finish lower: 67 against 71
    match.state = played_hand("kitty-keep", TOOK_13, bid=12)
    result = match.finish_hand()
    assert result.made and result.score == (13, 11)
    assert match.scores == [67, 71]
    assert match.winner == 0


def play_trick_rest(state) -> None:
    """Complete the current trick with each seat's lowest legal card."""
    while state.trick:
        state.apply(state.legal_actions()[0])
