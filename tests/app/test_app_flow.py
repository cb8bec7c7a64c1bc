"""The real flow's end of a game, the header and summary agreeing on the hand number,
and the card size following the window and the setting."""

from __future__ import annotations

from app_driver import TABLE_SEED
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox


def start_autoplay(qtbot, window, settings: dict, scores: list[int] | None = None, autoplay: bool = True):
    """A local table where a bot plays your seat too; ``scores`` preset the match."""
    session = window.start_local(settings, autoplay=autoplay, table_seed=TABLE_SEED)
    qtbot.waitUntil(lambda: window.setup.start_button.isEnabled())
    session.start_game()
    if scores is not None:  # runs on the session's loop right after the deal, before any bot moves
        session._do(lambda: setattr(session.match, "scores", list(scores)))
    return session


def test_a_game_won_in_play_shows_game_over_with_the_winner_and_rematch(qtbot, window):
    table = window.table
    over: list = []
    start_autoplay(qtbot, window, {"game": "rook"}, scores=[490, 490])
    window.bridge.game_over.connect(over.append)
    qtbot.waitUntil(lambda: bool(over), timeout=20000)
    qtbot.waitUntil(lambda: table.summary.isVisible() and table.summary.game_over)
    summary = table.summary
    assert "Game over" in summary.title.text() and "Team" in summary.title.text()
    assert summary.rematch_button.isVisible() and not summary.next_button.isVisible()
    winner = over[0]["winner"]
    assert over[0]["scores"][winner] >= 500
    assert f"Team {'AB'[winner]}" in summary.title.text()
    states: list = []
    window.bridge.state.connect(states.append)
    qtbot.mouseClick(summary.rematch_button, Qt.LeftButton)
    assert not summary.isVisible()
    qtbot.waitUntil(lambda: any(e["hand_number"] == 1 and e["scores"] == [0, 0] for e in states))


def test_summary_names_the_hand_the_header_shows(qtbot, window):
    table = window.table
    hands: list = []
    start_autoplay(qtbot, window, {"game": "somerset"})
    # Connected after the table's own slot: sees the summary the table has just shown.
    window.bridge.hand_over.connect(
        lambda _e: hands.append((table.hand_number, table.title_label.text(), table.summary.title.text())))
    qtbot.waitUntil(lambda: len(hands) >= 2, timeout=20000)
    for number, header, summary in hands[:2]:
        assert f"hand {number}" in header
        assert summary.startswith(f"Hand {number} ")
    assert [h[0] for h in hands[:2]] == [1, 2]


def card_width_at(qtbot, window, width: int, height: int) -> int:
    window.resize(width, height)
    qtbot.waitUntil(lambda: window.table.width() > 0 and window.table.card_width == window.table._card_width())
    widget = window.table.hand.widgets[0]
    return widget.width()


def test_cards_grow_with_the_window_and_the_card_size_setting(qtbot, window, settings):
    from app.table.table_view import fit_card_width
    start_autoplay(qtbot, window, {"game": "somerset"}, autoplay=False)  # the table waits for you
    qtbot.waitUntil(lambda: bool(window.table.hand.widgets), timeout=10000)
    small_window = card_width_at(qtbot, window, 1000, 650)
    big_window = card_width_at(qtbot, window, 1600, 1000)
    assert big_window > small_window >= 80
    sizes = {}
    for size in ("small", "medium", "large"):
        settings.card_size = size
        window.table.apply_card_size()
        sizes[size] = (window.table.hand.widgets[0].width(), window.table.trick.card_width)
    hand, felt = ({size: sizes[size][i] for size in sizes} for i in (0, 1))
    # The hand: larger with the setting as far as its room allows (a card's words and
    # numbers are never covered to make it larger: tests/app/test_app_look.py)…
    assert hand["large"] >= hand["medium"] > hand["small"]
    assert fit_card_width(108, 1500, 1000, 8, 0.8) > fit_card_width(84, 1500, 1000, 8, 0.8)
    # …the cards on the felt are not held back by a long hand.
    assert felt["large"] > felt["medium"] > felt["small"]


