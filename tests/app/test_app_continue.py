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


# -- a hosted table another player carried on (issue 14) ------------------------------------

HOSTED = {"kind": "host", "table": "t-friday", "name": "Friday", "game": {"game": "rook"},
          "hand": 2, "scores": [40, 0], "side": 0}
CARRIED = {"id": "Friday [dad123456789abcd-47311]", "table": "t-friday", "name": "Friday", "game": "rook", "ruleset": "", "mode": "",
           "host": "Dad", "fingerprint": "dad1-2345", "open_seats": 0, "in_game": True,
           "address": "127.0.0.1", "port": 47311, "protocol": 3}


def test_a_hosted_table_carried_on_elsewhere_is_rejoined_not_resumed(qtbot):
    from app.lobby import LobbyPage
    lobby = LobbyPage()
    qtbot.addWidget(lobby)
    joins, resumes = [], []
    lobby.join_table.connect(joins.append)
    lobby.continue_game.connect(resumes.append)
    lobby.on_unfinished([HOSTED])
    go = lobby.findChild(QPushButton, "continue-host")
    assert go.text().startswith("Resume your table “Friday”")
    # Dad's computer carried the table on while ours was away: the same table id.
    lobby.on_tables({"tables": [dict(CARRIED)]})
    go = lobby.findChild(QPushButton, "continue-host")
    assert go.text() == "Rejoin your table “Friday” — Dad is hosting it now (Rook)"
    qtbot.mouseClick(go, Qt.LeftButton)
    assert [j["table"] for j in joins] == ["t-friday"] and not resumes
    # Its row is ours to rejoin, though it shows no open seat.
    lobby.list.setCurrentRow(0)
    assert lobby.join_button.isEnabled() and lobby.join_button.text() == "Rejoin table"
    qtbot.mouseClick(lobby.join_button, Qt.LeftButton)
    assert [j["table"] for j in joins] == ["t-friday", "t-friday"]
    # A table id missing on both sides (an old record, an old advert) matches nothing.
    from app.lobby import carried_on
    assert carried_on({**HOSTED, "table": ""}, [{**CARRIED, "table": ""}]) is None
    # Gone from the network again: back to the plain offer.
    lobby.on_tables({"tables": []})
    assert lobby.findChild(QPushButton, "continue-host").text().startswith("Resume your table")


def test_joining_the_carried_on_table_stops_offering_the_copy_left_here(qtbot, window):
    class Network:
        discarded = 0

        def unfinished(self):
            return None if self.discarded else {k: v for k, v in HOSTED.items() if k != "kind"}

        def discard_unfinished(self):
            self.discarded += 1

    window.network = Network()
    window.offer_unfinished()
    assert [o["table"] for o in window.lobby.unfinished] == ["t-friday"]
    window._forget_carried_on({**CARRIED, "table": "another-table"})
    assert window.network.discarded == 0
    window._forget_carried_on(dict(CARRIED))
    assert window.network.discarded == 1 and window.lobby.unfinished == []
