"""The table screen: seats around, the trick in the middle, your hand at the bottom.

Everything on it is redrawn from the latest session events ("table" for seats and
options, "state" for the hand and the game's own description), so the screen is always
what the session says and a rejoin or a missed frame cannot leave it half-updated. Each
part compares what it is asked to show with what it shows, and redraws only what changed
(a card played keeps the other cards' widgets; a plate whose words are the same is left
alone): a card played costs about a millisecond, not the whole table's work
(``python -m app.bench``).

The screen is a few parts with one job each, all reading one ``TableData``: the info bar
(``info_bar``), the felt with its seats and trick (``seat_ring``), the live scores and
game log (``score_panel``), the status line (``status_line``), the decision panel and
your hand, and the summary after each hand (``results``). This class wires them to the
session: events in, your commands out, and the cards fitted to the window.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from app import cardnames
from app.settings import Settings

from . import viewmodel as vm
from .decisions import DecisionPanel
from .hand_widget import READABLE_STEP, HandWidget, reading_step
from .info_bar import InfoBar
from .absences import Absences
from .overlays import AlertBanner, ConnectionCurtain, NoticeBanner, SummaryCurtain, WaitingBar
from .results import LAST_TRICK_HOLD_MS, Results
from .score_panel import ScorePanel
from .seat_ring import SeatRing
from .status_line import StatusLine, for_onlooker
from .table_data import TableData, UnknownGame
from .watchers_line import WatchersLine
from .talk import TALK_KEY, TableTalk, TalkBox

__all__ = ["LAST_TRICK_HOLD_MS", "TableView", "fit_card_width"]

log = logging.getLogger(__name__)

HAND_KEYS = (Qt.Key_Left, Qt.Key_Right, Qt.Key_Return, Qt.Key_Enter, Qt.Key_Space)  # the hand's, wherever the focus

REFERENCE_WIDTH = 84  # Settings.card_width for "medium"; other sizes scale from it
MIN_CARD_WIDTH = 60  # the smallest card in your hand: its big numeral is still about 24 px
MAX_CARD_WIDTH = 220


def fit_card_width(size_setting: int, area_width: int, area_height: int, cards: int,
                   reading: float = READABLE_STEP) -> int:
    """Card width for the hand: grows with the window, scaled by the card-size setting,
    and never so wide that ``cards`` side by side in ``area_width`` must hide any of the
    words and numbers on them (``reading``: the part of each card's width they take,
    ``hand_widget.reading_step``). Where the room is short a larger setting gives no
    larger cards: a bigger card whose number is half covered reads worse than one whose
    number shows whole."""
    scale = size_setting / REFERENCE_WIDTH
    width = min(area_height * 0.16, area_width * 0.1) * scale
    if cards > 1:
        width = min(width, area_width / (1 + reading * (cards - 1)))
    return int(max(MIN_CARD_WIDTH, min(width, MAX_CARD_WIDTH)))


class _FromData:
    """An attribute of the table's ``TableData``, read and written through the view."""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, view, owner=None):
        return self if view is None else getattr(view.data, self.name)

    def __set__(self, view, value) -> None:
        setattr(view.data, self.name, value)


