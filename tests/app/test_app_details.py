"""The guest's seat screen and the small things (issue 9, item 5).

A guest's setup screen speaks from the guest's seat; dimmed cards are opaque; "1 card";
card names read the same in hints as everywhere; "Bid: Pass" goes once the auction
ends; the kitty's or widow's cards are marked new in the bidder's hand (until the bury); the game
dialogs remember the last game; "Play against the computer" picks the computer
players' level and speed.
"""

from __future__ import annotations

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QWidget

from app.assets import deck_for
from app.host_dialog import HostDialog
from app.screenshots import StubSession
from app.table.card_widget import CardWidget
from app.table.seat_panel import SeatPanel
from engine import make_game
from fit_scenes import choose, my_turn, settle, sit_at, table_event
from net.sessions.events import state_event


def guest_setup(window, kinds, you):
    game = make_game("rook")
    bridge = window.new_bridge()
    window.setup.attach(StubSession(), bridge)
    window.stack.setCurrentWidget(window.setup)
    bridge.deliver(table_event(game, {"game": "rook"}, kinds=kinds, is_host=False, you=you, started=False))
    settle()
    grid = window.setup.grid
    return [[grid.itemAtPosition(row, col).widget().text() for col in range(4)]
            for row in range(grid.rowCount()) if grid.itemAtPosition(row, 0) is not None]


def test_a_guests_setup_screen_speaks_from_the_guests_seat(window):
    rows = guest_setup(window, ["human", "bot", "empty", "human"], you=3)
    assert [row[0] for row in rows] == ["<b>You</b>", "<b>Left</b>", "<b>Partner (across)</b>", "<b>Right</b>"]
    # clockwise from you (seat 3): seats 0, 1 and 2 follow
    assert "Aunt Philippa Rose" in rows[0][1] and "Grandma Josephine-Marie" in rows[1][1]
    assert "Uncle Bartholomew Jr." in rows[2][1] and "computer, Hard" in rows[2][1]
    assert "open" in rows[3][1] and "away" not in rows[3][1]
    assert [row[2] for row in rows] == ["Team B", "Team A", "Team B", "Team A"]
    note = window.setup.teams_note.text()
    assert "you are Team B" in note and "Sit here" not in note  # a guest cannot move anyone
    rows = guest_setup(window, ["human", "bot", "empty", "human"], you=0)
    assert "you are Team A" in window.setup.teams_note.text()


def test_a_watchers_setup_screen_names_the_seats_by_number_not_you(window):
    """A watcher (no seat: ``you`` None) arriving before the deal was shown seat 0 as
    "You" — the host's name beside it — as if it sat there."""
    rows = guest_setup(window, ["human", "bot", "empty", "human"], you=None)
    assert [row[0] for row in rows] == ["<b>Seat 1</b>", "<b>Seat 2</b>", "<b>Seat 3</b>", "<b>Seat 4</b>"]
    assert "Grandma Josephine-Marie" in rows[0][1] and "Aunt Philippa Rose" in rows[3][1]
    assert "you are" not in window.setup.teams_note.text()


def test_a_dimmed_card_is_tinted_not_see_through(qtbot):
    backdrop = QWidget()
    backdrop.setStyleSheet("background: #ff0000;")
    backdrop.resize(200, 200)
    qtbot.addWidget(backdrop)
    deck = deck_for(make_game("rook").info)
    plain = CardWidget(deck, "B5", 84, backdrop)
    dimmed = CardWidget(deck, "B5", 84, backdrop)
    dimmed.move(100, 0)
    dimmed.set_state(False, True, "you must follow Red")
    backdrop.show()
    settle()
    image = backdrop.grab().toImage()
    for x, y in ((42, 100), (20, 60), (60, 110)):  # inside the card face, clear of the corners
        on_plain = QColor(image.pixel(x, y))
        on_dimmed = QColor(image.pixel(100 + x, y))
        assert on_dimmed.lightness() < on_plain.lightness()  # darker: "not now"
        assert on_dimmed.red() - on_dimmed.green() < 40  # and no red from behind shows through


def test_cards_left_in_words(qtbot):
    panel = SeatPanel()
    qtbot.addWidget(panel)
    panel.show_seat("Ann", "", "human", True, 1, "", False, False)
    assert panel.detail.variants[0] == "1 card"
    panel.show_seat("Ann", "", "human", True, 2, "", False, False, tricks=1)
    assert panel.detail.variants[0] == "2 cards · 1 trick"


