"""The host's yes or no when a new key asks for an away player's seat.

A host session reports a "readmit" event when someone with a key the table has never
seen asks for the seat of a player who is away — a player who lost their key (a new
computer, a reinstall), or someone who only knows their name. Nothing is given without
the host person's explicit yes here: the dialog names the seat and both fingerprints, so
the player can read their new one aloud. Yes is ``session.set_seat(seat, "human",
player=new fingerprint)``; no is ``session.turn_away(new fingerprint)``.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


class ReadmitDialog(QMessageBox):
    def __init__(self, event: dict, parent: QWidget | None = None):
        name, seat = event.get("name") or "a player", int(event.get("seat", 0))
        asker = event.get("new_name") or "Someone"
        if asker == name:  # the point of the question: is it really them?
            asker = f"Someone calling themselves {name}"
        super().__init__(QMessageBox.Question, "Give the seat to a new key?",
                         f"{asker} is asking for {name}'s seat (seat {seat + 1}) with a key "
                         "this table has not seen.", parent=parent)
        self.setObjectName("readmitDialog")
        self.setInformativeText(
            f"{name}'s key: {event.get('old_fingerprint', '?')}\n"
            f"The new key: {event.get('new_fingerprint', '?')}\n\n"
            f"Say yes only if {name} lost their key and reads you that new fingerprint. "
            "Everyone at the table will see that the seat changed keys.")
        self.give_button = self.addButton("Give the seat", QMessageBox.AcceptRole)
        self.keep_button = self.addButton(f"Keep it for {name}", QMessageBox.RejectRole)
        self.setDefaultButton(self.keep_button)


def ask_readmit(session, event: dict, parent: QWidget | None = None) -> ReadmitDialog:
    """Show the question (not blocking the event loop) and pass the answer to ``session``."""
    dialog = ReadmitDialog(event, parent)
    fingerprint = event.get("new_fingerprint")

    def answered(button) -> None:
        if dialog.buttonRole(button) == QMessageBox.AcceptRole:
            session.set_seat(event["seat"], "human", player=fingerprint)
        elif callable(getattr(session, "turn_away", None)):
            session.turn_away(fingerprint)
    dialog.buttonClicked.connect(answered)
    dialog.open()
    return dialog
