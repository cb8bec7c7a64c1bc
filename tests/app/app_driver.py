"""Playing a hand through the GUI the way a person would: clicking cards and buttons
(``Clicker``) or only pressing keys (``Typist``). Each looks at what the table offers
and picks the first sensible thing, so hands are deterministic for a given seed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

TABLE_SEED = bytes(range(32))


def my_turn(table) -> bool:
    return bool(table.legal) and table.session is not None


def moment(table) -> tuple[list, list]:
    """What a move changes on the table: the hand's actions and your cards. (Their count is
    not enough: under the private deal Rook deals again a hand with no count card — about
    one deal in fifty — and the new deal can bring back as many actions as there were, the
    move just made void, with other cards.)"""
    return list(table.view.get("actions") or []), list(table.view.get("hand") or [])


def wait_for_turn_or_end(qtbot, table, hands_seen: list, timeout: int = 10000) -> None:
    start = len(hands_seen)
    qtbot.waitUntil(lambda: (my_turn(table) and not table.decision.kind == "sent")
                    or len(hands_seen) > start, timeout=timeout)


class Clicker:
    """Decides by mouse: buttons on the decision panel, cards in the hand."""

    def __init__(self, qtbot, table):
        self.qtbot, self.table = qtbot, table
        self.plays: list[str] = []

    def click(self, widget) -> None:
        self.qtbot.mouseClick(widget, Qt.LeftButton)

    def button(self, name: str):
        return self.table.decision.buttons[name]

    def act_once(self) -> None:
        legal = self.table.legal
        keys = {k for entry in legal for k in entry}
        if "play" in keys:
            self.play_card(legal)
        elif "ack" in keys:
            self.click(self.button("got-it"))
        elif "raise" in keys:
            self.click(self.button("keep"))
        elif "bury" in keys:
            self.pick_cards(5)
            self.click(self.button("colour-G"))
            self.click(self.button("confirm"))
        elif "discard" in keys:
            self.pick_cards(2)
            self.click(self.button("confirm"))
        elif "leftover" in keys:
            self.click(self.button("leftover-up"))
        elif "bid" in keys:
            self.bid(legal)
        elif "trump" in keys:
            self.click(self.button("trump-NT"))

    def bid(self, legal: list[dict]) -> None:
        if "trump-H" in self.table.decision.buttons:
            self.click(self.button("trump-H"))
        bids = sorted({e["bid"] for e in legal if "bid" in e})
        if "pass" in self.table.decision.buttons and self.table.view.get("high_bid") is not None:
            self.click(self.button("pass"))
        else:
            self.click(self.button(f"bid-{bids[0]}"))

    def pick_cards(self, count: int) -> None:
        hand = self.table.hand
        for card in list(hand.cards)[:count]:
            self.click(hand.widget_for(card))

    def play_card(self, legal: list[dict]) -> None:
        card = next(e["play"] for e in legal if "play" in e)
        self.plays.append(card)
        self.click(self.table.hand.widget_for(card))
        if self.table.decision.kind == "ace":
            self.click(self.button("ace-high"))


class Typist:
    """Decides with the keyboard only: arrows, Space, Enter, digits and letters."""

    def __init__(self, qtbot, table):
        self.qtbot, self.table = qtbot, table
        self.plays: list[str] = []

    def key(self, key, text: str = "") -> None:
        QTest.keyClick(self.table.hand, key, Qt.NoModifier)

    def type(self, text: str) -> None:
        QTest.keyClicks(self.table.hand, text)

    def act_once(self) -> None:
        legal = self.table.legal
        keys = {k for entry in legal for k in entry}
        if "play" in keys:
            self.plays.append(self.table.hand.cards[self.table.hand.cursor])
            self.key(Qt.Key_Return)
            if self.table.decision.kind == "ace":
                self.type("h")
        elif "ack" in keys:
            self.key(Qt.Key_Return)
        elif "raise" in keys:
            self.type("k")
        elif "bury" in keys or "discard" in keys:
            count = 5 if "bury" in keys else 2
            for _ in range(count):
                self.key(Qt.Key_Right)
                self.key(Qt.Key_Space)
            if "bury" in keys:
                self.type("g")
            self.key(Qt.Key_Return)
        elif "leftover" in keys:
            self.type("d")
        elif "bid" in keys:
            if any(e.get("trump") for e in legal):
                self.type("s")
            bids = sorted({e["bid"] for e in legal if "bid" in e})
            if any("pass" in e for e in legal) and self.table.view.get("high_bid") is not None:
                self.type("p")
            else:
                self.type(str(bids[0]))
                self.key(Qt.Key_Return)
        elif "trump" in keys:
            self.type("8")
            self.key(Qt.Key_Return)
