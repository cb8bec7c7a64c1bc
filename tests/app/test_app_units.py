"""Small pieces: card names and hand order, the event bridge across threads, the local
session's refusals, and the PySide6 refcount guard."""

from __future__ import annotations

import threading

from app import assets, cardnames
from app.bridge import EventBridge
from app.table import viewmodel as vm
from app.titles import presentation
from engine import make_game

ROOK, SOMERSET = make_game("rook").info, make_game("somerset").info
HORSESHOES = make_game("horseshoes", mode="four").info
HORSESHOES_3 = make_game("horseshoes", mode="three").info


def test_spoken_card_names():
    assert cardnames.spoken(ROOK, "R14") == "Red 14"
    assert cardnames.spoken(ROOK, "ROOK") == "the Rook bird"
    assert cardnames.spoken(SOMERSET, "8/8") == "8 of the /8 suit"
    assert cardnames.spoken(SOMERSET, "S/S") == "the S/S"
    assert cardnames.spoken(HORSESHOES, "TD") == "10 of diamonds"


def test_a_hint_names_cards_as_the_table_does():
    assert cardnames.spoken_in_text(ROOK, "lead the B12, not the B1 or ROOK") == \
        "lead the Black 12, not the Black 1 or the Rook bird"
    assert cardnames.spoken_in_text(SOMERSET, "keep 3/8 (not 13/8) and S/S") == \
        "keep 3 of the /8 suit (not 13/8) and the S/S"
    assert cardnames.spoken_in_text(HORSESHOES, "AS beats TD. AS") == "Ace of spades beats 10 of diamonds. Ace of spades"


def test_hand_order_puts_trump_first():
    hand = ["R5", "G1", "ROOK", "G14", "B2", "R1"]
    assert cardnames.sort_hand(ROOK, hand) == ["ROOK", "B2", "R1", "R5", "G1", "G14"]
    assert cardnames.sort_hand(ROOK, hand, "G") == ["ROOK", "G1", "G14", "B2", "R1", "R5"]
    assert cardnames.sort_hand(SOMERSET, ["S/S", "3/8", "12/12", "0/8"], "8") == ["3/8", "0/8", "S/S", "12/12"]
    assert cardnames.sort_hand(HORSESHOES, ["2H", "AS", "KH", "3C"], "H") == ["KH", "2H", "AS", "3C"]


def test_view_model_reads_each_titles_bids():
    somerset = {"game": "somerset", "last_bid": [None, 14, "pass", None], "phase": "bidding", "high_bid": 14}
    assert presentation(SOMERSET).seat_bid(somerset, 1) == "14"
    assert presentation(SOMERSET).seat_bid(somerset, 2) == "Pass"
    rook = {"game": "rook", "bids": [[1, 100], [2, 105]], "passed": [3],
            "contract": {"bidder": 2, "amount": 110, "stuck": False}}
    assert presentation(ROOK).seat_bid(rook, 2) == "105" and presentation(ROOK).seat_bid(rook, 3) == "Pass"
    assert presentation(ROOK).contract_text(rook, ["A", "B", "C", "D"]) == "C bid 110"
    assert presentation(ROOK).contract_text(rook, ["A", "B", "C", "D"], short=True) == "Bid 110"
    horseshoes = {"game": "horseshoes", "mode": "three", "bids": [3, None, 4]}
    assert presentation(HORSESHOES_3).contract_text(horseshoes, ["A", "B", "C"]) == "Bids 3 + 4 = 7 of 13 tricks"
    # one bid is no sum (issue 28: "Bids 5 = 5 of 13")
    first = {"game": "horseshoes", "mode": "three", "bids": [None, 5, None]}
    assert presentation(HORSESHOES_3).contract_text(first, ["A", "B", "C"]) == "Bids 5 of 13 tricks"
    assert not vm.partnerships(HORSESHOES_3)
    assert vm.partnerships(ROOK)
    assert vm.side_names(ROOK, ["Ann", "Bo", "Cy", "Di"]) == ["Team A (Ann & Cy)", "Team B (Bo & Di)"]
    assert vm.side_names(HORSESHOES_3, ["Ann", "Bo", "Cy"]) == ["Ann", "Bo", "Cy"]


def test_bridge_delivers_on_the_gui_thread(qtbot):
    bridge = EventBridge()
    seen = []
    bridge.state.connect(lambda e: seen.append((e["n"], threading.current_thread() is threading.main_thread())))
    worker = threading.Thread(target=lambda: [bridge.deliver({"type": "state", "n": n}) for n in range(5)])
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: len(seen) == 5)
    assert seen == [(n, True) for n in range(5)]
    bridge.close()
    bridge.deliver({"type": "state", "n": 9})
    qtbot.wait(0)
    assert len(seen) == 5  # a closed bridge stays quiet


