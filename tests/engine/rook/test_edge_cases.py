"""The numbered edge cases of rules/rook.md, one test each, in the same order."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.bots.random_bot import RandomBot
from engine.deal import derive_seed
from engine.errors import IllegalAction
from engine.match import Match
from engine.rook.rules import POINT_CARDS, POINTS
from tests.engine.playouts import FIRST_LEGAL, play_out
from rook_helpers import (DECK, GAME, cards, deal_with, legal_names, names, play,
                          to_bury, to_play)

ALL_GREENS_BUT_G2 = ["G1", "G14", "G13", "G12", "G11", "G10", "G9", "G8", "G7", "G6", "G5", "G4", "G3"]


def seed_needing_redeal() -> bytes:
    """The first probe seed whose first deal leaves some hand without a point card."""
    for i in range(5000):
        seed = derive_seed(b"rook-edge-01".ljust(32, b"."), "probe", i)
        hands, _ = GAME.deal_cards(seed, 0)
        if any(not DECK.mask(h) & POINT_CARDS for h in hands):
            return seed
    raise AssertionError("no probe seed needs a redeal")


def test_edge_01_hand_without_point_cards_is_redealt_by_same_dealer():
    seed = seed_needing_redeal()
    state = GAME.deal(seed, 2)
    assert state.redeals >= 1
    assert state.dealer == 2
    final_hands, final_spare = GAME.deal_cards(derive_seed(seed, "redeal", state.redeals), 2)
    assert [list(h) for h in state.dealt] == [list(h) for h in final_hands]
    assert list(state.spare) == list(final_spare)
    assert all(DECK.mask(h) & POINT_CARDS for h in state.dealt)
    # The redeals are events, not state: the hand as finally dealt hashes the same as
    # that deal given explicitly (a hand record), so replays agree with the table.
    assert state.state_hash() == GAME.new_hand(final_hands, final_spare, 2).state_hash()
    assert [e["type"] for e in state.deal_events] == ["redeal"] * state.redeals
    # An explicit deal (a hand record) is played as dealt, point-less hand and all.
    first_hands, first_spare = GAME.deal_cards(seed, 2)
    explicit = GAME.new_hand(first_hands, first_spare, 2)
    assert explicit.redeals == 0 and explicit.phase == "bidding"


def test_edge_02_three_passes_stick_the_dealer_at_100_who_may_still_raise():
    state = deal_with(dealer=3)
    for seat in (0, 1, 2):
        state.apply(Action(seat, "pass"))
    assert (state.phase, state.to_act(), state.bidder, state.contract) == ("raise", (3,), 3, 100)
    assert state.stuck
    state.apply(Action(3, "raise", 120))
    assert state.contract == 120
    assert state.phase == "widow"


def test_edge_03_bid_of_180_ends_the_auction_with_no_raise_step():
    state = deal_with(dealer=3)
    events = state.apply(Action(0, "bid", 180))
    assert state.phase == "widow"
    assert (state.bidder, state.contract) == (0, 180)
    assert set(state.to_act()) == {0, 1, 2, 3}
    assert any(e["type"] == "widow" for e in events)
    with pytest.raises(IllegalAction, match="180 cannot be raised"):
        state.apply(Action(0, "raise", None))


@pytest.mark.parametrize("amount, reason", [
    (103, "steps of 5"),
    (185, "highest bid is 180"),
    (100, "bid stands at 100"),
])
def test_edge_04_bids_of_103_equal_to_standing_or_185_are_rejected(amount, reason):
    state = deal_with(dealer=3)
    state.apply(Action(0, "bid", 100))
    before = state.state_hash()
    with pytest.raises(IllegalAction, match=reason):
        state.apply(Action(1, "bid", amount))
    assert state.state_hash() == before and state.to_act() == (1,)


def test_edge_05_a_player_who_passed_is_skipped_for_the_rest_of_the_auction():
    state = deal_with(dealer=3)
    state.apply(Action(0, "bid", 100))
    state.apply(Action(1, "pass"))
    state.apply(Action(2, "bid", 105))
    state.apply(Action(3, "pass"))
    assert state.to_act() == (0,)
    state.apply(Action(0, "bid", 110))
    assert state.to_act() == (2,)  # seat 1 passed and is skipped
    with pytest.raises(IllegalAction, match="seat 2's turn"):
        state.apply(Action(1, "bid", 115))
    state.apply(Action(2, "pass"))
    assert (state.phase, state.bidder, state.contract) == ("raise", 0, 110)


def test_edge_06_rook_in_the_widow_is_seen_by_all_and_may_be_kept_or_buried():
    state = deal_with(widow=["ROOK"])
    state.apply(Action(0, "bid", 100))
    for seat in (1, 2, 3):
        state.apply(Action(seat, "pass"))
    state.apply(Action(0, "raise", None))
    for seat in range(4):
        assert "ROOK" in state.view(seat)["widow"]
    for seat in range(4):
        state.apply(Action(seat, "ack"))
    rook = DECK.parse("ROOK")
    held = [c for c in range(DECK.size) if state.hands[0] >> c & 1]
    others = [c for c in held if c != rook]
    state.check(Action(0, "bury", tuple(sorted([rook] + others[:4])), "R"))  # bury it
    state.check(Action(0, "bury", tuple(others[:5]), "R"))  # or keep it
    buries = state.legal_actions(0)
    assert len(buries) == 34_272
    assert any(rook in a.value for a in buries) and any(rook not in a.value for a in buries)


def test_edge_07_a_buried_rook_is_out_of_play_and_its_points_go_to_the_last_trick():
    state = to_play(deal_with(), trump="Y")  # the widow, Rook included, is buried
    rook = DECK.parse("ROOK")
    assert state.buried >> rook & 1
    play_out(state, FIRST_LEGAL)
    result = state.result()
    assert all(card != rook for trick in result.tricks for _, card in trick.cards)
    last_side = result.tricks[-1].winner % 2
    in_tricks = sum(POINTS[c] for t in result.tricks if t.winner % 2 == last_side for _, c in t.cards)
    assert result.taken[last_side] == in_tricks + DECK.points(state.buried)
    assert DECK.points(state.buried) >= 20
    assert sum(result.taken) == 180


def test_edge_08_naming_a_trump_colour_the_bidder_holds_none_of_is_allowed():
    state = to_bury(deal_with({0: ALL_GREENS_BUT_G2}, widow=["G2", "ROOK", "B1", "B14", "B10"]))
    assert not any(DECK.suit_of[c] == "Y" for c in range(DECK.size) if state.hands[0] >> c & 1)
    state.apply(Action(0, "bury", tuple(sorted(cards("B1", "B14", "B10", "G2", "G3"))), "Y"))
    assert state.trump == "Y" and state.phase == "play"


def test_edge_09_holding_the_suit_led_and_the_rook_you_must_follow_the_suit_led():
    state = to_play(deal_with({0: ["R5"], 1: ["R7", "ROOK", "G2"]}, widow=["B2"]), trump="G")
    play(state, "R5")
    allowed = legal_names(state, 1)
    assert "R7" in allowed and "ROOK" not in allowed and "G2" not in allowed
    assert allowed == {n for n in names(state.hands[1]) if n.startswith("R") and n != "ROOK"}
    with pytest.raises(IllegalAction, match="you must follow Red"):
        play(state, "ROOK")


def test_edge_10_void_in_the_suit_led_you_must_play_a_trump_rook_included():
    state = to_play(deal_with({0: ["R5"], 1: ["G2", "ROOK", "B9"]}, widow=["B2"], voids={1: "R"}),
                    trump="G")
    play(state, "R5")
    allowed = legal_names(state, 1)
    assert {"G2", "ROOK"} <= allowed
    assert allowed == {n for n in names(state.hands[1]) if n.startswith("G") or n == "ROOK"}
    with pytest.raises(IllegalAction, match="no Red, so you must play a trump"):
        play(state, "B9")


def test_edge_11_void_in_the_suit_led_and_in_trump_any_card_may_be_played():
    state = to_play(deal_with({0: ["R5"]}, voids={1: "RG"}), trump="G")
    play(state, "R5")
    assert legal_names(state, 1) == names(state.hands[1])


def test_edge_12_trump_led_and_your_only_trump_is_the_rook_you_must_play_it():
    state = to_play(deal_with({0: ["G5"], 1: ["ROOK"]}, widow=["B2"], voids={1: "G"}), trump="G")
    play(state, "G5")
    assert legal_names(state, 1) == {"ROOK"}
    with pytest.raises(IllegalAction, match="you must follow trump"):
        play(state, sorted(names(state.hands[1]) - {"ROOK"})[0])


def test_edge_13_the_rook_led_wins_and_the_others_must_play_trump_if_they_hold_it():
    state = to_play(deal_with({0: ["ROOK"], 1: ["G1", "B3"], 2: ["G14"], 3: ["R1"]},
                              widow=["B2"], voids={3: "G"}), trump="G")
    play(state, "ROOK")
    assert legal_names(state, 1) == {n for n in names(state.hands[1]) if n.startswith("G")}
    play(state, "G1", "G14")
    assert legal_names(state, 3) == names(state.hands[3])  # no trump: anything
    play(state, "R1")
    assert state.tricks[-1].winner == 0


def test_edge_14_trick_r1_g2_r14_b1_with_green_trump_goes_to_g2():
    state = to_play(deal_with({0: ["R1"], 1: ["G2"], 2: ["R14"], 3: ["B1"]},
                              widow=["B2"], voids={1: "R", 3: "RG"}), trump="G")
    play(state, "R1", "G2", "R14", "B1")
    assert state.tricks[-1].winner == 1


def test_edge_15_with_no_trump_in_the_trick_the_highest_of_the_colour_led_wins():
    state = to_play(deal_with({0: ["R14"], 1: ["R1"], 2: ["B1"], 3: ["R2"]},
                              widow=["B2"], voids={2: "RG"}), trump="G")
    play(state, "R14", "R1", "B1", "R2")
    assert state.tricks[-1].winner == 1  # R1 beats R14; B1 cannot win a Red trick


def test_edge_16_contract_made_only_through_the_buried_points_of_the_last_trick():
    state = to_play(deal_with({0: ALL_GREENS_BUT_G2}, widow=["G2", "ROOK", "B1", "B14", "B10"]),
                    trump="G", amount=180, bury=["B1", "B14", "B10", "G2", "G3"])
    play_out(state, FIRST_LEGAL)
    result = state.result()
    in_tricks = sum(POINTS[c] for t in result.tricks if t.winner % 2 == 0 for _, c in t.cards)
    assert in_tricks == 145 < 180
    assert result.tricks[-1].winner % 2 == 0
    assert result.taken == (180, 0)
    assert result.made is True and result.score == (180, 0)


def one_trick_to_the_opponents(amount: int):
    """Seat 0 holds every trump but loses one trick, worth 5, to seat 1: 175 to 5."""
    state = to_play(deal_with({0: ALL_GREENS_BUT_G2, 1: ["B5"], 2: ["B3"], 3: ["B4"]},
                              widow=["G2", "ROOK", "B2", "Y2", "Y3"]),
                    trump="G", amount=amount, bury=["G2", "G3", "G4", "Y2", "Y3"])
    play(state, "B2", "B5", "B3", "B4")
    assert state.tricks[0].winner == 1
    play_out(state, FIRST_LEGAL)
    return state


def test_edge_17_taking_175_on_a_180_contract_loses_180_and_the_others_score_5():
    result = one_trick_to_the_opponents(180).result()
    assert result.taken == (175, 5)
    assert result.made is False and result.score == (-180, 5)


def finish_with_scores(state, scores_before: list[int]) -> Match:
    match = Match(GAME, bytes(32), dealer=state.dealer)
    match.state, match.scores = state, list(scores_before)
    match.finish_hand()
    return match


def test_edge_18_both_teams_pass_500_in_one_hand_higher_score_wins_exact_tie_plays_on():
    # The hand scores +100 to the bidders (seats 0 and 2) and +5 to the others.
    assert one_trick_to_the_opponents(100).result().score == (100, 5)
    higher = finish_with_scores(one_trick_to_the_opponents(100), [405, 498])
    assert higher.scores == [505, 503] and higher.winner == 0
    tied = finish_with_scores(one_trick_to_the_opponents(100), [400, 495])
    assert tied.scores == [500, 500] and tied.winner is None and not tied.is_over
    assert tied.start_hand().phase == "bidding"  # another hand


def test_edge_19_the_non_bidding_team_passing_500_wins():
    match = finish_with_scores(one_trick_to_the_opponents(180), [300, 495])
    assert match.scores == [120, 500] and match.winner == 1


def assert_waits_for(state, seat: int, prompt: str, others) -> None:
    """Whatever the other seats try, ``seat`` is still asked, with its hand and prompt."""
    legal = state.legal_actions(seat)
    before = state.state_hash()
    for action in others:
        with pytest.raises(IllegalAction):
            state.apply(action)
    assert seat in state.to_act()
    assert state.legal_actions(seat) == legal
    assert state.state_hash() == before
    view = state.view(seat)
    assert view["prompt"] == prompt and seat in view["to_act"]
    assert set(view["hand"]) == names(state.hands[seat]) and view["hand"]


def test_edge_20_a_dropped_player_is_waited_for_and_gets_hand_and_prompt_back():
    state = deal_with(dealer=3)
    # bidding: seat 0 has dropped; nobody else can act for it or jump the queue
    assert_waits_for(state, 0, "bid or pass",
                     [Action(1, "bid", 100), Action(2, "pass"), Action(3, "ack")])
    state.apply(Action(0, "bid", 100))  # back (or the host's stand-in) and bidding
    for seat in (1, 2, 3):
        state.apply(Action(seat, "pass"))
    state.apply(Action(0, "raise", None))
    # "Got it": everyone but seat 2 acknowledges; the widow waits for seat 2
    for seat in (0, 1, 3):
        state.apply(Action(seat, "ack"))
    assert state.to_act() == (2,)
    assert_waits_for(state, 2, "look at the widow and say Got it",
                     [Action(0, "ack"), Action(1, "ack"), Action(0, "bury", (0, 1, 2, 3, 4), "G")])
    state.apply(Action(2, "ack"))  # the host continues for the dropped player
    # bury: the bidder has dropped
    assert_waits_for(state, 0, "bury 5 cards and name trump", [Action(1, "ack"), Action(2, "pass")])
    assert len(state.view(0)["hand"]) == 18
    state.apply(RandomBot(7).choose(state, 0))  # a stand-in bot acts for the seat
    # play: the player to follow has dropped
    state.apply(state.legal_actions()[0])
    waiting = state.to_act()[0]
    assert_waits_for(state, waiting, "play a card",
                     [a for s in range(4) if s != waiting for a in [Action(s, "play", 0)]])
