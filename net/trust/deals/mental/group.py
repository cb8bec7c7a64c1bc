"""A thin typed layer over libsodium's edwards25519 group, through PyNaCl's bindings.

Why PyNaCl and Ed25519 (docs/design.md, "The group and the library", says more): PyNaCl
is kept by PyCA, its wheels carry libsodium inside, and PyInstaller bundles it with no
help. It exposes libsodium's edwards25519 point and scalar operations (not
ristretto255). edwards25519 has cofactor 8, so this module deals only in points of the
prime-order subgroup: every point that comes from outside is checked with
``crypto_core_ed25519_is_valid_point`` (canonical encoding, on the curve, in the main
subgroup, not of small order) before it is used, and libsodium's own
``crypto_scalarmult_ed25519_noclamp`` refuses any other point. No field or curve
arithmetic is done here: every operation is one libsodium call.

``Scalar`` and ``Point`` are small immutable values over their 32-byte encodings;
equality and hashing are by encoding. Scalars are reduced modulo the group order L.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import nacl.bindings as sodium
import nacl.exceptions

from .errors import GroupError

POINT_BYTES = sodium.crypto_core_ed25519_BYTES  # 32
SCALAR_BYTES = sodium.crypto_core_ed25519_SCALARBYTES  # 32
UNIFORM_BYTES = 32  # crypto_core_ed25519_from_uniform's input
#: L, the prime order of the group: a proof with many scalars (``shuffle_proof``) does its
#: scalar arithmetic on Python integers modulo L (a libsodium call costs more than the
#: arithmetic); every point operation is still libsodium's.
ORDER = 2**252 + 27742317777372353535851937790883648493
IDENTITY = bytes([1]) + bytes(31)  # the neutral point's encoding (never a valid point)


class _Encoded:
    """An immutable value over its 32-byte encoding; equal when type and bytes are."""

    __slots__ = ("raw",)
    raw: bytes  # the slot, set once by __init__ (declared here for the type checker)

    def __init__(self, raw: bytes):
        object.__setattr__(self, "raw", raw)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.raw[:4].hex()}…)"


class Scalar(_Encoded):
    """An integer modulo the group order, as its 32-byte little-endian encoding."""

    __slots__ = ()

    @classmethod
    def from_hash(cls, domain: bytes, *parts: bytes) -> "Scalar":
        """SHA-512 of the domain and the length-prefixed parts, reduced modulo L."""
        digest = hashlib.sha512(framed(domain, parts)).digest()
        return cls(sodium.crypto_core_ed25519_scalar_reduce(digest))

    @classmethod
    def from_int(cls, value: int) -> "Scalar":
        return cls((value % ORDER).to_bytes(SCALAR_BYTES, "little"))

    def __int__(self) -> int:
        return int.from_bytes(self.raw, "little")

    @classmethod
    def from_wire(cls, raw: object) -> "Scalar":
        """A scalar received from a peer: 32 bytes, already reduced (canonical)."""
        if not isinstance(raw, bytes) or len(raw) != SCALAR_BYTES:
            raise GroupError(f"a scalar is {SCALAR_BYTES} bytes")
        if sodium.crypto_core_ed25519_scalar_reduce(raw + bytes(32)) != raw:
            raise GroupError("a scalar must be reduced modulo the group order")
        return cls(raw)

    def __add__(self, other: "Scalar") -> "Scalar":
        return Scalar(sodium.crypto_core_ed25519_scalar_add(self.raw, other.raw))

    def __sub__(self, other: "Scalar") -> "Scalar":
        return Scalar(sodium.crypto_core_ed25519_scalar_sub(self.raw, other.raw))

    def __mul__(self, other: "Scalar") -> "Scalar":
        """``scalar * scalar`` is a scalar; ``scalar * point`` is ``Point.__rmul__``."""
        if type(other) is not Scalar:
            return NotImplemented
        return Scalar(sodium.crypto_core_ed25519_scalar_mul(self.raw, other.raw))


    def is_zero(self) -> bool:
        return not any(self.raw)


class Point(_Encoded):
    """A point of the prime-order subgroup, as its canonical 32-byte encoding."""

    __slots__ = ()

    @classmethod
    def from_wire(cls, raw: object) -> "Point":
        """A point received from a peer, checked to lie in the prime-order subgroup."""
        if not isinstance(raw, bytes) or len(raw) != POINT_BYTES:
            raise GroupError(f"a point is {POINT_BYTES} bytes")
        if not sodium.crypto_core_ed25519_is_valid_point(raw):
            raise GroupError("those bytes are not a point of the prime-order group")
        return cls(raw)

    @classmethod
    def from_uniform(cls, uniform: bytes) -> "Point":
        """libsodium's hash-to-group map (Elligator 2, then the cofactor cleared)."""
        return cls(sodium.crypto_core_ed25519_from_uniform(uniform))

    def __add__(self, other: "Point") -> "Point":
        return Point(_call(sodium.crypto_core_ed25519_add, self.raw, other.raw))

    def __sub__(self, other: "Point") -> "Point":
        return Point(_call(sodium.crypto_core_ed25519_sub, self.raw, other.raw))

    def __rmul__(self, scalar: Scalar) -> "Point":
        """``scalar * point``; libsodium refuses a point outside the main subgroup."""
        return Point(_call(sodium.crypto_scalarmult_ed25519_noclamp, scalar.raw, self.raw))



def base_mul(scalar: Scalar) -> Point:
    """``scalar * G`` with libsodium's precomputed base-point table (about five times
    cheaper than a variable-base multiplication)."""
    return Point(_call(sodium.crypto_scalarmult_ed25519_base_noclamp, scalar.raw))


def point_sum(points: Iterable[Point]) -> Point:
    points = iter(points)
    total = next(points)
    for point in points:
        total = total + point
    return total


def is_valid_point(raw: bytes) -> bool:
    return isinstance(raw, bytes) and len(raw) == POINT_BYTES and \
        bool(sodium.crypto_core_ed25519_is_valid_point(raw))


def _call(function, *args) -> bytes:
    try:
        return function(*args)
    except (nacl.exceptions.RuntimeError, nacl.exceptions.ValueError,
            nacl.exceptions.TypeError) as exc:
        # libsodium says no: a point outside the main subgroup, or a result at infinity
        raise GroupError(f"group operation refused ({exc})") from None


def framed(domain: bytes, parts: Iterable[bytes]) -> bytes:
    """The domain then every part prefixed by its length: no two inputs frame alike."""
    out = [len(domain).to_bytes(2, "big"), domain]
    for part in parts:
        out.append(len(part).to_bytes(4, "big"))
        out.append(part)
    return b"".join(out)


ONE = Scalar.from_int(1)
G = base_mul(ONE)  # the Ed25519 base point
if not Scalar(sodium.crypto_core_ed25519_scalar_reduce(ORDER.to_bytes(64, "little"))).is_zero():
    raise GroupError("ORDER is not libsodium's group order")  # never: a typo guard
