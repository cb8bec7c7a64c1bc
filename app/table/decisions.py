"""The decision panel above your hand: whatever the game asks of you right now.

It is rebuilt from the session's ``legal`` list each time the state changes, so it only
ever offers what the rules allow, one panel per kind of decision: bid or pass (with
trump for a bid that names it), raise or keep, "Got it", bury N and name trump, discard
N, name trump, turn the left-over card up or down, and an ace's high/low when — and only
when — it must be declared. What the panels say about the game — trump names and keys,
the notes on a pass or on naming trump, whether a bid counts tricks — is the title's own
description (``GameInfo``: trumps and decisions), never its id.

Keyboard: digits type a bid (Enter sends it), P passes, letters pick a trump, H/L
declare an ace, Enter takes the highlighted default, Esc clears.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QButtonGroup, QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton,
                               QVBoxLayout, QWidget)

from app import cardnames
from app.titles import Presentation
from engine.info import DecisionInfo, GameInfo


def _count_word(n: int) -> str:
    return {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}.get(n, str(n))


def _button(text: str, name: str, accessible: str | None = None) -> QPushButton:
    button = QPushButton(text)
    button.setObjectName(name)
    button.setAccessibleName(accessible or text)
    button.setMinimumHeight(34)
    button.setCursor(Qt.PointingHandCursor)
    return button


class DecisionPanel(QFrame):
    act = Signal(dict)  # an action in hand-record form, without the seat
    selection_wanted = Signal(int)  # ask the hand to let you pick N cards (0: stop)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("decisionPanel")
        self.outer = QVBoxLayout(self)
        self.outer.setContentsMargins(12, 8, 12, 8)
        self.body: QWidget | None = None
        self.buttons: dict[str, QPushButton] = {}
        self.actions: dict[str, dict] = {}  # a button's key -> the move it makes
        self.default: QPushButton | None = None
        self.typed = ""
        self.typed_label: QLabel | None = None
        self.kind = ""
        self.legal: list[dict] = []
        self.look: Presentation | None = None  # the game being played, and how it reads
        self.hand: list[str] = []
        self.selection: list[str] = []
        self.choice = None  # trump chosen before a bid/bury
        self.pending_ace: str | None = None
        self.selecting: int | None = None  # the count last asked of the hand (None: not yet)
        self.hide()

    # -- building ------------------------------------------------------------------------
    def _reset(self, title: str, kind: str) -> QVBoxLayout:
        if self.body is not None:
            self.body.hide()
            self.body.deleteLater()
        self.body = QWidget(self)
        self.outer.addWidget(self.body)
        layout = QVBoxLayout(self.body)
        layout.setContentsMargins(0, 0, 0, 0)
        heading = QLabel(title)
        heading.setObjectName("decisionTitle")
        heading.setWordWrap(True)
        layout.addWidget(heading)
        self.buttons, self.actions, self.default, self.typed, self.kind = {}, {}, None, "", kind
        self.typed_label = None
        self.setAccessibleName(title)
        self.show()
        return layout

    def _choice_row(self, key: str, values, label_of, on_pick) -> QHBoxLayout:
        """A row of checkable buttons of which one is picked (trump for a Horseshoes
        opening bid, the trump colour with a Rook bury); each named ``key-value``."""
        row = QHBoxLayout()
        group = QButtonGroup(self.body)
        for value in values:
            label = label_of(value)
            button = _button(label, f"{key}-{value}", f"Trump {label}")
            button.setCheckable(True)
            group.addButton(button)
            button.clicked.connect(lambda _=False, v=value: on_pick(v))
            self._add(row, button, f"{key}-{value}", None)
        return row

    def _add(self, row: QHBoxLayout | QGridLayout, button: QPushButton, key: str, action: dict | None,
             pos: tuple | None = None) -> QPushButton:
        self.buttons[key] = button
        if action is not None:
            self.actions[key] = dict(action)
            button.clicked.connect(lambda _=False, a=action: self._send(a))
        if pos is not None:
            row.addWidget(button, *pos)
        else:
            row.addWidget(button)
        return button

    def _send(self, action: dict) -> None:
        self.act.emit(dict(action))

    def point_at(self, action: dict) -> bool:
        """Put the keyboard focus on the button that makes ``action`` (a hint's move): it
        shows its focus ring, and Enter takes it. With a trump to choose first (the
        opening bid of Horseshoes, the trump named with a bury), that trump's button.
        False: no such button here."""
        key = next((k for k, made in self.actions.items() if made == action), None)
        if key is None and "trump" in action:
            key = next((k for k in (f"trump-{action['trump']}", f"colour-{action['trump']}")
                        if k in self.buttons), None)
        button = self.buttons.get(key) if key is not None else None
        if button is None or not button.isEnabled():
            return False
        button.setFocus()
        return True

    def clear(self) -> None:
        if self.body is not None:
            self.body.hide()
            self.body.deleteLater()
            self.body = None
        self.kind, self.buttons, self.actions, self.default, self.pending_ace = "", {}, {}, None, None
        self.hide()

    @property
    def info(self) -> GameInfo:
        return self.look.info

    def decision(self, kind: str) -> DecisionInfo | None:
        return next((d for d in self.info.decisions if d.kind == kind), None)

    def trump_keys(self) -> dict[str, str]:
        """The letter that picks each trump from the keyboard: {"G": "G", "N": "NT"}."""
        return {t.key.upper(): t.id for t in self.info.trumps if t.key}

    def show_for(self, look: Presentation, view: dict, legal: list[dict], hand: list[str]) -> None:
        """Offer the decision ``legal`` describes (plays are the hand's business)."""
        self.look, self.legal, self.hand = look, legal, hand
        keys = {k for entry in legal for k in entry}
        if not legal or "play" in keys:
            if self.kind not in ("ace",):
                self.clear()
            self._stop_selecting()
            return
        if "ack" in keys:
            self._widow()
        elif "raise" in keys:
            self._raise(view)
        elif "bury" in keys:
            self._bury(legal[0])
        elif "discard" in keys:
            self._discard(legal[0])
        elif "leftover" in keys:
            self._leftover()
        elif "bid" in keys:
            self._bid(view)
        elif "trump" in keys:
            self._name_trump()
        if "bury" not in keys and "discard" not in keys:
            self._stop_selecting()

    def _want_selection(self, count: int) -> None:
        self.selecting = count
        self.selection_wanted.emit(count)

    def _stop_selecting(self) -> None:
        """Tell the hand once that no cards are to be picked (not at every card played)."""
        if self.selecting != 0:
            self._want_selection(0)

    # -- the decisions ---------------------------------------------------------------------
    def _bids(self) -> list[int]:
        return sorted({e["bid"] for e in self.legal if "bid" in e})

    def _bid(self, view: dict) -> None:
        amounts = self._bids()
        offered = {e["trump"] for e in self.legal if e.get("trump")}
        trumps = [t.id for t in self.info.trumps if t.id in offered]
        if trumps:
            title = "Your bid — you bid first, so you also name trump. Choose trump, then your bid."
        elif not self.info.contract:
            title = "Your bid: how many tricks will you take?"
        else:
            high = view.get("high_bid")
            title = f"Your bid (standing bid {high})" if high is not None else "Your bid — you may open"
        layout = self._reset(title, "bid")
        self.choice = None
        if trumps:
            layout.addLayout(self._choice_row(
                "trump", trumps, lambda t: cardnames.trump_name(self.info, t), self._pick_trump))
        grid = QGridLayout()
        # One row where it fits — the felt and your cards keep their room (Rook's 17 bids
        # fit at 1024 px with less padding); more than that in rows of 12.
        per_row = len(amounts) if len(amounts) <= 17 else 12
        for i, amount in enumerate(amounts):
            button = _button(str(amount), f"bid-{amount}", f"Bid {amount}")
            button.setMinimumWidth(46)
            button.setProperty("compact", len(amounts) > 14)
            if trumps:
                button.setEnabled(False)
                button.clicked.connect(lambda _=False, a=amount: self._send({"bid": a, "trump": self.choice}))
                self._add(grid, button, f"bid-{amount}", None, (i // per_row, i % per_row))
            else:
                self._add(grid, button, f"bid-{amount}", {"bid": amount}, (i // per_row, i % per_row))
        layout.addLayout(grid)
        footer = QHBoxLayout()
        if any("pass" in e for e in self.legal):
            button = _button("Pass", "pass")
            self._add(footer, button, "pass", {"pass": True})
            button.setProperty("role", "secondary")
        self.typed_label = QLabel("Type a number and press Enter" + (", or P to pass" if "pass" in self.buttons else ""))
        if "pass" in self.buttons:
            final = (self.decision("pass") or DecisionInfo("pass", "")).note
            if final:
                self.buttons["pass"].setToolTip(final)
                self.pass_note = QLabel(final)
                self.pass_note.setObjectName("note")
                footer.addWidget(self.pass_note)
        self.typed_label.setObjectName("typedHint")
        footer.addWidget(self.typed_label, 1)
        layout.addLayout(footer)

    def _pick_trump(self, trump: str) -> None:
        self.choice = trump
        for key, button in self.buttons.items():
            if key.startswith("bid-"):
                button.setEnabled(True)
            if key == f"trump-{trump}":
                button.setChecked(True)

    def _raise(self, view: dict) -> None:
        contract = (view.get("contract") or {}).get("amount")
        layout = self._reset(f"You won the auction at {contract}. Raise your contract before the "
                             "widow is shown, or keep it.", "raise")
        grid = QGridLayout()
        keep = _button(f"Keep {contract}", "keep", f"Keep the contract at {contract}")
        self._add(grid, keep, "keep", {"raise": None}, (0, 0))
        self.default = keep
        raises = sorted(e["raise"] for e in self.legal if e.get("raise") is not None)
        for i, amount in enumerate(raises, start=1):
            self._add(grid, _button(str(amount), f"raise-{amount}", f"Raise to {amount}"), f"raise-{amount}",
                      {"raise": amount}, (i // 9, i % 9))
        layout.addLayout(grid)

    def _widow(self) -> None:
        layout = self._reset("The widow is turned up for everyone. Have a look, then say Got it.", "ack")
        row = QHBoxLayout()
        button = _button("Got it", "got-it")
        self._add(row, button, "got-it", {"ack": True})
        row.addStretch(1)
        self.default = button
        layout.addLayout(row)

    def _bury(self, template: dict) -> None:
        count = template.get("bury", 5)
        layout = self._reset(f"You took the widow. Pick {count} cards to bury, then name trump.", "bury")
        self.choice = None
        self.selection = []
        layout.addLayout(self._choice_row(
            "colour", template.get("trump") or [], lambda t: cardnames.trump_name(self.info, t),
            self._pick_colour))
        self.confirm = _button(f"Bury {count} and name trump", "confirm")
        self.confirm.clicked.connect(self._confirm_bury)
        self.buttons["confirm"] = self.confirm
        self.default = self.confirm
        layout.addWidget(self.confirm)
        self.need = count
        self._update_confirm()
        self._want_selection(count)

    def _pick_colour(self, colour: str) -> None:
        self.choice = colour
        self.buttons[f"colour-{colour}"].setChecked(True)
        self._update_confirm()

    def _confirm_bury(self) -> None:
        if len(self.selection) == self.need and self.choice:
            self._send({"bury": list(self.selection), "trump": self.choice})

    def _discard(self, template: dict) -> None:
        count = template.get("discard", 2)
        layout = self._reset(f"You took the kitty. Pick {count} cards to discard face down "
                             "(their count points go to whoever takes the last trick).", "discard")
        self.selection = []
        self.confirm = _button(f"Discard {count}", "confirm")
        self.confirm.clicked.connect(lambda: len(self.selection) == self.need
                                     and self._send({"discard": list(self.selection)}))
        self.buttons["confirm"] = self.confirm
        self.default = self.confirm
        layout.addWidget(self.confirm)
        self.need = count
        self.choice = "-"
        self._update_confirm()
        self._want_selection(count)

    def set_selection(self, cards: list[str]) -> None:
        self.selection = list(cards)
        self._update_confirm()

    def _update_confirm(self) -> None:
        if self.kind not in ("bury", "discard"):
            return
        ready = len(self.selection) == self.need and bool(self.choice)
        self.confirm.setEnabled(ready)
        if self.kind == "bury":
            colour = cardnames.trump_name(self.info, self.choice) if self.choice else "…"
            self.confirm.setText(f"Bury {len(self.selection)}/{self.need} and make {colour} trump")
        else:
            self.confirm.setText(f"Discard {len(self.selection)}/{self.need}")

    def _leftover(self) -> None:
        layout = self._reset("You deal: turn the left-over card face up (everyone sees it) or leave "
                             "it face down. Nobody has seen it — you choose blind.", "leftover")
        row = QHBoxLayout()
        self._add(row, _button("Face up", "leftover-up", "Left-over card face up"), "leftover-up",
                  {"leftover": "up"})
        self._add(row, _button("Face down", "leftover-down", "Left-over card face down"), "leftover-down",
                  {"leftover": "down"})
        layout.addLayout(row)

    def _name_trump(self) -> None:
        options = [e["trump"] for e in self.legal if "trump" in e]
        suits = [t for t in options if t != "NT"]
        one_of = f"one of the {_count_word(len(suits))} suits" if len(suits) > 1 else "a suit"
        layout = self._reset(f"Name trump: {one_of}" + (" or No Trump." if "NT" in options else "."), "trump")
        counts = {trump: 0 for trump in suits}
        for card in self.hand:
            suit = self.info.card(card).suit
            if suit in counts:
                counts[suit] += 1
        grid = QGridLayout()
        for i, trump in enumerate(options):
            name = cardnames.trump_name(self.info, trump)
            if trump == "NT":
                label, spoken = name, name
            else:
                label = f"{name}  ({counts[trump]} held)"
                spoken = f"Trump {name}, you hold {counts[trump]}"
            self._add(grid, _button(label, f"trump-{trump}", spoken), f"trump-{trump}", {"trump": trump},
                      (i // 4, i % 4))
        layout.addLayout(grid)
        said = (self.decision("trump") or DecisionInfo("trump", "")).note
        if said:
            note = QLabel(said)
            note.setObjectName("note")
            note.setWordWrap(True)
            layout.addWidget(note)

    def ask_ace(self, card: str) -> None:
        """The ace must be declared: show High / Low for it."""
        name = cardnames.spoken(self.info, card)
        layout = self._reset(self.look.ace_prompt(name), "ace")
        self.pending_ace = card
        row = QHBoxLayout()
        high = _button("High", "ace-high", f"Play {name} high")
        self._add(row, high, "ace-high", {"play": card, "ace": "high"})
        self._add(row, _button("Low", "ace-low", f"Play {name} low"), "ace-low", {"play": card, "ace": "low"})
        cancel = _button("Cancel", "ace-cancel")
        cancel.setProperty("role", "secondary")
        cancel.clicked.connect(self.clear)
        self.buttons["ace-cancel"] = cancel
        row.addWidget(cancel)
        layout.addLayout(row)

    # -- keyboard ------------------------------------------------------------------------
    def handle_key(self, key: int, text: str) -> bool:
        """Keys typed anywhere on the table; True when the panel used it."""
        if not self.isVisible() or not self.kind:
            return False
        letter = text.upper()
        if self.kind == "ace" and letter in ("H", "L"):
            self.buttons["ace-high" if letter == "H" else "ace-low"].click()
            return True
        if key == Qt.Key_Escape:
            if self.kind == "ace":
                self.clear()
            self._set_typed("")
            return True
        if self.kind in ("bid", "raise", "trump") and text.isdigit():
            self._set_typed(self.typed + text)
            return True
        if key == Qt.Key_Backspace and self.typed:
            self._set_typed(self.typed[:-1])
            return True
        if key in (Qt.Key_Return, Qt.Key_Enter):
            return self._enter()
        return self._letter(letter)

    def _letter(self, letter: str) -> bool:
        if self.kind == "bid" and letter == "P" and "pass" in self.buttons:
            self.buttons["pass"].click()
        elif self.kind == "bid" and f"trump-{self.trump_keys().get(letter)}" in self.buttons:
            self.buttons[f"trump-{self.trump_keys()[letter]}"].click()
        elif self.kind == "bury" and f"colour-{self.trump_keys().get(letter)}" in self.buttons:
            self.buttons[f"colour-{self.trump_keys()[letter]}"].click()
        elif self.kind == "trump" and f"trump-{self.trump_keys().get(letter)}" in self.buttons:
            self.buttons[f"trump-{self.trump_keys()[letter]}"].click()
        elif self.kind == "raise" and letter == "K":
            self.buttons["keep"].click()
        elif self.kind == "leftover" and letter in ("U", "D"):
            self.buttons["leftover-up" if letter == "U" else "leftover-down"].click()
        else:
            return False
        return True

    def _enter(self) -> bool:
        if self.typed:
            prefix = {"bid": "bid-", "raise": "raise-", "trump": "trump-"}[self.kind]
            button = self.buttons.get(prefix + self.typed)
            if button is not None and button.isEnabled():
                self._set_typed("")
                button.click()
            else:
                self._set_typed(self.typed, error=True)
            return True
        if self.default is not None and self.default.isEnabled():
            self.default.click()
            return True
        return False

    def _set_typed(self, typed: str, error: bool = False) -> None:
        self.typed = typed
        if self.typed_label is None:
            return
        if error:
            self.typed_label.setText(f"{typed} isn't one of the choices — try again")
        elif typed:
            self.typed_label.setText(f"Typed {typed} — Enter to confirm, Esc to clear")
        else:
            self.typed_label.setText("Type a number and press Enter")
