"""Table setup before the first deal: who sits where, which bots, then Start.

Drawn from the session's "table" event; every change is a session command, so the
screen shows what the table really is (a guest sees the host's arrangement live).
While connecting, only "Connecting…" and Cancel show: nothing a guest cannot use. A
network host sees the address others type in Join by address, with a Copy button, and
"Invite from another house" (a code to read out: ``app.houses_dialogs``).
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QComboBox, QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton,
                               QVBoxLayout, QWidget)

from app.host_dialog import BOT_LEVELS, DEFAULT_LEVEL
from app.table.watchers_line import watching_text
from app.titles import game_info, mode_name, title_name
from engine import UnknownTitle

POSITIONS_4 = ("You", "Left", "Partner (across)", "Right")
POSITIONS_3 = ("You", "Left", "Right")


def level_name(level: str | None) -> str:
    """"Easy", "Normal", "Hard"; "level not known" when the table does not say."""
    return dict(BOT_LEVELS).get(level or "", "level not known")


def side_names(settings: dict) -> list[str | None]:
    """Each seat's team name ("Team A"), or None where everyone plays alone. A table
    whose game this copy of Parlour does not know: UnknownTitle."""
    if not settings.get("game"):
        return []  # the table has not said yet
    sides = game_info(settings).sides
    teams: list[str | None] = [None] * sum(len(side.seats) for side in sides)
    for side in sides:
        for seat in side.seats:
            teams[seat] = side.name if len(side.seats) > 1 else None
    return teams


def teams_sentence(teams: list[str | None], you: int | None, is_host: bool) -> str:
    """Who plays with whom, said from your own seat (a guest at seat 1 is Team B);
    ``teams`` as ``side_names`` gives them."""
    if not any(teams):
        return "Everyone plays for themselves."
    if you is None or you >= len(teams):
        named = list(dict.fromkeys(team for team in teams if team))
        return f"Partners sit across from each other: {' and '.join(named)}."
    sentence = (f"Partners sit across from each other: you are {teams[you]}, "
                "with the player opposite you.")
    if is_host:
        sentence += " Use Sit here, or put someone in a seat, to change the teams."
    return sentence


def ruleset_name(settings: dict) -> str:
    """The ruleset's display name, where the game has more than one to tell apart."""
    from engine import rulesets
    try:
        known = rulesets(settings.get("game"))
    except ValueError:
        return ""
    ruleset = known.get(settings.get("ruleset"))
    return ruleset.name if ruleset is not None and len(known) > 1 else ""


def host_key_sentence(event: dict) -> str:
    """The host's key fingerprint in a sentence: to read out (the host's own screen), or
    to check (a guest's); "" at a table against the computer (no one to check it)."""
    seats = {s["seat"]: s for s in event.get("seats") or []}
    host = seats.get(event.get("host_seat"))
    fingerprint = (host or {}).get("fingerprint")
    if not fingerprint or not (event.get("address") or not event.get("is_host")):
        return ""
    if event.get("is_host"):
        return (f"Your key: {fingerprint}. A player who wants to be sure they have found your "
                "table checks it with you: their list of tables shows the same letters.")
    return (f"{host.get('name') or 'The host'}'s key: {fingerprint} — the same letters as on their "
            "screen mean this is their table.")


