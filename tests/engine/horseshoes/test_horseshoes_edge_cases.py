"""The numbered edge cases of rules/horseshoes.md, one test each, from explicit deals."""

from __future__ import annotations

from engine.actions import Action
from engine.horseshoes import make
from engine.match import Match
from horseshoes_helpers import (bid_all, deal, finish_trick, parse_play, play_script,
                                play_trick, scripted_hand)

# Trick winners for a whole hand (the last two always match: see scripted_tricks).
# Four players, dealer 0, so seat 2 leads first.
WINNERS_3_4_2_4 = [0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 3, 3]
WINNERS_4_4_3_2 = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3]


def winners_of(state) -> list[int]:
    return [t.winner for t in state.tricks]


def test_edge_01_three_ace_of_trump_left_over_makes_the_ten_top_trump():
    game = make(None, "three", {"leftover": "up"})
    state = deal(game, {0: "TS", 1: "9S 8S", 2: "7S"}, dealer=1, spare="AS")
    assert state.view(0)["leftover"] == {"face": "up", "card": "AS"}
    bid_all(state, [1, 1, 1], trump="S")
    assert state.turn == 0  # two seats left of dealer 1
    play_trick(state, "TS", "9S", "7S")
    assert state.tricks[0].winner == 0
    # Nothing left in play outranks the ten: no one holds the ace of trump.
    assert not any(hand & (1 << game.deck.parse("AS")) for hand in state.hands)


def test_edge_02_four_everyone_exact_scores_three_each():
    state, tricks = scripted_hand("four", WINNERS_3_4_2_4)
    bid_all(state, [3, 4, 2, 4])
    play_script(state, tricks)
    assert state.result().taken == (3, 4, 2, 4)
    assert state.result().score == (3, 3, 3, 3)


def test_edge_03_bids_totalling_fourteen_score_normally():
    state, tricks = scripted_hand("four", WINNERS_4_4_3_2)
    bid_all(state, [4, 4, 3, 3])  # 14: somebody must miss
    play_script(state, tricks)
    assert state.result().score == (0, 0, 0, 1)


def test_edge_04_bid_zero_took_two_scores_two():
    winners = [0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 3, 3]
    state, tricks = scripted_hand("four", winners)
    bid_all(state, [4, 5, 0, 2])
    play_script(state, tricks)
    assert state.result().score == (0, 0, 2, 0)


def test_edge_05_partners_zero_bidder_takes_the_partners_tricks_without_penalty():
    # Seat 0 bid 0 and took all five; seat 2 bid 5 and took none. Team 1 is off by one.
    winners = [0, 0, 0, 0, 0, 1, 1, 1, 1, 3, 3, 3, 3]
    state, tricks = scripted_hand("partners", winners)
    bid_all(state, [0, 4, 5, 3])
    play_script(state, tricks)
    assert state.result().taken == (5, 8)
    assert state.result().score == (0, 1)
    assert state.view(0)["tricks_won"] == [5, 4, 0, 4]


def test_edge_06_partners_both_teams_exact_score_three_each():
    state, tricks = scripted_hand("partners", WINNERS_3_4_2_4)
    bid_all(state, [1, 6, 4, 2])  # team 0: 1 + 4 = 5 = 3 + 2; team 1: 6 + 2 = 8 = 4 + 4
    play_script(state, tricks)
    assert state.result().score == (3, 3)


def test_edge_07_ace_led_low_with_everyone_else_void_still_wins():
    game = make(None, "four")
    state = deal(game, {2: "AS", 3: "2C", 0: "2H", 1: "3H"}, dealer=0,
                 voids={0: "S", 1: "S", 3: "S"})
    bid_all(state, [0, 0, 0, 0], trump="D")
    play_trick(state, "AS:low", "2C", "2H", "3H")  # seat 2 leads; nobody trumps
    assert state.tricks[0].winner == 2


