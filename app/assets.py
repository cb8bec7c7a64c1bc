"""Card faces, backs and icons: found on disk, rendered from SVG, cached as pixmaps.

Assets live in ``assets/`` at the repository root during development and in the bundle
folder of a PyInstaller bundle; ``asset_root`` is the one place that knows. Which folder
a game's faces come from, and what each card says, is the title's own description
(``GameInfo.deck``): a ``Deck`` here. A missing SVG never breaks the table: ``CardArt``
draws a plain face with the card's short label in its ink instead, so a half-generated
art folder (or a new title with no art yet) still gives a playable game.

``reading_width`` says how much of a face, from its left edge, holds every word and
number on it (the elements the art names ``read-…``): what a fanned hand must leave in
view of each card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtSvg import QSvgRenderer

from engine.info import CardInfo, GameInfo

ACCESSIBLE = "accessible"  # the art variant drawn for colour-blind players, where a deck has one
READ_ID = re.compile(r'\bid="(read-[^"]*)"')  # what a person reads on a face (assets/make_cards.py)
DRAWN_READING = 0.75  # a drawn stand-in face: its label is centred, about half the width


def asset_root() -> Path:
    """The ``assets`` folder beside ``app/``. In a PyInstaller bundle too: its bootloader
    sets each module's ``__file__`` to where the module sits inside the bundle folder,
    and the bundle keeps ``assets/`` beside ``app/`` there (packaging/parlour.spec)."""
    return Path(__file__).resolve().parent.parent / "assets"


def card_file(art: str, card: str) -> Path:
    """The SVG for ``card`` in the art folder ``art`` (``DeckInfo.art``: "rook", "standard"…)."""
    return asset_root() / "cards" / art / f"{card.replace('/', '-')}.svg"


def back_file(colour: str = "blue") -> Path:
    return asset_root() / "cards" / f"back-{colour}.svg"


def app_icon() -> QIcon:
    path = asset_root() / "icons" / "parlour.svg"
    if path.exists():
        return QIcon(str(path))
    return QIcon(_fallback_icon())


@dataclass(frozen=True)
class Deck:
    """The cards a table draws: the art folder their faces come from, and what each
    card is (its label and ink for a drawn face, its words for a tooltip)."""

    art: str
    cards: tuple[CardInfo, ...]

    @cached_property
    def by_name(self) -> dict[str, CardInfo]:
        return {card.name: card for card in self.cards}

    def card(self, name: str) -> CardInfo:
        """The card named ``name``; KeyError for a card of another deck."""
        return self.by_name[name]

    @cached_property
    def _hash(self) -> int:
        return hash((self.art, self.cards))

    def __hash__(self) -> int:  # (hashed at every state by the caches keyed by a deck: once is enough)
        return self._hash


def deck_for(info: GameInfo, accessible: bool = False) -> Deck:
    """The deck a game is drawn with: its art, or the accessible variant where the
    player asked for it and the deck has one."""
    art = info.deck.art_variants.get(ACCESSIBLE, info.deck.art) if accessible else info.deck.art
    return Deck(art, info.deck.cards)


@lru_cache(maxsize=64)
def _renderer(path: str) -> QSvgRenderer | None:
    renderer = QSvgRenderer(path)
    return renderer if renderer.isValid() else None


@lru_cache(maxsize=16)
def reading_width(deck: Deck) -> float:
    """The fraction of a card's width, from its left edge, that holds every word and
    number on any face of ``deck`` — the elements its art names ``read-…`` (their
    turned copies at the bottom right have no id, and are not counted). A card missing
    its art is drawn (``_drawn_face``): ``DRAWN_READING``."""
    widest = 0.0
    for card in deck.cards:
        path = card_file(deck.art, card.name)
        renderer = _renderer(str(path)) if path.exists() else None
        if renderer is None:
            widest = max(widest, DRAWN_READING)
            continue
        width = renderer.viewBoxF().width()
        for name in READ_ID.findall(path.read_text()):
            bounds = renderer.transformForElement(name).mapRect(renderer.boundsOnElement(name))
            widest = max(widest, bounds.right() / width)
    return min(widest, 1.0) if widest else DRAWN_READING


class CardArt:
    """Pixmaps of card faces and backs at a given size, cached per (deck, card, size)."""

    def __init__(self) -> None:
        self._cache: dict[tuple, QPixmap] = {}

    def face(self, deck: Deck, card: str, size: QSize, ratio: float = 1.0) -> QPixmap:
        key = ("face", deck.art, card, size.width(), size.height(), ratio)
        if key not in self._cache:
            path = card_file(deck.art, card)
            renderer = _renderer(str(path)) if path.exists() else None
            self._cache[key] = (_render(renderer, size, ratio) if renderer
                                else _drawn_face(deck.card(card), size, ratio))
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


def _drawn_face(card: CardInfo, size: QSize, ratio: float) -> QPixmap:
    """A clean stand-in face: white card, the card's short label in its ink."""
    pixmap = _blank(size, ratio)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.Antialiasing)
    painter.setPen(QPen(QColor("#555"), 1))
    painter.setBrush(QColor("#fffdf7"))
    painter.drawPath(_rounded(size))
    painter.setPen(QColor(card.ink))
    font = QFont()
    font.setBold(True)
    font.setPixelSize(max(10, size.width() // 4))
    painter.setFont(font)
    label = card.label
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


# The app's icon where its SVG is missing: an ace of spades, drawn.
ICON_CARD = CardInfo("AS", "Ace of spades", "A\u2660", "S", False, 14, "#222222", 0)


def _fallback_icon() -> QPixmap:
    return _drawn_face(ICON_CARD, QSize(64, 64), 1.0)


@lru_cache(maxsize=4)
def lock_icon(locked: bool = True, size: int = 20) -> QIcon:
    """A padlock, shut (the private deal) or open (a hand the host's computer knows),
    drawn in the table's cream so it reads on the dark bar."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.Antialiasing)
    ink = QColor("#fdf6e3")
    unit = size / 20
    painter.setPen(QPen(ink, 2.2 * unit))
    shackle = QPainterPath()
    left, right, top = 6 * unit, 14 * unit, 2.5 * unit
    shackle.moveTo(left, 10 * unit)
    shackle.lineTo(left, 6.5 * unit)
    shackle.arcTo(QRectF(left, top, right - left, 8 * unit), 180, -180)
    shackle.lineTo(right, 10 * unit if locked else 6.5 * unit)
    if not locked:  # swung open: the shackle lifted off its right side
        shackle.translate(0, -1.5 * unit)
    painter.drawPath(shackle)
    painter.setPen(Qt.NoPen)
    painter.setBrush(ink)
    painter.drawRoundedRect(QRectF(3.5 * unit, 9 * unit, 13 * unit, 9.5 * unit), 2 * unit, 2 * unit)
    painter.setBrush(QColor("#174a30"))  # the keyhole, in the felt's green
    painter.drawEllipse(QRectF(8.8 * unit, 11.5 * unit, 2.4 * unit, 2.4 * unit))
    painter.end()
    return QIcon(pixmap)
