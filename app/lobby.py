"""The lobby: start a game against the computer, host a table, or join one nearby.

Tables come from a ``TableDirectory`` — whatever finds tables on the network (mDNS
browsing in net/) feeds ``{"type": "tables", "tables": [TableInfo, …]}`` events into the
callback it is started with, the whole list each time. The lobby only shows them. A
table whose host no longer answers (``"answering": False``: its computer was closed or
its program killed, net/sessions/answering.py) stays a moment, greyed and saying "not
answering", and cannot be joined or watched; then the directory leaves it out.

A directory may also send ``{"type": "rejoin", "table": record | None}``: the last table
this installation held a seat at, reachable now (net/sessions/last_table.py). The lobby then
puts "Rejoin *Table* — hand 4, you 120, them 85" at the top — one click, or Enter — and
never greys out that table in the list.

Games this installation left unfinished come from the window (``on_unfinished``): a
game against the computer closed mid-game (one per title), or a table it hosted that
stopped without being closed (a crash). Each gets a line at the top — "Continue your Rook
game (hand 4, you 120, them 85)" or "Resume your table “Friday” (Rook, hand 4, you 120,
them 85)" — one click to go on, and "Discard" to give it up. A hosted table that another player carried on while this
one was gone (a takeover: the same table id, advertised by another key) is not resumed
here, which would split it in two: its card says "Rejoin your table “Friday” — Dad is
hosting it now", and that table's row is this installation's to rejoin.
"""

from __future__ import annotations

import re
from typing import Protocol

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (QApplication, QFrame, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QVBoxLayout, QWidget)

from html import escape

from app.titles import mode_name, title_name
from app.setup_view import ruleset_name
from app.table.viewmodel import points, short_name

EventCallback = "Callable[[dict], None]"
HOST_NAME_CHARS = 20  # a longer host name is cut short in a table's row (the tooltip has it whole)


class TableDirectory(Protocol):
    """Finds tables. ``start`` begins sending "tables" (and perhaps "rejoin") events to
    ``on_event`` (from any thread); ``stop`` ends it. Optional: ``refresh()`` (back in
    the lobby: look again now) and ``pause()`` (sitting at a table)."""

    def start(self, on_event) -> None: ...

    def stop(self) -> None: ...


class StaticDirectory:
    """A directory fed by hand: tests, screenshots, and builds without discovery."""

    def __init__(self, tables: list[dict] | None = None):
        self.tables = list(tables or [])
        self.on_event = None

    def start(self, on_event) -> None:
        self.on_event = on_event
        self.publish(self.tables)

    def publish(self, tables: list[dict]) -> None:
        self.tables = list(tables)
        if self.on_event is not None:
            self.on_event({"type": "tables", "tables": [dict(t) for t in self.tables]})

    def stop(self) -> None:
        self.on_event = None


YOUR_SEAT = "your seat is kept for you"
NOT_ANSWERING = "not answering"
NOT_ANSWERING_TIP = ("Its host's computer does not answer: it may have been closed, or Parlour "
                     "stopped there. The table comes back here if it answers again.")


def answers(table: dict | None) -> bool:
    """Whether the table's host answers (a table no check has said otherwise of does)."""
    return bool(table) and table.get("answering", True) is not False


def game_line(table: dict) -> str:
    """"Somerset · Kitty, winner takes all" / "Horseshoes · Four players, partners opposite"."""
    game = title_name(table.get("game"))
    detail = mode_name(table.get("game"), table.get("mode")) or ruleset_name(
        {"game": table.get("game"), "ruleset": table.get("ruleset")})
    return f"{game} · {detail}" if detail else game


def seats_text(table: dict) -> str:
    seats = table.get("open_seats", 0) or 0
    return f"{seats} open seat{'s' if seats != 1 else ''}" if seats else "full"


