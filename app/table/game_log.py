"""The game log beside the table: one wrapped line per bid, decision or trick.

Lines are labels in a scroll area rather than rows of a list view: a label wraps to
exactly the width it is given and asks for the height that takes, so a long trick line
is never cut off at its end (a list view measures wrapped rows for a width they do not
always get). New lines keep the view at the bottom, where the latest play is, unless
the player has scrolled up to read.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget


class GameLog(QScrollArea):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("logList")
        self.setAccessibleName("Game log")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOn)  # the width never jumps
        self.page = QWidget()
        self.page.setObjectName("logPage")
        self.rows = QVBoxLayout(self.page)
        self.rows.setContentsMargins(4, 2, 4, 2)
        self.rows.setSpacing(6)
        self.rows.addStretch(1)
        self.setWidget(self.page)
        self.labels: list[QLabel] = []
        self.follow = True  # keep the latest line in view (until the player scrolls up)
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(lambda _low, high: self.follow and bar.setValue(high))
        bar.valueChanged.connect(lambda value: setattr(self, "follow", value >= bar.maximum() - 4))

    def lines(self) -> list[str]:
        return [label.text() for label in self.labels]

    def clear(self) -> None:
        self.set_lines([])

    def set_lines(self, lines: list[str]) -> None:
        """Show ``lines``; the ones already shown stay, new ones are added below."""
        if lines == self.lines():
            return
        keep = 0
        while keep < min(len(lines), len(self.labels)) and self.labels[keep].text() == lines[keep]:
            keep += 1
        for label in self.labels[keep:]:
            label.hide()
            label.deleteLater()
        self.labels = self.labels[:keep]
        for text in lines[keep:]:
            label = QLabel(text)
            label.setObjectName("logLine")
            label.setTextFormat(Qt.PlainText)
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextSelectableByMouse)
            self.rows.insertWidget(self.rows.count() - 1, label)
            self.labels.append(label)
        if not lines:
            self.follow = True  # a new hand starts at the bottom again
