"""Every message of the trust protocol, as plain dicts: names, builders and schemas.

Nothing here does I/O. A message is a dict with a ``type``; the framing layer turns it
into msgpack. Anything that is signed is signed over ``engine.canonical.encode`` of
``[domain, body]``: the domain string keeps a signature over a log entry from ever
passing for a signature over an action or a contribution, and the canonical encoding
makes the signed bytes the same on every machine.

A signed thing travels as ``{"body": {...}, "sig": <64 bytes>}`` (an *envelope*).

Host → peer::

  {"type": "entry", "entry": SignedEntry, "events": [engine events],
   "public": State.public_view() | None,             hashes to the entry's state_hash
   "private": {"view": State.view(you) | None, "action": your secret action | None}}
  {"type": "sync", "entries": [entry message, …], "last": bool}
  {"type": "error", "reason": str}                 your message was refused; game goes on
  {"type": "refused", "reason": str}               your rejoin was refused

Peer → host::

  {"type": "contribution", "signed": Envelope(ContributionBody)}
  {"type": "action", "signed": Envelope(ActionBody),
   "private": {"action": full action JSON, "nonce": 16 bytes} | None}
  {"type": "rejoin", "seat": int, "last_seq": int}      -1 = from the start

``rejoin`` never travels on a session link: a peer sends ``join`` with its seat and
last seq, and the host's session hands the authority this message for it.

``check(message)`` returns the message or raises ``ProtocolError`` naming the first
thing wrong; every receiver calls it before looking inside.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine import canonical

from net.wire.identity import verify as _verify

# -- names -----------------------------------------------------------------------------
PROTOCOL = "parlour-trust/2"
ENTRY_DOMAIN = "parlour-entry/1"
ACTION_DOMAIN = "parlour-action/1"
CONTRIBUTION_DOMAIN = "parlour-contribution/1"
HIDDEN_DOMAIN = b"parlour-hidden/1"

ENTRY, SYNC, ERROR, REFUSED = "entry", "sync", "error", "refused"
CONTRIBUTION, ACTION, REJOIN = "contribution", "action", "rejoin"
HOST_TO_PEER = (ENTRY, SYNC, ERROR, REFUSED)
PEER_TO_HOST = (CONTRIBUTION, ACTION, REJOIN)

HASH_BYTES = 32
SIG_BYTES = 64
KEY_BYTES = 32
RANDOM_BYTES = 32
NONCE_BYTES = 16
GENESIS_PREV = bytes(HASH_BYTES)
SYNC_CHUNK = 40  # entries per sync message: a chunk stays far below the frame limit


class ProtocolError(ValueError):
    """A message that does not follow the protocol's shape; ``str`` says what is wrong."""


# -- signing ---------------------------------------------------------------------------
def signed_bytes(domain: str, body: dict) -> bytes:
    return canonical.encode([domain, body])


def seal(signer, domain: str, body: dict) -> dict:
    """An envelope: ``body`` signed by ``signer`` (anything with ``.sign(bytes)``)."""
    return {"body": body, "sig": signer.sign(signed_bytes(domain, body))}


def opens(key: bytes, domain: str, envelope: dict) -> bool:
    """Whether ``envelope`` carries ``key``'s signature over its body; never raises."""
    try:
        data = signed_bytes(domain, envelope["body"])
    except (TypeError, KeyError):
        return False
    sig = envelope.get("sig")
    if not isinstance(key, bytes) or not isinstance(sig, bytes):
        return False
    return _verify(key, sig, data)


def hidden_digest(nonce: bytes, full_action: dict) -> bytes:
    """What a player signs in place of a secret action (a discard, a bury): salted, so
    the few possible discards cannot be tried one by one against it."""
    return hashlib.sha256(HIDDEN_DOMAIN + nonce + canonical.encode(full_action)).digest()


# -- builders --------------------------------------------------------------------------
def entry_message(signed_entry: dict, events: list | None = None, public: dict | None = None,
                  view: dict | None = None, action: dict | None = None) -> dict:
    # Engine events are read-only dicts (engine.events.Event); a message holds plain ones.
    return {"type": ENTRY, "entry": signed_entry, "events": [dict(e) for e in events or ()],
            "public": public, "private": {"view": view, "action": action}}


def sync_message(entries: list[dict], last: bool = True) -> dict:
    return {"type": SYNC, "entries": entries, "last": last}


def error_message(reason: str) -> dict:
    return {"type": ERROR, "reason": reason}


def refused_message(reason: str) -> dict:
    return {"type": REFUSED, "reason": reason}


def action_body(table: str, hand: int, seen: int, head: bytes, action: dict,
                hidden: bytes | None = None) -> dict:
    return {"table": table, "hand": hand, "seen": seen, "head": head, "action": action,
            "hidden": hidden}


def action_message(signed: dict, private: dict | None = None) -> dict:
    return {"type": ACTION, "signed": signed, "private": private}


def contribution_body(table: str, hand: int, seat: int, commitment: bytes, random: bytes) -> dict:
    return {"table": table, "hand": hand, "seat": seat, "commitment": commitment,
            "random": random}


def contribution_message(signed: dict) -> dict:
    return {"type": CONTRIBUTION, "signed": signed}


def rejoin_message(seat: int, last_seq: int) -> dict:
    return {"type": REJOIN, "seat": seat, "last_seq": last_seq}


