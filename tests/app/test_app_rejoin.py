"""Rejoin after the app restarted (issue 9, item 1), with real processes on 127.0.0.1.

A ``parlour host`` process runs a Rook table (its own seat and two more played by its
bots). Dad's Parlour — the real window and network provider, as its own process
(guest_app.py) — joins by address, is dealt a hand, and is killed (SIGKILL) when the
game waits for his bid. Multicast is off throughout: only the address Dad's Parlour
remembered on disk can find the table again.

The restarted Parlour (this test's window, same data directory) offers "Rejoin Kitchen
table — hand 1, you 0, them 0" at the top of the lobby; one click and the same
cards are back. Then a second restart as a process of its own measures the whole
thing as a person sees it: from the window showing to the hand back on screen, with no
typing; the figures are printed (``pytest -s``). The issue's 5 s is a figure for a person's
machine, not a ceiling here: a wall-clock budget fails on a loaded machine, not on slow
code (a fresh process took 5.4 s beside load 10-18 in a run of the slow tier); the waits
below fail only when the rejoin never comes.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.net.proc_kit import Peers
from tests.waits import qt_until

GUEST_APP = str(Path(__file__).with_name("guest_app.py"))
TABLE = "Kitchen table"



@pytest.fixture
def peers():
    with Peers() as p:
        yield p


def seated(host, seat: int) -> list[dict]:
    return [e for e in host.events("connection") if e["state"] == "connected" and e["seat"] == seat]


def first_decision(peer) -> dict:
    """The guest's position once the game waits for it (its hand dealt, its turn)."""
    return peer.wait_event("state", timeout=40, where=lambda e: e["legal"] and e["hand"])


def test_a_guest_killed_mid_hand_rejoins_from_the_lobby_with_the_same_cards(
        qtbot, peers, tmp_path, settings):
    from app.window import MainWindow
    from net.sessions.network import Network
    home = tmp_path / "dad"
    home.mkdir()
    host = peers.start(["host", "--game", "rook", "--bots", "2", "--name", "Mum", "--table", TABLE,
                        "--state-dir", tmp_path / "host", "--no-advertise"], name="host")
    port = host.wait_event("listening")["port"]

    dad = peers.start(["join", home, f"127.0.0.1:{port}"], name="dad", script=GUEST_APP)
    before = first_decision(dad)
    dad.kill()  # mid-hand, without a word: as a crash or a power cut would
    host.wait_event("connection", where=lambda e: e["state"] == "dropped")

    # Dad starts Parlour again: the real window, net loaded after it shows.
    settings.display_name = "Dad"
    window = MainWindow(settings, network_loader=lambda: Network(interfaces=[], home=home),
                        bot_delay=0)
    qtbot.addWidget(window)
    try:
        window.show()
        shown = time.perf_counter()
        lobby = window.lobby
        qt_until(qtbot, lobby.rejoin_button.isVisible)
        assert lobby.rejoin_button.text() == f"Rejoin {TABLE} — hand 1, you 0, them 0"
        assert f"at 127.0.0.1:{port}" in lobby.rejoin_note.text()
        qtbot.mouseClick(lobby.rejoin_button, Qt.LeftButton)
        table = window.table
        qt_until(qtbot, lambda: window.stack.currentWidget() is table and table.view.get("hand"))
        in_process_ms = round((time.perf_counter() - shown) * 1000)
        assert sorted(table.view["hand"]) == before["hand"]  # the same cards
        qt_until(qtbot, lambda: table.legal)  # and his bid is asked for again
        qt_until(qtbot, lambda: len(seated(host, 3)) == 2)  # the host has him back
        window.leave_table()  # Leave: the seat stays his
    finally:
        window.close()

    # Once more, as a process of its own: the figure a person would see.
    again = peers.start(["rejoin", home], name="dad-again", script=GUEST_APP)
    offered = again.wait_event("offered", timeout=40)
    back = again.wait_event("rejoined", timeout=40)
    print(f"\nrejoin after restart: window shown -> Rejoin offered {offered['after_ms']} ms, "
          f"-> hand on screen {back['shown_to_hand_ms']} ms (a fresh process); "
          f"{in_process_ms} ms in the test's own window")
    assert offered["text"] == f"Rejoin {TABLE} — hand 1, you 0, them 0"
    assert back["hand"] == before["hand"]  # its cards on screen: from its own copy at once,
    # and its bid asked for again once it holds what the host announced (not before)
    asked = back if back["legal"] else again.wait_event("state", timeout=40, where=lambda e: e["legal"])
    assert asked["hand"] == before["hand"]
    assert not host.events("alert") and not dad.events("alert") and not again.events("alert")


# -- the lobby's offer, the host's address, the waiting bar -------------------------------

