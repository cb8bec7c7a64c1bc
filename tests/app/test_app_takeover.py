"""The table tells its people when the host left for good: finding who carries the
table on, reconnecting to them, who hosts now, the hand dealt again, the seat held."""

from __future__ import annotations

from test_app_play import sit_down

from net.sessions.events import takeover_event


def test_a_takeover_is_shown_step_by_step(qtbot, window):
    sit_down(qtbot, window, {"game": "somerset"})
    bridge, table = window.bridge, window.table

    bridge.deliver(takeover_event("searching", "Grandma", "", None, None))
    qtbot.waitUntil(table.connection.isVisible)
    assert table.connection.title.text() == "The host left the game"
    assert "Grandma's computer has stopped answering" in table.connection.detail.text()
    assert table.connection.progress.isVisibleTo(table.connection)  # busy: reconnecting

    bridge.deliver(takeover_event("following", "Grandma", "Dad", 0, None, departed_seat=2))
    qtbot.waitUntil(lambda: "Dad is now hosting (reconnecting…)" in table.connection.detail.text())

    bridge.deliver(takeover_event("done", "Grandma", "Dad", 0, "…", departed_seat=2))
    qtbot.waitUntil(lambda: not table.connection.isVisible())
    assert "Grandma's computer left the game — Dad is now hosting" in table.status.text()
    assert "Hand 1 is dealt again" in table.status.text() and "scores are unchanged" in table.status.text()
    qtbot.waitUntil(table.waiting.isVisible)  # the departed host's seat is held for them
    assert table.waiting.title.text() == "Grandma's seat is held for them"
    assert not table.waiting.bot_button.isVisibleTo(table.waiting)  # not ours to give away
    bridge.deliver({"type": "connection", "seat": 2, "state": "stand_in",
                    "detail": "a bot plays for Grandma until they come back"})
    qtbot.waitUntil(lambda: not table.waiting.isVisible())


def test_the_player_who_carries_the_table_on_is_told_so(qtbot, window):
    sit_down(qtbot, window, {"game": "rook"})
    bridge, table = window.bridge, window.table
    bridge.deliver(takeover_event("hosting", "Grandma", "Dad", None, "…", you=True, departed_seat=0))
    qtbot.waitUntil(lambda: "Grandma's computer left the game — you are now hosting" in table.status.text())
    assert "dealt again" not in table.status.text()
