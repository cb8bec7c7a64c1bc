"""Whole hands played through the GUI against bots, by mouse and by keyboard, checked
against the engine; illegal cards; the alert banner and the reconnecting curtain."""

from __future__ import annotations

import pytest
from app_driver import TABLE_SEED, Clicker, Typist
from PySide6.QtCore import Qt

from engine import make_game

GAMES = [
    pytest.param({"game": "somerset", "ruleset": "kitty-doubled"}, id="somerset-kitty"),
    pytest.param({"game": "somerset", "ruleset": "widow-keep"}, id="somerset-widow"),
    pytest.param({"game": "rook"}, id="rook"),
    pytest.param({"game": "horseshoes", "mode": "three"}, id="horseshoes-three"),
    pytest.param({"game": "horseshoes", "mode": "partners"}, id="horseshoes-partners"),
]


def sit_down(qtbot, window, settings: dict, seed: bytes = TABLE_SEED):
    session = window.start_local(settings, table_seed=seed)
    qtbot.waitUntil(lambda: window.setup.start_button.isEnabled())
    qtbot.mouseClick(window.setup.start_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.table)
    return session


def play_hand(qtbot, window, player, hands: list) -> dict:
    """Act whenever it is our turn until the hand-over event arrives; returns it."""
    table = window.table
    start = len(hands)
    acted = 0
    while len(hands) == start:
        qtbot.waitUntil(lambda: bool(table.legal) or len(hands) > start, timeout=10000)
        if len(hands) > start:
            break
        before = len(table.view.get("actions") or [])
        player.act_once()
        acted += 1
        assert acted < 200, "the hand never ended"
        qtbot.waitUntil(lambda: len(table.view.get("actions") or []) != before or len(hands) > start
                        or table.view.get("phase") == "done", timeout=10000)
    return hands[-1]


def replayed_result(session) -> dict:
    """The engine's own result for the hand the session just finished."""
    last = session.last_hand
    game = make_game(last.game.id, last.game.ruleset.id, last.game.mode, last.game.options)
    fresh = game.new_hand([list(h) for h in last.dealt], list(last.spare), last.dealer)
    for action in last.history:
        fresh.apply(action)
    r = fresh.result()
    return {"taken": list(r.taken), "made": r.made, "score": list(r.score), "thrown_in": r.thrown_in}


@pytest.mark.parametrize("settings_", GAMES)
def test_a_hand_by_mouse_matches_the_engine(qtbot, window, settings_):
    hands: list = []
    session = sit_down(qtbot, window, settings_)
    window.bridge.hand_over.connect(hands.append)
    clicker = Clicker(qtbot, window.table)
    event = play_hand(qtbot, window, clicker, hands)
    assert event["result"] == replayed_result(session)
    mine = [a for a in session.last_hand.history if a.seat == session.you]
    if not event["result"]["thrown_in"]:
        played = [session.game.deck.name(a.value) for a in mine if a.kind == "play"]
        assert played == clicker.plays  # every card we clicked was played, in order
    summary = window.table.summary
    qtbot.waitUntil(summary.isVisible)
    assert summary.next_button.isVisible() or summary.game_over  # partners can end in one hand
    totals = [summary.summary.table.itemAtPosition(row + 1, 3).widget().text() for row in range(len(event["scores"]))]
    assert totals == [f"<b>{s}</b>".replace("-", "\u2212") for s in event["scores"]]  # (a real minus sign)


@pytest.mark.parametrize("settings_", [GAMES[0], GAMES[2], GAMES[3]])
def test_a_hand_by_keyboard_only(qtbot, window, settings_):
    hands: list = []
    session = sit_down(qtbot, window, settings_)
    window.bridge.hand_over.connect(hands.append)
    typist = Typist(qtbot, window.table)
    event = play_hand(qtbot, window, typist, hands)
    assert event["result"] == replayed_result(session)
    if not event["result"]["thrown_in"]:
        played = [session.game.deck.name(a.value) for a in session.last_hand.history
                  if a.seat == session.you and a.kind == "play"]
        assert played == typist.plays


def test_next_hand_deals_again(qtbot, window):
    hands: list = []
    sit_down(qtbot, window, {"game": "horseshoes", "mode": "four"})
    window.bridge.hand_over.connect(hands.append)
    play_hand(qtbot, window, Clicker(qtbot, window.table), hands)
    qtbot.waitUntil(window.table.summary.isVisible)
    qtbot.mouseClick(window.table.summary.next_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.table.hand_number == 2 and bool(window.table.view.get("hand")))
    assert not window.table.summary.isVisible()


