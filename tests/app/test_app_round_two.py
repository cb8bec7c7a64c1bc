"""Family night, round two (issue 20): the table's items.

* The last trick of every hand is played out on the table — its cards in the middle,
  the game log's "Trick 13" line, your hand empty — before the summary opens, against
  the computer (every title) and for a guest at a network table (both deals).
* A voided hand is said in words: a banner above the table and a game-log line, for any
  reason.
* Keyboard play: after Leave → Stay, Enter still plays; the cursor never rests on a
  card that can't be played; ←/→ pass over dimmed cards; Enter deals the next hand
  from the summary; a new table after leaving from a summary has the keys.
* Cards and marks: readable overlaps at 1024×640; a lifted card shows nothing of the
  card beneath it; the dealer's "D" beside its name; a card clicked out of turn says
  why; the kitty's or widow's cards stay marked while you decide, and are the real ones
  under the private deal (not the stand-ins shown while they are on their way).
"""

from __future__ import annotations

import pytest
from app_driver import TABLE_SEED, Clicker
from net_kit import QUICK, LoopbackNetwork, Recorder, ident, table_info
from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtTest import QTest

from app.screenshots import drive
from app.table.seat_panel import SeatPanel
from fit_scenes import SHORT_NAMES, choose, deliver_hand_over, finished, my_turn, settle, sit_at, table_scenes
from net.sessions.events import deal_restart_event, state_event
from net.sessions.session import HostSession
from test_app_flow import start_autoplay
from test_app_mistakes import button, confirm_box
from tests.waits import blocking_until

TITLES = [
    pytest.param({"game": "rook"}, id="rook"),
    pytest.param({"game": "somerset"}, id="somerset"),
    pytest.param({"game": "horseshoes", "mode": "four"}, id="horseshoes"),
]


# -- 1. the last trick -----------------------------------------------------------------------
class AtHandOver:
    """What the table shows the moment the hand-over event has been handled (connected
    after the table's own slot)."""

    def __init__(self, window):
        self.window, self.seen = window, []
        window.bridge.hand_over.connect(self.look)

    def look(self, _event) -> None:
        table = self.window.table
        self.seen.append({
            "holding": table.holding, "summary": table.summary.isVisible(),
            "trick": [card for _seat, card in table.trick.cards], "faded": table.trick.faded,
            "caption": table.trick.caption, "view": dict(table.view), "hand": list(table.hand.cards),
            "log": table.log_list.lines(),
            "summary_last_trick": table.summary.summary.last_trick_caption.text()})


def assert_last_trick_shown(seen: dict) -> None:
    view = seen["view"]
    tricks = view["tricks"]
    assert view["phase"] == "done" and not view.get("trick")  # every card is on the table
    assert not seen["hand"] and not any(view.get("cards_left") or [])  # your last card too
    assert seen["holding"] and not seen["summary"]  # the trick first, the summary after
    assert seen["trick"] == [card for _seat, card in tricks[-1]["cards"]] and not seen["faded"]
    assert seen["caption"].startswith("Last trick — taken by")
    assert seen["log"][-1].startswith(f"Trick {len(tricks)}:") and "took it" in seen["log"][-1]
    assert not any("(so far)" in line for line in seen["log"])
    # the summary waiting behind it has the same trick as its "Last trick"
    assert seen["summary_last_trick"].startswith(f"Trick {len(tricks)}, taken by")


@pytest.mark.parametrize("title", TITLES)
def test_the_last_trick_is_played_out_before_the_summary_against_the_computer(qtbot, window, title):
    table = window.table
    table.last_trick_hold_ms = 60_000  # only a click ends it here
    session = start_autoplay(qtbot, window, title)
    session.set_table_option("game_log", True)
    at = AtHandOver(window)
    qtbot.waitUntil(lambda: bool(at.seen), timeout=30000)
    seen = at.seen[0]
    assert_last_trick_shown(seen)
    game, last = session.core.game, session.last_hand
    assert len(seen["view"]["tricks"]) == len(last.tricks)  # 13 in Rook and Horseshoes, 12 in Somerset
    assert seen["trick"] == [game.deck.name(c) for _s, c in last.tricks[-1].cards]
    shown: list = []
    table.summary_ready.connect(lambda: shown.append(True))  # (the autoplaying window deals on at once)
    qtbot.mouseClick(table.trick, Qt.LeftButton)  # the player moves on: the summary
    assert shown and not table.holding


