"""The hand's summary of a player back after a restart is a never-left player's (issue
28, item 4): the scoring sentence, the cards hidden until the end, and a chart of every
hand of the game — and a game against the computer continued charts the hands played
before it was closed.

A ``parlour host`` process plays two hands of Rook (Grandma, a computer player, and Mum
headless in seat 3, who never leaves); Dad's app plays the first hand from its window,
closes at his first decision of the second, starts again with the same data directory,
rejoins and plays the hand to its end (the host keeps his seat for him meanwhile: no
computer player stands in, ``STAND_IN_NEVER``). Under the private deal the host deals that hand
again without him: his cards are the host's, and his app learns the whole deal only from
the parties' reveals at the end (``net.trust.deals.mental.witness``). A wait that times
out after the Rejoin says what Dad's app showed and what the host did.
"""

from __future__ import annotations

import contextlib

import pytest
from PySide6.QtCore import Qt
from pytestqt.exceptions import TimeoutError

from test_app_back_after_restart import DAD, DEALS, STEADY, dad_gone, play_to_the_end, start_table
from tests.net.proc_kit import Peers
from tests.waits import qt_until

SUMMARY_FIELDS = ("hand", "result", "scores", "breakdown", "history")


@contextlib.contextmanager
def saying_what_the_app_shows(window, told: list[dict], host):
    """A wait that times out in here fails saying what Dad's app showed, and the host."""
    try:
        yield
    except TimeoutError as exc:
        raise AssertionError("Dad's app, back, timed out: " + what_the_app_shows(window, told, host)) from exc


def what_the_app_shows(window, told: list[dict], host) -> str:
    """For a failure: the page the window shows and what it says, the session's last
    events, and the host's last lines and stderr."""
    page = window.stack.currentWidget()
    setup = window.setup
    said = [f"page: {type(page).__name__}",
            f"setup: {setup.title.text()!r} / {setup.subtitle.text()!r} / problem {setup.problem.text()!r}"
            f" / notice {setup.notice.text()!r}"]
    table, view = window.table, window.table.view or {}
    said.append(f"table: hand {table.hand_number}, phase {view.get('phase')}, to act {view.get('to_act')},"
                f" legal {table.legal}, you {table.you}")
    if window.problem_box is not None and window.problem_box.isVisible():
        said.append(f"problem box: {window.problem_box.text()!r}")
    said += [f"event: {short(e)}" for e in told[-12:]] or ["no event from the session"]
    said += [f"host: {short(e)}" for e in host.lines[-12:]]
    said.append("host stderr: " + "".join(host.stderr)[-1500:])
    return "\n".join(said)


def short(event: dict) -> str:
    """An event without its bulky parts (a state's view)."""
    return str({k: v for k, v in event.items() if k not in ("view", "events", "legal", "record")})[:400]


@pytest.fixture
def peers():
    with Peers() as p:
        yield p


@pytest.mark.parametrize("deal", DEALS)
def test_a_player_back_after_a_restart_gets_the_summary_of_one_who_never_left(
        qtbot, peers, tmp_path, settings, deal):
    from app.window import MainWindow
    from net.sessions.network import Network
    home = tmp_path / "dad"
    home.mkdir()
    host, mum, address = start_table(peers, tmp_path, "rook", deal, hands=2)  # (his seat kept for him)
    settings.display_name = "Dad"

    def dads_app() -> MainWindow:
        window = MainWindow(settings, network_loader=lambda: Network(interfaces=[], home=home, timings=STEADY),
                            bot_delay=0)
        window.table.last_trick_hold_ms = 0
        qtbot.addWidget(window)
        window.show()
        return window

    first = dads_app()
    try:
        first.join(address)
        qt_until(qtbot, lambda: first.stack.currentWidget() is first.table)
        _, end = play_to_the_end(qtbot, first)
        assert end["hand"] == 0 and first.table.you == DAD
        # the second hand dealt, and Dad's first decision in it on screen: he closes Parlour
        qt_until(qtbot, lambda: first.table.hand_number == 2 and bool(first.table.legal), timeout=60000)
    finally:
        first.leave_table(to_lobby=False)
        first.close()
    dad_gone(host, deal)

    window = dads_app()
    summaries = []
    try:
        qt_until(qtbot, window.lobby.rejoin_button.isVisible)
        qtbot.mouseClick(window.lobby.rejoin_button, Qt.LeftButton)
        told: list[dict] = []  # the rejoined session's events, for a failure to show
        window.bridge.event.connect(told.append)
        with saying_what_the_app_shows(window, told, host):
            qt_until(qtbot, lambda: window.stack.currentWidget() is window.table)
            window.table.results.summary_ready.connect(lambda: summaries.append(True))
            _, end = play_to_the_end(qtbot, window)
            qt_until(qtbot, lambda: summaries)
        summary = window.table.summary.summary
        shown = {"arithmetic": summary.arithmetic.text() if summary.arithmetic.isVisibleTo(summary) else "",
                 "buried": [card for card, _, _ in summary.hidden_cards.cards],
                 "chart": summary.chart.history}
    finally:
        window.close()

    never_left = mum.wait_event("hand_over", where=lambda e: e["hand"] == 1)
    every_hand = [e["scores"] for e in mum.events("hand_over")]
    assert len(every_hand) == 2
    assert {k: end.get(k) for k in SUMMARY_FIELDS} == {k: never_left.get(k) for k in SUMMARY_FIELDS}
    assert never_left["breakdown"] is not None
    buried = next(c["cards"] for c in never_left["breakdown"]["cards"] if c["label"] == "Buried cards")
    assert shown["arithmetic"] and sorted(shown["buried"]) == sorted(buried), shown
    assert shown["chart"] == every_hand  # "after 2 hands", both of them


def test_a_game_continued_charts_the_hands_played_before(qtbot, window):
    """The chart after a Continue: every hand of the game, not only those played since."""
    from app_driver import TABLE_SEED
    table = window.table
    window.start_local({"game": "rook"}, autoplay=True, table_seed=TABLE_SEED)
    qt_until(qtbot, window.setup.start_button.isEnabled)
    qtbot.mouseClick(window.setup.start_button, Qt.LeftButton)
    ends: list = []
    window.bridge.hand_over.connect(ends.append)
    qt_until(qtbot, lambda: len(ends) >= 2, timeout=60000)
    window.leave_table()
    before = [e["scores"] for e in ends]
    qt_until(qtbot, window.lobby.unfinished_card.isVisible)
    window.debug_autoplay = True  # the bots play your seat after the Continue too
    window.continue_game(window.lobby.unfinished[0])
    charted: list = []  # the summary's chart at each hand's end (after the table's own slot)
    window.bridge.hand_over.connect(lambda _e: charted.append(list(table.summary.summary.chart.history)))
    qt_until(qtbot, lambda: charted, timeout=60000)
    # (the continued game may have finished a hand left mid-way when it closed)
    assert charted[0][:len(before)] == before and len(charted[0]) > len(before), (before, charted[0])
