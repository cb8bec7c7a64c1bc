"""Zero-knowledge proofs of the deal, made non-interactive by Fiat–Shamir.

* ``prove_key`` / ``verify_key``: a Schnorr proof that the sender knows the secret
  ``x`` of the key share ``X = x·G`` it publishes, so no party can choose its share as
  a function of the others' (a rogue key that would cancel them).
* ``prove_dleq`` / ``verify_dleq``: a Chaum–Pedersen proof that the decryption shares
  ``Dᵢ = x·Cᵢ`` use the same ``x`` as ``X = x·G``. Several shares are proven at once,
  as RFC 9497 (OPRFs, §2.2.1 "ComputeComposites") does: with weights ``ρᵢ`` hashed from
  the whole statement, one proof for ``Σρᵢ·Cᵢ`` and ``Σρᵢ·Dᵢ`` holds for every pair but
  with probability about 1/L. One share is proven directly (no weights).

Every challenge hashes a domain string, the caller's ``context`` (table, hand, deal
attempt, party, what is proven: docs/protocol.md) and every point of the statement, so
no proof can be replayed in another place. Proofs are ``e ‖ z`` (64 bytes). Nonces are
derived, as in RFC 8032, from a per-hand secret and the whole statement, so a restarted
client makes byte-identical proofs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from .errors import GroupError
from .group import SCALAR_BYTES, G, Point, Scalar, base_mul, framed, point_sum

PROOF_BYTES = 2 * SCALAR_BYTES
_KEY = b"parlour-mental-key-proof/1"
_DLEQ = b"parlour-mental-dleq/1"
_WEIGHTS = b"parlour-mental-batch/1"
_NONCE = b"parlour-mental-nonce/1"


def prove_key(x: Scalar, key: Point, context: bytes, nonce_key: bytes) -> bytes:
    w = Scalar.from_hash(_NONCE, nonce_key, _KEY, context, key.raw)
    t = base_mul(w)
    e = Scalar.from_hash(_KEY, context, G.raw, key.raw, t.raw)
    return e.raw + (w + e * x).raw


def verify_key(key: Point, proof: bytes, context: bytes) -> bool:
    try:
        e, z = _split(proof)
        t = base_mul(z) - e * key
    except GroupError:
        return False
    return Scalar.from_hash(_KEY, context, G.raw, key.raw, t.raw) == e


def composite(key: Point, bases: Sequence[Point], shares: Sequence[Point],
              context: bytes) -> tuple[Point, Point]:
    """``(Σρᵢ·Cᵢ, Σρᵢ·Dᵢ)`` with the weights hashed from the statement; the pair itself
    when there is one."""
    if len(bases) == 1:
        return bases[0], shares[0]
    weights = _weights(key, bases, shares, context)
    return _weighted(weights, bases), _weighted(weights, shares)


def prove_dleq(x: Scalar, key: Point, bases: Sequence[Point], shares: Sequence[Point],
               context: bytes, nonce_key: bytes) -> bytes:
    """Proof that ``shares[i] == x·bases[i]`` for every i and ``key == x·G``."""
    if len(bases) == 1:
        c, d = bases[0], shares[0]
    else:  # the prover knows x: x·Σρᵢ·Cᵢ costs one multiplication, not n
        c = _weighted(_weights(key, bases, shares, context), bases)
        d = x * c
    w = Scalar.from_hash(_NONCE, nonce_key, _DLEQ, context, key.raw, c.raw, d.raw)
    t1, t2 = base_mul(w), w * c
    e = Scalar.from_hash(_DLEQ, context, G.raw, key.raw, c.raw, d.raw, t1.raw, t2.raw)
    return e.raw + (w + e * x).raw


def verify_dleq(key: Point, bases: Sequence[Point], shares: Sequence[Point], proof: bytes,
                context: bytes) -> bool:
    if not bases or len(bases) != len(shares):
        return False
    try:
        e, z = _split(proof)
        c, d = composite(key, bases, shares, context)
        t1 = base_mul(z) - e * key
        t2 = z * c - e * d
    except GroupError:
        return False
    return Scalar.from_hash(_DLEQ, context, G.raw, key.raw, c.raw, d.raw, t1.raw, t2.raw) == e


def _weights(key: Point, bases: Sequence[Point], shares: Sequence[Point],
             context: bytes) -> list[Scalar]:
    seed = hashlib.sha512(framed(_WEIGHTS, [context, key.raw, b"".join(p.raw for p in bases),
                                             b"".join(p.raw for p in shares)])).digest()
    return [Scalar.from_hash(_WEIGHTS, seed, i.to_bytes(4, "big")) for i in range(len(bases))]


def _weighted(weights: Sequence[Scalar], points: Sequence[Point]) -> Point:
    return point_sum(weight * point for weight, point in zip(weights, points))


def _split(proof: bytes) -> tuple[Scalar, Scalar]:
    if not isinstance(proof, bytes) or len(proof) != PROOF_BYTES:
        raise GroupError(f"a proof is {PROOF_BYTES} bytes")
    return Scalar.from_wire(proof[:SCALAR_BYTES]), Scalar.from_wire(proof[SCALAR_BYTES:])
