"""Nothing lost to a mis-click, no input that breaks things (issue 9, item 3).

* Leave in the middle of a game asks first and says what happens to your seat (kept for
  a guest, the table closed for a host, the game over for a game against the computer).
* Join by address: checked as you type, the mistake said under the field; a wrong
  address or a silent one ends in a sentence without error numbers, within 5 s, and
  Cancel works meanwhile; a guest connecting sees none of the host's controls; nothing
  is ever printed to stderr.
* Names: too long is refused with a message at the limit, never cut without a word.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
from net_kit import QUICK, LoopbackNetwork, Recorder, table_info
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from app.fields import NAME_LIMIT
from app.join_dialog import JoinAddressDialog
from app.settings import FirstStartDialog, SettingsDialog
from tests.app.test_app_network import ROOK, _headless_host
from tests.app.test_app_play import sit_down
from tests.waits import blocking_until, qt_until


def confirm_box(qtbot, window) -> QMessageBox:
    qt_until(qtbot, lambda: window.leave_box is not None and window.leave_box.isVisible())
    return window.leave_box


def button(box: QMessageBox, name: str):
    return next(b for b in box.buttons() if b.objectName() == name)


# -- Leave -------------------------------------------------------------------------------

def test_leaving_a_game_against_the_computer_asks_first(qtbot, window):
    sit_down(qtbot, window, {"game": "rook"})
    session = window.session
    qtbot.mouseClick(window.table.leave_button, Qt.LeftButton)
    box = confirm_box(qtbot, window)
    # The game is kept now (issue 12): the box says where to find it again.
    assert box.text() == "Leave this game?" and "is kept" in box.informativeText() \
        and "continue it from the lobby" in box.informativeText()
    assert box.defaultButton() is button(box, "confirmLeaveNo")  # Enter stays
    qtbot.mouseClick(button(box, "confirmLeaveNo"), Qt.LeftButton)
    qt_until(qtbot, lambda: not box.isVisible())
    assert window.stack.currentWidget() is window.table and window.session is session
    qtbot.mouseClick(window.table.leave_button, Qt.LeftButton)
    qtbot.mouseClick(button(confirm_box(qtbot, window), "confirmLeaveYes"), Qt.LeftButton)
    qt_until(qtbot, lambda: window.stack.currentWidget() is window.lobby)
    assert window.session is None
    assert window.lobby.unfinished_card.isVisible()  # and the lobby offers to go on


def test_a_guest_is_told_their_seat_is_kept(qtbot, window, tmp_path, closing):
    closing.append(_headless_host(tmp_path, "Mum", Recorder()))
    window.network = LoopbackNetwork(tmp_path)
    window.join(table_info(closing[0]))
    qt_until(qtbot, lambda: window.stack.currentWidget() is window.table, timeout=20000)
    qtbot.mouseClick(window.table.leave_button, Qt.LeftButton)
    box = confirm_box(qtbot, window)
    assert box.text() == "Leave the table?"
    assert "Your seat is kept for you" in box.informativeText() and "Rejoin" in box.informativeText()
    qtbot.mouseClick(button(box, "confirmLeaveYes"), Qt.LeftButton)
    qt_until(qtbot, lambda: window.stack.currentWidget() is window.lobby)


def test_a_host_is_told_the_table_closes_for_everyone(qtbot, window, tmp_path, monkeypatch):
    window.network = LoopbackNetwork(tmp_path)
    monkeypatch.setattr(window, "ask_game", lambda local: dict(ROOK))
    window.host_table()
    qt_until(qtbot, lambda: window.setup.start_button.isEnabled())
    qtbot.mouseClick(window.setup.start_button, Qt.LeftButton)
    qt_until(qtbot, lambda: window.stack.currentWidget() is window.table)
    qtbot.mouseClick(window.table.leave_button, Qt.LeftButton)
    box = confirm_box(qtbot, window)
    assert box.text() == "Close the table for everyone?" and "game ends for everyone" in \
        box.informativeText()
    qtbot.mouseClick(button(box, "confirmLeaveNo"), Qt.LeftButton)
    assert window.stack.currentWidget() is window.table


def _host_a_hand_with_a_guest(qtbot, window, tmp_path, monkeypatch, closing) -> Recorder:
    """The window hosts Rook with a headless guest (a bot plays its seat) and deals."""
    from net.sessions.session import GuestSession
    from tests.net.trust_table import identity
    window.network = LoopbackNetwork(tmp_path)
    monkeypatch.setattr(window, "ask_game", lambda local: dict(ROOK))
    window.host_table()
    host = window.session
    qt_until(qtbot, lambda: host.core.server is not None)
    guest = Recorder()
    closing.append(GuestSession(guest, identity("Dad"), address="127.0.0.1", port=host.core.port,
                                fingerprint=host.core.identity.fingerprint, timings=QUICK,
                                bot_level="easy", state_dir=tmp_path / "dad"))
    qt_until(qtbot, lambda: window.setup.start_button.isEnabled()
          and any(s["name"] == "Dad" for s in window.setup.table.get("seats") or []))
    qtbot.mouseClick(window.setup.start_button, Qt.LeftButton)
    qt_until(qtbot, lambda: window.stack.currentWidget() is window.table and window.table.view.get("hand"))
    return guest


def test_closing_the_hosts_window_mid_hand_asks_first(qtbot, window, tmp_path, monkeypatch, closing):
    """Issue 20: Alt+F4 while hosting closed the table for everyone at once."""
    guest = _host_a_hand_with_a_guest(qtbot, window, tmp_path, monkeypatch, closing)
    session = window.session
    window.close()
    box = confirm_box(qtbot, window)
    assert window.isVisible() and box.text() == "Close the table for everyone?"
    assert "if you close Parlour, the game ends for everyone" in box.informativeText()
    assert {b.text() for b in box.buttons()} == {"End the game for everyone", "Cancel"}
    assert box.defaultButton() is button(box, "confirmLeaveNo")  # Enter keeps the game
    qtbot.mouseClick(button(box, "confirmLeaveNo"), Qt.LeftButton)
    qt_until(qtbot, lambda: not box.isVisible())
    assert window.isVisible() and window.session is session and not guest.of("error")
    window.close()  # again, and this time end it
    qtbot.mouseClick(button(confirm_box(qtbot, window), "confirmLeaveYes"), Qt.LeftButton)
    qt_until(qtbot, lambda: not window.isVisible())
    assert window.session is None
    blocking_until(lambda: any("The host closed the table" in e["message"] for e in guest.of("error")))


def test_closing_a_guests_window_mid_hand_asks_first(qtbot, window, tmp_path, closing):
    host_events = Recorder()
    closing.append(_headless_host(tmp_path, "Mum", host_events))
    window.network = LoopbackNetwork(tmp_path)
    window.join(table_info(closing[0]))
    qt_until(qtbot, lambda: window.stack.currentWidget() is window.table and window.table.view.get("hand"),
          timeout=20000)
    window.close()
    box = confirm_box(qtbot, window)
    assert window.isVisible() and box.text() == "Leave the table?"
    assert "Your seat is kept for you" in box.informativeText()
    assert {b.text() for b in box.buttons()} == {"Close Parlour", "Cancel"}
    qtbot.mouseClick(button(box, "confirmLeaveNo"), Qt.LeftButton)
    qt_until(qtbot, lambda: not box.isVisible())
    assert window.isVisible() and window.session is not None
    window.close()
    qtbot.mouseClick(button(confirm_box(qtbot, window), "confirmLeaveYes"), Qt.LeftButton)
    qt_until(qtbot, lambda: not window.isVisible())
    blocking_until(lambda: any(e["state"] == "dropped" for e in host_events.of("connection")))


def test_closing_the_window_at_a_game_against_the_computer_keeps_it_without_asking(qtbot, window):
    sit_down(qtbot, window, {"game": "rook"})
    window.close()
    qt_until(qtbot, lambda: not window.isVisible())
    assert window.leave_box is None and window.session is None


# -- Join by address -----------------------------------------------------------------------

@pytest.mark.parametrize("typed, says", [
    ("192.168.1.20", "Add the port after a colon"),
    ("192.168.1.300:47311", "is not an IPv4 address"),
    ("kitchen pc:47311", "only letters, digits, hyphens and dots"),
    ("192.168.1.20:99999", "from 1 to 65535"),
    ("fe80::1:47311", "square brackets"),
])
def test_join_by_address_says_what_is_wrong_as_you_type(qtbot, typed, says):
    dialog = JoinAddressDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.join_button.isEnabled() and not dialog.problem.isVisible()  # empty: no fuss
    QTest.keyClicks(dialog.field, typed)
    assert says in dialog.problem.text() and dialog.problem.isVisible()
    assert not dialog.join_button.isEnabled()
    QTest.keyClick(dialog.field, Qt.Key_Return)  # Enter with a bad address: nothing happens
    assert dialog.isVisible()
    dialog.field.setText("[fe80::1]:47311")
    assert dialog.join_button.isEnabled() and not dialog.problem.isVisible()
    assert dialog.address() == "[fe80::1]:47311"


def test_a_wrong_address_ends_in_plain_words_and_nothing_on_stderr(qtbot, window, tmp_path, capfd):
    from net.sessions.network import Network
    window.network = Network(interfaces=[], home=tmp_path)  # the real provider, no mDNS
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]

    def type_address():
        dialog = QApplication.activeModalWidget()
        QTest.keyClicks(dialog.field, "nowhere:0")  # a mistake first: said, not sent
        assert "from 1 to 65535" in dialog.problem.text() and not dialog.join_button.isEnabled()
        dialog.field.setText(f"127.0.0.1:{closed}")
        qtbot.mouseClick(dialog.join_button, Qt.LeftButton)
    QTimer.singleShot(0, type_address)
    qtbot.mouseClick(window.lobby.address_button, Qt.LeftButton)
    qt_until(qtbot, lambda: window.problem_box is not None and window.problem_box.isVisible())
    text = window.problem_box.text()
    assert f"Couldn't reach the table at 127.0.0.1:{closed}: nothing answered at that port" in text
    assert "rrno" not in text and "Error" not in text
    window.problem_box.close()
    window.join("this is: not an address")  # whatever reaches it: a sentence, no traceback
    qt_until(qtbot, lambda: window.problem_box.isVisible())
    assert "only letters, digits, hyphens and dots" in window.problem_box.text()
    assert window.stack.currentWidget() is window.lobby
    assert "Traceback" not in capfd.readouterr().err


@pytest.fixture
def silent_server():
    """A port that accepts connections and never says a word (a frozen host)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held, stop = [], threading.Event()

    def accept():
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                pass
    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join(2)
    for conn in held:
        conn.close()
    server.close()


