"""The main window and its three screens: lobby → table setup → table.

The window owns the current session. A session's events reach the screens through an
``EventBridge`` (queued onto the GUI thread); leaving a table closes the session and
silences its bridge, so late events from a closing session change nothing.

Network sessions come from a ``NetworkSessions`` provider (net/ builds the real one);
until it is available, hosting and joining say so plainly instead of failing. The app
passes a ``network_loader`` instead of the provider: importing net.sessions.network (zeroconf,
cryptography) and starting the lobby's discovery cost more than the window itself, so
both happen just after the window is first shown (``QTimer.singleShot(0, …)``), or at
once if someone hosts or joins before that.

A session that ends on its own — the host's key is not the one expected, another
protocol version, refused, the table full, the host gone or closed — says why in a
dialog (an "error" event with ``fatal``) and the window goes back to the lobby.

Leaving a game in progress asks first and says what happens to your seat: a guest's is
kept for them (the lobby offers Rejoin), a host's leaving closes the table for everyone,
a game against the computer is kept. Closing the window in the middle of a network game
asks the same (a game against the computer is kept without asking).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMainWindow, QMessageBox, QStackedWidget, QWidget

from app.about import AboutDialog
from app.assets import app_icon
from app.bridge import EventBridge
from app.host_dialog import DEFAULT_LEVEL, SPEED_FACTORS, HostDialog
from app.lobby import LobbyPage, StaticDirectory, TableDirectory, carried_on, progress_text
from app.readmit_dialog import ask_readmit
from app.settings import Settings, SettingsDialog
from app.setup_view import SetupView
from app.table.table_view import TableView
from app.theme import STYLE
from app.titles import title_name

log = logging.getLogger(__name__)


MIN_SIZE = (1000, 620)  # the smallest window every page fits (at most 1024×640)
DEFAULT_SIZE = (1180, 800)

#: A fatal error's title at the table, by what ended the session (its ``cause``,
#: ``net.sessions.facade.FatalCause``): the person did not leave — the table or the
#: connection did.
ENDED_TITLES = {
    "closed": "The table has closed",
    "lost": "Lost the connection to the table",
    "refused": "The host turned you away",
    "failed": "The table cannot go on",
    "bug": "Parlour stopped following the table",
    "carried-on": "The table went on without you",
    "unopened": "Couldn't open the table",
}


def ended_title(cause: str | None, joined: bool) -> str:
    """The title of the message a fatal error shows: before the table was joined, that it
    could not be (unless the table never opened); at it, what happened."""
    if cause == "unopened" or joined:
        return ENDED_TITLES.get(cause or "", "The table has ended")
    return "Couldn't join the table"


@dataclass(frozen=True)
class LeaveChoice:
    """One way to leave a game: its button's words, and what it does."""

    text: str
    act: Callable[[], None]
    name: str | None = None  # its button's object name (tests find it by this)


class NetworkSessions(Protocol):
    """What net/ provides for play across the network."""

    def host(self, settings: dict, name: str, on_event) -> "object": ...

    def join(self, table: dict | str, name: str, on_event, watch: bool = False) -> "object": ...

    def directory(self) -> TableDirectory: ...


def default_network() -> NetworkSessions | None:
    """net's provider if this build has one (``net.api.NETWORK``), else None."""
    try:
        from net.api import NETWORK
    except Exception:  # not built yet, or a broken install: play locally still works
        return None
    return NETWORK


