"""Watching a table from the window (real sessions on 127.0.0.1, both deals).

* The lobby's *Watch* on a table in progress: the window watches — the table as everyone
  sees it, no hand, nothing to press — and the line under the bar says so; the host's
  people see "Watching: …".
* A player shows the watcher her cards: the watcher's window shows her hand (nothing to
  play with it) and says who shows it; the player stops, and the hand goes.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel
from net_kit import QUICK, LoopbackNetwork, Recorder, ident, table_info

from net.sessions.session import GuestSession, HostSession
from tests.waits import blocking_until, qt_until


def headless_host(tmp_path, deal: bool, bots: dict) -> HostSession:
    host = HostSession(Recorder(), {"game": "rook"}, ident("Grandpa"), state_dir=tmp_path / "grandpa",
                       timings=QUICK, autoplay=True, auto_start=True, bot_delay=0.05,
                       bots=bots, mental_deal=deal)
    blocking_until(lambda: host.core.server is not None)
    return host


def watch_from_the_lobby(qtbot, window, directory, host) -> None:
    directory.publish([{**table_info(host), "in_game": True, "open_seats": 0, "watchable": True}])
    qt_until(qtbot, lambda: window.lobby.list.count() == 1)
    window.lobby.list.setCurrentRow(0)
    assert window.lobby.watch_button.isEnabled() and not window.lobby.join_button.isEnabled()
    window.lobby.watch_button.click()
    seen = []
    window.bridge.event.connect(lambda e: seen.append(e if e.get("type") == "error" else e.get("type")))
    window._seen = seen  # (what the window was told, for a failure's message)


def watch_the_bots(qtbot, window, directory, tmp_path, closing, deal: bool):
    """The window watches, from the lobby, a headless host's table with three computer
    players; the host's session."""
    window.network = LoopbackNetwork(tmp_path)
    host = headless_host(tmp_path, deal, {1: "random", 2: "random", 3: "random"})
    closing.append(host)
    watch_from_the_lobby(qtbot, window, directory, host)
    return host


@pytest.mark.parametrize("deal", [False, True], ids=["seeded", "private"])
def test_a_grandchild_watches_from_the_lobby_and_sees_the_public_table(qtbot, window, directory,
                                                                        tmp_path, closing, deal):
    host = watch_the_bots(qtbot, window, directory, tmp_path, closing, deal)
    table = window.table
    try:
        qt_until(qtbot, lambda: window.stack.currentWidget() is table and table.view.get("phase"),
                 timeout=30000)
    except Exception:
        raise AssertionError(f"the table never showed: {window.stack.currentWidget()}, events {window._seen[-30:]}")
    qt_until(qtbot, lambda: table.watchers_line.isVisible()
             and "You are watching" in table.watchers_line.label.text())
    assert table.data.watching and table.hand.cards == [] and not table.decision.isVisible()
    # the lock: the deal's own kind, as the host's seat sees it — never "held by the host"
    # (a watcher has no cards at all). (With no other person seated, the host deals seeded.)
    def hosts_deal():
        return [e["deal"] for e in host.on_event.events if e.get("type") == "state"][-1]
    qt_until(qtbot, lambda: table.data.deal == hosts_deal() and table.hand.cards == [])
    assert not table.watchers_line.button.isVisible()  # nothing for a watcher to do there
    # no hand, so no Hint: neither its button nor its key (seen in a real window: it was
    # offered, and said only "Nothing to decide just now")
    assert table.hint_button.isHidden()
    asked = []
    window.session.hint = lambda: asked.append("hint")  # (what the key would ask the session)
    qtbot.keyClick(table, "?")
    assert asked == []
    qt_until(qtbot, lambda: any(e.get("type") == "watchers" and [w["name"] for w in e["watchers"]]
                                for e in host.on_event.events))
    named = [e for e in host.on_event.events if e.get("type") == "watchers"][-1]
    assert [w["name"] for w in named["watchers"]] == [window.settings.display_name]
    # Leave mid-game: at once — no "Your seat is kept for you" (a watcher has none)
    table.leave_button.click()
    qt_until(qtbot, lambda: window.stack.currentWidget() is window.lobby)
    assert window.leave_box is None and window.session is None