@pytest.mark.parametrize("mental", [False, True], ids=["seeded", "private"])
def test_a_guest_sees_the_last_trick_played_out_before_the_summary(qtbot, window, tmp_path, closing, mental):
    host = HostSession(Recorder(), {"game": "rook", "options": {}}, ident("Grandma"),
                       state_dir=tmp_path / "grandma", timings=QUICK, autoplay=True, auto_start=True,
                       bots={2: "random", 3: "random"}, mental_deal=mental,
                       hands=1)  # (else the bots play the game on, and the window's teardown
    # handles every state of it: 36 s, 12 s of CPU, under the seeded deal)
    closing.append(host)
    blocking_until(lambda: host.core.server is not None)
    host.set_table_option("game_log", True)
    window.network = LoopbackNetwork(tmp_path, guest_kw={"bot_level": "random"})  # a bot plays our seat
    window.table.last_trick_hold_ms = 60_000
    window.join(table_info(host))
    at = AtHandOver(window)
    qtbot.waitUntil(lambda: bool(at.seen), timeout=60000)
    assert window.table.table["is_host"] is False
    assert_last_trick_shown(at.seen[0])


# -- 3. a voided hand ------------------------------------------------------------------------
def test_a_voided_hand_is_said_in_a_banner_and_the_game_log(qtbot, window):
    bridge, _game, _state = sit_at(window, {"game": "horseshoes", "mode": "four"}, my_turn("bidding"),
                                   options={"game_log": True})
    table = window.table
    assert not table.notice.isVisible()
    # What a host (mental_watch) and every guest (guest_view) send when the hand is void.
    bridge.deliver(deal_restart_event(["Cousin Maximilian"], [2], voided=True))
    settle()
    assert table.notice.isVisible()
    assert table.notice.title.text() == "Hand 3 is void: Cousin Maximilian left and did not come back in time."
    assert "dealt again, the scores unchanged" in table.notice.detail.text()
    line = "Hand 3 void: Cousin Maximilian left and did not come back in time — it is dealt again"
    assert table.log_list.lines()[0].startswith(line)
    # Redrawn (a table event): the line stays at the top of the hand's log; the banner until dismissed.
    bridge.deliver(table.data.table | {"type": "table"})
    settle()
    assert table.log_list.lines()[0].startswith(line) and table.notice.isVisible()
    qtbot.mouseClick(table.notice.dismiss, Qt.LeftButton)
    assert not table.notice.isVisible()
    # Any other reason is one call, in its own words.
    table.hand_voided("a card was shown to be played twice")
    assert table.notice.title.text() == "Hand 3 is void: a card was shown to be played twice."
    assert table.notice.detail.text() == "The scores are unchanged."
    assert "Hand 3 void: a card was shown to be played twice — the scores are unchanged" in table.log_list.lines()


# -- 6. keyboard play ------------------------------------------------------------------------
def test_after_leave_then_stay_enter_still_plays_a_card(qtbot, window):
    session = window.start_local({"game": "rook"}, table_seed=TABLE_SEED)
    qtbot.waitUntil(lambda: window.setup.start_button.isEnabled())
    qtbot.mouseClick(window.setup.start_button, Qt.LeftButton)
    table = window.table
    clicker = Clicker(qtbot, table)
    for _ in range(20):  # by mouse, up to our first card
        qtbot.waitUntil(lambda: bool(table.legal), timeout=10000)
        if any("play" in e for e in table.legal):
            break
        before = len(table.view.get("actions") or [])
        clicker.act_once()
        qtbot.waitUntil(lambda: len(table.view.get("actions") or []) != before, timeout=10000)
    played: list[str] = []
    table.hand.play_requested.connect(played.append)
    qtbot.mouseClick(table.leave_button, Qt.LeftButton)
    box = confirm_box(qtbot, window)
    qtbot.mouseClick(button(box, "confirmLeaveNo"), Qt.LeftButton)
    qtbot.waitUntil(lambda: not box.isVisible())
    assert window.session is session and window.stack.currentWidget() is table
    # Enter goes where the keys go now: still to the hand, which plays the card under its cursor.
    assert window.focusWidget() is table.hand
    expected = table.hand.cards[table.hand.cursor]
    QTest.keyClick(window.focusWidget(), Qt.Key_Return)
    assert played == [expected]


def mixed_hand(state) -> bool:
    """Our turn to play, with cards we may play and cards we may not, a playable one
    right after an unplayable one."""
    if state.phase != "play" or 0 not in state.to_act():
        return False
    legal = {a.value for a in state.legal_actions(0)}
    held = [c for c in range(state.game.deck.size) if state.hands[0] >> c & 1]
    return 0 < len(legal) < len(held)


