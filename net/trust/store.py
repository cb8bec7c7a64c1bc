"""The durable log: SQLite (stdlib) in WAL mode, one row per signed entry.

The host appends every entry here *before* it applies or sends it, so whatever a peer
has seen, a restarted host has too; ``load`` gives the records back to
``HostAuthority.restore``. Peers keep their own copy the same way (the entry and the
private part they were sent), for evidence and to resume.

Each append is one transaction with ``synchronous=FULL`` — or, inside ``batch()``, all
the entries one change of the table makes are (one fsync for the last card, the hand's
end and the reveal, instead of three). Once ``append``, or the ``batch``, returns, the
entries survive a crash or power cut; if the process dies mid-write, SQLite's WAL
recovery drops the unfinished transaction, and ``load`` also stops cleanly at the
first record that does not decode or does not chain onto the one before (a copied or
damaged file), reporting what it dropped. A failed write (disk full, read-only file)
raises ``StoreError`` with a message a person can act on, and nothing is half-written.

Schema: ``entries(seq INTEGER PRIMARY KEY, hash BLOB, entry BLOB, private BLOB)``, the
blobs being msgpack of the plain values (``private`` is NULL when there is none).
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import msgpack

from net.trust.values import SignedEntry

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY,
    hash BLOB NOT NULL,
    entry BLOB NOT NULL,
    private BLOB
)
"""


class StoreError(Exception):
    """The log could not be written or read; the message says where and why."""


@dataclass
class Loaded:
    records: list = field(default_factory=list)  # (SignedEntry, private) from seq 0
    dropped: int = 0  # rows after the last good one (a torn or damaged tail)
    problem: str | None = None  # why they were dropped


def _pack(value) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _unpack(data: bytes):
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


class LogStore:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._batching = False
        try:
            self.db = sqlite3.connect(str(self.path), isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute(SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the table log {self.path}: {exc}") from None

    def append(self, signed: SignedEntry, private: dict | None = None) -> None:
        """Write one entry durably (or stage it in the open ``batch``), or raise
        StoreError having written nothing."""
        seq = signed.seq
        row = (seq, signed.hash, _pack(signed.wire), None if private is None else _pack(private))
        try:
            if self._batching:
                self.db.execute("INSERT INTO entries VALUES (?, ?, ?, ?)", row)
                return
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute("INSERT INTO entries VALUES (?, ?, ?, ?)", row)
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:
            raise StoreError(f"the table log {self.path} already has entry {seq}") from None
        except sqlite3.Error as exc:
            raise StoreError(f"could not write entry {seq} to the table log {self.path}: {exc} "
                             "(is the disk full or the file read-only?)") from None

    @contextmanager
    def batch(self):
        """Every append inside is one transaction, committed (durably) on leaving; on any
        error nothing of it is written and StoreError is raised. Re-entrant: an inner
        batch joins the outer one."""
        if self._batching:
            yield
            return
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to the table log {self.path}: {exc}") from None
        self._batching = True
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException as exc:
            self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"could not write to the table log {self.path}: {exc} "
                                 "(is the disk full or the file read-only?)") from None
            raise
        finally:
            self._batching = False

    def __call__(self, signed: SignedEntry, private: dict | None = None) -> None:
        """A store is the host's ``persist`` callable."""
        self.append(signed, private)

    def load(self) -> Loaded:
        """Every good record from seq 0, stopping at the first that is not."""
        try:
            rows = self.db.execute("SELECT seq, hash, entry, private FROM entries ORDER BY seq").fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the table log {self.path}: {exc}") from None
        out = Loaded()
        prev = None
        for i, (seq, digest, entry_blob, private_blob) in enumerate(rows):
            problem = None
            try:
                signed = SignedEntry.from_wire(_unpack(entry_blob))
                private = None if private_blob is None else _unpack(private_blob)
                if seq != i or signed.seq != i:
                    problem = f"entry {i} is missing"
                elif signed.hash != digest:
                    problem = f"entry {i} is damaged (its hash differs)"
                elif prev is not None and signed.entry.prev != prev:
                    problem = f"entry {i} does not follow entry {i - 1}"
            except Exception as exc:  # any undecodable blob: a damaged row, not a crash
                problem = f"entry {i} cannot be read ({type(exc).__name__})"
            if problem:
                out.dropped, out.problem = len(rows) - i, problem
                break
            out.records.append((signed, private))
            prev = digest
        return out

    def close(self) -> None:
        self.db.close()
