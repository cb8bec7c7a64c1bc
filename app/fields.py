"""Text fields that say what is wrong right under themselves, as you type.

A name longer than fits is refused with a sentence at the limit rather than silently cut
(a ``maxLength`` drops the end of a pasted name without a word); a field whose text
cannot be used keeps its OK button disabled and says why.
"""

from __future__ import annotations

from collections.abc import Callable

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
    note.setStyleSheet("color: #ffb4a8; font-weight: bold;" if problem else "color: #d7e8dc;")
    note.setVisible(bool(text))


def guard_length(edit: QLineEdit, note: QLabel, limit: int, noun: str,
                 usable: Callable[[bool], None], required: bool = True) -> Callable[[], bool]:
    """Watch ``edit``: at ``limit`` characters say that is the most, past it refuse (the
    note says by how much, ``usable(False)``); empty is refused too when ``required``.
    Returns a check of the current text."""
    def check(_text: str = "") -> bool:
        length = len(edit.text().strip())
        if length > limit:
            show_note(note, f"A {noun} can have at most {limit} characters; this one has "
                            f"{length}. Shorten it to go on.", True)
        elif length == limit:
            show_note(note, f"{limit} characters is the most a {noun} can have.", False)
        else:
            show_note(note, "", False)
        ok = length <= limit and (length > 0 or not required)
        usable(ok)
        return ok
    edit.textChanged.connect(check)
    check()
    return check
