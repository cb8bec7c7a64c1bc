"""Codes two players derive alone, and where each side keeps its count of them.

After the first code (read over the phone), two players at a table need to find each
other again — a guest whose app restarted, a host back from a crash, two guests carrying
the table on — without anyone reading out another code. Both sides derive the same codes
from a secret only they share: an X25519 agreement between their Parlour identity keys
(each knows the other's public key, proven over Parlour's TLS; the Ed25519 keys are
converted with libsodium, as age and others do), bound to the table's id. A code is a
nameplate of 16 digits and a 128-bit password, so it cannot be guessed, and the
mailbox's one-guess rule never matters here.

Code number ``k`` of a pair is ``pair_code(secret, k)``. The two sides meet at a code
both claim, and the mailbox holds at most two sides per code, so a code claimed by an
app that then died (a "ghost", until the mailbox prunes it) must not be used again.
The rules, the same on both sides, every step written down before it is taken:

* while a side wants the link and has none that works (none, or one not connected for a
  moment), it claims codes: the side with the lower key *stays* — it claims the
  ``WINDOW`` lowest codes from its start that it has not seen dead — and the other side
  *comes*: it claims one code, its start, after a little more patience (so the window is
  there when it comes). While the link works neither side claims anything;
* the start is ``next`` — ``m + WINDOW`` after the two met at code ``m``, 0 at first —
  or, after a crash, just past every code this side had claimed and not closed
  (``open``): its own ghosts are never claimed again;
* a code where the other side's key comes but its confirmation does not (a ghost), or
  where the mailbox says "crowded", is dead: the stayer claims the next one instead, the
  comer moves one up.

``Book`` keeps ``next`` and ``open`` per (table, other key) in a small JSON file.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
from pathlib import Path

import nacl.bindings

from net.wire.identity import curve_public, curve_secret

log = logging.getLogger(__name__)

#: How many codes a staying side holds at once: room for the other side's ghost.
WINDOW = 2
BOOK_FILE = "houses.json"
MAX_PAIRS = 64  # the book forgets the oldest pairs past this
_CONTEXT = b"parlour/houses/pair/v1"


def pair_secret(identity, their_key: bytes, table: str) -> bytes:
    """32 bytes only ``identity`` and the holder of ``their_key`` can compute, for ``table``."""
    shared = nacl.bindings.crypto_scalarmult(curve_secret(identity), curve_public(their_key))
    keys = b"".join(sorted([identity.public_key, bytes(their_key)]))
    return hmac.new(shared, _CONTEXT + keys + table.encode(), hashlib.sha256).digest()


def pair_code(secret: bytes, k: int) -> str:
    """Code number ``k`` of a pair: a 16-digit nameplate (far above the numbers a mailbox
    hands out) and a 128-bit password."""
    digest = hmac.new(secret, b"code" + k.to_bytes(8, "big"), hashlib.sha256).digest()
    nameplate = 10 ** 15 + int.from_bytes(digest[:8], "big") % (9 * 10 ** 15)
    return f"{nameplate}-{digest[8:24].hex()}"


def stays(my_key: bytes, their_key: bytes) -> bool:
    """Whether this side of the pair is the one that stays (holds the window)."""
    return bytes(my_key) < bytes(their_key)


class Book:
    """Each pair's ``next`` and ``open`` codes, in ``directory/houses.json`` (in memory
    when there is no directory). Reading never raises; a write that fails is logged."""

    def __init__(self, directory: str | os.PathLike | None):
        self.path = Path(directory) / BOOK_FILE if directory is not None else None
        self.pairs: dict[str, dict] = self._read()
        # Codes an earlier run claimed and never closed (it crashed): perhaps its ghosts.
        self.stale = {k: max(v["open"]) + 1 for k, v in self.pairs.items() if v["open"]}

    @staticmethod
    def key(table: str, their_key: bytes) -> str:
        return f"{table}|{bytes(their_key).hex()}"

    def _read(self) -> dict:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text())
            pairs = data["pairs"]
            return {k: {"next": int(v["next"]), "open": [int(c) for c in v["open"]],
                        "stay": bool(v.get("stay"))} for k, v in pairs.items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}

    def entry(self, table: str, their_key: bytes) -> dict:
        return self.pairs.setdefault(self.key(table, their_key), {"next": 0, "open": [], "stay": False})

    def start(self, table: str, their_key: bytes) -> int:
        """The lowest code this side may claim: ``next``, or past the claims an earlier run
        of this side left open."""
        e = self.entry(table, their_key)
        return max(e["next"], self.stale.get(self.key(table, their_key), 0))

    def claiming(self, table: str, their_key: bytes, k: int) -> None:
        e = self.entry(table, their_key)
        if k not in e["open"]:
            e["open"].append(k)
            self.save()

    def closed(self, table: str, their_key: bytes, k: int) -> None:
        e = self.entry(table, their_key)
        if k in e["open"]:
            e["open"].remove(k)
            self.save()

    def met(self, table: str, their_key: bytes, k: int, window: int = WINDOW) -> None:
        e = self.entry(table, their_key)
        e["next"] = max(e["next"], k + window)
        self.save()

    def set_stay(self, table: str, their_key: bytes, stay: bool) -> None:
        e = self.entry(table, their_key)
        if e["stay"] != stay:
            e["stay"] = stay
            self.save()

    def staying(self, table: str) -> list[bytes]:
        """The keys this side keeps a way back for at ``table`` (a host's far guests)."""
        return [bytes.fromhex(k.split("|", 1)[1]) for k, v in self.pairs.items()
                if k.split("|", 1)[0] == table and v["stay"]]

    def save(self) -> None:
        if self.path is None:
            return
        while len(self.pairs) > MAX_PAIRS:
            self.pairs.pop(next(iter(self.pairs)))
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({"pairs": self.pairs}))
            os.replace(tmp, self.path)
        except OSError:
            log.warning("could not keep the codes' count in %s", self.path, exc_info=True)
