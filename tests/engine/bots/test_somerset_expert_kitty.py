"""Somerset's expert discards by play-outs, in a constructed position: the pairs it
weighs (every pair of the cards least worth keeping with the most promising trump, then
the normal pair for each other promising trump), and that it keeps the pair whose
play-outs score best even when that is not the normal level's pair."""

from __future__ import annotations

from itertools import combinations

from engine.bots import make_bot, somerset_expert
from engine.bots.somerset_expert import discard_for, discard_options, ranked_trumps

from .helpers import somerset_position

# Seat 2 bids 12 and takes the kitty (0/2 0/4): 14 cards to discard two from
AUCTION = [{"seat": 2, "bid": 12}, {"seat": 3, "pass": True}, {"seat": 0, "pass": True},
           {"seat": 1, "pass": True}]


def kitty_position():
    game, state = somerset_position(AUCTION)
    assert state.phase == "kitty" and state.to_act() == (2,)
    return game, state


def test_the_pairs_weighed_are_the_low_pairs_then_one_per_other_trump():
    _, state = kitty_position()
    hand = state.hands[2]
    options = discard_options(hand)
    first, *others = ranked_trumps(hand)
    with_first = [pair for pair, trump in options if trump == first]
    pool = {card for pair in with_first for card in pair}
    assert len(pool) == somerset_expert.DISCARD_POOL
    assert sorted(with_first) == sorted(combinations(sorted(pool), 2))  # every pair, once
    assert options[0] == (discard_for(hand, first), first)  # the normal pair first: it wins a tie
    assert options[len(with_first):] == [(discard_for(hand, t), t) for t in others]
    assert all(hand >> a & 1 and hand >> b & 1 and a < b for (a, b), _ in options)


def test_the_pair_kept_is_the_one_whose_play_outs_score_best(monkeypatch):
    """Play-outs are scored here by a stand-in that rewards one pair the normal level
    would not discard: the expert discards that pair."""
    game, state = kitty_position()
    hand = state.hands[2]
    normal = discard_for(hand, ranked_trumps(hand)[0])
    favoured = next(pair for pair, _ in discard_options(hand) if pair != normal)

    def rewards_the_favoured_pair(finished, seat):
        return 10.0 if finished.discards == favoured else 0.0

    monkeypatch.setattr(somerset_expert, "partnership_margin", rewards_the_favoured_pair)
    action = make_bot("expert", 3).choose(game, state.view(2))
    assert tuple(sorted(action.value)) == favoured != normal
