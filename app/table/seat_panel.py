"""A player's place at the table: name, team, connection, cards left, bid, turn."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget


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
        self.name = QLabel()
        self.name.setObjectName("seatName")
        self.dealer = QLabel("D")
        self.dealer.setObjectName("dealerChip")
        self.dealer.setToolTip("Dealer")
        top.addWidget(self.dot)
        top.addWidget(self.name, 1)
        top.addWidget(self.dealer)
        layout.addLayout(top)
        self.detail = QLabel()
        self.detail.setObjectName("seatDetail")
        layout.addWidget(self.detail)
        self.bid = QLabel()
        self.bid.setObjectName("seatBid")
        layout.addWidget(self.bid)
        self.seat_name = ""

    def show_seat(self, name: str, team: str, kind: str, connected: bool, cards_left: int | None,
                  bid: str, is_dealer: bool, is_turn: bool, tricks: int | None = None,
                  is_bidder: bool = False, fingerprint: str = "") -> None:
        self.seat_name = name
        self.name.setToolTip(f"{name} — key fingerprint {fingerprint}" if fingerprint else name)
        bot = " (bot)" if kind == "bot" and not name.endswith("(bot)") else ""  # a stand-in is "Dad (bot)"
        self.name.setText(f"{name}{bot}")
        parts = [team] if team else []
        if cards_left is not None:
            parts.append(f"{cards_left} cards")
        if tricks:
            parts.append(f"{tricks} trick{'s' if tricks != 1 else ''}")
        self.detail.setText(" · ".join(parts))
        bid_text = f"Bid: {bid}" if bid else ""
        if is_bidder:
            bid_text = f"\u2605 Bidder {bid_text}".strip()
        self.bid.setText(bid_text)
        self.bid.setVisible(bool(bid_text))
        self.dealer.setVisible(is_dealer)
        self.dot.setProperty("connected", connected)
        self.dot.setToolTip("connected" if connected else "not connected")
        if self.property("turn") != is_turn:
            self.setProperty("turn", is_turn)
            self.style().unpolish(self)
            self.style().polish(self)
        self.dot.style().unpolish(self.dot)
        self.dot.style().polish(self.dot)
        state = "connected" if connected else "not connected"
        turn = ", to act" if is_turn else ""
        self.setAccessibleName(f"{name}{bot}, {team}, {state}{turn}. {self.detail.text()} {bid_text}".strip())
