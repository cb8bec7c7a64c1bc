"""A client's own error: an exception in its own checks, which is no one's broken rule.

A replica checks everything the host sends, and every check that fails says who broke
which rule (a ``Violation``, then an ``IntegrityAlert``). A check that *raises* instead
— a ``KeyError``, a ``RuntimeError`` — has found nothing about anyone: it is a bug on
this computer, and blaming the host for it would accuse an honest player of cheating.
So it is reported as what it is: ``OwnError`` holds what a person can send to have it
fixed — the traceback, the versions, the entry being checked and the log it was checked
against — ``save_bug_report`` writes it as JSON (``parlour-bug/1``, bytes as base64) in
a file named after the table and the entry, never overwriting, and ``error_event``
turns it into the facade's fatal "error" event, saving the report first when it can (a
full disk costs the file, never the event). The client stops following that table;
nobody else is accused of anything, and the table goes on without it as it does after
any drop.
"""

from __future__ import annotations

import platform
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from net.constants import PROTOCOL_VERSION
from net.trust.alerts import EvidenceError, safe_name, save_new, to_json_value, write_synced

BUG_FORMAT = "parlour-bug/1"


@dataclass
class OwnError:
    """An exception raised inside this client's own checks of an entry."""

    table: str
    seq: int | None  # the entry being checked
    doing: str  # what this client was doing, in words ("checking entry 18 (mental-dealt)")
    error: str  # the exception, one line ("RuntimeError: the hand is read before …")
    trace: str  # the whole traceback
    evidence: list = field(default_factory=list)  # the hand's entries and the failing message

    @classmethod
    def caught(cls, exc: BaseException, table: str, seq: int | None, doing: str,
               evidence: list) -> "OwnError":
        return cls(table, seq, doing, f"{type(exc).__name__}: {exc}",
                   "".join(traceback.format_exception(exc)), evidence)

    def __str__(self) -> str:
        return f"this computer's own check failed while {self.doing} ({self.error})"


def versions() -> dict:
    """What a bug report says this computer runs."""
    from importlib import metadata  # (here: a process that never reports a bug skips its ~5 ms)

    def installed(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None
    return {"parlour": installed("parlour") or "development", "protocol": PROTOCOL_VERSION,
            "python": platform.python_version(), "platform": platform.platform(),
            **{name: installed(name) for name in ("pynacl", "cryptography", "msgpack", "PySide6-Essentials")}}


def report_document(error: OwnError) -> dict:
    return {"format": BUG_FORMAT, "table": error.table, "seq": error.seq, "doing": error.doing,
            "error": error.error, "traceback": error.trace, "versions": versions(),
            "evidence": to_json_value(error.evidence)}


def save_bug_report(error: OwnError, directory, write=write_synced) -> Path:
    """Write the report as JSON; its path, or EvidenceError saying why it was not."""
    stem = f"bug-{safe_name(error.table)}-seq{error.seq if error.seq is not None else 'none'}"
    return save_new(report_document(error), directory, stem, "bug report", write)


def error_event(error: OwnError, directory, write=write_synced) -> dict:
    """The facade's fatal "error" event for ``error``: what happened in words, and where
    the bug report was saved (``bug_report``; None when it could not be)."""
    path = None
    saved = ""
    if directory is not None:
        try:
            path = str(save_bug_report(error, directory, write))
            saved = f" A bug report was saved to {path}: please send it to whoever looks after Parlour."
        except EvidenceError as exc:
            saved = f" (The bug report could not be saved: {exc}.)"
    message = (f"Parlour stopped following this table: a check on this computer failed while "
               f"{error.doing} ({error.error}). That is a bug in this copy of Parlour, not "
               f"anyone's cheat; the others play on without you.{saved}")
    return {"type": "error", "message": message, "fatal": True, "cause": "bug", "bug_report": path}
