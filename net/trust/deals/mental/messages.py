"""The deal's messages: plain msgpack-able dicts, and their checks.

Every message is public: it goes to the host, which logs it in its signed, hash-chained
log and so sends it to every party (the sender included). The sender is not a field:
the session knows it from the signed envelope the message came in, and checks that it is
``parties[sender].key``. ``hand`` and ``attempt`` say which deal it belongs to.
Sizes (msgpack, measured for Rook: tests/net/trust/mental/test_machine.py):

| type | fields | bytes |
|---|---|---|
| ``mental-key`` | ``key`` (32), ``proof`` (64) | 142 |
| ``mental-shuffle`` | ``deck`` (64 per card), ``proof`` (96 per card + 352; none in a log from before protocol 14) | 160·N + 405 |
| ``mental-shares`` | ``batches``: [{``to`` (party or nil = everyone), ``positions``, ``shares`` (32 each), ``proof`` (64)}] | 33·n + 98 a batch of n, + 44 |
| ``mental-play`` | ``seat``, ``position``, ``share`` (32) and ``proof`` (64), or nil for a face-up card (in the sessions: inside the move that plays it) | 161 (63) |
| ``mental-show`` | ``seat``, ``positions``, ``shares`` (32 each), ``proof`` (64) | 561 for a 13-card hand |
| ``mental-commit`` | ``seat``, ``label``, ``count``, ``digest`` (32) | 100 |
| ``mental-reveal`` | ``reason`` (``end`` or ``audit``), ``secret`` (64), ``openings``: [{``seat``, ``label``, ``positions``}] | 129, + 34 an opening |

``docs/protocol.md`` ("The mental-poker deal") says when each is sent and what is
checked. ``check`` validates shape, types and lengths only; the machine checks meaning.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from .errors import BadMessage
from .group import POINT_BYTES
from .proofs import PROOF_BYTES
from .shuffle_proof import proof_bytes

Bad = Callable[[str], NoReturn]  # raises BadMessage naming the sender

KEY = "mental-key"
SHUFFLE = "mental-shuffle"
SHARES = "mental-shares"
PLAY = "mental-play"
SHOW = "mental-show"
COMMIT = "mental-commit"
REVEAL = "mental-reveal"
REASONS = ("end", "audit")
MAX_LABEL = 16

_FIELDS = {
    KEY: {"key", "proof"},
    SHUFFLE: {"deck"},
    SHARES: {"batches"},
    PLAY: {"seat", "position", "share", "proof"},
    SHOW: {"seat", "positions", "shares", "proof"},
    COMMIT: {"seat", "label", "count", "digest"},
    REVEAL: {"reason", "secret", "openings"},
}


def make(kind: str, hand: int, attempt: int, **fields) -> dict:
    return {"type": kind, "hand": hand, "attempt": attempt, **fields}


def check(message: object, sender: int, deck_size: int, proven: bool = True) -> dict:
    """The message if it is well formed; BadMessage (naming ``sender``) if not. A shuffle
    of a ``proven`` deal carries its proof; one logged before protocol 14 none."""
    def bad(why: str) -> NoReturn:
        raise BadMessage(why, sender)

    if not isinstance(message, dict) or message.get("type") not in _FIELDS:
        bad("not a deal message")
    kind = message["type"]
    expected = _FIELDS[kind] | {"type", "hand", "attempt"}
    if kind == SHUFFLE and proven:
        expected = expected | {"proof"}
    if set(message) != expected:
        bad(f"'{kind}' must have exactly the fields {sorted(expected)}")
    _int(message["hand"], "hand", bad)
    _int(message["attempt"], "attempt", bad)
    if kind == KEY:
        _bytes(message["key"], POINT_BYTES, "key", bad)
        _bytes(message["proof"], PROOF_BYTES, "proof", bad)
    elif kind == SHUFFLE:
        _bytes(message["deck"], 2 * POINT_BYTES * deck_size, "deck", bad)
        if proven:
            _bytes(message["proof"], proof_bytes(deck_size), "proof", bad)
    elif kind == SHARES:
        if not isinstance(message["batches"], list) or not message["batches"]:
            bad("'batches' must be a non-empty list")
        for batch in message["batches"]:
            if not isinstance(batch, dict) or set(batch) != {"to", "positions", "shares", "proof"}:
                bad("a batch has exactly 'to', 'positions', 'shares', 'proof'")
            if batch["to"] is not None:
                _int(batch["to"], "to", bad)
            _batch(batch, deck_size, bad)
    elif kind == PLAY:
        _int(message["seat"], "seat", bad)
        _position(message["position"], deck_size, bad)
        if (message["share"] is None) != (message["proof"] is None):
            bad("a play has both 'share' and 'proof', or neither")
        if message["share"] is not None:
            _bytes(message["share"], POINT_BYTES, "share", bad)
            _bytes(message["proof"], PROOF_BYTES, "proof", bad)
    elif kind == SHOW:
        _int(message["seat"], "seat", bad)
        _batch(message, deck_size, bad)
    elif kind == COMMIT:
        _int(message["seat"], "seat", bad)
        _label(message["label"], bad)
        _int(message["count"], "count", bad)
        _bytes(message["digest"], 32, "digest", bad)
    elif kind == REVEAL:
        if message["reason"] not in REASONS:
            bad(f"'reason' must be one of {REASONS}")
        _bytes(message["secret"], 64, "secret", bad)
        if not isinstance(message["openings"], list):
            bad("'openings' must be a list")
        for opening in message["openings"]:
            if not isinstance(opening, dict) or set(opening) != {"seat", "label", "positions"}:
                bad("an opening has exactly 'seat', 'label', 'positions'")
            _int(opening["seat"], "seat", bad)
            _label(opening["label"], bad)
            _positions(opening["positions"], deck_size, bad, allow_empty=True)
    return message


def _batch(batch: dict, deck_size: int, bad: Bad) -> None:
    _positions(batch["positions"], deck_size, bad)
    _bytes(batch["shares"], POINT_BYTES * len(batch["positions"]), "shares", bad)
    _bytes(batch["proof"], PROOF_BYTES, "proof", bad)


def _int(value, name, bad: Bad) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        bad(f"'{name}' must be a whole number ≥ 0")


def _bytes(value, length, name, bad: Bad) -> None:
    if not isinstance(value, bytes) or len(value) != length:
        bad(f"'{name}' must be {length} bytes")


def _label(value, bad: Bad) -> None:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_LABEL:
        bad(f"'label' must be a name of 1 to {MAX_LABEL} characters")


def _position(value, deck_size, bad: Bad) -> None:
    _int(value, "position", bad)
    if value >= deck_size:
        bad(f"position {value} is outside a deck of {deck_size}")


def _positions(values, deck_size, bad: Bad, allow_empty=False) -> None:
    if not isinstance(values, list) or (not values and not allow_empty):
        bad("'positions' must be a non-empty list")
    for value in values:
        _position(value, deck_size, bad)
    if len(set(values)) != len(values) or values != sorted(values):
        bad("'positions' must be ascending, each once")
