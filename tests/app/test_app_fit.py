"""Nothing clipped, at any window size (issue 9, item 4).

Every screen and dialog is opened at the smallest window the app allows itself to be
sized to around (1024×640) and at a large one (1920×1080), with long player names; a
label, button, check box, combo box or log line whose text does not fit (font metrics
against geometry, tests/app/fit_kit.py), or a widget outside the window, fails the
test with the widget and the numbers. The window's size must not change by itself
while the scenes change under it.
"""

from __future__ import annotations

import json
import re
import os
import subprocess
import sys

import pytest
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from app.about import AboutDialog
from app.host_dialog import HostDialog
from app.lobby import StaticDirectory
from app.screenshots import StubSession
from app.settings import FirstStartDialog, Settings, SettingsDialog
from app.window import MIN_SIZE, MainWindow
from engine import make_game
from fit_kit import fit_problems
from fit_scenes import (GAMES, LONG_NAMES, SHORT_NAMES, TABLES, deliver_hand_over, finished, settle,
                        sit_at, table_event, table_scenes)

SIZES = [(1024, 640), (1920, 1080)]


@pytest.fixture
def big_window(qtbot, tmp_path, request):
    settings = Settings.at(str(tmp_path / "fit.ini"))
    settings.display_name = LONG_NAMES[0]
    settings.animation = "off"
    win = MainWindow(settings, directory=StaticDirectory(TABLES), bot_delay=0)
    win.table.last_trick_hold_ms = 0
    qtbot.addWidget(win)
    win.show()
    win.resize(*request.param)
    settle()
    assert (win.width(), win.height()) == request.param
    yield win
    win.leave_table(to_lobby=False)


class Looker:
    """Collects every scene's problems, and checks the window kept its size."""

    def __init__(self, window):
        self.window, self.size = window, window.size()
        self.problems: list[str] = []

    def look(self, scene: str, widget=None) -> None:
        settle()
        widget = widget or self.window
        self.problems += [f"{scene}: {problem}" for problem in fit_problems(widget)]
        if self.window.size() != self.size:
            self.problems.append(f"{scene}: the window grew by itself to "
                                 f"{self.window.width()}×{self.window.height()}")

    def check(self) -> None:
        assert not self.problems, "\n".join(self.problems)


def test_the_checker_sees_clipped_text_and_widgets_outside_the_window(qtbot):
    root = QWidget()
    root.resize(300, 120)
    qtbot.addWidget(root)
    QLabel("A label far too long for its little box", root).setGeometry(0, 0, 60, 20)
    QLabel("Wrapped text that needs more lines than its box has room for", root).setGeometry(0, 20, 80, 20)
    root.findChildren(QLabel)[-1].setWordWrap(True)
    QPushButton("A long button text", root).setGeometry(0, 50, 50, 30)
    QLabel("x", root).setGeometry(290, 110, 40, 40)
    QLabel("Fits", root).setGeometry(200, 0, 80, 20)
    root.show()
    settle()
    problems = fit_problems(root)
    assert len(problems) == 4, problems
    assert any("needs" in p and "wide" in p and "A label" in p for p in problems)
    assert any("high" in p and "Wrapped" in p for p in problems)
    assert any("QPushButton" in p for p in problems)
    assert any("outside the window" in p for p in problems)


def test_the_smallest_window_is_at_most_1024_by_640(qtbot, settings):
    window = MainWindow(settings, bot_delay=0)
    qtbot.addWidget(window)
    assert window.minimumWidth() <= 1024 and window.minimumHeight() <= 640
    assert (window.minimumWidth(), window.minimumHeight()) == MIN_SIZE


