"""Integrity alerts: what an honest client raises when a check fails, and the evidence.

An ``IntegrityAlert`` names who broke a rule (a seat; ``party`` says whether it was the
host or the player in that seat), the rule (a short stable id such as "chain" or
"illegal-action") and a sentence for people, and carries the signed entries that prove
it. ``save_evidence`` writes them as JSON, bytes as base64, in a file named after the
table and the entry; ``alert_event`` turns an alert into the facade's "alert" event,
saving the evidence if it can — a full disk costs the file, never the alert.
"""

from __future__ import annotations

import base64
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

HOST, PLAYER = "host", "player"

# The rules an alert may name (docs/protocol.md, "Verification and alerts", explains each).
RULES = {
    "host-signature": "an entry not signed by the host's key",
    "table": "an entry for another table",
    "sequence": "an entry out of sequence (a gap, or a replay of an old one), or withheld",
    "chain": "an entry whose previous-hash does not match the log",
    "fork": "a second, different entry for a sequence number already received, or a sign "
            "(the host's heartbeat, another player's move) that others were sent one",
    "kind": "an entry of an unknown kind, or one that is not allowed now",
    "player-signature": "an action not signed by the key of the seat it is for",
    "action-binding": "an action made for another table, hand or point in the log (replayed or reordered)",
    "illegal-action": "an action the rules forbid, accepted by the host",
    "state-hash": "a state hash that does not match the replayed state",
    "private-view": "a hand or private view that does not match the public history",
    "commitment": "a revealed deal secret that does not open the commitment",
    "contribution": "randomness attributed to a player who did not give it, or left out",
    "deal": "a deal that does not match the commitment and contributions",
    "hidden-action": "a secret action revealed differently from how the player signed it",
    "score": "a hand result or running score that the replay does not give",
    "privacy": "cards sent to this seat alone (a view, a secret move, events) that are not its own",
    "readmit": "this seat given to a new key while its player still holds theirs",
    "takeover": "a takeover entry that is not the majority's honest carrying on of the table",
    "standing": "a standing that says its player holds less of the log than its own signed "
                "moves show it held (to carry the table on from an earlier point)",
    "drop": "this seat logged as dropped while its link to the host was up",
}


class Violation(Exception):
    """A failed check inside the trust code: the replica turns it into an IntegrityAlert
    naming the same party, seat and rule. ``signed``: what else proves it, signed by
    whoever signed it (the alert's evidence, after the entries)."""

    def __init__(self, party: str, seat: int | None, rule: str, detail: str,
                 signed: list | None = None):
        super().__init__(detail)
        self.party, self.seat, self.rule, self.detail = party, seat, rule, detail
        self.signed = signed or []


@dataclass
class IntegrityAlert:
    seat: int | None  # who broke the rule (the host's seat when the host did)
    party: str  # HOST or PLAYER
    rule: str
    detail: str
    table: str = ""
    seq: int | None = None  # the entry that failed
    evidence: list = field(default_factory=list)  # signed entries (and messages) involved
    # What the host sent this seat with the failing entry, as it came — {"seat", "key",
    # "live", "message"}, the message with the host's signature over it (``sent``) —
    # when the alert is about an entry message (None: a heartbeat, a player's cheat).
    sent: dict | None = None
    reported_by: int | None = None  # the seat whose client found it (a player's report)
    # False: that player's word, not checked here (what it alone was sent); its detail is
    # the whole sentence, saying who says what
    checked: bool = True

    def __str__(self) -> str:
        if not self.checked:
            return self.detail
        who = "the host" if self.party == HOST else f"the player in seat {self.seat}"
        return f"{who} broke rule {self.rule!r}: {self.detail}"


class EvidenceError(Exception):
    """The evidence could not be written; the message says where and why."""


_BYTES_AS = {"base64": (lambda b: base64.b64encode(b).decode("ascii"), base64.b64decode),
             "hex": (bytes.hex, bytes.fromhex)}


def to_json_value(value, bytes_as: str = "base64"):
    """Plain values with bytes as {"base64": "..."} (JSON has no bytes), or {"hex": …}."""
    if isinstance(value, bytes):
        return {bytes_as: _BYTES_AS[bytes_as][0](value)}
    if isinstance(value, dict):
        return {str(k): to_json_value(v, bytes_as) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json_value(v, bytes_as) for v in value]
    return value


def from_json_value(value, bytes_as: str = "base64"):
    """The inverse of ``to_json_value`` (to re-check saved evidence)."""
    if isinstance(value, dict):
        if set(value) == {bytes_as} and isinstance(value[bytes_as], str):
            return _BYTES_AS[bytes_as][1](value[bytes_as])
        return {k: from_json_value(v, bytes_as) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json_value(v, bytes_as) for v in value]
    return value


def evidence_document(alert: IntegrityAlert) -> dict:
    return {"format": "parlour-evidence/1", "table": alert.table, "seq": alert.seq,
            "seat": alert.seat, "party": alert.party, "rule": alert.rule,
            "rule_text": RULES.get(alert.rule, ""), "detail": alert.detail,
            "evidence": to_json_value(alert.evidence), "sent": to_json_value(alert.sent),
            "reported_by": alert.reported_by, "checked": alert.checked}


def safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", text)[:60] or "table"


def write_synced(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def save_new(document: dict, directory: str | os.PathLike, stem: str, what: str,
             write=write_synced) -> Path:
    """Write ``document`` as JSON in ``directory``, named ``stem`` (a number after it
    rather than overwrite an earlier file); the path, or EvidenceError saying where and
    why ``what`` was not saved."""
    directory = Path(directory)
    data = json.dumps(document, indent=2, sort_keys=True).encode("utf-8")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{stem}.json"
        n = 1
        while path.exists():  # never overwrite an earlier one
            n += 1
            path = directory / f"{stem}-{n}.json"
        write(path, data)
    except OSError as exc:
        raise EvidenceError(f"could not save the {what} in {directory}: "
                            f"{exc.strerror or exc}") from None
    return path


def save_evidence(alert: IntegrityAlert, directory: str | os.PathLike, write=write_synced) -> Path:
    """Write the alert and its signed entries as JSON; the path, or EvidenceError."""
    stem = f"alert-{safe_name(alert.table)}-seq{alert.seq if alert.seq is not None else 'none'}-{safe_name(alert.rule)}"
    return save_new(evidence_document(alert), directory, stem, "evidence", write)


def alert_event(alert: IntegrityAlert, directory: str | os.PathLike | None, write=write_synced) -> dict:
    """The facade's "alert" event; the evidence is saved first when a directory is given,
    and a failure to save is added to the detail instead of hiding the alert."""
    path, detail = None, str(alert)
    if directory is not None:
        try:
            path = str(save_evidence(alert, directory, write))
        except EvidenceError as exc:
            detail += f" (evidence not saved: {exc})"
    event = {"type": "alert", "seat": alert.seat, "rule": alert.rule, "detail": detail,
             "evidence_path": path}
    if alert.reported_by is not None:
        event["reported_by"], event["checked"] = alert.reported_by, alert.checked
    return event