def test_setup_offers_bot_levels_and_the_session_uses_them(qtbot, window):
    session = window.start_local({"game": "rook"}, table_seed=TABLE_SEED)
    setup = window.setup
    qtbot.waitUntil(lambda: setup.start_button.isEnabled())
    box = setup.findChild(QComboBox, "occupant-2")
    assert [box.itemText(i) for i in range(box.count())] == ["Computer: Easy", "Computer: Normal",
                                                             "Computer: Hard", "Computer: Expert"]
    assert box.currentData() == "bot:normal"  # the default level
    box.setCurrentIndex(box.findData("bot:hard"))
    box.activated.emit(box.currentIndex())
    qtbot.waitUntil(lambda: session.seats[2]["level"] == "hard")
    qtbot.waitUntil(lambda: setup.findChild(QComboBox, "occupant-2") is not None
                    and setup.findChild(QComboBox, "occupant-2").currentData() == "bot:hard")
    qtbot.mouseClick(setup.start_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.table)
    assert session.bots[2].level == "hard" and session.bots[1].level == "normal"


def test_hint_comes_from_the_bots_without_blocking_the_table(qtbot, window):
    start_autoplay(qtbot, window, {"game": "rook"}, autoplay=False)
    table = window.table
    qtbot.waitUntil(lambda: window.stack.currentWidget() is table)
    assert table.hint_button.isVisible()
    qtbot.waitUntil(lambda: bool(table.legal), timeout=10000)  # your turn
    with qtbot.waitSignal(window.bridge.hint, timeout=10000) as hint:
        qtbot.mouseClick(table.hint_button, Qt.LeftButton)
    assert hint.args[0]["text"]
    assert table.status.text().startswith("Hint: ")


def test_each_setting_takes_effect_at_the_table(qtbot, window, settings):
    from app.assets import card_file
    start_autoplay(qtbot, window, {"game": "rook"}, autoplay=False)
    table = window.table
    qtbot.waitUntil(lambda: bool(table.hand.widgets), timeout=10000)
    card = next(c for c in table.hand.cards if c != "ROOK")  # the bird has no colour to change
    assert table.hand.widget_for(card).deck.art == "rook"
    width, felt_width = table.hand.widgets[0].width(), table.trick.card_width
    settings.display_name = "Grandma"
    settings.colour_blind_rook = True
    settings.card_size = "large"
    settings.animation = "relaxed"
    window.apply_settings()
    assert "Grandma" in window.lobby.greeting.text()
    widget = table.hand.widget_for(card)
    assert widget.deck.art == "rook-accessible" and table.trick.deck.art == "rook-accessible"
    assert card_file("rook-accessible", card).exists()
    assert card_file("rook-accessible", card).read_bytes() != card_file("rook", card).read_bytes()
    # (the hand's cards no wider than its room allows with every number in view)
    assert widget.width() >= width and table.trick.card_width > felt_width
    assert table.trick.animation_ms == settings.animation_ms > 0
    settings.animation = "off"
    window.apply_settings()
    assert table.trick.animation_ms == 0


def test_live_scores_for_horseshoes_show_each_players_distance_from_the_bid(qtbot, window):
    start_autoplay(qtbot, window, {"game": "horseshoes", "mode": "four"}, autoplay=False)
    table = window.table
    qtbot.waitUntil(lambda: window.stack.currentWidget() is table and table.live_box.isEnabled())
    qtbot.mouseClick(table.live_box, Qt.LeftButton)
    qtbot.waitUntil(lambda: table.live_label.isVisibleTo(table))
    assert "Tricks against bids" in table.live_label.text() and "Ann:" in table.live_label.text()


def test_somerset_bidding_says_a_pass_is_not_final(qtbot, window):
    start_autoplay(qtbot, window, {"game": "somerset"}, autoplay=False)
    table = window.table
    qtbot.waitUntil(lambda: table.decision.kind == "bid", timeout=10000)
    assert "isn't final" in table.decision.buttons["pass"].toolTip()