def test_hints_name_cards_as_the_table_does(qtbot, window):
    sit_at(window, {"game": "rook"}, my_turn("bidding"))
    window.table.on_hint({"type": "hint", "text": "play B12: it wins unless ROOK is out"})
    text = window.table.status.text()
    assert "Black 12" in text and "the Rook bird" in text and "B12" not in text
    window.table.reasons = {"G14": "the B12 is still out"}  # the table's own refusals too
    window.table._illegal("G14", "the B12 is still out")
    assert window.table.status.text() == "You can't play the Green 14: the Black 12 is still out"


def panels_bid_text(window) -> dict[str, str]:
    table = window.table
    panels = [table.my_panel, *table.panels.values()]
    return {p.seat_name: p.bid.text() for p in panels if p.isVisibleTo(table) and p.bid.isVisibleTo(p)}


def test_bid_pass_is_cleared_once_the_auction_ends(window):
    # You (seat 0) bid first and pass; the auction goes on without you.
    sit_at(window, {"game": "rook"}, lambda s: s.phase == "bidding" and s.passed, choose("pass"), dealer=3)
    assert panels_bid_text(window)[window.table.names()[0]] == "Bid: Pass"
    _bridge, _game, state = sit_at(window, {"game": "rook"}, lambda s: s.phase == "play", dealer=1)
    shown = panels_bid_text(window)
    bidder = window.table.names()[state.bidder]
    assert shown == {bidder: f"\u2605 Bidder · {state.contract}"}


def test_the_widow_is_marked_new_in_the_bidders_hand(qtbot, window):
    bridge, game, state = sit_at(window, {"game": "rook"}, my_turn("widow"), choose("bid"), dealer=3)
    widow = [game.deck.name(c) for c in state.spare]
    hand = window.table.hand
    assert not hand.new_cards
    while state.phase == "widow":
        state.apply(state.legal_actions(state.to_act()[0])[0])
    assert state.phase == "bury" and state.bidder == 0
    bridge.deliver(state_event(game, state, 0, [], [0, 0], 3))
    settle()
    assert hand.new_cards == set(widow)
    assert all(hand.widget_for(card).new for card in widow)
    assert "new" in hand.widget_for(widow[0]).toolTip()
    # The marks stay while the bury is being chosen, and go with it.
    state.apply(state.legal_actions(0)[0])
    assert state.phase != "bury"
    bridge.deliver(state_event(game, state, 0, [], [0, 0], 3))
    settle()
    assert not hand.new_cards and not any(w.new for w in hand.widgets)


def test_the_game_dialogs_remember_the_last_game(qtbot, window, monkeypatch):
    chosen = {"game": "horseshoes", "mode": "three",
              "options": {"breaking_trump": True, "leftover": "down", "target": 21},
              "level": "hard", "speed": "quick"}
    seen: list[HostDialog] = []

    def exec_(dialog):
        seen.append(dialog)
        if len(seen) == 1:
            dialog.restore(chosen)
        return 1
    monkeypatch.setattr(HostDialog, "exec", exec_)
    started: list[dict] = []
    monkeypatch.setattr(window, "start_local", lambda settings, **kw: started.append(settings))
    window.play_local()
    window.play_local()
    first, second = started
    assert second == first
    assert (second["game"], second["mode"], second["options"]) == ("horseshoes", "three", chosen["options"])
    assert (second["level"], second["speed"]) == ("hard", "quick")
    # hosting remembers its own choices, apart from the computer games
    assert HostDialog("Ann", local=False, remembered=window.settings.last_game(False)).settings()["game"] == "somerset"


def test_play_against_the_computer_with_the_chosen_level_and_speed(qtbot, window):
    window.bot_delay = 1.0
    session = window.start_local({"game": "rook", "level": "hard", "speed": "quick"})
    try:
        qtbot.waitUntil(window.setup.start_button.isEnabled)
        assert session.bot_delay == 0.4
        assert [s["level"] for s in session.seats if s["kind"] == "bot"] == ["hard"] * 3
        def choices() -> list[str]:  # new rows show on the next turn of the event loop
            return [w.currentText() for w in window.setup.findChildren(QComboBox)
                    if w.objectName().startswith("occupant-") and w.isVisibleTo(window.setup)]
        qtbot.waitUntil(lambda: len(choices()) == 3)
        assert choices() == ["Computer: Hard"] * 3
    finally:
        window.leave_table()