def test_edge_08_ace_led_low_loses_to_the_two_of_its_suit():
    game = make(None, "four")
    state = deal(game, {2: "AS", 3: "2S", 0: "2H", 1: "2C"}, dealer=0,
                 voids={0: "S", 1: "S"})
    bid_all(state, [0, 0, 0, 0], trump="D")
    play_trick(state, "AS:low", "2S", "2H", "2C")
    assert state.tricks[0].winner == 3


def test_edge_09_trump_ace_played_low_loses_to_the_three_of_trump():
    game = make(None, "four")
    state = deal(game, {2: "KS", 3: "AH", 0: "3H", 1: "2S"}, dealer=0,
                 voids={3: "S", 0: "S"})
    bid_all(state, [0, 0, 0, 0], trump="H")
    play_trick(state, "KS", "AH:low", "3H", "2S")
    assert state.tricks[0].winner == 0


def test_edge_10_no_trump_ace_thrown_off_suit_needs_no_declaration_and_cannot_win():
    game = make(None, "four")
    state = deal(game, {2: "2S", 3: "AH", 0: "3S", 1: "4S"}, dealer=0, voids={3: "S"})
    bid_all(state, [0, 0, 0, 0], trump="NT")
    play_trick(state, "2S")
    ace = game.deck.parse("AH")
    offered = [a for a in state.legal_actions(3) if a.value == ace]
    assert offered == [Action(3, "play", ace)]  # once, undeclared
    state.apply(Action(3, "play", ace, "high"))  # a declaration given is ignored...
    assert state.history[-1] == Action(3, "play", ace)  # ...and not recorded
    play_trick(state, "3S", "4S")
    assert state.tricks[0].winner == 1


def test_edge_11_breaking_trump_leader_holding_only_trump_may_lead_it():
    game = make(None, "four", {"breaking_trump": True})
    hearts = " ".join(r + "H" for r in "A23456789TJQK")
    state = deal(game, {2: hearts}, dealer=0)
    bid_all(state, [0, 0, 13, 0], trump="H")
    assert not state.trump_broken
    assert len(state.legal_actions(2)) == 14  # all thirteen hearts, the ace twice
    play_trick(state, "2H")
    finish_trick(state)
    assert state.trump_broken
    assert state.view(1)["trump_broken"] is True


def test_edge_12_breaking_trump_void_player_trumping_trick_one_breaks_trump():
    game = make(None, "four", {"breaking_trump": True})
    state = deal(game, {2: "KS 2H", 3: "3H 4H", 0: "2S", 1: "3S"}, dealer=0, voids={3: "S"})
    bid_all(state, [0, 0, 0, 0], trump="H")
    assert parse_play(game, 2, "2H") not in state.legal_actions(2)
    play_trick(state, "KS", "3H", "2S", "3S")  # seat 3 is void in spades and trumps
    assert state.tricks[0].winner == 3
    assert state.trump_broken
    assert parse_play(game, 3, "4H") in state.legal_actions(3)  # hearts may be led now


def test_edge_13_lowest_of_twelve_nine_thirteen_wins():
    game = make(None, "three")
    assert game.match_winner([12, 9, 13], None) == 1


def test_edge_14_shared_lowest_means_another_hand_for_all_three():
    game = make(None, "three", {"leftover": "down"})
    match = Match(game, bytes(32), dealer=0)
    match.scores = [10, 6, 6]
    # Seats bid 0, 4, 6 and take 3, 7, 3 tricks: each is off by three.
    winners = [1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 0, 0, 0]
    state, tricks = scripted_hand("three", winners, dealer=0, options={"leftover": "down"})
    match.state = state
    bid_all(state, [0, 4, 6])
    play_script(state, tricks)
    match.finish_hand()
    assert match.scores == [13, 9, 9]
    assert match.winner is None
    next_hand = match.start_hand()
    assert [h.bit_count() for h in next_hand.hands] == [13, 13, 13]
    assert next_hand.turn == 2  # the deal passed left to seat 1; seat 2 bids first


def test_edge_15_everyone_past_the_target_unique_lowest_still_wins():
    game = make(None, "four")
    assert game.match_winner([20, 15, 17, 14], None) == 3
    assert game.match_winner([20, 14, 17, 14], None) is None
