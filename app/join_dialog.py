"""Join by address: for networks where the lobby cannot see the host's table (multicast
blocked). The host's table and setup screens show the address to type.

The address is checked as you type (``net.wire.address.parse_address``: a computer's name or
an IPv4/IPv6 address, and a port from 1 to 65535); what is wrong is said under the
field, and Join stays disabled until the address can be used.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from app.fields import field_note, show_note
from net.api import EXAMPLE, AddressError, format_address, parse_address


class TypedJoinDialog(QDialog):
    """A dialog to join by something the host gives a person to type (an address, a
    code): checked as typed by ``parse`` (``error`` says what is wrong, under the
    field); Join stays disabled, and Enter does nothing, until it can be used. An
    ``unfinished`` error (a word half typed) is said only once Join is asked for."""

    def __init__(self, parent: QWidget | None, *, title: str, intro: str, example: str,
                 name: str, accessible: str, parse, error: type[Exception], text: str = "",
                 unfinished: tuple[type[Exception], ...] = ()):
        super().__init__(parent)
        self._parse, self._error, self._unfinished = parse, error, unfinished
        self.setWindowTitle(title)
        self.setMinimumWidth(460)
        layout = QVBoxLayout(self)
        self.intro = QLabel(intro)  # what to type
        self.intro.setWordWrap(True)
        layout.addWidget(self.intro)
        self.field = QLineEdit(text)
        self.field.setObjectName(f"{name}Field")
        self.field.setPlaceholderText(example)
        self.field.setAccessibleName(accessible)
        layout.addWidget(self.field)
        self.problem = field_note()
        self.problem.setObjectName(f"{name}Problem")
        layout.addWidget(self.problem)
        # Room the window has beyond what is said goes here: the intro and the field stay
        # where they are when the note under the field comes and goes.
        layout.addStretch(1)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.join_button = buttons.button(QDialogButtonBox.Ok)
        self.join_button.setText("Join")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.field.textChanged.connect(self._check)
        self._check(text)

    def _check(self, text: str, asked: bool = False) -> bool:
        """Whether ``text`` can be used, the note under the field saying why not (``asked``:
        Join or Enter was pressed)."""
        try:
            self._parse(text)
        except self._error as exc:
            # An empty field is not a mistake yet (just the hint in the placeholder), nor
            # is a word still being typed, until Join is asked for.
            said = bool(text.strip()) and (asked or not isinstance(exc, self._unfinished))
            show_note(self.problem, str(exc) if said else "", True)
            self.join_button.setEnabled(False)
            return False
        show_note(self.problem, "", False)
        self.join_button.setEnabled(True)
        return True

    def accept(self) -> None:
        if self._check(self.field.text(), asked=True):  # Enter in the field with a bad entry: stay
            super().accept()

    def parsed(self):
        return self._parse(self.field.text())


class JoinAddressDialog(TypedJoinDialog):
    def __init__(self, parent: QWidget | None = None, text: str = ""):
        super().__init__(parent, title="Join by address",
                         intro="Type the address the host's Parlour shows on their setup and "
                               f"table screens, for example {EXAMPLE}.",
                         example=EXAMPLE, name="joinAddress", accessible="The host's address",
                         parse=parse_address, error=AddressError, text=text)

    def address(self) -> str:
        """The address as typed, tidied ("host:port", IPv6 in brackets)."""
        return format_address(*self.parsed())
