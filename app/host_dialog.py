"""Choosing the game: title, ruleset, mode and the ruleset's options.

The choices are generated from what each title says about itself (``engine.info``: its
name, rulesets, modes and options, with the names a host reads), so a new title,
ruleset or option appears here without touching the app. Used both to host a network table and to set
up a game against the computer (then without a table name, and with the computer
players' level and speed). The window remembers the last choices of each
(``Settings.last_game``) and opens on them.
"""

from __future__ import annotations

from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout,
                               QHBoxLayout, QLabel, QLineEdit, QSpinBox, QVBoxLayout, QWidget)

from app.fields import TABLE_NAME_LIMIT, field_note, guard_length, show_note
from engine import TITLES, rulesets, title_info
from engine.info import OptionInfo
from net.api import MAX_WATCHERS, PRIVATE_DEAL

# How an option is labelled in the dialog where its ruleset name says more than fits
# (the mode already shows it is a three-player option).
OPTION_LABELS = {"leftover": "Left-over card"}
# Computer players' levels; the session maps each to a bot (engine.bots.make_bot).
BOT_LEVELS = (("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard"), ("expert", "Expert"))
DEFAULT_LEVEL = "normal"
# How long a computer player takes over a move at a table against the computer: a
# factor on the window's pause per card.
SPEEDS = (("relaxed", "Relaxed", 1.7), ("normal", "Normal", 1.0), ("quick", "Quick", 0.4))
SPEED_FACTORS = {key: factor for key, _name, factor in SPEEDS}
MOST_WATCHERS = 16  # the highest cap the dialog offers (each watcher is one more link to feed)


