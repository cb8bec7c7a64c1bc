"""The typed group layer: only points on secp256k1 get in; scalars are canonical; the
identity is never encoded nor multiplied; zero is never a multiplier."""

import pytest

from net.trust.deals.mental.errors import GroupError
from net.trust.deals.mental.group import (G, IDENTITY, ONE, ORDER, POINT_BYTES, Point, Scalar,
                                          base_mul, is_valid_point, point_sum)

FIELD_PRIME = 2**256 - 2**32 - 977
OFF_CURVE = b"\x02" + (5).to_bytes(32, "big")  # x = 5: x³ + 7 is no square, no y exists
ON_CURVE_X = (1).to_bytes(32, "big")  # x = 1: a point (each prefix gives one of its two y)
X_ABOVE_PRIME = b"\x02" + (FIELD_PRIME + 1).to_bytes(32, "big")  # x = 1 again, not reduced


def scalar(n: int) -> Scalar:
    return Scalar.from_hash(b"test", n.to_bytes(4, "big"))


@pytest.mark.parametrize("raw", [OFF_CURVE, X_ABOVE_PRIME, b"\x04" + ON_CURVE_X, b"\x00" + ON_CURVE_X,
                                 b"\x00" * POINT_BYTES, b"\x00", b"", G.raw[:32], G.raw + b"\x00",
                                 bytes([4]) + bytes(64), "text", None],
                         ids=["off the curve", "x not below p", "prefix 04", "prefix 00", "zeros",
                              "SEC1's infinity", "empty", "32 bytes", "34 bytes", "uncompressed",
                              "text", "None"])
def test_bytes_that_are_no_compressed_point_are_refused(raw):
    with pytest.raises(GroupError):
        Point.from_wire(raw)
    assert not is_valid_point(raw)


def test_a_point_is_33_bytes_with_prefix_02_or_03():
    assert POINT_BYTES == 33 and len(G.raw) == 33
    assert {Point.from_wire(b"\x02" + ON_CURVE_X).raw[0], Point.from_wire(b"\x03" + ON_CURVE_X).raw[0]} == {2, 3}
    assert G.raw.hex() == "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"


def test_bytes_off_the_curve_are_refused_where_first_used():
    """A point read unchecked (``Point(raw)``: decks, proofs) is checked by the first
    multiplication or addition it takes part in, never used as it is."""
    bad = Point(OFF_CURVE)
    with pytest.raises(GroupError, match="not a point"):
        scalar(1) * bad
    with pytest.raises(GroupError):
        G + bad
    with pytest.raises(GroupError):
        bad - G


def test_group_laws_hold():
    a, b = scalar(1), scalar(2)
    assert base_mul(a) + base_mul(b) == base_mul(a + b)
    assert base_mul(a) - base_mul(b) == base_mul(a - b)
    assert a * base_mul(b) == base_mul(a * b) == b * base_mul(a)
    assert ONE * G == G and Point.from_wire(G.raw) == G
    assert point_sum([base_mul(a), base_mul(b), G]) == base_mul(a + b + ONE)
    assert G + G == base_mul(Scalar.from_int(2))  # a sum of a point with itself doubles it


def test_negation_flips_the_prefix_and_subtracts():
    p = base_mul(scalar(3))
    assert (-p).raw == bytes([p.raw[0] ^ 1]) + p.raw[1:]
    assert -p == base_mul(Scalar.from_int(-int(scalar(3)))) and -(-p) == p
    assert p - p is IDENTITY and p + (-p) is IDENTITY
    assert -IDENTITY is IDENTITY


def test_the_identity_is_only_a_sum_and_never_multiplied():
    p = base_mul(scalar(4))
    assert point_sum([p, G, -p, -G]) is IDENTITY and point_sum([]) is IDENTITY
    assert IDENTITY + p == p and p + IDENTITY == p and p - IDENTITY == p
    assert IDENTITY != Point(b"\x00" * POINT_BYTES)  # it has no encoding to forge
    with pytest.raises(GroupError):
        scalar(1) * IDENTITY
    with pytest.raises(GroupError):
        Point.from_wire(IDENTITY.raw)
    with pytest.raises(GroupError):  # a point that is not the identity object is never taken for it
        Point(b"") + p


def test_a_zero_scalar_is_refused_as_a_multiplier():
    zero = Scalar.from_int(ORDER)
    assert zero.is_zero() and zero == Scalar.from_int(0)
    with pytest.raises(GroupError, match="zero"):
        zero * G
    with pytest.raises(GroupError, match="zero"):
        base_mul(zero)


def test_scalars_from_the_wire_must_be_32_canonical_bytes_big_endian():
    with pytest.raises(GroupError, match="reduced"):
        Scalar.from_wire(ORDER.to_bytes(32, "big"))
    with pytest.raises(GroupError, match="reduced"):
        Scalar.from_wire(b"\xff" * 32)
    assert int(Scalar.from_wire((ORDER - 1).to_bytes(32, "big"))) == ORDER - 1
    assert Scalar.from_wire(scalar(5).raw) == scalar(5)
    assert Scalar.from_int(258).raw == bytes(30) + b"\x01\x02"
    for raw in (b"\x01" * 31, b"\x01" * 33, "text"):
        with pytest.raises(GroupError):
            Scalar.from_wire(raw)


def test_scalar_arithmetic_is_modulo_the_order():
    a, b = scalar(7), scalar(8)
    assert int(a + b) == (int(a) + int(b)) % ORDER
    assert int(a - b) == (int(a) - int(b)) % ORDER
    assert int(a * b) == int(a) * int(b) % ORDER


def test_hashing_to_the_group_is_deterministic_and_gives_distinct_points():
    points = {Point.from_uniform(bytes([k]) * 32) for k in range(20)}
    assert len(points) == 20 and all(is_valid_point(p.raw) for p in points)
    assert Point.from_uniform(b"\x01" * 32) == Point.from_uniform(b"\x01" * 32)


def test_values_are_immutable_and_compare_by_encoding():
    p = base_mul(scalar(3))
    with pytest.raises(AttributeError):
        p.raw = b""  # type: ignore[misc]
    with pytest.raises(AttributeError):
        scalar(3).raw = b""  # type: ignore[misc]
    assert p == Point(bytes(p.raw)) and hash(p) == hash(Point(bytes(p.raw)))
    assert p != p.raw


def test_hashing_to_scalars_is_domain_separated_and_framed():
    assert Scalar.from_hash(b"a", b"x") != Scalar.from_hash(b"b", b"x")
    assert Scalar.from_hash(b"a", b"xy", b"z") != Scalar.from_hash(b"a", b"x", b"yz")
