"""What appears over the table: the integrity alert banner, the "Waiting for …" bar, the
"Reconnecting…" curtain, the hand summary and the game-over card.

Someone else's dropped connection is a bar above the table, not a curtain over it: the
host (and everyone else) can go on playing their own turns meanwhile. Only your own
reconnection covers the table, since nothing can be played until it is back. Under the
private deal the bar says so when the hand itself waits for the player ("only their
computer knows their cards"), with a countdown to the hand dealt again without them."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from app.summary import HandSummary


class AlertBanner(QFrame):
    """A red bar across the top: an integrity check failed. Stays until dismissed."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("alertBanner")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        row = QHBoxLayout()
        self.text = QLabel()
        self.text.setObjectName("alertText")
        self.text.setWordWrap(True)
        row.addWidget(self.text, 1)
        self.details_button = QPushButton("Details")
        self.details_button.setObjectName("alertDetails")
        self.details_button.setCheckable(True)
        row.addWidget(self.details_button)
        self.dismiss = QPushButton("Dismiss")
        self.dismiss.setObjectName("alertDismiss")
        row.addWidget(self.dismiss)
        layout.addLayout(row)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.details.hide()
        layout.addWidget(self.details)
        self.details_button.toggled.connect(self.details.setVisible)
        self.dismiss.clicked.connect(self.hide)
        self.hide()

    def show_alert(self, who: str, rule: str, detail: str, evidence: str | None,
                   goes_on: bool = False, forfeit: str = "", reporter: str | None = None,
                   checked: bool = True) -> None:
        """``goes_on``: a player's proven cheat the table went on after, said as such, not
        as a table that stopped; ``forfeit``: what it cost, in words ("Dad's computer played
        a card it was not allowed to (a revoke): Dad's team forfeits the hand."), or, with
        none, a log from before forfeits (the hand dealt again). ``reporter``: the player
        whose client found it and sent its evidence; ``checked`` False: this computer could
        not check it (what that player alone was sent), so it is that player's word, and
        the game goes on here."""
        if reporter is not None and not checked:
            title = (f"\u26a0 {reporter}'s computer reports that {who} broke a rule ({rule}) — "
                     "not something this computer can check")
        elif forfeit:
            title = f"\u26a0 {forfeit} The game goes on."
        elif goes_on:
            title = f"\u26a0 {who}'s computer broke a rule ({rule}) — the hand is dealt again " \
                    "and the game goes on"
        else:
            title = f"\u26a0 Integrity alert — {who}: {rule}"
            if reporter is not None:
                title += f" (found by {reporter}'s computer, checked by this one)"
        self.text.setText(title)
        extra = f"\nEvidence saved to: {evidence}" if evidence else ""
        self.details.setText(f"{detail}{extra}")
        self.setAccessibleName(title.removeprefix("\u26a0 ") if goes_on or reporter is not None
                               else f"Integrity alert: {who}: {rule}")
        self.setAccessibleDescription(detail)
        self.show()


class _Bar(QFrame):
    """A bar above the table: a title over a line of detail on the left, its buttons on
    the right (``row``). The notice and the waiting bar are both one."""

    def __init__(self, parent: QWidget | None, name: str, title_name: str):
        super().__init__(parent)
        self.setObjectName(name)
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(12, 6, 12, 6)
        text = QVBoxLayout()
        text.setSpacing(0)
        self.title = QLabel()
        self.title.setObjectName(title_name)
        self.title.setWordWrap(True)
        self.detail = QLabel()
        self.detail.setObjectName("note")
        self.detail.setWordWrap(True)
        text.addWidget(self.title)
        text.addWidget(self.detail)
        self.row.addLayout(text, 1)

    def _say(self, title: str, detail: str) -> None:
        self.title.setText(title)
        self.detail.setText(detail)
        self.setAccessibleName(title)
        self.setAccessibleDescription(detail)


