"""The bar along the top of the table: how the hand was dealt (a lock), the game and
hand, the score, the contract and trump, and the table's buttons (address, hint, last
trick, live scores, game log, leave).

Each label shortens names to fit the window, never the numbers (``app.fitted``).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QSize, Qt
from PySide6.QtWidgets import (QCheckBox, QFrame, QHBoxLayout, QLayout, QPushButton, QToolButton,
                               QToolTip, QVBoxLayout)

from app.assets import lock_icon
from app.fitted import FittedLabel
from engine.info import GameInfo

from . import viewmodel as vm
from .table_data import TableData


def mode_words(info: GameInfo) -> str:
    """The mode in a word or two for the bar: "3 players", "partners" ("" without modes)."""
    if info.mode is None:
        return ""
    return "partners" if vm.partnerships(info) else f"{info.players} players"


# The lock by the game's name: how the hand on the table was dealt ("state" event's
# ``deal``; nothing against the computer), shut for the private deal, and in one line
# what that means (README "Nobody sees your cards"; docs/design.md "What the host still
# learns").
# (shut?, the word beside the lock, the sentence on hover or click)
DEALS = {
    "private": (True, "Private", "Private deal: nobody, not even the host, sees your cards. The "
                                 "host's computer holds only its own, its computer players' and "
                                 "an away player's."),
    "private, held by the host": (False, "Not private", "Private deal, but this hand your cards are "
                                                        "with the host's computer: you were away "
                                                        "for the shuffle."),
    "seeded": (False, "Not private", "Seeded deal: the host's computer deals, and knows every hand."),
}

ADDRESS_WORDS_FROM = 1200  # a bar at least this wide says "Join at" before the address


LAST_TRICK = "Last trick"


def _widest(button: QPushButton, text: str) -> int:
    """How wide ``text``'s longest line is in ``button``'s font."""
    metrics = button.fontMetrics()
    return max(metrics.horizontalAdvance(line) for line in text.split("\n"))


def address_lines(address: str) -> str:
    """The address in two lines, the port under the host ("192.168.1.20" over ":47311"),
    each as it is typed: for a bar short of room, where the line is what is long."""
    host, colon, port = address.rpartition(":")
    return f"{host}\n{colon}{port}" if host else address
def contract_variants(look, view: dict, names: list[str]) -> list[str]:
    """The contract line, fullest first: "Grandma Josephine stuck at 100", the name cut
    shorter and shorter, and last "Stuck at 100" — the same words on every screen,
    whatever its width (the host's bar, with its address, is narrower)."""
    return vm.name_variants(lambda limit: look.contract_text(
        view, [vm.short_name(n, limit) for n in names])) + [look.contract_text(view, names, short=True)]


class InfoBar(QFrame):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("infoBar")
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 4, 10, 4)
        self.deal_button = QToolButton()
        self.deal_button.setObjectName("dealLock")
        self.deal_button.setAutoRaise(True)
        self.deal_button.setIconSize(QSize(18, 18))
        self.deal_button.setToolButtonStyle(Qt.ToolButtonTextUnderIcon)  # the lock, and a word under it
        self.deal_button.clicked.connect(self._explain_deal)  # a click says it too
        self.deal_button.hide()
        row.addWidget(self.deal_button)
        self.title_label = self._label("tableTitle")
        self.score_label = self._label("scoreLabel")
        self.contract_label = self._label("contractLabel")
        self.trump_label = self._label("trumpLabel")
        # Two columns of two lines, so the bar fits a small window; where it is short of
        # room, the contract's (the bidder's name) gets more of it than the title's.
        for top, bottom, stretch in ((self.title_label, self.score_label, 2),
                                     (self.contract_label, self.trump_label, 3)):
            column = QVBoxLayout()
            column.setSpacing(0)
            column.addWidget(top)
            column.addWidget(bottom)
            row.addLayout(column, stretch)
            row.addSpacing(12)
        self.last_button = QPushButton(LAST_TRICK)
        self.last_button.setObjectName("lastTrick")
        self.last_button.setAccessibleName(LAST_TRICK)  # (in two lines where the bar is short)
        self.last_button.setCheckable(True)
        self.last_button.setToolTip("Show the last completed trick")
        self.live_box = QCheckBox("Live scores")
        self.live_box.setObjectName("liveScores")
        self.log_box = QCheckBox("Game log")
        self.log_box.setObjectName("gameLog")
        self.hint_button = self._secondary("Hint", "hint")
        self.hint_button.setToolTip("What would the computer do? (?)")
        self.hint_button.setAccessibleName("Hint: what would the computer do")
        self.hint_button.hide()
        self.leave_button = self._secondary("Leave", "leave")
        self.address_button = self._secondary("", "tableAddress")  # a host's table: the address others type
        self.address_button.setToolTip("What others type in Join by address — click to copy it")
        self.address_button.hide()
        self.address: str | None = None
        self.said: tuple = ()  # what the bar was last asked to say (``refresh``)
        for widget in (self.address_button, self.hint_button, self.last_button):
            widget.setProperty("compact", True)
            # Tab reaches them; a click does not take the keys from your hand (after
            # Leave → Stay, Enter still plays the card under the cursor).
            widget.setFocusPolicy(Qt.TabFocus)
            row.addWidget(widget)
        # The two switches one above the other, as the labels are: the names in the
        # contract line need the room in a narrow window.
        switches = QVBoxLayout()
        switches.setSpacing(0)
        for box in (self.live_box, self.log_box):
            box.setProperty("compact", True)
            box.setFocusPolicy(Qt.TabFocus)
            switches.addWidget(box)
        row.addLayout(switches)
        self.leave_button.setProperty("compact", True)
        self.leave_button.setFocusPolicy(Qt.TabFocus)
        row.addWidget(self.leave_button)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_buttons()

    def event(self, event) -> bool:
        if event.type() == QEvent.LayoutRequest:  # a button shown or hidden (Hint), a new score
            self._fit_buttons()
        return super().event(event)

    def _fit_buttons(self) -> None:
        """"Join at 192.168.1.20:47311" where the bar has room, the address alone where
        it is narrow: the names in the contract line need the room more. Where even that
        leaves the bar short of room (four players' scores at 1024 px, "Gm 12, Gp −13,
        Bea 10, Ben 11"), the address, then "Last trick", each say theirs in two lines:
        every word still there, and never a score cut."""
        address = self.address or ""
        if address and self.width() >= ADDRESS_WORDS_FROM:
            address = f"Join at {address}"
        folds = [(self.address_button, address, address_lines(address)),
                 (self.last_button, LAST_TRICK, LAST_TRICK.replace(" ", "\n"))]
        # What the bar needs with every one of them on one line (whatever they show now,
        # so that they never flip back and forth), less what each fold saves, in turn.
        needed = self._minimum_width() + sum(_widest(b, one) - _widest(b, b.text())
                                             for b, one, _ in folds if b.isVisibleTo(self))
        for button, one, two in folds:
            text = one
            if needed > self.width() and button.isVisibleTo(self) and one:
                needed -= _widest(button, one) - _widest(button, two)
                text = two
            if button.text() != text:
                button.setText(text)

    def _minimum_width(self) -> int:
        layout = self.layout()
        for stale in (layout, *layout.findChildren(QLayout)):  # (a label just given new text)
            stale.invalidate()
        return layout.minimumSize().width()

    @staticmethod
    def _label(name: str) -> FittedLabel:
        label = FittedLabel()
        label.setObjectName(name)
        return label

    @staticmethod
    def _secondary(text: str, name: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.setProperty("role", "secondary")
        return button

    def show_table(self, event: dict) -> None:
        """The host's switches (only the host may change them) and the address to join at."""
        options = event.get("table_options") or {}
        is_host = bool(event.get("is_host"))
        for box, key in ((self.live_box, "live_scores"), (self.log_box, "game_log")):
            box.setChecked(bool(options.get(key)))
            box.setEnabled(is_host)
            box.setToolTip("The host turns this on or off for everyone" if not is_host else "Shown to everyone")
        address = event.get("address") if is_host else None
        self.address = address
        self.address_button.setAccessibleName(f"Address for Join by address: {address}" if address else "")
        self.address_button.setVisible(bool(address))
        self._fit_buttons()

    def show_deal(self, deal: str | None) -> None:
        """The lock for how the hand was dealt, or none (a game against the computer)."""
        locked, word, words = DEALS.get(deal, (False, "", ""))
        if words:
            self.deal_button.setIcon(lock_icon(locked))
            self.deal_button.setText(word)
            self.deal_button.setToolTip(words)
            self.deal_button.setAccessibleName(words.split(":")[0].split(",")[0])
            self.deal_button.setAccessibleDescription(words)
        self.deal_button.setVisible(bool(words))

    @staticmethod
    def _told_apart(names: list[str]) -> tuple:
        """The name limits (``vm.NAME_LIMITS``) at which ``names``, cut, still differ."""
        return tuple(limit for limit in vm.NAME_LIMITS
                     if len({vm.short_name(n, limit) for n in names}) == len(set(names)))

    def _explain_deal(self) -> None:
        button = self.deal_button
        QToolTip.showText(button.mapToGlobal(QPoint(0, button.height())), button.toolTip(), button)

    def refresh(self, data: TableData) -> None:
        info, look, view = data.info, data.look, data.view
        names = data.names()
        settings = data.table.get("settings") or {}
        said = (data.deal, settings.get("name"), info, data.hand_number, names, list(data.scores),
                look.contract_text(view, names), look.contract_text(view, names, short=True),
                vm.trump_text(info, view))
        if said == self.said:
            return  # (a card played: nothing the bar says changed, and nothing is re-fitted)
        self.said = said
        self.show_deal(data.deal)
        hand = f"hand {data.hand_number}"
        parts = (info.name, mode_words(info), hand)
        self.title_label.set_variants([" · ".join(x for x in parts if x), f"{info.name} · {hand}",
                                       hand.capitalize()], settings.get("name") or "")
        self.contract_label.set_variants(contract_variants(look, view, names))
        self.trump_label.set_variants(vm.trump_text(info, view))
        sides = vm.side_names(info, names)
        short = [n.split(" (")[0] for n in sides]
        scores = [vm.points(s) for s in data.scores]
        variants = vm.name_variants(lambda limit: "Score " + " · ".join(
            f"{vm.short_name(n, limit)} {s}" for n, s in zip(short, scores)), self._told_apart(short))
        letters = "Score " + " · ".join(f"{n.replace('Team ', '')} {s}" for n, s in zip(short, scores))
        tightest: list[str] = []
        if letters != variants[0]:  # teams: short of room, each its letter, as on the seats
            variants = [variants[0], letters]  # (cut, "Team A" and "Team B" both read "Te…")
        else:  # players: cut no further than they stay apart, then as short as that allows
            apart = [f"{n} {s}" for n, s in zip(vm.told_apart(short), scores)]
            letters = "Score " + " · ".join(apart)
            variants.append(letters)  # "U 0 · B2 0 · B3 0 · B4 0", never "U… 0 · B… 0 · B… 0"
            tightest = [", ".join(apart)]  # (four players at 1024 px: the dots' room)
        variants += [letters.removeprefix("Score "), *tightest]  # the bidder's name needs the room
        self.score_label.set_variants(variants, " · ".join(f"{n}: {s}" for n, s in zip(sides, scores)))
        self._fit_buttons()  # (longer scores may leave no room for the address on one line)
