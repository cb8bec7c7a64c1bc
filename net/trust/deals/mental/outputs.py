"""What a party's deal machine (``machine.MentalDeal``) hands back to the session.

``Send`` is a message for the log; the rest are what the party learned. ``ShareBatch`` is
a published batch of decryption shares as the machine keeps it.
"""

from __future__ import annotations

from typing import NamedTuple

from .group import Point



class Send(NamedTuple):
    message: dict


class Dealt(NamedTuple):
    """This party's seat ``seat`` was dealt ``cards`` (at ``positions``, in order)."""
    seat: int
    positions: tuple[int, ...]
    cards: tuple[int, ...]


class Opened(NamedTuple):
    """Spare ``positions`` hold ``cards``: for everyone (``public``) or for this party."""
    positions: tuple[int, ...]
    cards: tuple[int, ...]
    public: bool


class Played(NamedTuple):
    seat: int
    position: int
    card: int


class Redeal(NamedTuple):
    """``seat`` proved its hand must be redealt; the deal starts again, next attempt."""
    seat: int
    cards: tuple[int, ...]


class Audit(NamedTuple):
    """A check failed that only the secrets can settle; this party revealed its own."""
    reason: str


class Verified(NamedTuple):
    """Every check passed: the deal as ``Game.deal_cards`` lays it out."""
    hands: tuple[tuple[int, ...], ...]
    spare: tuple[int, ...]


class ShareBatch(NamedTuple):
    """One party's decryption shares for some positions, for one audience, with one proof."""
    prover: int
    to: int | None
    positions: tuple[int, ...]
    shares: tuple[Point, ...]
    proof: bytes


# -- the machine -----------------------------------------------------------------------