def seed_where_seat_0_bids_first() -> bytes:
    from engine import Match, make_game
    from engine.deal import derive_seed
    game = make_game("rook")
    return next(seed for seed in (bytes([i]) * 32 for i in range(64))
                if Match(game, derive_seed(seed, "game", 0)).dealer == 3)


def test_local_session_reports_illegal_actions(qtbot):
    from net.sessions.local import LocalSession
    bridge = EventBridge()
    errors, states = [], []
    bridge.error.connect(errors.append)
    bridge.state.connect(states.append)
    session = LocalSession(bridge.deliver, {"game": "rook"}, bot_delay=0, table_seed=seed_where_seat_0_bids_first())
    try:
        session.act({"bid": 100})
        qtbot.waitUntil(lambda: bool(errors))
        assert errors[0]["message"] == "there is no hand in progress"
        session.start_game()
        qtbot.waitUntil(lambda: any(s["legal"] for s in states))
        session.act({"bid": 103})
        qtbot.waitUntil(lambda: len(errors) == 2)
        assert "steps of 5" in errors[1]["message"]
    finally:
        session.close()
    assert not session.thread.is_alive()



def test_a_played_card_glides_in_when_animations_are_on(qtbot):
    from app.table.trick_area import TrickArea
    area = TrickArea()
    qtbot.addWidget(area)
    area.resize(500, 400)
    area.show()
    area.animation_ms = 60
    area.configure(assets.deck_for(ROOK), 84, 4, 0)
    area.show_trick([(1, "R5")])
    assert area._glide < 1.0  # on its way
    qtbot.waitUntil(lambda: area._glide == 1.0)
    area.animation_ms = 0
    area.show_trick([(1, "R5"), (2, "R9")])
    assert area._glide == 1.0  # animations off: the card is simply there


def test_game_log_shows_each_trick_with_leader_plays_and_winner():
    from engine import make_game
    from engine.bots import make_bot
    from app.table import viewmodel as vm
    game = make_game("rook")
    state = game.deal(bytes(32), 0)
    bot = make_bot("easy", 1)
    while len(state.tricks) < 2 or len(state.trick) < 2:
        seat = state.to_act()[0]
        state.apply(bot.choose(state, seat))
    names = ["Ann", "Bo", "Cy", "Di"]
    view = state.view(0)
    lines = vm.log_lines(game.info, view, names)
    assert any(" bids " in line for line in lines) and any("trump" in line for line in lines)
    tricks = [line for line in lines if line.startswith("Trick ")]
    assert len(tricks) == 3 and "(so far)" in tricks[-1]
    first = view["tricks"][0]
    assert tricks[0].startswith(f"Trick 1: {names[first['cards'][0][0]]} led — ")
    assert tricks[0].endswith(f"{names[first['winner']]} took it")


def test_the_status_line_says_whose_shuffle_the_deal_waits_for(qtbot, tmp_path):
    from app.settings import Settings
    from app.table.table_view import TableView
    view = TableView(Settings.at(str(tmp_path / "parlour.ini")))
    qtbot.addWidget(view)
    bridge = EventBridge()
    view.attach(object(), bridge)
    bridge.deliver({"type": "waiting", "for": "shuffle", "names": ["Dad"],
                    "detail": "Waiting for Dad's shuffle…"})
    qtbot.waitUntil(lambda: view.status.text() == "Waiting for Dad's shuffle…")


def test_a_seat_goes_to_a_new_key_only_with_the_hosts_yes(qtbot):
    from app.readmit_dialog import ask_readmit

    class Session:
        def __init__(self):
            self.calls = []

        def set_seat(self, seat, kind, level=None, player=None):
            self.calls.append(("set_seat", seat, kind, player))

        def turn_away(self, fingerprint):
            self.calls.append(("turn_away", fingerprint))

    event = {"type": "readmit", "seat": 2, "name": "Dad", "old_fingerprint": "3f9a-07c2-b1d4-e608",
             "new_fingerprint": "7c21-0000-aaaa-bbbb", "new_name": "Dad"}
    for button, expected in (("give_button", ("set_seat", 2, "human", "7c21-0000-aaaa-bbbb")),
                             ("keep_button", ("turn_away", "7c21-0000-aaaa-bbbb"))):
        session = Session()
        dialog = ask_readmit(session, event)
        qtbot.addWidget(dialog)
        text = dialog.text() + dialog.informativeText()
        assert "Dad's seat (seat 3)" in text
        assert "3f9a-07c2-b1d4-e608" in text and "7c21-0000-aaaa-bbbb" in text
        assert session.calls == []  # nothing happens until the host answers
        getattr(dialog, button).click()
        assert session.calls == [expected]