@pytest.mark.parametrize("deal", [False, True], ids=["seeded", "private"])
def test_a_watcher_talks_from_its_window_and_the_host_hears_a_watcher(qtbot, window, directory,
                                                                      tmp_path, closing, deal):
    from test_app_talk import say_by_keys
    host = watch_the_bots(qtbot, window, directory, tmp_path, closing, deal)
    table = window.table
    qt_until(qtbot, lambda: window.stack.currentWidget() is table
             and "You are watching" in table.watchers_line.label.text(), timeout=30000)
    say_by_keys(qtbot, table, "Go Grandpa!")  # (the Talk button is there for a watcher too)

    def heard() -> list[dict]:
        return [e for e in host.on_event.events if e.get("type") == "talk" and e["kind"] == "say"]
    qt_until(qtbot, lambda: heard(), timeout=30000)
    [said] = heard()
    assert (said["text"], said["role"], said["seat"]) == ("Go Grandpa!", "watcher", None)
    assert said["name"] == window.settings.display_name
    qt_until(qtbot, lambda: table.talk_list.lines() == ["You: Go Grandpa!"], timeout=30000)


@pytest.mark.parametrize("deal", [False, True], ids=["seeded", "private"])
def test_grandma_shows_her_cards_to_a_watcher_who_sees_them_and_cannot_play(qtbot, window, directory,
                                                                             tmp_path, closing, deal):
    """…and who has the coach's Hint while (and only while) her hand is shown."""
    window.network = LoopbackNetwork(tmp_path)
    host = headless_host(tmp_path, deal, {2: "random", 3: "random"})
    closing.append(host)
    grandma_events = Recorder()
    grandma = GuestSession(grandma_events, ident("Grandma"), address="127.0.0.1", port=host.core.port,
                           fingerprint=host.core.identity.fingerprint, timings=QUICK,
                           bot_level="random", bot_delay=0.3, state_dir=tmp_path / "grandma")
    closing.append(grandma)
    blocking_until(lambda: grandma.core.replica is not None and grandma.core.replica.hand is not None,
                   timeout=30)
    watch_from_the_lobby(qtbot, window, directory, host)
    table = window.table
    me = ident(window.settings.display_name).fingerprint
    blocking_until(lambda: any(e.get("type") == "watchers" and any(w["fingerprint"] == me for w in e["watchers"])
                               for e in grandma_events.events), timeout=30)
    qt_until(qtbot, lambda: table.data.watching)
    assert table.hint_button.isHidden()  # no hand shown yet: nothing to advise on
    grandma.show_hand(me, True)
    qt_until(qtbot, lambda: table.hand.cards and "Grandma is showing you" in table.watchers_line.label.text(),
             timeout=30000)
    assert table.data.watching and not table.decision.isVisible()
    # the coach's Hint: for the hand shown (what Grandma might do), never a move of its own
    assert not table.hint_button.isHidden()
    hints = []
    window.bridge.hint.connect(hints.append)
    table.hint_button.click()
    qt_until(qtbot, lambda: hints, timeout=30000)
    assert hints[0]["text"], hints
    assert table.data.deal == ("private" if deal else "seeded")  # (a person seated: her deal's kind)
    assert not table.status.text().startswith("Your turn")  # her turn, not the watcher's
    table._act({"play": table.hand.cards[0]})  # a coach's click: refused here, nothing sent
    assert "You are watching" in table.status.text()
    grandma.show_hand(me, False)
    qt_until(qtbot, lambda: not table.hand.cards and "Grandma" not in table.watchers_line.label.text(),
             timeout=30000)
    qt_until(qtbot, table.hint_button.isHidden)  # her hand gone: the Hint with it


