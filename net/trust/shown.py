"""A player's own hand, shown to a watcher end to end ("Show my cards to…"); no I/O.

A seated player may let a watcher see its hand from now on (a coach at its shoulder).
The player's own client seals its seat's private view — what ``State.private_view``
gives: ``seat``, ``hand`` and the title's private fields (a Rook bidder's buried cards,
a Somerset bidder's kitty and discards) — for that one watcher, and the host relays the
sealed bytes without being able to read them:

* **The keys.** Both sides' Ed25519 identity keys, converted to X25519 by libsodium
  (``crypto_sign_ed25519_sk_to_curve25519`` / ``…_pk_to_curve25519``, as the houses'
  pair secret does: ``net.wire.identity.curve_secret``/``curve_public``).
* **The box.** libsodium's ``crypto_box`` (PyNaCl's ``Box``: X25519, then
  XSalsa20-Poly1305) from the player's X25519 secret to the watcher's X25519 public key,
  with a fresh 24-byte nonce; the sealed bytes are ``nonce ‖ ciphertext``. Only the
  player and that watcher can open it (the shared key is theirs alone), and only they can
  have made it: the host can neither read a shown hand nor make one up.
* **The plaintext** is ``canonical(["parlour-shown/1", body])`` with ``body`` =
  ``{"table", "seat", "to": the watcher's key, "seq": the log entry the view is after,
  "hand": the hand's number, "view": the private view, or nil: "I stop showing you my
  cards"}``. The watcher checks that it names its table, the seat the host relayed it
  for and its own key, and keeps only the latest ``seq`` per seat (an older one relayed
  again changes nothing).

``seal`` and ``unseal`` are the two sides; ``docs/vectors/shown-hand.json`` works one
through (``net.tools.vectors``), and tests/net/trust/test_vectors.py opens it again.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgpack
import nacl.exceptions
import nacl.public

from engine import canonical
from net.wire.identity import curve_public, curve_secret

SHOWN_DOMAIN = "parlour-shown/1"
NONCE_BYTES = nacl.public.Box.NONCE_SIZE  # 24
#: The largest sealed hand a host relays (a Rook hand with its buried cards is ~300).
MAX_SEALED = 4096
#: The fields a private view may carry besides ``seat``: the hand, and each title's own
#: (``add_private``), every one a list of card names.
VIEW_LISTS = ("hand", "buried", "kitty_cards", "discards")
MAX_LIST = 64  # cards in one field (a hand holds at most 18)


class ShownError(Exception):
    """A sealed hand that does not open, or opens to something it may not be."""


@dataclass(frozen=True)
class ShownHand:
    """What a player shows one watcher: its seat's private view after log entry ``seq``
    of hand ``hand`` (``view`` None: it stops showing)."""

    table: str
    seat: int
    to: bytes  # the watcher's key
    seq: int
    hand: int
    view: dict | None

    def body(self) -> dict:
        return {"table": self.table, "seat": self.seat, "to": self.to, "seq": self.seq,
                "hand": self.hand, "view": self.view}

    def plaintext(self) -> bytes:
        return canonical.encode([SHOWN_DOMAIN, self.body()])


def private_part(view: dict, public: dict | None) -> dict:
    """What a seat's whole ``view`` adds to the ``public`` one (its ``private_view``):
    ``seat``, ``hand``, and the fields that differ from the public view."""
    public = public or {}
    return {k: v for k, v in view.items()
            if k in ("seat", "hand") or (k in VIEW_LISTS and public.get(k, _MISSING) != v)}


def seal(identity, watcher_key: bytes, shown: ShownHand, nonce: bytes) -> bytes:
    """``shown`` sealed by ``identity`` (the player) for the watcher with ``watcher_key``:
    ``nonce ‖ crypto_box(plaintext)``. ``nonce``: 24 fresh random bytes (the caller's)."""
    box = nacl.public.Box(nacl.public.PrivateKey(curve_secret(identity)),
                          nacl.public.PublicKey(curve_public(watcher_key)))
    return bytes(box.encrypt(shown.plaintext(), nonce))


def unseal(identity, player_key: bytes, sealed: bytes, *, table: str, seat: int) -> ShownHand:
    """The hand the player with ``player_key`` (the key the log seats in ``seat``) sealed
    for ``identity`` (this watcher); ``ShownError`` if it does not open with those keys or
    is not a shown hand of ``table``'s ``seat`` for this watcher."""
    if not isinstance(sealed, bytes) or not NONCE_BYTES < len(sealed) <= MAX_SEALED:
        raise ShownError("a sealed hand of the wrong size")
    box = nacl.public.Box(nacl.public.PrivateKey(curve_secret(identity)),
                          nacl.public.PublicKey(curve_public(player_key)))
    try:
        plain = box.decrypt(sealed[NONCE_BYTES:], sealed[:NONCE_BYTES])
    except nacl.exceptions.CryptoError:
        raise ShownError("it does not open with that player's key: not sealed by them for you") from None
    shown = _read(plain)
    if shown.table != table or shown.seat != seat or shown.to != identity.public_key:
        raise ShownError(f"it shows seat {shown.seat} of table {shown.table!r} to another "
                         f"key, not seat {seat} of this table to you")
    return shown


def _read(plain: bytes) -> ShownHand:
    """The body of a plaintext (``canonical(["parlour-shown/1", body])``)."""
    try:
        value = msgpack.unpackb(plain, raw=False, use_list=True, strict_map_key=True,
                                max_array_len=MAX_LIST * 2, max_map_len=16)
        domain, pairs = value
        body = dict(pairs)
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        raise ShownError("its plaintext is not a shown hand") from None
    if domain != SHOWN_DOMAIN or set(body) != {"table", "seat", "to", "seq", "hand", "view"}:
        raise ShownError("its plaintext is not a shown hand")
    view = body["view"]
    if view is not None:
        view = _view(view, body["seat"])
    if not (isinstance(body["table"], str) and _whole(body["seat"]) and _whole(body["seq"])
            and _whole(body["hand"]) and isinstance(body["to"], bytes)):
        raise ShownError("a shown hand's fields are of the wrong types")
    return ShownHand(body["table"], body["seat"], body["to"], body["seq"], body["hand"], view)


def _view(pairs, seat) -> dict:
    """A private view as its canonical pairs hold it: ``seat`` and lists of card names."""
    try:
        view = dict(pairs)
    except (TypeError, ValueError):
        raise ShownError("a shown view is not a map") from None
    if view.get("seat") != seat or not set(view) - {"seat"} <= set(VIEW_LISTS) or "hand" not in view:
        raise ShownError("a shown view must be that seat's, with its hand")
    for key in VIEW_LISTS:
        cards = view.get(key, [])
        if not isinstance(cards, list) or len(cards) > MAX_LIST \
                or not all(isinstance(c, str) and len(c) <= 8 for c in cards):
            raise ShownError(f"a shown view's {key!r} is not a list of card names")
    return view


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


_MISSING = object()
