"""Card points, the public starting deck and one shuffle."""

import pytest

from net.trust.deals.mental import deck as decks
from net.trust.deals.mental.errors import GroupError
from net.trust.deals.mental.group import Point, Scalar, base_mul, is_valid_point

SECRETS = [Scalar.from_hash(b"test", bytes([i])) for i in range(3)]
KEY = decks.joint_key(base_mul(x) for x in SECRETS)


def open_all(deck):
    lookup = decks.card_lookup(len(deck))
    return [lookup.get(decks.decrypt(c, [x * c.c1 for x in SECRETS])) for c in deck]


@pytest.mark.parametrize("size", [40, 50, 52, 57])
def test_card_points_are_distinct_group_elements(size):
    points = decks.card_points(size)
    assert len(set(points)) == size
    assert all(is_valid_point(p.raw) for p in points)
    assert decks.card_point(7) == points[7]  # the same point for a card in every deck


def test_the_starting_deck_decrypts_in_card_order():
    assert open_all(decks.initial_deck(57, KEY)) == list(range(57))


def test_a_shuffle_permutes_and_hides_by_reencryption():
    start = decks.initial_deck(57, KEY)
    seed = bytes(range(32))
    out = decks.shuffle(start, decks.pads(57, KEY, seed), seed)
    assert open_all(out) == decks.permutation(57, seed)
    assert sorted(open_all(out)) == list(range(57))
    assert not {c.raw for c in out} & {c.raw for c in start}  # every ciphertext is new
    again = decks.shuffle(out, decks.pads(57, KEY, b"\x01" * 32), b"\x01" * 32)
    assert sorted(open_all(again)) == list(range(57))


def test_shuffles_are_deterministic_in_their_seed():
    start = decks.initial_deck(50, KEY)
    one = decks.shuffle(start, decks.pads(50, KEY, b"a" * 32), b"a" * 32)
    assert decks.encode_deck(one) == decks.encode_deck(
        decks.shuffle(start, decks.pads(50, KEY, b"a" * 32), b"a" * 32))
    other = decks.shuffle(start, decks.pads(50, KEY, b"b" * 32), b"b" * 32)
    assert decks.encode_deck(one) != decks.encode_deck(other)


def test_decks_round_trip_and_bad_ones_are_refused():
    deck = decks.initial_deck(40, KEY)
    raw = decks.encode_deck(deck)
    assert len(raw) == 40 * decks.CIPHERTEXT_BYTES
    assert decks.decode_deck(raw, 40, validate=True) == deck
    with pytest.raises(GroupError):
        decks.decode_deck(raw[:-1], 40, validate=True)
    off_curve = b"\x02" + (5).to_bytes(32, "big")  # no point has x = 5
    bad = raw[:33] + off_curve + raw[66:]  # as c2
    assert decks.decode_deck(bad, 40, validate=False)[0].c2 == Point(off_curve)
    with pytest.raises(GroupError):
        decks.decode_deck(bad, 40, validate=True)