class SetupView(QWidget):
    leave_requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("page")
        self.session = None
        self.bridge = None
        self.invite_dialog = None
        self.table: dict = {}
        self.teams: list[str | None] = []  # each seat's team name; None: plays alone
        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 30, 40, 30)
        self.title = QLabel("Table setup")
        self.title.setObjectName("pageTitle")
        outer.addWidget(self.title)
        # "You are watching this table" (a watcher: no seat here is theirs), or "Watching:
        # Leo, Maya" — the words of the table's own line (``watchers_line``), from the
        # same "watchers" events: a watcher arriving before the deal is told so first.
        self.watching_label = QLabel()
        self.watching_label.setObjectName("setupWatching")
        self.watching_label.setWordWrap(True)
        self.watching_label.hide()
        outer.addWidget(self.watching_label)
        self.subtitle = QLabel()
        self.subtitle.setObjectName("pageSubtitle")
        self.subtitle.setWordWrap(True)
        outer.addWidget(self.subtitle)
        outer.addLayout(self._address_row())
        card = QFrame()
        card.setObjectName("card")
        self.grid = QGridLayout(card)
        self.grid.setContentsMargins(20, 16, 20, 16)
        self.grid.setHorizontalSpacing(16)
        self.grid.setVerticalSpacing(10)
        self.grid.setColumnStretch(1, 1)
        self.grid.setColumnMinimumWidth(0, 130)
        outer.addWidget(card)
        outer.addStretch(1)
        fill = QHBoxLayout()
        self.fill_label = QLabel("Seats still open when you deal are played by")
        self.fill_box = QComboBox()
        self.fill_box.setObjectName("fillLevel")
        self.fill_box.setAccessibleName("Computer level for open seats")
        for level, name in BOT_LEVELS:
            self.fill_box.addItem(f"Computer: {name}", level)
        self.fill_box.setCurrentIndex(self.fill_box.findData(DEFAULT_LEVEL))
        fill.addWidget(self.fill_label)
        fill.addWidget(self.fill_box)
        fill.addStretch(1)
        outer.addLayout(fill)
        self.teams_note = QLabel()
        self.teams_note.setObjectName("note")
        self.teams_note.setWordWrap(True)
        outer.addWidget(self.teams_note)
        # The host's key fingerprint, said once: what a player checks with the host (the
        # lobby shows it before joining), not a code on every seat.
        self.key_note = QLabel()
        self.key_note.setObjectName("note")
        self.key_note.setWordWrap(True)
        self.key_note.setTextInteractionFlags(Qt.TextSelectableByMouse)
        outer.addWidget(self.key_note)
        self.problem = QLabel()  # why the last change was refused ("Bo is sitting there…")
        self.problem.setObjectName("setupProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #ffb4a8;")
        self.problem.hide()
        outer.addWidget(self.problem)
        # what the host found on its way here ("Found a table log that cannot be resumed
        # (…); kept it as …"): it stays until this view is left, as the new table does
        self.notice = QLabel()
        self.notice.setObjectName("setupNotice")
        self.notice.setWordWrap(True)
        self.notice.hide()
        outer.addWidget(self.notice)
        row = QHBoxLayout()
        self.back_button = QPushButton("Back")
        self.back_button.setObjectName("setupBack")
        self.back_button.setProperty("role", "secondary")
        self.start_button = QPushButton("Deal the first hand")
        self.start_button.setObjectName("startGame")
        self.start_button.setMinimumHeight(44)
        self.start_button.setToolTip("Deal the first hand (Enter)")
        self.start_button.setEnabled(False)
        row.addWidget(self.back_button)
        row.addStretch(1)
        row.addWidget(self.start_button)
        outer.addLayout(row)
        self.start_button.clicked.connect(self._start)
        self.back_button.clicked.connect(self.leave_requested)

    def _address_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.address_label = QLabel()
        self.address_label.setObjectName("hostAddress")
        self.address_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.copy_button = QPushButton("Copy address")
        self.copy_button.setObjectName("copyAddress")
        self.copy_button.setProperty("role", "secondary")
        self.copy_button.setToolTip("Copy the address, to send it to someone who can't see the table")
        self.copy_button.clicked.connect(self._copy_address)
        self.invite_button = QPushButton("Invite from another house…")
        self.invite_button.setObjectName("inviteHouse")
        self.invite_button.setProperty("role", "secondary")
        self.invite_button.setToolTip("A code to read out to a player who is not on this "
                                      "network (Grandma in another town)")
        self.invite_button.clicked.connect(self._invite)
        # The sentence wraps rather than lose its end to the buttons beside it (at 1024 px,
        # with "Invite from another house…" there, it was cut off after "type … in").
        self.address_label.setWordWrap(True)
        row.addWidget(self.address_label, 1)
        row.addWidget(self.copy_button)
        row.addWidget(self.invite_button)
        self._show_address(None)
        return row

    def _show_address(self, address: str | None) -> None:
        self.address = address
        self.address_label.setText(f"Others find this table in their lobby, or type "
                                   f"<b>{escape(address)}</b> in Join by address." if address else "")
        self.address_label.setVisible(bool(address))
        self.copy_button.setVisible(bool(address))
        self.copy_button.setText("Copy address")
        self.invite_button.setVisible(bool(address) and hasattr(self.session, "invite"))

    def _copy_address(self) -> None:
        if self.address:
            QGuiApplication.clipboard().setText(self.address)
            self.copy_button.setText("Copied")

    def invite_seat(self) -> int | None:
        """The seat a code from another house is for: the first open one, else the first
        a computer holds (the guest takes it), else none."""
        seats = [s for s in self.table.get("seats") or [] if s["seat"] != self.table.get("you")]
        for kind in ("empty", "bot"):
            for seat in seats:
                if seat.get("kind") == kind:
                    return seat["seat"]
        return None

    def _invite(self) -> None:
        seat = self.invite_seat()
        if seat is None or self.session is None or self.bridge is None:
            self.problem.setText("Every seat has a player: free one first (set it to a computer or open).")
            self.problem.show()
            return
        from app.houses_dialogs import InviteDialog
        seats = self.table.get("seats") or []
        self.invite_dialog = InviteDialog(self.session, self.bridge, seat,
                                          self._where(seats[seat]) if seat < len(seats) else "", self)
        self.invite_dialog.open()

    def attach(self, session, bridge) -> None:
        self.session = session
        self.bridge = bridge
        self.table, self.teams = {}, []
        self.title.setText("Table setup")
        watches = getattr(session, "watching", False) is True
        self.subtitle.setText("Connecting to the table to watch…" if watches else "Connecting to the table…")
        self.on_watchers({})
        self.problem.hide()
        self.notice.hide()
        self.start_button.setEnabled(False)  # until the session says who sits where
        self._connecting(True)
        bridge.table.connect(self.on_table)
        bridge.error.connect(self.on_error)
        bridge.notice.connect(self.on_notice)
        if hasattr(bridge, "watchers"):
            bridge.watchers.connect(self.on_watchers)

    def _connecting(self, on: bool) -> None:
        """Until the first "table" event: no seats, no host's controls, and Cancel."""
        self.back_button.setText("Cancel" if on else "Back")
        self.back_button.setAccessibleName("Cancel joining" if on else "Back to the lobby")
        if on:
            for widget in (self.start_button, self.fill_label, self.fill_box, self.teams_note):
                widget.hide()
            self._show_address(None)
            self._fill_seats({})

    def on_error(self, event: dict) -> None:
        if not event.get("fatal") and not self.table.get("started"):
            self.problem.setText(event.get("message") or "")
            self.problem.show()

    def on_watchers(self, event: dict) -> None:
        text = watching_text(event, {})
        self.watching_label.setText(text)
        self.watching_label.setAccessibleName(text)
        self.watching_label.setVisible(bool(text))

    def on_notice(self, event: dict) -> None:
        self.notice.setText(event.get("message") or "")
        self.notice.setVisible(bool(event.get("message")))

    def on_table(self, event: dict) -> None:
        if event.get("seats") != self.table.get("seats"):
            self.problem.hide()
        self.table = event
        self._connecting(False)
        self.teams_note.show()
        if event.get("address") != self.address:
            self._show_address(event.get("address") if event.get("is_host") else None)
        settings = event.get("settings") or {}
        self.teams = self._teams(settings)
        game = title_name(settings.get("game")) if settings.get("game") else ""
        mode = mode_name(settings.get("game"), settings.get("mode"))
        self.title.setText(f"{settings.get('name') or 'Table'} — {game}")
        self.subtitle.setText(" · ".join(x for x in (ruleset_name(settings), mode) if x)
                              + (". " if mode or ruleset_name(settings) else "")
                              + ("Choose the seats, then deal." if event.get("is_host") else
                                 "The host arranges the seats and deals."))
        self.start_button.setEnabled(bool(event.get("is_host")) and not event.get("started"))
        self.start_button.setVisible(bool(event.get("is_host")))
        self.teams_note.setText(teams_sentence(self.teams, event.get("you"), bool(event.get("is_host"))))
        self.key_note.setText(host_key_sentence(event))
        self.key_note.setVisible(bool(self.key_note.text()))
        has_open = any(s.get("kind") == "empty" for s in event.get("seats") or [])
        self.fill_label.setVisible(bool(event.get("is_host")) and has_open)
        self.fill_box.setVisible(bool(event.get("is_host")) and has_open)
        self._fill_seats(event)

    def _teams(self, settings: dict) -> list[str | None]:
        """Each seat's team; a game this copy of Parlour cannot play says so, loudly."""
        try:
            return side_names(settings)
        except (UnknownTitle, ValueError) as unknown:
            self.problem.setText(f"This table's game can't be played here: {unknown}. "
                                 "A newer Parlour may know it.")
            self.problem.show()
            return []

    def _fill_seats(self, event: dict) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            if item.widget():
                item.widget().hide()
                item.widget().deleteLater()
        seats = event.get("seats") or []
        you = event.get("you")
        # Clockwise from you (or from the first seat, for someone not seated yet).
        ordered = sorted(seats, key=lambda seat: (seat["seat"] - (you or 0)) % max(len(seats), 1))
        for row, seat in enumerate(ordered):
            self.grid.addWidget(QLabel(f"<b>{escape(self._where(seat).capitalize())}</b>"), row, 0)
            name = QLabel(self._occupant(seat, bool(event.get("is_host"))))
            name.setTextFormat(Qt.RichText)
            name.setObjectName(f"seatName-{seat['seat']}")
            name.setWordWrap(True)  # a long name takes two lines, not the controls' room
            if seat.get("fingerprint"):
                name.setToolTip(f"Key fingerprint {seat['fingerprint']}")
            self.grid.addWidget(name, row, 1)
            team = self.teams[seat["seat"]] if seat["seat"] < len(self.teams) else None
            self.grid.addWidget(QLabel(team or ""), row, 2)
            self.grid.addWidget(self._seat_control(seat, you, bool(event.get("is_host"))), row, 3)

    @staticmethod
    def _occupant(seat: dict, is_host: bool) -> str:
        """Who sits there, as rich text: a name, a computer player with its level (the
        host's seat choice says it already), "away" for a player whose connection is
        down, or "open"."""
        kind = seat.get("kind")
        if kind == "empty":
            return "<i>open</i>"
        text = escape(seat.get("name") or "")
        if kind == "bot":
            return text if is_host else f"{text} — computer, {escape(level_name(seat.get('level')))}"
        if not seat.get("connected", True):
            text += " (away)"
        return text

    def _seat_control(self, seat: dict, you: int | None, is_host: bool) -> QWidget:
        """The host picks who sits here: a computer of some level, a player who joined
        (moving them from their seat), or nobody yet. Everyone else just sees it."""
        if seat["seat"] == you:
            return QLabel("That's you")
        if seat["seat"] == self.table.get("host_seat"):
            return QLabel("Host")  # whose computer runs the table (they choose who sits where)
        label = {"bot": "Computer player", "empty": "Waiting for a player",
                 "human": "Player"}.get(seat.get("kind"), "")
        if not is_host:
            return QLabel(label)
        box = QComboBox()
        box.setObjectName(f"occupant-{seat['seat']}")
        box.setAccessibleName(f"Who sits {self._where(seat)}")
        for level, name in BOT_LEVELS:
            box.addItem(f"Computer: {name}", f"bot:{level}")
        if not self._local():
            box.addItem("Open seat (wait for a player)", "empty:")
        for other in self.table.get("seats") or []:
            if other.get("kind") == "human" and other["seat"] != you:
                here = other["seat"] == seat["seat"]
                box.addItem(other["name"] if here else f"Move {other['name']} here",
                            f"human:{other.get('fingerprint') or other['name']}")
        current = {"bot": f"bot:{seat.get('level')}", "empty": "empty:",
                   "human": f"human:{seat.get('fingerprint') or seat['name']}"}.get(seat.get("kind"))
        index = box.findData(current)
        if index < 0 and seat.get("kind") == "bot":
            index = box.findData(f"bot:{DEFAULT_LEVEL}")
        box.setCurrentIndex(max(index, 0))
        box.activated.connect(lambda _i, s=seat["seat"], b=box: self._occupy(s, b.currentData()))
        holder = QWidget()
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        box.setMinimumWidth(220)
        box.setSizeAdjustPolicy(QComboBox.AdjustToContents)  # its longest choice shows whole
        row.addWidget(box)
        sit = QPushButton("Sit here")
        sit.setObjectName(f"sit-{seat['seat']}")
        sit.setProperty("role", "secondary")
        sit.setAccessibleName(f"Sit {self._where(seat)} yourself")
        sit.clicked.connect(lambda _=False, s=seat["seat"]: self.session and self.session.sit(s))
        row.addWidget(sit)
        return holder

    def _occupy(self, seat: int, choice) -> None:
        if self.session is None or not choice:
            return
        kind, _, value = choice.partition(":")
        if kind == "bot":
            self.session.set_seat(seat, "bot", value)
        elif kind == "empty":
            self.session.set_seat(seat, "empty")
        else:
            self.session.set_seat(seat, "human", player=value)

    def _local(self) -> bool:
        return bool(getattr(self.session, "local", False))

    def _where(self, seat: dict) -> str:
        seats = self.table.get("seats") or []
        you = self.table.get("you")
        if you is None:  # a watcher (or someone not seated yet): no seat is theirs to call "you"
            return f"seat {seat['seat'] + 1}"
        positions = POSITIONS_3 if len(seats) == 3 else POSITIONS_4
        where = positions[(seat["seat"] - you) % max(len(seats), 1)]
        if where.startswith("Partner") and not any(self.teams):
            where = "Across"
        return where.lower()

    def keyPressEvent(self, event) -> None:
        """Enter deals the first hand, as the highlighted button says (host only)."""
        if event.key() in (Qt.Key_Return, Qt.Key_Enter) and self.start_button.isVisible() \
                and self.start_button.isEnabled():
            self.start_button.click()
            return
        super().keyPressEvent(event)

    def _start(self) -> None:
        if self.session is not None:
            self.start_button.setEnabled(False)
            level = self.fill_box.currentData()
            for seat in self.table.get("seats") or []:  # open seats get a computer of the chosen level
                if seat.get("kind") == "empty":
                    self.session.set_seat(seat["seat"], "bot", level)
            self.session.start_game(level)  # (also the level a stand-in plays at)
