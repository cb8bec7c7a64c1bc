"""The player's preferences (QSettings) and the dialogs that edit them.

``Settings`` is a thin typed wrapper so the rest of the app never spells a key twice.
On first start ``FirstStartDialog`` asks for a display name, prefilled from the system
user, because a family table reads better with "Grandma" than with "user1".
"""

from __future__ import annotations

import getpass
import json
import os

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout,
                               QLabel, QLineEdit, QVBoxLayout, QWidget)

from app.fields import NAME_LIMIT, field_note, guard_length, show_note

# Card widths in pixels; the height follows the 5:7 shape of a playing card.
CARD_SIZES = {"small": 64, "medium": 84, "large": 108}
# Milliseconds for a card to glide and for a finished trick to stay in view.
ANIMATION_SPEEDS = {"off": 0, "brisk": 140, "relaxed": 320}


def system_user_name() -> str:
    """A friendly default name from the login name ("jane.doe" → "Jane")."""
    try:
        login = getpass.getuser()
    except Exception:  # no login name in some sandboxes; any default will do
        login = os.environ.get("USER", "")
    first = login.replace("_", ".").split(".")[0].strip()
    return first.capitalize() if first else "Player"


class Settings:
    """Typed access to the stored preferences."""

    def __init__(self, store: QSettings | None = None):
        self.store = store or QSettings("Parlour", "Parlour")
        # Each preference as read last (every change is written through ``_set``): the
        # table reads its card size and deck at every state, and a QSettings read is dear.
        self._read: dict[str, object] = {}

    @classmethod
    def at(cls, path: str) -> "Settings":
        """Settings kept in an INI file (tests, portable installs)."""
        return cls(QSettings(path, QSettings.IniFormat))

    def _get(self, key: str, default, kind=str):
        if key in self._read:
            return self._read[key]
        value = self._read[key] = self._parsed(key, default, kind)
        return value

    def _set(self, key: str, value) -> None:
        self.store.setValue(key, value)
        self._read.pop(key, None)

    def _parsed(self, key: str, default, kind):
        value = self.store.value(key, default)
        if kind is bool and isinstance(value, str):  # INI files store bools as text
            return value.lower() in ("true", "1", "yes")
        try:
            return kind(value)
        except (TypeError, ValueError):
            return default

    @property
    def display_name(self) -> str:
        return self._get("display_name", "")

    @display_name.setter
    def display_name(self, name: str) -> None:
        self._set("display_name", name.strip())

    @property
    def has_name(self) -> bool:
        return bool(self.display_name)

    @property
    def animation(self) -> str:
        value = self._get("animation", "brisk")
        return value if value in ANIMATION_SPEEDS else "brisk"

    @animation.setter
    def animation(self, value: str) -> None:
        self._set("animation", value)

    @property
    def animation_ms(self) -> int:
        return ANIMATION_SPEEDS[self.animation]

    @property
    def colour_blind_rook(self) -> bool:
        return self._get("colour_blind_rook", False, bool)

    @colour_blind_rook.setter
    def colour_blind_rook(self, value: bool) -> None:
        self._set("colour_blind_rook", bool(value))

    @property
    def card_size(self) -> str:
        value = self._get("card_size", "medium")
        return value if value in CARD_SIZES else "medium"

    @card_size.setter
    def card_size(self, value: str) -> None:
        self._set("card_size", value)

    @property
    def card_width(self) -> int:
        return CARD_SIZES[self.card_size]

    # -- remembered between runs --------------------------------------------------------
    def last_game(self, local: bool) -> dict:
        """The choices last made in the game dialog ("Play against the computer" when
        ``local``, else "Host a table"): game, ruleset, mode, options, level, speed."""
        text = self._get(f"last_game_{'local' if local else 'host'}", "")
        try:
            value = json.loads(text) if text else {}
        except ValueError:  # a hand-edited or damaged file: start from the defaults
            return {}
        return value if isinstance(value, dict) else {}

    def set_last_game(self, local: bool, choices: dict) -> None:
        self._set(f"last_game_{'local' if local else 'host'}", json.dumps(choices, sort_keys=True))

    @property
    def window_geometry(self) -> QByteArray | None:
        """The main window's size and position when it was last closed."""
        value = self.store.value("window_geometry")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    @window_geometry.setter
    def window_geometry(self, value: QByteArray) -> None:
        self._set("window_geometry", value)

    @property
    def mailbox(self) -> str:
        """Across houses: the invitation service (mailbox) address; "" for the default."""
        return self._get("houses/mailbox", "")

    @mailbox.setter
    def mailbox(self, value: str) -> None:
        self._set("houses/mailbox", value.strip())

    @property
    def relay(self) -> str:
        """Across houses: the transit relay address; "" for the default."""
        return self._get("houses/relay", "")

    @relay.setter
    def relay(self, value: str) -> None:
        self._set("houses/relay", value.strip())

    def apply_houses(self) -> None:
        """Tell the houses (``net.houses``, a light module) which servers to use."""
        from net.api import configure_houses
        configure_houses(self.mailbox, self.relay)

    def sync(self) -> None:
        self.store.sync()


