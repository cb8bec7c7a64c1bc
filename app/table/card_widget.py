"""One card in your hand: a button that paints the card's art and shows whether it may
be played (lifted) or not (dimmed, with the reason as its tooltip).

In the fanned hand the next card lies over most of this one. A card left down paints
nothing where the next card lies (``covered_from``): were the next card lifted, the
strip under it would otherwise show this card's corner index, which reads as the lifted
card's own number."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QAbstractButton, QWidget

from app.assets import CardArt, Deck

ART = CardArt()  # one pixmap cache for every card on screen


DIM_TINT = QColor(24, 40, 30, 150)  # over a card that may not be played now


def card_size(width: int) -> QSize:
    return QSize(width, round(width * 1.4))


def paint_tag(painter: QPainter, text: str, x: float, y: float, width: float,
              colour: str = "#2e7d32", left: bool = False) -> None:
    """A small label on the lower part of a card ("NEW", "HIGH", "LOW"): solid colour,
    white capitals, readable at any card size. ``left``: in the strip a fanned hand
    leaves in view, else centred."""
    font = QFont(painter.font())
    font.setBold(True)
    font.setPixelSize(max(9, int(width * (0.13 if left else 0.16))))
    painter.save()
    painter.setFont(font)
    metrics = QFontMetrics(font)
    w = metrics.horizontalAdvance(text) + (6 if left else 10)
    h = metrics.height() + 2
    rect = QRectF(x + (3 if left else (width - w) / 2), y + width * 1.4 * 0.62, w, h)
    painter.setPen(Qt.NoPen)
    painter.setBrush(QColor(colour))
    painter.drawRoundedRect(rect, h / 2, h / 2)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(rect, Qt.AlignCenter, text)
    painter.restore()


class CardWidget(QAbstractButton):
    """A face-up card. ``lift`` is how far a playable card rises above the rest."""

    activated = Signal(str)  # the card's name, on click

    def __init__(self, deck: Deck, card: str, width: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.deck = deck
        self.card = card
        self.face = card_size(width)
        self.lift = max(8, width // 6)
        self.playable = False
        self.dimmed = False
        self.selected = False
        self.cursor_on = False  # the keyboard cursor is on this card
        self.new = False  # just taken from the kitty or widow: marked while you choose what to put down
        self.reason = ""
        self.covered_from: int | None = None  # x from which the next card in the fan lies over this one
        self.setFocusPolicy(Qt.NoFocus)  # the hand takes the keys, not each card
        self.setCursor(Qt.PointingHandCursor)
        self.setFixedSize(self.face.width(), self.face.height() + self.lift)
        self.clicked.connect(lambda: self.activated.emit(self.card))
        self._describe()

    @property
    def spoken(self) -> str:
        return self.deck.card(self.card).words

    def set_state(self, playable: bool, dimmed: bool, reason: str = "", selected: bool = False) -> None:
        self.playable, self.dimmed, self.reason, self.selected = playable, dimmed, reason, selected
        self._describe()
        self.update()

    def set_new(self, new: bool) -> None:
        if new != self.new:
            self.new = new
            self._describe()
            self.update()

    def set_cursor_on(self, on: bool) -> None:
        if on != self.cursor_on:
            self.cursor_on = on
            self.update()

    def set_covered_from(self, x: int | None) -> None:
        if x != self.covered_from:
            self.covered_from = x
            self.update()

    def _describe(self) -> None:
        name = self.spoken
        self.setAccessibleName(name)
        if self.dimmed and self.reason:
            self.setToolTip(f"{name}: can't be played — {self.reason}")
            self.setAccessibleDescription(f"not playable: {self.reason}")
        elif self.selected:
            self.setToolTip(f"{name} (selected)")
            self.setAccessibleDescription("selected")
        elif self.new:
            self.setToolTip(f"{name} (new: just taken)")
            self.setAccessibleDescription("new")
        else:
            self.setToolTip(name)
            self.setAccessibleDescription("playable" if self.playable else "")

    def is_up(self) -> bool:
        return self.playable or self.selected

    def sizeHint(self) -> QSize:
        return self.size()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        top = 0 if self.is_up() else self.lift
        if top and self.covered_from is not None:
            painter.setClipRect(0, 0, self.covered_from, self.height())
        pixmap = ART.face(self.deck, self.card, self.face, self.devicePixelRatioF())
        painter.drawPixmap(0, top, pixmap)
        if self.dimmed:  # an opaque card under a dark tint: "not now", even in greyscale
            radius = self.face.width() * 0.06
            painter.setPen(Qt.NoPen)
            painter.setBrush(DIM_TINT)
            painter.drawRoundedRect(0, top, self.face.width(), self.face.height(), radius, radius)
        if self.new:
            paint_tag(painter, "NEW", 0, top, self.face.width(), left=True)
        ring = None
        if self.new:
            ring = QColor("#81c784")
        if self.selected:
            ring = QColor("#f4c430")
        if self.cursor_on:
            ring = QColor("#4fc3f7")
        if ring is not None:
            painter.setPen(QPen(ring, 3))
            painter.setBrush(Qt.NoBrush)
            radius = self.face.width() * 0.08
            painter.drawRoundedRect(2, top + 2, self.face.width() - 4, self.face.height() - 4, radius, radius)
        painter.end()
