"""Another player's report, as the window shows it (issue 27): an alert another player's
client found and sent its evidence for says whose it is — checked by this computer too
(the table stopped here as well), or that player's word, which this computer cannot
check (what the host sent that player alone), and the game goes on here.

The events are the sessions' own shape (``net.sessions.facade.AlertEvent``), delivered to a
table in the window as a session would (tests/net/sessions/test_evidence_travels.py
drives the sessions that send them).
"""

from __future__ import annotations

from fit_scenes import LONG_NAMES, settle, sit_at

HORSESHOES = {"game": "horseshoes", "mode": "four"}
REPORTER = 2


def test_a_report_checked_here_says_who_found_it(qtbot, window):
    bridge, _game, _state = sit_at(window, HORSESHOES, lambda s: s.phase == "play")
    table = window.table
    bridge.deliver({"type": "alert", "seat": 0, "rule": "privacy", "evidence_path": "/tmp/e.json",
                    "detail": "found by Maya's client (…) and checked here: …",
                    "reported_by": REPORTER, "checked": True})
    settle()
    assert table.banner.isVisible()
    assert table.banner.text.text() == (f"\u26a0 Integrity alert — {LONG_NAMES[0]}: privacy (found by "
                                        f"{LONG_NAMES[REPORTER]}'s computer, checked by this one)")


def test_a_report_this_computer_cannot_check_is_told_as_that_players_word(qtbot, window):
    bridge, _game, _state = sit_at(window, HORSESHOES, lambda s: s.phase == "play")
    table = window.table
    bridge.deliver({"type": "alert", "seat": 0, "rule": "deal", "evidence_path": None,
                    "detail": "Maya's client reports that the host broke rule 'deal': …",
                    "reported_by": REPORTER, "checked": False})
    settle()
    text = table.banner.text.text()
    assert text == (f"\u26a0 {LONG_NAMES[REPORTER]}'s computer reports that {LONG_NAMES[0]} broke a "
                    "rule (deal) — not something this computer can check")
    assert "Integrity alert" not in text
    assert "Maya's client reports" in table.banner.details.text()
