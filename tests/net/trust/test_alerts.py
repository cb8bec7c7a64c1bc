"""Alerts and their evidence on disk; a full disk loses the file, never the alert."""

import errno
import json

from net.trust.alerts import (HOST, EvidenceError, IntegrityAlert, Violation, alert_event,
                              from_json_value, save_evidence)
from net.trust.entries import OptionBody
from net.trust.log import Chain
from net.trust.signing import entry_signed_by
from tests.net.trust_table import identity

HOST_ID = identity("host")


def an_alert(table="table/1 x"):
    chain = Chain(table)
    entry = chain.make(HOST_ID, OptionBody("live_scores", True))
    return IntegrityAlert(0, HOST, "chain", "entry 0 does not follow", table, 7, [entry.wire])


def test_the_evidence_is_json_with_the_signed_entries_intact(tmp_path):
    alert = an_alert()
    path = save_evidence(alert, tmp_path)
    assert path.parent == tmp_path and "table_1_x" in path.name and "seq7" in path.name
    doc = json.loads(path.read_text())
    assert doc["rule"] == "chain" and doc["party"] == "host" and doc["seat"] == 0
    [entry] = from_json_value(doc["evidence"])
    assert entry_signed_by(HOST_ID.public_key, entry)  # anyone can re-check the signature


def test_evidence_is_never_overwritten(tmp_path):
    a, b = save_evidence(an_alert(), tmp_path), save_evidence(an_alert(), tmp_path)
    assert a != b and a.exists() and b.exists()


def test_a_full_disk_still_delivers_the_alert(tmp_path):
    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")
    alert = an_alert()
    try:
        save_evidence(alert, tmp_path, write=full)
    except EvidenceError as exc:
        assert "No space left" in str(exc) and str(tmp_path) in str(exc)
    else:
        raise AssertionError("a full disk must be reported")
    event = alert_event(alert, tmp_path, write=full)
    assert event["type"] == "alert" and event["rule"] == "chain" and event["evidence_path"] is None
    assert "evidence not saved" in event["detail"]


def test_the_event_names_seat_rule_and_file(tmp_path):
    event = alert_event(an_alert(), tmp_path)
    assert event["seat"] == 0 and event["evidence_path"].endswith(".json")
    assert "the host broke rule 'chain'" in event["detail"]


def test_an_entry_that_breaks_the_code_reading_it_is_the_hosts_violation():
    entry = Chain("t").make(HOST_ID, OptionBody("live_scores", True)).entry
    v = Violation.malformed(2, entry, KeyError("value"))
    assert (v.party, v.seat, v.rule) == (HOST, 2, "kind")
    assert v.detail == "entry 0 (option) is malformed: KeyError: 'value'"