class NoticeBanner(_Bar):
    """Something the table did that every player should know, in words (a hand voided,
    and why): a bar above the table until dismissed or the hand is over."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, "noticeBanner", "noticeTitle")
        self.dismiss = QPushButton("Dismiss")
        self.dismiss.setObjectName("noticeDismiss")
        self.dismiss.setProperty("role", "secondary")
        self.dismiss.setFocusPolicy(Qt.TabFocus)  # a click leaves the keys with your hand
        self.row.addWidget(self.dismiss)
        self.dismiss.clicked.connect(self.hide)
        self.hide()

    def show_notice(self, title: str, detail: str = "") -> None:
        self._say(title, detail)
        self.detail.setVisible(bool(detail))
        self.show()


def drop_reason(name: str, detail: str) -> str:
    """Why ``name``'s seat is empty, in plain words, from the session's reason (which
    may be a transport's "connection closed (peer closed the connection)")."""
    text = (detail or "").lower()
    if text.startswith("connection closed") or "left the table" in text:
        why = f"{name}'s connection closed"
    elif "heartbeat" in text or "stopped answering" in text:
        why = f"{name}'s computer stopped answering"
    elif "did not come back" in text:
        why = f"{name} did not come back after the table restarted"
    elif "garbage" in text or "malformed" in text:
        why = f"{name}'s Parlour sent something it should not, so it was disconnected"
    else:
        why = f"{name} lost the connection"
    return f"{why}. Their seat is kept for them."


class WaitingBar(_Bar):
    """"Waiting for Dad to come back" above the table, with the host's choice: keep
    waiting, or let a computer player take the seat for now. Never blocks the table.

    Under the private deal, while the hand itself waits for the player (``locked``: their
    cards are locked with their key), it counts down to the hand dealt again without
    them, and the host's choice is to keep waiting (the countdown starts again) or to
    "Deal again without Dad" — offered once the rules allow it. While the host's computer
    holds an away player's cards (``held_for``: after a void or a takeover), it counts
    down to a computer playing for them, and the host may keep waiting or let it play now."""

    keep_waiting = Signal(int)
    stand_in = Signal(int)
    deal_again = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, "waitingBar", "waitingTitle")
        self.wait_button = QPushButton("Keep waiting")
        self.wait_button.setObjectName("keepWaiting")
        self.wait_button.setProperty("role", "secondary")
        self.bot_button = QPushButton("Let the computer play for them")
        self.bot_button.setObjectName("standIn")
        self.deal_button = QPushButton("Deal again")
        self.deal_button.setObjectName("dealAgain")
        for button in (self.wait_button, self.bot_button, self.deal_button):
            self.row.addWidget(button)
        self.seat: int | None = None
        self.locked = False  # the hand waits for the player: their cards are locked with their key
        self._name = ""
        self._until: float | None = None  # (time.monotonic) the hand is dealt again without them
        self._choice_at: float | None = None  # (time.monotonic) the host may deal again without them
        self._host_choice = False
        self._held = False  # the countdown is to a computer playing for them, not a deal
        self._why = ""  # said before a held seat's countdown (a takeover's words), or nothing
        self._tick = QTimer(self)
        self._tick.setInterval(250)  # a second's digit changes on time, give or take a quarter
        self._tick.timeout.connect(self._count)
        self.wait_button.clicked.connect(lambda: self.keep_waiting.emit(self.seat))
        self.bot_button.clicked.connect(lambda: self.stand_in.emit(self.seat))
        self.deal_button.clicked.connect(lambda: self.deal_again.emit(self.seat))
        self.hide()

    def waiting(self, seat: int, title: str, detail: str, host_choice: bool) -> None:
        self._unlock()
        self.seat = seat
        self._say(title, detail)
        self.wait_button.setVisible(host_choice)
        self.bot_button.setVisible(host_choice)
        self.deal_button.hide()
        self.show()

    def locked_for(self, seat: int, name: str, within: float | None, choice_in: float | None,
                   host_choice: bool) -> None:
        """The hand waits for ``name`` (``seat``), gone under the private deal: it is dealt
        again without them in ``within`` seconds (None: not known here), and the host
        (``host_choice``) may deal again without them in ``choice_in`` seconds."""
        now = time.monotonic()
        self.seat, self.locked, self._name, self._host_choice = seat, True, name, host_choice
        self._until = None if within is None else now + within
        self._choice_at = None if choice_in is None else now + choice_in
        title = f"Waiting for {name} to come back — only their computer knows their cards"
        self.title.setText(title)
        self.setAccessibleName(title)
        self.wait_button.setVisible(host_choice)
        self.bot_button.hide()
        self.deal_button.setText(f"Deal again without {name}")
        self.deal_button.setVisible(host_choice)
        self._count()
        self._tick.start()
        self.show()

    def held_for(self, seat: int, name: str, within: float | None, host_choice: bool,
                 title: str = "", why: str = "") -> None:
        """The table waits for ``name`` (``seat``), gone while the host's computer holds
        their cards: a computer plays for them in ``within`` seconds (None: not known here).
        ``title`` and ``why`` replace the plain "Waiting for …" and lead the countdown
        (after a takeover: "Grandma's seat is held for them", and who hosts now)."""
        self.waiting(seat, title or f"Waiting for {name} to come back", "", host_choice)
        self._held, self._host_choice, self._why = True, host_choice, why
        self._until = None if within is None else time.monotonic() + within
        self._count()
        self._tick.start()

    def left(self) -> float | None:
        """Seconds until the hand is dealt again without the player (None: not known)."""
        return None if self._until is None else max(0.0, self._until - time.monotonic())

    def _count(self) -> None:
        now, left = time.monotonic(), self.left()
        if self._held:
            self._count_held(left)
            return
        if left is None:
            detail = "The hand goes on as soon as they are back, or once the host deals again without them."
        elif left > 0:
            seconds = int(left + 0.999)  # 0:01 until the very end, never 0:00 while waiting
            detail = f"Dealt again without them in {seconds // 60}:{seconds % 60:02d} unless they come back."
        elif self._host_choice:
            detail = "Dealing again without them…"
        else:
            detail = "The host is waiting a little longer for them."
        self.detail.setText(detail)
        self.setAccessibleDescription(detail)
        may = self._choice_at is not None and now >= self._choice_at
        self.deal_button.setEnabled(may)
        self.deal_button.setToolTip("" if may or self._choice_at is None else
                                    f"Possible in {self._choice_at - now:.0f} s: the rules give "
                                    f"{self._name} that long to come back")

    def _count_held(self, left: float | None) -> None:
        if left is None:
            detail = "The host's computer holds their cards; a computer plays for them if they do not come back."
        elif left > 0:
            seconds = int(left + 0.999)
            detail = f"A computer plays for them in {seconds // 60}:{seconds % 60:02d} unless they come back."
        else:
            detail = "A computer plays for them now…" if self._host_choice else \
                "A computer plays for them unless the host waits longer."
        if self._why:
            detail = f"{self._why} {detail}"
        self.detail.setText(detail)
        self.setAccessibleDescription(detail)

    def holding(self, seat: int) -> bool:
        """The bar counts down to a computer playing ``seat``'s held cards."""
        return self._held and self.seat == seat and not self.isHidden()

    def retitle_held(self, seat: int, title: str, why: str) -> bool:
        """If the bar counts down for ``seat``'s held cards, say ``title`` and lead its
        countdown with ``why``, keeping the countdown (True); else leave it (False)."""
        if not self.holding(seat):
            return False
        self.title.setText(title)
        self.setAccessibleName(title)
        self._why = why
        self._count()
        return True

    def _unlock(self) -> None:
        self._tick.stop()
        self.locked, self._held, self._until, self._choice_at = False, False, None, None
        self._why = ""

    def clear(self, seat: int | None = None) -> None:
        """Hide the bar (only if it is about ``seat``, when given)."""
        if seat is None or seat == self.seat:
            self._unlock()
            self.hide()
            self.seat = None


