"""Deck masks: the quick mask of a dealt hand is the plain one."""

from __future__ import annotations

import random

from engine import make_game


def test_a_dealt_hand_masks_as_its_cards_or_ed(any_variant):
    deck = make_game(*any_variant).deck
    rng = random.Random(5)
    for size in [0, 1, 2, 5, 13, deck.size]:
        for _ in range(20):
            cards = rng.sample(range(deck.size), size)
            assert deck.dealt_mask(cards) == deck.mask(cards)
            assert deck.dealt_mask(tuple(cards)) == deck.mask(cards)
