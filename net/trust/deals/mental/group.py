"""A thin typed layer over the secp256k1 group, through coincurve (libsecp256k1).

Why secp256k1 and coincurve (docs/design.md, "The group and the library", says more):
coincurve binds Bitcoin Core's libsecp256k1, the most scrutinised implementation of any
elliptic-curve group, and its wheels carry the library inside. secp256k1 has prime
order (cofactor 1): every point on the curve is in the group, so parsing a point —
which checks it lies on the curve — is the whole check, and no multiplication pays for a
subgroup check (libsodium's edwards25519 did, inside every call). No field or curve
arithmetic is done here: every point operation is one libsecp256k1 call. Every
multiplication is libsecp256k1's constant-time one (``secp256k1_ec_pubkey_tweak_mul``, or
``secp256k1_ec_pubkey_create`` for ``base_mul``), whatever the scalar: a party's key
share, its shuffle's re-encryption randomness and its proofs' nonces are all secret.

``Scalar`` is an integer modulo the group order n as 32 bytes, big-endian (as
libsecp256k1 reads a scalar), and canonical (< n) on the wire; its arithmetic is on
Python integers (cheaper than any call). ``Point`` is a point as its 33-byte compressed
SEC1 encoding (``02``/``03`` for the parity of y, then x); equality and hashing are by
encoding. A point keeps libsecp256k1's parsed form once it has one, so a point is parsed
(a square root) once however often it is used, and a point an operation made is only
serialised when its bytes are asked for. A point built from bytes that came from outside
is checked when it is first used: ``from_wire`` at once, ``Point(raw)`` by the first
operation (which raises ``GroupError``).

The identity — the neutral point — has no encoding (SEC1's single byte ``00`` is no
33-byte point): ``IDENTITY`` is a value only a sum can yield (``P + (−P)``), as
libsodium's additions did; it is never a point of a message, multiplying it is refused
(``GroupError``), as is multiplying by zero: a product is never the identity.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from coincurve import PublicKey

from .errors import GroupError

GROUP_NAME = "secp256k1"  # what a "mental-deal" entry says it deals in (protocol 16)
POINT_BYTES = 33  # compressed SEC1: a prefix byte (02 or 03), then x
SCALAR_BYTES = 32
UNIFORM_BYTES = 32  # from_uniform's input
#: n, the prime order of the group. Scalars are integers modulo n; a proof with many
#: scalars (``shuffle_proof``) does its arithmetic on Python integers modulo n.
ORDER = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
_HASH_TO_GROUP = b"parlour-secp256k1-point/1"


class Scalar:
    """An integer modulo the group order, as its 32-byte big-endian encoding."""

    __slots__ = ("raw",)
    raw: bytes  # the slot, set once by __init__ (declared here for the type checker)

    def __init__(self, raw: bytes):
        object.__setattr__(self, "raw", raw)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is Scalar and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return f"Scalar({self.raw[:4].hex()}…)"

    @classmethod
    def from_hash(cls, domain: bytes, *parts: bytes) -> "Scalar":
        """SHA-512 of the domain and the length-prefixed parts, big-endian, modulo n."""
        digest = hashlib.sha512(framed(domain, parts)).digest()
        return cls.from_int(int.from_bytes(digest, "big"))

    @classmethod
    def from_int(cls, value: int) -> "Scalar":
        return cls((value % ORDER).to_bytes(SCALAR_BYTES, "big"))

    def __int__(self) -> int:
        return int.from_bytes(self.raw, "big")

    @classmethod
    def from_wire(cls, raw: object) -> "Scalar":
        """A scalar received from a peer: 32 bytes, already reduced (canonical)."""
        if not isinstance(raw, bytes) or len(raw) != SCALAR_BYTES:
            raise GroupError(f"a scalar is {SCALAR_BYTES} bytes")
        if int.from_bytes(raw, "big") >= ORDER:
            raise GroupError("a scalar must be reduced modulo the group order")
        return cls(raw)

    def __add__(self, other: "Scalar") -> "Scalar":
        return Scalar.from_int(int(self) + int(other))

    def __sub__(self, other: "Scalar") -> "Scalar":
        return Scalar.from_int(int(self) - int(other))

    def __mul__(self, other: "Scalar") -> "Scalar":
        """``scalar * scalar`` is a scalar; ``scalar * point`` is ``Point.__rmul__``."""
        if type(other) is not Scalar:
            return NotImplemented
        return Scalar.from_int(int(self) * int(other))

    def is_zero(self) -> bool:
        return not any(self.raw)


class Point:
    """A point of the group, as its 33-byte compressed encoding (or ``IDENTITY``)."""

    __slots__ = ("_raw", "_parsed")
    _raw: bytes | None  # None until a point an operation made is asked for its bytes
    _parsed: PublicKey | None  # None until the point is first used

    def __init__(self, raw: bytes):
        """A point over bytes not checked yet: the first operation on it checks them."""
        object.__setattr__(self, "_raw", raw)
        object.__setattr__(self, "_parsed", None)

    @classmethod
    def _made(cls, parsed: PublicKey) -> "Point":
        point = cls.__new__(cls)
        object.__setattr__(point, "_raw", None)
        object.__setattr__(point, "_parsed", parsed)
        return point

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Point is immutable")

    @property
    def raw(self) -> bytes:
        if self._raw is None:
            assert self._parsed is not None  # (a point has bytes, a parsed form, or both)
            object.__setattr__(self, "_raw", self._parsed.format(compressed=True))
        assert self._raw is not None
        return self._raw

    def __eq__(self, other: object) -> bool:
        return type(other) is Point and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return "Point(identity)" if self is IDENTITY else f"Point({self.raw[:4].hex()}…)"

    def _key(self) -> PublicKey:
        """libsecp256k1's form of the point, parsed once (which checks it is on the curve)."""
        if self._parsed is None:
            raw = self._raw
            if self is IDENTITY:
                raise GroupError("the identity cannot be multiplied")
            if not isinstance(raw, bytes) or len(raw) != POINT_BYTES:
                raise GroupError(f"a point is {POINT_BYTES} bytes")
            object.__setattr__(self, "_parsed", _parse(raw))
        assert self._parsed is not None
        return self._parsed

    @classmethod
    def from_wire(cls, raw: object) -> "Point":
        """A point received from a peer: 33 bytes that libsecp256k1 parses (02 or 03, then
        an x below the field's prime whose y exists: the point is on the curve)."""
        if not isinstance(raw, bytes):
            raise GroupError(f"a point is {POINT_BYTES} bytes")
        point = cls(raw)
        point._key()
        return point

    @classmethod
    def from_uniform(cls, uniform: bytes) -> "Point":
        """A point nobody knows a discrete logarithm of, from 32 uniform bytes:
        try-and-increment, ``x = SHA-256(domain ‖ uniform ‖ k)`` for k = 0, 1, … (one byte)
        until ``02 ‖ x`` is a point (about two tries). Not constant-time, and need not be:
        its inputs (a card's number, a generator's index) are public."""
        for attempt in range(256):
            x = hashlib.sha256(_HASH_TO_GROUP + uniform + bytes([attempt])).digest()
            try:
                return cls.from_wire(b"\x02" + x)
            except GroupError:
                continue
        raise GroupError("no point in 256 tries")  # never: probability 2^-256

    def __add__(self, other: "Point") -> "Point":
        return point_sum((self, other))

    def __neg__(self) -> "Point":
        """``−P``: the same x, the other y — the prefix byte flipped, no call at all."""
        if self is IDENTITY:
            return self
        raw = self.raw
        return Point(bytes([raw[0] ^ 1]) + raw[1:])  # 02 <-> 03 (anything else stays bad)

    def __sub__(self, other: "Point") -> "Point":
        return point_sum((self, -other))

    def __rmul__(self, scalar: Scalar) -> "Point":
        """``scalar * point``, constant-time in the scalar; the identity or a zero scalar
        (whose product is the identity) is refused."""
        key = self._key()
        if scalar.is_zero():
            raise GroupError("a multiplication by zero")
        return Point._made(_multiply(key, scalar.raw))


