"""How Somerset reads and looks: each card in words, in short and in ink, and the trumps.

The names are the hand-record notation: rank over suit ("3/8"), the 0/0 (the Rover)
and the S/S. Count cards are printed in red.
"""

from __future__ import annotations

from ..info import CardInfo, TrumpInfo

NAME = "Somerset"
RED, BLACK = "#c62828", "#222222"
SS_NAME, ROVER_NAME = "S/S", "0/0"
SS_SUIT = "S"  # the S/S's own place when no suit is trump
SS_STRENGTH = -1  # the lowest trump, or a loner after the suits
SUIT_ORDER = ("12", "10", "8", "6", "4", "2", "0", SS_SUIT)  # as a hand is fanned
NO_TRUMP = "NT"
PASS_NOTE = "Passing isn't final: if someone bids after you, you may bid again."
ZERO_ZERO_NOTE = ("Naming /0 makes the 0/0 the highest trump and the S/S the only other one; "
                  "doubles lose their power. Under any other trump the 0/0 is the Rover: "
                  "playable any time, it turns every double on its trick into a trump.")


def card_info(name: str, points: int) -> CardInfo:
    """A Somerset card described: "3 of the /8 suit", "0/0, the Rover", "the S/S"."""
    ink = RED if points else BLACK
    if name == SS_NAME:
        return CardInfo(name, "the S/S", name, SS_SUIT, True, SS_STRENGTH, ink, points)
    rank, suit = name.split("/")
    words = "0/0, the Rover" if name == ROVER_NAME else f"{rank} of the /{suit} suit"
    return CardInfo(name, words, name, suit, False, int(rank), ink, points)


def trump_info(trump: str) -> TrumpInfo:
    """"/8" (typed as its number), or No Trump (N)."""
    if trump == NO_TRUMP:
        return TrumpInfo(trump, "No Trump", "N")
    return TrumpInfo(trump, f"/{trump}", "")