def test_an_illegal_card_is_refused_with_its_reason(qtbot, window):
    """Play Rook until we must follow with a card we may not play; clicking it plays
    nothing and says why."""
    hands: list = []
    sit_down(qtbot, window, {"game": "rook"})
    window.bridge.hand_over.connect(hands.append)
    table, clicker = window.table, Clicker(qtbot, window.table)
    for _ in range(300):
        qtbot.waitUntil(lambda: bool(table.legal) or bool(hands), timeout=10000)
        dimmed = [w for w in table.hand.widgets if w.dimmed]
        if dimmed and "play" in {k for e in table.legal for k in e}:
            break
        if hands:
            qtbot.mouseClick(table.summary.next_button, Qt.LeftButton)
            hands.clear()
            continue
        before = len(table.view.get("actions") or [])
        clicker.act_once()
        qtbot.waitUntil(lambda: len(table.view.get("actions") or []) != before or bool(hands), timeout=10000)
    else:
        pytest.fail("never had to follow suit")
    card = dimmed[0]
    assert "can't be played" in card.toolTip()
    reason = table.reasons[card.card]
    actions_before = list(table.view["actions"])
    qtbot.mouseClick(card, Qt.LeftButton)
    assert reason in table.status.text()
    assert card.accessibleName() in table.status.text()
    qtbot.wait(0)  # let any (wrongly) sent action come back
    assert table.view["actions"] == actions_before
    assert card.card in table.hand.cards


def test_alert_banner_and_reconnecting_curtain(qtbot, window):
    sit_down(qtbot, window, {"game": "somerset"})
    bridge, table = window.bridge, window.table
    bridge.deliver({"type": "alert", "seat": 2, "rule": "the deal does not match the commitment",
                    "detail": "seat 2's hand hash differs", "evidence_path": "/tmp/evidence.json"})
    qtbot.waitUntil(table.banner.isVisible)
    assert "Integrity alert" in table.banner.text.text() and "Bot 3" in table.banner.text.text()
    qtbot.mouseClick(table.banner.details_button, Qt.LeftButton)
    assert "/tmp/evidence.json" in table.banner.details.text()
    qtbot.mouseClick(table.banner.dismiss, Qt.LeftButton)
    assert not table.banner.isVisible()

    bridge.deliver({"type": "connection", "seat": 1, "state": "reconnecting", "detail": ""})
    qtbot.waitUntil(table.waiting.isVisible)  # someone else: a bar, the table stays usable
    assert table.waiting.title.text() == "Waiting for Bot 2 to come back"
    assert not table.connection.isVisible()
    assert table.waiting.bot_button.isVisibleTo(table.waiting)  # we host this table
    bridge.deliver({"type": "connection", "seat": 1, "state": "connected", "detail": ""})
    qtbot.waitUntil(lambda: not table.waiting.isVisible())

    bridge.deliver({"type": "connection", "seat": 0, "state": "reconnecting", "detail": ""})
    qtbot.waitUntil(table.connection.isVisible)
    assert table.connection.title.text() == "Reconnecting…"
    assert not table.waiting.isVisible()
    assert table.connection.progress.isVisibleTo(table.connection)
    bridge.deliver({"type": "connection", "seat": 0, "state": "reconnecting", "detail": "",
                    "attempt": 2, "attempts": 5})
    qtbot.waitUntil(lambda: "attempt 2 of 5" in table.connection.detail.text())
    assert (table.connection.progress.value(), table.connection.progress.maximum()) == (2, 5)
    bridge.deliver({"type": "connection", "seat": 0, "state": "connected", "detail": ""})
    qtbot.waitUntil(lambda: not table.connection.isVisible())


def test_table_options_show_live_scores_and_log(qtbot, window):
    sit_down(qtbot, window, {"game": "rook"})
    table = window.table
    qtbot.waitUntil(lambda: table.log_box.isEnabled())
    qtbot.mouseClick(table.log_box, Qt.LeftButton)
    qtbot.waitUntil(lambda: table.log_list.isVisibleTo(table))
    qtbot.mouseClick(table.live_box, Qt.LeftButton)
    qtbot.waitUntil(lambda: table.live_label.isVisibleTo(table))
    assert "This hand" in table.live_label.text()
