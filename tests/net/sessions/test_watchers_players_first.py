"""Players first (``Watchers.publish``), without I/O: an entry goes to the watchers once
every player holds it, or when ``PLAYERS_FIRST`` is up, and always before the table's
"end" or a handover — in the log's order, each once."""

from __future__ import annotations

from types import SimpleNamespace

from net.constants import PLAYERS_FIRST
from net.sessions.clock import Timers
from net.sessions.watchers import Watcher, Watchers
from tests.net.sessions.parts_kit import FakeClock, FakeLink


class Table:
    """A ``Watchers`` with two watchers on recording links, a fake clock, and the
    players' acknowledgements set by hand (``held``: the entry every player holds)."""

    def __init__(self):
        self.clock = FakeClock()
        self.held = -1
        archive = SimpleNamespace(public_message=lambda seq: {
            "type": "entry", "entry": {"entry": {"seq": seq}}})
        authority = SimpleNamespace(archive=archive)
        self.watchers = Watchers(lambda: authority, b"host", admission=None, players=list,
                                 roster=None, emit=lambda event: None,
                                 players_hold=lambda seq: seq <= self.held,
                                 timers=Timers(self.clock.call_later))
        self.links = {fp: FakeLink(fp) for fp in ("leo", "maya")}
        for fp, link in self.links.items():
            self.watchers.here[fp] = Watcher(fp, fp.encode(), fp, link)
            self.watchers.outbox.attach(fp, link, -1)

    def log(self, *seqs: int) -> None:
        self.watchers.publish([SimpleNamespace(seq=seq) for seq in seqs])

    def players_acknowledge(self, seq: int) -> None:
        self.held = seq
        self.watchers.players_verified()

    def seen(self, fp: str = "leo") -> list:
        return [m["entry"]["entry"]["seq"] if m["type"] == "entry" else m["type"]
                for m in self.links[fp].sent]


def test_an_entry_reaches_the_watchers_once_every_player_holds_it():
    table = Table()
    table.log(0, 1)
    assert table.seen() == [] and table.seen("maya") == []  # the players have neither yet
    table.players_acknowledge(0)
    assert table.seen() == [0] and table.seen("maya") == [0]
    table.log(2)
    table.players_acknowledge(2)
    assert table.seen() == [0, 1, 2] and table.seen("maya") == [0, 1, 2]  # in order, each once
    assert table.clock.live() == []  # nothing held: no timer left


def test_an_entry_the_players_already_hold_goes_at_once():
    table = Table()
    table.held = 5  # (a host with no player connected holds nothing back: all of none)
    table.log(0)
    assert table.seen() == [0]


def test_a_player_slow_to_acknowledge_holds_the_watchers_back_no_longer_than_players_first():
    table = Table()
    table.log(0)
    table.log(1)
    [timer] = table.clock.live()  # one timer for what is held, not one per entry
    assert timer[0] == PLAYERS_FIRST
    table.clock.run_all()
    assert table.seen() == [0, 1] and table.seen("maya") == [0, 1]
    table.players_acknowledge(1)  # (late: nothing sent twice)
    assert table.seen() == [0, 1]


def test_the_end_and_a_handover_come_after_every_entry():
    for last in ("end", "handover"):
        table = Table()
        table.log(0, 1)
        message = {"type": last}
        (table.watchers.end if last == "end" else table.watchers.broadcast)(message)
        assert table.seen() == [0, 1, last], last
        assert table.clock.live() == []
