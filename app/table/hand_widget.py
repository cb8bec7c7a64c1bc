"""Your hand along the bottom of the table.

Three modes: ``idle`` (not your turn: every card flat), ``play`` (legal cards lifted,
the rest dimmed with the reason as tooltip) and ``select`` (pick N cards — Somerset's
kitty discard, Rook's bury). The hand owns the keyboard: ←/→ move a cursor (over the
cards you may play, when you are to play), Enter or Space plays (or toggles) the card
under it. The cursor never rests on a card that can't be played: a click on one says
why and leaves the cursor where it was.

Cards overlap as little as the room allows (up to ``READABLE_STEP`` of each in view),
and never so much that a card's words or numbers are covered (``reading_step``: its art
says where they are); a lifted card never shows a sliver of the card beneath it. The
table picks a card width that leaves that much room (``table_view.fit_card_width``).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QWidget

from app.assets import Deck, reading_width

from .card_widget import CardWidget, card_size, lift_for

READABLE_STEP = 0.75  # with room to spare, overlapped cards show this much of their width
TEXT_MARGIN = 0.02  # of a card's width, kept clear beyond its text: the next card's edge


def reading_step(deck: Deck | None) -> float:
    """The least of a card's width a fanned hand leaves in view: every word and number
    on any face of ``deck`` (``assets.reading_width``), and a margin."""
    if deck is None:
        return READABLE_STEP
    return min(1.0, reading_width(deck) + TEXT_MARGIN)


class HandWidget(QWidget):
    play_requested = Signal(str)  # a legal card was chosen
    illegal_chosen = Signal(str, str)  # card, why it can't be played
    not_now = Signal(str)  # a card was clicked while no card may be played (not your turn)
    selection_changed = Signal(list)

    def __init__(self, deck: Deck | None, card_width: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.deck = deck
        self.card_width = card_width
        self.cards: list[str] = []
        self.widgets: list[CardWidget] = []
        self.mode = "idle"
        self.legal: set[str] = set()
        self.reasons: dict[str, str] = {}
        self.select_count = 0
        self.selected: list[str] = []
        self.cursor = -1
        self.new_cards: set[str] = set()  # just taken from the kitty or widow
        self.hinted: set[str] = set()  # what the Hint would play, bury or discard
        self.setFocusPolicy(Qt.StrongFocus)
        self.setAccessibleName("Your hand")
        self.setMinimumHeight(self.sizeHint().height())

    # -- content -----------------------------------------------------------------------
    def set_cards(self, cards: list[str], deck: Deck | None = None, card_width: int | None = None) -> None:
        """Show ``cards`` (already sorted by the caller), drawn from ``deck`` at ``card_width``."""
        look = (deck or self.deck, card_width or self.card_width)
        if cards != self.cards or look != (self.deck, self.card_width):
            restyled = look != (self.deck, self.card_width)
            resized = look[1] != self.card_width
            self.deck, self.card_width = look
            if resized:
                self.setMinimumHeight(self.sizeHint().height())
                self.updateGeometry()
            self._rebuild(cards, restyled)

    def _rebuild(self, cards: list[str], restyled: bool) -> None:
        """Show ``cards``: a card still held keeps its widget (one played or discarded
        takes only its own away; hover and focus stay where they were), a new card gets
        one; all are made again only when the deck or the card width changed."""
        current = self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None
        before = self.widgets
        held: dict[str, list[CardWidget]] = {}  # (a list each: a deck may hold a card twice)
        for card, widget in zip(self.cards, before if not restyled else []):
            held.setdefault(card, []).append(widget)
        self.cards = list(cards)
        self.widgets = [held[card].pop(0) if held.get(card) else self._card_widget(card)
                        for card in self.cards]
        for widget in set(before) - set(self.widgets):
            widget.hide()  # gone from the screen now, freed when the loop comes round
            widget.deleteLater()
        self.selected = [c for c in self.selected if c in self.cards]
        self.cursor = self.cards.index(current) if current in self.cards else -1
        self._refresh()
        self._layout()

    def _card_widget(self, card: str) -> CardWidget:
        widget = CardWidget(self.deck, card, self.card_width, self)
        widget.activated.connect(self._on_card)
        widget.show()
        return widget

    def mark_new(self, cards) -> None:
        """Mark ``cards`` as just taken (the kitty, the widow) until told otherwise; () clears."""
        new = set(cards) & set(self.cards)
        if new != self.new_cards:
            self.new_cards = new
            self._refresh()

    def point_at(self, cards) -> None:
        """Mark ``cards`` as the Hint's (until the next position; () clears); the
        cursor goes to the first of them, so Enter plays the hinted card."""
        hinted = set(cards) & set(self.cards)
        if hinted != self.hinted:
            self.hinted = hinted
            first = next((i for i, c in enumerate(self.cards) if c in hinted), None)
            if first is not None and (self.mode != "play" or self.cards[first] in self.legal):
                self.cursor = first
            self._refresh()

    def set_idle(self) -> None:
        self.mode, self.legal, self.reasons = "idle", set(), {}
        self.selected = []
        self._refresh()

    def set_playable(self, legal: set[str], reasons: dict[str, str]) -> None:
        self.mode, self.legal, self.reasons = "play", set(legal), dict(reasons)
        self.selected = []
        self._cursor_to_legal()
        self._refresh()

    def _cursor_to_legal(self) -> None:
        """Off a card that can't be played, onto the nearest one that can."""
        if 0 <= self.cursor < len(self.cards) and self.cards[self.cursor] in self.legal:
            return
        playable = [i for i, c in enumerate(self.cards) if c in self.legal]
        if playable:
            start = max(self.cursor, 0)
            self.cursor = min(playable, key=lambda i: (abs(i - start), i))

    def set_selecting(self, count: int) -> None:
        if self.mode != "select" or self.select_count != count:
            self.selected = []
        self.mode, self.select_count = "select", count
        self.legal, self.reasons = set(self.cards), {}
        self._refresh()

    # -- choosing ------------------------------------------------------------------------
    def _on_card(self, card: str) -> None:
        if card in self.cards and (self.mode == "select" or card in self.legal):
            self.cursor = self.cards.index(card)  # (never onto a card that can't be played)
        self.choose(card)

    def choose(self, card: str) -> None:
        if self.mode == "play":
            if card in self.legal:
                self.play_requested.emit(card)
            else:
                self.illegal_chosen.emit(card, self.reasons.get(card, "it can't be played now"))
                self._cursor_to_legal()
        elif self.mode == "select":
            self._toggle(card)
        else:
            self.not_now.emit(card)
        self._refresh()

    def _toggle(self, card: str) -> None:
        if card in self.selected:
            self.selected.remove(card)
        elif len(self.selected) < self.select_count:
            self.selected.append(card)
        else:  # full: the newest pick replaces the oldest, so a click always does something
            self.selected = self.selected[1:] + [card]
        self.selection_changed.emit(list(self.selected))

    def keyPressEvent(self, event) -> None:
        key = event.key()
        if key in (Qt.Key_Left, Qt.Key_Right) and self.cards:
            self._move_cursor(-1 if key == Qt.Key_Left else 1)
            self._refresh()
            self._announce()
        elif self._takes_key(key) and 0 <= self.cursor < len(self.cards):
            self.choose(self.cards[self.cursor])
        else:
            super().keyPressEvent(event)

    def _move_cursor(self, step: int) -> None:
        """The next card that way (round the end): when you are to play, the next one you
        may play — a dimmed card is passed over, as a disabled button is."""
        stops = [i for i, c in enumerate(self.cards) if self.mode != "play" or c in self.legal] \
            or list(range(len(self.cards)))
        if self.cursor < 0:
            self.cursor = stops[0]
            return
        ahead = [i for i in stops if (i - self.cursor) * step > 0]
        self.cursor = (min(ahead, key=lambda i: abs(i - self.cursor)) if ahead
                       else (stops[0] if step > 0 else stops[-1]))

    def _takes_key(self, key: int) -> bool:
        """Enter/Space play a card; while picking cards Space toggles and Enter is left
        to the table (it confirms the discard or bury); when idle both pass through."""
        if self.mode == "play":
            return key in (Qt.Key_Return, Qt.Key_Enter, Qt.Key_Space)
        return self.mode == "select" and key == Qt.Key_Space

    def _announce(self) -> None:
        """Screen readers follow the accessible description of the focused hand."""
        if 0 <= self.cursor < len(self.widgets):
            widget = self.widgets[self.cursor]
            self.setAccessibleDescription(widget.accessibleName() + (
                f", {widget.accessibleDescription()}" if widget.accessibleDescription() else ""))

    def widget_for(self, card: str) -> CardWidget:
        return self.widgets[self.cards.index(card)]

    # -- drawing -------------------------------------------------------------------------
    def _refresh(self) -> None:
        for i, (card, widget) in enumerate(zip(self.cards, self.widgets)):
            if self.mode == "play":
                legal = card in self.legal
                widget.set_state(legal, not legal, "" if legal else self.reasons.get(card, "not now"))
            elif self.mode == "select":
                widget.set_state(False, False, "", card in self.selected)
            else:
                widget.set_state(False, False)
            widget.set_new(card in self.new_cards)
            widget.set_hinted(card in self.hinted)
            widget.set_cursor_on(i == self.cursor and self.hasFocus())

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        self._refresh()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self._refresh()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._layout()

    def sizeHint(self) -> QSize:
        face = card_size(self.card_width)
        return QSize(face.width() * 4, face.height() + lift_for(self.card_width) + 4)

    def _layout(self) -> None:
        if not self.widgets:
            return
        width = self.widgets[0].width()
        count = len(self.widgets)
        room = max(self.width() - width - 8, 0)
        spread = max(READABLE_STEP, reading_step(self.deck))
        step = min(width * spread, room / (count - 1)) if count > 1 else 0
        total = width + step * (count - 1)
        left = (self.width() - total) / 2
        for i, widget in enumerate(self.widgets):
            x = round(left + i * step)
            widget.move(x, max(0, self.height() - widget.height()))
            widget.raise_()
            # where the next card lies over this one (None for the last: nothing does)
            widget.set_covered_from(round(left + (i + 1) * step) - x if i + 1 < count else None)