@pytest.mark.parametrize("deal", [False, True], ids=["seeded", "private"])
def test_a_watcher_arriving_before_the_deal_is_told_it_watches(qtbot, window, directory, tmp_path,
                                                                closing, deal):
    """Seen in a real window: a watcher at a table whose seats are still filling saw the
    setup screen as a guest does, nothing saying it watches — it might think it sits
    somewhere. It says so as the table screen does, before and once the first hand is
    dealt; and "Back" takes it out at once, nothing to confirm."""
    window.network = LoopbackNetwork(tmp_path)
    host = HostSession(Recorder(), {"game": "rook"}, ident("Grandpa"), state_dir=tmp_path / "grandpa",
                       timings=QUICK, bots={1: "random", 2: "random"}, mental_deal=deal)
    closing.append(host)
    blocking_until(lambda: host.core.server is not None)
    directory.publish([{**table_info(host), "watchable": True}])
    qt_until(qtbot, lambda: window.lobby.list.count() == 1)
    window.lobby.list.setCurrentRow(0)
    window.lobby.watch_button.click()
    setup = window.setup
    qt_until(qtbot, lambda: setup.table.get("seats") and setup.watching_label.isVisible(), timeout=30000)
    assert window.stack.currentWidget() is setup
    assert setup.watching_label.text() == "You are watching this table"
    assert setup.table.get("you") is None and not setup.start_button.isVisible()
    # a player arrives meanwhile: the watcher is told the same, and the player sees who watches
    maya_events = Recorder()
    closing.append(GuestSession(maya_events, ident("Maya"), address="127.0.0.1", port=host.core.port,
                                fingerprint=host.core.identity.fingerprint, timings=QUICK,
                                state_dir=tmp_path / "maya"))
    blocking_until(lambda: any(e.get("type") == "watchers" and e["watchers"] for e in maya_events.events),
                   timeout=30)
    assert [w["name"] for w in maya_events.of("watchers")[-1]["watchers"]] == [window.settings.display_name]
    host.start_game()
    qt_until(qtbot, lambda: window.stack.currentWidget() is window.table
             and window.table.watchers_line.label.text() == setup.watching_label.text(), timeout=30000)
    assert window.table.hint_button.isHidden()


def test_the_setup_screen_says_who_watches_in_the_tables_words(qtbot):
    """The setup screen's line is the table's line: a player (the host too) sees who
    watches; nobody watching, no line."""
    from app.bridge import EventBridge
    from app.setup_view import SetupView
    from app.table.watchers_line import WatchersLine
    setup, line = SetupView(), WatchersLine()
    qtbot.addWidget(setup)
    qtbot.addWidget(line)
    setup.attach(FakeSession(), EventBridge())
    line.attach(FakeSession(), EventBridge())
    for event in ({"type": "watchers", "watchers": [LEO], "open": True, "cap": 8, "you_watch": False,
                   "showing": []},
                  {"type": "watchers", "watchers": [LEO, {**LEO, "name": "Ann", "fingerprint": "me"}],
                   "open": True, "cap": 8, "you_watch": True, "showing": []}):
        setup.on_watchers(event)
        line.on_watchers(event)
        assert setup.watching_label.text() == line.label.text() != ""
        assert not setup.watching_label.isHidden()
    assert setup.watching_label.text() == "You are watching this table (with 1 other)"
    setup.on_watchers({"type": "watchers", "watchers": [], "open": True, "cap": 8, "you_watch": False,
                       "showing": []})
    assert setup.watching_label.isHidden()


class FakeSession:
    """A session's watcher commands, recorded."""

    def __init__(self):
        self.calls: list[tuple] = []

    def show_hand(self, fingerprint, on):
        self.calls.append(("show_hand", fingerprint, on))

    def remove_watcher(self, fingerprint):
        self.calls.append(("remove_watcher", fingerprint))

    def set_watching(self, open_, cap=None):
        self.calls.append(("set_watching", open_))

    def invite_watcher(self):
        self.calls.append(("invite_watcher",))


LEO = {"name": "Leo", "fingerprint": "aaaa-bbbb", "shown": []}


