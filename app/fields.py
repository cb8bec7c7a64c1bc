"""Text fields that say what is wrong right under themselves, as you type.

A name longer than fits is refused with a sentence at the limit rather than silently cut
(a ``maxLength`` drops the end of a pasted name without a word); a field whose text
cannot be used keeps its OK button disabled and says why.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QLineEdit, QWidget

# The longest display name: it has to fit a seat panel, the lobby's host line and the
# summary's team names.
NAME_LIMIT = 24
# The longest table name: the lobby row and the setup screen's title.
TABLE_NAME_LIMIT = 40


def field_note(parent: QWidget | None = None) -> QLabel:
    """The line under a field: a hint, or (``problem``) why the text cannot be used."""
    note = QLabel(parent)
    note.setObjectName("fieldNote")
    note.setWordWrap(True)
    note.hide()
    return note


def show_note(note: QLabel, text: str, problem: bool) -> None:
    note.setText(text)
    note.setProperty("problem", problem)
    window = note.window()
    # Polished first: a dialog not shown yet has the default (light) palette, not the
    # dark green its parent's style sheet gives it.
    window.ensurePolished()
    light = window.palette().color(QPalette.Window).lightness() > 128  # unstyled dialog
    colour = ("#b3261e" if light else "#ffb4a8") if problem else ("#3a4a40" if light else "#d7e8dc")
    note.setStyleSheet(f"color: {colour};" + (" font-weight: bold;" if problem else ""))
    note.setVisible(bool(text))
    if text:
        _room_for(note)


def _room_for(note: QLabel) -> None:
    """Grow the dialog the note is in (never shrink it) so the note is not cut off."""
    window = note.window()
    if window is note or not window.isVisible():
        return  # not shown yet: its first size will include the note
    layout = window.layout()
    if layout is None:
        return
    layout.activate()
    wanted = window.sizeHint().expandedTo(window.minimumSizeHint())
    if layout.hasHeightForWidth():  # wrapped labels: their height at this width
        wanted.setHeight(max(wanted.height(), layout.totalHeightForWidth(window.width())))
    if wanted.height() > window.height() or wanted.width() > window.width():
        window.resize(window.size().expandedTo(wanted))


def guard_length(edit: QLineEdit, note: QLabel, limit: int, noun: str,
                 usable: Callable[[bool], None], required: bool = True) -> Callable[[], bool]:
    """Watch ``edit``: at ``limit`` characters say that is the most, past it refuse (the
    note says by how much, ``usable(False)``); empty is refused too when ``required``.
    Returns a check of the current text."""
    def check(_text: str = "") -> bool:
        length = len(edit.text().strip())
        if length > limit:
            show_note(note, f"Too long: {length} characters, and a {noun} has at most {limit}.", True)
        elif length == limit:
            show_note(note, f"{limit} characters: the most a {noun} can have.", False)
        else:
            show_note(note, "", False)
        ok = length <= limit and (length > 0 or not required)
        usable(ok)
        return ok
    edit.textChanged.connect(check)
    check()
    return check
