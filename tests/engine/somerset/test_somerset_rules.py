"""Somerset beyond the numbered edge cases: the deck, the rulesets' data, the auction's
and the kitty's checks, the rulings on doubles and trump, readable reasons for illegal
actions, and what each seat may see."""

from __future__ import annotations

import random

import pytest
from somerset_helpers import bid_and_pass, cards, explicit_deal, legal_names, names, play, to_play

from engine import canonical
from engine.actions import Action
from engine.errors import IllegalAction
from engine.registry import make_game
from engine.state import HandResult, Trick
from engine.somerset import RULESETS, make
from engine.somerset.rules import DECK, ROVER_BIT

KITTY, WIDOW = "kitty-doubled", "widow-doubled"


def reason(state, action: Action) -> str:
    before = state.public_view()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert state.public_view() == before  # an illegal action changes nothing
    return err.value.reason


def auction(ruleset: str = KITTY, dealer: int = 3):
    hands, spare = explicit_deal({})
    return make(ruleset).new_hand(hands, spare, dealer)


# -- the deck -----------------------------------------------------------------------------
def test_deck_has_fifty_cards_and_twelve_count_points():
    assert DECK.size == 50
    assert sum(DECK.points_of) == 12
    counted = {DECK.name(c): DECK.points_of[c] for c in range(50) if DECK.points_of[c]}
    assert counted == {"1/2": 1, "2/4": 1, "3/6": 1, "4/8": 2, "5/10": 2, "6/12": 2, "S/S": 3}


def test_deck_suits_ranks_and_notation():
    assert DECK.suit_of[DECK.parse("S/S")] == "S"
    assert DECK.suit_of[DECK.parse("3/8")] == 8 and DECK.rank_of[DECK.parse("3/8")] == 3
    assert DECK.parse("s/s") == DECK.parse("S/S")
    sizes = {suit: bin(mask).count("1") for suit, mask in DECK.suit_mask.items()}
    assert sizes == {0: 1, 2: 3, 4: 5, 6: 7, 8: 9, 10: 11, 12: 13, "S": 1}


# -- rulesets and the registry -------------------------------------------------------------
def test_rulesets_default_first_and_make_none_gives_kitty_doubled():
    assert list(RULESETS) == ["kitty-doubled", "kitty-keep", "widow-doubled", "widow-keep"]
    assert RULESETS["kitty-doubled"].default
    assert make(None).ruleset.id == "kitty-doubled"
    assert make_game("somerset", "widow-keep").ruleset.id == "widow-keep"


def test_unknown_ruleset_or_a_mode_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="kitty-keep"):
        make("kitty-triple")
    with pytest.raises(ValueError, match="no modes"):
        make(None, "partners")


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_rule_names_its_source_and_rulings_are_marked(ruleset_id):
    rs = RULESETS[ruleset_id]
    spare, scoring = ruleset_id.split("-")
    assert (rs.extra["spare"], rs.extra["scoring"]) == (spare, scoring)
    assert rs.game == "somerset" and rs.summary and rs.options == ()
    assert all(rule.source and rule.text for rule in rs.rules)
    rulings = {rule.topic for rule in rs.rules if rule.ruling}
    assert {"Minimum bid", "The S/S led under No Trump", "The trump suit's own double",
            "The 0/0 as trump", "Both sides out"} <= rulings
    assert ("Points in the discards" in rulings) == (spare == "kitty")


def test_unchecked_sources_are_flagged():
    kitty_rules = {r.topic: r for r in RULESETS["kitty-keep"].rules}
    assert not kitty_rules["Kitty"].checked
    assert not kitty_rules["Scoring: keep"].checked
    assert all(r.checked for r in RULESETS["widow-doubled"].rules)


# -- the auction ---------------------------------------------------------------------------
def test_bidding_opens_at_the_dealers_left_with_pass_and_bids_12_to_24():
    state = auction(dealer=1)
    assert state.to_act() == (2,)
    actions = state.legal_actions()
    assert actions[0] == Action(2, "pass")
    assert [a.value for a in actions[1:]] == list(range(12, 25))