def test_connecting_gives_up_at_its_deadline(qtbot, window, tmp_path, silent_server):
    """A host that accepts the connection and never answers: the app gives up at its
    first join's deadline (``FIRST_JOIN_WITHIN``, 5 s) and says so — not after its
    reconnection attempts (about a minute), however loaded the machine."""
    from net.constants import FIRST_JOIN_WITHIN
    from net.sessions.network import Network
    window.network = Network(interfaces=[], home=tmp_path)  # production timings
    started = time.monotonic()
    window.join(f"127.0.0.1:{silent_server}")
    setup = window.setup
    # Connecting: Cancel, and nothing only a host could use.
    assert setup.back_button.text() == "Cancel" and setup.subtitle.text() == "Connecting to the table…"
    for widget in (setup.start_button, setup.fill_box, setup.fill_label, setup.teams_note,
                   setup.address_label, setup.copy_button):
        assert not widget.isVisible()
    qt_until(qtbot, lambda: window.problem_box is not None and window.problem_box.isVisible(),
             timeout=30_000)
    took = time.monotonic() - started
    assert FIRST_JOIN_WITHIN - 0.1 <= took < 3 * FIRST_JOIN_WITHIN, took  # (0.05 s early at most)
    assert "it did not answer in time" in window.problem_box.text()
    window.problem_box.close()