class HostDialog(QDialog):
    """``remembered``: the choices made last time (``settings()`` of an earlier dialog);
    anything in it the engine no longer offers is ignored."""

    def __init__(self, default_name: str = "", local: bool = False, parent: QWidget | None = None,
                 remembered: dict | None = None):
        super().__init__(parent)
        self.local = local
        self.setWindowTitle("Play against the computer" if local else "Host a table")
        self.setMinimumWidth(560)
        layout = QVBoxLayout(self)
        self.form = QFormLayout()
        layout.addLayout(self.form)
        # An empty name is not quietly some other name: the field shows, and the note says,
        # the one the table then has.
        self.default_table_name = f"{default_name}'s table" if default_name else "Parlour table"
        self.name_edit = QLineEdit(self.default_table_name)
        self.name_edit.setPlaceholderText(self.default_table_name)
        self.name_edit.setAccessibleName("Table name")
        self.name_note = field_note()
        if not local:
            self.form.addRow("Table name", self.name_edit)
            self.form.addRow("", self.name_note)
        self.game_box = QComboBox()
        self.game_box.setAccessibleName("Game")
        for title in TITLES:
            self.game_box.addItem(title_info(title).name, title)
        self.form.addRow("Game", self.game_box)
        self.ruleset_box = QComboBox()
        self.ruleset_box.setAccessibleName("Rules")
        self.form.addRow("Rules", self.ruleset_box)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setObjectName("note")
        self.form.addRow("", self.summary)
        self.mode_box = QComboBox()
        self.mode_box.setAccessibleName("Players")
        self.form.addRow("Players", self.mode_box)
        self.option_rows: list[QWidget] = []
        self.option_widgets: dict[str, QWidget] = {}
        self.option_infos: dict[str, OptionInfo] = {}
        self.level_box = QComboBox()
        self.level_box.setObjectName("botLevel")
        self.level_box.setAccessibleName("Computer players' level")
        for level, name in BOT_LEVELS:
            self.level_box.addItem(name, level)
        self.level_box.setCurrentIndex(self.level_box.findData(DEFAULT_LEVEL))
        self.speed_box = QComboBox()
        self.speed_box.setObjectName("botSpeed")
        self.speed_box.setAccessibleName("Computer players' speed")
        for speed, name, _factor in SPEEDS:
            self.speed_box.addItem(name, speed)
        self.speed_box.setCurrentIndex(self.speed_box.findData("normal"))
        if local:  # the game's options go above these rows (see _build_options)
            self.form.addRow("Computer players", self.level_box)
            self.form.addRow("How fast they play", self.speed_box)
        if not local:
            self.form.addRow("Watchers", self._watching())
            layout.addWidget(self._private_deal())
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Ok).setText("Choose seats" if local else "Open the table")
        buttons.button(QDialogButtonBox.Ok).setObjectName("hostOk")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        ok = buttons.button(QDialogButtonBox.Ok)
        self.name_ok = (guard_length(self.name_edit, self.name_note, TABLE_NAME_LIMIT, "table name",
                                     ok.setEnabled, required=False) if not local else lambda: True)
        if not local:
            self.name_edit.textChanged.connect(self._say_empty_name)
        self.game_box.currentIndexChanged.connect(self._game_changed)
        self.mode_box.currentIndexChanged.connect(self._mode_changed)
        self.ruleset_box.currentIndexChanged.connect(self._ruleset_changed)
        self._game_changed()
        if remembered:
            self.restore(remembered)

    def _private_deal(self) -> QWidget:
        """The "Private deal" box: the mental-poker deal, so no computer — the host's
        included — learns another person's cards before they are played."""
        box = QWidget()
        rows = QVBoxLayout(box)
        rows.setContentsMargins(0, 6, 0, 0)
        self.private_box = QCheckBox("Private deal: nobody sees your cards, not even the host")
        self.private_box.setObjectName("privateDeal")
        self.private_box.setChecked(PRIVATE_DEAL)  # on unless the person turns it off
        note = QLabel("The players' computers shuffle and deal together, so each learns only "
                      "its own cards. Each deal takes a moment longer. (The host's computer "
                      "still holds its computer players' cards.)")
        note.setWordWrap(True)
        note.setObjectName("note")
        self.private_box.setToolTip(note.text())
        rows.addWidget(self.private_box)
        rows.addWidget(note)
        return box

    def _watching(self) -> QWidget:
        """*Let people watch*, and how many at once (the host changes both at the table too)."""
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        self.watch_box = QCheckBox("Let people watch, at most")
        self.watch_box.setObjectName("letWatch")
        self.watch_box.setChecked(True)
        self.watch_box.setToolTip("People who do not play may watch the table as everyone sees it")
        self.cap_box = QSpinBox()
        self.cap_box.setObjectName("watcherCap")
        self.cap_box.setAccessibleName("How many may watch at once")
        self.cap_box.setRange(1, MOST_WATCHERS)
        self.cap_box.setValue(MAX_WATCHERS)
        self.watch_box.toggled.connect(self.cap_box.setEnabled)
        line.addWidget(self.watch_box)
        line.addWidget(self.cap_box)
        line.addWidget(QLabel("at once"))
        line.addStretch(1)
        return row

    def restore(self, choices: dict) -> None:
        """Select the remembered game, ruleset, mode, options, level and speed."""
        def pick(box: QComboBox, value) -> None:
            index = box.findData(value)
            if value is not None and index >= 0:
                box.setCurrentIndex(index)
        pick(self.game_box, choices.get("game"))
        pick(self.ruleset_box, choices.get("ruleset"))
        pick(self.mode_box, choices.get("mode"))
        for option_id, value in (choices.get("options") or {}).items():
            widget = self.option_widgets.get(option_id)
            if isinstance(widget, QCheckBox) and isinstance(value, bool):
                widget.setChecked(value)
            elif isinstance(widget, QComboBox):
                index = next((i for i in range(widget.count()) if widget.itemData(i) == value
                              and type(widget.itemData(i)) is type(value)), -1)
                if index >= 0:
                    widget.setCurrentIndex(index)
        if not self.local and isinstance(choices.get("private_deal"), bool):
            self.private_box.setChecked(choices["private_deal"])
        if not self.local and isinstance(choices.get("watching"), bool):
            self.watch_box.setChecked(choices["watching"])
        if not self.local and isinstance(choices.get("max_watchers"), int):
            self.cap_box.setValue(choices["max_watchers"])
        pick(self.level_box, choices.get("level"))
        pick(self.speed_box, choices.get("speed"))

    # -- dependent choices -----------------------------------------------------------------
    def select_game(self, game: str) -> None:
        self.game_box.setCurrentIndex(self.game_box.findData(game))

    def _game_changed(self) -> None:
        self.ruleset_box.blockSignals(True)
        self.ruleset_box.clear()
        for ruleset in rulesets(self.game_box.currentData()).values():
            self.ruleset_box.addItem(ruleset.name, ruleset.id)
        self.ruleset_box.blockSignals(False)
        self._ruleset_changed()

    def ruleset(self):
        return rulesets(self.game_box.currentData())[self.ruleset_box.currentData()]

    def _ruleset_changed(self) -> None:
        ruleset = self.ruleset()
        self.summary.setText(ruleset.summary)
        self.ruleset_box.setVisible(self.ruleset_box.count() > 1)
        self.form.labelForField(self.ruleset_box).setVisible(self.ruleset_box.count() > 1)
        self.mode_box.clear()
        mode_names = {m.id: m.name for m in title_info(self.game_box.currentData()).modes}
        for mode in ruleset.modes:
            self.mode_box.addItem(mode_names.get(mode, mode), mode)
        default_mode = ruleset.extra.get("default_mode") if ruleset.extra else None
        if default_mode and self.mode_box.findData(default_mode) >= 0:
            self.mode_box.setCurrentIndex(self.mode_box.findData(default_mode))
        elif self.mode_box.findData("four") >= 0:
            self.mode_box.setCurrentIndex(self.mode_box.findData("four"))
        self.mode_box.setVisible(bool(ruleset.modes))
        self.form.labelForField(self.mode_box).setVisible(bool(ruleset.modes))
        self._build_options(ruleset)
        self._mode_changed()

    def _build_options(self, ruleset) -> None:
        for row in self.option_rows:
            self.form.removeRow(row)
        self.option_rows, self.option_widgets = [], {}
        described = next(r for r in title_info(self.game_box.currentData()).rulesets if r.id == ruleset.id)
        self.option_infos = {option.id: option for option in described.options}
        for option in described.options:
            widget = self._option_widget(option)
            widget.setToolTip(option.description)
            self.option_widgets[option.id] = widget
            self.option_rows.append(widget)
            row = self.form.getWidgetPosition(self.level_box)[0] if self.local else -1
            label = "" if isinstance(widget, QCheckBox) else OPTION_LABELS.get(option.id, option.name)
            self.form.insertRow(row, label, widget)

    def _option_widget(self, option: OptionInfo) -> QWidget:
        if {choice.value for choice in option.choices} == {False, True}:
            box = QCheckBox(option.name)
            box.setObjectName(f"option-{option.id}")
            box.setChecked(bool(option.default))
            return box
        combo = QComboBox()
        combo.setObjectName(f"option-{option.id}")
        combo.setAccessibleName(option.name)
        for choice in option.choices:
            combo.addItem(choice.name, choice.value)
        combo.setCurrentIndex([choice.value for choice in option.choices].index(option.default))
        return combo

    def _mode_changed(self) -> None:
        """Hide options that do nothing in the chosen mode (the left-over card needs three)."""
        mode = self.mode_box.currentData()
        for option_id, widget in self.option_widgets.items():
            wanted = self.option_infos[option_id].modes
            self.form.setRowVisible(widget, not wanted or mode in wanted)
        self._fit()

    def _fit(self) -> None:
        """Grow or shrink to what the chosen game shows (a longer description, an
        option row more or less), so nothing is cut off."""
        self.layout().activate()
        self.resize(max(self.width(), self.minimumWidth()), self.heightForWidth(self.width())
                    if self.hasHeightForWidth() else self.sizeHint().height())

    # -- the answer --------------------------------------------------------------------------
    def options(self) -> dict:
        out = {}
        for option_id, widget in self.option_widgets.items():
            out[option_id] = widget.isChecked() if isinstance(widget, QCheckBox) else widget.currentData()
        return out

    def _say_empty_name(self, text: str) -> None:
        if not text.strip():
            show_note(self.name_note, f"Left empty, the table is called “{self.default_table_name}” "
                                      "in everyone's list.", False)

    def accept(self) -> None:
        if self.name_ok():  # Enter with a table name that does not fit: stay
            super().accept()

    def settings(self) -> dict:
        """``{"game", "ruleset", "mode", "options", "name"}`` as the session wants it,
        with ``level`` and ``speed`` for the computer players of a local table, and
        ``private_deal``, ``watching`` and ``max_watchers`` for a network one."""
        ruleset = self.ruleset()
        out = {"game": self.game_box.currentData(), "ruleset": ruleset.id,
               "mode": self.mode_box.currentData() if ruleset.modes else None,
               "options": self.options(), "name": self.name_edit.text().strip() or self.default_table_name}
        if self.local:
            out.update(level=self.level_box.currentData(), speed=self.speed_box.currentData())
        else:
            out.update(private_deal=self.private_box.isChecked(),
                       watching=self.watch_box.isChecked(), max_watchers=self.cap_box.value())
        return out
