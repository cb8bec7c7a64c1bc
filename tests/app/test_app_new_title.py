"""A new title needs nothing in the app or the network: Tiny Tricks, end to end.

The test-only title (tests/engine/tiny_title, registered with the engine by
tests/conftest.py for this process) has no module under app/titles and no card art. A
real host (its own seat played by a bot) and two real guests on 127.0.0.1 play a hand of
it; one guest is a person at the table screen, who names trump and plays every card by
clicking. The screen draws the hand, the trick and the summary from what the title says
about itself, and nothing in app/ or net/ names it (tests/engine/test_titles_stay_in_engine.py).
"""

from __future__ import annotations

from net_kit import QUICK, Recorder, ident
from PySide6.QtCore import Qt

from app.bridge import EventBridge
from app.table.table_view import TableView
from app.titles import Presentation
from engine import make_game
from net.sessions.session import GuestSession, HostSession
from tests.waits import blocking_until

# Nine points to win: no one can reach it in the first two hands of four tricks (in the
# third, one who took every trick so far can: that summary says who took the game).
TINY = {"game": "tiny", "name": "Tiny table", "options": {"target": 9}}


def test_tiny_tricks_is_played_through_a_host_and_guests_and_shown_at_the_table(qtbot, settings, tmp_path):
    info = make_game("tiny").info
    words = {card.name: card.words for card in info.deck.cards}
    host_events = Recorder()
    host = HostSession(host_events, TINY, ident("Host"), state_dir=tmp_path / "host", timings=QUICK,
                       autoplay=True)
    sessions = [host]
    table = TableView(settings)
    qtbot.addWidget(table)
    table.resize(1024, 640)
    table.last_trick_hold_ms = 0
    table.show()
    bridge = EventBridge()
    try:
        blocking_until(lambda: host_events.of("listening"))
        port = host_events.of("listening")[0]["port"]
        me = GuestSession(bridge.deliver, ident("Ann"), address="127.0.0.1", port=port, timings=QUICK,
                          state_dir=tmp_path / "ann")
        table.attach(me, bridge)
        sessions.append(me)
        sessions.append(GuestSession(Recorder(), ident("Bot guest"), address="127.0.0.1", port=port,
                                     timings=QUICK, state_dir=tmp_path / "bot", bot_level="random"))
        blocking_until(lambda: host_events.of("table") and sum(
            s["kind"] == "human" and s["connected"] for s in host_events.of("table")[-1]["seats"]) == 3)
        host.start_game()

        named_trump = False
        for hand in range(1, 4):  # the deal moves left: within three hands you name trump
            # Your hand, drawn and named from the title's own description (no art: drawn faces).
            qtbot.waitUntil(lambda: table.hand_number == hand and len(table.hand.widgets) == info.hand_size
                            and table.view.get("phase") != "done", timeout=15000)
            assert type(table.data.look) is Presentation  # no module of its own under app/titles
            assert table.title_label.variants[0].startswith(f"Tiny Tricks · hand {hand}")
            dealt = list(table.view["hand"])
            assert sorted(w.accessibleName() for w in table.hand.widgets) == sorted(words[c] for c in dealt)
            seen_trick, clicked = play_the_hand(qtbot, table, words)
            assert seen_trick, "a trick with cards on it was shown"
            assert sorted(c for c in clicked if c != "trump") == sorted(dealt)  # every card, by a click
            named_trump = named_trump or clicked[0] == "trump"

            # The summary: Tiny's sides (each player), the tricks they took, the scores.
            qtbot.waitUntil(lambda: table.summary.isVisible(), timeout=15000)
            shown = table.summary.summary
            game_over = hand == 3 and "takes the game" in shown.headline.text()
            assert shown.headline.text() == "Hand over." or game_over
            cells = [shown.table.itemAt(i).widget().text() for i in range(shown.table.count())]
            assert cells[:4] == ["<b></b>", "<b>Tricks</b>", "<b>This hand</b>", "<b>Total</b>"]
            assert sum(int(c) for c in cells[5::4]) == info.hand_size  # every trick counted
            assert table.summary.leave_button.isVisible()
            assert table.summary.next_button.isVisible() or game_over
            if named_trump:
                break
            qtbot.mouseClick(table.summary.next_button, Qt.LeftButton)
            host.next_hand()
        assert named_trump
    finally:
        for session in reversed(sessions):
            session.close()
        bridge.close()


def play_the_hand(qtbot, table, words) -> tuple[bool, list[str]]:
    """Name trump and play a card whenever it is your turn, by clicking, until the hand
    ends: (whether a trick was seen on the table, its cards named as the title names
    them; what you clicked)."""
    seen_trick, clicked = False, []
    done = []  # the positions already answered: (hand, actions so far)

    def position():
        return table.hand_number, len(table.view.get("actions") or [])

    def over() -> bool:
        return table.summary.isVisible() or table.holding or table.view.get("phase") == "done"

    while not over():
        qtbot.waitUntil(lambda: over() or (bool(table.legal) and position() not in done), timeout=15000)
        trick = table.trick
        if trick.cards and all(words[card] in trick.accessibleDescription() for _seat, card in trick.cards):
            seen_trick = True
        if over():
            break
        done.append(position())
        legal = table.legal
        if "trump" in legal[0]:
            qtbot.mouseClick(table.decision.buttons["trump-" + legal[0]["trump"]], Qt.LeftButton)
            clicked.append("trump")
        else:
            qtbot.mouseClick(table.hand.widget_for(legal[0]["play"]), Qt.LeftButton)
            clicked.append(legal[0]["play"])
    return seen_trick, clicked
