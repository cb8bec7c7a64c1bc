"""A game against the computer survives closing it: the lobby offers to continue it
(issue 12), one click goes on where it stopped, Discard gives it up. Each title keeps its
own (issue 20): a new Somerset game never throws the saved Rook one away, a new Rook game
asks before it replaces the saved Rook one, and the game saved in the one slot of before
is still found."""

from __future__ import annotations

import os

from app_driver import TABLE_SEED
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton

from app.lobby import unfinished_text


def _bid_once(qtbot, window, game: str = "rook") -> dict:
    """Sit down, deal, wait for our first decision and make it; the view after it."""
    session = window.start_local({"game": game}, table_seed=TABLE_SEED)
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
    assert go.text() == "Continue your Rook game (hand 1, you 0, them 0)"
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


def test_the_offer_says_whose_score_is_whose():
    offer = {"kind": "local", "game": {"game": "rook"}, "hand": 4, "scores": [85, 120], "side": 1}
    assert unfinished_text(offer) == "Continue your Rook game (hand 4, you 120, them 85)"
    hosted = {**offer, "kind": "host", "name": "Friday", "side": 0}
    assert unfinished_text(hosted) == "Resume your table “Friday” (Rook, hand 4, you 85, them 120)"
    # A score below zero with a minus sign, never read as a range (issue 20: "-220–220").
    behind = {**offer, "hand": 3, "scores": [-220, 220], "side": 0}
    assert unfinished_text(behind) == "Continue your Rook game (hand 3, you \u2212220, them 220)"


def _saved_lines(lobby) -> list[str]:
    return [b.text() for b in lobby.findChildren(QPushButton, "continue-local")]


def test_each_title_keeps_its_own_saved_game(qtbot, window):
    rook = _bid_once(qtbot, window, "rook")
    window.leave_table()
    _bid_once(qtbot, window, "somerset")  # a game of another title: the Rook one stays
    window.leave_table()
    lobby = window.lobby
    qtbot.waitUntil(lobby.unfinished_card.isVisible)
    assert [line.split()[2] for line in _saved_lines(lobby)] == ["Somerset", "Rook"]  # last first
    assert _saved_lines(lobby) == ["Continue your Somerset game (hand 1, you 0, them 0)",
                                   "Continue your Rook game (hand 1, you 0, them 0)"]
    rook_line = next(b for b in lobby.findChildren(QPushButton, "continue-local") if "Rook" in b.text())
    qtbot.mouseClick(rook_line, Qt.LeftButton)
    table = window.table
    qtbot.waitUntil(lambda: bool(table.view.get("hand")) and table.data.info.name == "Rook",
                    timeout=10000)
    assert table.view["hand"] == rook["hand"] and window.session.core.restored
    window.leave_table()
    # Discarding one title's game keeps the other's.
    qtbot.mouseClick(next(b for b in lobby.findChildren(QPushButton, "discard-local")
                          if "Somerset" in b.accessibleName()), Qt.LeftButton)
    qtbot.waitUntil(lambda: len(_saved_lines(lobby)) == 1)
    assert "Rook" in _saved_lines(lobby)[0]


def test_a_new_game_of_a_saved_title_asks_before_it_replaces_it(qtbot, window, monkeypatch):
    seen = _bid_once(qtbot, window, "rook")
    window.leave_table()
    monkeypatch.setattr(window, "ask_game", lambda local: {"game": "rook"})

    def asked():
        qtbot.waitUntil(lambda: window.replace_box is not None and window.replace_box.isVisible())
        box = window.replace_box
        assert box.text() == "You have a Rook game saved (hand 1, you 0, them 0)."
        assert "the saved one is lost" in box.informativeText()
        return {b.objectName(): b for b in box.buttons()}
    window.lobby.local_button.click()
    buttons = asked()
    assert window.replace_box.defaultButton() is buttons["replaceSavedContinue"]
    qtbot.mouseClick(buttons["replaceSavedCancel"], Qt.LeftButton)
    assert window.stack.currentWidget() is window.lobby and len(_saved_lines(window.lobby)) == 1
    window.lobby.local_button.click()
    qtbot.mouseClick(asked()["replaceSavedContinue"], Qt.LeftButton)  # the saved game goes on
    table = window.table
    qtbot.waitUntil(lambda: window.stack.currentWidget() is table and bool(table.view.get("hand")),
                    timeout=10000)
    assert table.view["hand"] == seen["hand"] and window.session.core.restored
    window.leave_table()
    window.lobby.local_button.click()
    qtbot.mouseClick(asked()["replaceSavedNew"], Qt.LeftButton)  # a new one takes its place
    qtbot.waitUntil(lambda: window.setup.start_button.isEnabled())
    assert not window.session.core.restored and window.session.match is None


