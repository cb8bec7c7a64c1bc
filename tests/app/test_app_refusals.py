"""Honest players never see refusals (issue 9, item 7): a guest window at a Rook table
plays a whole hand — its "Got it" crossing the others', and sent a second time as a
double press would — and not one error reaches its screen; the same at a table against
the computer."""

from __future__ import annotations

from app_driver import Clicker, moment
from net_kit import LoopbackNetwork, Recorder, table_info
from PySide6.QtCore import Qt

from tests.app.test_app_network import _headless_host
from tests.app.test_app_play import sit_down
from tests.waits import qt_until


def play_a_hand_pressing_got_it_twice(qtbot, window) -> tuple[list, list, list]:
    table, clicker = window.table, Clicker(qtbot, window.table)
    errors, hands, problems = [], [], []
    window.bridge.error.connect(errors.append)
    window.bridge.hand_over.connect(hands.append)
    twice = False
    for _ in range(200):
        qt_until(qtbot, lambda: hands or (table.legal and table.decision.kind != "sent"), timeout=20000)
        if hands:
            break
        if table.status.property("problem"):
            problems.append(table.status.text())
        if any("ack" in e for e in table.legal) and not twice:
            qtbot.mouseClick(table.decision.buttons["got-it"], Qt.LeftButton)
            window.session.act({"ack": True})  # a second press, straight after
            twice = True
            qt_until(qtbot, lambda: not any("ack" in e for e in table.legal) or hands)
            continue
        before = moment(table)
        legal = list(table.legal)
        clicker.act_once()
        try:
            qt_until(qtbot, lambda: moment(table) != before or hands,
                     timeout=20000)
        except qtbot.TimeoutError:  # say what was tried and what the window said
            raise AssertionError(f"the move went nowhere: offered {legal}, errors {errors}, "
                                 f"status {table.status.text()!r}, phase "
                                 f"{table.view.get('phase')!r}") from None
    return errors, hands, problems


def test_a_guest_window_sees_no_refusal_in_a_whole_hand(qtbot, window, tmp_path):
    host = _headless_host(tmp_path, "Mum", Recorder())
    try:
        window.network = LoopbackNetwork(tmp_path)
        window.join(table_info(host))
        qt_until(qtbot, lambda: window.stack.currentWidget() is window.table, timeout=20000)
        errors, hands, problems = play_a_hand_pressing_got_it_twice(qtbot, window)
        assert hands and errors == [] and problems == []
        assert window.session.core.errors == []  # not even one kept out of sight
    finally:
        host.close()


def test_got_it_twice_against_the_computer_changes_nothing(qtbot, window):
    sit_down(qtbot, window, {"game": "rook"})
    errors, hands, problems = play_a_hand_pressing_got_it_twice(qtbot, window)
    assert hands and errors == [] and problems == []
