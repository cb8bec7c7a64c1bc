"""The felt: the other players' seats around the trick in the middle, and your own seat's
plate at its bottom left, just above your hand (which has the table's whole width).

Each seat shows its name, team, cards left, tricks taken, its bid, the dealer's mark and
whose turn it is; the middle shows the trick being played (or the last one, faded, or
asked for in full) and any cards lying open on the table (a widow, a left-over card).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout

from . import viewmodel as vm
from .seat_panel import SeatPanel
from .table_data import TableData
from .trick_area import TrickArea, relative_position

SIDE_SEAT_WIDTH = 200  # the felt's left and right columns, at least


class SeatRing:
    """Builds the felt's grid and keeps its seats and trick up to date."""

    def __init__(self) -> None:
        self.panels = {pos: SeatPanel() for pos in ("left", "top", "right")}
        self.my_panel = SeatPanel()
        self.trick = TrickArea()
        self.grid = QGridLayout()
        self.grid.addWidget(self.panels["top"], 0, 1, Qt.AlignHCenter)
        # Side seats lean towards the middle: a table, not two far-off islands.
        self.grid.addWidget(self.panels["left"], 1, 0, Qt.AlignVCenter | Qt.AlignRight)
        self.grid.addWidget(self.panels["right"], 1, 2, Qt.AlignVCenter | Qt.AlignLeft)
        self.grid.addWidget(self.my_panel, 2, 0, Qt.AlignBottom | Qt.AlignLeft)
        self.grid.addWidget(self.trick, 1, 1, 2, 1)  # down beside your plate
        self.grid.setColumnStretch(0, 1)
        self.grid.setColumnStretch(1, 3)
        self.grid.setColumnStretch(2, 1)
        for column in (0, 2):  # room for a side seat's name before it is cut short
            self.grid.setColumnMinimumWidth(column, SIDE_SEAT_WIDTH)
        self.grid.setRowStretch(1, 1)

    def refresh_seats(self, data: TableData) -> None:
        seats = {s["seat"]: s for s in data.table.get("seats") or []}
        view, players, you = data.view, data.players, data.you
        names = data.names()
        won = vm.tricks_by_seat(view, players) if view else [0] * players
        to_act = view.get("to_act") or []
        look = data.look if view else None
        bidder = look.bidder(view) if look else None
        seated: set[str] = set()
        for seat in range(players):
            info = seats.get(seat, {})
            position = relative_position(seat, you, players)
            panel = self.my_panel if position == "bottom" else self.panels[position]
            team = vm.team_of(data.info, seat) if look else ""
            left = view.get("cards_left", [None] * players)[seat] if view else None
            bid = look.seat_bid(view, seat) if look else ""
            if seat == bidder and not bid and look.contract_amount(view) is not None:
                bid = str(look.contract_amount(view))
            panel.show_seat(names[seat], team, info.get("kind", "human"), info.get("connected", True),
                            left, bid,
                            view.get("dealer") == seat, seat in to_act, won[seat], seat == bidder,
                            info.get("fingerprint") or "")
            seated.add(position)
        # Only a seat that comes or goes is shown or hidden: hiding every plate to show it
        # again re-polished and re-laid the whole felt at every state (most of a refresh).
        for position, panel in self.panels.items():
            panel.setVisible(position in seated)
        if "bottom" in seated:
            self.my_panel.show()

    def panel_of(self, seat: int, data: TableData) -> SeatPanel | None:
        """The plate of ``seat`` as this screen places it (None: no such seat)."""
        if not 0 <= seat < data.players:
            return None
        position = relative_position(seat, data.you, data.players)
        return self.my_panel if position == "bottom" else self.panels[position]

    def refresh_trick(self, data: TableData, show_last: bool, holding: bool) -> None:
        """The trick on the table; or the last one: asked for (``show_last``), the hand's
        last before its summary (``holding``), or faded until the next lead."""
        view, names = data.view, data.names()
        current = [tuple(x) for x in view.get("trick") or []]
        tricks = view.get("tricks") or []
        aces = vm.ace_calls(view)
        if current and not show_last:
            self.trick.show_trick(current, aces=aces)
        elif tricks:
            last = tricks[-1]
            if holding or show_last:
                caption = f"Last trick — taken by {names[last['winner']]}"
            else:
                caption = f"Taken by {names[last['winner']]}"
            self.trick.show_trick([tuple(x) for x in last["cards"]], caption,
                                  faded=not (show_last or holding), aces=aces, winner=last["winner"])
        else:
            self.trick.show_trick([])
        shown = data.look.open_cards(view)
        self.trick.show_open(list(shown.cards), shown.caption, hidden=shown.hidden)
