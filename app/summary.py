"""The hand summary and the score history chart (drawn with QPainter).

Shown over the table when a hand ends: who bid what, whether it was made, the
arithmetic in the ruleset's own words (from the engine's scoring, see
``engine.scoring``), the cards that were hidden until now (buried, discarded, left
over), the points each side took and scored, the running totals — and a line per side
across the hands so far, so "how are we doing?" is answered at a glance, or the last
trick of the hand.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QStackedWidget, QVBoxLayout, QWidget

from app.assets import Deck
from app.table.card_widget import ART, card_size, paint_tag
from app.table.trick_area import ACE_COLOURS
from app.table.viewmodel import points, signed

SIDE_COLOURS = ("#f4c430", "#4fc3f7", "#ef9a9a", "#a5d6a7")
HIDDEN_CARD_WIDTH = 64  # the cards kept hidden until now: their numbers read (a fraction's ~22 px)


class ScoreChart(QWidget):
    """Cumulative score per side after each hand, with the target as a dashed line."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.history: list[list[int]] = []  # totals after each hand
        self.names: list[str] = []
        self.target: int | None = None
        self.setMinimumSize(280, 90)
        self.setAccessibleName("Score history chart")

    def set_history(self, history: list[list[int]], names: list[str], target: int | None) -> None:
        self.history, self.names, self.target = [list(h) for h in history], list(names), target
        last = history[-1] if history else []
        self.setAccessibleDescription(", ".join(f"{n}: {points(s)}" for n, s in zip(names, last)))
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(420, 180)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        plot = QRectF(44, 10, self.width() - 54, self.height() - 34)
        painter.fillRect(self.rect(), QColor(0, 0, 0, 40))
        points = [[0] * len(self.names)] + self.history
        values = [v for row in points for v in row] + ([self.target] if self.target else []) + [0]
        low, high = min(values), max(values)
        if high == low:
            high = low + 1

        def at(index: int, value: int) -> QPointF:
            x = plot.left() + plot.width() * index / max(len(points) - 1, 1)
            y = plot.bottom() - plot.height() * (value - low) / (high - low)
            return QPointF(x, y)

        self._axes(painter, plot, low, high, at, len(points))
        for side in range(len(self.names)):
            path = QPainterPath(at(0, points[0][side]))
            for i, row in enumerate(points[1:], start=1):
                path.lineTo(at(i, row[side]))
            colour = QColor(SIDE_COLOURS[side % len(SIDE_COLOURS)])
            painter.setPen(QPen(colour, 2.5))
            painter.setBrush(Qt.NoBrush)
            painter.drawPath(path)
            painter.setBrush(colour)
            for i, row in enumerate(points):
                painter.drawEllipse(at(i, row[side]), 3, 3)
        painter.end()

    def _axes(self, painter: QPainter, plot: QRectF, low: int, high: int, at, count: int) -> None:
        painter.setPen(QPen(QColor(255, 255, 255, 120), 1))
        painter.drawLine(plot.bottomLeft(), plot.topLeft())
        zero = at(0, 0).y()
        painter.drawLine(QPointF(plot.left(), zero), QPointF(plot.right(), zero))
        painter.setFont(self.font())  # the table's own size: these numbers are read too
        painter.setPen(QColor("#fdf6e3"))
        drawn: list[float] = []
        for value in sorted({low, high, 0}, key=lambda v: (v != 0, v)):  # 0 first: it has the axis line
            y = at(0, value).y()
            if all(abs(y - other) >= 14 for other in drawn):  # close values would print over each other
                painter.drawText(QRectF(0, y - 8, 40, 16), Qt.AlignRight | Qt.AlignVCenter, points(value))
                drawn.append(y)
        painter.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), 18), Qt.AlignCenter,
                         f"after {count - 1} hand{'s' if count != 2 else ''}")
        if self.target:
            painter.setPen(QPen(QColor(255, 255, 255, 160), 1, Qt.DashLine))
            y = at(0, self.target).y()
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))


class CardStrip(QWidget):
    """A row of small face-up cards, each with a line under it (who played it, or
    nothing) and an optional tag on the card ("HIGH" for a declared ace)."""

    GAP = 8

    def __init__(self, card_width: int = 46, parent: QWidget | None = None):
        super().__init__(parent)
        self.card_width = card_width
        self.deck: Deck | None = None
        self.cards: list[tuple[str, str, str | None]] = []  # (card, caption, tag)
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)

    def set_cards(self, deck: Deck | None, cards: list[tuple[str, str, str | None]]) -> None:
        self.deck, self.cards = deck, list(cards)
        self.setAccessibleDescription(", ".join(
            " ".join(x for x in (caption, deck.card(card).words, f"({tag.lower()})" if tag else "") if x)
            for card, caption, tag in self.cards))
        self.updateGeometry()
        self.update()

    def _captioned(self) -> bool:
        return any(caption for _, caption, _ in self.cards)

    def _slot(self) -> int:
        """Room per card: wider when each has a name under it."""
        return self.card_width + (self.GAP * 4 if self._captioned() else self.GAP)

    def sizeHint(self) -> QSize:
        height = round(self.card_width * 1.4) + (self.fontMetrics().height() + 2 if self._captioned() else 0)
        return QSize(max(len(self.cards), 1) * self._slot(), height)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, event) -> None:
        if self.deck is None:
            return  # nothing shown yet
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        face = card_size(self.card_width)
        slot = self._slot()
        metrics = self.fontMetrics()
        x = (self.width() - slot * len(self.cards)) / 2
        for card, caption, tag in self.cards:
            left = x + (slot - face.width()) / 2
            painter.drawPixmap(QPointF(left, 0), ART.face(self.deck, card, face, self.devicePixelRatioF()))
            if tag:
                paint_tag(painter, tag.upper(), left, 0, face.width(), ACE_COLOURS.get(tag.lower(), "#2e7d32"))
            if caption:
                painter.setPen(QColor("#fdf6e3"))
                painter.drawText(QRectF(x, face.height() + 1, slot, metrics.height()), Qt.AlignCenter,
                                 metrics.elidedText(caption, Qt.ElideRight, slot - 2))
            x += slot
        painter.end()