def test_the_game_saved_in_the_one_slot_of_before_is_still_offered(qtbot, window):
    """Before issue 20 the one saved game lived in <data dir>/local itself."""
    from net.sessions.local import local_dir
    seen = _bid_once(qtbot, window, "rook")
    window.leave_table(to_lobby=False)
    for name in os.listdir(local_dir(title="rook")):  # as an older Parlour left it
        os.replace(local_dir(title="rook") / name, local_dir() / name)
    os.rmdir(local_dir(title="rook"))
    window.offer_unfinished()
    lobby = window.lobby
    assert _saved_lines(lobby) == ["Continue your Rook game (hand 1, you 0, them 0)"]
    qtbot.mouseClick(lobby.findChild(QPushButton, "continue-local"), Qt.LeftButton)
    table = window.table
    qtbot.waitUntil(lambda: window.stack.currentWidget() is table and bool(table.view.get("hand")),
                    timeout=10000)
    assert table.view["hand"] == seen["hand"] and window.session.core.restored


def test_a_game_against_the_computer_shows_no_key_fingerprints(qtbot, window):
    """Nobody else is at the table: the setup shows names, not keys (as before issue 12)."""
    tables = []
    session = window.start_local({"game": "rook"}, table_seed=TABLE_SEED)
    window.bridge.table.connect(tables.append)
    qtbot.waitUntil(window.setup.start_button.isEnabled)
    session.sit(2)
    qtbot.waitUntil(lambda: bool(tables) and tables[-1]["you"] == 2)
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


def test_a_carried_on_table_whose_host_does_not_answer_is_greyed_not_offered(qtbot):
    """Dad's computer carried the table on, then stopped answering the lobby's check
    (``net.sessions.answering``): the card says so, greyed as its row is, rather than
    offer a rejoin that fails; it is offered again once Dad's computer answers."""
    from app.lobby import NOT_ANSWERING_TIP, LobbyPage
    lobby = LobbyPage()
    qtbot.addWidget(lobby)
    joins = []
    lobby.join_table.connect(joins.append)
    lobby.on_unfinished([HOSTED])
    lobby.on_tables({"tables": [{**CARRIED, "answering": True}]})
    assert lobby.findChild(QPushButton, "continue-host").isEnabled()
    lobby.on_tables({"tables": [{**CARRIED, "answering": False}]})
    go = lobby.findChild(QPushButton, "continue-host")
    assert go.text() == "Your table “Friday” — Dad is hosting it: not answering (Rook)"
    assert not go.isEnabled() and go.toolTip() == NOT_ANSWERING_TIP
    qtbot.mouseClick(go, Qt.LeftButton)
    assert joins == []  # nothing joined: no rejoin that would fail
    assert lobby.findChild(QPushButton, "discard-host").isEnabled()  # (it can still be given up)
    lobby.on_tables({"tables": [{**CARRIED, "answering": True}]})  # Dad's laptop opened again
    go = lobby.findChild(QPushButton, "continue-host")
    assert go.isEnabled() and go.text().startswith("Rejoin your table “Friday” — Dad is hosting it now")
    qtbot.mouseClick(go, Qt.LeftButton)
    assert [j["table"] for j in joins] == ["t-friday"]


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


def test_a_hosted_table_left_unfinished_is_resumed_from_the_lobby(qtbot, window, tmp_path, monkeypatch):
    """Found walking issue 20: the lobby's "Resume your table" stopped at an
    AttributeError (the window asked for a bridge by a name it no longer has)."""
    from net_kit import QUICK, LoopbackNetwork
    from net.sessions.session import HostSession
    from net.sessions.table_files import unfinished
    from tests.net.trust_table import identity

    class Resumable(LoopbackNetwork):  # the real provider's resume, on loopback
        def host(self, settings, name, on_event, resume=False):
            session = HostSession(on_event, settings, identity(name or "Host"),
                                  state_dir=self.tmp / "gui-host", timings=QUICK,
                                  resume=resume, fresh=not resume)
            self.sessions.append(session)
            return session

        def unfinished(self):
            return unfinished(self.tmp / "gui-host")

    window.network = Resumable(tmp_path)
    monkeypatch.setattr(window, "ask_game", lambda local: {"game": "rook", "name": "Friday"})
    window.host_table()
    qtbot.waitUntil(window.setup.start_button.isEnabled, timeout=10000)
    qtbot.mouseClick(window.setup.start_button, Qt.LeftButton)
    table = window.table
    qtbot.waitUntil(lambda: bool(table.view.get("hand")), timeout=10000)
    seen = list(table.view["hand"])
    crashed = window.session  # the host's computer stops without closing the table
    crashed._thread.stop(crashed.core.stop())
    window.bridge.close()
    window.bridge, window.session = None, None
    window.stack.setCurrentWidget(window.lobby)
    window.offer_unfinished()
    go = window.lobby.findChild(QPushButton, "continue-host")
    assert go is not None and go.text().startswith("Resume your table “Friday” (Rook, hand 1")
    qtbot.mouseClick(go, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.session is not None and window.session.core.restored, timeout=10000)
    qtbot.waitUntil(lambda: window.stack.currentWidget() is table and table.view.get("hand") == seen,
                    timeout=10000)