def test_cancel_while_connecting_goes_back_at_once(qtbot, window, tmp_path, silent_server):
    from net.sessions.network import Network
    window.network = Network(interfaces=[], home=tmp_path)
    window.join(f"127.0.0.1:{silent_server}")
    qtbot.wait(300)
    started = time.monotonic()
    qtbot.mouseClick(window.setup.back_button, Qt.LeftButton)
    # the attempt is cancelled, not waited out (its timeout: 5 s)
    assert time.monotonic() - started < 2.5
    assert window.stack.currentWidget() is window.lobby and window.session is None
    qtbot.wait(200)
    assert window.problem_box is None  # leaving on purpose is not a problem


# -- names -----------------------------------------------------------------------------------

def test_a_name_too_long_is_refused_with_a_message_not_cut(qtbot, settings):
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.name_edit.clear()
    QTest.keyClicks(dialog.name_edit, "G" * NAME_LIMIT)
    assert dialog.name_note.isVisible() and "the most a name can have" in dialog.name_note.text()
    assert dialog.save_button.isEnabled()
    QTest.keyClicks(dialog.name_edit, "ran")  # past the limit: kept as typed, and refused
    assert dialog.name_edit.text() == "G" * NAME_LIMIT + "ran"
    assert f"Too long: {NAME_LIMIT + 3} characters, and a name has at most {NAME_LIMIT}" in dialog.name_note.text()
    assert not dialog.save_button.isEnabled()
    QTest.keyClick(dialog.name_edit, Qt.Key_Return)
    assert settings.display_name == "Ann"  # nothing saved
    for _ in range(3):
        QTest.keyClick(dialog.name_edit, Qt.Key_Backspace)
    assert dialog.save_button.isEnabled()


