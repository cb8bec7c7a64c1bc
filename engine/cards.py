"""Decks: each game's cards as small integers, with the game's own text notation.

Cards are numbered 0..n-1 inside a deck so that hands can be bitmasks (bit c set =
card c held). ``suit_of``, ``rank_of`` and ``points_of`` are tuples indexed by card
number; ``suit_mask[s]`` has the bits of every card of suit s. What "suit" and
"rank" mean is each game's business (Rook's Rook card, Somerset's S/S).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from operator import itemgetter

from .errors import RecordError


class Deck:
    def __init__(self, names: Iterable[str], suits: Iterable[object], ranks: Iterable[int],
                 points: Iterable[int]):
        self.names: tuple[str, ...] = tuple(names)
        self.suit_of: tuple = tuple(suits)
        self.rank_of: tuple[int, ...] = tuple(ranks)
        self.points_of: tuple[int, ...] = tuple(points)
        self.size = len(self.names)
        self.full_mask = (1 << self.size) - 1
        self.bits = tuple(1 << c for c in range(self.size))  # card -> its bit, made once
        self._index = {name: c for c, name in enumerate(self.names)}
        suit_mask: dict = {}
        for c, s in enumerate(self.suit_of):
            suit_mask[s] = suit_mask.get(s, 0) | (1 << c)
        self.suit_mask = suit_mask

    def parse(self, name: object) -> int:
        """The card named ``name``; RecordError for anything else."""
        if isinstance(name, str):
            c = self._index.get(name.strip())
            if c is None:
                c = self._index.get(name.strip().upper())
            if c is not None:
                return c
        raise RecordError(f"{name!r} is not a card of this game")

    def name(self, card: int) -> str:
        return self.names[card]

    def mask(self, cards: Iterable[int]) -> int:
        bits, m = self.bits, 0
        for c in cards:
            m |= bits[c]
        return m

    def dealt_mask(self, cards: Sequence[int]) -> int:
        """``mask`` of distinct cards (a hand as dealt): their bits summed in C, which
        costs two thirds of or-ing them one at a time (each deal makes five)."""
        if len(cards) < 2:  # itemgetter gives a lone item bare
            return self.mask(cards)
        return sum(itemgetter(*cards)(self.bits))

    def mask_of(self, names: Iterable[str] | None) -> int:
        """The mask of the cards named (None: no cards); RecordError for a bad name."""
        return self.mask(self.parse(name) for name in names or ())

    def points(self, mask: int) -> int:
        points = self.points_of
        return sum([points[c] for c in cards_of(mask)])  # (a list: no generator to resume per card)


# [i][byte] -> the card numbers of the bits set in byte i of a mask, lowest first.
_BYTE_CARDS = tuple(tuple(tuple(8 * i + bit for bit in range(8) if byte >> bit & 1)
                          for byte in range(256)) for i in range(8))
_EIGHT_BYTES = 1 << 64


def cards_of(mask: int) -> list[int]:
    """The card numbers in a bitmask, lowest first: eight table look-ups (every deck
    fits in eight bytes) rather than a bit walk, which costs a few big-int operations
    per card."""
    if mask >= _EIGHT_BYTES or mask < 0:
        return list(iter_cards(mask))
    t0, t1, t2, t3, t4, t5, t6, t7 = _BYTE_CARDS
    b0, b1, b2, b3, b4, b5, b6, b7 = mask.to_bytes(8, "little")
    return [*t0[b0], *t1[b1], *t2[b2], *t3[b3], *t4[b4], *t5[b5], *t6[b6], *t7[b7]]


def iter_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