def test_the_cursor_never_rests_on_a_card_that_cannot_be_played(qtbot, window):
    _bridge, game, state = sit_at(window, {"game": "rook"}, mixed_hand, dealer=2)
    hand = window.table.hand
    legal = {game.deck.name(a.value) for a in state.legal_actions(0)}
    illegal = [c for c in hand.cards if c not in legal]
    assert legal and illegal
    played: list[str] = []
    hand.play_requested.connect(played.append)
    hand.setFocus()
    assert hand.cards[hand.cursor] in legal
    # A click on a dimmed card says why, and leaves the cursor on a card that can be played.
    qtbot.mouseClick(hand.widget_for(illegal[0]), Qt.LeftButton)
    assert "You can't play" in window.table.status.text()
    assert hand.cards[hand.cursor] in legal
    # ←/→ go from playable card to playable card (round the end).
    visited = []
    for _ in range(len(hand.cards)):
        QTest.keyClick(hand, Qt.Key_Right)
        visited.append(hand.cards[hand.cursor])
    assert set(visited) == legal
    # Enter on a dimmed card (put there from outside): refused, and the cursor moves on to a playable one.
    hand.cursor = hand.cards.index(illegal[0])
    QTest.keyClick(hand, Qt.Key_Return)
    assert not played and hand.cards[hand.cursor] in legal
    QTest.keyClick(hand, Qt.Key_Return)
    assert played == [hand.cards[hand.cursor]]


def test_enter_deals_the_next_hand_from_the_summary(qtbot, window):
    game, state = finished({"game": "rook"})
    bridge, _game, _state = sit_at(window, {"game": "rook"}, lambda s: False)
    deliver_hand_over(bridge, game, state, [0, 0])
    summary = window.table.summary
    qtbot.waitUntil(summary.isVisible)
    assert window.focusWidget() is summary.next_button
    with qtbot.waitSignal(summary.next_hand):
        QTest.keyClick(window.focusWidget(), Qt.Key_Return)


def test_after_leaving_from_the_summary_the_next_table_has_the_keys(qtbot, window):
    """Leave clicked on a summary kept the focus on that (hidden) button: at the next
    table Space or Enter pressed it again and asked to leave."""
    start_autoplay(qtbot, window, {"game": "somerset"})
    window.autoplay = False  # the summary stays
    qtbot.waitUntil(window.table.summary.isVisible, timeout=30000)
    qtbot.mouseClick(window.table.summary.leave_button, Qt.LeftButton)
    qtbot.mouseClick(button(confirm_box(qtbot, window), "confirmLeaveYes"), Qt.LeftButton)
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.lobby)
    window.start_local({"game": "somerset"}, table_seed=TABLE_SEED)
    qtbot.waitUntil(lambda: window.setup.start_button.isEnabled())
    qtbot.mouseClick(window.setup.start_button, Qt.LeftButton)
    table = window.table
    qtbot.waitUntil(lambda: any("bid" in e for e in table.legal), timeout=10000)
    assert window.focusWidget() is table.hand
    lowest = min(e["bid"] for e in table.legal if "bid" in e)
    before = len(table.view.get("actions") or [])
    QTest.keyClicks(window.focusWidget(), str(lowest))
    QTest.keyClick(window.focusWidget(), Qt.Key_Return)
    qtbot.waitUntil(lambda: len(table.view.get("actions") or []) > before)
    assert table.view["actions"][before] == {"seat": table.you, "bid": lowest}
    assert window.leave_box is None or not window.leave_box.isVisible()


# -- 8. cards and marks ----------------------------------------------------------------------
def test_at_1024_by_640_every_card_in_the_hand_shows_its_middle(qtbot, window):
    window.resize(1024, 640)
    settle()
    for name, settings, until, mine, dealer in table_scenes():
        sit_at(window, settings, until, mine, dealer=dealer, names=SHORT_NAMES)
        qtbot.waitUntil(lambda: window.table.card_width == window.table._card_width())
        settle()
        widgets = window.table.hand.widgets
        width = widgets[0].width()
        steps = {b.x() - a.x() for a, b in zip(widgets, widgets[1:])}
        # each card shows its corner and its middle (70% of it in view), not a sliver
        assert min(steps) >= 0.7 * width and width >= 60, (name, width, steps)
        right = widgets[-1].x() + width
        assert widgets[0].x() >= 0 and right <= window.table.hand.width(), name
    # Rook's opening bid, all 17 amounts: one row too — the height a second row took is the cards'.
    sit_at(window, {"game": "rook"}, my_turn("bidding"), dealer=3, names=SHORT_NAMES)
    settle()
    bids = [b for key, b in window.table.decision.buttons.items() if key.startswith("bid-")]
    assert len(bids) == 17 and len({b.y() for b in bids}) == 1


