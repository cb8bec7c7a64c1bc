"""A button's drop-down menu that opens inside the button's window.

Qt opens a button's menu below the button, from its left edge, and keeps it on the
screen only: a button at the window's right edge (the table's *Watchers*) had its menu
open past the window, over whatever lies beside it. ``keep_inside_window`` moves such a
menu as it shows: aligned to the button's right edge instead, and above the button
rather than past the window's bottom; a submenu (``beside``), to its menu's left
instead of its right. ``inside`` is the arithmetic, without Qt's screen.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect
from PySide6.QtWidgets import QMenu, QWidget


def inside(menu: QRect, button: QRect, window: QRect, beside: bool = False) -> QPoint:
    """Where a menu Qt placed at ``menu``, opened from ``button``, goes to stay inside
    ``window`` (all in the screen's coordinates): where it is while it fits; else, past
    the right edge, ending where the button ends (no further left than the window's
    left); past the bottom, just above the button, when there is room above. A submenu
    (``beside``: ``button`` is its menu) goes to its menu's left, and up to fit."""
    x, y = menu.x(), menu.y()
    if menu.right() > window.right():
        x = max((button.left() if beside else button.right() + 1) - menu.width(), window.left())
    if menu.bottom() > window.bottom():
        if beside:
            y = max(window.bottom() + 1 - menu.height(), window.top())
        elif button.top() - menu.height() >= window.top():
            y = button.top() - menu.height()
    return QPoint(x, y)


def on_screen(widget: QWidget) -> QRect:
    """``widget``'s rectangle in the screen's coordinates."""
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


class _KeptInside(QObject):
    """Moves ``menu`` inside ``within``'s window each time it shows."""

    def __init__(self, menu: QMenu, button: QWidget, within: QWidget, beside: bool) -> None:
        super().__init__(menu)
        self.button, self.within, self.beside = button, within, beside
        menu.installEventFilter(self)

    def eventFilter(self, menu, event) -> bool:
        if event.type() == QEvent.Show:
            menu.move(inside(menu.geometry(), on_screen(self.button),
                             on_screen(self.within.window()), self.beside))
        return False


def keep_inside_window(menu: QMenu, button: QWidget, within: QWidget | None = None) -> None:
    """From now on ``menu`` (``button``'s) opens inside ``button``'s window — or, a
    submenu (``button`` its menu), inside the window of ``within`` (the menu's button)."""
    _KeptInside(menu, button, within or button, beside=within is not None)
