"""Deterministic shuffling from a 32-byte seed, and the seeds derived from it.

The algorithm (``parlour-deal/1``) is fixed so that every peer, on every machine and
Python version, deals the same cards from the same seed:

1. A byte stream is SHA-256 in counter mode:
   ``block(i) = SHA-256(b"parlour-deal/1" || seed || i as 8-byte big-endian)``,
   i = 0, 1, 2, …; the blocks are concatenated.
2. The stream is read as 4-byte big-endian unsigned words.
3. Fisher–Yates from the top: for j = n-1 down to 1, draw a word w; if
   ``w >= 2**32 - (2**32 % (j+1))`` reject it and draw again (so every k is equally
   likely); otherwise swap positions j and ``w % (j+1)``.

``derive_seed`` names a sub-seed (the seed of hand 3, its first redeal, the first
dealer…) so that one table seed yields every hand of a match.
Both are pinned by test vectors in tests/engine/test_deal.py.
"""

from __future__ import annotations

import hashlib
import struct
from functools import lru_cache
from itertools import chain, count
from operator import mod

SEED_BYTES = 32
_DEAL_TAG = b"parlour-deal/1"
_DERIVE_TAG = b"parlour-seed/1"
_WORD_SPACE = 1 << 32
_EIGHT_WORDS = struct.Struct(">8I")  # one SHA-256 block as eight big-endian words


def check_seed(seed: bytes) -> bytes:
    if not isinstance(seed, (bytes, bytearray)) or len(seed) != SEED_BYTES:
        raise ValueError(f"a deal seed is {SEED_BYTES} bytes")
    return bytes(seed)


def _blocks(seed: bytes):
    """The byte stream as words, eight (one block) at a time."""
    prefix = hashlib.sha256(_DEAL_TAG + seed)  # the shared prefix is hashed once
    for counter in count():
        block = prefix.copy()
        block.update(counter.to_bytes(8, "big"))
        yield _EIGHT_WORDS.unpack(block.digest())


@lru_cache(maxsize=None)
def _plan(n: int) -> tuple:
    """Fisher–Yates for n items, step by step (j = n-1 down to 1): the positions j,
    the spans j + 1 and the rejection limits for those spans; then the lowest limit,
    the counters of the blocks and the unpacker that give one word per step."""
    js = tuple(range(n - 1, 0, -1))
    spans = tuple(j + 1 for j in js)
    limits = tuple(_WORD_SPACE - (_WORD_SPACE % span) for span in spans)
    blocks = tuple(counter.to_bytes(8, "big") for counter in range(-(-len(js) // 8)))
    return js, spans, limits, min(limits), blocks, struct.Struct(f">{8 * len(blocks)}I").unpack


def shuffled(n: int, seed: bytes) -> list[int]:
    """The numbers 0..n-1 in the order the seed shuffles them."""
    seed = check_seed(seed)
    order = list(range(n))
    if n < 2:
        return order
    # Every deal runs this, so the common case is done in bulk: one word per step,
    # unpacked at once, and only the swaps in a Python loop. A word at or above the
    # lowest limit (about one deal in a million) may be rejected, which shifts the
    # stream: _shuffled_drawing then does it word by word.
    js, spans, _, lowest_limit, blocks, unpack = _plan(n)
    prefix = hashlib.sha256(_DEAL_TAG + seed)
    digests = []
    for counter in blocks:
        block = prefix.copy()
        block.update(counter)
        digests.append(block.digest())
    words = unpack(b"".join(digests))
    if max(words) >= lowest_limit:
        return _shuffled_drawing(n, chain.from_iterable(_blocks(seed)))
    for j, k in zip(js, map(mod, words, spans)):
        order[j], order[k] = order[k], order[j]
    return order


def _shuffled_drawing(n: int, words) -> list[int]:
    """``shuffled`` word by word from the iterator ``words``, as the algorithm is
    written above: always right, rejections included, but slower."""
    order = list(range(n))
    for j, span, limit in zip(*_plan(n)[:3]):
        w = next(words)
        while w >= limit:
            w = next(words)
        k = w % span
        order[j], order[k] = order[k], order[j]
    return order


def derive_seed(seed: bytes, label: str, *numbers: int) -> bytes:
    """A sub-seed named by ``label`` and non-negative ``numbers``, e.g. ("hand", 3, 0)."""
    seed = check_seed(seed)
    parts = [_DERIVE_TAG, seed, label.encode("utf-8"), b"\x00"]
    parts += [n.to_bytes(8, "big") for n in numbers]
    return hashlib.sha256(b"".join(parts)).digest()


def seed_index(seed: bytes, n: int) -> int:
    """A number in 0..n-1 chosen by the seed (used for the first dealer)."""
    return shuffled(n, seed)[0]
