"""A player's report: the signed evidence a client that stops at an alert sends the others.

A client that names the host has found it on what it was sent — often on what it alone
was sent: its private view, its own seat logged as dropped while its link was up. Left
at that, the table stops at its seat and nobody else knows why. So it tells every other
player directly (over their standby links, ``sessions.succession``) and the host (over
its own link), with a ``report`` message carrying an envelope signed by its key (domain
``parlour-report/1``, ``signing.REPORT_DOMAIN``) over::

    {"table", "seat": the reporter's seat, "seq": the entry it stopped at,
     "party": "host" | "player", "accused": the seat named (or null), "rule", "detail",
     "entries": the host's signed entries it checked that one against (the hand's, from
                its opening entry), the failing one last,
     "sent": {"seat", "key", "live", "message"} | null — the entry message the host sent
             it with that entry, as it came, with the host's signature over it
             (``sent``), or null for an alert on no message (the host's heartbeat),
     "unlogged": [its own signed deal messages the host never logged]}

``make`` builds the message from the alert; ``read`` takes one apart: the reporter's
signature by the key the log seats at ``seat``, at this table, every field of its type.
What the report proves is for its reader to judge (``peer.testimony``).
"""

from __future__ import annotations

from dataclasses import dataclass

from net.trust.alerts import HOST, PLAYER, IntegrityAlert
from net.trust.signing import REPORT_DOMAIN, opens, seal
from net.trust.values import Seats
from net.wire import framing
from net.wire import messages as m

REPORT = "report"  # the message: {"type": "report", "signed": envelope}
ENTRIES_AT_LEAST = 8  # a report too big for one frame keeps the last entries only


@dataclass(frozen=True)
class Report:
    """A report read and checked as signed by the player it names as its author."""

    table: str
    seat: int  # the reporter's
    key: bytes  # the reporter's key (the log seats it at ``seat``)
    seq: int
    party: str
    accused: int | None
    rule: str
    detail: str
    entries: list  # signed entries (wire forms), the failing one last
    sent: dict | None  # {"seat", "key", "live", "message"}
    unlogged: list  # the reporter's own signed deal messages (envelopes)
    signed: dict  # the envelope, as it came (kept as evidence)


def make(identity, alert: IntegrityAlert, seat: int) -> dict:
    """The "report" message ``identity``, at ``seat``, sends about ``alert``: the signed
    entries of its evidence, what the host sent it with the failing one, and its own
    signed messages among the evidence (a deal message the host never logged). Kept
    within one frame: a hand's entries fit, and if they ever did not, the last few go."""
    entries = [e for e in alert.evidence if _shaped(e, {"entry", "sig"})]
    unlogged = [e for e in alert.evidence if _shaped(e, {"body", "sig"})]
    while True:
        body = {"table": alert.table, "seat": seat, "seq": alert.seq, "party": alert.party,
                "accused": alert.seat, "rule": alert.rule, "detail": alert.detail,
                "entries": entries, "sent": alert.sent, "unlogged": unlogged}
        message = {"type": REPORT, "signed": sign(identity, body)}
        try:
            framing.encode(message)
            return message
        except framing.ProtocolError:
            if len(entries) <= ENTRIES_AT_LEAST:
                raise
            entries = entries[-ENTRIES_AT_LEAST:]


def sign(identity, body: dict) -> dict:
    """A report's envelope: ``body`` signed by ``identity``."""
    return seal(identity, REPORT_DOMAIN, body)


def _shaped(value, keys: set) -> bool:
    return isinstance(value, dict) and set(value) == keys


def _sent_problem(sent) -> str | None:
    if sent is None:
        return None
    if not (_shaped(sent, {"seat", "key", "live", "message"}) and isinstance(sent["live"], bool)
            and (sent["seat"] is None or _nat(sent["seat"])) and isinstance(sent["key"], bytes)):
        return "what the host sent it is malformed"
    try:
        m.check(sent["message"], (m.ENTRY,))
    except m.ProtocolError as exc:
        return f"what the host sent it is not an entry message ({exc})"
    return None


def _nat(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def read(signed, seats: Seats, table: str) -> Report | str:
    """The report ``signed`` (an envelope) at ``table``, whose seats are ``seats``; or why
    it is none: malformed, for another table, or not signed by the key seated at the
    seat it names."""
    if not _shaped(signed, {"body", "sig"}) or not _shaped(signed["body"], {
            "table", "seat", "seq", "party", "accused", "rule", "detail", "entries", "sent",
            "unlogged"}):
        return "a malformed report"
    body = signed["body"]
    if body["table"] != table:
        return "a report about another table"
    seat = body["seat"]
    info = seats.get(seat) if _nat(seat) else None
    if info is None or not info.is_player or not opens(info.key, REPORT_DOMAIN, signed):
        return "a report not signed by the player at the seat it names"
    fields_ok = (_nat(body["seq"]) and body["party"] in (HOST, PLAYER)
                 and (body["accused"] is None or _nat(body["accused"]))
                 and isinstance(body["rule"], str) and isinstance(body["detail"], str)
                 and isinstance(body["entries"], list)
                 and all(m.is_signed_entry(e) for e in body["entries"])
                 and isinstance(body["unlogged"], list)
                 and all(_shaped(e, {"body", "sig"}) for e in body["unlogged"]))
    problem = None if fields_ok else "a malformed report"
    problem = problem or _sent_problem(body["sent"])
    if problem:
        return problem
    assert info.key is not None  # (a player's seat has one)
    return Report(table, seat, info.key, body["seq"], body["party"], body["accused"], body["rule"],
                  body["detail"], body["entries"], body["sent"], body["unlogged"], signed)
