"""A game against the computer survives closing it: the lobby offers to continue it
(issue 12), one click goes on where it stopped, Discard gives it up."""

from __future__ import annotations

from app_driver import TABLE_SEED
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton

from app.lobby import unfinished_text


def _bid_once(qtbot, window) -> dict:
    """Sit down, deal, wait for our first decision and make it; the view after it."""
    session = window.start_local({"game": "rook"}, table_seed=TABLE_SEED)
    qtbot.waitUntil(window.setup.start_button.isEnabled)
    qtbot.mouseClick(window.setup.start_button, Qt.LeftButton)
    table = window.table
    qtbot.waitUntil(lambda: bool(table.legal), timeout=10000)
    before = len(table.view.get("actions") or [])
    session.act(table.legal[0])
    qtbot.waitUntil(lambda: len(table.view.get("actions") or []) > before, timeout=10000)
    return dict(table.view)


def test_a_game_closed_mid_hand_is_continued_from_the_lobby(qtbot, window):
    seen = _bid_once(qtbot, window)
    window.leave_table()
    lobby = window.lobby
    qtbot.waitUntil(lobby.unfinished_card.isVisible)
    go = lobby.findChild(QPushButton, "continue-local")
    assert go.text() == "Continue your Rook game (hand 1, 0–0)"
    qtbot.mouseClick(go, Qt.LeftButton)
    table = window.table
    qtbot.waitUntil(lambda: window.stack.currentWidget() is table, timeout=10000)
    qtbot.waitUntil(lambda: bool(table.view.get("hand")), timeout=10000)
    # The same hand: our cards, and at least every action we saw before leaving.
    assert table.view["hand"] == seen["hand"]
    assert table.view["actions"][:len(seen["actions"])] == seen["actions"]
    assert window.session.core.restored  # it went on from its log


def test_discard_gives_the_game_up_and_a_new_game_starts_afresh(qtbot, window):
    _bid_once(qtbot, window)
    window.leave_table()
    lobby = window.lobby
    qtbot.waitUntil(lobby.unfinished_card.isVisible)
    qtbot.mouseClick(lobby.findChild(QPushButton, "discard-local"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not lobby.unfinished_card.isVisible())
    session = window.start_local({"game": "rook"}, table_seed=TABLE_SEED)
    qtbot.waitUntil(window.setup.start_button.isEnabled)
    assert not session.core.restored and session.match is None


def test_the_offer_says_whose_score_comes_first():
    offer = {"kind": "local", "game": {"game": "rook"}, "hand": 4, "scores": [85, 120], "side": 1}
    assert unfinished_text(offer) == "Continue your Rook game (hand 4, 120–85)"
    hosted = {**offer, "kind": "host", "name": "Friday", "side": 0}
    assert unfinished_text(hosted) == "Resume your table “Friday” (Rook, hand 4, 85–120)"


def test_a_game_against_the_computer_shows_no_key_fingerprints(qtbot, window):
    """Nobody else is at the table: the setup shows names, not keys (as before issue 12)."""
    tables = []
    session = window.start_local({"game": "rook"}, table_seed=TABLE_SEED)
    window.bridge.table.connect(tables.append)
    qtbot.waitUntil(window.setup.start_button.isEnabled)
    session.sit(2)
    qtbot.waitUntil(lambda: bool(tables) and tables[-1]["you"] == 2, timeout=5000)
    assert [seat["fingerprint"] for seat in tables[-1]["seats"]] == [""] * 4
    labels = " ".join(label.text() for label in window.setup.findChildren(QLabel))
    assert "Ann" in labels and "[" not in labels
