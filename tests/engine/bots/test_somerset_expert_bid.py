"""Somerset's expert bidding, in a constructed auction: it bids the next level when taking
the contract plays out better than passing and passes when it plays out worse; it weighs
``BID_SAMPLES`` likely deals; and its bid is a pure function of the view and the seed."""

from __future__ import annotations

from engine import make_game
from engine.bots import make_bot, somerset_expert

HANDS = {  # dealer 1: seat 2 speaks first
    2: "8/8 6/8 5/8 4/8 3/8 0/12 0/10 1/10 2/10 0/6 1/6 2/6",
    3: "1/12 2/12 2/8 0/0 3/4 4/4 10/10 9/10 8/10 7/10 6/6 2/2",
    0: "12/12 7/8 1/8 3/6 4/6 5/6 2/4 1/4 1/2 3/10 4/10 5/10",
    1: "3/12 4/12 5/12 6/12 7/12 8/12 9/12 10/12 11/12 0/8 S/S 6/10",
}


def auction(*said: dict):
    """The constructed deal after ``said``; the game and the state."""
    game = make_game("somerset")
    deck = game.deck
    dealt = [[deck.parse(name) for name in HANDS[seat].split()] for seat in range(4)]
    state = game.new_hand(dealt, [deck.parse("0/2"), deck.parse("0/4")], 1)
    for data in said:
        state.apply(game.action_from_json(data))
    assert state.phase == "bidding"
    return game, state


def taking_always_scores_more(monkeypatch):
    """Score every contract this seat takes far above any hand's margin (at most 48
    points): the comparison then always says bid."""
    monkeypatch.setattr(somerset_expert, "_margin", lambda game, side, bid, taken: 100.0)


def taking_always_scores_less(monkeypatch):
    monkeypatch.setattr(somerset_expert, "_margin", lambda game, side, bid, taken: -100.0)


def test_over_an_opponents_bid_it_bids_when_taking_it_scores_more(monkeypatch):
    taking_always_scores_more(monkeypatch)
    game, state = auction({"seat": 2, "bid": 12})
    assert state.turn == 3 and state.bidder == 2  # an opponent holds the bid
    decision = make_bot("expert", 5).decide(game, state.view(3))
    assert game.action_to_json(decision.action) == {"seat": 3, "bid": 13}


def test_with_no_bid_standing_it_bids_when_taking_it_scores_more(monkeypatch):
    taking_always_scores_more(monkeypatch)
    game, state = auction()
    decision = make_bot("expert", 5).decide(game, state.view(2))
    assert game.action_to_json(decision.action) == {"seat": 2, "bid": 12}


def test_it_passes_when_taking_the_contract_scores_less(monkeypatch):
    taking_always_scores_less(monkeypatch)
    game, state = auction({"seat": 2, "bid": 12})
    decision = make_bot("expert", 5).decide(game, state.view(3))
    assert decision.action.kind == "pass"


def test_it_weighs_bid_samples_likely_deals(monkeypatch):
    asked = []
    worlds = somerset_expert.Posterior.worlds

    def counting(self, count):
        asked.append(count)
        return worlds(self, count)

    monkeypatch.setattr(somerset_expert.Posterior, "worlds", counting)
    monkeypatch.setattr(somerset_expert, "BID_SAMPLES", 5)
    game, state = auction()
    make_bot("expert", 5).decide(game, state.view(2))
    assert asked == [5]


def test_the_bid_is_a_pure_function_of_the_view_and_the_seed():
    game, state = auction({"seat": 2, "bid": 12})
    view = state.view(3)
    first = make_bot("expert", 11).decide(game, view)
    again = make_bot("expert", 11).decide(game, state.view(3))
    assert first == again
    assert [make_bot("expert", 11).choose(game, view) for _ in range(2)] == [first.action] * 2
