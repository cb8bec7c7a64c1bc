"""The hand summary and the score history chart (drawn with QPainter).

Shown over the table when a hand ends: who bid what, whether it was made, the points
each side took and scored, the running totals — and a line per side across the hands
so far, so "how are we doing?" is answered at a glance.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

SIDE_COLOURS = ("#f4c430", "#4fc3f7", "#ef9a9a", "#a5d6a7")


class ScoreChart(QWidget):
    """Cumulative score per side after each hand, with the target as a dashed line."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.history: list[list[int]] = []  # totals after each hand
        self.names: list[str] = []
        self.target: int | None = None
        self.setMinimumSize(320, 160)
        self.setAccessibleName("Score history chart")

    def set_history(self, history: list[list[int]], names: list[str], target: int | None) -> None:
        self.history, self.names, self.target = [list(h) for h in history], list(names), target
        last = history[-1] if history else []
        self.setAccessibleDescription(", ".join(f"{n}: {s}" for n, s in zip(names, last)))
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
        font = QFont(self.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        painter.setFont(font)
        painter.setPen(QColor("#fdf6e3"))
        for value in sorted({low, high, 0}):
            painter.drawText(QRectF(0, at(0, value).y() - 8, 40, 16), Qt.AlignRight | Qt.AlignVCenter, str(value))
        painter.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), 18), Qt.AlignCenter,
                         f"after {count - 1} hand{'s' if count != 2 else ''}")
        if self.target:
            painter.setPen(QPen(QColor(255, 255, 255, 160), 1, Qt.DashLine))
            y = at(0, self.target).y()
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))


class HandSummary(QWidget):
    """Result of the hand just played plus the score table and chart."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.headline = QLabel()
        self.headline.setObjectName("summaryHeadline")
        self.headline.setWordWrap(True)
        layout.addWidget(self.headline)
        self.table = QGridLayout()
        layout.addLayout(self.table)
        self.chart = ScoreChart()
        layout.addWidget(self.chart)

    def show_result(self, headline: str, names: list[str], taken: list[int], score: list[int],
                    totals: list[int], history: list[list[int]], target: int | None,
                    taken_label: str = "Took") -> None:
        self.headline.setText(headline)
        while self.table.count():
            item = self.table.takeAt(0)
            if item.widget():
                item.widget().hide()
                item.widget().deleteLater()
        for col, text in enumerate(["", taken_label, "This hand", "Total"]):
            self._cell(text, 0, col, bold=True)
        for row, name in enumerate(names, start=1):
            colour = SIDE_COLOURS[(row - 1) % len(SIDE_COLOURS)]
            self._cell(f"<span style='color:{colour}'>\u25a0</span> {name}", row, 0)
            self._cell(str(taken[row - 1]) if row - 1 < len(taken) else "", row, 1)
            delta = score[row - 1] if row - 1 < len(score) else 0
            self._cell(f"{delta:+d}", row, 2)
            self._cell(str(totals[row - 1]) if row - 1 < len(totals) else "", row, 3, bold=True)
        self.chart.set_history(history, names, target)

    def _cell(self, text: str, row: int, col: int, bold: bool = False) -> None:
        label = QLabel(f"<b>{text}</b>" if bold else text)
        label.setTextFormat(Qt.RichText)
        label.setAlignment(Qt.AlignLeft if col == 0 else Qt.AlignRight)
        self.table.addWidget(label, row, col)