def test_a_lifted_card_shows_nothing_of_the_card_beneath_it(qtbot, window):
    _bridge, game, state = sit_at(window, {"game": "rook"}, mixed_hand, dealer=2)
    hand = window.table.hand
    legal = {game.deck.name(a.value) for a in state.legal_actions(0)}
    pairs = [(a, b) for a, b in zip(hand.widgets, hand.widgets[1:])
             if a.card not in legal and b.card in legal]
    assert pairs, "no playable card right after one that can't be played"
    down, up = pairs[0]
    assert up.is_up() and not down.is_up()
    # The strip under the lifted card, above the felt, where the card beneath lies.
    top_left = up.mapTo(window, up.rect().topLeft())
    strip = QRect(top_left.x() + 2, top_left.y() + up.face.height() + 2,
                  down.x() + down.width() - up.x() - 4, up.lift - 4)
    assert strip.width() > 10 and strip.height() > 2
    with_it = window.grab(strip).toImage()
    down.hide()
    settle()
    without_it = window.grab(strip).toImage()
    down.show()
    assert with_it == without_it  # none of its corner index peeks out under the lifted card


def test_the_dealers_mark_sits_beside_the_name(qtbot):
    panel = SeatPanel()
    qtbot.addWidget(panel)
    panel.show_seat("Jo", "Team A", "human", True, 13, "", True, False, tricks=2, is_bidder=True)
    panel.bid.setText("\u2605 Bidder · 180 — a long line makes the plate wide")
    panel.resize(320, panel.sizeHint().height())
    panel.show()
    settle()
    name = panel.name
    text_end = name.x() + name.contentsRect().left() + name.fontMetrics().horizontalAdvance(name.text())
    assert panel.dealer.isVisible()
    assert 0 <= panel.dealer.x() - text_end <= 16  # beside the name, not across the plate


def test_a_card_clicked_out_of_turn_says_why(qtbot, window):
    _bridge, _game, state = sit_at(window, {"game": "rook"}, lambda s: s.phase == "play" and 0 not in s.to_act())
    table = window.table
    waiting_for = table.names()[state.to_act()[0]]
    qtbot.mouseClick(table.hand.widgets[0], Qt.LeftButton)
    assert table.status.text() == f"Not your turn yet — waiting for {waiting_for} to play a card."
    assert table.status.property("problem") is True


def somerset_kitty(window):
    """Seat 0 bids 24 and wins: the table is shown the auction, then the kitty taken."""
    bridge, game, state = sit_at(window, {"game": "somerset"}, my_turn("bidding"), dealer=3)
    drive(game, state, my_turn("kitty"), choose("bid", value=24))
    assert state.phase == "kitty" and state.bidder == 0
    return bridge, game, state


def test_the_kitty_stays_marked_while_you_choose_your_discards(qtbot, window):
    bridge, game, state = somerset_kitty(window)
    hand = window.table.hand
    kitty = {game.deck.name(c) for c in state.spare}
    bridge.deliver(state_event(game, state, 0, [], [0, 0], 3))
    settle()
    assert hand.new_cards == kitty and all(hand.widget_for(c).new for c in kitty)
    assert not any(t.isActive() for t in hand.findChildren(QTimer))  # nothing takes the marks away meanwhile
    qtbot.mouseClick(hand.widget_for(sorted(kitty)[0]), Qt.LeftButton)  # choosing…
    assert hand.new_cards == kitty
    state.apply(choose("discard")(state))
    bridge.deliver(state_event(game, state, 0, [], [0, 0], 3))
    settle()
    assert not hand.new_cards  # put down: the marks go


def test_under_the_private_deal_the_real_kitty_cards_are_marked(qtbot, window):
    """While the kitty is on its way to you, the hand shown holds stand-ins for its cards
    and nothing is offered (host_session.HostView, mental_replica._own_view); then the
    real cards come with the decision. The real ones are marked."""
    bridge, game, state = somerset_kitty(window)
    hand = window.table.hand
    kitty = [game.deck.name(c) for c in state.spare]
    view = state.view(0)
    stand_ins = [game.deck.name(c) for c in range(game.deck.size)
                 if state.hands[1] >> c & 1][:len(kitty)]
    on_its_way = dict(view, hand=[c for c in view["hand"] if c not in kitty] + stand_ins, to_act=[])
    bridge.deliver(state_event(game, None, 0, [], [0, 0], 3, view=on_its_way))
    settle()
    assert not hand.new_cards
    bridge.deliver(state_event(game, state, 0, [], [0, 0], 3))
    settle()
    assert hand.new_cards == set(kitty)

