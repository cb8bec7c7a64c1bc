"""The table's hash-chained log: the one history every peer agrees on.

An entry is ``{"table", "seq", "prev", "kind", "body", "state_hash"}`` (``values.Entry``),
signed by the host as ``{"entry": …, "sig": …}`` over the canonical encoding
(``values.SignedEntry``, ``signing.sign_entry``). Its hash is SHA-256 of the canonical
encoding of the whole signed entry, so the next entry's ``prev`` pins the signature as
well as the content. Seq 0 is the "table" entry and has ``prev`` = 32 zero bytes.

``Chain`` is the small state machine both sides keep: the head (seq and hash) and the
rule for what may come next. The host uses ``Chain.make`` to append; a peer uses
``Chain.problem`` to refuse anything that is not the signed, well-linked next entry.
"""

from __future__ import annotations

from net.trust.values import Entry, SignedEntry
from net.wire import messages as m

# Entry kinds. "seat"/"option"/"start" arrange the table; "commit", "contribution",
# "skip" (a contribution not in by the deadline), "deal" and "reveal" are the fair deal;
# "action" carries a player's signed move; "hand_end" banks the score; "drop"/"rejoin"
# record connection changes the game depends on (who must contribute randomness).
KINDS = ("table", "seat", "option", "start", "commit", "contribution", "skip", "deal",
         "action", "hand_end", "reveal", "drop", "rejoin")


class Chain:
    """The head of a log: what the next entry's seq and prev must be."""

    def __init__(self, table: str):
        self.table = table
        self.seq = -1  # seq of the last entry; -1 before the table entry
        self.head = m.GENESIS_PREV  # hash of the last entry

    def make(self, signer, kind: str, body: dict, state_hash: str | None = None) -> SignedEntry:
        """The signed next entry (the chain does not advance until ``advance``)."""
        return SignedEntry.sign(signer, Entry(self.table, self.seq + 1, self.head, kind, body,
                                              state_hash))

    def problem(self, key: bytes, signed: SignedEntry) -> tuple[str, str] | None:
        """None if ``signed`` is the host's signed next entry, else (rule, detail)."""
        entry = signed.entry
        if not signed.signed_by(key):
            return "host-signature", f"entry {entry.seq} is not signed by the host's key"
        if entry.table != self.table:
            return "table", f"entry {entry.seq} belongs to table {entry.table!r}"
        if entry.seq != self.seq + 1:
            return "sequence", f"expected entry {self.seq + 1}, got {entry.seq}"
        if entry.prev != self.head:
            return "chain", f"entry {entry.seq} does not follow entry {self.seq} (prev hash differs)"
        if entry.kind not in KINDS:
            return "kind", f"entry {entry.seq} has unknown kind {entry.kind!r}"
        return None

    def advance(self, signed: SignedEntry) -> None:
        self.seq = signed.seq
        self.head = signed.hash


def result_dict(result) -> dict:
    """A hand's result (``HandResult``) as the "hand_end" entry writes it."""
    return {"taken": list(result.taken), "made": result.made, "score": list(result.score),
            "thrown_in": result.thrown_in}
