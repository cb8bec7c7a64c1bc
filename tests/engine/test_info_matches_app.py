"""GameInfo says what the app shows today, so the app can switch to it mechanically.

Issue 12 moves title knowledge out of app/ and net/ into each title's ``GameInfo``. Until
those switch over, this pins the engine's data to the app's current per-title tables
(``app.cardnames``, ``GAME_NAMES``, ``MODE_NAMES``, ``CHOICE_NAMES``, ``MODE_ONLY``,
``TARGETS``, ``viewmodel.partnerships``, ``assets.deck_for``): switching a reader over changes nothing a player
sees. Once app/ and net/ read GameInfo, these tables and this file go.
"""

from __future__ import annotations

import random

import pytest

from app import assets, cardnames
from app.host_dialog import CHOICE_NAMES, GAME_NAMES, MODE_NAMES, MODE_ONLY
from app.table import table_view, viewmodel
from engine import make_game, title_info
from engine.registry import TITLES, variants


def sort_hand(info, cards: list[str], trump: str | None) -> list[str]:
    """The hand order from GameInfo alone: trump first once named, then the suits in
    the deck's order, strongest card first; the Rook and the S/S go with trump."""
    order = list(info.deck.suit_order)
    if trump and trump in order:
        order = [trump] + [s for s in order if s != trump]

    def key(name: str) -> tuple[int, int]:
        card = info.card(name)
        suit = trump if card.joins_trump and trump and trump != "NT" else card.suit
        return order.index(suit) if suit in order else len(order), -card.strength

    return sorted(cards, key=key)


@pytest.mark.parametrize("variant", list(variants()), ids=lambda v: "-".join(p for p in v if p))
def test_cards_read_and_look_as_the_app_draws_them(variant):
    info = make_game(*variant).info
    game = info.title
    deck = assets.deck_for(game)
    assert info.deck.art == deck
    assert info.deck.art_variants.get("accessible", deck) == assets.deck_for(game, accessible_rook=True)
    for card in info.deck.cards:
        assert card.words == cardnames.spoken(game, card.name)
        assert card.label == cardnames.short_label(deck, card.name)
        assert card.ink == cardnames.ink(deck, card.name)
    for trump in info.trumps:
        assert trump.name == cardnames.trump_name(game, trump.id)
    rng = random.Random(1)
    names = [c.name for c in info.deck.cards]
    for trump in [None] + [t.id for t in info.trumps]:
        for _ in range(20):
            hand = rng.sample(names, info.hand_size)
            assert sort_hand(info, hand, trump) == cardnames.sort_hand(game, hand, trump)


def test_titles_modes_and_options_read_as_the_host_dialog_names_them():
    assert {t: title_info(t).name for t in TITLES} == GAME_NAMES
    assert {t: table_view.GAME_TITLES[t] for t in TITLES} == GAME_NAMES
    modes = {m.id: m.name for t in TITLES for m in title_info(t).modes}
    assert modes == MODE_NAMES
    for t in TITLES:
        for ruleset in title_info(t).rulesets:
            for option in ruleset.options:
                assert option.modes == ((MODE_ONLY[option.id],) if option.id in MODE_ONLY else ())
                for choice in option.choices:
                    if choice.value in CHOICE_NAMES:
                        assert choice.name == CHOICE_NAMES[choice.value]


@pytest.mark.parametrize("variant", list(variants()), ids=lambda v: "-".join(p for p in v if p))
def test_sides_targets_and_trumps_are_the_tables(variant):
    info = make_game(*variant).info
    view = {"game": info.title, "mode": info.mode, "options": info.options}
    assert viewmodel.partnerships(view) == any(len(side.seats) > 1 for side in info.sides)
    if info.title in table_view.TARGETS:
        assert info.target == table_view.TARGETS[info.title]
    else:
        assert info.target == info.options["target"]
