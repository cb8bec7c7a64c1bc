"""Another player's report — its testimony — weighed by this replica: checked here where
it can be, else told as that player's word (``reports``).

``weigh(replica, report)`` gives a ``Finding``, or None when there is nothing to tell:

* the report's entries must be the host's, in a chain that meets this replica's own log
  (the same entries where both hold them). If not, the report proves nothing and is
  dropped; if the host signed two different entries with one number — the reporter's
  and ours — that is a ``fork`` this replica proves itself.
* **checked here** (``confirmed``): the claim holds on what this replica can check —
  the host's own signature over what it sent the reporter (``sent``) shows it: the
  reporter's own seat logged as dropped, sent to it live; a private view of another
  seat's; any private view, while the reporter's cards are its own client's alone (a
  party of the private deal); another seat's secret move; cards this seat holds itself;
  a public view that does not hash to the entry's signed state. The finding names the
  host, as the reporter's did, and stops this replica as its own finding would.
* **the reporter's word** (not ``confirmed``): everything else — what the host told the
  reporter about its own cards, a deal message it says it sent in time, a report whose
  ``sent`` does not bear the host's signature. Told as "Maya's client reports …", with
  the evidence; this client goes on where the rules let it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import canonical

from net.trust import sent as sent_
from net.trust.alerts import HOST, IntegrityAlert
from net.trust.entries import DropBody, EntryError
from net.trust.replay.privacy import SECRET_KEYS, is_my_secret, own_cards
from net.trust.reports import Report
from net.trust.takeover import signer_of
from net.trust.values import Entry, SignedEntry, card_names


@dataclass(frozen=True)
class Finding:
    alert: IntegrityAlert
    confirmed: bool  # checked here: this replica stops at it as at its own finding


def weigh(replica, report: Report) -> Finding | None:
    """What ``replica`` makes of ``report`` (see the module's docstring)."""
    entries = _entries(replica, report)
    if entries is None or isinstance(entries, Finding):
        return entries
    name = _name(replica, report.seat)
    failing = next((e for e in entries if e.seq == report.seq), None)
    why = _shown(replica, report, failing, name) if failing is not None else None
    if why is None:
        return _word(replica, report, entries, f"{name}'s client reports")
    detail = f"found by {name}'s client ({report.detail}) and checked here: {why}"
    return Finding(_alert(replica, report, entries, report.rule, detail), True)


def _name(replica, seat: int) -> str:
    info = replica.seats.get(seat)
    return (info.name if info is not None and info.name else f"seat {seat + 1}")


def _alert(replica, report: Report, entries: list[SignedEntry], rule: str, detail: str,
           seq: int | None = None) -> IntegrityAlert:
    evidence = [e.wire for e in entries] + [report.signed]
    alert = IntegrityAlert(replica.host_seat, HOST, rule, detail, replica.table,
                           report.seq if seq is None else seq, evidence, report.sent)
    alert.reported_by = report.seat
    return alert


def _word(replica, report: Report, entries: list[SignedEntry], said: str) -> Finding:
    """The reporter's word, told as such: who it names, and what it says."""
    unsigned = ""
    if report.sent is not None and _sent_problem(replica, report) is not None:
        unsigned = " (what it says the host sent it does not bear the host's signature)"
    who = "the host" if report.party == HOST else f"the player in seat {report.accused}"
    detail = f'{said} that {who} broke rule {report.rule!r}{unsigned}: "{report.detail}"'
    alert = _alert(replica, report, entries, report.rule, detail)
    alert.party, alert.seat, alert.checked = report.party, report.accused, False
    return Finding(alert, False)


# -- the entries: the host's, and the same as ours -------------------------------------------

def _entries(replica, report: Report) -> list[SignedEntry] | Finding | None:
    """The report's entries, read — or None when they prove nothing (not the host's
    chain, or one that does not meet ours: the session logs it), or the ``fork`` this
    replica proves when the host signed another entry with a number it sent us too."""
    entries = [SignedEntry.from_wire(wire) for wire in report.entries]
    if not all(e.signed_by(signer_of(e.entry, replica.host_key)) for e in entries):
        return None
    if any(entry.seq != before.seq + 1 or entry.entry.prev != before.hash
           for before, entry in zip(entries, entries[1:])):
        return None
    for entry in (e for e in entries if e.seq <= replica.seq):
        if replica.log.hash_at(entry.seq) != entry.hash:
            detail = (f"entry {entry.seq}: the host signed two different entries with this number, "
                      f"one sent to {_name(replica, report.seat)} (its report) and one to this seat")
            return Finding(_alert(replica, report, entries, "fork", detail, entry.seq), True)
    nxt = next((e for e in entries if e.seq == replica.seq + 1), None)
    if nxt is not None and nxt.entry.prev != replica.chain.head:
        return None
    return entries


# -- what the host sent the reporter, and what it shows ----------------------------------------

def _sent_problem(replica, report: Report) -> str | None:
    sent = report.sent
    if sent is None:
        return "no message"
    if sent["key"] != report.key:
        return "sent to another key"
    return sent_.problem(replica.host_key, sent["message"], sent["seat"], sent["key"], sent["live"])


def _shown(replica, report: Report, failing: SignedEntry, name: str) -> str | None:
    """Why the host's own signature over what it sent the reporter with ``failing``
    proves the report's claim, or None if it does not (or cannot be told here)."""
    if report.party != HOST or _sent_problem(replica, report) is not None:
        return None
    sent = report.sent
    assert sent is not None  # (checked above)
    message = sent["message"]
    if message["entry"] != failing.wire:
        return None
    if report.rule == "drop":
        return _false_drop(report, failing, sent["live"], name)
    if report.rule in ("privacy", "private-view"):
        return _leak(replica, report, failing.entry, message, name)
    if report.rule == "state-hash":
        public = message["public"]
        claimed = failing.entry.state_hash
        if public is not None and claimed is not None and canonical.digest(public) != claimed:
            return "the public view the host signed as sent does not hash to the entry's signed state"
    return None


def _false_drop(report: Report, failing: SignedEntry, live: bool, name: str) -> str | None:
    try:
        body = failing.content
    except EntryError:
        return None
    if isinstance(body, DropBody) and body.seat == report.seat and live:
        return (f"the host's own signature says it sent {name} its own seat's drop on a link "
                "that was up (an honest host closes the link first)")
    return None


def _leak(replica, report: Report, entry: Entry, message: dict, name: str) -> str | None:
    private = message["private"]
    view, action = private["view"], private["action"]
    if view is not None and view.get("seat") != report.seat:
        seat = view.get("seat")
        whose = f"seat {seat} ({_name(replica, seat)})" if isinstance(seat, int) else "another seat"
        return f"the host's own signature says it sent {name} the private view of {whose}"
    if action is not None and not is_my_secret(entry, report.seat):
        return f"the host's own signature says it sent {name} another seat's secret move"
    hand = replica.hand
    this_hand = hand is not None and entry.seq >= hand.commit_seq
    if view is not None and this_hand and replica.deal.dealt_to_own_client(report.seat):
        return (f"the host's own signature says it sent {name} a private view, while {name}'s "
                "cards are its own client's alone (the private deal)")
    mine = own_cards(hand.shadow, replica.seat, hand.playing) if this_hand and hand is not None \
        and hand.dealt and replica.seat != report.seat else None
    if not mine or replica.game is None:
        return None
    deck = replica.game.deck
    shown = card_names(deck, [view, [v for k, v in (action or {}).items() if k in SECRET_KEYS],
                              message["events"]]) - card_names(deck, message["public"])
    seen = sorted(shown & mine)
    if seen:
        cards = ", ".join(deck.name(c) for c in seen)
        return f"the host's own signature says it sent {name} cards this seat holds ({cards})"
    return None