def test_bid_reasons_are_readable():
    state = auction()
    assert reason(state, Action(0, "bid", 11)) == "bid at least 12"
    assert reason(state, Action(0, "bid", 25)) == "bids go no higher than 24"
    assert reason(state, Action(1, "bid", 14)) == "it is seat 0's turn, not yours"
    state.apply(Action(0, "bid", 15))
    assert reason(state, Action(1, "bid", 15)) == "bids must be higher than 15"
    assert "trump is named after the auction" in reason(state, Action(1, "bid", 16, "8"))
    assert reason(state, Action(1, "play", 3)) == "now is the time to bid or pass, not to play"


def test_three_passes_after_a_bid_end_the_auction_with_the_bidder_to_act():
    state = auction(WIDOW)
    state.apply(Action(0, "pass"))
    state.apply(Action(1, "bid", 13))
    for seat in (2, 3, 0):
        assert state.phase == "bidding"
        state.apply(Action(seat, "pass"))
    assert state.phase == "trump" and state.to_act() == (1,)
    assert state.public_view()["contract"] == {"bidder": 1, "bid": 13}


# -- the kitty and trump --------------------------------------------------------------------
def test_kitty_goes_into_the_bidders_hand_and_two_cards_come_out():
    hands, spare = explicit_deal({}, spare=["6/12", "S/S"])
    state = make(KITTY).new_hand(hands, spare, dealer=3)
    bid_and_pass(state, 0, 12)
    assert state.phase == "kitty" and state.hands[0].bit_count() == 14
    assert len(state.legal_actions()) == 91  # every pair of 14 cards
    state.apply(Action(0, "discard", tuple(sorted(cards("0/2", "S/S")))))
    assert state.hands[0].bit_count() == 12 and "S/S" not in names(state.hands[0])
    assert state.phase == "trump"
    assert [a.value for a in state.legal_actions()] == ["0", "2", "4", "6", "8", "10", "12", "NT"]


def test_discard_reasons_are_readable():
    hands, spare = explicit_deal({1: ["12/12"]})
    state = make(KITTY).new_hand(hands, spare, dealer=3)
    bid_and_pass(state, 0, 12)
    top = state.hands[0].bit_length() - 1  # a card the bidder holds
    assert reason(state, Action(0, "discard", tuple(cards("12/12", "0/2")))) == "you do not hold 12/12"
    assert reason(state, Action(0, "discard", (top,))) == "discard exactly two cards"
    assert reason(state, Action(0, "discard", (top, top))) == "discard two different cards"
    assert reason(state, Action(0, "trump", "8")) == "now is the time to discard two cards, not to trump"


def test_trump_must_be_a_suit_or_nt():
    state = auction(WIDOW)
    bid_and_pass(state, 0, 12)
    assert reason(state, Action(0, "trump", "7")) == "name trump: one of 0, 2, 4, 6, 8, 10, 12 or NT"
    state.apply(Action(0, "trump", "NT"))
    assert state.phase == "play" and state.to_act() == (0,)  # the bidder leads


# -- following suit and the rulings -----------------------------------------------------------
def test_not_following_suit_names_the_suit():
    state = to_play(KITTY, {0: ["3/8"], 1: ["1/8", "2/4"]}, trump="NT")
    play(state, "3/8")
    assert reason(state, Action(1, "play", DECK.parse("2/4"))) == "you must follow /8"
    assert reason(state, Action(1, "play", DECK.parse("12/12"))) == "you do not hold 12/12"


def test_trump_lead_reason_says_trump():
    state = to_play(KITTY, {0: ["3/8"], 1: ["1/8", "2/4"]}, trump="8")
    play(state, "3/8")
    assert reason(state, Action(1, "play", DECK.parse("2/4"))) == "you must follow trump (/8)"


def test_ss_under_a_suit_trump_may_not_be_played_while_holding_the_suit_led():
    state = to_play(KITTY, {0: ["3/4"], 1: ["1/4", "S/S"]}, trump="8")
    play(state, "3/4")
    assert "S/S" not in legal_names(state)
    assert reason(state, Action(1, "play", DECK.parse("S/S"))) == "you must follow /4"


