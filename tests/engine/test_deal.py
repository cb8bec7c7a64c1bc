"""Test vectors for the deal algorithm (``parlour-deal/1``) and seed derivation.

Every peer must deal the same cards from the same seed on every machine and Python
version, for ever: these literal lists were computed once and must never change. If one
of these tests fails, the deal algorithm changed, and every saved game and every peer
running an older build would disagree with it.
"""

from __future__ import annotations

import hashlib

import pytest

from engine.deal import derive_seed, seed_index, shuffled

ZERO = bytes(32)
COUNTING = bytes(range(32))
PARLOUR = b"parlour".ljust(32, b"!")

SHUFFLED_52 = {
    ZERO: [43, 51, 40, 26, 21, 32, 37, 34, 18, 17, 24, 29, 49, 11, 19, 28, 48, 31, 33, 15,
           23, 42, 47, 22, 41, 1, 2, 46, 25, 45, 38, 39, 16, 36, 4, 14, 50, 9, 13, 20, 6, 10,
           12, 27, 8, 3, 0, 5, 44, 30, 7, 35],
    COUNTING: [37, 34, 48, 33, 1, 23, 51, 36, 38, 4, 16, 9, 13, 0, 25, 27, 31, 14, 15, 32,
               21, 10, 11, 5, 29, 20, 47, 24, 49, 17, 28, 18, 44, 26, 7, 3, 35, 12, 6, 19,
               50, 43, 30, 8, 45, 2, 41, 39, 22, 42, 40, 46],
    PARLOUR: [33, 13, 49, 0, 51, 34, 1, 31, 2, 45, 19, 40, 46, 47, 3, 22, 35, 44, 10, 25,
              43, 6, 37, 50, 16, 15, 41, 14, 30, 18, 4, 7, 32, 17, 23, 42, 26, 9, 28, 5, 8,
              12, 24, 38, 11, 27, 39, 20, 21, 29, 36, 48],
}

SHUFFLED_5 = {ZERO: [0, 1, 4, 2, 3], COUNTING: [1, 3, 0, 4, 2], PARLOUR: [4, 3, 2, 1, 0]}

DERIVED_HAND_3 = {
    ZERO: "6e15bd26b3ca3a26b146a4cfe650b094cec09c511fde861105edfaa718c04519",
    COUNTING: "d87de00ddf3151748c7bc0199029307ba81c04297baff909870e5f0297333376",
    PARLOUR: "c3c893639f374f5d30dce9801561a9204da1616516ce362bcd409cdc4fc6bf95",
}
DERIVED_FIRST_DEALER = {
    ZERO: "8aa3771489d77c6e375069f30c02a54a3575c0b1c8a66d4aa273cefaf5d5f251",
    COUNTING: "299d11e27d4c1d4fea3036dccbedd587d172c866101364bb87c8c2f17b8c5901",
    PARLOUR: "25d6399599e96e1c2ed2eab0e9ee8378568123e4b39addc629fd600f0439de4f",
}
DERIVED_HAND_0_1 = {
    ZERO: "930f7d15a2c19fa25c877ae80c32846a23c800c4af9a95354590c31198c871bb",
    COUNTING: "e335b7058ed3c68694d05ee12ce39a92680d59e96854a3cd7c8c8210b58fdce5",
    PARLOUR: "2252d3bcdcd2f648458a4faaf3b0bc7544c746e18426b152e84175c150d8b385",
}

SEEDS = [ZERO, COUNTING, PARLOUR]
SEED_IDS = ["zero", "counting", "parlour"]


@pytest.mark.parametrize("seed", SEEDS, ids=SEED_IDS)
def test_shuffled_52_is_pinned(seed):
    assert shuffled(52, seed) == SHUFFLED_52[seed]


@pytest.mark.parametrize("seed", SEEDS, ids=SEED_IDS)
def test_shuffled_5_is_pinned(seed):
    assert shuffled(5, seed) == SHUFFLED_5[seed]


