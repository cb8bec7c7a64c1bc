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


class JoinAddressDialog(QDialog):
    def __init__(self, parent: QWidget | None = None, text: str = ""):
        super().__init__(parent)
        self.setWindowTitle("Join by address")
        self.setMinimumWidth(460)
        layout = QVBoxLayout(self)
        intro = QLabel("Type the address the host's Parlour shows on their setup and table "
                       f"screens, for example {EXAMPLE}.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.field = QLineEdit(text)
        self.field.setObjectName("joinAddressField")
        self.field.setPlaceholderText(EXAMPLE)
        self.field.setAccessibleName("The host's address")
        layout.addWidget(self.field)
        self.problem = field_note()
        self.problem.setObjectName("joinAddressProblem")
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.join_button = buttons.button(QDialogButtonBox.Ok)
        self.join_button.setText("Join")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.field.textChanged.connect(self._check)
        self._check(text)

    def _check(self, text: str) -> bool:
        try:
            parse_address(text)
        except AddressError as exc:
            # An empty field is not a mistake yet: just the hint in the placeholder.
            show_note(self.problem, str(exc) if text.strip() else "", True)
            self.join_button.setEnabled(False)
            return False
        show_note(self.problem, "", False)
        self.join_button.setEnabled(True)
        return True

    def accept(self) -> None:
        if self._check(self.field.text()):  # Enter in the field with a bad address: stay
            super().accept()

    def address(self) -> str:
        """The address as typed, tidied ("host:port", IPv6 in brackets)."""
        return format_address(*parse_address(self.field.text()))