def test_ss_is_the_lowest_trump_and_beats_the_rovers_promotion():
    state = to_play(KITTY, {0: ["3/4"], 1: ["0/0"], 2: ["S/S"], 3: ["12/12"]}, trump="8",
                    voids={2: (4,), 3: (4,)})
    play(state, "3/4", "0/0", "S/S", "12/12")
    assert state.tricks[-1].winner == 2

    lowest = to_play(KITTY, {0: ["3/4"], 1: ["S/S"], 2: ["0/8"]}, trump="8",
                     voids={1: (4,), 2: (4,)})
    play(lowest, "3/4", "S/S", "0/8")
    play(lowest, sorted(legal_names(lowest))[0])
    assert lowest.tricks[-1].winner == 2


def test_rover_may_be_played_while_holding_the_suit_led_even_on_a_trump_lead():
    state = to_play(KITTY, {0: ["3/8"], 1: ["1/8", "0/0"]}, trump="8")
    play(state, "3/8")
    assert legal_names(state) == names(state.hands[1] & (DECK.suit_mask[8] | ROVER_BIT))


def test_trump_suits_own_double_is_not_a_promotable_double():
    state = to_play(KITTY, {0: ["3/4"], 1: ["0/0"], 2: ["1/4", "8/8", "6/6"]}, trump="8")
    play(state, "3/4", "0/0")
    assert "6/6" in legal_names(state) and "8/8" not in legal_names(state)
    assert reason(state, Action(2, "play", DECK.parse("8/8"))) == (
        "you must follow /4: 8/8 is a trump, not a double the 0/0 can promote")


def test_rover_as_trump_has_no_any_time_privilege_and_doubles_no_power():
    state = to_play(KITTY, {0: ["3/4"], 1: ["1/4", "0/0", "6/6"]}, trump="0")
    play(state, "3/4")
    assert legal_names(state) == names(state.hands[1] & DECK.suit_mask[4])
    assert reason(state, Action(1, "play", DECK.parse("0/0"))) == "you must follow /4"


def test_with_a_trump_on_the_trick_the_double_reason_says_so():
    state = to_play(KITTY, {0: ["1/4"], 1: ["2/12"], 2: ["0/0"], 3: ["3/4", "6/6"]},
                    trump="12", voids={1: (4,)})
    play(state, "1/4", "2/12", "0/0")
    assert reason(state, Action(3, "play", DECK.parse("6/6"))) == (
        "you must follow /4: with a trump on the trick the 0/0 promotes no double")


def test_ss_led_under_nt_then_the_rover_leaves_the_last_two_free_and_the_rover_wins():
    state = to_play(KITTY, {0: ["S/S"], 1: ["0/0"], 2: ["3/4"], 3: ["5/6"]}, trump="NT")
    play(state, "S/S", "0/0")
    assert legal_names(state) == names(state.hands[2])
    play(state, "3/4")
    assert legal_names(state) == names(state.hands[3])
    play(state, "5/6")
    assert state.tricks[-1].winner == 1
    assert state.taken == [0, 1 + 3]


def test_nt_highest_of_the_suit_led_wins_an_off_suit_higher_card_does_not():
    state = to_play(KITTY, {0: ["2/6"], 1: ["12/12"], 2: ["1/6"], 3: ["11/12"]}, trump="NT",
                    voids={1: (6,), 3: (6,)})
    play(state, "2/6", "12/12", "1/6", "11/12")
    assert state.tricks[-1].winner == 0


# -- what each seat may see ---------------------------------------------------------------
def strings_in(value) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) else set()


