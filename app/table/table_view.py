"""The table screen: seats around, the trick in the middle, your hand at the bottom.

Everything on it is redrawn from the latest session events ("table" for seats and
options, "state" for the hand), so the screen is always what the session says and a
rejoin or a missed frame cannot leave it half-updated.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QCheckBox, QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app import cardnames
from app.assets import deck_for
from app.fitted import FittedLabel
from app.settings import Settings

from . import viewmodel as vm
from .decisions import DecisionPanel
from .game_log import GameLog
from .hand_widget import HandWidget
from .overlays import AlertBanner, ConnectionCurtain, SummaryCurtain, WaitingBar, drop_reason
from .seat_panel import SeatPanel
from .trick_area import TrickArea, relative_position

TARGETS = {"somerset": 66, "rook": 500}
REFERENCE_WIDTH = 84  # Settings.card_width for "medium"; other sizes scale from it
SIDE_MIN, SIDE_MAX = 230, 320  # the live scores and game log panel's width
SIDE_SEAT_WIDTH = 200  # the felt's left and right columns, at least
MIN_CARD_WIDTH = 44
MIN_STEP = 0.36  # overlapped cards keep at least this much of their face (the corner index) in view


def fit_card_width(size_setting: int, area_width: int, area_height: int, cards: int) -> int:
    """Card width for the hand: grows with the window, scaled by the card-size setting,
    and never so wide that ``cards`` overlapped cards hide their corner indices."""
    scale = size_setting / REFERENCE_WIDTH
    base = min(area_height * 0.16, area_width * 0.1) * scale
    fits = area_width / (1 + MIN_STEP * max(cards - 1, 0)) if cards else base
    return int(max(MIN_CARD_WIDTH, min(base, fits, 220)))

GAME_TITLES = {"somerset": "Somerset", "rook": "Rook", "horseshoes": "Horseshoes"}
MODE_WORDS = {"three": "3 players", "four": "4 players", "partners": "partners"}  # the info bar


LAST_TRICK_HOLD_MS = 1500  # the hand's last trick stays in view this long before the summary


class TableView(QWidget):
    leave_requested = Signal()
    summary_ready = Signal()  # the hand summary (not game over) is on screen

    def __init__(self, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("tableView")
        self.settings = settings
        self.session = None
        self.table: dict = {}
        self.view: dict = {}
        self.legal: list[dict] = []
        self.reasons: dict[str, str] | None = None
        self.history: list[list[int]] = []
        self.scores: list[int] = []
        self.show_last = False
        self.hand_number = 0
        self.last_trick_hold_ms = LAST_TRICK_HOLD_MS
        self.holding = False  # the last trick is on show; the summary waits
        self._after_hold: list = []  # what shows once the hold ends (summary, game over)
        self._hold_timer = QTimer(self)
        self._hold_timer.setSingleShot(True)
        self._hold_timer.timeout.connect(self.release_hold)
        self._hand_seen: tuple[int, list[str]] = (0, [])  # (hand number, cards) last drawn
        self._fit_pending = False  # a re-fit of the cards to the height left is queued
        self._build()

    # -- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        root = QVBoxLayout(self)
        root.setContentsMargins(10, 8, 10, 8)
        root.setSpacing(6)
        root.addWidget(self._info_bar())
        self.banner = AlertBanner(self)
        root.addWidget(self.banner)
        self.waiting = WaitingBar(self)
        root.addWidget(self.waiting)
        middle = QHBoxLayout()
        middle.addLayout(self._felt(), 1)
        middle.addWidget(self._side_panel())
        root.addLayout(middle, 1)
        self.status = QLabel()
        self.status.setObjectName("turnStatus")
        self.status.setAlignment(Qt.AlignCenter)
        self.status.setWordWrap(True)  # a hint or a refusal can run longer than the window is wide
        root.addWidget(self.status)
        self.decision = DecisionPanel(self)
        root.addWidget(self.decision)
        self.my_panel = SeatPanel()
        self.hand = HandWidget("somerset", self.settings.card_width)
        self.card_width = self.settings.card_width
        bottom = QHBoxLayout()
        bottom.addWidget(self.my_panel, 0, Qt.AlignBottom)
        bottom.addWidget(self.hand, 1)
        root.addLayout(bottom)
        self.connection = ConnectionCurtain(self)
        self.summary = SummaryCurtain(self)
        self._wire()

    def _info_bar(self) -> QFrame:
        bar = QFrame()
        bar.setObjectName("infoBar")
        row = QHBoxLayout(bar)
        row.setContentsMargins(10, 4, 10, 4)
        # Each label shortens names to fit, never the numbers (app.fitted).
        self.title_label = FittedLabel()
        self.title_label.setObjectName("tableTitle")
        self.score_label = FittedLabel()
        self.score_label.setObjectName("scoreLabel")
        self.contract_label = FittedLabel()
        self.contract_label.setObjectName("contractLabel")
        self.trump_label = FittedLabel()
        self.trump_label.setObjectName("trumpLabel")
        # Two columns of two lines, so the bar fits a small window.
        for top, bottom in ((self.title_label, self.score_label), (self.contract_label, self.trump_label)):
            column = QVBoxLayout()
            column.setSpacing(0)
            column.addWidget(top)
            column.addWidget(bottom)
            row.addLayout(column, 1)
            row.addSpacing(12)
        self.last_button = QPushButton("Last trick")
        self.last_button.setObjectName("lastTrick")
        self.last_button.setCheckable(True)
        self.last_button.setToolTip("Show the last completed trick")
        self.live_box = QCheckBox("Live scores")
        self.live_box.setObjectName("liveScores")
        self.log_box = QCheckBox("Game log")
        self.log_box.setObjectName("gameLog")
        self.hint_button = QPushButton("Hint")
        self.hint_button.setObjectName("hint")
        self.hint_button.setProperty("role", "secondary")
        self.hint_button.setToolTip("What would the computer do? (?)")
        self.hint_button.setAccessibleName("Hint: what would the computer do")
        self.hint_button.hide()
        self.leave_button = QPushButton("Leave")
        self.leave_button.setObjectName("leave")
        self.leave_button.setProperty("role", "secondary")
        self.address_button = QPushButton()  # a host's table: the address others type
        self.address_button.setObjectName("tableAddress")
        self.address_button.setProperty("role", "secondary")
        self.address_button.setToolTip("What others type in Join by address — click to copy it")
        self.address_button.hide()
        for widget in (self.address_button, self.hint_button, self.last_button, self.live_box,
                       self.log_box, self.leave_button):
            widget.setProperty("compact", True)
            row.addWidget(widget)
        return bar

    def _felt(self) -> QGridLayout:
        grid = QGridLayout()
        self.panels = {pos: SeatPanel() for pos in ("left", "top", "right")}
        grid.addWidget(self.panels["top"], 0, 1, Qt.AlignHCenter)
        # Side seats lean towards the middle: a table, not two far-off islands.
        grid.addWidget(self.panels["left"], 1, 0, Qt.AlignVCenter | Qt.AlignRight)
        grid.addWidget(self.panels["right"], 1, 2, Qt.AlignVCenter | Qt.AlignLeft)
        self.trick = TrickArea()
        grid.addWidget(self.trick, 1, 1)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 3)
        grid.setColumnStretch(2, 1)
        for column in (0, 2):  # room for a side seat's name before it is cut short
            grid.setColumnMinimumWidth(column, SIDE_SEAT_WIDTH)
        grid.setRowStretch(1, 1)
        return grid

    def _side_panel(self) -> QWidget:
        self.side = QFrame()
        self.side.setObjectName("sidePanel")
        self.side.setFixedWidth(SIDE_MAX)
        layout = QVBoxLayout(self.side)
        self.live_label = QLabel()
        self.live_label.setObjectName("liveText")
        self.live_label.setWordWrap(True)
        layout.addWidget(self.live_label)
        self.log_list = GameLog()
        layout.addWidget(self.log_list, 1)
        self.side.hide()
        return self.side

    def _wire(self) -> None:
        self.hand.play_requested.connect(self._play)
        self.hand.illegal_chosen.connect(self._illegal)
        self.hand.selection_changed.connect(self.decision.set_selection)
        self.decision.selection_wanted.connect(self._selection_wanted)
        self.decision.act.connect(self._act)
        self.last_button.toggled.connect(self._toggle_last)
        self.live_box.clicked.connect(lambda on: self._table_option("live_scores", on))
        self.log_box.clicked.connect(lambda on: self._table_option("game_log", on))
        self.leave_button.clicked.connect(self.leave_requested)
        self.hint_button.clicked.connect(self.ask_hint)
        self.summary.leave.connect(self.leave_requested)
        self.summary.next_hand.connect(self._next_hand)
        self.summary.rematch.connect(self._rematch)
        self.waiting.keep_waiting.connect(lambda seat: self._stand_in(seat, False))
        self.waiting.stand_in.connect(lambda seat: self._stand_in(seat, True))
        self.address_button.clicked.connect(self._copy_address)

    # -- the session ---------------------------------------------------------------------
    def attach(self, session, bridge) -> None:
        """Show ``session``'s table; ``bridge`` delivers its events on this thread."""
        self.session = session
        self.view, self.legal, self.history, self.scores = {}, [], [], []
        self._drop_hold()
        self.summary.hide()
        self.connection.hide()
        self.waiting.clear()
        self.banner.hide()
        self.address_button.hide()
        self.log_list.clear()
        bridge.table.connect(self.on_table)
        bridge.state.connect(self.on_state)
        bridge.hand_over.connect(self.on_hand_over)
        bridge.game_over.connect(self.on_game_over)
        bridge.connection.connect(self.on_connection)
        bridge.alert.connect(self.on_alert)
        bridge.error.connect(self.on_error)
        bridge.hint.connect(self.on_hint)
        bridge.waiting.connect(self.on_waiting)
        self.hint_button.setVisible(callable(getattr(session, "hint", None)))

    def _act(self, action: dict) -> None:
        if self.session is not None:
            self.decision.clear()
            self.session.act(action)

    def _next_hand(self) -> None:
        self._drop_hold()
        self.summary.next_button.setEnabled(False)  # one click deals once
        self.summary.hide()
        if self.session is not None:
            self.session.next_hand()

    def _rematch(self) -> None:
        self.summary.hide()
        self.history, self.scores = [], []
        if self.session is not None:
            self.session.rematch()

    def _table_option(self, name: str, on: bool) -> None:
        if self.session is not None:
            self.session.set_table_option(name, on)

    def _stand_in(self, seat: int, bot: bool) -> None:
        if self.session is not None:
            self.session.stand_in(seat, bot)
        if bot:
            self.waiting.clear(seat)

    def _copy_address(self) -> None:
        address = self.table.get("address")
        if address:
            QGuiApplication.clipboard().setText(address)
            self._flash(f"Copied {address}: anyone on your network can type it in Join by address")

    # -- names and seats -----------------------------------------------------------------
    @property
    def you(self) -> int:
        you = self.table.get("you")
        return self.view.get("seat", you if you is not None else 0)

    @property
    def players(self) -> int:
        if self.view.get("cards_left"):
            return len(self.view["cards_left"])
        return len(self.table.get("seats") or []) or 4

    def names(self) -> list[str]:
        seats = {s["seat"]: s for s in self.table.get("seats") or []}
        return [seats[i]["name"] if i in seats else f"Seat {i + 1}" for i in range(self.players)]

    def game(self) -> str:
        return self.view.get("game") or (self.table.get("settings") or {}).get("game", "somerset")

    def deck(self) -> str:
        return deck_for(self.game(), self.settings.colour_blind_rook)

    # -- events --------------------------------------------------------------------------
    def on_table(self, event: dict) -> None:
        self.table = event
        options = event.get("table_options") or {}
        is_host = bool(event.get("is_host"))
        for box, key in ((self.live_box, "live_scores"), (self.log_box, "game_log")):
            box.setChecked(bool(options.get(key)))
            box.setEnabled(is_host)
            box.setToolTip("The host turns this on or off for everyone" if not is_host else "Shown to everyone")
        address = event.get("address") if is_host else None
        self.address_button.setText(f"Join at {address}" if address else "")
        self.address_button.setAccessibleName(f"Address for Join by address: {address}" if address else "")
        self.address_button.setVisible(bool(address))
        self._refresh()

    def on_state(self, event: dict) -> None:
        if self.summary.isVisible() and self.summary.game_over and self.session is not None \
                and (event.get("view") or {}).get("phase") != "done":
            self.summary.hide()  # the host dealt a rematch: a new game begins
            self.history, self.scores = [], []
        if self.holding and (event.get("view") or {}).get("phase") != "done":
            self.release_hold()  # the next hand is dealt: the summary shows at once
        self.view = event.get("view") or {}
        self.legal = list(event.get("legal") or [])
        self.reasons = event.get("reasons")
        self.scores = list(event.get("scores") or self.scores)
        self.hand_number = event.get("hand_number", 0)
        if self.view.get("trick"):
            self.last_button.setChecked(False)
        self._refresh()

    def on_hand_over(self, event: dict) -> None:
        """Bank the scores, then show the summary once the last trick has been seen
        (``last_trick_hold_ms``, or at once on a click or a key)."""
        self.scores = list(event.get("scores") or [])
        self.history.append(list(self.scores))
        self.decision.clear()
        result = event.get("result") or {}
        breakdown = event.get("breakdown")
        names = self.names()
        sides = vm.side_names(self.view, names) if self.view else names
        hidden_lines, hidden_cards = vm.hidden_cards_text(self.view, names, breakdown)
        self.summary.summary.show_result(
            self._headline(result), sides, result.get("taken") or [], result.get("score") or [],
            self.scores, self.history, self._target(),
            "Tricks" if self.game() == "horseshoes" else "Points",
            arithmetic="<br>".join(escape(line) for line in vm.score_explanation(self.view, names, breakdown)),
            hidden=("<br>".join(escape(line) for line in hidden_lines), self.deck(), hidden_cards))
        caption, cards = vm.last_trick_cards(self.view, names)
        self.summary.summary.show_last_trick(caption, self.deck(), cards)
        self.summary.last_trick_button.setVisible(bool(cards))
        # The hand the header has been showing, not a count of summaries this client saw
        # (a player who joined late has a shorter history).
        title = f"Hand {self.hand_number or len(self.history)} — summary"
        self._after_hold.append(lambda: self.summary.show_hand(title))
        if self.last_trick_hold_ms > 0 and self.view.get("tricks") and not self.view.get("trick"):
            self.holding = True
            self._hold_timer.start(self.last_trick_hold_ms)
            self._refresh()
        else:
            self.release_hold()

    def on_game_over(self, event: dict) -> None:
        names = vm.side_names(self.view, self.names()) if self.view else self.names()
        winner = event.get("winner")
        scores = event.get("scores") or self.scores
        who = names[winner] if winner is not None and winner < len(names) else "Nobody"
        short = who.split(" (")[0]
        verb = "win" if vm.partnerships(self.view) else "wins"
        members = who[len(short):].strip(" ()")
        line = ", ".join(f"{n.split(' (')[0]} {s}" for n, s in zip(names, scores))
        headline = f"{members + ' take' if members else short + ' takes'} the game. Final score: {line}."
        title, is_host = f"Game over — {short} {verb}!", bool(self.table.get("is_host"))

        def show() -> None:
            self.summary.summary.headline.setText(headline)
            self.summary.show_game_over(title, is_host)
        self._after_hold.append(show)
        if not self.holding:
            self.release_hold()

    def release_hold(self) -> None:
        """End the last trick's moment: show what waited for it (the summary, game over)."""
        self._hold_timer.stop()
        self.holding = False
        waiting, self._after_hold = self._after_hold, []
        for show in waiting:
            show()
        if waiting:
            self._refresh()
            if self.summary.isVisible() and not self.summary.game_over:
                self.summary_ready.emit()

    def _drop_hold(self) -> None:
        """Forget a summary still waiting (the player moved on, or left)."""
        self._hold_timer.stop()
        self.holding = False
        self._after_hold = []

    def mousePressEvent(self, event) -> None:
        if self.holding:  # a click anywhere on the felt: the summary now
            self.release_hold()
            return
        super().mousePressEvent(event)

    def on_connection(self, event: dict) -> None:
        seat, state = event.get("seat"), event.get("state")
        for info in self.table.get("seats") or []:
            if info.get("seat") == seat:  # the seat's dot follows the connection
                info["connected"] = state in ("connected", "readmitted")
        self._refresh_seats()
        if state == "readmitted":  # "Dad's seat was given to a new key (fingerprint …)"
            self._flash(event.get("detail") or "A seat was given to a new key")
            return
        names = self.names()
        who = names[seat] if seat is not None and seat < len(names) else "a player"
        if state == "connected":
            if self.connection.seat in (seat, None) or seat == self.you:
                self.connection.hide()
            self.waiting.clear(seat)
            return
        if state == "stand_in":  # a bot plays the seat for now: the table goes on
            self.waiting.clear(seat)
            self._flash(event.get("detail") or f"A bot plays for {who} for now")
            return
        if seat is None or state not in ("dropped", "reconnecting"):
            return  # e.g. someone asking the host to be re-admitted
        if seat != self.you and not self.table.get("started"):
            return  # before the deal the setup screen shows who is away
        if seat == self.you:
            attempt, attempts = event.get("attempt"), event.get("attempts")
            progress = (int(attempt), int(attempts)) if attempt is not None and attempts else None
            detail = event.get("detail") or "The connection to the table dropped. Trying again."
            if attempt:
                detail += f" (attempt {attempt} of {attempts})" if attempts else f" (attempt {attempt})"
            self.connection.waiting(seat, "Reconnecting…", detail, progress=progress, busy=True)
        else:  # a bar, not a curtain: everyone else plays on meanwhile
            self.waiting.waiting(seat, f"Waiting for {who} to come back",
                                 drop_reason(who, event.get("detail") or ""),
                                 bool(self.table.get("is_host")))

    def on_alert(self, event: dict) -> None:
        seat = event.get("seat")
        names = self.names()
        who = names[seat] if seat is not None and seat < len(names) else "the table"
        self.banner.show_alert(who, event.get("rule", "a check failed"), event.get("detail", ""),
                               event.get("evidence_path"))

    def on_error(self, event: dict) -> None:
        self._flash(event.get("message", "something went wrong"))
        self._refresh()

    def ask_hint(self) -> None:
        if self.session is not None and callable(getattr(self.session, "hint", None)):
            self.session.hint()  # the bot thinks on the session's thread, never here

    def on_hint(self, event: dict) -> None:
        text = cardnames.spoken_in_text(self.game(), event.get("text") or "")
        self.status.setText(f"Hint: {text[:1].upper()}{text[1:]}")
        self.status.setProperty("problem", False)
        self.status.setProperty("mine", True)
        self._repolish(self.status)

    def on_waiting(self, event: dict) -> None:
        """The deal waits for a player's shuffle: "Waiting for Dad's shuffle…" until the
        cards come (the next state event rewrites the status line)."""
        if event.get("detail"):
            self.status.setText(event["detail"])
            self.status.setProperty("mine", False)
            self._repolish(self.status)

    def _flash(self, text: str) -> None:
        self.status.setText(text)
        self.status.setProperty("problem", True)
        self._repolish(self.status)

    # -- playing -------------------------------------------------------------------------
    def _play(self, card: str) -> None:
        choices = [e for e in self.legal if e.get("play") == card]
        if any(e.get("ace") for e in choices):
            self.decision.ask_ace(card)
            return
        self._act({"play": card})

    def _illegal(self, card: str, reason: str) -> None:
        name = cardnames.spoken(self.game(), card)
        if self.reasons is None and self.session is not None:
            self.session.act({"play": card})  # the session says why
            return
        self._flash(f"You can't play the {name}: {cardnames.spoken_in_text(self.game(), reason)}")

    def _selection_wanted(self, count: int) -> None:
        if count:
            self.hand.set_selecting(count)
            self.hand.setFocus()

    def _toggle_last(self, on: bool) -> None:
        self.show_last = on
        self._refresh_trick()

    def keyPressEvent(self, event) -> None:
        if self.holding:
            self.release_hold()
            return
        if self.decision.handle_key(event.key(), event.text()):
            return
        if event.text() == "?" and self.hint_button.isVisible():
            self.ask_hint()
            return
        super().keyPressEvent(event)

    # -- drawing -------------------------------------------------------------------------
    def _card_width(self, cards: int | None = None) -> int:
        cards = len(self.hand.cards) if cards is None else cards
        room = max(self.width() - self.my_panel.sizeHint().width() - 40, 300)
        width = fit_card_width(self.settings.card_width, room, max(self.height(), 400), max(cards, 10))
        # No taller than the height the rest of the table leaves (a big decision panel
        # in a small window): the window must not need to grow.
        layout = self.layout()
        layout.invalidate()  # a panel shown just now must count, not the size cached before it
        others = layout.minimumSize().height() - self.hand.minimumHeight()
        tallest = (self.height() - others - 4) / (1.4 + 1 / 6)  # a card's face and its lift
        return int(max(MIN_CARD_WIDTH, min(width, tallest)))

    def _fit_hand_height(self) -> None:
        """Cards re-fitted to the height the other panels leave them."""
        self._fit_pending = False
        width = self._card_width()
        if width != self.card_width:
            self.card_width = width
            self.hand.set_cards(self.hand.cards, self.deck(), width)

    def apply_card_size(self) -> None:
        """Re-fit the cards to the window and the card-size setting (resize, Settings)."""
        self.card_width = self._card_width()
        self.hand.set_cards(self.hand.cards, self.deck(), self.card_width)
        self.trick.configure(self.deck(), self.card_width, self.players, self.you)
        self.trick.animation_ms = self.settings.animation_ms

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        # The live scores and log take a quarter of the width, within reason.
        self.side.setFixedWidth(max(SIDE_MIN, min(SIDE_MAX, int(self.width() * 0.26))))
        self.apply_card_size()

    def _refresh(self) -> None:
        if not self.view:
            self._refresh_seats()
            return
        self._refresh_info()
        self._refresh_seats()
        self._refresh_trick()
        self._refresh_hand()
        self._refresh_status()
        self._refresh_side()
        # Once the panels shown just now have been laid out, the cards take the height left.
        if not self._fit_pending:
            self._fit_pending = True
            QTimer.singleShot(0, self._fit_hand_height)

    def _refresh_info(self) -> None:
        settings = self.table.get("settings") or {}
        game = self.game()
        title = GAME_TITLES.get(game, game)
        mode = MODE_WORDS.get(self.view.get("mode") or "", "")
        hand = f"hand {self.hand_number}"
        self.title_label.set_variants([" · ".join(x for x in (title, mode, hand) if x), f"{title} · {hand}",
                                       hand.capitalize()], settings.get("name") or "")
        names = self.names()
        self.contract_label.set_variants(vm.name_variants(
            lambda limit: vm.contract_text(self.view, [vm.short_name(n, limit) for n in names]))
            + [vm.contract_text(self.view, names, short=True)])
        self.trump_label.set_plain(vm.trump_text(self.view))
        sides = vm.side_names(self.view, names)
        short = [n.split(" (")[0] for n in sides]
        self.score_label.set_variants(
            vm.name_variants(lambda limit: "Score " + " · ".join(
                f"{vm.short_name(n, limit)} {s}" for n, s in zip(short, self.scores))),
            " · ".join(f"{n}: {s}" for n, s in zip(sides, self.scores)))

    def _refresh_seats(self) -> None:
        seats = {s["seat"]: s for s in self.table.get("seats") or []}
        players, you = self.players, self.you
        for panel in self.panels.values():
            panel.hide()
        names = self.names()
        won = vm.tricks_by_seat(self.view, players) if self.view else [0] * players
        to_act = self.view.get("to_act") or []
        bidder = vm.bidder(self.view) if self.view else None
        for seat in range(players):
            info = seats.get(seat, {})
            position = relative_position(seat, you, players)
            panel = self.my_panel if position == "bottom" else self.panels[position]
            team = vm.TEAM_NAMES[seat % 2] if self.view and vm.partnerships(self.view) else ""
            left = self.view.get("cards_left", [None] * players)[seat] if self.view else None
            bid = vm.seat_bid(self.view, seat) if self.view else ""
            if seat == bidder and not bid and vm.contract_amount(self.view) is not None:
                bid = str(vm.contract_amount(self.view))
            panel.show_seat(names[seat], team, info.get("kind", "human"), info.get("connected", True),
                            left, bid,
                            self.view.get("dealer") == seat, seat in to_act, won[seat], seat == bidder,
                            info.get("fingerprint") or "")
            panel.show()

    def _refresh_trick(self) -> None:
        game, names = self.game(), self.names()
        self.trick.configure(self.deck(), self.card_width, self.players, self.you)
        self.trick.animation_ms = self.settings.animation_ms
        current = [tuple(x) for x in self.view.get("trick") or []]
        tricks = self.view.get("tricks") or []
        aces = vm.ace_calls(self.view)
        if current and not self.show_last:
            self.trick.show_trick(current, aces=aces)
        elif tricks:
            last = tricks[-1]
            if self.holding or self.show_last:  # in full: asked for, or the hand's last before the summary
                caption = f"Last trick — taken by {names[last['winner']]}"
            else:  # the trick just finished, faded until the next lead
                caption = f"Taken by {names[last['winner']]}"
            self.trick.show_trick([tuple(x) for x in last["cards"]], caption,
                                  faded=not (self.show_last or self.holding), aces=aces)
        else:
            self.trick.show_trick([])
        self.last_button.setEnabled(bool(tricks))
        self._refresh_open_cards(game)

    def _refresh_open_cards(self, game: str) -> None:
        view, phase = self.view, self.view.get("phase")
        if game == "rook" and phase == "widow":
            self.trick.show_open(view.get("widow") or [], "The widow")
        elif game == "somerset" and view.get("widow") and view.get("widow_side") is None:
            self.trick.show_open(view["widow"], "Open widow — goes to the first trick's winner")
        elif game == "horseshoes" and view.get("leftover"):
            left = view["leftover"]
            if left.get("card"):
                self.trick.show_open([left["card"]], "Left-over card, face up")
            elif left.get("face") == "down":
                self.trick.show_open([], "Left-over card, face down", hidden=1)
            else:
                self.trick.show_open([], "")
        else:
            self.trick.show_open([], "")

    def _refresh_hand(self) -> None:
        game = self.game()
        cards = cardnames.sort_hand(game, list(self.view.get("hand") or []), self.view.get("trump"))
        self.card_width = self._card_width(len(cards))
        self.hand.set_cards(cards, self.deck(), self.card_width)
        seen_hand, seen_cards = self._hand_seen
        if seen_hand == self.hand_number and seen_cards and len(cards) > len(seen_cards) \
                and self.view.get("phase") in vm.TAKING_PHASES:
            self.hand.mark_new(set(cards) - set(seen_cards))  # the kitty or widow, just taken
        self._hand_seen = (self.hand_number, cards)
        plays = {e["play"] for e in self.legal if "play" in e}
        if plays:
            held = set(self.hand.cards)
            reasons = dict(self.reasons or {})
            for card in held - plays:
                reasons.setdefault(card, "not playable now")
            self.hand.set_playable(plays, reasons)
            if not self.decision.hasFocus():
                self.hand.setFocus()
        elif self.hand.mode != "select" or not any(k in e for e in self.legal for k in ("bury", "discard")):
            self.hand.set_idle()
        self.decision.show_for(self.view, self.legal, self.hand.cards)

    def _refresh_status(self) -> None:
        self.status.setProperty("problem", False)
        to_act, names = self.view.get("to_act") or [], self.names()
        prompt = self.view.get("prompt") or ""
        if self.holding:
            text, mine = "Hand over — the summary follows (click to see it now)", False
        elif self.view.get("phase") == "done":
            text, mine = "Hand over", False
        elif self.you in to_act:
            text, mine = f"Your turn — {prompt}", True
        elif to_act:
            who = " and ".join(names[s] for s in to_act if s < len(names))
            text, mine = f"Waiting for {who} to {prompt}", False
        else:
            text, mine = "", False
        self.status.setText(text)
        self.status.setProperty("mine", mine)
        self._repolish(self.status)

    def _refresh_side(self) -> None:
        options = self.table.get("table_options") or {}
        live, log = bool(options.get("live_scores")), bool(options.get("game_log"))
        self.side.setVisible(live or log)
        self.live_label.setVisible(live)
        self.log_list.setVisible(log)
        if live:
            self.live_label.setText(self._live_text())
        if log:
            self._fill_log()

    def _live_text(self) -> str:
        short = [vm.short_name(n) for n in self.names()]
        taken = self.view.get("taken") or []
        if self.game() == "horseshoes":  # every player has a contract: tricks against bid
            bids = self.view.get("bids") or []
            won = vm.tricks_by_seat(self.view, self.players)
            lines = ["<b>Tricks against bids</b>"]
            if vm.partnerships(self.view):
                lines += [f"{n}: {t} tricks" for n, t in zip(vm.TEAM_NAMES, taken)]
            for seat, who in enumerate(escape(n) for n in short):
                bid = bids[seat] if seat < len(bids) else None
                if bid is None:
                    lines.append(f"{who}: {won[seat]} taken, no bid yet")
                    continue
                gap = bid - won[seat]
                state = f"{gap} to go" if gap > 0 else "exactly on" if gap == 0 else f"{-gap} over"
                lines.append(f"{who}: {won[seat]} of {bid} — {state}")
            return "<br>".join(lines)
        lines = ["<b>This hand</b>"] + [f"{escape(n)}: {t}" for n, t in zip(vm.side_names(self.view, short), taken)]
        amount, who = vm.contract_amount(self.view), vm.bidder(self.view)
        if amount is not None and who is not None and vm.partnerships(self.view):
            side = vm.side_of(self.view, who)
            need = max(amount - (taken[side] if side < len(taken) else 0), 0)
            lines.append(f"Bidders need {need} more" if need else "Bidders have made it")
        return "<br>".join(lines)

    def _fill_log(self) -> None:
        self.log_list.set_lines(vm.log_lines(self.view, self.names()))

    # -- results -------------------------------------------------------------------------
    def _target(self) -> int | None:
        if self.game() == "horseshoes":
            return (self.view.get("options") or {}).get("target", 13)
        return TARGETS.get(self.game())

    def _headline(self, result: dict) -> str:
        if result.get("thrown_in"):
            return "Everyone passed — the hand is thrown in and the deal moves left."
        names = self.names()
        who, amount = vm.bidder(self.view), vm.contract_amount(self.view)
        if result.get("made") is None or who is None:
            return "Penalty points this hand (lower is better)." if self.game() == "horseshoes" else "Hand over."
        side = vm.side_names(self.view, names)[vm.side_of(self.view, who)].split(" (")[0]
        taken = (result.get("taken") or [0, 0])[vm.side_of(self.view, who)]
        verdict = "made it" if result["made"] else "were set"
        return f"{names[who]} bid {amount}: {side} took {taken} and {verdict}."

    @staticmethod
    def _repolish(widget: QWidget) -> None:
        widget.style().unpolish(widget)
        widget.style().polish(widget)
