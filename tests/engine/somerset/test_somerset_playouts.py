"""Whole hands and whole games with the random bot, under every ruleset: 24 points in
every played hand, every card accounted for, only legal actions, and matches to 66."""

from __future__ import annotations

import pytest

from engine.bots.random_bot import RandomBot
from engine.deal import derive_seed
from engine.match import Match
from engine.somerset import RULESETS, make
from engine.somerset.rules import DECK
from tests.engine.playouts import play_out

SEEDS = range(6)




@pytest.mark.parametrize("ruleset_id", list(RULESETS))
@pytest.mark.parametrize("seed", SEEDS)
def test_random_hands_total_24_and_conserve_every_card(ruleset_id, seed):
    game = make(ruleset_id)
    bots = [RandomBot(seed * 4 + seat) for seat in range(4)]
    state = game.deal(derive_seed(bytes(32), "test", seed), dealer=seed % 4)
    play_out(state, bots)
    result = state.result()
    if result.thrown_in:
        assert result.score == (0, 0) and result.made is None
        return
    assert sum(result.taken) == 24
    played = [card for trick in result.tricks for _, card in trick.cards]
    out_of_play = state.discards if game.kitty else state.spare
    assert sorted(played + list(out_of_play)) == list(range(DECK.size))
    assert len(result.tricks) == 12 and not any(state.hands)
    assert result.tricks[0].leader == state.bidder  # the high bidder leads first
    for previous, trick in zip(result.tricks, result.tricks[1:]):
        assert trick.leader == previous.winner


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_replaying_the_same_actions_gives_the_same_states(ruleset_id):
    game = make(ruleset_id)
    seed = derive_seed(bytes(32), "replay")
    first = game.deal(seed, dealer=2)
    bots = [RandomBot(seat) for seat in range(4)]
    hashes = []
    while not first.is_over:
        seat = first.to_act()[0]
        first.apply(bots[seat].choose(first, seat))
        hashes.append(first.state_hash())
    second = game.deal(seed, dealer=2)
    for action, expected in zip(first.history, hashes):
        second.apply(action)
        assert second.state_hash() == expected


class ModestBot(RandomBot):
    """Opens at the minimum bid and otherwise passes, then plays at random. (Random bids
    average 18, mostly set; under keep scoring both sides then drift below zero and a
    random match need never reach 66.)"""

    def choose(self, state, seat):
        if state.phase == "bidding":
            actions = state.legal_actions(seat)
            return actions[1] if state.high_bid is None else actions[0]
        return super().choose(state, seat)


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_a_match_is_played_to_66(ruleset_id):
    game = make(ruleset_id)
    match = Match(game, derive_seed(bytes(32), "match", len(ruleset_id)))
    bots = [ModestBot(seat) for seat in range(4)]
    first_dealer = match.dealer
    while not match.is_over:
        assert match.hand_number < 200, "a random match should end well before 200 hands"
        play_out(match.start_hand(), bots)
        match.finish_hand()
    assert match.dealer == (first_dealer + match.hand_number) % 4
    assert match.scores == [sum(r.score[side] for r in match.results) for side in (0, 1)]
    assert match.scores[match.winner] >= 66
