"""A deal followed by a client that is no party of it: its cards were the host's this
hand (its player away at the deal, or restarted out of it).

Such a client learns no card during the hand — nothing is opened to it — but every
party's messages are in the log, signed by their party (``client.DealClient`` checks the
signatures), and at the hand's end every party reveals its secret there. ``Witness``
keeps what a party's record keeps of those messages (key shares, decks, shares, plays,
commitments, reveals) without taking part, and once every party has revealed, redoes the
whole verification a party does (``MentalDeal._verify_everything``): every shuffle from
its revealed seed, every share, play and commitment. Its ``Verified`` is the deal as it
was dealt, so the onlooker too can replay the hand with every card open — its summary
then shows the buried cards and the scoring, as everyone else's does.

The witness sends nothing, proves nothing and asks for no audit; a message it cannot
read, or a party's cheat it finds, only ends its witnessing (``DealClient``): the parties
check the deal and name a cheat, as they always have.
"""

from __future__ import annotations

from . import deck as decks
from .group import Point
from .machine import MentalDeal
from .setup import DealSetup


class Witness(MentalDeal):
    """``MentalDeal`` as an onlooker runs it: party ``None``, with no secrets of its own."""

    def __init__(self, setup: DealSetup):
        super().__init__(setup, None, None)  # type: ignore[arg-type]  # (no party, no secrets)

    def _own_pads(self, joint: Point) -> list[decks.Ciphertext] | None:
        return None  # no shuffle of its own

    def _shuffle_if_my_turn(self) -> list:
        return []

    def _deal_shares(self) -> list:
        return []  # no shares to give

    # -- the hand's steps (``flows``): where the spare goes, for the checks at the end ----
    def open_to_all(self, positions) -> list:
        return []  # who a spare position is opened to comes with its shares

    def open_to(self, positions, seat: int) -> list:
        self.holdings[seat].update(positions)  # (the kitty the bidder alone sees)
        return []

    def _on_show(self, sender: int, message: dict) -> list:
        return []  # a redeal claimed: the deal is restarted, this attempt never ends

    def _reveal(self, reason: str, why: str = "") -> list:
        return []  # no secret to reveal
