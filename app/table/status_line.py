"""The line above your hand: whose turn it is and what they are asked, or a problem.

A problem (a refusal of your own action, a player dropped, the address copied) stays in
view until the game moves on — someone acts, or a new hand is dealt — so it can be
read: redrawing the same position does not write over it.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from .table_data import TableData

_YOUR = re.compile(r"\byour\b")


def for_onlooker(prompt: str) -> str:
    """A prompt says what the player asked should do, to them ("raise your contract");
    said of someone else it is theirs ("Waiting for Mum to raise their contract")."""
    return _YOUR.sub("their", prompt)


def turn_key(data: TableData) -> tuple:
    """What changes when the game moves on: the hand, the actions so far, who is asked."""
    view = data.view
    return (data.hand_number, len(view.get("actions") or []), len(view.get("tricks") or []),
            view.get("phase"), tuple(view.get("to_act") or ()))


class StatusLine(QLabel):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("turnStatus")
        self.setAlignment(Qt.AlignCenter)
        self.setWordWrap(True)  # a hint or a refusal can run longer than the window is wide
        self.problem_at: tuple | None = None  # the turn a problem was shown at

    def show_turn(self, data: TableData, holding: bool) -> None:
        """Whose turn it is — unless a problem was shown at this very turn."""
        if self.problem_at is not None and self.problem_at == turn_key(data):
            return
        self.problem_at = None
        view, names = data.view, data.names()
        to_act, prompt = view.get("to_act") or [], view.get("prompt") or ""
        if holding:
            text, mine = "Hand over — the summary follows (click to see it now)", False
        elif view.get("phase") == "done":
            text, mine = "Hand over", False
        elif data.you in to_act and not data.watching:  # (a coach: the shown hand's player's turn)
            text, mine = f"Your turn — {prompt}", True
        elif to_act:
            who = " and ".join(names[s] for s in to_act if s < len(names))
            text, mine = f"Waiting for {who} to {for_onlooker(prompt)}", False
        else:
            text, mine = "", False
        self._say(text, problem=False, mine=mine)

    def show_problem(self, text: str, data: TableData) -> None:
        """A problem, kept in view until the game moves on."""
        self.problem_at = turn_key(data)
        self._say(text, problem=True)

    def reset(self) -> None:
        """Another session's table (a rejoin after the last one ended): nothing said of
        the last one stays — its problem ("The host stopped answering…") least of all."""
        self.problem_at = None
        self._say("", problem=False, mine=False)

    def show_hint(self, text: str) -> None:
        self._say(f"Hint: {text[:1].upper()}{text[1:]}", problem=False, mine=True)

    def show_waiting(self, text: str) -> None:
        """The deal waits for someone ("Waiting for Dad's shuffle…")."""
        self._say(text, mine=False)

    def _say(self, text: str, problem: bool | None = None, mine: bool | None = None) -> None:
        if text != self.text():
            self.setText(text)
        restyled = False
        for name, value in (("problem", problem), ("mine", mine)):
            if value is not None and self.property(name) != value:
                self.setProperty(name, value)
                restyled = True
        if restyled:  # the style sheet's colours for it, redone on a change only
            self.style().unpolish(self)
            self.style().polish(self)
