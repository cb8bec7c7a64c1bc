"""Somerset's expert bidding, in a constructed auction: it bids the next level when taking
the contract plays out better than passing and passes when it plays out worse; it weighs
``BID_SAMPLES`` likely deals; each play-out's declarers are credited ``DECLARER_EDGE``
points; and its bid is a pure function of the view and the seed."""

from __future__ import annotations

from engine import make_game
from engine.bots import make_bot, somerset_expert

from .helpers import somerset_position


def auction(*said: dict):
    """The constructed deal after ``said``, still in its auction; the game and the state."""
    game, state = somerset_position(said)
    assert state.phase == "bidding"
    return game, state


def taking_always_scores_more(monkeypatch):
    """Score every play-out this seat declares far above any hand's margin (at most 48
    points), and every other 0: the comparison then always says bid."""
    monkeypatch.setattr(somerset_expert, "credited_margin",
                        lambda game, seat, hand: 100.0 if hand.bidder == seat else 0.0)


def taking_always_scores_less(monkeypatch):
    monkeypatch.setattr(somerset_expert, "credited_margin",
                        lambda game, seat, hand: -100.0 if hand.bidder == seat else 0.0)


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


class Finished:
    """What ``credited_margin`` reads of a finished hand."""

    def __init__(self, bidder, high_bid, taken):
        self.bidder, self.high_bid, self.taken = bidder, high_bid, taken


def test_a_declarer_a_point_short_in_the_play_out_is_credited_the_contract(monkeypatch):
    game = make_game("somerset")  # kitty-doubled: made scores every point taken, set costs double
    monkeypatch.setattr(somerset_expert, "DECLARER_EDGE", 1)
    short = Finished(bidder=1, high_bid=16, taken=(9, 15))
    assert somerset_expert.credited_margin(game, 1, short) == 16  # made: 16 to 0
    assert somerset_expert.credited_margin(game, 0, short) == -16
    monkeypatch.setattr(somerset_expert, "DECLARER_EDGE", 0)
    assert somerset_expert.credited_margin(game, 1, short) == -2 - 18  # set by 1: -2, defenders 2 x 9


def test_the_credit_comes_from_the_defenders_points_and_stops_at_them(monkeypatch):
    game = make_game("somerset", "kitty-keep")  # both sides keep what they took when made
    monkeypatch.setattr(somerset_expert, "DECLARER_EDGE", 1)
    assert somerset_expert.credited_margin(game, 2, Finished(0, 14, (20, 4))) == 21 - 3
    assert somerset_expert.credited_margin(game, 2, Finished(0, 14, (24, 0))) == 24


def test_a_hand_thrown_in_is_worth_nothing_to_either_side():
    game = make_game("somerset")
    assert somerset_expert.credited_margin(game, 0, Finished(None, None, (0, 0))) == 0.0