def wrapped(text: str = "", name: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    if name:
        label.setObjectName(name)
    return label


class HandSummary(QWidget):
    """Result of the hand just played: what was bid and taken, the arithmetic in the
    ruleset's words, the cards that were hidden until now, the score table, and either
    the chart or the last trick."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.headline = wrapped(name="summaryHeadline")
        layout.addWidget(self.headline)
        self.arithmetic = wrapped(name="summaryArithmetic")
        self.arithmetic.setTextFormat(Qt.RichText)
        layout.addWidget(self.arithmetic)
        self.table = QGridLayout()
        self.table.setColumnStretch(0, 1)
        layout.addLayout(self.table)
        self.hidden_text = wrapped(name="summaryHidden")
        self.hidden_text.setTextFormat(Qt.RichText)
        layout.addWidget(self.hidden_text)
        self.hidden_cards = CardStrip(HIDDEN_CARD_WIDTH)
        self.hidden_cards.setObjectName("hiddenCards")
        self.hidden_cards.setAccessibleName("Cards hidden until now")
        layout.addWidget(self.hidden_cards)
        self.pages = QStackedWidget()
        self.chart = ScoreChart()
        self.last_trick = QWidget()
        trick_layout = QVBoxLayout(self.last_trick)
        trick_layout.setContentsMargins(0, 4, 0, 0)
        self.last_trick_caption = wrapped(name="lastTrickCaption")
        self.last_trick_cards = CardStrip()
        self.last_trick_cards.setAccessibleName("The last trick")
        trick_layout.addWidget(self.last_trick_caption)
        trick_layout.addWidget(self.last_trick_cards)
        trick_layout.addStretch(1)
        self.pages.addWidget(self.chart)
        self.pages.addWidget(self.last_trick)
        layout.addWidget(self.pages, 1)

    def show_result(self, headline: str, names: list[str], taken: list[int], score: list[int],
                    totals: list[int], history: list[list[int]], target: int | None,
                    taken_label: str = "Took", arithmetic: str = "",
                    hidden: tuple[str, str, list[str]] | None = None) -> None:
        """``hidden``: (words, deck, cards) for the cards kept out of sight until now."""
        self.headline.setText(headline)
        self.arithmetic.setText(arithmetic)
        self.arithmetic.setVisible(bool(arithmetic))
        while self.table.count():
            item = self.table.takeAt(0)
            if item.widget():
                item.widget().hide()
                item.widget().deleteLater()
        for col, text in enumerate(["", taken_label, "This hand", "Total"]):
            self._cell(text, 0, col, bold=True)
        for row, name in enumerate(names, start=1):
            colour = SIDE_COLOURS[(row - 1) % len(SIDE_COLOURS)]
            self._cell(f"<span style='color:{colour}'>\u25a0</span> {escape(name)}", row, 0)
            self._cell(str(taken[row - 1]) if row - 1 < len(taken) else "", row, 1)
            delta = score[row - 1] if row - 1 < len(score) else 0
            self._cell(signed(delta), row, 2)
            self._cell(points(totals[row - 1]) if row - 1 < len(totals) else "", row, 3, bold=True)
        words, deck, cards = hidden or ("", None, [])
        self.hidden_text.setText(words)
        self.hidden_text.setVisible(bool(words))
        self.hidden_cards.set_cards(deck, [(card, "", None) for card in cards])
        self.hidden_cards.setVisible(bool(cards))
        self.chart.set_history(history, names, target)
        self.show_page(False)

    def show_last_trick(self, caption: str, deck: str, cards: list[tuple[str, str, str | None]]) -> None:
        self.last_trick_caption.setText(caption)
        self.last_trick_cards.set_cards(deck, cards)

    def show_page(self, last_trick: bool) -> None:
        """The score chart, or the last trick of the hand."""
        self.pages.setCurrentWidget(self.last_trick if last_trick else self.chart)

    def _cell(self, text: str, row: int, col: int, bold: bool = False) -> None:
        label = QLabel(f"<b>{text}</b>" if bold else text)
        label.setTextFormat(Qt.RichText)
        label.setAlignment(Qt.AlignLeft if col == 0 else Qt.AlignRight)
        if col == 0:  # a team's name with both players' names: wraps rather than clips
            label.setWordWrap(True)
            label.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self.table.addWidget(label, row, col)