#: The neutral point: no encoding, only ever a sum's result.
IDENTITY = Point(b"")


def base_mul(scalar: Scalar) -> Point:
    """``scalar * G`` with libsecp256k1's precomputed table for G (constant-time; about
    two thirds of a variable-base multiplication's cost). Zero is refused."""
    return Point._made(_base_multiply(scalar.raw))


def point_sum(points: Iterable[Point]) -> Point:
    """The sum of the points, in one libsecp256k1 call (``secp256k1_ec_pubkey_combine``:
    the additions on projective coordinates, one inversion at the end); ``IDENTITY`` if
    it is the identity (or there is nothing to add). A point not of the group is
    refused (``GroupError``)."""
    keys = [point._key() for point in points if point is not IDENTITY]
    if not keys:
        return IDENTITY
    if len(keys) == 1:
        return Point._made(keys[0])
    total = _combine(keys)
    return IDENTITY if total is None else Point._made(total)


# -- the four libsecp256k1 calls (net.tools.bench_mental counts them by these names) ----------

def _parse(raw: bytes) -> PublicKey:
    """``secp256k1_ec_pubkey_parse``: 33 bytes to a point, checked to be on the curve."""
    try:
        return PublicKey(raw)
    except ValueError:
        raise GroupError("those bytes are not a point of the group") from None


def _multiply(key: PublicKey, scalar: bytes) -> PublicKey:
    """``secp256k1_ec_pubkey_tweak_mul``: constant-time; 0 < scalar < n."""
    try:
        return key.multiply(scalar)
    except ValueError:  # zero (refused before) or not below n (never: Scalar reduces)
        raise GroupError("a scalar out of range") from None


def _base_multiply(scalar: bytes) -> PublicKey:
    """``secp256k1_ec_pubkey_create``: ``scalar·G``, constant-time, with the table for G."""
    try:
        return PublicKey.from_valid_secret(scalar)
    except ValueError:
        raise GroupError("a multiplication by zero") from None


def _combine(keys: list[PublicKey]) -> PublicKey | None:
    """``secp256k1_ec_pubkey_combine``: the sum, or None at infinity (its only refusal,
    every key being a parsed point)."""
    try:
        return PublicKey.combine_keys(keys)
    except ValueError:
        return None


def is_valid_point(raw: bytes) -> bool:
    try:
        Point.from_wire(raw)
    except GroupError:
        return False
    return True


def framed(domain: bytes, parts: Iterable[bytes]) -> bytes:
    """The domain then every part prefixed by its length: no two inputs frame alike."""
    out = [len(domain).to_bytes(2, "big"), domain]
    for part in parts:
        out.append(len(part).to_bytes(4, "big"))
        out.append(part)
    return b"".join(out)


ONE = Scalar.from_int(1)
G = base_mul(ONE)  # secp256k1's generator
if G.raw != bytes.fromhex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"):
    raise GroupError("G is not secp256k1's generator")  # never: a guard against a wrong curve