def test_the_watchers_line_says_who_watches_and_offers_each_its_commands(qtbot):
    from PySide6.QtGui import QAction

    from app.bridge import EventBridge
    from app.table.watchers_line import WatchersLine
    line = WatchersLine()
    qtbot.addWidget(line)
    session, bridge = FakeSession(), EventBridge()
    line.attach(session, bridge)
    line.show()
    event = {"type": "watchers", "watchers": [LEO, {**LEO, "name": "Maya", "fingerprint": "cccc"}],
             "open": True, "cap": 8, "you_watch": False, "showing": ["cccc"]}
    line.on_watchers(event)
    assert line.label.text() == "Watching: Leo, Maya"
    actions = {a.objectName(): a for a in line.menu.findChildren(QAction) if a.objectName()}
    assert {"show-aaaa-bbbb", "show-cccc"} <= set(actions) and "remove-aaaa-bbbb" not in actions
    assert actions["show-cccc"].isChecked() and not actions["show-aaaa-bbbb"].isChecked()
    actions["show-aaaa-bbbb"].toggle()  # a player: Show my cards to Leo
    assert session.calls == [("show_hand", "aaaa-bbbb", True)]
    line.set_host(True)  # the host: remove, invite, let people watch
    actions = {a.objectName(): a for a in line.menu.findChildren(QAction) if a.objectName()}
    actions["remove-aaaa-bbbb"].trigger()
    actions["allowWatching"].toggle()
    assert session.calls[1:] == [("remove_watcher", "aaaa-bbbb"), ("set_watching", False)]
    assert "inviteWatcher" in actions
    # a watcher: what it watches and whose cards it is shown, no commands
    line.set_host(False)
    line.on_watchers({**event, "you_watch": True, "showing": []})
    line.on_shown({"type": "shown", "seat": 1, "name": "Grandma", "showing": True,
                   "text": "Grandma is showing you her cards"})
    assert line.label.text() == "You are watching this table · Grandma is showing you her cards (with 1 other)"
    assert line.menu.isEmpty() and line.button.isHidden()
    line.on_shown({"type": "shown", "seat": 1, "name": "Grandma", "showing": False, "text": ""})
    assert "Grandma" not in line.label.text()


class HostsCommands(FakeSession):
    def set_watching(self, open_, cap=None):
        self.calls.append(("set_watching", open_, cap))


def test_the_hosts_watchers_menu_is_there_before_anyone_watches(qtbot, window):
    """Before the first watcher comes, the host can invite one from another house, turn
    watching off, or change the cap, from the Watchers button beside Talk — which takes
    no line of its own; the watchers' line shows only once someone watches."""
    from PySide6.QtGui import QAction
    from fit_scenes import settle, sit_at

    from app.table.watchers_line import WatchersLine
    bridge, _, _ = sit_at(window, {"game": "rook"}, lambda s: s.phase == "play")  # (the host's)
    table = window.table
    qt_until(qtbot, lambda: table.watchers_line.button.isVisible())
    assert not table.watchers_line.isVisible()  # nobody watches: no line
    session = HostsCommands()
    table.watchers_line.session = session  # (what the menu's entries ask of the session)
    table.watchers_line.redraw()
    assert table.watchers_line.button.parentWidget() is not table.watchers_line  # (the status row)
    menu = table.watchers_line.menu
    actions = {a.objectName(): a for a in menu.findChildren(QAction) if a.objectName()}
    assert {"inviteWatcher", "allowWatching", "cap-8"} <= set(actions)
    assert actions["allowWatching"].isChecked() and actions["cap-8"].isChecked()
    actions["cap-4"].trigger()
    actions["allowWatching"].toggle()
    assert session.calls == [("set_watching", True, 4), ("set_watching", False, None)]
    bridge.deliver({"type": "watchers", "watchers": [], "open": False, "cap": 4, "you_watch": False,
                    "showing": [], "you": "host"})
    settle()
    actions = {a.objectName(): a for a in menu.findChildren(QAction) if a.objectName()}
    assert actions["cap-4"].isChecked() and not actions["allowWatching"].isChecked()
    # a player (not the host) with nobody watching: nothing to offer, no button
    guest = WatchersLine()
    qtbot.addWidget(guest)
    guest.attach(FakeSession(), bridge)
    guest.on_watchers({"type": "watchers", "watchers": [], "open": True, "cap": 8,
                       "you_watch": False, "showing": [], "you": "me"})
    assert guest.menu.isEmpty() and guest.button.isHidden()


def test_the_host_dialog_sets_watching_and_its_cap_and_the_table_keeps_them(qtbot, tmp_path):
    from app.host_dialog import HostDialog
    from net.sessions.host_session import HostCore
    from net.sessions.watchers import WatchPolicy
    dialog = HostDialog("Grandma")
    qtbot.addWidget(dialog)
    assert dialog.watch_box.isChecked() and dialog.cap_box.value() == 8  # (the default)
    dialog.cap_box.setValue(3)
    assert dialog.settings()["max_watchers"] == 3 and dialog.settings()["watching"] is True
    dialog.watch_box.setChecked(False)
    assert not dialog.cap_box.isEnabled()
    chosen = dialog.settings()
    again = HostDialog("Grandma", remembered=chosen)  # (opened on last time's choices)
    qtbot.addWidget(again)
    assert not again.watch_box.isChecked() and again.cap_box.value() == 3
    host = HostCore(ident("Grandma"), chosen, state_dir=tmp_path / "host", timings=QUICK)
    assert host.watchers.policy == WatchPolicy(False, 3)
    assert "watching" not in host.settings and "max_watchers" not in host.settings  # (not the game's)


