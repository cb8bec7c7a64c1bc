"""Text that fits its place: a one-line label that shortens names, never amounts.

A table's labels mix names of any length with the numbers that matter ("Contract 180 —
Grandma Josephine-Marie", "Score Ann 12 · Bob 9"). Eliding the end of the line would
cut the number; ``FittedLabel`` instead holds the same line written shorter and
shorter (names cut to fewer letters: ``app.table.viewmodel.name_variants``) and shows
the fullest one that fits its width, with the full text as its tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget



class FittedLabel(QLabel):
    """Shows the first of its ``variants`` that fits its width (the last one if none
    does); the first is its tooltip and its accessible name's text."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.variants: list[str] = [""]
        self.full_tip = ""
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)

    def set_variants(self, variants: list[str], tooltip: str | None = None) -> None:
        variants = [v for v in variants if v] or [""]
        if variants == self.variants and tooltip == self.full_tip:
            return
        self.variants, self.full_tip = variants, tooltip
        self.setToolTip(tooltip if tooltip is not None else (variants[0] if len(variants) > 1 else ""))
        self.updateGeometry()
        self._choose()

    def set_plain(self, text: str) -> None:
        self.set_variants([text])

    def _width_of(self, text: str) -> int:
        margins = self.contentsMargins()
        return self.fontMetrics().horizontalAdvance(text) + margins.left() + margins.right() + 2 * self.margin()

    def sizeHint(self) -> QSize:
        return QSize(self._width_of(self.variants[0]), super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        return QSize(self._width_of(self.variants[-1]), super().minimumSizeHint().height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._choose()

    def _choose(self) -> None:
        room = self.width()
        text = next((v for v in self.variants if self._width_of(v) <= room), self.variants[-1])
        if text != self.text():
            super().setText(text)
