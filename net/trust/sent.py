"""What the host sent one seat with an entry, signed: what it told a player alone, provable.

With each entry the host sends every seated peer its own message: the engine's events,
the public view after the entry, and that seat's private part (its view, its own secret
move echoed back). The entry's signature covers none of these — each seat is sent
something else — so the host also signs, for each seat, what it sent it (domain
``parlour-sent/1``, ``signing.SENT_DOMAIN``)::

    {"table", "seq", "entry": the signed entry's hash, "seat", "key": that seat's
     player's key, "live": true in an "entry" message, false inside a "sync",
     "public": the public view's state hash (hex SHA-256 of its canonical encoding)
               or null when none was sent,
     "events", "private"}

and the message carries the signature as ``sent``. ``live`` is what shows that the
entry came on a link that was up as the host logged it: an honest host never sends a
seat its own ``drop`` so (it closes the link first, and the seat reads it in the sync
after it is back).

A peer does not check it as the message comes: it is what a player shows the others
when it names the host for what it was sent alone (``reports``) — a view of another
seat's, another seat's cards, its own seat logged as dropped while its link was up. A
message whose ``sent`` is missing or does not check out proves nothing of what it
carried to anyone else, and that is all it changes: the seat's own checks of the
message are the same.
"""

from __future__ import annotations

from engine import canonical

from net.trust.signing import SENT_DOMAIN, signed_bytes
from net.trust.values import entry_hash
from net.wire.identity import verify


def body(message: dict, head: bytes, seat: int | None, key: bytes | None, live: bool,
         public: str | None) -> dict:
    """What the host signs of the entry ``message`` it sends ``seat`` (whose player has
    ``key``): ``head`` is the signed entry's hash, ``public`` the public view's state
    hash (None when none was sent). ``seat`` and ``key`` None: what every watcher is sent
    (one message for them all, nothing private in it)."""
    entry = message["entry"]["entry"]
    return {"table": entry["table"], "seq": entry["seq"], "entry": head, "seat": seat,
            "key": key, "live": live, "public": public, "events": message["events"],
            "private": message["private"]}


def public_digest(public: dict | None) -> str | None:
    """The state hash of a public view (what ``State.state_hash`` gives), None for none."""
    return None if public is None else canonical.digest(public)


def signed(signer, message: dict, head: bytes, seat: int | None, key: bytes | None, live: bool,
           public: str | None) -> dict:
    """``message`` with the host's signature over what it carries for ``seat``
    (``public``: its public view's state hash, which the host has made already)."""
    data = signed_bytes(SENT_DOMAIN, body(message, head, seat, key, live, public))
    return {**message, "sent": signer.sign(data)}


def problem(host_key: bytes, message: dict, seat: int, key: bytes, live: bool) -> str | None:
    """Why the entry ``message`` does not carry the host's signature over what it sent
    ``seat`` (``key``), ``live`` or in a sync; None if it does. Never raises."""
    sig = message.get("sent") if isinstance(message, dict) else None
    if not isinstance(sig, bytes):
        return "the host did not sign what it sent with this entry"
    try:
        data = signed_bytes(SENT_DOMAIN, body(message, entry_hash(message["entry"]), seat, key, live,
                                              public_digest(message["public"])))
    except (KeyError, TypeError, ValueError):
        return "the message is not an entry message"
    if not verify(host_key, sig, data):
        how = "live" if live else "in a catch-up"
        return f"the host's signature does not cover what it sent seat {seat} {how} with this entry"
    return None
