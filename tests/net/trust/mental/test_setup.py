"""Deck positions go to seats exactly as the engine deals a shuffled deck."""

import pytest

from engine.deal import shuffled
from engine.registry import title
from net.trust.deals.mental.errors import MentalError
from net.trust.deals.mental.keys import DealContext
from net.trust.deals.mental.setup import DealSetup, Party

GAMES = [("rook", "rook", None), ("somerset", "kitty-doubled", None),
         ("horseshoes", "horseshoes", "three"), ("horseshoes", "horseshoes", "four")]


@pytest.mark.parametrize("name, ruleset, mode", GAMES)
def test_layout_is_the_engines_deal(name, ruleset, mode):
    game = title(name).make(ruleset, mode, None)
    everyone = [Party(b"k" * 32, tuple(range(game.num_players)))]
    for dealer in range(game.num_players):
        setup = DealSetup.for_game(game, DealContext("t", 0), everyone, dealer)
        seed = bytes([dealer]) * 32
        order = shuffled(game.deck.size, seed)
        assert setup.deck_size == game.deck.size
        assert setup.layout(order) == game.deal_cards(seed, dealer)
        for seat in range(game.num_players):
            assert all(setup.seat_of(p) == seat for p in setup.dealt(seat))
        assert all(setup.seat_of(p) is None for p in setup.spare())


def test_bad_setups_are_refused():
    game = title("rook").make("rook", None, None)
    ctx = DealContext("t", 0)
    with pytest.raises(MentalError, match="exactly one party"):
        DealSetup.for_game(game, ctx, [Party(b"a" * 32, (0, 1)), Party(b"b" * 32, (1, 2, 3))], 0)
    with pytest.raises(MentalError, match="identity key"):
        DealSetup.for_game(game, ctx, [Party(b"a" * 32, (0, 1)), Party(b"a" * 32, (2, 3))], 0)
    with pytest.raises(MentalError, match="dealer"):
        DealSetup.for_game(game, ctx, [Party(b"a" * 32, (0, 1, 2, 3))], 4)
