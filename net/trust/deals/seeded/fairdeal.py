"""Commit–reveal dealing: neither the host nor any peer can choose the cards.

For hand ``n`` of table ``t`` (``parlour-fairdeal/1``):

1. The host draws a 32-byte secret ``s`` and logs ``commitment = SHA-256(b"parlour-
   commit/1" || t || 0x00 || n as 8 bytes || s)`` in a "commit" entry, naming the
   seats that must contribute: every seated human other than the host. Bot seats are
   the host's, so the host's secret speaks for them.
2. Each of those peers answers with 32 fresh random bytes, signed over
   ``{table, hand, seat, commitment, random}`` — bound to this commitment, so it cannot
   be replayed into another hand or paired with another secret. The host logs each in a
   "contribution" entry. A peer that drops before contributing is skipped, visibly (its
   "drop" entry comes first), and so is one whose contribution has not come by the
   deadline (a "skip" entry naming it).
3. The seed is ``SHA-256(b"parlour-seed/1" || t || 0x00 || n as 8 bytes || s ||
   (seat as 1 byte || random) for each contribution in seat order)`` and the engine
   deals from it ("deal" entry).
4. When the hand ends the host logs ``s`` in a "reveal" entry. Every peer checks the
   commitment, recomputes the seed, re-deals, checks the hand it was sent, and replays
   the hand with every card known.

The host learns the seed before anyone else and could walk away from a deal it dislikes
(or drop a peer to change the seed); both are visible in the log, which is the most a
two-round protocol can promise.
"""

from __future__ import annotations

import hashlib

from net.wire.messages import HASH_BYTES, RANDOM_BYTES

_COMMIT_TAG = b"parlour-commit/1"
_SEED_TAG = b"parlour-seed/1"


def _prefix(tag: bytes, table: str, hand: int) -> bytes:
    return tag + table.encode("utf-8") + b"\x00" + hand.to_bytes(8, "big")


def commitment(table: str, hand: int, secret: bytes) -> bytes:
    return hashlib.sha256(_prefix(_COMMIT_TAG, table, hand) + secret).digest()


def seed(table: str, hand: int, secret: bytes, contributions: dict[int, bytes]) -> bytes:
    """The deal seed from the host's secret and every logged contribution."""
    parts = [_prefix(_SEED_TAG, table, hand), secret]
    for seat in sorted(contributions):
        parts.append(bytes([seat]) + contributions[seat])
    return hashlib.sha256(b"".join(parts)).digest()


class DealRound:
    """One hand's commit–reveal, as the host and every peer track it from the log.

    No I/O and no randomness of its own: the host passes its secret in; a peer learns
    it at the reveal.
    """

    def __init__(self, table: str, hand: int, dealer: int, commitment_: bytes,
                 required: list[int], secret: bytes | None = None):
        self.table = table
        self.hand = hand
        self.dealer = dealer
        self.commitment = commitment_
        self.required = sorted(required)
        self.secret = secret
        self.contributions: dict[int, bytes] = {}
        self.waived: set[int] = set()  # required seats that dropped or were skipped
        self.dealt = False
        self.revealed = False

    # -- contributions -----------------------------------------------------------------
    def contribution_problem(self, body: dict) -> str | None:
        """Why a (signature-checked) contribution body may not be taken, or None."""
        if self.dealt:
            return "the cards are already dealt"
        if body["table"] != self.table or body["hand"] != self.hand:
            return f"that contribution is for another hand (hand {body['hand']})"
        if body["commitment"] != self.commitment:
            return "that contribution answers another commitment"
        if body["seat"] not in self.required:
            return f"seat {body['seat']} is not asked to contribute to this deal"
        if body["seat"] in self.contributions:
            return f"seat {body['seat']} has already contributed"
        if body["seat"] in self.waived:
            return f"seat {body['seat']} dropped or was skipped: this deal goes on without it"
        if len(body["random"]) != RANDOM_BYTES:
            return f"a contribution is {RANDOM_BYTES} random bytes"
        return None

    def add(self, seat: int, random: bytes) -> None:
        self.contributions[seat] = random

    def waive(self, seat: int) -> None:
        """``seat`` dropped before contributing, or missed the deadline: deal without it
        (logged as a drop or a skip)."""
        if seat in self.required and seat not in self.contributions and not self.dealt:
            self.waived.add(seat)

    @property
    def waiting_for(self) -> list[int]:
        return [s for s in self.required if s not in self.contributions and s not in self.waived]

    @property
    def ready(self) -> bool:
        return not self.dealt and not self.waiting_for

    def contributors(self) -> list[int]:
        return sorted(self.contributions)

    def seed(self) -> bytes:
        if self.secret is None:
            raise ValueError("the secret has not been revealed")
        return seed(self.table, self.hand, self.secret, self.contributions)

    # -- the reveal --------------------------------------------------------------------
    def reveal_problem(self, secret: bytes) -> str | None:
        """Why a revealed secret does not open the commitment, or None."""
        if not isinstance(secret, bytes) or len(secret) != HASH_BYTES:
            return "the revealed secret is not 32 bytes"
        if commitment(self.table, self.hand, secret) != self.commitment:
            return "the revealed secret does not match the commitment made before the deal"
        return None
