"""The durable log: SQLite (stdlib) in WAL mode, one row per signed entry.

The host appends every entry here before it applies or sends it; ``load`` gives the
records back to ``HostAuthority.restore``. Peers keep their own copy the same way (the
entry and the private part they were sent), for evidence and to resume.

How durable an append is depends on ``sync``:

* ``GROUP`` (the default): a *group commit*. Each append (or ``batch``) is one SQLite
  transaction with ``synchronous=NORMAL``: on return the entry is in the operating
  system's cache — a crash of the process loses nothing — but not yet on the disk. A
  flusher thread then fsyncs the WAL file, taking every entry written since its last
  fsync in one go, off the table's loop. On a loop (``defer``: the table's
  ``call_soon``) the thread is woken once the change in hand is done — its messages sent —
  since a thread woken mid-change takes the processor and the interpreter's lock from
  the sends. ``durable_seq`` is the last entry known to be on
  the disk; a power cut (or a dead battery) loses at most the entries written after the
  last completed fsync — in practice the change in flight, a move and what it ends —
  and those the peers already hold: a restarted host takes them back from the peers
  (``net.trust.host.recovery``). An entry whose private part only the host holds (a deal's
  secret, a hidden move's full form and salt: ``recovery.host_only``) is fsynced before
  the append returns, since no peer could give it back.
* ``FULL`` (the old behaviour, kept to compare): every transaction is fsynced before
  the append returns.

Inside ``batch()`` all the entries one change of the table makes are one transaction
(``one_change`` wraps a change of the host's table in it, undoing it in memory if it fails).
If the process dies mid-write, SQLite's WAL recovery drops the unfinished transaction,
and ``load`` also stops cleanly at the first record that does not decode or does not
chain onto the one before (a copied or damaged file), reporting what it dropped. A
failed write (disk full, read-only file) raises ``StoreError`` with a message a person
can act on, and nothing is half-written.

Schema: ``entries(seq INTEGER PRIMARY KEY, hash BLOB, entry BLOB, private BLOB)``, the
blobs being msgpack of the plain values (``private`` is NULL when there is none).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import msgpack

from net.trust.entries import ActionEntryBody
from net.trust.values import SignedEntry

FULL, GROUP = "FULL", "GROUP"  # see the module docstring
SYNC_MODES = (FULL, GROUP)

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


class RestoreError(Exception):
    """A persisted log that does not replay into the state it claims."""


class OlderDealError(RestoreError):
    """A log an older Parlour wrote, with a hand dealt privately in a group this one no
    longer has (edwards25519, before protocol 16): no retry can replay it here, but the
    Parlour that wrote it still can."""

    def __init__(self, hand: int, group: str):
        # said to a person, in the notice of a table kept aside: the version first, the
        # group's name only as the detail a helper at the family's side may ask for
        super().__init__(f"hand {hand} was dealt privately by an older version of Parlour, "
                         f"whose private deals this version cannot check ({group}, protocol 15 "
                         "or before); the older version can still finish it")


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
    def __init__(self, path: str | Path, sync: str = GROUP):
        if sync not in SYNC_MODES:
            raise ValueError(f"sync is one of {SYNC_MODES}, not {sync!r}")
        self.path = Path(path)
        self.sync_mode = sync
        self._batching = False
        self._urgent = False  # the open batch holds an entry only the host could give back
        self._pending = -1  # the last seq appended in the open batch
        self._written = -1  # the last seq committed (durable once the flusher has run)
        try:
            self.db = sqlite3.connect(str(self.path), isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={'FULL' if sync == FULL else 'NORMAL'}")
            self.db.execute(SCHEMA)
            last = self.db.execute("SELECT max(seq) FROM entries").fetchone()[0]
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the table log {self.path}: {exc}") from None
        self._written = -1 if last is None else last
        self._flusher = _Flusher(self.path, self._written) if sync == GROUP else None
        # On the table's loop, its call_soon: the flusher is woken after the change.
        self.defer: Callable[[Callable[[], object]], object] | None = None
        self._kick_due = False

    @property
    def durable_seq(self) -> int:
        """The last entry known to be on the disk (a power cut keeps it)."""
        return self._written if self._flusher is None else self._flusher.durable

    @property
    def written_seq(self) -> int:
        """The last entry written (a crash of the process keeps it)."""
        return self._written

    def sync(self, force: bool = True) -> None:
        """Everything written so far on the disk before returning (an fsync here), or
        StoreError."""
        if self._flusher is None:
            return
        try:
            self._flusher.sync_now(self._written, force)
        except OSError as exc:
            raise StoreError(f"could not write the table log {self.path} to the disk: "
                             f"{exc.strerror or exc}") from None

    def _committed(self, seq: int) -> None:
        self._written = max(self._written, seq)
        if self._flusher is None:
            return
        if self._urgent:
            self._urgent = False
            self.sync(force=False)
        elif self.defer is None:
            self._flusher.kick(self._written)
        elif not self._kick_due:
            self._kick_due = True
            self.defer(self._kick)

    def _kick(self) -> None:
        self._kick_due = False
        if self._flusher is not None:
            self._flusher.kick(self._written)

    def append(self, signed: SignedEntry, private: dict | None = None) -> None:
        """Write one entry (or stage it in the open ``batch``), or raise StoreError
        having written nothing. Durable on return with ``FULL``, or when its private
        part is the host's alone; else once the flusher's next fsync is done. (If that
        fsync fails, StoreError comes with the entry written, but not known durable.)"""
        seq = signed.seq
        row = (seq, signed.hash, _pack(signed.wire), None if private is None else _pack(private))
        urgent = host_only(signed, private)
        try:
            if self._batching:
                self.db.execute("INSERT INTO entries VALUES (?, ?, ?, ?)", row)
                self._urgent = self._urgent or urgent
                self._pending = max(self._pending, seq)
                return
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute("INSERT INTO entries VALUES (?, ?, ?, ?)", row)
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self._urgent = urgent
            self._committed(seq)
        except sqlite3.IntegrityError:
            raise StoreError(f"the table log {self.path} already has entry {seq}") from None
        except sqlite3.Error as exc:
            raise StoreError(f"could not write entry {seq} to the table log {self.path}: {exc} "
                             "(is the disk full or the file read-only?)") from None

    @contextmanager
    def batch(self):
        """Every append inside is one transaction, committed on leaving (durably, or for
        the flusher: see ``sync``); on any error nothing of it is written and StoreError
        is raised. Re-entrant: an inner batch joins the outer one."""
        if self._batching:
            yield
            return
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to the table log {self.path}: {exc}") from None
        self._batching, self._pending, self._urgent = True, -1, False
        try:
            yield
            self.db.execute("COMMIT")
            if self._pending >= 0:
                self._committed(self._pending)
        except BaseException as exc:
            self._urgent = False
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
                signed.content  # a body that does not fit its kind is a damaged row too
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

    def truncate_after(self, seq: int) -> int:
        """Drop every entry after ``seq`` (what a power cut that lost the unsynced tail
        leaves; tests and the recovery tools use it). The number dropped."""
        try:
            with self.batch():
                dropped = self.db.execute("DELETE FROM entries WHERE seq > ?", (seq,)).rowcount
        finally:
            self._written = min(self._written, seq)
        self.sync()
        return dropped

    def close(self) -> None:
        if self._flusher is not None:
            self._flusher.stop(self._written)
        self.db.close()


@contextmanager
def one_change(persist, undo):
    """The writes of one change of the table, as one transaction when ``persist`` batches
    (``LogStore.batch``: one fsync for the last card, the hand's end and the reveal, not
    three). If that transaction fails, ``undo()`` runs before the StoreError goes on: the
    change's entries were applied in memory but never reached the disk. A ``persist``
    that does not batch writes each entry before it is applied, so there is nothing to
    undo: the entries written before the failing one stand."""
    batch = getattr(persist, "batch", None)
    if batch is None:
        yield
        return
    try:
        with batch():
            yield
    except StoreError:
        undo()
        raise


def host_only(signed: SignedEntry, private: dict | None) -> bool:
    """Whether ``private`` holds what only the host knows, so that no peer could give the
    entry back whole: anything but nothing, or the public form of a move without a
    hidden part (which is in the signed entry itself)."""
    if private is None:
        return False
    body = signed.content
    if not isinstance(body, ActionEntryBody):
        return True
    return body.move.hidden is not None


class _Flusher:
    """A thread that fsyncs the WAL file after commits, each fsync covering everything
    written before it started (a group commit), so the table's loop never waits for
    the disk. ``durable`` is the last seq covered by a completed fsync."""

    def __init__(self, db: Path, durable: int):
        self.db = db
        self.wal = Path(f"{db}-wal")
        self.durable = durable
        self._wanted = durable
        self._stopping = False
        self._fd: int | None = None
        self._lock = threading.Lock()  # one fsync at a time, loop or thread
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="parlour-log-flusher", daemon=True)
        self._thread.start()

    def kick(self, seq: int) -> None:
        with self._cond:
            self._wanted = max(self._wanted, seq)
            self._cond.notify()

    def sync_now(self, seq: int, force: bool = False) -> None:
        """fsync on the caller's thread (an entry no peer could give back, or closing)."""
        self._fsync(seq, force)

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._wanted <= self.durable and not self._stopping:
                    self._cond.wait()
                if self._stopping:
                    return
                target = self._wanted
            try:
                self._fsync(target)
            except OSError:  # a disk that fails: the next sync (or close) tries again
                with self._cond:
                    self._cond.wait(0.5)

    def _fsync(self, seq: int, force: bool = False) -> None:
        with self._lock:
            if seq <= self.durable and not force:
                return
            if self._fd is None:
                # The WAL holds every commit not yet checkpointed into the database
                # file; without one (never written), the database file is what counts.
                target = self.wal if self.wal.exists() else self.db
                fd = os.open(target, os.O_RDONLY)
                _fsync_dir(self.db.parent)  # the file's own name, once
                if target == self.wal:
                    self._fd = fd
                else:
                    try:
                        os.fsync(fd)
                    finally:
                        os.close(fd)
                    self.durable = max(self.durable, seq)
                    return
            os.fsync(self._fd)
            self.durable = max(self.durable, seq)

    def stop(self, seq: int) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify()
        self._thread.join(5)
        try:
            self._fsync(seq)
        except OSError:
            pass
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _fsync_dir(directory: Path) -> None:
    """The directory's entries on the disk too (a new file's name); best effort: some
    systems cannot open a directory, and their file systems keep names in order."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
