"""How Rook reads and looks: its colours, and each card in words, in short and in ink.

The names are the hand-record notation ("B12", "R1", "ROOK"); what a player reads and
how a fallback face is drawn follow from them (``engine.info.CardInfo``).
"""

from __future__ import annotations

from ..info import CardInfo, TrumpInfo

NAME = "Rook"
COLOUR_NAMES = {"B": "Black", "R": "Red", "G": "Green", "Y": "Yellow"}
COLOUR_INK = {"B": "#222222", "R": "#c62828", "G": "#2e7d32", "Y": "#b58900"}
ROOK_NAME = "ROOK"
ROOK_INK = COLOUR_INK["R"]  # the Rook's label has always been printed in red
SUIT_ORDER = (ROOK_NAME, "B", "R", "G", "Y")  # as a hand is fanned: the Rook first
ONE_STRENGTH = 15  # the 1 sorts above the 14
ROOK_STRENGTH = 100


def card_info(name: str, points: int) -> CardInfo:
    """A Rook card described: "Red 14" (label "14"), or the Rook bird."""
    if name == ROOK_NAME:
        return CardInfo(name, "the Rook bird", "Rook", ROOK_NAME, True, ROOK_STRENGTH, ROOK_INK, points)
    colour, number = name[0], int(name[1:])
    return CardInfo(name, f"{COLOUR_NAMES[colour]} {number}", str(number), colour, False,
                    ONE_STRENGTH if number == 1 else number, COLOUR_INK[colour], points)


def trump_info(colour: str) -> TrumpInfo:
    return TrumpInfo(colour, COLOUR_NAMES[colour], colour)