OFFER = {"address": "192.168.1.20", "port": 47311, "fingerprint": "3f9a-07c2-b1d4-e608",
         "table": "t-1", "name": "Kitchen table", "host": "Mum", "game": "rook", "mode": None,
         "seat": 0, "players": 4, "side": 0, "hand": 4, "scores": [120, 85], "started": True,
         "where": "address"}
LISTED = {"id": "k", "name": "Kitchen table", "game": "rook", "ruleset": "rook", "mode": None,
          "host": "Mum", "fingerprint": "3F9A07C2B1D4E608", "open_seats": 0, "in_game": True,
          "address": "192.168.1.21", "port": 47312, "protocol": 1}


def test_the_rejoin_offer_is_on_top_and_enter_takes_it(qtbot, window):
    from PySide6.QtTest import QTest
    lobby, joined = window.lobby, []
    lobby.join_table.disconnect(window.join)  # what the lobby asks for, not a real join
    lobby.join_table.connect(joined.append)
    window.lobby_bridge.deliver({"type": "rejoin", "table": OFFER})
    qt_until(qtbot, lobby.rejoin_button.isVisible)
    assert lobby.rejoin_button.text() == "Rejoin Kitchen table — hand 4, you 120, them 85"
    assert lobby.rejoin_button.hasFocus()
    layout = lobby.layout()
    assert layout.indexOf(lobby.rejoin_card) < layout.indexOf(lobby.list.parentWidget())
    QTest.keyClick(lobby, Qt.Key_Return)  # Enter
    assert joined == [OFFER]
    opened = []
    lobby.play_local.disconnect(window.play_local)  # (the game dialog would wait for a person)
    lobby.play_local.connect(lambda: opened.append("local"))
    lobby.local_button.setFocus()
    QTest.keyClick(lobby, Qt.Key_Return)  # Enter on another focused button means that one
    assert opened == ["local"] and joined == [OFFER]
    window.lobby_bridge.deliver({"type": "rejoin", "table": None})
    qt_until(qtbot, lambda: not lobby.rejoin_card.isVisible())


def test_a_table_where_your_key_holds_a_seat_is_never_greyed_out(qtbot, window, directory):
    lobby, joined = window.lobby, []
    lobby.join_table.disconnect(window.join)  # what the lobby asks for, not a real join
    lobby.join_table.connect(joined.append)
    directory.publish([LISTED, {**LISTED, "id": "x", "name": "Attic", "fingerprint": "ab12"}])
    qt_until(qtbot, lambda: len(lobby.tables) == 2)
    lobby.list.setCurrentRow(0)  # "Kitchen table": full, game in progress
    assert not lobby.join_button.isEnabled()
    window.lobby_bridge.deliver({"type": "rejoin", "table": {**OFFER, "where": "network"}})
    qt_until(qtbot, lobby.rejoin_button.isVisible)
    assert lobby.tables[lobby.list.currentRow()]["id"] == "k"
    assert lobby.join_button.isEnabled() and lobby.join_button.text() == "Rejoin table"
    assert "your seat is kept for you" in lobby.list.currentItem().text()
    assert "found on your network" in lobby.rejoin_note.text()
    lobby.list.itemDoubleClicked.emit(lobby.list.currentItem())
    assert joined[-1]["seat"] == 0 and (joined[-1]["address"], joined[-1]["port"]) == \
        ("192.168.1.21", 47312)  # where the table is advertised now
    lobby.list.setCurrentRow(1)  # the other full table stays greyed out
    assert not lobby.join_button.isEnabled()


def test_rejoin_lines_for_every_kind_of_table():
    """Whose score is whose in words, and no compass point: no window shows one, and each
    draws its own player at the bottom whatever the seat's number (issue 20)."""
    from app.lobby import rejoin_text
    assert rejoin_text({**OFFER, "seat": 3, "side": 1}) == \
        "Rejoin Kitchen table — hand 4, you 85, them 120"
    assert rejoin_text({**OFFER, "players": 3, "seat": 2, "side": 2, "scores": [4, -3, 7]}) == \
        "Rejoin Kitchen table — hand 4, you 7, others 4, \u22123"
    assert rejoin_text({**OFFER, "started": False, "scores": []}) == \
        "Rejoin Kitchen table — waiting for the deal"