def test_the_lobby_row_says_a_table_may_be_watched(qtbot, window, directory):
    from app.lobby import describe_table
    kitchen = {"name": "Kitchen", "game": "rook", "host": "Grandpa", "open_seats": 0, "in_game": True}
    assert describe_table({**kitchen, "watchable": True}).endswith("full  ·  game in progress · you may watch")
    assert describe_table({**kitchen, "watchable": False}).endswith("full  ·  game in progress")
    assert "watch" not in describe_table({**kitchen, "watchable": True}, yours=True)  # (you play it)
    directory.publish([{**kitchen, "id": "k", "address": "127.0.0.1", "port": 1, "protocol": 1,
                        "fingerprint": "abcd", "watchable": True}])
    qt_until(qtbot, lambda: window.lobby.list.count() == 1)
    shown = [label.text() for label in window.lobby.list.itemWidget(window.lobby.list.item(0))
             .findChildren(QLabel)]
    assert any(text.endswith("game in progress · you may watch") for text in shown), shown


def test_the_watchers_menu_opens_inside_the_window(qtbot, window):
    """Seen in a real window: the Watchers button sits at the window's right edge, and
    its menu opened from the button's left edge, past the window's right edge (Qt keeps
    a menu on the screen only). The window is moved so that the screen goes on past it."""
    from PySide6.QtCore import Qt
    from fit_scenes import sit_at

    from app.menus import on_screen
    sit_at(window, {"game": "rook"}, lambda s: s.phase == "play")  # (the host's)
    table = window.table
    table.watchers_line.session = HostsCommands()
    table.watchers_line.redraw()
    window.move(-400, 0)  # (the test screen is narrower than the window: its right edge on it)
    qt_until(qtbot, lambda: window.geometry().right() < window.screen().geometry().right() - 100)
    button, menu = table.watchers_line.button, table.watchers_line.menu
    qt_until(qtbot, button.isVisible)
    qtbot.mouseClick(button, Qt.LeftButton)
    qt_until(qtbot, menu.isVisible)
    inside, opened = on_screen(window), menu.geometry()
    assert inside.contains(opened), f"the menu at {opened}, the window at {inside}"
    assert opened.right() == on_screen(button).right()  # (aligned to the button's right edge)
    caps = next(a.menu() for a in menu.actions() if a.menu() is not None)  # How many may watch
    menu.setActiveAction(caps.menuAction())
    qtbot.keyClick(menu, Qt.Key_Right)  # (Qt opens a submenu at its menu's right)
    qt_until(qtbot, caps.isVisible)
    assert inside.contains(caps.geometry()), f"the submenu at {caps.geometry()}, the window at {inside}"
    assert caps.geometry().right() < opened.left()  # (beside the menu, not over it)
    caps.hide()
    menu.hide()


def test_a_menu_kept_inside_its_window_moves_only_when_it_would_leave_it():
    from PySide6.QtCore import QPoint, QRect

    from app.menus import inside
    window, button = QRect(0, 0, 1000, 700), QRect(880, 600, 112, 28)
    assert inside(QRect(100, 100, 360, 90), QRect(100, 72, 112, 28), window) == QPoint(100, 100)
    assert inside(QRect(880, 628, 360, 60), button, window) == QPoint(632, 628)  # its right edge
    assert inside(QRect(880, 628, 360, 94), button, window) == QPoint(632, 506)  # and above it
    assert inside(QRect(880, 628, 1200, 60), button, window).x() == 0  # no further than the left
    menu = QRect(632, 628, 360, 94)  # a submenu beside its menu: to the menu's left, up to fit
    assert inside(QRect(992, 660, 200, 170), menu, window, beside=True) == QPoint(432, 530)
