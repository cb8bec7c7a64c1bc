"""Every message of the trust protocol, as plain dicts: names, builders and schemas.

Nothing here does I/O. A message is a dict with a ``type``; the framing layer turns it
into msgpack. What is signed inside them, and how, is ``net.trust.signing``'s: a
signed thing travels as ``{"body": {...}, "sig": <64 bytes>}`` (an *envelope*).

Host → peer::

  {"type": "entry", "entry": SignedEntry, "events": [engine events],
   "public": State.public_view() | None,             hashes to the entry's state_hash
   "private": {"view": State.private_view(you) | None,   what your view adds to the public
               "action": your secret action | None},
   "sent": 64 bytes}                    the host's signature over what it sent you with
                                        the entry (``net.trust.sent``); a copy kept on
                                        disk may lack it
  {"type": "sync", "entries": [entry message, …], "last": bool}
  {"type": "error", "reason": str,                 your message was refused; game goes on
   "refuses": 64 bytes (optional)}                 the ``sig`` of the signed message it
                                                   refuses (a move, a deal message)
  {"type": "refused", "reason": str}               your rejoin was refused

Peer → host::

  {"type": "contribution", "signed": Envelope(ContributionBody)}
  {"type": "action", "signed": Envelope(ActionBody),
   "private": {"action": full action JSON, "nonce": 16 bytes} | None}
  {"type": "rejoin", "seat": int, "last_seq": int}      -1 = from the start

``rejoin`` never travels on a session link: a peer sends ``join`` with its seat and
last seq, and the host's session hands the authority this message for it.

A restarted host taking back the tail of its log it lost (``net.trust.host.recovery``)::

  host → peer  {"type": "tail_request", "after": int}   your entries after this seq
  peer → host  {"type": "tail", "entries": [SignedEntry, …], "last": bool}
                                                   in order, SYNC_CHUNK a message

``TRUST`` declares these messages, once: the frame layer checks their fields' types
(``heartbeat.WIRE`` includes them), and ``check(message)`` — which every receiver in the
trust code calls before looking inside — checks them all the way down, returning the
message or raising ``ProtocolError`` naming the first thing wrong.
"""

from __future__ import annotations

from typing import Any

from net.wire.framing import Field, ProtocolError, Schemas

# -- names -----------------------------------------------------------------------------
PROTOCOL = "parlour-trust/2"

ENTRY, SYNC, ERROR, REFUSED = "entry", "sync", "error", "refused"
CONTRIBUTION, ACTION, REJOIN = "contribution", "action", "rejoin"
MENTAL = "mental"  # peer -> host: one signed mental-deal message (net.trust.deals.mental.host)
TAIL_REQUEST, TAIL = "tail_request", "tail"
HOST_TO_PEER = (ENTRY, SYNC, ERROR, REFUSED)
PEER_TO_HOST = (CONTRIBUTION, ACTION, REJOIN, MENTAL)
RECOVERY = (TAIL_REQUEST, TAIL)  # a restarted host's own exchange (not the replica's)

HASH_BYTES = 32
SIG_BYTES = 64
KEY_BYTES = 32
RANDOM_BYTES = 32
NONCE_BYTES = 16
GENESIS_PREV = bytes(HASH_BYTES)
SYNC_CHUNK = 40  # entries per sync message: a chunk stays far below the frame limit


# -- builders --------------------------------------------------------------------------
def entry_message(signed_entry: dict, events: list | None = None, public: dict | None = None,
                  view: dict | None = None, action: dict | None = None) -> dict:
    # Engine events are read-only dicts (engine.events.Event); a message holds plain ones.
    return {"type": ENTRY, "entry": signed_entry, "events": [dict(e) for e in events or ()],
            "public": public, "private": {"view": view, "action": action}}


def sync_message(entries: list[dict], last: bool = True) -> dict:
    return {"type": SYNC, "entries": entries, "last": last}


