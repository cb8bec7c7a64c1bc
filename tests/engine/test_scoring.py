"""engine.scoring: the hand's scoring explained by the terms that made the score.

The terms must add up to the score ``finish`` gave (they are what it adds up), read in
the ruleset's words with the working that gives each number, and the cards hidden
during the hand and counted in it must be the ones the rules counted.
"""

from __future__ import annotations

import random

import pytest

from engine import make_game
from engine.bench import play_random_hand
from engine.deal import derive_seed
from engine.scoring import breakdown

SEED = bytes(range(32))


def random_hands(variant, count: int, label: str = "scoring"):
    title, ruleset, mode = variant
    game = make_game(title, ruleset, mode)
    rng = random.Random(label)
    for i in range(count):
        yield game, play_random_hand(game, derive_seed(SEED, label, i), i % game.num_players, rng)


def test_the_terms_add_up_to_the_score_and_the_contract_to_what_was_taken(any_variant):
    for game, state in random_hands(any_variant, 25):
        result = state.result()
        if result.thrown_in:
            with pytest.raises(ValueError):
                breakdown(state)
            continue
        explained = breakdown(state)
        score = [0] * game.num_sides
        for term in explained["terms"]:
            score[term["side"]] += term["points"]
            assert term["words"]
        assert tuple(score) == result.score
        contract = explained["contract"]
        if not game.info.contract:
            assert contract is None
        else:
            assert contract["took"] == result.taken[contract["side"]]
            assert contract["made"] == result.made


def test_somerset_doubled_set_reads_double_the_shortfall():
    """"Bid 14, took 10: set — double the shortfall, −8; the other side banks double
    what they took, +28" — found on random hands of the default ruleset."""
    seen = 0
    for _game, state in random_hands(("somerset", "kitty-doubled", None), 80):
        result = state.result()
        if result.thrown_in or result.made:
            continue
        seen += 1
        c = breakdown(state)["contract"]
        set_term, other_term = breakdown(state)["terms"]
        assert set_term == {"side": c["side"], "points": -2 * (c["bid"] - c["took"]),
                            "words": "set — double the shortfall",
                            "working": f"2 × ({c['bid']} − {c['took']})"}
        other = result.taken[1 - c["side"]]
        assert other_term == {"side": 1 - c["side"], "points": 2 * other,
                              "words": "the other side banks double what they took",
                              "working": f"2 × {other}"}
    assert seen, "no set hand among the random hands: pick more"


def test_rook_buried_cards_are_shown_with_their_points_and_the_last_tricks_team():
    for _game, state in random_hands(("rook", "rook", None), 10):
        cards = breakdown(state)["cards"]
        assert [c["label"] for c in cards] == ["Buried cards"]
        buried = cards[0]
        assert sorted(buried["cards"]) == sorted(state.public_view()["buried"])
        assert buried["points"] == state.deck.points(state.buried)
        assert buried["side"] == state.tricks[-1].winner % 2


def test_somerset_kitty_discards_and_the_open_widow_are_shown():
    for _game, state in random_hands(("somerset", "kitty-keep", None), 20):
        if state.result().thrown_in:
            continue
        (discards,) = breakdown(state)["cards"]
        assert discards["label"] == "Kitty discards"
        assert sorted(discards["cards"]) == sorted(state.deck.name(c) for c in state.discards)
        assert discards["side"] == state.tricks[-1].winner % 2
    for _game, state in random_hands(("somerset", "widow-doubled", None), 20):
        if state.result().thrown_in:
            continue
        (widow,) = breakdown(state)["cards"]
        assert widow["label"] == "The widow" and widow["side"] == state.tricks[0].winner % 2


def test_horseshoes_terms_name_each_sides_bid_and_tricks():
    for game, state in random_hands(("horseshoes", "horseshoes", "partners"), 10):
        bids = state.side_bids()
        for term in breakdown(state)["terms"]:
            assert term["working"] == f"bid {bids[term['side']]}, took {state.taken[term['side']]}"
    game = make_game("horseshoes", None, "three", {"leftover": "down"})
    state = play_random_hand(game, SEED, 0, random.Random(1))
    (leftover,) = breakdown(state)["cards"]
    assert leftover["cards"] == [game.deck.name(state.spare[0])] and leftover["points"] is None
    assert "face down" in leftover["words"]
    game = make_game("horseshoes", None, "three", {"leftover": "up"})
    state = play_random_hand(game, SEED, 0, random.Random(1))
    assert breakdown(state)["cards"] == []  # face up all hand: nothing was hidden


def test_a_hand_in_progress_has_no_breakdown():
    state = make_game("rook").deal(SEED, 0)
    with pytest.raises(ValueError):
        breakdown(state)