def test_kitty_is_hidden_until_taken_and_discards_stay_the_bidders_secret():
    hands, spare = explicit_deal({}, spare=["6/12", "S/S"])
    state = make(KITTY).new_hand(hands, spare, dealer=3)
    for seat in range(4):
        assert state.hidden_from(seat) & DECK.mask(spare) == DECK.mask(spare)
        assert not strings_in(state.view(seat)) & {"6/12", "S/S"}
    bid_and_pass(state, 0, 12)
    discard = tuple(sorted(cards("S/S", "0/2")))
    state.apply(Action(0, "discard", discard))
    assert state.view(0)["discards"] == ["0/2", "S/S"]
    assert state.view(0)["kitty_cards"] == ["6/12", "S/S"]
    assert state.public_view()["actions"][-1] == {"seat": 0, "discard": None}
    for seat in (1, 2, 3):
        assert state.hidden_from(seat) & DECK.mask(discard) == DECK.mask(discard)
        assert not strings_in(state.view(seat)) & {"0/2", "S/S"}
    assert not state.hidden_from(0) & DECK.mask(discard)


def test_widow_is_public_from_the_start():
    hands, spare = explicit_deal({}, spare=["4/8", "1/2"])
    state = make(WIDOW).new_hand(hands, spare, dealer=3)
    for seat in range(4):
        assert state.view(seat)["widow"] == ["4/8", "1/2"]
        assert not state.hidden_from(seat) & DECK.mask(spare)


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_views_never_show_hidden_cards_and_hold_only_plain_values(ruleset_id):
    game = make(ruleset_id)
    rng = random.Random(ruleset_id)
    state = game.deal(bytes(range(32)), dealer=1)
    while not state.is_over:
        for seat in range(4):
            view = state.view(seat)
            canonical.encode(view)  # plain values only, or this raises
            hidden = {DECK.name(c) for c in range(50) if state.hidden_from(seat) >> c & 1}
            assert not strings_in(view) & hidden
            assert set(view["hand"]).isdisjoint(hidden)
        seat = state.to_act()[0]
        state.apply(state.sample_action(seat, rng) or rng.choice(state.legal_actions(seat)))


def test_sample_action_only_in_the_kitty_phase_and_always_legal():
    state = auction()
    rng = random.Random(5)
    assert state.sample_action(0, rng) is None
    bid_and_pass(state, 0, 12)
    assert state.sample_action(1, rng) is None  # not the bidder
    legal = set(state.legal_actions(0))
    for _ in range(20):
        assert state.sample_action(0, rng) in legal


def test_clone_is_independent():
    state = to_play(KITTY, {0: ["3/8"]}, trump="8")
    copy = state.clone()
    play(copy, "3/8")
    assert state.trick == [] and state.hands[0] >> DECK.parse("3/8") & 1
    assert state.state_hash() != copy.state_hash()


def test_ss_led_under_a_suit_trump_is_a_trump_lead():
    state = to_play(KITTY, {0: ["S/S"], 1: ["1/8", "2/4"]}, trump="8")
    play(state, "S/S")
    assert legal_names(state) == names(state.hands[1] & DECK.suit_mask[8])
    play(state, "1/8")
    while state.trick:
        state.apply(state.legal_actions()[0])
    assert state.tricks[-1].winner != 0  # the lowest trump loses to any other


# -- the end of the game ------------------------------------------------------------------
def finished(bidder: int, made: bool | None) -> HandResult:
    """A result whose bidder led the first trick, as the rules have it."""
    tricks = (Trick(bidder, (), bidder),) if made is not None else ()
    return HandResult(tricks, (12, 12), made, (0, 0), made is None)


@pytest.mark.parametrize("scores, result, winner", [
    ([65, 40], finished(0, True), None),          # nobody out
    ([66, 70], finished(0, False), 1),            # only one side out, whoever bid
    ([67, 71], finished(0, True), 0),             # both out, bidders made: they win
    ([71, 67], finished(1, True), 1),
    ([67, 71], finished(0, False), 1),            # both out, bidders set: higher score
    ([70, 70], finished(1, False), None),         # exact tie: another hand
    ([70, 70], finished(0, None), None),          # a thrown-in hand after a tie
])
def test_match_winner(scores, result, winner):
    assert make(KITTY).match_winner(scores, result) == winner
