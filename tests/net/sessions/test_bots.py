"""The bot driver: each due seat decided once per position, after its pace, and only
while the table is still where it was (sans-I/O: a fake clock, recorded moves)."""

from net.sessions.bots import BotDriver
from tests.net.sessions.parts_kit import FakeClock


class Table:
    def __init__(self):
        self.position = 0
        self.due = [1, 2]
        self.moves: list[tuple[int, int]] = []

    def move(self, seat: int) -> None:
        self.moves.append((seat, self.position))
        self.due = [s for s in self.due if s != seat]
        self.position += 1


def driver(table: Table, clock: FakeClock, pace: float = 0.5) -> BotDriver:
    return BotDriver(clock.call_later, due=lambda: list(table.due), position=lambda: table.position,
                     move=table.move, pace=lambda: pace)


def test_each_due_seat_is_scheduled_once_after_the_pace():
    table, clock = Table(), FakeClock()
    bots = driver(table, clock)
    bots.poke()
    bots.poke()  # a second look changes nothing while the decisions are on the clock
    assert [(e[0], e[2]) for e in clock.live()] == [(0.5, (1, 0)), (0.5, (2, 0))]
    clock.run_next()
    assert table.moves == [(1, 0)]


def test_a_decision_for_a_position_the_table_has_left_is_made_afresh():
    table, clock = Table(), FakeClock()
    bots = driver(table, clock)
    bots.poke()
    clock.run_next()  # seat 1 plays: the table moves on
    clock.run_next()  # seat 2's decision was for the old position: not played, rescheduled
    assert table.moves == [(1, 0)] and [e[2] for e in clock.live()] == [(2, 1)]
    clock.run_all()
    assert table.moves == [(1, 0), (2, 1)]


def test_a_seat_no_longer_due_does_not_play_and_stop_ends_everything():
    table, clock = Table(), FakeClock()
    bots = driver(table, clock)
    bots.poke()
    table.due = [2]  # seat 1's turn was taken by someone else (its player came back)
    clock.run_next()
    assert table.moves == []
    bots.stop()
    clock.run_all()
    bots.poke()
    assert table.moves == [] and not clock.live()


def test_a_bot_that_fails_is_logged_and_the_table_goes_on(caplog):
    clock = FakeClock()

    def broken(seat):
        raise RuntimeError("bot bug")
    bots = BotDriver(clock.call_later, due=lambda: [1], position=lambda: 0, move=broken)
    bots.poke()
    clock.run_next()
    assert "seat 1's bot failed" in caplog.text
    bots.poke()  # and it may be asked again
    assert len(clock.live()) == 1
