"""The fixed keys and secrets every test vector is made from (``vectors``, ``mental_vectors``).

Each is derived from a label by SHA-256, so anyone can make the same ones without this
code: a vector's party ``label`` has the Ed25519 private key ``key_seed(label)``.
"""

from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from net.wire.identity import Identity

FORMAT = "parlour-vectors/1"
TABLE = "3f9a07c2b1d4e608-0a1b2c3d"


def key_seed(label: str) -> bytes:
    """The 32-byte Ed25519 private key (RFC 8032 seed) of a vector's party."""
    return hashlib.sha256(b"parlour test vector: " + label.encode()).digest()


def identity(label: str) -> Identity:
    return Identity(Ed25519PrivateKey.from_private_bytes(key_seed(label)), label)


def secret(label: str, n: int = 32) -> bytes:
    return hashlib.sha256(b"parlour test vector secret: " + label.encode()).digest()[:n]
