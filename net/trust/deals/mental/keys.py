"""Which deal this is, and a party's secrets for it, derived from its identity key.

A party's secrets for one deal come from one Ed25519 signature by its identity key
(``net.wire.identity.Identity.sign``) over

    canonical(["parlour-mental-secret/1", {"table": t, "hand": n, "attempt": a}])

Ed25519 signing is deterministic (RFC 8032), so a client that restarts signs the same
bytes again and gets the same secrets: it can go on with the deal where it stopped, and
every message it sends again is byte-identical. ``attempt`` counts the deals of one hand
(a deal restarted after a drop, a Rook redeal): each has fresh secrets. The domain
keeps this signature apart from every other signature the key makes (entries, actions,
contributions are signed over other domains).

From the 64-byte signature σ, each a SHA-512 with its own domain:

* ``x``, the party's ElGamal key share (reduced modulo L), and ``X = x·G``;
* the shuffle seed (32 bytes): the permutation and re-encryption randomness;
* the nonce key: the proofs' deterministic nonces, and the commitments' salts.

At the end of the hand the party publishes σ. Every peer checks it is a valid signature
by the party's identity key over that context, derives the same values, checks ``X``,
and redoes the party's shuffle. σ says nothing about the identity key, and the hand is
over: its cards are public by then anyway.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from engine import canonical
from net.wire.identity import verify

from .errors import MentalError
from .group import Point, Scalar, base_mul

SECRET_DOMAIN = "parlour-mental-secret/1"
CONTEXT_DOMAIN = "parlour-mental/1"
SIGNATURE_BYTES = 64


@dataclass(frozen=True)
class DealContext:
    """One deal: the table's id, the hand number, the deal attempt within the hand."""

    table: str
    hand: int
    attempt: int = 0

    def plain(self) -> dict:
        return {"table": self.table, "hand": self.hand, "attempt": self.attempt}

    def signed_bytes(self) -> bytes:
        """What a party signs to derive its secrets for this deal."""
        return canonical.encode([SECRET_DOMAIN, self.plain()])

    def transcript(self, purpose: str, **fields) -> bytes:
        """The Fiat–Shamir context of one proof: this deal, what it proves, by whom."""
        return canonical.encode([CONTEXT_DOMAIN, self.plain(), purpose, fields])

    def next_attempt(self) -> "DealContext":
        return DealContext(self.table, self.hand, self.attempt + 1)


@dataclass(frozen=True, eq=False)
class PartySecrets:
    """Everything secret one party holds for one deal, all from one signature."""

    signature: bytes
    x: Scalar
    key: Point
    shuffle_seed: bytes
    nonce_key: bytes

    @classmethod
    def derive(cls, identity, context: DealContext) -> "PartySecrets":
        """From the local identity (``net.wire.identity.Identity``)."""
        return cls.from_signature(identity.sign(context.signed_bytes()))

    @classmethod
    def revealed(cls, public_key: bytes, context: DealContext, signature: object) -> "PartySecrets":
        """From the signature a peer revealed; MentalError if it is not that peer's."""
        if not isinstance(signature, bytes) or not verify(public_key, signature,
                                                          context.signed_bytes()):
            raise MentalError("the revealed secret is not this party's signature for this deal")
        return cls.from_signature(signature)

    @classmethod
    def from_signature(cls, signature: bytes) -> "PartySecrets":
        if len(signature) != SIGNATURE_BYTES:
            raise MentalError(f"a deal secret is a {SIGNATURE_BYTES}-byte signature")
        x = Scalar.from_hash(b"parlour-mental-share-key/1", signature)
        if x.is_zero():  # probability 2^-252; a zero key would be no key
            raise MentalError("this signature gives a zero key share")
        return cls(signature, x, base_mul(x),
                   hashlib.sha512(b"parlour-mental-shuffle/1" + signature).digest()[:32],
                   hashlib.sha512(b"parlour-mental-nonce-key/1" + signature).digest())

    def salt(self, label: str) -> bytes:
        """A 32-byte salt for a commitment (deterministic, secret until the reveal)."""
        return hashlib.sha512(b"parlour-mental-salt/1" + self.nonce_key + label.encode()).digest()[:32]