class MainWindow(QMainWindow):
    def __init__(self, settings: Settings, directory: TableDirectory | None = None,
                 network: NetworkSessions | None = None, bot_delay: float = 0.6,
                 parent: QWidget | None = None,
                 network_loader: Callable[[], NetworkSessions | None] | None = None):
        super().__init__(parent)
        self.settings = settings
        self.network = network
        self.network_loader = network_loader  # called once, just after the first show
        self.problem_box: QMessageBox | None = None
        self.bot_delay = bot_delay
        self.session = None
        self.bridge: EventBridge | None = None
        self.autoplay = False
        self.debug_autoplay = False  # --autoplay: a bot plays your seat at local tables
        self.setWindowTitle("Parlour")
        self.setWindowIcon(app_icon())
        self.setStyleSheet(STYLE)
        # An explicit minimum: the layout no longer sets one from what the pages hold,
        # so the window never grows by itself when a panel changes (each page must fit
        # this size, and tests/app/test_app_fit.py checks that it does).
        self.setMinimumSize(*MIN_SIZE)
        self._initial_geometry()
        self.stack = QStackedWidget()
        self.setCentralWidget(self.stack)
        self.lobby = LobbyPage()
        self.setup = SetupView()
        self.table = TableView(settings)
        for page in (self.lobby, self.setup, self.table):
            self.stack.addWidget(page)
        self._wire()
        self.lobby.set_name(settings.display_name or "friend")
        self.lobby_bridge = EventBridge(self)
        self.lobby_bridge.tables.connect(self.lobby.on_tables)
        self.lobby_bridge.rejoin.connect(self.lobby.on_rejoin)
        self.leave_box: QMessageBox | None = None
        self.replace_box: QMessageBox | None = None
        self.directory: TableDirectory | None = directory
        if directory is not None or network_loader is None:
            self._start_directory()
        self.offer_unfinished()

    def _start_directory(self) -> None:
        if self.directory is None:
            self.directory = self.network.directory() if self.network else StaticDirectory()
        self.directory.start(self.lobby_bridge.deliver)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.network_loader is not None:
            QTimer.singleShot(0, self.load_network)  # after the window is on screen

    def load_network(self) -> None:
        """Import net's provider and start browsing for tables (once)."""
        loader, self.network_loader = self.network_loader, None
        if loader is None:
            return
        self.network = loader()
        if self.directory is None:
            self._start_directory()
        if self.stack.currentWidget() is self.lobby:
            self.offer_unfinished()  # a hosted table left unfinished, now that net is here

    def _wire(self) -> None:
        self.lobby.play_local.connect(self.play_local)
        self.lobby.continue_game.connect(self.continue_game)
        self.lobby.discard_game.connect(self.discard_game)
        self.lobby.host_table.connect(self.host_table)
        self.lobby.join_table.connect(self.join)
        self.lobby.watch_table.connect(lambda table: self.join(table, watch=True))
        self.lobby.join_address.connect(self.join)
        self.lobby.open_settings.connect(self.open_settings)
        self.lobby.open_about.connect(lambda: AboutDialog(self).exec())
        self.setup.leave_requested.connect(self.leave_table)
        self.table.leave_requested.connect(self.confirm_leave)
        self.table.summary_ready.connect(self._autoplay_next)

    # -- starting a table -----------------------------------------------------------------
    def ask_game(self, local: bool) -> dict | None:
        """The game settings from the host dialog, or None if cancelled; the dialog
        opens on the choices made last time, and remembers these."""
        dialog = HostDialog(self.settings.display_name, local=local, parent=self,
                            remembered=self.settings.last_game(local))
        if not dialog.exec():
            return None
        chosen = dialog.settings()
        self.settings.set_last_game(local, {k: v for k, v in chosen.items() if k != "name"})
        self.settings.sync()
        return chosen

    def play_local(self) -> None:
        settings = self.ask_game(local=True)
        if settings is None:
            return
        from net.api import unfinished_local
        saved = next((offer for offer in unfinished_local()
                      if offer["game"].get("game") == settings["game"]), None)
        if saved is None:
            self.start_local(settings, autoplay=self.debug_autoplay)
        else:
            self.ask_replace({**saved, "kind": "local"}, settings)

    def ask_replace(self, saved: dict, settings: dict) -> None:
        """A new game of a title whose last game against the computer is saved would
        take its place: ask first (continue that one, start afresh, or neither)."""
        game = title_name(settings["game"])
        box = QMessageBox(QMessageBox.Question, "Start a new game?",
                          f"You have a {game} game saved ({progress_text(saved)}).",
                          QMessageBox.NoButton, self)
        box.setObjectName("replaceSaved")
        box.setInformativeText(f"A new {game} game takes its place, and the saved one is lost. "
                               "Your saved games of the other titles are kept.")
        keep = box.addButton("Continue the saved game", QMessageBox.AcceptRole)
        keep.setObjectName("replaceSavedContinue")
        new = box.addButton(f"Start a new {game} game", QMessageBox.DestructiveRole)
        new.setObjectName("replaceSavedNew")
        cancel = box.addButton("Cancel", QMessageBox.RejectRole)
        cancel.setObjectName("replaceSavedCancel")
        box.setDefaultButton(keep)
        box.setEscapeButton(cancel)

        def chosen(button) -> None:
            if button is keep:
                self.continue_game(saved)
            elif button is new:
                self.start_local(settings, autoplay=self.debug_autoplay)
        box.buttonClicked.connect(chosen)
        self.replace_box = box
        box.open()

    def start_local(self, settings: dict, autoplay: bool = False, table_seed: bytes | None = None,
                    resume: bool = False):
        """Sit down at a local table against bots (``resume``: the unfinished one);
        returns the session."""
        from net.api import LocalSession
        self.autoplay = autoplay
        bridge = self.new_bridge()
        pause = self.bot_delay * SPEED_FACTORS.get(settings.get("speed") or "normal", 1.0)
        session = LocalSession(bridge.deliver, settings, name=self.settings.display_name or "You",
                               level=settings.get("level") or DEFAULT_LEVEL, bot_delay=pause,
                               autoplay=autoplay, table_seed=table_seed, resume=resume)
        return self._sit_down(session, bridge)

    # -- games left unfinished ---------------------------------------------------------------
    def unfinished(self) -> list[dict]:
        """The games this installation can go on with: against the computer, and the
        table it hosted when it last stopped without closing it."""
        from net.api import unfinished_local
        offers = [{**local, "kind": "local"} for local in unfinished_local()]
        hosted = getattr(self.network, "unfinished", None)
        found = hosted() if callable(hosted) else None
        if found is not None:
            offers.append({**found, "kind": "host"})
        return offers

    def offer_unfinished(self) -> None:
        try:
            offers = self.unfinished()
        except Exception:  # noqa: BLE001 - an offer is a convenience, never a crash
            log.exception("looking for unfinished games failed")
            offers = []
        self.lobby.on_unfinished(offers)

    def continue_game(self, offer: dict) -> None:
        """Go on with an unfinished game (the lobby's Continue / Resume)."""
        settings = dict(offer["game"])
        if offer["kind"] == "local":
            speed = self.settings.last_game(True).get("speed")
            self.start_local({**settings, "speed": speed}, autoplay=self.debug_autoplay, resume=True)
            return
        self.load_network()
        if self.network is None:
            self._network_missing()
            return
        bridge = self.new_bridge()
        where = {"where": offer["where"]} if offer.get("where") else {}  # (a table carried on)
        self._sit_down(self.network.host({**settings, "name": offer["name"]},
                                         self.settings.display_name, bridge.deliver, resume=True,
                                         **where),
                       bridge)

    def discard_game(self, offer: dict) -> None:
        """Give up an unfinished game (the lobby's Discard)."""
        if offer["kind"] == "local":
            from net.api import discard_local
            discard_local(offer["game"]["game"])
        elif self.network is not None:
            self.network.discard_unfinished(*([offer["where"]] if offer.get("where") else []))
        self.offer_unfinished()

    def _forget_carried_on(self, table) -> None:
        """Joining the table this installation hosted, now carried on by another player:
        the copy left here is behind it, and resuming it would split the table in two,
        so it is no longer offered (it is kept aside, as Discard does)."""
        if isinstance(table, dict) and any(carried_on(o, [table]) for o in self.lobby.unfinished):
            self.network.discard_unfinished()
            self.offer_unfinished()

    def host_table(self) -> None:
        self.load_network()
        if self.network is None:
            self._network_missing()
            return
        settings = self.ask_game(local=False)
        if settings is not None:
            bridge = self.new_bridge()
            self._sit_down(self.network.host(settings, self.settings.display_name, bridge.deliver), bridge)

    def join(self, table, watch: bool = False) -> None:
        """Sit at ``table``: a TableInfo, a remembered table (Rejoin) or "host:port";
        ``watch``: watch it instead, with no seat."""
        self.load_network()
        if self.network is None:
            self._network_missing()
            return
        self._forget_carried_on(table)
        bridge = self.new_bridge()
        try:
            session = (self.network.join(table, self.settings.display_name, bridge.deliver, watch=True)
                       if watch else self.network.join(table, self.settings.display_name, bridge.deliver))
        except ValueError as exc:  # an address that is not one (net.wire.address.AddressError)
            self.leave_table()
            self.show_problem("Couldn't join the table", str(exc))
            return
        self._sit_down(session, bridge)

    def _network_missing(self) -> None:
        QMessageBox.information(self, "Not available yet",
                                "Playing across the network isn't available in this build. "
                                "You can play against the computer.")

    def new_bridge(self) -> EventBridge:
        self.leave_table(to_lobby=False)
        self.bridge = EventBridge(self)
        return self.bridge

    def _sit_down(self, session, bridge: EventBridge):
        self.session = session
        self._directory_call("pause")  # no need to look for the last table meanwhile
        self.setup.attach(session, bridge)
        self.table.attach(session, bridge)
        bridge.table.connect(self._on_table)
        bridge.state.connect(self._show_table)
        bridge.error.connect(self._on_error)
        bridge.alert.connect(self._show_table)  # an integrity alert is seen wherever you are
        bridge.readmit.connect(lambda event: ask_readmit(session, event, self))
        self.stack.setCurrentWidget(self.setup)
        return session

    def _autoplay_next(self) -> None:
        """--autoplay (and soak tests): deal on as soon as a summary shows."""
        if self.autoplay and self.session is not None:
            self.table.summary.next_button.click()

    def _on_table(self, event: dict) -> None:
        if event.get("started"):
            self._show_table()

    def _on_error(self, event: dict) -> None:
        """A session that cannot go on: say why, back to the lobby."""
        if not event.get("fatal"):
            return
        joined = self.stack.currentWidget() is self.table or bool(self.setup.table)
        self.leave_table()
        self.show_problem(ended_title(event.get("cause"), joined),
                          event.get("message") or "The connection to the table ended.",
                          event.get("details", ""))

    def show_problem(self, title: str, message: str, details: str = "") -> None:
        """A dialog a person understands, not blocking the event loop (``details``, such
        as a server's address, behind its Show Details button)."""
        if self.problem_box is not None:
            self.problem_box.close()
        box = QMessageBox(QMessageBox.Warning, title, _sentence(message), QMessageBox.Ok, self)
        box.setObjectName("sessionProblem")
        box.setInformativeText("Your name, settings and saved hands are kept. "
                               "Pick a table to play again.")
        if details:
            box.setDetailedText(details)
        self.problem_box = box
        box.open()

    def _show_table(self, _event=None) -> None:
        if self.stack.currentWidget() is not self.table:
            self.stack.setCurrentWidget(self.table)

    def leave_table(self, to_lobby: bool = True) -> None:
        if self.bridge is not None:
            self.bridge.close()
            self.bridge.deleteLater()
            self.bridge = None
        if self.session is not None:
            self.session.close()
            self.session = None
        if to_lobby:
            self.stack.setCurrentWidget(self.lobby)
            self._directory_call("refresh")  # the seat just left may be offered for a rejoin
            self.offer_unfinished()

    def _directory_call(self, name: str) -> None:
        method = getattr(self.directory, name, None)
        if callable(method):
            method()

    # -- leaving mid-game -----------------------------------------------------------------
    def _mid_game(self) -> bool:
        summary = self.table.summary
        return self.bridge is not None and self.stack.currentWidget() is self.table \
            and bool(self.table.table.get("started")) \
            and not (summary.isVisible() and summary.game_over)

    def _watching(self) -> bool:
        """This window watches the table: no seat to keep, nothing of its leaving to say."""
        return getattr(self.session, "watching", False) is True

    def confirm_leave(self) -> None:
        """The table's Leave (or its curtain's): in the middle of a game, ask first and say
        what happens to your seat; otherwise — or watching, with no seat — just go."""
        if not self._mid_game() or self._watching():
            self.leave_table()
            return
        self._ask_leaving(closing=False)

    def _leaving(self, closing: bool) -> tuple[str, str, list[LeaveChoice]]:
        """What leaving the game now means — the question, what happens, and the ways to
        go (a Stay/Cancel is always added) — for Leave, or for closing the window."""
        if getattr(self.session, "local", False):
            return ("Leave this game?",
                    "The game against the computer is kept: continue it from the lobby "
                    "whenever you like.",
                    [LeaveChoice("Leave", self.leave_table)])
        if self.table.table.get("is_host"):
            # Every way a host may go: end the game for everyone, or — when another
            # player's computer can carry the table on — hand it to them at once.
            end = LeaveChoice("End the game for everyone" if closing else "Leave",
                              self._leave_then(closing))
            heirs = self._heirs()
            if not heirs:
                return ("Close the table for everyone?",
                        f"You are hosting: if you {'close Parlour' if closing else 'leave'}, the "
                        "game ends for everyone at the table and they go back to their lobbies.",
                        [end])
            names = " or ".join(name for _seat, name in heirs)
            return ("Hand the table on, or close it for everyone?",
                    f"You are hosting. Hand the table to {names}: their computer carries the "
                    "game on at once, and everyone else plays on with them (a hand being "
                    "played is dealt again; the scores stay). Or end the game for everyone: "
                    "they go back to their lobbies.",
                    [end] + [LeaveChoice(f"Hand the table to {name}", self._hand_over_then(seat, closing),
                                         f"confirmLeaveHandOver{seat}") for seat, name in heirs])
        leave = LeaveChoice("Close Parlour" if closing else "Leave", self._leave_then(closing))
        if self.table.absences.host_gone is not None:  # (the curtain: who carries the table on)
            return ("Leave the table?",
                    "The host has left, and the players are finding who carries the table on. "
                    "If you leave now your seat is kept for you, but the others can carry the "
                    "table on only with most of its players behind them.",
                    [leave])
        return ("Leave the table?",
                "Your seat is kept for you. The others wait — or the host lets a computer "
                "player take your turns — until you come back with Rejoin at the top of "
                "your lobby.",
                [leave])

    def _heirs(self) -> list[tuple[int, str]]:
        """The players we may hand the table to — those whose computer can carry it on,
        as the host's "table" event says — and their names."""
        seats = self.table.table.get("seats") or []
        return [(seat, seats[seat].get("name") or f"seat {seat + 1}")
                for seat in self.table.table.get("heirs") or [] if 0 <= seat < len(seats)]

    def _hand_over_then(self, seat: int, closing: bool) -> Callable[[], None]:
        """Hand the table to the player in ``seat`` (the game goes on at theirs), then
        go back to the lobby, or close the window if that is what was asked."""
        def hand_over() -> None:
            session, self.session = self.session, None
            handed = session.hand_over(seat)  # (at most a few seconds: the others move over)
            self.leave_table(to_lobby=not closing)
            if closing:
                self.close()  # no longer mid-game: it closes now
            elif not handed:
                self.show_problem("The table was closed",
                                  "It could not be handed over (that player left meanwhile), "
                                  "so the game ended for everyone.")
        return hand_over

    def _leave_then(self, closing: bool) -> Callable[[], None]:
        """Leave the table, and then close the window if that is what was asked."""
        if not closing:
            return self.leave_table

        def leave_and_close() -> None:
            self.leave_table(to_lobby=False)
            self.close()  # no longer mid-game: it closes now
        return leave_and_close

    def _ask_leaving(self, closing: bool) -> None:
        title, info, choices = self._leaving(closing)
        box = QMessageBox(QMessageBox.Question, "Leave the game?", title, QMessageBox.NoButton, self)
        box.setObjectName("confirmLeave")
        box.setInformativeText(info)
        actions = {}
        for number, choice in enumerate(choices):
            button = box.addButton(choice.text, QMessageBox.DestructiveRole)
            button.setObjectName(choice.name or ("confirmLeaveYes" if number == 0
                                                 else f"confirmLeave{number}"))
            actions[button] = choice.act
        stay = box.addButton("Cancel" if closing else "Stay", QMessageBox.RejectRole)
        stay.setObjectName("confirmLeaveNo")
        box.setDefaultButton(stay)
        box.setEscapeButton(stay)
        box.buttonClicked.connect(lambda button: actions.get(button, lambda: None)())
        if self.leave_box is not None:
            self.leave_box.close()
        self.leave_box = box
        box.open()

    # -- preferences --------------------------------------------------------------------
    def open_settings(self) -> None:
        if SettingsDialog(self.settings, self).exec():
            self.apply_settings()

    def apply_settings(self) -> None:
        """Make saved preferences take effect now: name, card size, Rook card art,
        animation speed."""
        self.lobby.set_name(self.settings.display_name)
        self.table.apply_card_size()
        if self.table.view:
            self.table.refresh()

    def come_forward(self) -> None:
        """Parlour was started again with this identity: show this window instead."""
        if self.isMinimized():
            self.showNormal()
        self.show()
        self.raise_()
        self.activateWindow()

    def _initial_geometry(self) -> None:
        """Where the window was when it last closed, or a comfortable size that fits the
        screen (a 1366×768 laptop included)."""
        saved = self.settings.window_geometry
        if saved is not None and self.restoreGeometry(saved):
            return
        screen = self.screen().availableGeometry() if self.screen() else None
        width, height = DEFAULT_SIZE
        if screen is not None:
            width = max(MIN_SIZE[0], min(width, int(screen.width() * 0.92)))
            height = max(MIN_SIZE[1], min(height, int(screen.height() * 0.92)))
        self.resize(width, height)

    def closeEvent(self, event) -> None:
        """Closing the window in the middle of a network game asks first, as Leave does
        (a game against the computer is kept anyway; a watcher has no seat to keep)."""
        if self._mid_game() and not getattr(self.session, "local", False) and not self._watching():
            event.ignore()
            self._ask_leaving(closing=True)
            return
        self.settings.window_geometry = self.saveGeometry()
        self.settings.sync()
        self.leave_table(to_lobby=False)
        if self.directory is not None:
            self.directory.stop()
        super().closeEvent(event)


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]) if text else text