def error_message(reason: str, refuses: bytes | None = None) -> dict:
    """``refuses``: the signature of the signed message refused (a peer's move, its deal
    message), so that its client knows which of its messages the error answers — a move
    it sent before the one in flight may be refused after that one went."""
    msg: dict[str, str | bytes] = {"type": ERROR, "reason": reason}
    if refuses is not None:
        msg["refuses"] = refuses
    return msg


def refused_message(reason: str) -> dict:
    return {"type": REFUSED, "reason": reason}


#: The reason a host gives, in an "error", as it closes the link of a client that did not
#: answer the deal in time (``deal_watch``): that client, if it did answer on that link,
#: can tell the host had its message (``trust.peer.deliveries``).
NO_ANSWER = "your client did not answer the deal in time"

#: The reason a host gives a second live connection for one seat (one identity, two copies
#: of the app). The seat is still the key's: the refused client keeps its way back.
SEAT_IN_USE = ("your seat is being played from another Parlour with the same identity "
               "(another window, or another computer with a copy of your data). Play from "
               "that one, or close it first.")


def action_body(table: str, hand: int, seen: int, head: bytes, action: dict,
                hidden: bytes | None = None, mental: dict | None = None) -> dict:
    """What a player signs for a move. ``mental``: under the mental-poker deal, a played
    card's proof (its ``mental-play`` message), signed with the move; absent otherwise,
    so every other action body is what it always was."""
    body = {"table": table, "hand": hand, "seen": seen, "head": head, "action": action,
            "hidden": hidden}
    if mental is not None:
        body["mental"] = mental
    return body


def action_message(signed: dict, private: dict | None = None) -> dict:
    return {"type": ACTION, "signed": signed, "private": private}


def contribution_body(table: str, hand: int, seat: int, commitment: bytes, random: bytes) -> dict:
    return {"table": table, "hand": hand, "seat": seat, "commitment": commitment,
            "random": random}


def contribution_message(signed: dict) -> dict:
    return {"type": CONTRIBUTION, "signed": signed}


def rejoin_message(seat: int, last_seq: int) -> dict:
    return {"type": REJOIN, "seat": seat, "last_seq": last_seq}


def tail_request_message(after: int) -> dict:
    return {"type": TAIL_REQUEST, "after": after}


def tail_messages(entries: list[dict]) -> list[dict]:
    """A peer's held entries (signed-entry wire forms) as "tail" messages of
    ``SYNC_CHUNK`` entries; at least one, the last marked."""
    chunks = [entries[i:i + SYNC_CHUNK] for i in range(0, len(entries), SYNC_CHUNK)] or [[]]
    return [{"type": TAIL, "entries": chunk, "last": i == len(chunks) - 1}
            for i, chunk in enumerate(chunks)]


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


def envelope_of(body_schema: dict, optional: dict | None = None):
    """A check for an envelope ``{"body", "sig"}`` whose body fits ``body_schema`` (and
    may hold the ``optional`` fields)."""
    def check(v) -> bool:
        if not (_dict(v) and set(v) == {"body", "sig"} and _bytes(SIG_BYTES)(v["sig"])):
            return False
        return _fits(v["body"], body_schema, optional) is None
    return check


ACTION_BODY = {"table": _str, "hand": _nat, "seen": _nat, "head": _bytes(HASH_BYTES),
               "action": lambda v: _dict(v) and _plain(v) and _nat(v.get("seat")),
               "hidden": _opt(_bytes(HASH_BYTES))}
CONTRIBUTION_BODY = {"table": _str, "hand": _nat, "seat": _nat,
                     "commitment": _bytes(HASH_BYTES), "random": _bytes(RANDOM_BYTES)}
ENTRY_BODY = {"table": _str, "seq": _nat, "prev": _bytes(HASH_BYTES), "kind": _str,
              "body": lambda v: _dict(v) and _plain(v),
              "state_hash": _opt(lambda v: isinstance(v, str) and len(v) == 64)}
#: A played card's deal proof under the mental-poker deal (checked by the deal machine).
ACTION_BODY_OPTIONAL = {"mental": lambda v: _dict(v) and _plain(v)}
is_action_envelope = envelope_of(ACTION_BODY, ACTION_BODY_OPTIONAL)
is_contribution_envelope = envelope_of(CONTRIBUTION_BODY)