def status_text(table: dict, yours: bool = False) -> str:
    """Where the table is, and — when its host lets one more watch, and the seat there is
    not yours — that you may watch it."""
    status = "game in progress" if table.get("in_game") else "waiting to start"
    return status + (" · you may watch" if table.get("watchable") and not yours else "")


def host_text(table: dict) -> str:
    fingerprint = table.get("fingerprint") or ""
    return f"host {table.get('host', '?')}" + (f" [{fingerprint}]" if fingerprint else "")


def places(table: dict, yours: bool = False) -> list[str]:
    """The seats and where the table is ("2 open seats", "waiting to start"; "your seat
    is kept for you", "game in progress"), or only "not answering": its seats and state
    are what its host last said, and it says nothing now."""
    if not answers(table):
        return [NOT_ANSWERING]
    return [YOUR_SEAT if yours else seats_text(table), status_text(table, yours)]


def describe_table(table: dict, yours: bool = False) -> str:
    """The whole entry as plain text (the list item's text and accessible name)."""
    return (f"{table.get('name', 'Table')}  —  {game_line(table)}\n"
            + "  ·  ".join([host_text(table), *places(table, yours)]))


def rejoin_text(record: dict) -> str:
    """"Rejoin Ann's table — hand 4, you 120, them 85" for a remembered table."""
    if not record.get("started"):
        progress = "waiting for the deal"
    else:
        progress = progress_text(record)
    return f"Rejoin {record.get('name') or 'the table'} — {progress}"


def rejoin_where(record: dict) -> str:
    """Where a remembered table is, as the rejoin card says it: on this network, in
    another house (reached again without a code), or at the address last played at."""
    if record.get("where") == "network":
        return "found on your network"
    from net.api import is_house
    if is_house(record.get("address")):
        return "in another house: your computer finds it again, no code needed"
    return f"at {record.get('address')}:{record.get('port')}, where you last played"


def progress_text(record: dict) -> str:
    """"hand 4, you 120, them 85": how far a game is, your side's score first."""
    return f"hand {record.get('hand', 1)}, {score_line(record)}"


def score_line(record: dict) -> str:
    """Your side's score first, said as whose it is: "you 120, them 85", or "you 5,
    others 3, 7" when everyone plays alone."""
    scores, side = list(record.get("scores") or []), record.get("side", 0)
    if not 0 <= side < len(scores):
        return "no score yet"
    if len(scores) == 2:
        return f"you {points(scores[side])}, them {points(scores[1 - side])}"
    others = ", ".join(points(s) for i, s in enumerate(scores) if i != side)
    return f"you {points(scores[side])}, others {others}"


def same_key(a: str | None, b: str | None) -> bool:
    """Two fingerprints, however written, naming the same key."""
    def compact(fp):
        return re.sub(r"[^0-9a-f]", "", (fp or "").lower())
    return bool(compact(a)) and compact(a) == compact(b)


class TableRow(QWidget):
    """One table in the lobby list: name and game on the left, who hosts and seats on the right."""

    def __init__(self, table: dict, parent: QWidget | None = None, yours: bool = False):
        super().__init__(parent)
        self.setAttribute(Qt.WA_TransparentForMouseEvents)
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 10, 6)
        left = QVBoxLayout()
        left.setSpacing(1)
        name = QLabel(table.get("name") or "Table")
        name.setObjectName("lobbyTableName")
        game = QLabel(game_line(table))
        game.setObjectName("lobbyGame")
        left.addWidget(name)
        left.addWidget(game)
        row.addLayout(left, 1)
        right = QVBoxLayout()
        right.setSpacing(1)
        # (the host's key fingerprint is under the list for the table picked: where it is
        # checked, before joining — not on every line)
        host = QLabel(f"Host <b>{escape(short_name(str(table.get('host', '?')), HOST_NAME_CHARS))}</b>")
        host.setObjectName("lobbyHost")
        host.setToolTip(f"Hosted by {table.get('host', '?')}")
        host.setAlignment(Qt.AlignRight)
        seats = QLabel(" · ".join(places(table, yours)))
        joinable = answers(table) and (table.get("open_seats") or yours)
        seats.setObjectName("lobbySeats" if joinable else "lobbyFull")
        seats.setAlignment(Qt.AlignRight)
        right.addWidget(host)
        right.addWidget(seats)
        row.addLayout(right)


