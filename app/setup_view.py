"""Table setup before the first deal: who sits where, which bots, then Start.

Drawn from the session's "table" event; every change is a session command, so the
screen shows what the table really is (a guest sees the host's arrangement live).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton,
                               QVBoxLayout, QWidget)

from app.host_dialog import GAME_NAMES, MODE_NAMES

# Bot levels a host may choose; the session maps each to a bot (net.local.make_bot).
BOT_LEVELS = (("random", "Beginner"),)
POSITIONS_4 = ("You", "Left", "Partner (across)", "Right")
POSITIONS_3 = ("You", "Left", "Right")


def ruleset_name(settings: dict) -> str:
    """The ruleset's display name, where the game has more than one to tell apart."""
    from engine import rulesets
    try:
        known = rulesets(settings.get("game"))
    except ValueError:
        return ""
    ruleset = known.get(settings.get("ruleset"))
    return ruleset.name if ruleset is not None and len(known) > 1 else ""


class SetupView(QWidget):
    leave_requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("page")
        self.session = None
        self.table: dict = {}
        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 30, 40, 30)
        self.title = QLabel("Table setup")
        self.title.setObjectName("pageTitle")
        outer.addWidget(self.title)
        self.subtitle = QLabel()
        self.subtitle.setObjectName("pageSubtitle")
        self.subtitle.setWordWrap(True)
        outer.addWidget(self.subtitle)
        card = QFrame()
        card.setObjectName("card")
        self.grid = QGridLayout(card)
        self.grid.setContentsMargins(20, 16, 20, 16)
        self.grid.setHorizontalSpacing(18)
        outer.addWidget(card)
        outer.addStretch(1)
        row = QHBoxLayout()
        self.back_button = QPushButton("Back")
        self.back_button.setObjectName("setupBack")
        self.back_button.setProperty("role", "secondary")
        self.start_button = QPushButton("Deal the first hand")
        self.start_button.setObjectName("startGame")
        self.start_button.setMinimumHeight(44)
        self.start_button.setEnabled(False)
        row.addWidget(self.back_button)
        row.addStretch(1)
        row.addWidget(self.start_button)
        outer.addLayout(row)
        self.start_button.clicked.connect(self._start)
        self.back_button.clicked.connect(self.leave_requested)

    def attach(self, session, bridge) -> None:
        self.session = session
        self.title.setText("Table setup")
        self.start_button.setEnabled(False)  # until the session says who sits where
        bridge.table.connect(self.on_table)

    def on_table(self, event: dict) -> None:
        self.table = event
        settings = event.get("settings") or {}
        game = GAME_NAMES.get(settings.get("game"), settings.get("game", ""))
        mode = MODE_NAMES.get(settings.get("mode"), "")
        self.title.setText(f"{settings.get('name') or 'Table'} — {game}")
        self.subtitle.setText(" · ".join(x for x in (ruleset_name(settings), mode) if x)
                              + (". " if mode or ruleset_name(settings) else "") + "Choose the seats, then deal.")
        self.start_button.setEnabled(bool(event.get("is_host")) and not event.get("started"))
        self.start_button.setVisible(bool(event.get("is_host")))
        self._fill_seats(event)

    def _fill_seats(self, event: dict) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            if item.widget():
                item.widget().hide()
                item.widget().deleteLater()
        seats = event.get("seats") or []
        you = event.get("you")
        positions = POSITIONS_3 if len(seats) == 3 else POSITIONS_4
        partners = (event.get("settings") or {}).get("game") != "horseshoes" or \
            (event.get("settings") or {}).get("mode") == "partners"
        for row, seat in enumerate(seats):
            offset = (seat["seat"] - (you or 0)) % len(seats)
            where = positions[offset]
            if not partners and "Partner" in where:
                where = "Across"
            self.grid.addWidget(QLabel(f"<b>{where}</b>"), row, 0)
            self.grid.addWidget(QLabel(seat["name"] + ("" if seat.get("connected", True) else " (away)")), row, 1)
            team = f"Team {'AB'[seat['seat'] % 2]}" if partners else ""
            self.grid.addWidget(QLabel(team), row, 2)
            self.grid.addWidget(self._seat_control(seat, you, bool(event.get("is_host"))), row, 3)

    def _seat_control(self, seat: dict, you: int | None, is_host: bool) -> QWidget:
        if seat["seat"] == you:
            return QLabel("That's you")
        if seat.get("kind") == "bot" and is_host:
            box = QComboBox()
            box.setObjectName(f"level-{seat['seat']}")
            box.setAccessibleName(f"Bot level for {seat['name']}")
            for level, label in BOT_LEVELS:
                box.addItem(f"Computer: {label}", level)
            index = box.findData(seat.get("level"))
            box.setCurrentIndex(max(index, 0))
            box.currentIndexChanged.connect(
                lambda _i, s=seat["seat"], b=box: self.session and self.session.set_seat(s, "bot", b.currentData()))
            holder = QWidget()
            row = QHBoxLayout(holder)
            row.setContentsMargins(0, 0, 0, 0)
            row.addWidget(box)
            sit = QPushButton("Sit here")
            sit.setObjectName(f"sit-{seat['seat']}")
            sit.setProperty("role", "secondary")
            sit.clicked.connect(lambda _=False, s=seat["seat"]: self.session and self.session.sit(s))
            row.addWidget(sit)
            return holder
        label = {"bot": "Computer", "empty": "Open seat", "human": "Player"}.get(seat.get("kind"), "")
        return QLabel(label)

    def _start(self) -> None:
        if self.session is not None:
            self.start_button.setEnabled(False)
            self.session.start_game()