@pytest.mark.parametrize("big_window", SIZES, indirect=True, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_fits_in_every_decision_and_moment(big_window):
    looker = Looker(big_window)
    for names in (LONG_NAMES, SHORT_NAMES):
        for name, settings, until, mine, dealer in table_scenes():
            sit_at(big_window, settings, until, mine, dealer, names=names)
            looker.look(f"{name} ({names[0]})")
    looker.check()


@pytest.mark.parametrize("big_window", SIZES, indirect=True, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_summary_and_game_over_fit_for_every_game(big_window):
    looker = Looker(big_window)
    for settings in GAMES:
        game, state = finished(settings)
        bridge, _game, _state = sit_at(big_window, settings, lambda s: False)
        totals = deliver_hand_over(bridge, game, state, [480] * game.num_sides)
        looker.look(f"{settings} summary")
        big_window.table.summary.last_trick_button.click()
        looker.look(f"{settings} summary, last trick")
        bridge.deliver({"type": "game_over", "winner": 1, "scores": totals})
        looker.look(f"{settings} game over")
    looker.check()


@pytest.mark.parametrize("big_window", SIZES, indirect=True, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_overlays_fit(big_window):
    looker = Looker(big_window)
    bridge, game, state = sit_at(big_window, {"game": "rook"},
                                 lambda s: s.phase == "play" and 0 in s.to_act() and len(s.trick) >= 1)
    bridge.deliver({"type": "alert", "seat": 3, "rule": "a card was played that was not in the committed deal",
                    "detail": "The play of R9 does not match the hand revealed at the end of hand 3. " * 3,
                    "evidence_path": "/home/someone/.local/share/parlour/evidence/kitchen-table-hand-3.json"})
    big_window.table.banner.details_button.click()
    looker.look("integrity alert")
    bridge.deliver({"type": "connection", "seat": 2, "state": "reconnecting",
                    "detail": f"{LONG_NAMES[2]}'s computer stopped answering 6 seconds ago. Their seat is held."})
    looker.look("waiting for a player")
    bridge.deliver({"type": "connection", "seat": 0, "state": "reconnecting", "attempt": 2, "attempts": 5,
                    "detail": "The connection to the long kitchen table dropped. Your seat is held."})
    looker.look("reconnecting")
    bridge.deliver({"type": "connection", "seat": 0, "state": "connected", "detail": ""})
    bridge.deliver({"type": "hint", "text": "play B12: it is the highest Black left and wins the trick "
                                            "unless Red is trumped, which the bidder cannot do"})
    looker.look("a hint")
    looker.check()


@pytest.mark.parametrize("names", [["Ann", "Bot 2", "Bot 3", "Bot 4"], LONG_NAMES], ids=["short", "long"])
def test_the_contract_keeps_the_bidders_name_at_1024(qtbot, window, names):
    """Issue 20: hosting at 1024 px, the header read "Contract 100 (stuck) — B…"."""
    from net.sessions.events import state_event

    def stuck(state):  # everyone passes: the dealer is stuck with the contract
        return state.phase != "bidding"
    window.resize(1024, 640)
    game = make_game("rook")
    state = game.deal(bytes(32), 1)
    while state.phase == "bidding":
        state.apply(next(a for a in state.legal_actions(state.to_act()[0]) if a.kind == "pass"))
    view = state.view(0)
    assert view["contract"]["stuck"]
    bidder = view["contract"]["bidder"]
    bridge = window.new_bridge()
    window.table.attach(StubSession(), bridge)
    window.stack.setCurrentWidget(window.table)
    bridge.deliver({**table_event(game, {"game": "rook"}, names=names),
                    "address": "192.168.1.20:47311"})  # a host's bar: its address too
    bridge.deliver(state_event(game, state, 0, [], [0, 0], 3, deal="private"))  # and the lock
    settle()
    shown = window.table.bar.contract_label.text()
    bar = window.table.bar
    assert window.table.address_button.isVisible() and window.table.bar.deal_button.isVisible()
    assert names[bidder][:5] in shown and "100" in shown, shown  # never "B…"
    assert not fit_problems(window.table.bar), fit_problems(window.table.bar)


def test_the_scores_keep_which_team_is_which_at_1024(qtbot, window):
    """Seen in real windows: hosting at 1024 px after a set hand, the header read "Score
    Te… -100 · Te… 125" — both teams cut to the same "Te…". Short of room, a team is
    its letter, as on the seats: "A -100 · B 125"."""
    from net.sessions.events import state_event

    window.resize(1024, 640)
    game = make_game("rook")
    state = game.deal(bytes(32), 1)
    bridge = window.new_bridge()
    window.table.attach(StubSession(), bridge)
    window.stack.setCurrentWidget(window.table)
    bridge.deliver({**table_event(game, {"game": "rook"}, names=["Ann", "Dad", "Maya", "Bot 4"]),
                    "address": "192.168.1.20:47311"})  # a host's bar: its address too
    bridge.deliver(state_event(game, state, 0, [], [-100, 125], 2, deal="private"))
    settle()
    shown = window.table.bar.score_label.text()
    assert "A \u2212100" in shown and "B 125" in shown, shown  # (a real minus sign: issue 28)
    assert not fit_problems(window.table.bar), fit_problems(window.table.bar)


def four_players_hosted_at_1024(window, names: list[str], scores: list[int], deal: str = "private"):
    """The table's bar in a 1024×640 window hosting four-player Horseshoes (its address
    shown) with these names and scores."""
    from net.sessions.events import state_event

    window.resize(1024, 640)
    game = make_game("horseshoes", None, "four")
    state = game.deal(bytes(32), 1)
    bridge = window.new_bridge()
    window.table.attach(StubSession(), bridge)
    window.stack.setCurrentWidget(window.table)
    bridge.deliver({**table_event(game, {"game": "horseshoes", "mode": "four"}, names=names),
                    "address": "192.168.1.20:47311"})
    bridge.deliver(state_event(game, state, 0, [], scores, 2, deal=deal))
    settle()
    return window.table.bar


@pytest.mark.parametrize("names", [["Uncle Bartholomew Jr.", "Bot 2", "Bot 3", "Bot 4"],
                                   ["Grandma Josephine", "Grandpa Joe", "Bea", "Ben"]])
def test_every_players_score_is_told_apart_at_1024(qtbot, window, names):
    """Seen in real windows: hosting four-player Horseshoes at 1024 px the score line read
    "U… 0 · B… 0 · B… 0 · B… 0" — three players cut to the same "B…". Short of room each
    name is cut no further than it stays apart from the others ("U", "B2"; "Gm", "Bea").
    Names that need two letters or more each ("Gm 12, Gp −3, Bea 0, Ben 7") did not fit
    beside a host's address: the address then takes two lines, and the line fits whole."""
    from app.table import viewmodel as vm

    four_players_hosted_at_1024(window, names, [12, -3, 0, 7])
    shown = window.table.bar.score_label.text()
    parts = re.split(" · |, ", shown.removeprefix("Score "))
    assert len(parts) == 4, shown
    labels = [part.rsplit(" ", 1)[0] for part in parts]
    assert len(set(labels)) == 4, shown  # every player told apart
    for label, name in zip(labels, names):  # and each one's own: its start or its initials
        assert name.startswith(label.rstrip("…")) or label in vm.told_apart(names), (label, name)
    assert [part.rsplit(" ", 1)[1] for part in parts] == ["12", "−3", "0", "7"], shown
    assert fit_problems(window.table.bar) == [], fit_problems(window.table.bar)
    address = window.table.address_button.text()
    assert address.replace("\n", "") == "192.168.1.20:47311", address  # whole, as typed


@pytest.mark.parametrize("deal, scores", [("private", [12, -3, 0, 7]), ("seeded", [12, -13, 10, 11])])
def test_a_hosts_bar_folds_its_buttons_before_a_score_is_cut_at_1024(qtbot, window, deal, scores):
    """The widest bar a host has at 1024 px: four players whose names need two or three
    letters each, scores of two digits, the "Not private" lock, the Hint button coming
    and going. The address, then "Last trick", take two lines where the bar is short
    of room (every word kept), and one again where it has room."""
    from app.table import viewmodel as vm

    bar = four_players_hosted_at_1024(window, ["Grandma Josephine", "Grandpa Joe", "Bea", "Ben"],
                                      scores, deal)
    for hint in (True, False, True):
        bar.hint_button.setVisible(hint)
        settle()
        assert fit_problems(bar) == [], (hint, fit_problems(bar))
        shown = bar.score_label.text()
        said = [f"{name} {vm.points(score)}" for name, score in zip(["Gm", "Gp", "Bea", "Ben"], scores)]
        assert all(score in shown for score in said), (said, shown)
        assert bar.address_button.text().replace("\n", "") == "192.168.1.20:47311"
        assert bar.last_button.text().replace("\n", " ") == "Last trick"
    assert "\n" in bar.address_button.text()  # (short of room: folded)
    window.resize(1400, 800)
    settle()
    assert bar.address_button.text() == "Join at 192.168.1.20:47311" and bar.last_button.text() == "Last trick"
    assert fit_problems(bar) == []


def test_the_ace_declaration_fits_and_fits_the_mode(qtbot, window):
    """Horseshoes asks high or low for an ace of the suit led or of trump, in words
    that fit the mode: with three players there is no king to be above."""
    def ace_to_play(state):
        return state.phase == "play" and 0 in state.to_act() and any(a.extra for a in state.legal_actions(0))
    window.resize(1024, 640)
    asked = set()
    for mode in ("three", "four"):
        for dealer in range(3):
            settings = {"game": "horseshoes", "mode": mode, "options": {"leftover": "up"} if mode == "three" else {}}
            _bridge, game, state = sit_at(window, settings, ace_to_play, dealer=dealer)
            if not ace_to_play(state):
                continue
            ace = next(a for a in state.legal_actions(0) if a.extra)
            window.table._play(game.deck.name(ace.value))
            settle()
            assert window.table.decision.kind == "ace"
            heading = window.table.decision.accessibleName()
            assert ("above the 10" if mode == "three" else "above the king") in heading
            assert mode == "four" or "king" not in heading
            assert not fit_problems(window), fit_problems(window)
            asked.add(mode)
            break
    assert asked == {"three", "four"}
    assert window.width() == 1024


@pytest.mark.parametrize("big_window", SIZES, indirect=True, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_lobby_and_setup_fit(qtbot, big_window):
    looker = Looker(big_window)
    big_window.lobby.list.setCurrentRow(0)
    looker.look("lobby")
    # A saved game of each title, a hosted table left unfinished and a seat to rejoin.
    saved = [{"kind": "local", "game": {"game": title}, "hand": 12, "scores": [-1220, 1240], "side": 0}
             for title in ("rook", "somerset", "horseshoes")]
    big_window.lobby.on_unfinished(saved + [{**saved[0], "kind": "host", "name": LONG_NAMES[1]}])
    big_window.lobby.on_rejoin({"table": {"name": LONG_NAMES[1], "host": LONG_NAMES[0], "hand": 12,
                                          "scores": [-1220, 1240], "side": 1, "started": True,
                                          "where": "network"}})
    looker.look("lobby, every saved game and a seat to rejoin")
    big_window.lobby.on_unfinished([])
    big_window.lobby.on_rejoin({"table": None})
    big_window.start_local({"game": "rook"})
    qtbot.waitUntil(big_window.setup.start_button.isEnabled)
    looker.look("setup, against the computer")
    for kinds, is_host, you in ((["human", "bot", "empty", "human"], False, 1),
                                (["human", "human", "empty", "bot"], True, 0)):
        game = make_game("rook")
        bridge = big_window.new_bridge()
        big_window.setup.attach(StubSession(), bridge)
        big_window.stack.setCurrentWidget(big_window.setup)
        event = table_event(game, {"game": "rook"}, kinds=kinds, is_host=is_host, you=you, started=False)
        # the host's address to type in, beside Copy and "Invite from another house…"
        bridge.deliver({**event, "address": "192.168.100.200:47311"} if is_host else event)
        looker.look(f"setup, {'hosting' if is_host else 'a guest'}")
    game = make_game("horseshoes", None, "three")
    bridge = big_window.new_bridge()
    big_window.setup.attach(StubSession(), bridge)
    bridge.deliver(table_event(game, {}, kinds=["human", "bot", "empty"], is_host=True, started=False))
    looker.look("setup, three players")
    looker.check()


@pytest.mark.parametrize("big_window", SIZES, indirect=True, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_dialog_fits(big_window, settings):
    looker = Looker(big_window)
    for local in (True, False):
        for choices in GAMES:
            dialog = HostDialog(LONG_NAMES[0], local=local, parent=big_window, remembered=choices)
            dialog.show()
            looker.look(f"game dialog {choices}{' (local)' if local else ''}", dialog)
            _inside_screen(looker, dialog, big_window)
            dialog.close()
    for dialog in (SettingsDialog(settings, big_window), FirstStartDialog(settings, big_window)):
        dialog.show()
        looker.look(type(dialog).__name__, dialog)
        dialog.close()
    about = AboutDialog(big_window)
    about.show()
    for index in range(about.tabs.count()):
        about.tabs.setCurrentIndex(index)
        looker.look(f"about: {about.tabs.tabText(index)}", about)
    _inside_screen(looker, about, big_window)
    about.close()
    looker.check()


def _inside_screen(looker: Looker, dialog, window) -> None:
    """A dialog no bigger than the smallest window, so it fits any screen the app fits."""
    if dialog.width() > max(window.width(), 1024) or dialog.height() > max(window.height(), 640):
        looker.problems.append(f"{type(dialog).__name__} is {dialog.width()}×{dialog.height()}")


OFFSCREEN_SCREEN = {"screens": [{"name": "desk", "x": 0, "y": 0, "width": 1920, "height": 1080,
                                  "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}
RUN_WINDOW = """
import json, sys
from PySide6.QtWidgets import QApplication
import app
from app.lobby import StaticDirectory
from app.settings import Settings
from app.window import MainWindow
qapp = QApplication([])
window = MainWindow(Settings.at(sys.argv[1]), directory=StaticDirectory(), bot_delay=0)
window.show()
if sys.argv[2] == "place":
    window.resize(1111, 702)
    window.move(37, 45)
for _ in range(5):
    qapp.processEvents()
print(json.dumps([window.x(), window.y(), window.width(), window.height()]))
window.close()
"""


def test_size_and_position_are_remembered_between_runs(tmp_path):
    """Two runs of the app (each its own process: Qt keeps a window on the screen it
    restores to, so the offscreen screen is made desktop-sized for them)."""
    screen = tmp_path / "screen.json"
    screen.write_text(json.dumps(OFFSCREEN_SCREEN))
    ini = tmp_path / "parlour.ini"
    Settings.at(str(ini)).display_name = "Ann"
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={screen}"}

    def run(mode: str) -> list[int]:
        done = subprocess.run([sys.executable, "-c", RUN_WINDOW, str(ini), mode], env=env,
                              capture_output=True, text=True, timeout=60, check=True)
        return json.loads(done.stdout.strip().splitlines()[-1])
    assert run("place") == [37, 45, 1111, 702]
    assert run("look") == [37, 45, 1111, 702]