def unfinished_text(offer: dict, carried_on: dict | None = None) -> str:
    """"Continue your Rook game (hand 4, you 120, them 85)" / "Resume your table
    “Friday” (Rook, …)",
    or, for a table another player now hosts (``carried_on``: its TableInfo), "Rejoin
    your table “Friday” — Dad is hosting it now" (or, when Dad's computer does not
    answer, "Your table “Friday” — Dad is hosting it: not answering": nothing to rejoin)."""
    game = title_name(offer["game"].get("game"))
    progress = progress_text(offer)
    if offer.get("kind") == "local":
        return f"Continue your {game} game ({progress})"
    name = offer.get("name") or "your table"
    if carried_on is not None:
        host = short_name(str(carried_on.get("host") or "another player"), HOST_NAME_CHARS)
        if not answers(carried_on):
            return f"Your table “{name}” — {host} is hosting it: {NOT_ANSWERING} ({game})"
        return f"Rejoin your table “{name}” — {host} is hosting it now ({game})"
    return f"Resume your table “{name}” ({game}, {progress})"


def carried_on(offer: dict, tables: list[dict]) -> dict | None:
    """The table on the network that goes on with ``offer``, a table hosted here and
    left unfinished, under another host (the same table id: a player's client took it
    over while this one was gone), or None."""
    if offer.get("kind") != "host" or not offer.get("table"):
        return None
    return next((t for t in tables if t.get("table") == offer["table"]), None)


