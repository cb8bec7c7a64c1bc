"""Playing across houses, in the app: the host's "Invite from another house" and the
guest's "Join by code" (``net.houses``).

* ``InviteDialog``: the host asks its session for a code for a seat and shows it in
  large type, with Copy and New code, and what became of it ("They're in", "someone
  typed it wrong: make a new one", "can't reach the invitation service …"). A code used
  with nobody come through it (something that is not Parlour, a relay out of reach) is
  replaced at once, with a sentence saying why. A server's address, when it matters, is
  on a details line under the sentence, never in it.
* ``JoinCodeDialog``: the code as the host reads it out ("seven guitarist revenge" or
  ``7-guitarist-revenge``), checked as it is typed (``net.houses.parse_code``) — each
  word against the code words, in its place, once they are loaded and once the word is
  whole (a word half typed is not called wrong until Join is pressed) — with the words that
  may stand where one is being typed offered in a list as you type (loaded in the
  background: the word list comes with the wormhole library, imported only now). The
  list opens below the note under the field, and closes once the word is whole, so
  Return with a whole code joins at once; Esc closes the list, a second Esc the dialog.
"""

from __future__ import annotations

import re
import threading
from html import escape

from PySide6.QtCore import QObject, QPoint, QRect, QStringListModel, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QCompleter, QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout,
                               QWidget)

from app.join_dialog import TypedJoinDialog
from net.api import CodeError, CodeWords, WordUnfinished, code_words, parse_code

EXAMPLE = "7-guitarist-revenge"


