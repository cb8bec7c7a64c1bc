"""Canonical msgpack encoding: the same plain value gives the same bytes everywhere.

Dict keys are sorted (so insertion order never matters), tuples become lists, and only
plain types are allowed — no floats, which could round differently between peers.
"""

from __future__ import annotations

import hashlib

import msgpack


def canonical(value):
    """``value`` rewritten with dicts as key-sorted lists of pairs; rejects floats."""
    if isinstance(value, dict):
        return [[k, canonical(value[k])] for k in sorted(value)]
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return value
    raise TypeError(f"not a canonical plain value: {type(value).__name__}")


def encode(value) -> bytes:
    return msgpack.packb(canonical(value), use_bin_type=True)


def digest(value) -> str:
    """Hex SHA-256 of the canonical encoding."""
    return hashlib.sha256(encode(value)).hexdigest()
