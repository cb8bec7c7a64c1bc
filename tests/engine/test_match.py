"""Whole games (``Match``) played by random bots, for every variant.

Uniformly random bidders overbid so wildly that Rook and the Somerset "keep" rulesets
drift ever further below zero and never finish; the bots here play at random but bid
cautiously (mostly pass, else the lowest bid, never raise), as people do.

A game must end with a winner, the deal must pass left after every hand (a thrown-in
hand included), the running scores must be the sum of the hands' score changes, and
the same table seed must give the same game.
"""

from __future__ import annotations

import pytest

from engine import Match, make_game
from engine.bots.random_bot import RandomBot
from engine.deal import derive_seed

MAX_HANDS = 400  # random bots end every title's game far sooner; a bug must not hang
MAX_ACTIONS_PER_HAND = 500
TABLE_SEEDS = [derive_seed(bytes(32), "match-test", n) for n in range(2)]


class CautiousBot(RandomBot):
    """Random play; in an auction mostly pass, otherwise make the lowest bid."""

    def choose(self, state, seat):
        legal = state.legal_actions(seat)
        kinds = {a.kind for a in legal}
        if "pass" in kinds and self.rng.random() < 0.7:
            return next(a for a in legal if a.kind == "pass")
        if "raise" in kinds:
            return next(a for a in legal if a.kind == "raise" and a.value is None)
        bids = [a for a in legal if a.kind == "bid"]
        if bids:
            lowest = min(a.value for a in bids)
            return self.rng.choice([a for a in bids if a.value == lowest])
        return super().choose(state, seat)


def play_match(variant, table_seed: bytes):
    title, ruleset, mode = variant
    match = Match(make_game(title, ruleset, mode), table_seed)
    bots = [CautiousBot(derive_seed(table_seed, "bot", seat))
            for seat in range(match.game.num_players)]
    dealers, totals = [], list(match.scores)
    for _ in range(MAX_HANDS):
        if match.is_over:
            return match, dealers, totals
        state = match.start_hand()
        dealers.append(state.dealer)
        for _ in range(MAX_ACTIONS_PER_HAND):
            if state.is_over:
                break
            seat = state.to_act()[0]
            state.apply(bots[seat].choose(state, seat))
        result = match.finish_hand()
        totals = [t + d for t, d in zip(totals, result.score)]
    raise AssertionError(f"no winner after {MAX_HANDS} hands: scores {match.scores}")


@pytest.mark.parametrize("table_seed", TABLE_SEEDS, ids=["seed0", "seed1"])
def test_a_game_ends_with_a_winner_and_the_deal_passes_left(any_variant, table_seed):
    match, dealers, totals = play_match(any_variant, table_seed)
    game = match.game
    assert match.winner in range(game.num_sides)
    assert match.scores == totals
    assert len(match.results) == match.hand_number == len(dealers)
    first = game.first_dealer(table_seed)
    assert dealers == [(first + i) % game.num_players for i in range(len(dealers))]
    assert match.dealer == (first + len(dealers)) % game.num_players
    # The game ended on the last hand, not before: no earlier hand already had a winner.
    running = game.initial_scores()
    for result in match.results[:-1]:
        running = [s + d for s, d in zip(running, result.score)]
        assert game.match_winner(running, result) is None
    with pytest.raises(RuntimeError):
        match.start_hand()


def test_the_same_table_seed_plays_the_same_game(any_variant):
    first, _, _ = play_match(any_variant, TABLE_SEEDS[0])
    second, _, _ = play_match(any_variant, TABLE_SEEDS[0])
    assert [r.score for r in first.results] == [r.score for r in second.results]
    assert first.winner == second.winner


def test_each_hand_is_dealt_from_its_own_derived_seed(any_variant):
    title, ruleset, mode = any_variant
    match = Match(make_game(title, ruleset, mode), TABLE_SEEDS[1], dealer=0)
    state = match.start_hand()
    assert match.hand_seed() == derive_seed(TABLE_SEEDS[1], "hand", 0)
    again = match.game.deal(derive_seed(TABLE_SEEDS[1], "hand", 0), 0)
    assert (state.dealt, state.spare) == (again.dealt, again.spare)
    with pytest.raises(RuntimeError):
        match.finish_hand()  # the hand has not been played