class Curtain(QWidget):
    """Covers its parent with a dim layer and shows a card-like panel in the middle."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setAttribute(Qt.WA_StyledBackground, False)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        self.panel = QFrame()
        self.panel.setObjectName("overlayPanel")
        self.panel.setMaximumWidth(640)
        self.content = QVBoxLayout(self.panel)
        self.content.setContentsMargins(20, 12, 20, 12)
        row.addWidget(self.panel, 3)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(1)
        parent.installEventFilter(self)
        self.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parent() and event.type() == QEvent.Resize:
            self.setGeometry(self.parent().rect())
        return False

    def reveal(self) -> None:
        self.setGeometry(self.parent().rect())
        self.show()
        self.raise_()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(0, 0, 0, 140))
        painter.end()


class ConnectionCurtain(Curtain):
    """"Reconnecting…": your own connection is coming back, or the host left and the table
    looks for the player who carries it on (nothing to play meanwhile). It covers the
    table's own Leave, so it has one of its own: a person can always go, however long
    the wait (a watcher of a table nobody carries on would wait for ever)."""

    leave = Signal()

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.title = QLabel()
        self.title.setObjectName("overlayTitle")
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.content.addWidget(self.title)
        self.content.addWidget(self.detail)
        self.progress = QProgressBar()
        self.progress.setObjectName("reconnectProgress")
        self.progress.setAccessibleName("Reconnecting")
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(10)
        self.progress.hide()
        self.content.addWidget(self.progress)
        row = QHBoxLayout()
        row.addStretch(1)
        self.leave_button = QPushButton("Leave")
        self.leave_button.setObjectName("curtainLeave")
        self.leave_button.setProperty("role", "secondary")
        self.leave_button.setAccessibleName("Leave the table")
        self.leave_button.setAutoDefault(True)  # Enter, as well as Space, once it has the focus
        self.leave_button.clicked.connect(self.leave)
        row.addWidget(self.leave_button)
        self.content.addLayout(row)
        self.seat: int | None = None

    def waiting(self, seat: int, title: str, detail: str,
                progress: tuple[int, int] | None = None, busy: bool = False) -> None:
        """``progress`` (done, of) — e.g. attempts — fills the bar; ``busy`` without it
        shows a moving bar (you are reconnecting, how long is unknown)."""
        self.seat = seat
        if progress is not None and progress[1] > 0:
            self.progress.setRange(0, progress[1])
            self.progress.setValue(min(progress[0], progress[1]))
        else:
            self.progress.setRange(0, 0)
        self.progress.setVisible(busy or progress is not None)
        self.title.setText(title)
        self.detail.setText(detail)
        self.setAccessibleName(title)
        self.reveal()


class SummaryCurtain(Curtain):
    """The hand summary with "Next hand", or the game-over card with "Rematch". Both
    have a way out: "Leave" in the middle of a game (the window asks first, as the
    table's own Leave does), "Back to lobby" once it is over."""

    next_hand = Signal()
    rematch = Signal()
    leave = Signal()

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.title = QLabel()
        self.title.setObjectName("overlayTitle")
        self.title.setWordWrap(True)
        self.content.addWidget(self.title)
        self.summary = HandSummary()
        self.content.addWidget(self.summary)
        row = QHBoxLayout()
        self.leave_button = QPushButton("Back to lobby")
        self.leave_button.setObjectName("leaveTable")
        self.leave_button.setProperty("role", "secondary")
        self.last_trick_button = QPushButton("Last trick")
        self.last_trick_button.setObjectName("summaryLastTrick")
        self.last_trick_button.setProperty("role", "secondary")
        self.last_trick_button.setCheckable(True)
        self.last_trick_button.setToolTip("Show the hand's last trick instead of the score chart")
        self.last_trick_button.toggled.connect(self._show_last_trick)
        self.rematch_button = QPushButton("Rematch")
        self.rematch_button.setObjectName("rematch")
        self.next_button = QPushButton("Next hand")
        self.next_button.setObjectName("nextHand")
        row.addWidget(self.leave_button)
        row.addWidget(self.last_trick_button)
        row.addStretch(1)
        row.addWidget(self.rematch_button)
        row.addWidget(self.next_button)
        self.content.addLayout(row)
        for button in (self.leave_button, self.last_trick_button, self.rematch_button, self.next_button):
            button.setAutoDefault(True)  # Enter, as well as Space, presses the one with the focus
        for button in (self.leave_button, self.last_trick_button):
            button.setFocusPolicy(Qt.TabFocus)  # a click leaves the focus on Next hand (Rematch)
        self.next_button.clicked.connect(self.next_hand)
        self.rematch_button.clicked.connect(self.rematch)
        self.leave_button.clicked.connect(self.leave)
        self.game_over = False

    def _show_last_trick(self, on: bool) -> None:
        self.summary.show_page(on)
        self.last_trick_button.setText("Score chart" if on else "Last trick")

    def _fresh(self) -> None:
        """Each summary opens on the scores, not on the last trick."""
        self.last_trick_button.setChecked(False)
        self.summary.show_page(False)

    def show_hand(self, title: str) -> None:
        self._fresh()
        self.game_over = False
        self.title.setText(title)
        self.setAccessibleName(title)
        self.next_button.show()
        self.next_button.setEnabled(True)
        self.rematch_button.hide()
        self.leave_button.setText("Leave")
        self.leave_button.setAccessibleName("Leave the table")
        self.leave_button.show()
        self.reveal()
        self.next_button.setFocus()

    def show_game_over(self, title: str, can_rematch: bool) -> None:
        self._fresh()
        self.game_over = True
        self.title.setText(title)
        self.setAccessibleName(title)
        self.next_button.hide()
        self.rematch_button.setVisible(can_rematch)
        self.leave_button.setText("Back to lobby")
        self.leave_button.setAccessibleName("Back to lobby")
        self.leave_button.show()
        self.reveal()
        (self.rematch_button if can_rematch else self.leave_button).setFocus()
