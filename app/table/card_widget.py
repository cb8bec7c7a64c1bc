"""One card in your hand: a button that paints the card's art and shows whether it may
be played (lifted) or not (dimmed, with the reason as its tooltip).

In the fanned hand the next card lies over part of this one. A card left down paints
nothing where the next card lies (``covered_from``): were the next card lifted, the
strip under it would otherwise show this card's corner index, which reads as the lifted
card's own number.

A card just taken (the kitty, the widow) says NEW on a tag across its top edge (its
bottom edge while it is lifted): in the gap its lift leaves and the face's plain border
(``FACE_BORDER``), never over the card's words or numbers. A card the Hint names says
HINT there instead, in a ring of its own."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QAbstractButton, QWidget

from app.assets import CardArt, Deck

ART = CardArt()  # one pixmap cache for every card on screen


DIM_TINT = QColor(24, 40, 30, 150)  # over a card that may not be played now
NEW_COLOUR = "#2e7d32"
HINT_COLOUR = "#1565c0"
FACE_BORDER = 0.035  # of a face's height, top and bottom: plain edge, no words (assets/make_cards.py)


def card_size(width: int) -> QSize:
    return QSize(width, round(width * 1.4))


def lift_for(width: int) -> int:
    """How far a playable card rises above the rest (and the gap the NEW tag sits in)."""
    return max(10, width // 5)


def tag_font(base: QFont, pixels: int) -> QFont:
    font = QFont(base)
    font.setBold(True)
    font.setPixelSize(max(9, pixels))
    return font


def paint_pill(painter: QPainter, text: str, rect: QRectF, colour: str) -> None:
    """White capitals on a solid rounded tag."""
    painter.save()
    painter.setPen(Qt.NoPen)
    painter.setBrush(QColor(colour))
    painter.drawRoundedRect(rect, rect.height() / 2, rect.height() / 2)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(rect, Qt.AlignCenter, text)
    painter.restore()


def paint_tag(painter: QPainter, text: str, x: float, y: float, width: float,
              colour: str = NEW_COLOUR) -> None:
    """A small label centred on the lower part of a card ("HIGH", "LOW" on a declared
    ace, whose middle holds no number): solid colour, white capitals, readable at any
    card size."""
    font = tag_font(painter.font(), int(width * 0.16))
    metrics = QFontMetrics(font)
    w = metrics.horizontalAdvance(text) + 10
    h = metrics.height() + 2
    painter.save()
    painter.setFont(font)
    paint_pill(painter, text, QRectF(x + (width - w) / 2, y + width * 1.4 * 0.62, w, h), colour)
    painter.restore()


class CardWidget(QAbstractButton):
    """A face-up card. ``lift`` is how far a playable card rises above the rest."""

    activated = Signal(str)  # the card's name, on click

    def __init__(self, deck: Deck, card: str, width: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.deck = deck
        self.card = card
        self.face = card_size(width)
        self.lift = lift_for(width)
        self.playable = False
        self.dimmed = False
        self.selected = False
        self.cursor_on = False  # the keyboard cursor is on this card
        self.new = False  # just taken from the kitty or widow: marked while you choose what to put down
        self.hinted = False  # the card the Hint would play (or bury, or discard)
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
        state = (playable, dimmed, reason, selected)
        if state != (self.playable, self.dimmed, self.reason, self.selected):  # (redrawn on a change only)
            self.playable, self.dimmed, self.reason, self.selected = state
            self._describe()
            self.update()

    def set_new(self, new: bool) -> None:
        if new != self.new:
            self.new = new
            self._describe()
            self.update()

    def set_hinted(self, hinted: bool) -> None:
        if hinted != self.hinted:
            self.hinted = hinted
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
        elif self.hinted:
            self.setToolTip(f"{name} (the hint)")
            self.setAccessibleDescription("the hint")
        elif self.new:
            self.setToolTip(f"{name} (new: just taken)")
            self.setAccessibleDescription("new")
        else:
            self.setToolTip(name)
            self.setAccessibleDescription("playable" if self.playable else "")

    def is_up(self) -> bool:
        return self.playable or self.selected

    def tag(self) -> tuple[str, str] | None:
        """The word on the card's tag, and its colour: HINT, else NEW, else none."""
        if self.hinted:
            return "HINT", HINT_COLOUR
        return ("NEW", NEW_COLOUR) if self.new else None

    def tag_place(self, word: str) -> tuple[QFont, QRectF]:
        """The tag's font and place: across the face's top edge while the card lies down
        (the gap its lift leaves above it, and the face's plain border), across its
        bottom edge while it is lifted; at the left, in the strip the next card leaves."""
        border = self.face.height() * FACE_BORDER
        height = self.lift + border
        font = tag_font(self.font(), int(height * 0.72))
        width = QFontMetrics(font).horizontalAdvance(word) + height * 0.7
        top = self.face.height() - border if self.is_up() else 0.0
        return font, QRectF(3, top, width, height)

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
        ring = None
        if self.new:
            ring = QColor("#81c784")
        if self.hinted:
            ring = QColor(HINT_COLOUR)
        if self.selected:  # (picked: its gold ring says so, hinted or not)
            ring = QColor("#f4c430")
        if self.cursor_on:
            ring = QColor("#4fc3f7")
        if ring is not None:
            painter.setPen(QPen(ring, 3))
            painter.setBrush(Qt.NoBrush)
            radius = self.face.width() * 0.08
            painter.drawRoundedRect(2, top + 2, self.face.width() - 4, self.face.height() - 4, radius, radius)
        tag = self.tag()
        if tag is not None:  # over the ring: the tag crosses the card's edge
            word, colour = tag
            font, rect = self.tag_place(word)
            painter.setFont(font)
            paint_pill(painter, word, rect, colour)
        painter.end()
