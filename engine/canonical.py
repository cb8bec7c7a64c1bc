"""Canonical msgpack encoding: the same plain value gives the same bytes everywhere.

Dict keys are sorted (so insertion order never matters), tuples become lists, and only
plain types are allowed — no floats, which could round differently between peers.
"""

from __future__ import annotations

import hashlib
from operator import itemgetter

import msgpack


# The exact types that stand for themselves. Views and log entries are mostly these,
# so canonical() passes them through without a call per value (hashing a state's view
# after every action made that the cost of a hash); anything else, subclasses
# included, takes the general rules in _canonical.
_PLAIN = frozenset({str, int, bool, type(None), bytes})


def canonical(value):
    """``value`` rewritten with dicts as key-sorted lists of pairs; rejects floats."""
    kind = type(value)
    if kind is dict:
        return [[k, v if type(v) in _PLAIN else canonical(v)]
                for k, v in sorted(value.items(), key=itemgetter(0))]
    if kind is list or kind is tuple:
        return [v if type(v) in _PLAIN else canonical(v) for v in value]
    if kind in _PLAIN:
        return value
    return _canonical(value)


def _canonical(value):
    """The rules for any value, as canonical() applies them to the common types."""
    if isinstance(value, dict):
        return [[k, canonical(value[k])] for k in sorted(value)]
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return value
    raise TypeError(f"not a canonical plain value: {type(value).__name__}")


def encode(value) -> bytes:
    return pack(canonical(value))


def pack(value) -> bytes:
    """The encoding of a value already in canonical form (what ``canonical`` gives, or
    lists of such): ``encode`` without rewriting it again, for a caller that encodes one
    value in more than one way (a log entry is hashed and signed)."""
    return msgpack.packb(value, use_bin_type=True)


def digest(value) -> str:
    """Hex SHA-256 of the canonical encoding."""
    return hashlib.sha256(encode(value)).hexdigest()
