"""Card faces, backs and icons: found on disk, rendered from SVG, cached as pixmaps.

Assets live in ``assets/`` at the repository root during development and under
``sys._MEIPASS/assets`` in a PyInstaller bundle; ``asset_root`` is the one place that
knows. A missing SVG never breaks the table: ``CardArt`` draws a plain face with the
card's name instead, so a half-generated art folder still gives a playable game.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtSvg import QSvgRenderer

from app import cardnames


def asset_root() -> Path:
    """The ``assets`` folder: inside the bundle when frozen, else next to ``app/``."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "assets"
    return Path(__file__).resolve().parent.parent / "assets"


def card_file(deck: str, card: str) -> Path:
    """The SVG for ``card`` in ``deck`` ("somerset", "rook", "rook-accessible", "standard")."""
    return asset_root() / "cards" / deck / f"{card.replace('/', '-')}.svg"


def back_file(colour: str = "blue") -> Path:
    return asset_root() / "cards" / f"back-{colour}.svg"


def app_icon() -> QIcon:
    path = asset_root() / "icons" / "parlour.svg"
    if path.exists():
        return QIcon(str(path))
    return QIcon(_fallback_icon())


def deck_for(game: str, accessible_rook: bool = False) -> str:
    """The art folder a game's cards are drawn from."""
    if game == "rook":
        return "rook-accessible" if accessible_rook else "rook"
    if game == "horseshoes":
        return "standard"
    return "somerset"


@lru_cache(maxsize=64)
def _renderer(path: str) -> QSvgRenderer | None:
    renderer = QSvgRenderer(path)
    return renderer if renderer.isValid() else None


class CardArt:
    """Pixmaps of card faces and backs at a given size, cached per (deck, card, size)."""

    def __init__(self) -> None:
        self._cache: dict[tuple, QPixmap] = {}

    def face(self, deck: str, card: str, size: QSize, ratio: float = 1.0) -> QPixmap:
        key = ("face", deck, card, size.width(), size.height(), ratio)
        if key not in self._cache:
            renderer = _renderer(str(card_file(deck, card))) if card_file(deck, card).exists() else None
            self._cache[key] = (_render(renderer, size, ratio) if renderer
                                else _drawn_face(deck, card, size, ratio))
        return self._cache[key]

    def back(self, size: QSize, colour: str = "blue", ratio: float = 1.0) -> QPixmap:
        key = ("back", colour, size.width(), size.height(), ratio)
        if key not in self._cache:
            path = back_file(colour)
            renderer = _renderer(str(path)) if path.exists() else None
            self._cache[key] = _render(renderer, size, ratio) if renderer else _drawn_back(size, colour, ratio)
        return self._cache[key]


def _blank(size: QSize, ratio: float) -> QPixmap:
    pixmap = QPixmap(size * ratio)
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.transparent)
    return pixmap


def _render(renderer: QSvgRenderer, size: QSize, ratio: float) -> QPixmap:
    pixmap = _blank(size, ratio)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.Antialiasing)
    renderer.render(painter, QRectF(0, 0, size.width(), size.height()))
    painter.end()
    return pixmap


def _rounded(size: QSize) -> QPainterPath:
    path = QPainterPath()
    path.addRoundedRect(QRectF(0.5, 0.5, size.width() - 1, size.height() - 1),
                        size.width() * 0.08, size.width() * 0.08)
    return path


def _drawn_face(deck: str, card: str, size: QSize, ratio: float) -> QPixmap:
    """A clean stand-in face: white card, the card's short label in its colour."""
    pixmap = _blank(size, ratio)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.Antialiasing)
    painter.setPen(QPen(QColor("#555"), 1))
    painter.setBrush(QColor("#fffdf7"))
    painter.drawPath(_rounded(size))
    painter.setPen(QColor(cardnames.ink(deck, card)))
    font = QFont()
    font.setBold(True)
    font.setPixelSize(max(10, size.width() // 4))
    painter.setFont(font)
    label = cardnames.short_label(deck, card)
    corner = QRectF(4, 3, size.width() - 8, size.height() * 0.3)
    painter.drawText(corner, Qt.AlignLeft | Qt.AlignTop, label)
    font.setPixelSize(max(12, size.width() // 3))
    painter.setFont(font)
    painter.drawText(QRectF(0, 0, size.width(), size.height()), Qt.AlignCenter, label)
    painter.end()
    return pixmap


def _drawn_back(size: QSize, colour: str, ratio: float) -> QPixmap:
    pixmap = _blank(size, ratio)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.Antialiasing)
    painter.setPen(QPen(QColor("#f5f5f5"), 3))
    painter.setBrush(QColor("#1f4e8c" if colour == "blue" else "#8c1f2b"))
    painter.drawPath(_rounded(size))
    painter.setPen(QPen(QColor(255, 255, 255, 60), 1))
    step = max(6, size.width() // 8)
    for x in range(-size.height(), size.width(), step):
        painter.drawLine(x, 0, x + size.height(), size.height())
    painter.end()
    return pixmap


def _fallback_icon() -> QPixmap:
    size = QSize(64, 64)
    pixmap = _drawn_face("standard", "AS", size, 1.0)
    return pixmap
