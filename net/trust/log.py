"""The table's hash-chained log: the one history every peer agrees on.

An entry is ``{"table", "seq", "prev", "kind", "body", "state_hash"}`` (``values.Entry``),
signed by the host as ``{"entry": …, "sig": …}`` over the canonical encoding
(``values.SignedEntry``, ``signing.sign_entry``). Its hash is SHA-256 of the canonical
encoding of the whole signed entry, so the next entry's ``prev`` pins the signature as
well as the content. Seq 0 is the "table" entry and has ``prev`` = 32 zero bytes.

``Chain`` is the small state machine both sides keep: the head (seq and hash) and the
rule for what may come next. The host uses ``Chain.make`` to append; a peer uses
``Chain.problem`` to refuse anything that is not the signed, well-linked next entry,
and keeps what it accepted in a ``HeldLog``, which tells a harmless resent copy from a
fork and checks the host's heartbeat against what it was sent.

The kinds of entry and the body of each are one registry, ``entries``: the host makes
an entry from a typed body, and a peer's ``Chain.problem`` parses the body of each
entry that arrives, once (``Entry.content``).
"""

from __future__ import annotations

from net.trust.entries import EntryBody, EntryError
from net.trust.values import Entry, SignedEntry
from net.wire import messages as m

class Chain:
    """The head of a log: what the next entry's seq and prev must be."""

    def __init__(self, table: str):
        self.table = table
        self.seq = -1  # seq of the last entry; -1 before the table entry
        self.head = m.GENESIS_PREV  # hash of the last entry

    def make(self, signer, body: EntryBody, state_hash: str | None = None) -> SignedEntry:
        """The signed next entry (the chain does not advance until ``advance``)."""
        entry = Entry(self.table, self.seq + 1, self.head, body.KIND, body.wire(), state_hash)
        entry.__dict__["content"] = body  # what ``content`` would parse again
        return SignedEntry.sign(signer, entry)

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
        try:
            entry.content  # parsed here, once: nothing downstream meets a malformed body
        except EntryError as exc:
            return "kind", f"entry {entry.seq} ({entry.kind}): {exc}"
        return None

    def advance(self, signed: SignedEntry) -> None:
        self.seq = signed.seq
        self.head = signed.hash


class HeldLog(list):
    """The entries a peer accepted, by seq (a list of SignedEntry)."""

    def hash_at(self, seq: int) -> bytes | None:
        return self[seq].hash if 0 <= seq < len(self) else None

    def copy_problem(self, host_key: bytes, signed: SignedEntry) -> tuple[str, str] | None:
        """``signed`` has the number of an entry held: None if it is an identical copy
        (harmless), else (rule, detail) — the host signed two entries with one number."""
        seq = signed.seq
        if self[seq].hash == signed.hash:
            return None
        if not signed.signed_by(host_key):
            return "host-signature", f"entry {seq} is not signed by the host's key"
        return "fork", f"the host signed two different entries numbered {seq}"

    def head_problem(self, seq: int, head: bytes) -> tuple[str, str] | None:
        """The host's heartbeat says its log ends at entry ``seq`` with hash ``head``. The
        host sends every entry before the heartbeat that counts it, on the same ordered
        link, so an honest host never claims an entry this peer was not sent
        (``sequence``: one was withheld) nor a different one (``fork``: others are shown
        another history)."""
        held = len(self) - 1
        if seq > held:
            return "sequence", (f"the host's log reaches entry {seq}, but it sent me entries only up "
                                f"to {held}: it is withholding entries")
        if seq >= 0 and self.hash_at(seq) != head:
            return "fork", (f"the host's entry {seq} is not the one it sent me: it shows "
                            "someone a different history")
        return None


def result_dict(result) -> dict:
    """A hand's result (``HandResult``) as the "hand_end" entry writes it (a forfeited
    hand's with its ``forfeit``: seat, side, rule)."""
    out = {"taken": list(result.taken), "made": result.made, "score": list(result.score),
           "thrown_in": result.thrown_in}
    if result.forfeit is not None:
        out["forfeit"] = result.forfeit._asdict()
    return out