class TableView(QWidget):
    leave_requested = Signal()

    def __init__(self, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("tableView")
        self.settings = settings
        self.session = None
        self.data = TableData()
        self.show_last = False
        # (hand number, cards): your hand before a kitty or widow was taken into it
        self._before_taking: tuple[int, frozenset[str]] = (0, frozenset())
        self._fit_pending = False  # a re-fit of the cards to the height left is queued
        self._build()
        self.results = Results(self.data, self.summary, self.deck, self.refresh)
        self.summary_ready = self.results.summary_ready  # the hand summary (not game over) is on screen
        self._wire()

    # -- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        root = QVBoxLayout(self)
        root.setContentsMargins(10, 8, 10, 8)
        root.setSpacing(6)
        self.bar = InfoBar()
        root.addWidget(self.bar)
        self.watchers_line = WatchersLine()  # "Watching: Leo, Maya", and Show my cards to…
        root.addWidget(self.watchers_line)
        self.banner = AlertBanner(self)
        root.addWidget(self.banner)
        self.notice = NoticeBanner(self)
        root.addWidget(self.notice)
        self.waiting = WaitingBar(self)
        root.addWidget(self.waiting)
        self.ring = SeatRing()
        self.side = ScorePanel()
        middle = QHBoxLayout()
        middle.addLayout(self.ring.grid, 1)
        middle.addWidget(self.side)
        root.addLayout(middle, 1)
        self.status = StatusLine()
        status_row = QHBoxLayout()  # the turn in words, and beside it the way to talk
        status_row.addWidget(self.status, 1)
        self.talk_button = QPushButton("Talk")
        self.talk_button.setObjectName("talk")
        self.talk_button.setProperty("role", "secondary")
        self.talk_button.setProperty("compact", True)
        self.talk_button.setFocusPolicy(Qt.TabFocus)  # a click leaves the keys with your hand
        self.talk_button.setToolTip("Say something to the table (/)")
        self.talk_button.setAccessibleName("Talk: say something to the table")
        status_row.addWidget(self.talk_button)
        status_row.addWidget(self.watchers_line.button)  # (beside Talk: no line of its own)
        root.addLayout(status_row)
        self.decision = DecisionPanel(self)
        root.addWidget(self.decision)
        self.talk_box = TalkBox(self)  # opened by "/" or the bar's Talk button
        root.addWidget(self.talk_box)
        self.hand = HandWidget(None, self.settings.card_width)
        self.card_width = self.settings.card_width
        root.addWidget(self.hand)  # the whole width: your plate is on the felt, above it
        self.connection = ConnectionCurtain(self)
        self.absences = Absences(self, self._flash)
        self.summary = SummaryCurtain(self)
        # The parts' widgets, by the names the rest of the app (and its tests) know them.
        self.panels, self.my_panel, self.trick = self.ring.panels, self.ring.my_panel, self.ring.trick
        self.live_label, self.log_list = self.side.live_label, self.side.log_list
        bar = self.bar
        self.title_label, self.last_button, self.live_box, self.log_box = (
            bar.title_label, bar.last_button, bar.live_box, bar.log_box)
        self.hint_button, self.leave_button, self.address_button = (
            bar.hint_button, bar.leave_button, bar.address_button)
        self.talk_list = self.side.talk_list
        self.talk = TableTalk(self, self.talk_box, self.talk_list, self.refresh)

    def _wire(self) -> None:
        self.hand.play_requested.connect(self._play)
        self.hand.illegal_chosen.connect(self._illegal)
        self.hand.not_now.connect(self._not_now)
        self.hand.selection_changed.connect(self.decision.set_selection)
        self.decision.selection_wanted.connect(self._selection_wanted)
        self.decision.act.connect(self._act)
        self.last_button.toggled.connect(self._toggle_last)
        self.live_box.clicked.connect(lambda on: self._table_option("live_scores", on))
        self.log_box.clicked.connect(lambda on: self._table_option("game_log", on))
        self.leave_button.clicked.connect(self.leave_requested)
        self.hint_button.clicked.connect(self.ask_hint)
        self.summary.leave.connect(self.leave_requested)
        self.connection.leave.connect(self.leave_requested)  # (it covers the bar's Leave)
        self.summary.next_hand.connect(self._next_hand)
        self.summary.rematch.connect(self._rematch)
        self.waiting.keep_waiting.connect(self.absences.keep_waiting)
        self.waiting.stand_in.connect(lambda seat: self._stand_in(seat, True))
        self.waiting.deal_again.connect(self.absences.deal_again)
        self.address_button.clicked.connect(self._copy_address)
        self.talk_button.clicked.connect(self.talk.open_box)

    # -- what the session said, as the parts read it ----------------------------------------
    table = _FromData()
    view = _FromData()
    legal = _FromData()
    reasons = _FromData()
    scores = _FromData()
    history = _FromData()
    hand_number = _FromData()
    you = _FromData()
    players = _FromData()

    def names(self) -> list[str]:
        return self.data.names()

    def deck(self):
        return self.data.deck(self.settings.colour_blind_rook)

    @property
    def holding(self) -> bool:
        return self.results.holding

    @property
    def last_trick_hold_ms(self) -> int:
        return self.results.last_trick_hold_ms

    @last_trick_hold_ms.setter
    def last_trick_hold_ms(self, ms: int) -> None:
        self.results.last_trick_hold_ms = ms

    def release_hold(self) -> None:
        self.results.release_hold()

    # -- the session ---------------------------------------------------------------------
    def attach(self, session, bridge) -> None:
        """Show ``session``'s table; ``bridge`` delivers its events on this thread."""
        self.session = session
        self.data.clear()
        self.results.drop_hold()
        self._hide_summary()
        self.absences.reset()
        self.status.reset()
        self.waiting.clear()
        self.banner.hide()
        self.notice.hide()
        self.address_button.hide()
        self.log_list.clear()
        self.talk.reset()
        bridge.table.connect(self.on_table)
        bridge.state.connect(self.on_state)
        bridge.hand_over.connect(self.on_hand_over)
        bridge.game_over.connect(self.on_game_over)
        bridge.connection.connect(self.on_connection)
        bridge.alert.connect(self.on_alert)
        bridge.error.connect(self.on_error)
        bridge.hint.connect(self.on_hint)
        bridge.waiting.connect(self.on_waiting)
        bridge.takeover.connect(self.on_takeover)
        bridge.talk.connect(self.talk.on_talk)
        # talk is for people at other computers (watchers too): not against the computer
        self.talk_button.setVisible(callable(getattr(session, "say", None))
                                    and getattr(session, "local", False) is not True)
        self.watchers_line.attach(session, bridge)
        self._show_hint_button()

    def _act(self, action: dict) -> None:
        if self.data.watching:  # a coach sees the hand it is shown, and never plays it
            self._flash("You are watching: only the players play their cards.")
            return
        if self.session is not None:
            self.decision.clear()
            self.session.act(action)

    def _next_hand(self) -> None:
        self.results.drop_hold()
        self.summary.next_button.setEnabled(False)  # one click deals once
        self._hide_summary()
        if self.session is not None:
            self.session.next_hand()

    def _rematch(self) -> None:
        self._hide_summary()
        self.data.history, self.data.scores = [], []
        if self.session is not None:
            self.session.rematch()

    def _hide_summary(self) -> None:
        """The summary goes, and the keys come back to your hand: a button of the hidden
        summary (its Leave, clicked last time) must not keep them."""
        self.summary.hide()
        self.hand.setFocus()

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

    # -- events --------------------------------------------------------------------------
    def on_table(self, event: dict) -> None:
        self.data.table = event
        self.bar.show_table(event)
        self.watchers_line.set_host(bool(event.get("is_host")))
        self.refresh()

    def on_state(self, event: dict) -> None:
        phase = (event.get("view") or {}).get("phase")
        if self.summary.isVisible() and self.summary.game_over and self.session is not None and phase != "done":
            self._hide_summary()  # the host dealt a rematch: a new game begins
            self.data.history, self.data.scores = [], []
        if self.holding and phase != "done":
            self.release_hold()  # the next hand is dealt: the summary shows at once
        try:
            self.data.read_state(event)
        except UnknownGame as unknown:
            log.error("table: %s", unknown)
            self.data.view = {}
            self._flash(f"This hand can't be shown: {unknown}.")
            return
        if self.view.get("trick"):
            self.last_button.setChecked(False)
        self.hand.point_at(())  # a hint was for the position before this one
        self._show_hint_button()  # (a watcher: while a player shows it a hand)
        self.refresh()

    def on_hand_over(self, event: dict) -> None:
        """Bank the scores, then show the summary once the last trick has been seen
        (``last_trick_hold_ms``, or at once on a click or a key)."""
        self.decision.clear()
        self.notice.hide()  # a hand voided earlier: the hand dealt again is over too
        self.results.hand_over(event)

    def on_game_over(self, event: dict) -> None:
        self.results.game_over(event, bool(self.table.get("is_host")))

    def mousePressEvent(self, event) -> None:
        if self.holding:  # a click anywhere on the felt: the summary now
            self.release_hold()
            return
        super().mousePressEvent(event)

    def on_connection(self, event: dict) -> None:
        self.absences.on_connection(event)

    def on_takeover(self, event: dict) -> None:
        self.absences.on_takeover(event)

    def on_alert(self, event: dict) -> None:
        names = self.names()
        seat = event.get("seat")

        def name(who, otherwise: str) -> str:
            return names[who] if isinstance(who, int) and who < len(names) else otherwise
        forfeit = ""
        if event.get("forfeits"):  # a player's proven cheat: that side forfeits the hand
            forfeit = vm.forfeit_sentence(self.data.info, names, seat, event.get("did", ""))
            number = self.hand_number
            self.data.notes.append((number, f"Hand {number} forfeited: {forfeit}" if number
                                    else f"Hand forfeited: {forfeit}"))
        reporter = event.get("reported_by")
        self.banner.show_alert(name(seat, "the table"), event.get("rule", "a check failed"),
                               event.get("detail", ""), event.get("evidence_path"),
                               bool(event.get("goes_on")), forfeit,
                               None if reporter is None else name(reporter, "another player"),
                               event.get("checked", True))
        if forfeit:
            self.refresh()

    def on_error(self, event: dict) -> None:
        """A refusal of your own action: it stays readable until the game moves on, and
        the decision it refused is offered again."""
        self._flash(event.get("message", "something went wrong"))
        self.refresh()

    def _show_hint_button(self) -> None:
        """Hint where there is a hand to advise on: a player's own, or the one a player
        shows you as you watch (the coach's Hint, issue 29) — never a watcher's with no
        hand shown, who would only be told there is nothing to decide. Before the first
        "state" a session that says it watches (``watching``) has none either."""
        session = self.session
        watches = getattr(session, "watching", False) is True and not self.view
        self.hint_button.setVisible(callable(getattr(session, "hint", None))
                                    and self.data.has_hand and not watches)

    def ask_hint(self) -> None:
        if self.hint_button.isHidden():
            return  # (no hand to advise on: a watcher shown none)
        if self.session is not None and callable(getattr(self.session, "hint", None)):
            self.session.hint()  # the bot thinks on the session's thread, never here

    def on_hint(self, event: dict) -> None:
        """The hint said in the status line, and pointed at: its card (or the cards it
        would bury or discard) marked HINT in your hand, else its button given the
        keyboard focus — Enter takes it either way."""
        text = event.get("text") or ""
        if self.data.info is not None:
            text = cardnames.spoken_in_text(self.data.info, text)
        self.status.show_hint(text)
        action = event.get("action") or {}
        cards = [action["play"]] if "play" in action else list(action.get("bury") or action.get("discard") or [])
        self.hand.point_at(cards)
        if cards:
            self.hand.setFocus()
        if not cards or "trump" in action:
            self.decision.point_at(action)

    def on_waiting(self, event: dict) -> None:
        """The deal waits for a player's shuffle: "Waiting for Dad's shuffle…" until the
        cards come (the next state event rewrites the status line). A player gone from the
        private deal, and a deal gone on without them, are ``absences``'."""
        if event.get("for") in ("return", "held", "void", "restart"):
            self.absences.on_waiting(event)
        elif event.get("detail"):
            self.status.show_waiting(event["detail"])

    def hand_voided(self, reason: str, then: str = "the scores are unchanged") -> None:
        """A hand voided, for any ``reason`` (words: "Dad left and did not come back in
        time"), said in a banner above the table and in the game log; ``then``: what
        happens now. Another reason is one call (e.g. a "hand_void" event's reason)."""
        number = self.hand_number
        hand = f"Hand {number}" if number else "The hand"
        self.notice.show_notice(f"{hand} is void: {reason}.", f"{then[:1].upper()}{then[1:]}.")
        self.data.notes.append((number, f"{hand} void: {reason} — {then}"))
        self.refresh()

    def _flash(self, text: str) -> None:
        self.status.show_problem(text, self.data)

    # -- playing -------------------------------------------------------------------------
    def _play(self, card: str) -> None:
        choices = [e for e in self.legal if e.get("play") == card]
        if any(e.get("ace") for e in choices):
            self.decision.ask_ace(card)
            return
        self._act({"play": card})

    def _not_now(self, card: str) -> None:
        """A card clicked while no card may be played: say why."""
        view, names = self.view, self.names()
        to_act, prompt = view.get("to_act") or [], view.get("prompt") or ""
        if self.holding or view.get("phase") == "done":
            text = "The hand is over."
        elif self.you in to_act and self.legal:
            text = f"Not a card yet: {prompt} first."
        elif self.you in to_act:
            text = "Your move is on its way."
        elif to_act:
            who = " and ".join(names[s] for s in to_act if s < len(names))
            text = f"Not your turn yet — waiting for {who} to {for_onlooker(prompt)}."
        else:
            text = "Not your turn yet."
        self._flash(text)

    def _illegal(self, card: str, reason: str) -> None:
        if self.reasons is None and self.session is not None:
            self.session.act({"play": card})  # the session says why
            return
        info = self.data.info
        self._flash(f"You can't play the {cardnames.spoken(info, card)}: {cardnames.spoken_in_text(info, reason)}")

    def _selection_wanted(self, count: int) -> None:
        if count:
            self.hand.set_selecting(count)
            self.hand.setFocus()

    def _toggle_last(self, on: bool) -> None:
        self.show_last = on
        if self.data.look is not None:
            self.ring.refresh_trick(self.data, self.show_last, self.holding)

    def keyPressEvent(self, event) -> None:
        if self.holding:
            self.release_hold()
            return
        if self.decision.handle_key(event.key(), event.text()):
            return
        if event.text() == "?" and self.hint_button.isVisible():
            self.ask_hint()
            return
        if event.text() == TALK_KEY and self.talk_button.isVisible():
            self.talk.open_box()
            return
        if event.key() in HAND_KEYS and self.hand.mode != "idle":
            # The keys reached the table, not the hand (another part had the focus):
            # they are the hand's all the same.
            self.hand.setFocus()
            self.hand.keyPressEvent(event)
            return
        super().keyPressEvent(event)

    # -- fitting the cards to the window -------------------------------------------------
    def _card_width(self, cards: int | None = None) -> int:
        cards = len(self.hand.cards) if cards is None else cards
        room = max(self._hand_room(), 300)
        width = fit_card_width(self.settings.card_width, room, max(self.height(), 400), max(cards, 10),
                               reading_step(self.deck()))
        # No taller than the height the rest of the table leaves (a big decision panel
        # in a small window): the window must not need to grow.
        layout = self.layout()
        layout.invalidate()  # a panel shown just now must count, not the size cached before it
        # (wrapped lines need the height they take at this width, more than their minimum)
        least = layout.minimumHeightForWidth(self.width()) if layout.hasHeightForWidth() \
            else layout.minimumSize().height()
        others = least - self.hand.minimumHeight()
        tallest = (self.height() - others - 4) / (1.4 + 1 / 5)  # a card's face and its lift (lift_for)
        return int(max(MIN_CARD_WIDTH, min(width, tallest)))

    def _felt_card_width(self) -> int:
        """Card width for the trick and the open cards: as the hand's, but not made
        smaller by a long hand (nothing overlaps on the felt, which fits them itself)."""
        return fit_card_width(self.settings.card_width, max(self._hand_room(), 300),
                              max(self.height(), 400), 1)

    def _hand_room(self) -> int:
        """The width the hand's cards spread over: the hand's own once it is laid out
        (less the margin ``HandWidget`` keeps), else the window's, less the table's
        margins."""
        if self.hand.isVisible():
            return self.hand.width() - 8
        return self.width() - 28

    def _queue_fit(self) -> None:
        """Once the panels shown or resized just now are laid out, fit the cards again."""
        if not self._fit_pending:
            self._fit_pending = True
            QTimer.singleShot(0, self, self._fit_hand_height)  # (not once the table is gone)

    def _fit_hand_height(self) -> None:
        """Cards re-fitted to the room the other panels leave them (the height, and the
        hand's own width)."""
        self._fit_pending = False
        width = self._card_width()
        if width != self.card_width:
            self.card_width = width
            self.hand.set_cards(self.hand.cards, self.deck(), width)

    def apply_card_size(self) -> None:
        """Re-fit the cards to the window and the card-size setting (resize, Settings)."""
        self.card_width = self._card_width()
        deck = self.deck()
        if deck is None:
            return  # no hand dealt yet
        self.hand.set_cards(self.hand.cards, deck, self.card_width)
        self.trick.configure(deck, self._felt_card_width(), self.players, self.you)
        self.trick.animation_ms = self.settings.animation_ms

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.side.fit_width(self.width())
        self.apply_card_size()
        self._queue_fit()

    def event(self, event) -> bool:
        if event.type() == QEvent.LayoutRequest:
            # A bar or a panel shown, hidden or grown (a banner dismissed): the cards take
            # the room left, now smaller and later larger again.
            self._queue_fit()
        return super().event(event)

    # -- drawing -------------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw every part from what the session said last."""
        if not self.view:
            self.ring.refresh_seats(self.data)
            return
        self.bar.refresh(self.data)
        self.ring.refresh_seats(self.data)
        self.trick.configure(self.deck(), self._felt_card_width(), self.players, self.you)
        self.trick.animation_ms = self.settings.animation_ms
        self.ring.refresh_trick(self.data, self.show_last, self.holding)
        self.last_button.setEnabled(bool(self.view.get("tricks")))
        self._refresh_hand()
        self.status.show_turn(self.data, self.holding)
        self.side.refresh(self.data)
        self._queue_fit()  # once the panels shown just now are laid out, the cards take the room left

    def _refresh_hand(self) -> None:
        info = self.data.info
        cards = cardnames.sort_hand(info, list(self.view.get("hand") or []), self.view.get("trump"))
        self.card_width = self._card_width(len(cards))
        self.hand.set_cards(cards, self.deck(), self.card_width)
        self._mark_taken(cards)
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
        if self.data.watching:
            self.decision.clear()  # (a coach: the legal cards lifted to see, no buttons to press)
        else:
            self.decision.show_for(self.data.look, self.view, self.legal, self.hand.cards)

    def _mark_taken(self, cards: list[str]) -> None:
        """The kitty's or widow's cards stay marked "new" in your hand while you decide
        what to put down (discard, bury): those not in it before. Marked once that
        decision is yours — under the private deal the hand shown while the cards are on
        their way may hold stand-ins for them."""
        if self.view.get("phase") not in vm.taking_phases(self.data.info):
            self._before_taking = (self.hand_number, frozenset(cards))
            self.hand.mark_new(())
            return
        number, before = self._before_taking
        if number == self.hand_number and before and self.you in (self.view.get("to_act") or []):
            self.hand.mark_new(set(cards) - before)