def _contrast(a, b) -> float:
    """The WCAG contrast ratio of two QColors (1: none, 21: black on white)."""
    def luminance(c):
        def channel(v):
            v /= 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_name_hint_is_readable_on_the_dark_settings_dialog(qtbot, window):
    """A name already at the limit: the hint is shown as the dialog opens, before the
    window's style makes it dark green, and was written dark grey on it (issue 20)."""
    window.settings.display_name = "G" * NAME_LIMIT
    dialog = SettingsDialog(window.settings, window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    note = dialog.name_note
    assert note.isVisible() and "the most a name can have" in note.text()
    text = note.palette().color(note.foregroundRole())
    ground = dialog.palette().color(QPalette.Window)
    assert ground.lightness() < 100  # the window's dark green
    assert _contrast(text, ground) >= 4.5, (text.name(), ground.name())


def test_a_long_pasted_first_name_is_not_cut_either(qtbot, settings):
    settings.display_name = ""
    dialog = FirstStartDialog(settings)
    qtbot.addWidget(dialog)
    dialog.name_edit.setText("Grandma Josephine Abernathy-Smythe")  # pasted
    assert dialog.name_edit.text() == "Grandma Josephine Abernathy-Smythe"
    assert not dialog.ok_button.isEnabled() and "Too long" in dialog.name_note.text()
    dialog.accept()
    assert settings.display_name == ""


def test_a_table_name_too_long_is_refused(qtbot):
    from app.host_dialog import HostDialog
    dialog = HostDialog("Ann")
    qtbot.addWidget(dialog)
    dialog.name_edit.setText("T" * 41)
    assert "a table name has at most 40" in dialog.name_note.text()
    dialog.name_edit.setText("")  # empty is fine: the table gets a default name, and says which
    assert dialog.settings()["name"] == "Ann's table" and "Ann's table" in dialog.name_note.text()


# -- What players met after issue 9 ----------------------------------------------------------

def test_enter_deals_the_first_hand(qtbot, window):
    window.start_local({"game": "rook"}, table_seed=bytes(32))
    qt_until(qtbot, lambda: window.setup.start_button.isEnabled())
    assert "Enter" in window.setup.start_button.toolTip()
    QTest.keyClick(window.setup, Qt.Key_Return)
    qt_until(qtbot, lambda: window.stack.currentWidget() is window.table)


def test_the_hand_summary_has_a_way_out_that_asks_first(qtbot, window):
    from fit_scenes import deliver_hand_over, sit_at
    bridge, game, state = sit_at(window, {"game": "rook"}, lambda s: s.is_over)
    window.table.last_trick_hold_ms = 0
    deliver_hand_over(bridge, game, state, [0, 0])
    summary = window.table.summary
    qt_until(qtbot, lambda: summary.isVisible() and not summary.game_over)
    assert summary.leave_button.isVisible() and summary.leave_button.text() == "Leave"
    qtbot.mouseClick(summary.leave_button, Qt.LeftButton)
    box = confirm_box(qtbot, window)  # the game is not over: the same question as the table's Leave
    qtbot.mouseClick(button(box, "confirmLeaveNo"), Qt.LeftButton)
    qt_until(qtbot, lambda: not box.isVisible())
    assert window.stack.currentWidget() is window.table and summary.isVisible()


def test_a_refusal_stays_readable_until_the_game_moves_on(qtbot, window):
    from fit_scenes import my_turn, settle, sit_at
    from net.sessions.events import state_event
    bridge, game, state = sit_at(window, {"game": "rook"}, my_turn("bidding"))
    status = window.table.status
    bridge.deliver({"type": "error", "message": "bids go up in steps of 5"})
    bridge.deliver(state_event(game, state, 0, [], [0, 0], 3))  # the same position, offered again
    settle()
    assert status.text() == "bids go up in steps of 5" and status.property("problem")
    assert window.table.decision.isVisible()  # and the decision is there to try again
    state.apply(next(a for a in state.legal_actions(0) if a.kind == "pass"))
    bridge.deliver(state_event(game, state, 0, [], [0, 0], 3))  # someone acted: the game moved on
    settle()
    assert status.text().startswith("Waiting for ") and not status.property("problem")


def test_someone_elses_turn_is_said_of_them(qtbot, window):
    """"Waiting for Grandma to raise their contract", not "your contract"."""
    from fit_scenes import LONG_NAMES, settle, sit_at
    from net.sessions.events import state_event
    bridge, game, state = sit_at(window, {"game": "rook"}, lambda s: s.phase == "bidding")
    while state.phase == "bidding":  # seat 1 opens at the least, everyone else passes
        seat = state.to_act()[0]
        kinds = ("bid",) if seat == 1 else ("pass",)
        state.apply(next(a for a in state.legal_actions(seat) if a.kind in kinds))
    assert state.phase == "raise" and list(state.to_act()) == [1]
    bridge.deliver(state_event(game, state, 0, [], [0, 0], 3))
    settle()
    assert window.table.status.text() == f"Waiting for {LONG_NAMES[1]} to raise their contract or keep it"