@pytest.mark.parametrize("seed", SEEDS, ids=SEED_IDS)
def test_derive_seed_is_pinned(seed):
    assert derive_seed(seed, "hand", 3).hex() == DERIVED_HAND_3[seed]
    assert derive_seed(seed, "first-dealer").hex() == DERIVED_FIRST_DEALER[seed]
    assert derive_seed(seed, "hand", 0, 1).hex() == DERIVED_HAND_0_1[seed]


def test_seed_index_is_pinned():
    assert [seed_index(s, 4) for s in SEEDS] == [2, 3, 2]
    assert [seed_index(s, 3) for s in SEEDS] == [2, 2, 2]


def _reference_shuffle(n: int, seed: bytes) -> list[int]:
    """The algorithm exactly as engine/deal.py's docstring writes it down, so that the
    documentation and the code cannot drift apart."""
    stream = b"".join(hashlib.sha256(b"parlour-deal/1" + seed + i.to_bytes(8, "big")).digest()
                      for i in range(64))
    words = [int.from_bytes(stream[i:i + 4], "big") for i in range(0, len(stream), 4)]
    order, pos = list(range(n)), 0
    for j in range(n - 1, 0, -1):
        while True:
            w, pos = words[pos], pos + 1
            if w < 2**32 - (2**32 % (j + 1)):
                break
        k = w % (j + 1)
        order[j], order[k] = order[k], order[j]
    return order


@pytest.mark.parametrize("n", [1, 2, 13, 50, 52, 57])
@pytest.mark.parametrize("seed", SEEDS, ids=SEED_IDS)
def test_shuffle_matches_the_documented_algorithm(n, seed):
    assert shuffled(n, seed) == _reference_shuffle(n, seed)


def test_derive_seed_matches_the_documented_construction():
    expected = hashlib.sha256(b"parlour-seed/1" + COUNTING + b"hand\x00"
                              + (3).to_bytes(8, "big")).digest()
    assert derive_seed(COUNTING, "hand", 3) == expected


def test_shuffle_is_a_permutation_and_seeds_differ():
    for seed in SEEDS:
        assert sorted(shuffled(57, seed)) == list(range(57))
    assert len({tuple(shuffled(52, s)) for s in SEEDS}) == 3


def test_derived_seeds_are_distinct_per_label_and_number():
    names = [("hand", (0,)), ("hand", (1,)), ("hand", (0, 1)), ("first-dealer", ()),
             ("redeal", (0,))]
    derived = {derive_seed(ZERO, label, *nums) for label, nums in names}
    assert len(derived) == len(names)


@pytest.mark.parametrize("bad", [b"", bytes(31), bytes(33), "x" * 32, None])
def test_a_seed_must_be_32_bytes(bad):
    with pytest.raises(ValueError):
        shuffled(52, bad)
    with pytest.raises(ValueError):
        derive_seed(bad, "hand", 0)


def test_a_rejected_word_is_replaced_by_the_next_one():
    """Rejections are too rare to meet in a test vector (about one deal in a million),
    so the word-by-word path that handles them is checked on a made-up stream."""
    from engine.deal import _shuffled_drawing

    top = 2**32 - 1  # rejected for every span that does not divide 2**32
    stream = [top, 7, 1000003, top, top, 2**31 + 5, 42, 99, 123456789, 5, 6, 7, 8]

    def expected(n):
        order, words = list(range(n)), iter(stream)
        for j in range(n - 1, 0, -1):
            w = next(words)
            while w >= 2**32 - (2**32 % (j + 1)):
                w = next(words)
            order[j], order[w % (j + 1)] = order[w % (j + 1)], order[j]
        return order

    for n in (2, 5, 7):
        assert _shuffled_drawing(n, iter(stream)) == expected(n)
    # for n = 7 every top word meets a span of 7, 5 or 3, so each one is skipped
    kept = [w for w in stream if w != top]
    assert _shuffled_drawing(7, iter(stream)) == _shuffled_drawing(7, iter(kept))


@pytest.mark.parametrize("n", [2, 13, 52, 57])
def test_the_word_by_word_path_deals_as_the_fast_one(n):
    from itertools import chain

    from engine.deal import _blocks, _shuffled_drawing

    for seed in SEEDS:
        assert _shuffled_drawing(n, chain.from_iterable(_blocks(seed))) == shuffled(n, seed)
