"""Alerts and their evidence on disk; a full disk loses the file, never the alert."""

import errno
import json

from net.trust.alerts import (HOST, EvidenceError, IntegrityAlert, alert_event, from_json_value,
                              save_evidence)
from net.trust.failures import OwnError, save_bug_report
from net.trust.failures import error_event as own_error_event
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


def an_own_error():
    entry = Chain("t").make(HOST_ID, OptionBody("live_scores", True))
    try:
        raise KeyError("value")
    except KeyError as exc:
        return OwnError.caught(exc, "t", 0, "checking entry 0 (option)", [entry.wire])


def test_an_exception_in_our_own_check_is_a_bug_report_not_an_alert(tmp_path):
    """Nobody is named: the report says what broke here (the traceback), on what
    (the entries), and what this computer runs; the event sends the person to it."""
    error = an_own_error()
    event = own_error_event(error, tmp_path)
    assert event["type"] == "error" and event["fatal"] and "rule" not in event
    assert "not anyone's cheat" in event["message"] and event["bug_report"] in event["message"]
    assert event["fatal"] and event["cause"] == "bug"  # (the app titles it so)
    doc = json.loads(open(event["bug_report"]).read())
    assert doc["format"] == "parlour-bug/1" and doc["error"] == "KeyError: 'value'"
    assert 'raise KeyError("value")' in doc["traceback"] and doc["versions"]["python"]
    [entry] = from_json_value(doc["evidence"])
    assert entry_signed_by(HOST_ID.public_key, entry)
    again = save_bug_report(error, tmp_path)  # never overwritten
    assert again.exists() and str(again) != event["bug_report"]


def test_a_full_disk_still_tells_of_our_own_error(tmp_path):
    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")
    event = own_error_event(an_own_error(), tmp_path, write=full)
    assert event["fatal"] and event["bug_report"] is None and "No space left" in event["message"]
