"""How a game's cards read to a person: names, trump names, hand order.

Everything comes from what the title says about itself (``engine.info.GameInfo``: each
card's words, suit and strength, each trump's name), so these are plain functions of
that description and the card names the engine prints ("3/8", "S/S", "R14", "ROOK",
"AS"); no Qt, so they are cheap to test and reuse in tooltips, accessible names and the
game log. A name that is not a card of the game is a KeyError, never guessed at.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.info import GameInfo

NOT_NAMED = "not named yet"


def spoken(info: GameInfo, card: str) -> str:
    """The accessible name of a card: "Red 14", "8 of the /8 suit", "Ace of spades"."""
    return info.card(card).words


def trump_name(info: GameInfo, trump: str | None) -> str:
    """"/8", "No Trump", "Green", "Hearts ♥" — or "not named yet"."""
    return info.trump_name(trump) if trump else NOT_NAMED


@lru_cache(maxsize=16)
def _card_pattern(names: tuple[str, ...]) -> re.Pattern:
    # Longest first, so "B12" is read whole rather than as "B1"; a card name never runs
    # on into a longer word or another number ("3/8" in "13/8" is not a card).
    alternatives = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w/])({alternatives})(?![\w/])")


def spoken_in_text(info: GameInfo, text: str) -> str:
    """``text`` with every card written in the engine's notation replaced by its
    spoken name, so a hint says "Black 12" as the rest of the table does, not "B12"."""
    pattern = _card_pattern(tuple(card.name for card in info.deck.cards))
    return pattern.sub(lambda m: spoken(info, m.group(1)), text)


def suit_of(info: GameInfo, card: str, trump: str | None = None) -> str:
    """The suit a card sorts with (trump-aware: the Rook and the S/S join trump)."""
    described = info.card(card)
    return trump if described.joins_trump and trump and trump != "NT" else described.suit


def sort_hand(info: GameInfo, cards: list[str], trump: str | None = None) -> list[str]:
    """The hand as a player would fan it: trump first once named, then suit by suit in
    the deck's order, strongest card to the left."""
    order = list(info.deck.suit_order)
    if trump and trump in order:
        order = [trump] + [s for s in order if s != trump]

    def key(card: str) -> tuple[int, int]:
        suit = suit_of(info, card, trump)
        return order.index(suit) if suit in order else len(order), -info.card(card).strength

    return sorted(cards, key=key)