def test_the_host_sees_the_address_to_type_on_setup_and_table(qtbot, window, tmp_path, monkeypatch):
    from net_kit import LoopbackNetwork
    from PySide6.QtGui import QGuiApplication
    window.network = LoopbackNetwork(tmp_path)
    monkeypatch.setattr(window, "ask_game", lambda local: {"game": "rook", "name": "Kitchen table"})
    window.host_table()
    host = window.session
    qt_until(qtbot, lambda: window.setup.address_label.isVisible())
    address = f"127.0.0.1:{host.core.port}"  # bound to loopback in tests
    assert address in window.setup.address_label.text()
    qtbot.mouseClick(window.setup.copy_button, Qt.LeftButton)
    assert QGuiApplication.clipboard().text() == address
    qtbot.mouseClick(window.setup.start_button, Qt.LeftButton)
    qt_until(qtbot, lambda: window.stack.currentWidget() is window.table)
    table = window.table
    qt_until(qtbot, table.address_button.isVisible)
    window.resize(1600, 1000)
    qt_until(qtbot, lambda: table.address_button.text() == f"Join at {address}")
    window.resize(1024, 640)  # narrow: the address alone, the names need the room
    qt_until(qtbot, lambda: table.address_button.text() == address)
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(table.address_button, Qt.LeftButton)
    assert QGuiApplication.clipboard().text() == address


def test_typed_address_of_a_host_on_every_interface_is_a_real_one():
    import ipaddress
    from net.sessions.session import typed_address
    assert typed_address("127.0.0.1", 47311) == "127.0.0.1:47311"
    host, _, port = typed_address("0.0.0.0", 47311).rpartition(":")
    assert port == "47311" and not ipaddress.ip_address(host).is_unspecified


def on_top(table, widget) -> bool:
    """Whether a click at the middle of ``widget`` reaches it (nothing covers it)."""
    hit = table.childAt(widget.mapTo(table, widget.rect().center()))
    return hit is widget or (hit is not None and widget.isAncestorOf(hit))


def test_waiting_for_a_guest_does_not_stop_the_host_playing(qtbot, window, tmp_path, monkeypatch):
    """The guest drops while it is the host's turn: the bar says why in plain words — under
    the private deal, that the hand waits for them, only their computer knowing their
    cards, and until when — and the host's own card still goes down."""
    from app_driver import Clicker
    from net.sessions.session import GuestSession
    from net_kit import QUICK, LoopbackNetwork, Recorder, ident

    from net.wire.heartbeat import Timings
    # The deal waits long for Dad's healthy client (he is closed only once it is dealt): at
    # load 10-18 the quick 2 s deadline restarted him out of the deal, and the bar then
    # had no locked cards to speak of ('your client did not answer the deal in time').
    window.network = LoopbackNetwork(tmp_path, host_kw={
        "timings": Timings.quick(timeout=5.0, drop_wait=60.0, contribution=60.0)})
    monkeypatch.setattr(window, "ask_game", lambda local: {"game": "rook", "name": "Kitchen table"})
    window.host_table()
    host = window.session
    qt_until(qtbot, lambda: host.core.server is not None)
    guest = GuestSession(Recorder(), ident("Dad"), address="127.0.0.1", port=host.core.port,
                         timings=QUICK, bot_level="random", state_dir=tmp_path / "dad")
    try:
        qt_until(qtbot, lambda: any(s["name"] == "Dad" for s in window.setup.table.get("seats") or []))
        qtbot.mouseClick(window.setup.start_button, Qt.LeftButton)
        table, clicker = window.table, Clicker(qtbot, window.table)
        qt_until(qtbot, lambda: table.legal and table.decision.kind != "sent", timeout=20000)
        guest.close()  # Dad's app closes while the host is to act
        qt_until(qtbot, table.waiting.isVisible)
        qt_until(qtbot, lambda: table.waiting.locked)
        assert table.waiting.title.text() == \
            "Waiting for Dad to come back — only their computer knows their cards"
        assert table.waiting.detail.text() in (
            "Dealt again without them in 1:00 unless they come back.",
            "Dealt again without them in 0:59 unless they come back.")
        assert not table.connection.isVisible()
        # Nothing lies over the host's cards and choices: a click lands on them.
        controls = [w for w in table.decision.buttons.values() if w.isVisible()] + \
            [table.hand.widget_for(card) for card in table.hand.cards]
        assert controls and all(on_top(table, w) for w in controls)
        before = len(table.view.get("actions") or [])
        clicker.act_once()  # the host plays its own turn, the bar still up
        qt_until(qtbot, lambda: len(table.view.get("actions") or []) > before)
        assert table.waiting.isVisible()
    finally:
        guest.close()


def test_a_table_in_another_house_is_offered_in_words_not_its_address(qtbot, window):
    """Grandma's app, back after a restart, rejoins a table across houses: the card says
    where it is in words (no code is needed again), never the link's inner address."""
    from net.houses import house_address

    lobby = window.lobby
    far = house_address(bytes(32), "t-across")
    window.lobby_bridge.deliver({"type": "rejoin", "table": {**OFFER, "address": far, "port": 4321}})
    qt_until(qtbot, lobby.rejoin_button.isVisible)
    assert "in another house" in lobby.rejoin_note.text() and "no code needed" in lobby.rejoin_note.text()
    assert far not in lobby.rejoin_note.text() and "0000" not in lobby.rejoin_note.text() \
        and "4321" not in lobby.rejoin_note.text()
