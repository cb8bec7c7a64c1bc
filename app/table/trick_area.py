"""The middle of the table: the trick being played, each card in front of its player.

While a new trick has not started, the last completed one stays in view, a little
faded but for the card that took it (in a gold ring), captioned with who took it — the
moment a person looks for "who won that?".
Open cards (Rook's widow, Somerset's open widow, Horseshoes' face-up left-over) are
shown along the top with a caption.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, QSizeF, Qt, QVariantAnimation
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.assets import Deck

from .card_widget import ART, card_size, paint_tag

ACE_COLOURS = {"high": "#1565c0", "low": "#6d4c41"}  # the badge on a declared ace
WINNER_RING = "#f4c430"  # round the card that took the trick


def relative_position(seat: int, you: int, players: int) -> str:
    """Where ``seat`` sits as you look at the table: bottom (you), left, top, right."""
    offset = (seat - you) % players
    if players == 3:
        return ("bottom", "left", "right")[offset]
    return ("bottom", "left", "top", "right")[offset]


class TrickArea(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.deck: Deck | None = None  # until configure: nothing is drawn without one
        self.card_width = 84
        self.players = 4
        self.you = 0
        self.cards: list[tuple[int, str]] = []  # (seat, card) in play order
        self.faded = False
        self.caption = ""
        self.aces: dict[str, str] = {}  # declared aces on the trick shown
        self.winner: int | None = None  # the seat whose card took the trick shown (a finished one)
        self.open_cards: list[str] = []
        self.hidden_spare = 0  # face-down spare cards to show as backs
        self.open_caption = ""
        self.animation_ms = 0  # 0: cards simply appear (tests, "off" in settings)
        self._glide = 1.0  # how far the newest card has travelled from its player, 0..1
        self._animation = QVariantAnimation(self)
        self._animation.valueChanged.connect(self._step)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.setAccessibleName("Trick")

    def configure(self, deck: Deck, card_width: int, players: int, you: int) -> None:
        self.deck, self.card_width, self.players, self.you = deck, card_width, players, you
        self.update()

    def show_trick(self, cards: list[tuple[int, str]], caption: str = "", faded: bool = False,
                   aces: dict[str, str] | None = None, winner: int | None = None) -> None:
        """``aces``: {card: "high" | "low"} for declared aces, shown on the card;
        ``winner``: the seat that took the trick, when it is finished."""
        grew = not faded and len(cards) == len(self.cards) + 1 and cards[:-1] == self.cards
        self.cards, self.caption, self.faded, self.winner = list(cards), caption, faded, winner
        self.aces = {card: call for card, call in (aces or {}).items() if any(c == card for _, c in cards)}
        if grew and self.animation_ms > 0:
            self._animation.stop()
            self._animation.setDuration(self.animation_ms)
            self._animation.setStartValue(0.0)
            self._animation.setEndValue(1.0)
            self._animation.start()
        else:
            self._glide = 1.0
        spoken = ", ".join(self._spoken(c) + (f" ({self.aces[c]})" if c in self.aces else "")
                           + (" (took the trick)" if s == winner else "")
                           for s, c in self.cards) or "no cards"
        self.setAccessibleDescription(f"{caption} {spoken}".strip())
        self.update()

    def _spoken(self, card: str) -> str:
        return self.deck.card(card).words if self.deck is not None else card

    def _step(self, value) -> None:
        self._glide = float(value)
        self.update()

    def show_open(self, cards: list[str], caption: str = "", hidden: int = 0) -> None:
        self.open_cards, self.open_caption, self.hidden_spare = list(cards), caption, hidden
        self.update()

    def minimumSizeHint(self) -> QSize:
        return QSize(240, 120)  # a short felt draws its cards smaller: your hand keeps its size

    def face_size(self) -> QSize:
        """Trick cards: a little smaller than the hand's, and always fitting the felt
        (two cards high with the caption, three wide)."""
        width = min(self.card_width * 0.85, (self.height() - 30) / (1.4 * 2.15), self.width() / 3.3)
        return card_size(max(36, int(width)))

    def _spot(self, position: str, face: QSize) -> QPointF:
        """Top-left corner of the card played from ``position``."""
        cx, cy = self.width() / 2, (self.height() - 26) / 2  # the caption has the bottom strip
        dx, dy = face.width() * 1.0, face.height() * 0.56
        centre = {"bottom": QPointF(cx, cy + dy), "top": QPointF(cx, cy - dy),
                  "left": QPointF(cx - dx, cy), "right": QPointF(cx + dx, cy)}[position]
        return QPointF(centre.x() - face.width() / 2, centre.y() - face.height() / 2)

    def _from_edge(self, position: str, spot: QPointF, face: QSize) -> QPointF:
        """The newest card on its way in from its player's side of the table."""
        edge = {"bottom": QPointF(spot.x(), self.height()), "top": QPointF(spot.x(), -face.height()),
                "left": QPointF(-face.width(), spot.y()), "right": QPointF(self.width(), spot.y())}[position]
        t = 1 - (1 - self._glide) ** 2  # ease out: quick start, gentle landing
        return edge + (spot - edge) * t

    def paintEvent(self, event) -> None:
        if self.deck is None:
            return  # no game yet: an empty felt
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        face = self.face_size()
        ratio = self.devicePixelRatioF()
        self._paint_open(painter, ratio)
        for index, (seat, card) in enumerate(self.cards):
            took = seat == self.winner
            painter.setOpacity(0.6 if self.faded and not took else 1.0)
            position = relative_position(seat, self.you, self.players)
            spot = self._spot(position, face)
            if index == len(self.cards) - 1 and self._glide < 1.0:
                spot = self._from_edge(position, spot, face)
            painter.drawPixmap(spot, ART.face(self.deck, card, face, ratio))
            if card in self.aces:
                paint_tag(painter, self.aces[card].upper(), spot.x(), spot.y(), face.width(),
                          ACE_COLOURS[self.aces[card]])
            if took:
                self._ring(painter, QRectF(spot, QSizeF(face)))
        painter.setOpacity(1.0)
        if self.caption:
            self._paint_caption(painter, self.caption, QRectF(0, self.height() - 26, self.width(), 24))
        painter.end()

    @staticmethod
    def _ring(painter: QPainter, rect: QRectF) -> None:
        """A gold ring round the card that took the trick, just outside its edge."""
        painter.save()
        painter.setPen(QPen(QColor(WINNER_RING), 4))
        painter.setBrush(Qt.NoBrush)
        radius = rect.width() * 0.08
        painter.drawRoundedRect(rect.adjusted(-3, -3, 3, 3), radius + 3, radius + 3)
        painter.restore()

    def _paint_open(self, painter: QPainter, ratio: float) -> None:
        """Open cards: large in the middle while no trick is on the table (the widow
        moment), small in the top-left corner once play has begun."""
        if not self.open_cards and not self.hidden_spare:
            return
        centred = not self.cards
        count = len(self.open_cards) + self.hidden_spare
        gap = 10 if centred else 4
        trick_width = self.face_size().width()
        if centred:
            width = min(trick_width, (self.width() - 16 - gap * (count - 1)) / max(count, 1))
        else:
            width = max(36, trick_width * 0.5)
        small = card_size(int(width))
        total = count * small.width() + (count - 1) * gap
        # The caption wraps rather than run off a narrow felt: above the cards in the
        # middle, above them in the corner (which moves them down).
        room = max(self.width() - 16, 40)
        lines = self.open_caption_rect(room)
        x = (self.width() - total) / 2 if centred else 8.0
        y = (self.height() - small.height()) / 2 if centred else 6.0 + lines.height()
        for card in self.open_cards:
            painter.drawPixmap(QPointF(x, y), ART.face(self.deck, card, small, ratio))
            x += small.width() + gap
        for _ in range(self.hidden_spare):
            painter.drawPixmap(QPointF(x, y), ART.back(small, "blue", ratio))
            x += small.width() + gap
        if centred:
            rect = QRectF(8, y - 4 - lines.height(), room, lines.height())
        else:
            rect = QRectF(8, 2, room, lines.height())
        self._paint_caption(painter, self.open_caption, rect, Qt.AlignCenter if centred else Qt.AlignLeft,
                            wrap=True)

    def open_caption_rect(self, width: int) -> QRectF:
        """The size the open cards' caption takes wrapped to ``width``."""
        if not self.open_caption:
            return QRectF(0, 0, width, 0)
        metrics = QFontMetrics(self.caption_font())
        return QRectF(metrics.boundingRect(0, 0, int(width), 10000, Qt.TextWordWrap, self.open_caption))

    def caption_font(self) -> QFont:
        font = QFont(self.font())
        font.setBold(True)
        return font

    def _paint_caption(self, painter: QPainter, text: str, rect: QRectF,
                       align=Qt.AlignCenter, wrap: bool = False) -> None:
        """Bold text in ``rect``: wrapped, or one line elided only if the felt itself
        is narrower."""
        font = self.caption_font()
        painter.setFont(font)
        painter.setPen(QColor("#fdf6e3"))
        if wrap:
            painter.drawText(rect, align | Qt.AlignVCenter | Qt.TextWordWrap, text)
            return
        text = QFontMetrics(font).elidedText(text, Qt.ElideRight, int(rect.width()))
        painter.drawText(rect, align | Qt.AlignVCenter, text)