# -- schema ----------------------------------------------------------------------------
# A schema maps a field to a checker; checkers are small predicates so that a schema
# reads like the table in the docstring above.
def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _nat(v) -> bool:
    return _int(v) and 0 <= v < 1 << 62


def _str(v) -> bool:
    return isinstance(v, str) and len(v) <= 1000


def _bytes(n: int):
    return lambda v: isinstance(v, bytes) and len(v) == n


def _opt(check):
    return lambda v: v is None or check(v)


def _dict(v) -> bool:
    return isinstance(v, dict)


def _list(v) -> bool:
    return isinstance(v, list)


_SCALARS = frozenset({type(None), bool, int, str, bytes})
_MAX_DEPTH = 12


def _plain(v) -> bool:
    """A canonical plain value (what may be signed): no floats, string keys.

    Every entry message carries whole views, so this walk runs over thousands of values
    per message: it is iterative and checks exact types (what msgpack decodes to)."""
    stack = [(v, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        value, depth = pop()
        kind = type(value)
        if kind in _SCALARS:
            continue
        if depth >= _MAX_DEPTH:
            return False
        if kind is dict:
            for key, item in value.items():
                if type(key) is not str:
                    return False
                if type(item) not in _SCALARS:
                    push((item, depth + 1))
        elif kind is list or kind is tuple:
            for item in value:
                if type(item) not in _SCALARS:
                    push((item, depth + 1))
        else:
            return False
    return True


def _envelope(body_schema: dict):
    def check(v) -> bool:
        if not (_dict(v) and set(v) == {"body", "sig"} and _bytes(SIG_BYTES)(v["sig"])):
            return False
        return _fits(v["body"], body_schema) is None
    return check


ACTION_BODY = {"table": _str, "hand": _nat, "seen": _nat, "head": _bytes(HASH_BYTES),
               "action": lambda v: _dict(v) and _plain(v) and _nat(v.get("seat")),
               "hidden": _opt(_bytes(HASH_BYTES))}
CONTRIBUTION_BODY = {"table": _str, "hand": _nat, "seat": _nat,
                     "commitment": _bytes(HASH_BYTES), "random": _bytes(RANDOM_BYTES)}
ENTRY_BODY = {"table": _str, "seq": _nat, "prev": _bytes(HASH_BYTES), "kind": _str,
              "body": lambda v: _dict(v) and _plain(v),
              "state_hash": _opt(lambda v: isinstance(v, str) and len(v) == 64)}
SIGNED_ENTRY = _envelope(ENTRY_BODY)


def _signed_entry(v) -> bool:
    # An entry envelope is {"entry", "sig"}, not {"body", "sig"}: the log is read by
    # people too, and "entry" says what it is.
    return (_dict(v) and set(v) == {"entry", "sig"} and _bytes(SIG_BYTES)(v["sig"])
            and _fits(v["entry"], ENTRY_BODY) is None)


def _private(v) -> bool:
    return (_dict(v) and set(v) == {"view", "action"} and _opt(_dict)(v["view"])
            and _opt(_dict)(v["action"]) and _plain(v))


def _entry_message(v) -> bool:
    return _fits(v, ENTRY_MESSAGE) is None and v.get("type") == ENTRY


ENTRY_MESSAGE = {"type": _str, "entry": _signed_entry,
                 "events": lambda v: _list(v) and _plain(v),
                 "public": lambda v: v is None or (_dict(v) and _plain(v)), "private": _private}
SCHEMAS = {
    ENTRY: ENTRY_MESSAGE,
    SYNC: {"type": _str, "entries": lambda v: _list(v) and all(_entry_message(e) for e in v),
           "last": lambda v: isinstance(v, bool)},
    ERROR: {"type": _str, "reason": _str},
    REFUSED: {"type": _str, "reason": _str},
    CONTRIBUTION: {"type": _str, "signed": _envelope(CONTRIBUTION_BODY)},
    ACTION: {"type": _str, "signed": _envelope(ACTION_BODY),
             "private": lambda v: v is None or (
                 _dict(v) and set(v) == {"action", "nonce"} and _dict(v["action"])
                 and _plain(v["action"]) and _bytes(NONCE_BYTES)(v["nonce"]))},
    REJOIN: {"type": _str, "seat": _nat, "last_seq": lambda v: _int(v) and -1 <= v < 1 << 62},
}


def _fits(value: Any, schema: dict) -> str | None:
    """None if ``value`` has exactly the schema's fields, each passing its check; else
    the name of the first field that does not."""
    if not isinstance(value, dict):
        return "(not a map)"
    for key in value:
        if key not in schema:
            return f"{key!r} (unexpected)"
    for key, check in schema.items():
        if key not in value:
            return f"{key!r} (missing)"
        if not check(value[key]):
            return repr(key)
    return None


def check(message: Any, allowed: tuple[str, ...] | None = None) -> dict:
    """``message`` if it is a well-formed protocol message (of one of ``allowed`` types);
    else ProtocolError saying what is wrong."""
    if not isinstance(message, dict):
        raise ProtocolError("a message is a map with a \"type\"")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS or (allowed is not None and kind not in allowed):
        raise ProtocolError(f"unexpected message type {kind!r}")
    try:
        bad = _fits(message, SCHEMAS[kind])
    except (TypeError, ValueError, RecursionError):
        bad = "(unreadable)"
    if bad is not None:
        raise ProtocolError(f"{kind} message: bad field {bad}")
    return message
