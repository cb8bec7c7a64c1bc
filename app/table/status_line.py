"""The line above your hand: whose turn it is and what they are asked, or a problem."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from .table_data import TableData


class StatusLine(QLabel):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("turnStatus")
        self.setAlignment(Qt.AlignCenter)
        self.setWordWrap(True)  # a hint or a refusal can run longer than the window is wide

    def show_turn(self, data: TableData, holding: bool) -> None:
        """Whose turn it is."""
        view, names = data.view, data.names()
        to_act, prompt = view.get("to_act") or [], view.get("prompt") or ""
        if holding:
            text, mine = "Hand over — the summary follows (click to see it now)", False
        elif view.get("phase") == "done":
            text, mine = "Hand over", False
        elif data.you in to_act:
            text, mine = f"Your turn — {prompt}", True
        elif to_act:
            who = " and ".join(names[s] for s in to_act if s < len(names))
            text, mine = f"Waiting for {who} to {prompt}", False
        else:
            text, mine = "", False
        self._say(text, problem=False, mine=mine)

    def show_problem(self, text: str, data: TableData) -> None:
        """A problem (``data``: the position it was shown at)."""
        self._say(text, problem=True)

    def show_hint(self, text: str) -> None:
        self._say(f"Hint: {text[:1].upper()}{text[1:]}", problem=False, mine=True)

    def show_waiting(self, text: str) -> None:
        """The deal waits for someone ("Waiting for Dad's shuffle…")."""
        self._say(text, mine=False)

    def _say(self, text: str, problem: bool | None = None, mine: bool | None = None) -> None:
        self.setText(text)
        if problem is not None:
            self.setProperty("problem", problem)
        if mine is not None:
            self.setProperty("mine", mine)
        self.style().unpolish(self)
        self.style().polish(self)
