"""A player's place at the table: name, team, connection, cards left, bid, turn."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from app.fitted import FittedLabel
from app.table.viewmodel import name_variants, short_name


class SeatPanel(QFrame):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("seatPanel")
        self.setProperty("turn", False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.setSpacing(2)
        top = QHBoxLayout()
        self.dot = QLabel("\u25cf")
        self.dot.setObjectName("connDot")
        self.name = FittedLabel()  # a long name is cut short here; the tooltip has it whole
        self.name.setObjectName("seatName")
        self.dealer = QLabel("D")
        self.dealer.setObjectName("dealerChip")
        self.dealer.setToolTip("Dealer")
        top.addWidget(self.dot)
        top.addWidget(self.name)
        top.addWidget(self.dealer)
        top.addStretch(1)  # the room a wide plate has to spare goes after the dealer's mark, not between

        layout.addLayout(top)
        self.detail = FittedLabel()  # "Team B · 10 cards · 1 trick", shorter where narrow
        self.detail.setObjectName("seatDetail")
        layout.addWidget(self.detail)
        self.bid = QLabel()
        self.bid.setObjectName("seatBid")
        layout.addWidget(self.bid)
        self.seat_name = ""
        self.shown: tuple = ()  # show_seat's arguments, as last shown

    def show_seat(self, name: str, team: str, kind: str, connected: bool, cards_left: int | None,
                  bid: str, is_dealer: bool, is_turn: bool, tricks: int | None = None,
                  is_bidder: bool = False, fingerprint: str = "") -> None:
        shown = (name, team, kind, connected, cards_left, bid, is_dealer, is_turn, tricks, is_bidder, fingerprint)
        if shown == self.shown:
            return  # (most states change one or two plates: the rest stay as they are)
        self.shown = shown
        self.seat_name = name
        bot = " (bot)" if kind == "bot" and not name.endswith("(bot)") else ""  # a stand-in is "Dad (bot)"
        self.name.set_variants(name_variants(lambda limit: short_name(name, limit) + bot),
                               f"{name} — key fingerprint {fingerprint}" if fingerprint else name)
        counts = []
        if cards_left is not None:
            counts.append(f"{cards_left} card{'s' if cards_left != 1 else ''}")
        if tricks:
            counts.append(f"{tricks} trick{'s' if tricks != 1 else ''}")
        # Where the panel is narrow the team shrinks to its letter, then goes.
        self.detail.set_variants([" · ".join(x for x in (team, *counts) if x),
                                  " · ".join(x for x in (team.replace("Team ", ""), *counts) if x),
                                  " · ".join(counts) or team])
        bid_text = f"Bid: {bid}" if bid else ""
        if is_bidder:
            bid_text = f"\u2605 Bidder · {bid}" if bid else "\u2605 Bidder"
        self.bid.setText(bid_text)
        self.bid.setVisible(bool(bid_text))
        self.dealer.setVisible(is_dealer)
        if self.dot.property("connected") != connected:  # the style sheet's colour, redone on a change only
            self.dot.setProperty("connected", connected)
            self.dot.style().unpolish(self.dot)
            self.dot.style().polish(self.dot)
        self.dot.setToolTip("connected" if connected else "not connected")
        if self.property("turn") != is_turn:
            self.setProperty("turn", is_turn)
            self.style().unpolish(self)
            self.style().polish(self)
        state = "connected" if connected else "not connected"
        turn = ", to act" if is_turn else ""
        self.setAccessibleName(f"{name}{bot}, {team}, {state}{turn}. {self.detail.variants[0]} {bid_text}".strip())
