"""The lobby: start a game against the computer, host a table, or join one nearby.

Tables come from a ``TableDirectory`` — whatever finds tables on the network (mDNS
browsing in net/) feeds ``{"type": "tables", "tables": [TableInfo, …]}`` events into the
callback it is started with, the whole list each time. The lobby only shows them.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QInputDialog, QLabel, QListWidget, QListWidgetItem,
                               QPushButton, QVBoxLayout, QWidget)

from html import escape

from app.host_dialog import GAME_NAMES, MODE_NAMES
from app.setup_view import ruleset_name
from app.table.viewmodel import short_name

EventCallback = "Callable[[dict], None]"
HOST_NAME_CHARS = 20  # a longer host name is cut short in a table's row (the tooltip has it whole)


class TableDirectory(Protocol):
    """Finds tables. ``start`` begins sending "tables" events to ``on_event`` (from any
    thread); ``stop`` ends it."""

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


def game_line(table: dict) -> str:
    """"Somerset · Kitty, winner takes all" / "Horseshoes · Four players, partners opposite"."""
    game = GAME_NAMES.get(table.get("game"), table.get("game") or "?")
    detail = MODE_NAMES.get(table.get("mode") or "", "") or ruleset_name(
        {"game": table.get("game"), "ruleset": table.get("ruleset")})
    return f"{game} · {detail}" if detail else game


def seats_text(table: dict) -> str:
    seats = table.get("open_seats", 0) or 0
    return f"{seats} open seat{'s' if seats != 1 else ''}" if seats else "full"


def status_text(table: dict) -> str:
    return "game in progress" if table.get("in_game") else "waiting to start"


def host_text(table: dict) -> str:
    fingerprint = table.get("fingerprint") or ""
    return f"host {table.get('host', '?')}" + (f" [{fingerprint}]" if fingerprint else "")


def describe_table(table: dict) -> str:
    """The whole entry as plain text (the list item's text and accessible name)."""
    return (f"{table.get('name', 'Table')}  —  {game_line(table)}\n"
            f"{host_text(table)}  ·  {seats_text(table)}  ·  {status_text(table)}")


class TableRow(QWidget):
    """One table in the lobby list: name and game on the left, who hosts and seats on the right."""

    def __init__(self, table: dict, parent: QWidget | None = None):
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
        fingerprint = table.get("fingerprint") or ""
        # The fingerprint in the line's own font: a monospace one sits taller and the
        # line would no longer fit its row.
        host = QLabel(f"Host <b>{escape(short_name(str(table.get('host', '?')), HOST_NAME_CHARS))}</b>"
                      + (f" <span style='color:#b9d3c1'>[{escape(fingerprint)}]</span>" if fingerprint else ""))
        host.setObjectName("lobbyHost")
        host.setToolTip(f"Hosted by {table.get('host', '?')}"
                        + (". The host's key fingerprint: check it with them before joining" if fingerprint else ""))
        host.setAlignment(Qt.AlignRight)
        seats = QLabel(f"{seats_text(table)} · {status_text(table)}")
        seats.setObjectName("lobbySeats" if table.get("open_seats") else "lobbyFull")
        seats.setAlignment(Qt.AlignRight)
        right.addWidget(host)
        right.addWidget(seats)
        row.addLayout(right)


class LobbyPage(QWidget):
    play_local = Signal()
    host_table = Signal()
    join_table = Signal(dict)
    join_address = Signal(str)
    open_settings = Signal()
    open_about = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("page")
        self.tables: list[dict] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 30, 40, 30)
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
        outer.addLayout(self._big_buttons())
        outer.addWidget(self._table_list(), 1)

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
        self.join_button = QPushButton("Join table")
        self.join_button.setObjectName("joinTable")
        self.join_button.setEnabled(False)
        row.addWidget(self.address_button)
        row.addStretch(1)
        row.addWidget(self.join_button)
        layout.addLayout(row)
        self.list.currentRowChanged.connect(self._selection_changed)
        self.list.itemDoubleClicked.connect(lambda _item: self._join())
        self.join_button.clicked.connect(self._join)
        self.address_button.clicked.connect(self._ask_address)
        return card

    def set_name(self, name: str) -> None:
        self.greeting.setText(f"Welcome, {name}. Pick a game, or join a table nearby.")

    def on_tables(self, event: dict) -> None:
        """Replace the list, keeping the selected table selected if it is still there."""
        selected = self.selected_table()
        self.tables = list(event.get("tables") or [])
        self.list.clear()
        for table in self.tables:
            item = QListWidgetItem(describe_table(table))
            item.setData(Qt.UserRole, table.get("id"))
            full = not table.get("open_seats")
            item.setToolTip("No open seats" if full else "Double-click to join")
            self.list.addItem(item)
            row = TableRow(table)
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
        self.join_button.setEnabled(bool(table and table.get("open_seats")))

    def _join(self) -> None:
        table = self.selected_table()
        if table and table.get("open_seats"):
            self.join_table.emit(table)

    def _ask_address(self) -> None:
        address, ok = QInputDialog.getText(self, "Join by address",
                                           "The host's address (shown on their table screen), e.g. 192.168.1.20:4871")
        if ok and address.strip():
            self.join_address.emit(address.strip())
