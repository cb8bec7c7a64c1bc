"""How Horseshoes reads and looks: a standard deck's cards in words, in short and in ink.

The names are the hand-record notation: rank then suit, "T" for the 10 ("AS", "TD").
"""

from __future__ import annotations

from ..info import CardInfo, TrumpInfo

NAME = "Horseshoes"
SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("\u2660", "\u2665", "\u2666", "\u2663")
RED_SUITS = "HD"
RED, BLACK = "#c62828", "#222222"
RANK_NAMES = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
RANKS_HIGH_TO_LOW = "AKQJT98765432"  # how a hand is sorted: the ace on top
SUIT_ORDER = ("S", "H", "C", "D")  # alternating colours, as a player fans them
NO_TRUMP = "NT"
MODE_NAMES = {"three": "Three players, each alone", "four": "Four players, each alone",
              "partners": "Four players, partners opposite"}
# How the left-over card option's values read to a host.
LEFTOVER_CHOICES = {"dealer": "The dealer chooses each hand", "up": "Always face up",
                    "down": "Always face down"}


def card_info(name: str, points: int) -> CardInfo:
    """A card described: "Ace of spades", label "A♠"; "10 of hearts", label "10♥"."""
    rank, suit = name[0], name[1]
    index = SUITS.index(suit)
    label = ("10" if rank == "T" else rank) + SUIT_SYMBOLS[index]
    strength = len(RANKS_HIGH_TO_LOW) - RANKS_HIGH_TO_LOW.index(rank)
    return CardInfo(name, f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[index]}", label, suit,
                    False, strength, RED if suit in RED_SUITS else BLACK, points)


def trump_info(trump: str) -> TrumpInfo:
    """"Hearts ♥" (H), or No Trump (N)."""
    if trump == NO_TRUMP:
        return TrumpInfo(trump, "No Trump", "N")
    index = SUITS.index(trump)
    return TrumpInfo(trump, f"{SUIT_NAMES[index].capitalize()} {SUIT_SYMBOLS[index]}", trump)
