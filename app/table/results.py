"""The end of a hand and of a game: the summary over the table, after the last trick's
moment.

When a hand ends its last trick stays in view for ``last_trick_hold_ms`` (or until a
click or a key), then the summary shows what was bid and taken, the arithmetic, the
cards hidden until now and the scores; at the end of a game, who won.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import QObject, QTimer, Signal

from . import viewmodel as vm
from .overlays import SummaryCurtain
from .table_data import TableData

LAST_TRICK_HOLD_MS = 1500  # the hand's last trick stays in view this long before the summary


class Results(QObject):
    summary_ready = Signal()  # the hand summary (not game over) is on screen

    def __init__(self, data: TableData, summary: SummaryCurtain, deck: Callable, refresh: Callable[[], None]):
        """``deck()``: the deck cards are drawn with; ``refresh()`` redraws the table."""
        super().__init__(summary)
        self.data, self.summary, self.deck, self.refresh = data, summary, deck, refresh
        self.last_trick_hold_ms = LAST_TRICK_HOLD_MS
        self.holding = False  # the last trick is on show; the summary waits
        self.after_hold: list[Callable[[], None]] = []  # what shows once the hold ends
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.release_hold)

    def hand_over(self, event: dict) -> None:
        """Bank the scores, then show the summary once the last trick has been seen."""
        data = self.data
        data.scores = list(event.get("scores") or [])
        # every hand of the game, from the table's log (this screen may have seen fewer:
        # back after a restart, a game continued); an older session's event: those seen
        history = event.get("history")
        data.history = [list(h) for h in history] if history else data.history + [list(data.scores)]
        result = event.get("result") or {}
        breakdown = event.get("breakdown")
        names = data.names()
        info = data.info
        sides = vm.side_names(info, names) if info else names
        hidden_lines, hidden_cards = vm.hidden_cards_text(info, names, breakdown) if info else ([], [])
        arithmetic = vm.score_explanation(info, names, breakdown) if info else []
        self.summary.summary.show_result(
            self.headline(result, event.get("forfeit")), sides, result.get("taken") or [], result.get("score") or [],
            data.scores, data.history, info.target if info else None,
            info.taken_unit.capitalize() if info else "Took",
            arithmetic="<br>".join(escape(line) for line in arithmetic),
            hidden=("<br>".join(escape(line) for line in hidden_lines), self.deck(), hidden_cards))
        caption, cards = vm.last_trick_cards(data.view, names)
        self.summary.summary.show_last_trick(caption, self.deck(), cards)
        self.summary.last_trick_button.setVisible(bool(cards))
        # The hand the header has been showing, not a count of summaries this client saw
        # (a player who joined late has a shorter history).
        title = f"Hand {data.hand_number or len(data.history)} — summary"
        self.after_hold.append(lambda: self.summary.show_hand(title))
        if self.last_trick_hold_ms > 0 and data.view.get("tricks") and not data.view.get("trick"):
            self.holding = True
            self.timer.start(self.last_trick_hold_ms)
            self.refresh()
        else:
            self.release_hold()

    def game_over(self, event: dict, is_host: bool) -> None:
        data = self.data
        names = vm.side_names(data.info, data.names()) if data.info else data.names()
        winner = event.get("winner")
        scores = event.get("scores") or data.scores
        who = names[winner] if winner is not None and winner < len(names) else "Nobody"
        short = who.split(" (")[0]
        verb = "win" if data.info and vm.partnerships(data.info) else "wins"
        members = who[len(short):].strip(" ()")
        line = ", ".join(f"{n.split(' (')[0]} {vm.points(s)}" for n, s in zip(names, scores))
        headline = f"{members + ' take' if members else short + ' takes'} the game. Final score: {line}."
        title = f"Game over — {short} {verb}!"

        def show() -> None:
            self.summary.summary.headline.setText(headline)
            self.summary.show_game_over(title, is_host)
        self.after_hold.append(show)
        if not self.holding:
            self.release_hold()

    def headline(self, result: dict, forfeit: dict | None = None) -> str:
        data, look = self.data, self.data.look
        names = data.names()
        if forfeit:  # a player's proven cheat ended the hand: whose, and why
            return vm.forfeit_sentence(data.info, names, forfeit.get("seat"), forfeit.get("did", "")) \
                + " It is not dealt again; it is scored as the rules say for a forfeit."
        if result.get("thrown_in"):
            return "Everyone passed — the hand is thrown in and the deal moves left."
        who = look.bidder(data.view) if look else None
        amount = look.contract_amount(data.view) if look else None
        if result.get("made") is None or who is None:
            lower_wins = data.info is not None and data.info.lower_wins
            return "Penalty points this hand (lower is better)." if lower_wins else "Hand over."
        side_index = vm.side_of(data.info, who)
        side = vm.side_names(data.info, names)[side_index].split(" (")[0]
        taken = (result.get("taken") or [0, 0])[side_index]
        verdict = "made it" if result["made"] else "were set"
        return f"{names[who]} bid {amount}: {side} took {taken} and {verdict}."

    def release_hold(self) -> None:
        """End the last trick's moment: show what waited for it (the summary, game over)."""
        self.timer.stop()
        self.holding = False
        waiting, self.after_hold = self.after_hold, []
        for show in waiting:
            show()
        if waiting:
            self.refresh()
            if self.summary.isVisible() and not self.summary.game_over:
                self.summary_ready.emit()

    def drop_hold(self) -> None:
        """Forget a summary still waiting (the player moved on, or left)."""
        self.timer.stop()
        self.holding = False
        self.after_hold = []
