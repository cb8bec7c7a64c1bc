"""Cards as points, ElGamal ciphertexts, the public starting deck and one party's shuffle.

* Card ``n`` of a deck is the point ``from_uniform(SHA-512("parlour-card/1" ‖ n)[:32])``:
  nobody knows a discrete logarithm of it or a relation between two cards.
* A card is encrypted under the joint key ``K`` as ``(r·G, M + r·K)``. The deck starts
  as the public, deterministic encryption with ``r = 1``: ``(G, Mₙ + K)`` for n = 0…N−1.
* A shuffle re-encrypts every ciphertext (adds ``(rᵢ·G, rᵢ·K)``) and permutes the deck:
  ``out[i] = in[π(i)] + (rᵢ·G, rᵢ·K)``. π and every ``rᵢ`` come from the party's
  per-hand shuffle seed (``keys.PartySecrets``): π is the engine's own Fisher–Yates
  (``engine.deal.shuffled``) from ``SHA-256("parlour-mental-permutation/1" ‖ seed)``,
  ``rᵢ`` is ``Scalar.from_hash("parlour-mental-reencrypt/1", seed, i as 2 bytes)``: the
  SHA-512 of those parts framed with their lengths (``group.framed``), reduced. The
  shuffle comes with its proof (``shuffle_proof``); when the seed is revealed at the end
  of the hand, every peer also redoes the shuffle and compares.
* A ciphertext is decrypted by subtracting every party's decryption share ``xⱼ·c₁``
  from ``c₂``; the result is looked up among the card points.

On the wire a deck is the concatenation of its ciphertexts, ``c₁ ‖ c₂`` (66 bytes each).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import NamedTuple

from engine.deal import shuffled

from .errors import GroupError
from .group import ONE, POINT_BYTES, G, Point, Scalar, base_mul, point_sum

CIPHERTEXT_BYTES = 2 * POINT_BYTES
_CARD = b"parlour-card/1"
_PERMUTATION = b"parlour-mental-permutation/1"
_REENCRYPT = b"parlour-mental-reencrypt/1"


class Ciphertext(NamedTuple):
    c1: Point
    c2: Point

    def plus(self, pad: "Ciphertext") -> "Ciphertext":
        return Ciphertext(self.c1 + pad.c1, self.c2 + pad.c2)

    @property
    def raw(self) -> bytes:
        return self.c1.raw + self.c2.raw


def card_point(card: int) -> Point:
    return Point.from_uniform(hashlib.sha512(_CARD + card.to_bytes(2, "big")).digest()[:32])


@lru_cache(maxsize=None)
def card_points(size: int) -> tuple[Point, ...]:
    points = tuple(card_point(n) for n in range(size))
    if len(set(points)) != size:  # never: 2^-240 or so; checked once per deck size
        raise GroupError("two cards map to one point")
    return points


@lru_cache(maxsize=None)
def card_lookup(size: int) -> dict[Point, int]:
    return {point: n for n, point in enumerate(card_points(size))}


def joint_key(keys) -> Point:
    return point_sum(keys)


def initial_deck(size: int, key: Point) -> list[Ciphertext]:
    """The public starting deck: card n encrypted with randomness 1."""
    return [Ciphertext(G, m + key) for m in card_points(size)]


def permutation(size: int, seed: bytes) -> list[int]:
    return shuffled(size, hashlib.sha256(_PERMUTATION + seed).digest())


def randomness(size: int, seed: bytes) -> list[Scalar]:
    """The re-encryption randomness ``rᵢ`` of every output position."""
    return [Scalar.from_hash(_REENCRYPT, seed, i.to_bytes(2, "big")) for i in range(size)]


def pads(size: int, key: Point, seed: bytes, key_secret: Scalar | None = None) -> list[Ciphertext]:
    """``(rᵢ·G, rᵢ·K)`` for every output position: all a shuffle's multiplications, which a
    party can make as soon as it knows the joint key, before its turn comes. Once the
    joint secret ``x`` is known (``K = x·G``, at the end of the hand) ``rᵢ·K`` is
    ``(rᵢ·x)·G``, a fixed-base multiplication five times cheaper."""
    if key_secret is not None:
        return [Ciphertext(base_mul(r), base_mul(r * key_secret)) for r in randomness(size, seed)]
    return [Ciphertext(base_mul(r), r * key) for r in randomness(size, seed)]


def shuffle(deck: list[Ciphertext], pad: list[Ciphertext], seed: bytes) -> list[Ciphertext]:
    order = permutation(len(deck), seed)
    return [deck[order[i]].plus(pad[i]) for i in range(len(deck))]


def decrypt(ciphertext: Ciphertext, shares) -> Point:
    """``c₂ − Σ shares``: the card's point once every party's share is in."""
    m = ciphertext.c2
    for share in shares:
        m = m - share
    return m


def encode_deck(deck: list[Ciphertext]) -> bytes:
    return b"".join(c.raw for c in deck)


def decode_deck(raw: object, size: int, validate: bool) -> list[Ciphertext]:
    """A deck from the wire; ``validate`` checks every point is one (on the curve).
    The deal does not check decks as they come: a shuffle's proof multiplies every point
    of its decks, and libsecp256k1 parses (checks) every point it multiplies."""
    if not isinstance(raw, bytes) or len(raw) != size * CIPHERTEXT_BYTES:
        raise GroupError(f"a deck of {size} cards is {size * CIPHERTEXT_BYTES} bytes")
    make = Point.from_wire if validate else Point
    return [Ciphertext(make(raw[i:i + POINT_BYTES]), make(raw[i + POINT_BYTES:i + CIPHERTEXT_BYTES]))
            for i in range(0, len(raw), CIPHERTEXT_BYTES)]


__all__ = ["Ciphertext", "CIPHERTEXT_BYTES", "ONE", "card_point", "card_points",
           "card_lookup", "joint_key", "initial_deck", "permutation", "randomness", "pads", "shuffle",
           "decrypt", "encode_deck", "decode_deck"]