def is_signed_entry(v) -> bool:
    """A well-formed signed log entry (its signature not yet checked)."""
    # An entry envelope is {"entry", "sig"}, not {"body", "sig"}: the log is read by
    # people too, and "entry" says what it is.
    return (_dict(v) and set(v) == {"entry", "sig"} and _bytes(SIG_BYTES)(v["sig"])
            and _fits(v["entry"], ENTRY_BODY) is None)



def _private(v) -> bool:
    return (set(v) == {"view", "action"} and _opt(_dict)(v["view"])
            and _opt(_dict)(v["action"]) and _plain(v))


def _action_private(v) -> bool:
    return v is None or (set(v) == {"action", "nonce"} and _dict(v["action"])
                         and _plain(v["action"]) and _bytes(NONCE_BYTES)(v["nonce"]))


def _deal_envelope(v) -> bool:
    """A mental-deal message's envelope (its body is checked by the deal's sequencer)."""
    return _dict(v) and set(v) == {"body", "sig"} and _bytes(SIG_BYTES)(v["sig"]) \
        and _dict(v["body"]) and _plain(v["body"])


def _entry_messages(v) -> bool:
    return all(_dict(e) and e.get("type") == ENTRY and _fits_deep(e) for e in v)


#: The trust protocol's messages, each declared once: field -> type, or Field(type, the
#: deeper check that ``check`` makes).
TRUST = Schemas()
TRUST.message(ENTRY, {"sent": Field(bytes, _bytes(SIG_BYTES))},
              entry=Field(dict, is_signed_entry), events=Field(list, _plain),
              public=Field((dict, None), _plain), private=Field(dict, _private))
TRUST.message(SYNC, entries=Field(list, _entry_messages), last=bool)
TRUST.message(ERROR, {"refuses": Field(bytes, _bytes(SIG_BYTES))}, reason=Field(str, _str))
TRUST.message(REFUSED, reason=Field(str, _str))
TRUST.message(CONTRIBUTION, signed=Field(dict, is_contribution_envelope))
TRUST.message(ACTION, {"mental": Field(list, lambda v: all(_deal_envelope(e) for e in v))},
              signed=Field(dict, is_action_envelope),
              private=Field((dict, None), _action_private))
TRUST.message(MENTAL, signed=Field(dict, lambda v: _deal_envelope(v)))
TRUST.message(REJOIN, seat=Field(int, _nat), last_seq=Field(int, lambda v: -1 <= v < 1 << 62))
TRUST.message(TAIL_REQUEST, after=Field(int, lambda v: -1 <= v < 1 << 62))
TRUST.message(TAIL, entries=Field(list, lambda v: all(is_signed_entry(e) for e in v)), last=bool)


def _fits(value: Any, schema: dict, optional: dict | None = None) -> str | None:
    """None if ``value`` has exactly the schema's fields (and perhaps some ``optional``
    ones), each passing its check; else the name of the first field that does not."""
    if not isinstance(value, dict):
        return "(not a map)"
    optional = optional or {}
    for key in value:
        if key not in schema and key not in optional:
            return f"{key!r} (unexpected)"
        if key in optional and not optional[key](value[key]):
            return repr(key)
    for key, check in schema.items():
        if key not in value:
            return f"{key!r} (missing)"
        if not check(value[key]):
            return repr(key)
    return None


def _fits_deep(message: dict) -> bool:
    try:
        TRUST.check(message, deep=True)
    except ProtocolError:
        return False
    return True


def check(message: Any, allowed: tuple[str, ...] | None = None) -> dict:
    """``message`` if it is a well-formed protocol message (of one of ``allowed`` types);
    else ProtocolError saying what is wrong."""
    if not isinstance(message, dict):
        raise ProtocolError("a message is a map with a \"type\"")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in TRUST or (allowed is not None and kind not in allowed):
        raise ProtocolError(f"unexpected message type {kind!r}")
    return TRUST.check(message, deep=True)
