"""Does every word fit? ``fit_problems(window)`` lists each visible label, button, check
box or combo box whose text does not fit its widget (font metrics against geometry),
each visible widget that lies outside the window, and each that sticks out of its
parent.

A widget that sticks out of its parent is cut off there, so that is a problem too
(a lobby row whose status line is taller than the row). Text is measured the way the
widget draws it: a label's plain or rich text in its
contents rectangle (wrapped to its width when it word-wraps), a button's or check box's
text in the contents rectangle the style gives it (padding and indicator excluded), a
combo box's current text in its edit field. Widgets inside a scroll area's viewport
(list rows, a text browser's page) scroll into view, so only their text is checked.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import (QAbstractButton, QAbstractScrollArea, QCheckBox, QComboBox, QLabel,
                               QListWidget, QPushButton, QStyle, QStyleOptionButton, QStyleOptionComboBox, QWidget)

from app.table.trick_area import TrickArea

mightBeRichText = GuiQt.mightBeRichText

SLACK = 1  # pixels of rounding
ROW_PADDING = 4  # a list row's padding in the style sheet, at most


def fit_problems(window: QWidget) -> list[str]:
    out = []
    bounds = window.rect()
    for widget in window.findChildren(QWidget):
        if not widget.isVisible() or widget.width() <= 0 or widget.height() <= 0:
            continue
        where = _describe(widget)
        if not _scrolls(widget, window):
            rect = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
            if not bounds.adjusted(-SLACK, -SLACK, SLACK, SLACK).contains(rect):
                out.append(f"{where} at {_box(rect)} is outside the window {_box(bounds)}")
        layout = widget.layout()
        if layout is not None and widget.height() < layout.minimumSize().height() - SLACK \
                and not isinstance(widget, QAbstractScrollArea):
            out.append(f"{where} is {widget.height()}px high, its contents need "
                       f"{layout.minimumSize().height()}: squeezed")
        parent = widget.parentWidget()
        if parent is not None and parent is not window and not _is_viewport(parent) \
                and not parent.rect().adjusted(-SLACK, -SLACK, SLACK, SLACK).contains(widget.geometry()):
            out.append(f"{where} at {_box(widget.geometry())} sticks out of {_describe(parent)} "
                       f"{_box(parent.rect())}: cut off")
        problem = text_problem(widget)
        if problem:
            out.append(f"{where}: {problem}")
    return out


def text_problem(widget: QWidget) -> str | None:
    if isinstance(widget, QLabel):
        return _label(widget)
    if isinstance(widget, QCheckBox):
        return _button(widget, QStyle.SE_CheckBoxContents)
    if isinstance(widget, QPushButton):
        return _button(widget, QStyle.SE_PushButtonContents)
    if isinstance(widget, QComboBox):
        return _combo(widget)
    if isinstance(widget, QListWidget) and widget.wordWrap():
        return _list_rows(widget)
    if isinstance(widget, TrickArea):
        return _trick_captions(widget)
    return None


def _trick_captions(area: TrickArea) -> str | None:
    """The felt's painted captions ("Left-over card, face up", "Taken by …") are drawn
    on one line across the felt: they must not need eliding."""
    metrics = QFontMetrics(area.caption_font())
    room = area.width() - 16
    if area.caption and metrics.horizontalAdvance(area.caption) > room:
        return f"caption {_quote(area.caption)} needs {metrics.horizontalAdvance(area.caption)}px, has {room}"
    # the open cards' caption wraps: each word must fit, and the lines must leave the
    # cards room below them
    for word in area.open_caption.split():
        if metrics.horizontalAdvance(word) > room:
            return f"caption word {word!r} is wider than the felt ({room}px)"
    if area.open_caption_rect(room).height() > area.height() / 3:
        return f"caption {_quote(area.open_caption)} takes more than a third of the felt's height"
    return None


def _list_rows(view: QListWidget) -> str | None:
    """Each wrapped row of a list (the game log) has the height its text needs at the
    row's width (less the rows' padding, ``ROW_PADDING`` each side)."""
    metrics = QFontMetrics(view.font())
    for row in range(view.count()):
        item = view.item(row)
        if view.itemWidget(item) is not None:
            continue  # a row drawn by a widget: that widget is checked itself
        rect = view.visualItemRect(item)
        inner = rect.adjusted(ROW_PADDING, ROW_PADDING, -ROW_PADDING, -ROW_PADDING)
        need = metrics.boundingRect(QRect(0, 0, inner.width(), 100000), Qt.TextWordWrap, item.text())
        if need.height() > inner.height() + SLACK + 2:
            return f"row {_quote(item.text())} needs {need.height()}px high, has {inner.height()}"
    return None


def _label(label: QLabel) -> str | None:
    text = label.text()
    if not text or label.pixmap() is not None and not label.pixmap().isNull():
        return None
    rect = label.contentsRect().adjusted(label.margin(), label.margin(), -label.margin(), -label.margin())
    rich = label.textFormat() == Qt.RichText or (label.textFormat() == Qt.AutoText and mightBeRichText(text))
    if rich:
        doc = QTextDocument()
        doc.setDefaultFont(label.font())
        doc.setDocumentMargin(0)
        doc.setHtml(text)
        if label.wordWrap():
            doc.setTextWidth(rect.width())
        width, height = doc.idealWidth(), doc.size().height()
    else:
        metrics = QFontMetrics(label.font())
        if label.wordWrap():
            box = metrics.boundingRect(QRect(0, 0, rect.width(), 100000), Qt.TextWordWrap, text)
            width, height = box.width(), box.height()
        else:
            lines = text.split("\n")
            width = max(metrics.horizontalAdvance(line) for line in lines)
            height = metrics.height() * len(lines)
    wrapped = label.wordWrap() and height > QFontMetrics(label.font()).height() * 1.5
    if width > rect.width() + SLACK:
        return f"text {_quote(text)} needs {width:.0f}px wide, has {rect.width()}"
    if height > rect.height() + SLACK + (2 if wrapped else 0):  # wrapped lines' leading may round up
        return f"text {_quote(text)} needs {height:.0f}px high, has {rect.height()}"
    return None


def _button(button: QAbstractButton, element) -> str | None:
    text = button.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
    if not text:
        return None
    option = QStyleOptionButton()
    button.initStyleOption(option)
    rect = button.style().subElementRect(element, option, button)
    metrics = QFontMetrics(button.font())
    lines = text.split("\n")  # (a button may say its text in two lines)
    width = max(metrics.horizontalAdvance(line) for line in lines)
    height = metrics.height() + (len(lines) - 1) * metrics.lineSpacing()
    if width > rect.width() + SLACK:
        return f"text {_quote(text)} needs {width}px wide, has {rect.width()}"
    if height > rect.height() + SLACK + 4:
        return f"text {_quote(text)} needs {height}px high, has {rect.height()}"
    return None


def _combo(combo: QComboBox) -> str | None:
    text = combo.currentText()
    if not text:
        return None
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    rect = combo.style().subControlRect(QStyle.CC_ComboBox, option, QStyle.SC_ComboBoxEditField, combo)
    width = QFontMetrics(combo.font()).horizontalAdvance(text)
    if width > rect.width() + SLACK:
        return f"current choice {_quote(text)} needs {width}px wide, has {rect.width()}"
    return None


def _is_viewport(widget: QWidget) -> bool:
    """A scroll area's viewport: what it holds moves in and out of view by design."""
    area = widget.parentWidget()
    return isinstance(area, QAbstractScrollArea) and area.viewport() is widget


def _scrolls(widget: QWidget, window: QWidget) -> bool:
    """Inside a scroll area's viewport (its content moves; the area itself is checked)."""
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent, QAbstractScrollArea) and parent.viewport() is not None \
                and (parent.viewport() is widget or parent.viewport().isAncestorOf(widget)):
            return True
        parent = parent.parentWidget()
    return False


def _describe(widget: QWidget) -> str:
    name = widget.objectName() or widget.accessibleName()
    return f"{type(widget).__name__}{f' {name!r}' if name else ''}"


def _box(rect: QRect) -> str:
    return f"({rect.x()},{rect.y()} {rect.width()}×{rect.height()})"


def _quote(text: str) -> str:
    return repr(text if len(text) <= 70 else text[:67] + "...")