class FirstStartDialog(QDialog):
    """Asks for the name other players will see; prefilled so Enter is enough."""

    def __init__(self, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.settings = settings
        self.setWindowTitle("Welcome to Parlour")
        self.setMinimumWidth(420)
        layout = QVBoxLayout(self)
        intro = QLabel("What should the others at the table call you?")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.name_edit = QLineEdit(settings.display_name or system_user_name()[:NAME_LIMIT])
        self.name_edit.setAccessibleName("Display name")
        self.name_edit.selectAll()
        layout.addWidget(self.name_edit)
        self.name_note = field_note()
        layout.addWidget(self.name_note)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok)
        self.ok_button = buttons.button(QDialogButtonBox.Ok)
        self.ok_button.setText("Let's play")
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)
        self.name_ok = guard_length(self.name_edit, self.name_note, NAME_LIMIT, "name",
                                    self.ok_button.setEnabled)

    def accept(self) -> None:
        if not self.name_ok():  # Enter with a name that does not fit: stay
            return
        self.settings.display_name = self.name_edit.text()
        self.settings.sync()
        super().accept()


class SettingsDialog(QDialog):
    """Name, animation speed, card size, Rook's colour-blind card set, and the servers
    used to play across houses (empty: the public ones)."""

    def __init__(self, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.settings = settings
        self.setWindowTitle("Settings")
        form = QFormLayout(self)
        self.name_edit = QLineEdit(settings.display_name or system_user_name()[:NAME_LIMIT])
        self.name_edit.setAccessibleName("Display name")
        form.addRow("Your name", self.name_edit)
        self.name_note = field_note()
        form.addRow("", self.name_note)
        self.animation_box = self._combo(ANIMATION_SPEEDS, settings.animation, "Animation speed")
        form.addRow("Animations", self.animation_box)
        self.size_box = self._combo(CARD_SIZES, settings.card_size, "Card size")
        form.addRow("Card size", self.size_box)
        size_note = field_note()
        size_note.setText("Every number on a card stays in full view, so a wider window "
                          "gives larger cards in your hand.")
        size_note.show()
        form.addRow("", size_note)
        self.colour_blind = QCheckBox("Use colour-blind friendly Rook cards (shapes on each colour)")
        self.colour_blind.setChecked(settings.colour_blind_rook)
        form.addRow(self.colour_blind)
        from net.api import DEFAULT_MAILBOX, DEFAULT_RELAY
        self.mailbox_edit = QLineEdit(settings.mailbox)
        self.mailbox_edit.setObjectName("mailboxField")
        self.mailbox_edit.setPlaceholderText(DEFAULT_MAILBOX)
        self.mailbox_edit.setAccessibleName("Invitation service address, for players in another house")
        form.addRow("Invitation service", self.mailbox_edit)
        self.relay_edit = QLineEdit(settings.relay)
        self.relay_edit.setObjectName("relayField")
        self.relay_edit.setPlaceholderText(DEFAULT_RELAY)
        self.relay_edit.setAccessibleName("Relay address, for players in another house")
        form.addRow("Relay", self.relay_edit)
        self.houses_note = field_note()
        self.houses_note.setObjectName("housesNote")
        form.addRow("", self.houses_note)
        buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.save_button = buttons.button(QDialogButtonBox.Save)
        self.name_ok = guard_length(self.name_edit, self.name_note, NAME_LIMIT, "name",
                                    self.save_button.setEnabled)
        self.mailbox_edit.textChanged.connect(lambda _t: self._houses_ok())
        self.relay_edit.textChanged.connect(lambda _t: self._houses_ok())

    def _houses_ok(self) -> bool:
        """Whether the servers' addresses can be used (empty: the default ones)."""
        from net.api import check_mailbox, check_relay
        problem = check_mailbox(self.mailbox_edit.text()) or check_relay(self.relay_edit.text())
        show_note(self.houses_note, problem or "", bool(problem))
        self.save_button.setEnabled(not problem and self.name_ok())
        return not problem

    def _combo(self, choices: dict, current: str, accessible: str) -> QComboBox:
        box = QComboBox()
        for key in choices:
            box.addItem(key.capitalize(), key)
        box.setCurrentIndex(list(choices).index(current))
        box.setAccessibleName(accessible)
        return box

    def accept(self) -> None:
        if not self.name_ok() or not self._houses_ok():  # nothing saved yet
            return
        if self.name_edit.text().strip():
            self.settings.display_name = self.name_edit.text()
        self.settings.animation = self.animation_box.currentData()
        self.settings.card_size = self.size_box.currentData()
        self.settings.colour_blind_rook = self.colour_blind.isChecked()
        self.settings.mailbox = self.mailbox_edit.text()
        self.settings.relay = self.relay_edit.text()
        self.settings.apply_houses()
        self.settings.sync()
        super().accept()