class LobbyPage(QWidget):
    play_local = Signal()
    continue_game = Signal(dict)  # an unfinished game to go on with
    discard_game = Signal(dict)  # an unfinished game to give up
    host_table = Signal()
    join_table = Signal(dict)
    watch_table = Signal(dict)  # watch it: no seat, the table as anyone sees it
    join_address = Signal(str)
    open_settings = Signal()
    open_about = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("page")
        self.tables: list[dict] = []
        self.rejoin: dict | None = None  # the remembered table, while it can be reached
        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 24, 40, 24)
        outer.setSpacing(14)
        header = QHBoxLayout()
        titles = QVBoxLayout()
        title = QLabel("Parlour")
        title.setObjectName("pageTitle")
        self.greeting = QLabel()
        self.greeting.setObjectName("pageSubtitle")
        titles.addWidget(title)
        titles.addWidget(self.greeting)
        header.addLayout(titles, 1)
        for text, name, signal in (("Settings", "settingsButton", self.open_settings),
                                   ("Rules && About", "aboutButton", self.open_about)):
            button = QPushButton(text)
            button.setObjectName(name)
            button.setProperty("role", "secondary")
            button.clicked.connect(signal)
            header.addWidget(button, 0, Qt.AlignTop)
        outer.addLayout(header)
        self.unfinished: list[dict] = []
        self._shown_carried: set = set()  # the carried-on tables the offers were drawn for (answering or not)
        self.unfinished_card = QFrame()
        self.unfinished_card.setObjectName("rejoinCard")
        self.unfinished_rows = QVBoxLayout(self.unfinished_card)
        # Rows close together: a saved game of each title, a hosted table and a seat to
        # rejoin still leave room for the list of tables in a 1024×640 window.
        self.unfinished_rows.setContentsMargins(14, 8, 14, 8)
        self.unfinished_rows.setSpacing(4)
        self.unfinished_card.hide()
        outer.addWidget(self.unfinished_card)
        outer.addWidget(self._rejoin_card())
        outer.addLayout(self._big_buttons())
        outer.addWidget(self._table_list(), 1)

    def _rejoin_card(self) -> QFrame:
        self.rejoin_card = QFrame()
        self.rejoin_card.setObjectName("rejoinCard")
        layout = QVBoxLayout(self.rejoin_card)
        layout.setContentsMargins(14, 10, 14, 10)
        self.rejoin_button = QPushButton()
        self.rejoin_button.setObjectName("rejoinTable")
        self.rejoin_button.setMinimumHeight(52)
        self.rejoin_button.setAutoDefault(True)  # Enter, as well as Space and a click
        self.rejoin_note = QLabel()
        self.rejoin_note.setObjectName("note")
        self.rejoin_note.setWordWrap(True)
        layout.addWidget(self.rejoin_button)
        layout.addWidget(self.rejoin_note)
        self.rejoin_button.clicked.connect(self._rejoin)
        self.rejoin_card.hide()
        return self.rejoin_card

    def on_rejoin(self, event: dict) -> None:
        """Offer (or stop offering) the table this installation holds a seat at."""
        was = (self.rejoin or {}).get("table")
        self.rejoin = event.get("table")
        if self.rejoin:
            text = rejoin_text(self.rejoin)
            self.rejoin_button.setText(text)
            self.rejoin_button.setAccessibleName(text)
            where = rejoin_where(self.rejoin)
            host = self.rejoin.get("host")
            self.rejoin_note.setText(f"Your seat is kept for you{f' by {host}' if host else ''} — "
                                     f"the table is {where}.")
        self.rejoin_card.setVisible(bool(self.rejoin))
        if (self.rejoin or {}).get("table") != was:
            self.on_unfinished(self.unfinished)  # (one card for a table, not two)
        self.on_tables({"tables": self.tables})  # that table's row is joinable
        if self.rejoin and self.isVisible():
            self.rejoin_button.setFocus()

    def on_unfinished(self, offers: list[dict]) -> None:
        """Offer (or stop offering) the games left unfinished here."""
        self.unfinished = list(offers)
        while self.unfinished_rows.count():
            item = self.unfinished_rows.takeAt(0)
            if item.layout() is not None:
                while item.layout().count():
                    child = item.layout().takeAt(0).widget()
                    if child is not None:
                        child.setParent(None)  # gone now, not at the next event loop turn
                        child.deleteLater()
            elif item.widget() is not None:
                item.widget().deleteLater()
        self._shown_carried = self._carried_now()
        shown = 0
        for offer in self.unfinished:
            table = carried_on(offer, self.tables)
            if offer.get("handed") and table is None:
                continue  # handed to a player: rejoined where it goes on, never resumed here
            if table is not None and self.rejoin and self.rejoin.get("table") == offer.get("table"):
                continue  # the rejoin card above offers that very table already
            shown += 1
            row = QHBoxLayout()
            go = QPushButton(unfinished_text(offer, table))
            go.setObjectName(f"continue-{offer['kind']}")
            go.setMinimumHeight(36)
            go.setAccessibleName(go.text())
            if table is not None and not answers(table):
                go.setEnabled(False)  # greyed, as its row is: a rejoin that would fail
                go.setToolTip(NOT_ANSWERING_TIP)
            elif table is not None:
                go.setToolTip("Another player's computer carried the table on while yours was "
                              "away: your seat is kept for you there")
                go.clicked.connect(lambda _=False, t=table: self.join_table.emit(dict(t)))
            else:
                go.clicked.connect(lambda _=False, o=offer: self.continue_game.emit(dict(o)))
            drop = QPushButton("Discard")
            drop.setObjectName(f"discard-{offer['kind']}")
            drop.setProperty("role", "secondary")
            drop.setAccessibleName(f"Discard: {go.text()}")
            drop.setToolTip("Give this game up; the next one starts afresh")
            drop.clicked.connect(lambda _=False, o=offer: self.discard_game.emit(dict(o)))
            row.addWidget(go, 1)
            row.addWidget(drop)
            self.unfinished_rows.addLayout(row)
        self.unfinished_card.setVisible(bool(shown))
        self.on_tables({"tables": self.tables})  # a carried-on table's row is ours to rejoin

    def _rejoin(self) -> None:
        if self.rejoin:
            self.join_table.emit(dict(self.rejoin))

    def _carried_now(self) -> set[tuple[str, bool]]:
        """The tables hosted here that another player now hosts: each id, and whether
        its host answers (a change in either redraws the offers)."""
        return {(offer["table"], answers(table)) for offer in self.unfinished
                if (table := carried_on(offer, self.tables)) is not None}

    def _is_carried(self, table: dict | None) -> bool:
        """``table`` is one hosted here, now carried on by another player."""
        return bool(table) and any(carried_on(offer, [table]) for offer in self.unfinished)

    def _yours(self, table: dict | None) -> bool:
        if self._is_carried(table):
            return True  # our seat is kept at the table carried on without us
        return bool(table and self.rejoin and same_key(table.get("fingerprint"),
                                                       self.rejoin.get("fingerprint")))

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key_Return, Qt.Key_Enter):
            focus = QApplication.focusWidget()
            if isinstance(focus, QPushButton) and focus is not self.rejoin_button:
                focus.click()  # Enter on a focused button means that button
            elif self.rejoin:
                self._rejoin()
            else:
                self._join()
            return
        super().keyPressEvent(event)

    def _big_buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.local_button = QPushButton("Play against the computer")
        self.local_button.setObjectName("playLocal")
        self.host_button = QPushButton("Host a table")
        self.host_button.setObjectName("hostTable")
        for button in (self.local_button, self.host_button):
            button.setMinimumHeight(56)
            row.addWidget(button)
        self.local_button.clicked.connect(self.play_local)
        self.host_button.clicked.connect(self.host_table)
        return row

    def _table_list(self) -> QFrame:
        card = QFrame()
        card.setObjectName("card")
        layout = QVBoxLayout(card)
        heading = QLabel("<b>Tables on your network</b>")
        layout.addWidget(heading)
        self.list = QListWidget()
        self.list.setObjectName("tableList")
        self.list.setAccessibleName("Tables on your network")
        layout.addWidget(self.list, 1)
        self.empty_hint = QLabel("Looking for tables… When someone at home hosts one, it shows up here.")
        self.empty_hint.setObjectName("note")
        self.empty_hint.setWordWrap(True)
        layout.addWidget(self.empty_hint)
        row = QHBoxLayout()
        self.address_button = QPushButton("Join by address…")
        self.address_button.setObjectName("joinAddress")
        self.address_button.setProperty("role", "secondary")
        self.code_button = QPushButton("Join by code…")
        self.code_button.setObjectName("joinCode")
        self.code_button.setProperty("role", "secondary")
        self.code_button.setToolTip("A table in another house: type the code its host reads out to you")
        self.join_button = QPushButton("Join table")
        self.join_button.setObjectName("joinTable")
        self.join_button.setEnabled(False)
        self.watch_button = QPushButton("Watch")
        self.watch_button.setObjectName("watchTable")
        self.watch_button.setProperty("role", "secondary")
        self.watch_button.setToolTip("Watch the game without a seat: you see what everyone at the table sees")
        self.watch_button.setEnabled(False)
        # the picked table's host key, checked with the host before joining (not on every line)
        self.host_key = QLabel()
        self.host_key.setObjectName("hostKey")
        self.host_key.setAlignment(Qt.AlignRight | Qt.AlignVCenter)
        self.host_key.hide()
        row.addWidget(self.address_button)
        row.addWidget(self.code_button)
        row.addStretch(1)
        row.addWidget(self.host_key)
        row.addWidget(self.watch_button)
        row.addWidget(self.join_button)
        layout.addLayout(row)
        self.list.currentRowChanged.connect(self._selection_changed)
        self.list.itemDoubleClicked.connect(lambda _item: self._join())
        self.join_button.clicked.connect(self._join)
        self.watch_button.clicked.connect(self._watch)
        self.address_button.clicked.connect(self._ask_address)
        self.code_button.clicked.connect(self._ask_code)
        return card

    def set_name(self, name: str) -> None:
        self.greeting.setText(f"Welcome, {name}. Pick a game, or join a table nearby.")

    def on_tables(self, event: dict) -> None:
        """Replace the list, keeping the selected table selected if it is still there."""
        selected = self.selected_table()
        self.tables = list(event.get("tables") or [])
        if self._carried_now() != self._shown_carried:
            self.on_unfinished(self.unfinished)  # a hosted table turned up carried on, or went
        self.list.clear()
        for table in self.tables:
            yours = self._yours(table)
            item = QListWidgetItem(describe_table(table, yours))
            item.setData(Qt.UserRole, table.get("id"))
            full = not table.get("open_seats") and not yours
            item.setToolTip(NOT_ANSWERING_TIP if not answers(table) else "No open seats" if full else
                            "Your seat is kept: double-click to rejoin" if yours else "Double-click to join")
            self.list.addItem(item)
            row = TableRow(table, yours=yours)
            row.setEnabled(answers(table))  # greyed: its host does not answer
            item.setSizeHint(QSize(0, max(row.sizeHint().height(), 58)))
            self.list.setItemWidget(item, row)
        self.empty_hint.setVisible(not self.tables)
        if selected is not None:
            for row, table in enumerate(self.tables):
                if table.get("id") == selected.get("id"):
                    self.list.setCurrentRow(row)
        self._selection_changed(self.list.currentRow())

    def selected_table(self) -> dict | None:
        row = self.list.currentRow()
        return self.tables[row] if 0 <= row < len(self.tables) else None

    def _selection_changed(self, row: int) -> None:
        table = self.selected_table()
        yours = self._yours(table)
        self.join_button.setText("Rejoin table" if yours else "Join table")
        self.join_button.setEnabled(answers(table) and bool(table.get("open_seats") or yours))
        self.watch_button.setEnabled(answers(table) and bool(table.get("watchable")) and not yours)
        fingerprint = (table or {}).get("fingerprint")
        if fingerprint:
            host = str(table.get("host") or "the host")
            self.host_key.setText(f"Host's key <b>{escape(fingerprint)}</b>")
            self.host_key.setToolTip(f"{host}'s key: {fingerprint}. The same letters on {host}'s "
                                     "screen (under the seats, when they host) mean this is their table.")
            self.host_key.setAccessibleName(f"{host}'s key {fingerprint}")
        self.host_key.setVisible(bool(fingerprint))

    def _join(self) -> None:
        table = self.selected_table()
        if not answers(table):
            return  # (its row says so)
        if self._is_carried(table):
            self.join_table.emit(table)
        elif self._yours(table):
            self.join_table.emit({**self.rejoin, "address": table["address"], "port": table["port"]})
        elif table and table.get("open_seats"):
            self.join_table.emit(table)

    def _watch(self) -> None:
        table = self.selected_table()
        if answers(table) and table.get("watchable") and not self._yours(table):
            self.watch_table.emit(table)

    def _ask_code(self) -> None:
        """A table in another house: its host's code (``app.houses_dialogs``)."""
        from app.houses_dialogs import JoinCodeDialog
        dialog = JoinCodeDialog(self)
        if dialog.exec():
            self.join_table.emit({"code": dialog.code()})

    def _ask_address(self) -> None:
        from app.join_dialog import JoinAddressDialog
        dialog = JoinAddressDialog(self)
        if dialog.exec():
            self.join_address.emit(dialog.address())