class InviteDialog(QDialog):
    """A code for ``seat`` (``session.invite``) — or, ``seat`` None, for a watcher
    (``session.invite_watcher``) — and what happens to it."""

    def __init__(self, session, bridge, seat: int | None, where: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.session, self.seat = session, seat
        self.code = ""
        self.note = ""  # why this code replaced the last one (said until they type it)
        self.setWindowTitle("Invite from another house" if seat is not None else "Invite a watcher")
        self.setMinimumWidth(520)
        layout = QVBoxLayout(self)
        who = (f"They sit {escape(where)}." if seat is not None else
               "They watch the table: they see what everyone sees, and cannot play.")
        intro = QLabel(f"Read this code to the {'player' if seat is not None else 'person'} in "
                       f"another house (on the phone, say): they choose <b>Join by code</b> in "
                       f"Parlour's lobby and type it. {who} The code works once.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.code_label = QLabel("Making a code…")
        self.code_label.setObjectName("inviteCode")
        self.code_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.code_label.setAlignment(Qt.AlignCenter)
        # Large type, gold (theme.py ``QLabel#inviteCode``: the window's style sets every
        # label's size, so a font set here would not show).
        layout.addWidget(self.code_label)
        self.status = QLabel()
        self.status.setObjectName("inviteStatus")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.details = QLabel()
        self.details.setObjectName("inviteDetails")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.details.hide()
        layout.addWidget(self.details)
        row = QHBoxLayout()
        self.copy_button = QPushButton("Copy")
        self.copy_button.setObjectName("copyCode")
        self.copy_button.setEnabled(False)
        self.new_button = QPushButton("New code")
        self.new_button.setObjectName("newCode")
        self.new_button.setProperty("role", "secondary")
        self.new_button.setEnabled(False)
        close = QPushButton("Close")
        close.setProperty("role", "secondary")
        row.addWidget(self.copy_button)
        row.addWidget(self.new_button)
        row.addStretch(1)
        row.addWidget(close)
        layout.addLayout(row)
        self.copy_button.clicked.connect(self._copy)
        self.new_button.clicked.connect(self.new_code)
        close.clicked.connect(self.accept)
        bridge.invite.connect(self.on_invite)
        self.new_code()

    def new_code(self) -> None:
        self.code = ""
        self.code_label.setText("Making a code…")
        self.status.setText(self.note)
        self._show_details("")
        self.copy_button.setEnabled(False)
        self.new_button.setEnabled(False)
        if self.seat is None:
            self.session.invite_watcher()
        else:
            self.session.invite(self.seat)

    def on_invite(self, event: dict) -> None:
        if event.get("seat") != self.seat or bool(event.get("watch")) != (self.seat is None):
            return
        state = event.get("state")
        if state == "waiting":
            self.code = event.get("code", "")
            self.code_label.setText(self.code)
            self.status.setText(f"{self.note} Here is a new code to read out." if self.note
                                else "Waiting for them to type it…")
            self.note = ""
            self.copy_button.setEnabled(True)
            self.copy_button.setText("Copy")
        elif event.get("code") and event.get("code") != self.code:
            return  # an older code's news
        elif state == "joining":
            self.status.setText("They typed the code. Connecting…")
            self._show_details("")  # (the last code's problem is not this one's)
        elif state == "used":
            self.status.setText("They're in. You can close this.")
            self._show_details("")
        elif state == "spent":
            # The right code was typed, so this is no guess at it: a new one at once.
            self.note = event.get("message") or "That code was used, but nobody has joined."
            self.new_code()
            self._show_details(event.get("details", ""))
            return
        elif state in ("burnt", "failed"):
            self.code_label.setText("—")
            self.status.setText(event.get("message") or ("That code no longer works: make a new one."
                                                         if state == "burnt" else "No code could be made."))
            self._show_details(event.get("details", ""))
            self.copy_button.setEnabled(False)
        self.new_button.setEnabled(True)
        self._fit()

    def _show_details(self, details: str) -> None:
        self.details.setText(details)
        self.details.setVisible(bool(details))
        self._fit()

    def _fit(self) -> None:
        """Grow to what is said now (a longer sentence would otherwise be cut off)."""
        self.adjustSize()

    def _copy(self) -> None:
        if self.code:
            QGuiApplication.clipboard().setText(self.code)
            self.copy_button.setText("Copied")


class _Words(QObject):
    loaded = Signal(object)  # CodeWords, or None when they could not be loaded


class JoinCodeDialog(TypedJoinDialog):
    def __init__(self, parent: QWidget | None = None, text: str = "", load_words: bool = True):
        self.code_words: CodeWords | None = None  # until loaded: the words are checked by shape
        super().__init__(parent, title="Join by code",
                         intro="Type the code the host reads out to you — a number and words, "
                               f"for example {EXAMPLE}. Spaces between the words are fine.",
                         example=EXAMPLE, name="joinCode", accessible="The host's code",
                         parse=lambda typed: parse_code(typed, self.code_words, typing=True),
                         error=CodeError, unfinished=(WordUnfinished,), text=text)
        self.words = QStringListModel([])
        self.completer = QCompleter(self.words, self)
        self.completer.setCaseSensitivity(Qt.CaseInsensitive)
        self.completer.setWidget(self.field)
        self.completer.activated.connect(self._complete)
        self.field.textEdited.connect(self._suggest)
        if load_words:
            self._load_words()

    def _load_words(self) -> None:
        self._loader = _Words()
        self._loader.loaded.connect(self.set_words)

        def load():
            try:
                words = code_words()
            except Exception:  # noqa: BLE001 - no completion; the session checks the words
                words = None
            self._loader.loaded.emit(words)
        threading.Thread(target=load, name="parlour-code-words", daemon=True).start()

    def set_words(self, words: CodeWords | None) -> None:
        """The code words are here: offered as you type, and each word typed checked."""
        if words is None:
            return
        self.code_words = words
        self.words.setStringList(words.everything())
        self._check(self.field.text())

    def _typing(self) -> tuple[str, int]:
        """The word being typed (the last) and its place after the number (0: first)."""
        text = self.field.text()
        cut = max(text.rfind("-"), text.rfind(" "))
        before = [w for w in re.split(r"[\s\-]+", text[:cut + 1]) if w]
        return text[cut + 1:], max(len(before) - 1, 0)

    def _suggest(self, text: str) -> None:
        """Offer the words that may stand where one is being typed — not once it is whole
        (the list would offer the word itself, and take the Return that should join)."""
        self._check(text)  # the note under the field first: the list opens below it
        word, place = self._typing()
        if self.code_words is None or len(word) < 2 or word.isdigit():
            self.completer.popup().hide()
            return
        offered = self.code_words.for_place(place)
        if self.words.stringList() != offered:
            self.words.setStringList(offered)
        self.completer.setCompletionPrefix(word)
        if self.completer.completionCount() and word.lower() not in offered:
            self.completer.complete(self._below_the_note())
        else:
            self.completer.popup().hide()

    def _below_the_note(self) -> QRect:
        """Where the word list opens, in the field's coordinates: under the field and the
        note under it, so the words that say what to type stay in sight (the list covers
        Join and Cancel only while a word is half typed, when Join cannot be used)."""
        bottom = self.field.height()
        self.layout().activate()  # (the note just shown or hidden: where it is now)
        if self.problem.isVisible():
            under = self.problem.mapToGlobal(QPoint(0, self.problem.height()))
            bottom = self.field.mapFromGlobal(under).y()
        return QRect(QPoint(0, 0), QPoint(self.field.width() - 1, bottom))  # (the row below)

    def _complete(self, word: str) -> None:
        text = self.field.text()
        cut = max(text.rfind("-"), text.rfind(" "))
        self.field.setText(text[:cut + 1] + word)

    def code(self) -> str:
        return self.parsed()
