"""A guest's copy of the table's verified log, on disk: the table's backup.

Every guest keeps each entry its replica accepted in the same SQLite store the host
uses (``store.LogStore``), with what came with it for this seat alone — the engine's
events, the public view and its private part (its view, its own secret move) — so the
guest can rebuild its replica (``PeerReplica.restore``) and, should the host be gone for
good, carry the table on from it (``trust.host.successor``).

One file per table, ``<state dir>/tables/<table id>.db``. A guest whose replica starts
over (a fresh join, a resync after an alert) starts its file over too; a takeover that
drops the departed host's last entries (``takeover.rolled_back``) drops them here too.
A guest's app started again at its remembered seat rebuilds its replica from this copy
(``read``: every entry checked again) and asks the host only for what it lacks.

The guest's copy is written after the entries are checked and acknowledged, so it adds
nothing to a move's round trip: ``DiskCopy`` holds what the replica accepted for
``GUEST_LOG_DELAY`` and writes it in one transaction (the acknowledgement goes out
first, and a run of quick moves costs one write, not one each), with
``synchronous=NORMAL``: WAL mode keeps it whole if Parlour or the computer stops, and a
power cut — or the process killed within that delay — may lose the last entries, which
the other players hold too (and the replica in memory, which a takeover starts from).
A failed write (disk full, read-only) is reported once and the game goes on without
the copy.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from pathlib import Path

from net.constants import GUEST_LOG_DELAY, GUEST_LOG_DIR
from net.sessions.events import error_event
from net.sessions.facade import EventCallback
from net.trust.store import LogStore, StoreError
from net.trust.values import EntryMessage
from net.wire import messages as m

log = logging.getLogger(__name__)


def log_path(state_dir: Path, table: str) -> Path:
    """Where a guest keeps the log of ``table`` (its id made safe for a file name)."""
    return Path(state_dir) / GUEST_LOG_DIR / (re.sub(r"[^A-Za-z0-9_.-]", "_", table)[:100] + ".db")


class GuestLog:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.store = LogStore(path)
        self.store.db.execute("PRAGMA synchronous=NORMAL")  # a backup: see the docstring
        self.failed: str | None = None

    def start_over(self) -> None:
        """Forget every entry (the replica starts again from the table entry)."""
        self.roll_back(-1)

    def roll_back(self, seq: int) -> None:
        """Forget the entries after ``seq``."""
        self._write(lambda: self.store.db.execute("DELETE FROM entries WHERE seq > ?", (seq,)))

    def keep(self, accepted: list[EntryMessage]) -> None:
        """The entries the replica just accepted, in order."""
        def write():
            with self.store.batch():
                for message in accepted:
                    self.store.append(message.signed, {"events": message.events,
                                                       "public": message.public,
                                                       "private": {"view": message.own,
                                                                   "action": message.action}})
        self._write(write)

    def messages(self) -> list[EntryMessage]:
        """The entry messages kept, from the table entry on (as the replica accepted them)."""
        return [EntryMessage.from_wire(m.entry_message(signed.wire, kept["events"], kept["public"],
                                                       **kept["private"]))
                for signed, kept in self.store.load().records]

    def close(self) -> None:
        self.store.close()

    def _write(self, fn) -> None:
        if self.failed is not None:
            return
        try:
            fn()
        except StoreError as exc:
            self.failed = str(exc)
        except sqlite3.Error as exc:  # from a bare statement (the roll-back)
            self.failed = f"could not write the table log {self.store.path}: {exc}"


class DiskCopy:
    """The guest session's copy: the ``GuestLog`` of the table its replica follows now
    (none without a state directory), written ``delay`` seconds after the entries come
    (at once without a running event loop), a failure said once to the person."""

    def __init__(self, state_dir: Path | None, emit: EventCallback,
                 delay: float = GUEST_LOG_DELAY):
        self.state_dir, self.emit, self.delay = state_dir, emit, delay
        self.log: GuestLog | None = None
        self._pending: list[EntryMessage] = []  # accepted, not written yet
        self._timer: asyncio.TimerHandle | None = None

    def open(self, table: str, keep: bool = False) -> None:
        """A fresh replica for ``table``: its copy starts over too (``keep``: the replica
        was rebuilt from the copy, which goes on from where it is)."""
        self.close()
        if self.state_dir is None:
            return
        try:
            self.log = GuestLog(log_path(self.state_dir, table))
        except (StoreError, OSError) as exc:  # OSError: the folder cannot be made
            self._failed(str(exc))
            return
        if not keep:
            self.log.start_over()
        self._check()

    def read(self, table: str) -> list[EntryMessage]:
        """The entry messages kept of ``table`` (none without a copy, or a copy that cannot
        be read: the log is then fetched from the host, as for a first join)."""
        path = log_path(self.state_dir, table) if self.state_dir is not None else None
        if path is None or not path.exists():
            return []
        try:
            copy = GuestLog(path)
        except (StoreError, OSError):
            return []
        try:
            return copy.messages()
        except (StoreError, sqlite3.Error, KeyError, TypeError, ValueError) as exc:
            log.warning("the copy of the table's log in %s cannot be read (%s): fetching it", path, exc)
            return []
        finally:
            copy.close()

    def keep(self, accepted: list[EntryMessage]) -> None:
        """The entries the replica just accepted, in order: written soon (``flush``)."""
        if self.log is None or not accepted:
            return
        self._pending += accepted
        if self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop to wait on (a tool, a test): now
                self.flush()
                return
            self._timer = loop.call_later(self.delay, self.flush)

    def flush(self) -> None:
        """Write every entry kept and not yet written, now."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        pending, self._pending = self._pending, []
        if pending and self.log is not None:
            self.log.keep(pending)
            self._check()

    def roll_back(self, seq: int) -> None:
        """Forget the entries after ``seq`` (those still to be written as well)."""
        self.flush()
        if self.log is not None:
            self.log.roll_back(seq)
            self._check()

    def close(self) -> None:
        self.flush()
        if self.log is not None:
            self.log.close()
            self.log = None

    def _check(self) -> None:
        if self.log is not None and self.log.failed is not None:
            problem = self.log.failed
            self._pending = []
            self.close()
            self._failed(problem)

    def _failed(self, problem: str) -> None:
        log.warning("the table's log is not kept on this computer: %s", problem)
        self.emit(error_event(f"Parlour could not keep a copy of the table's log ({problem}); "
                              "the game goes on without it."))
