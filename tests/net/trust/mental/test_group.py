"""The typed group layer: only prime-order-subgroup points get in; scalars are reduced."""

import pytest

from net.trust.deals.mental.errors import GroupError
from net.trust.deals.mental.group import G, ONE, Point, Scalar, base_mul, is_valid_point, point_sum

IDENTITY = bytes.fromhex("01" + "00" * 31)
ORDER_2 = bytes.fromhex("ec" + "ff" * 30 + "7f")
ORDER_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
NON_CANONICAL = bytes.fromhex("ed" + "ff" * 30 + "7f")  # y = p: encodes y = 0 again


def scalar(n: int) -> Scalar:
    return Scalar.from_hash(b"test", n.to_bytes(4, "big"))


@pytest.mark.parametrize("raw", [IDENTITY, ORDER_2, ORDER_8, NON_CANONICAL, b"\x00" * 32,
                                 b"\x02" * 31, "text", None])
def test_points_outside_the_prime_order_group_are_refused(raw):
    with pytest.raises(GroupError):
        Point.from_wire(raw)


def test_a_point_with_a_small_order_component_is_refused_and_never_multiplied():
    mixed = G + Point(ORDER_8)  # on the curve, outside the prime-order subgroup
    assert not is_valid_point(mixed.raw)
    with pytest.raises(GroupError):
        Point.from_wire(mixed.raw)
    with pytest.raises(GroupError, match="refused"):
        scalar(1) * mixed  # libsodium's noclamp multiplication checks the subgroup too


def test_group_laws_hold():
    a, b = scalar(1), scalar(2)
    assert base_mul(a) + base_mul(b) == base_mul(a + b)
    assert base_mul(a) - base_mul(b) == base_mul(a - b)
    assert a * base_mul(b) == base_mul(a * b) == b * base_mul(a)
    assert ONE * G == G and Point.from_wire(G.raw) == G
    assert point_sum([base_mul(a), base_mul(b), G]) == base_mul(a + b + ONE)


def test_scalars_from_the_wire_must_be_reduced():
    order = (2 ** 252 + 27742317777372353535851937790883648493).to_bytes(32, "little")
    with pytest.raises(GroupError, match="reduced"):
        Scalar.from_wire(order)
    assert Scalar.from_wire(scalar(5).raw) == scalar(5)
    with pytest.raises(GroupError):
        Scalar.from_wire(b"\x01" * 31)


def test_values_are_immutable_and_compare_by_encoding():
    p = base_mul(scalar(3))
    with pytest.raises(AttributeError):
        p.raw = b""
    assert p == Point(bytes(p.raw)) and hash(p) == hash(Point(bytes(p.raw)))
    assert p != p.raw


def test_hashing_to_scalars_is_domain_separated_and_framed():
    assert Scalar.from_hash(b"a", b"x") != Scalar.from_hash(b"b", b"x")
    assert Scalar.from_hash(b"a", b"xy", b"z") != Scalar.from_hash(b"a", b"x", b"yz")
