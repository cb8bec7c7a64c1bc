"""How each game's card notation reads to a person: names, labels, colours, hand order.

Pure functions of card names as the engine prints them ("3/8", "S/S", "R14", "ROOK",
"AS", "TD"); no Qt, so they are cheap to test and reuse in tooltips, accessible names
and the game log.
"""

from __future__ import annotations

import re

ROOK_COLOURS = {"B": "Black", "R": "Red", "G": "Green", "Y": "Yellow"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_NAMES = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
STANDARD_RANKS = "AKQJT98765432"
SOMERSET_SUITS = ("0", "2", "4", "6", "8", "10", "12")
SOMERSET_COUNT = {"1/2", "2/4", "3/6", "4/8", "5/10", "6/12", "S/S"}


def game_of_deck(deck: str) -> str:
    return {"rook": "rook", "rook-accessible": "rook", "standard": "horseshoes"}.get(deck, "somerset")


# -- names ---------------------------------------------------------------------------
def spoken(game: str, card: str) -> str:
    """The accessible name of a card: "Red 14", "8 of the /8 suit", "Ace of spades"."""
    if game == "rook":
        if card == "ROOK":
            return "the Rook bird"
        return f"{ROOK_COLOURS.get(card[0], card[0])} {card[1:]}"
    if game == "horseshoes":
        return f"{RANK_NAMES.get(card[0], card[0])} of {SUIT_NAMES.get(card[1], card[1])}"
    if card == "S/S":
        return "the S/S"
    if "/" not in card:
        return card  # not a Somerset card: say it as written rather than fail
    rank, suit = card.split("/")
    if card == "0/0":
        return "0/0, the Rover"
    return f"{rank} of the /{suit} suit"


# A card as the engine writes it, inside a sentence (a bot's hint): "B12", "ROOK",
# "3/8", "S/S", "AS", "TD". Upper case only, so ordinary words never match.
CARD_TOKENS = {
    "rook": re.compile(r"\b(ROOK|[BRGY](?:1[0-4]|[1-9]))\b"),
    "horseshoes": re.compile(r"\b([AKQJT2-9][SHDC])\b"),
    "somerset": re.compile(r"(?<![\w/])(S/S|(?:1[0-2]|\d)/(?:1[02]|[02468]))(?![\w/])"),
}


def spoken_in_text(game: str, text: str) -> str:
    """``text`` with every card written in the engine's notation replaced by its
    spoken name, so a hint says "Black 12" as the rest of the table does, not "B12"."""
    pattern = CARD_TOKENS.get(game)
    return pattern.sub(lambda m: spoken(game, m.group(1)), text) if pattern else text


def short_label(deck: str, card: str) -> str:
    """A compact label for drawn fallback faces and the game log."""
    game = game_of_deck(deck)
    if game == "rook":
        return "Rook" if card == "ROOK" else card[1:]
    if game == "horseshoes":
        rank = "10" if card[0] == "T" else card[0]
        return rank + SUIT_SYMBOLS.get(card[1], card[1])
    return card


def ink(deck: str, card: str) -> str:
    """The colour a card's label is printed in (fallback faces, log text)."""
    game = game_of_deck(deck)
    if game == "rook":
        return {"B": "#222222", "R": "#c62828", "G": "#2e7d32", "Y": "#b58900"}.get(card[0], "#5d4037")
    if game == "horseshoes":
        return "#c62828" if card[1:] in ("H", "D") else "#222222"
    return "#c62828" if card in SOMERSET_COUNT else "#222222"


def trump_name(game: str, trump: str | None) -> str:
    """"/8", "No Trump", "Green", "Hearts ♥" — or "not named yet"."""
    if not trump:
        return "not named yet"
    if trump == "NT":
        return "No Trump"
    if game == "rook":
        return ROOK_COLOURS.get(trump, trump)
    if game == "horseshoes":
        return f"{SUIT_NAMES.get(trump, trump).capitalize()} {SUIT_SYMBOLS.get(trump, '')}".strip()
    return f"/{trump}"


# -- hand order ----------------------------------------------------------------------
def suit_of(game: str, card: str, trump: str | None = None) -> str:
    """The suit a card sorts with (trump-aware: the Rook and the S/S join trump)."""
    if game == "rook":
        if card == "ROOK":
            return trump if trump else "ROOK"
        return card[0]
    if game == "horseshoes":
        return card[1]
    if card == "S/S":
        return trump if trump and trump != "NT" else "S"
    return card.split("/")[1]


def _rank_value(game: str, card: str) -> int:
    """Higher is stronger inside a suit (as the hand is read, left to right)."""
    if game == "rook":
        if card == "ROOK":
            return 100
        number = int(card[1:])
        return 15 if number == 1 else number
    if game == "horseshoes":
        return len(STANDARD_RANKS) - STANDARD_RANKS.index(card[0])
    if card == "S/S":
        return -1  # the lowest trump, or a loner after the suits
    return int(card.split("/")[0])


def _suit_order(game: str) -> list[str]:
    if game == "rook":
        return ["ROOK", "B", "R", "G", "Y"]
    if game == "horseshoes":
        return ["S", "H", "C", "D"]  # alternating colours, as a player fans them
    return ["12", "10", "8", "6", "4", "2", "0", "S"]


def sort_hand(game: str, cards: list[str], trump: str | None = None) -> list[str]:
    """The hand as a player would fan it: trump first once named, then suit by suit,
    strongest card to the left."""
    order = _suit_order(game)
    if trump and trump in order:
        order = [trump] + [s for s in order if s != trump]

    def key(card: str) -> tuple[int, int]:
        suit = suit_of(game, card, trump)
        position = order.index(suit) if suit in order else len(order)
        return position, -_rank_value(game, card)

    return sorted(cards, key=key)
