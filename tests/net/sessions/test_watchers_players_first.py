"""Players first (``Watchers.publish``), without I/O: an entry goes to the watchers once
every player holds it, or when ``PLAYERS_FIRST`` is up, and always before the table's
"end" or a handover — in the log's order, each once; a private deal's own entries only
once it is dealt, together (or with anything else the table logs meanwhile)."""

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
        self.entries: list = []  # the log: each entry's seq and kind
        archive = SimpleNamespace(log=self.entries, public_message=lambda seq: {
            "type": "entry", "entry": {"entry": {"seq": seq}}},
            catch_up=lambda seq: {"type": "entry", "entry": {"entry": {"seq": seq}}})
        authority = SimpleNamespace(archive=archive)
        self.watchers = Watchers(lambda: authority, b"host", admission=None, players=list,
                                 roster=None, emit=lambda event: None,
                                 players_hold=lambda seq: seq <= self.held,
                                 timers=Timers(self.clock.call_later))
        self.links = {fp: FakeLink(fp) for fp in ("leo", "maya")}
        for fp, link in self.links.items():
            self.watchers.here[fp] = Watcher(fp, fp.encode(), fp, link)
            self.watchers.outbox.attach(fp, link, -1)

    def log(self, *seqs: int, kind: str = "action") -> None:
        """Entries ``seqs`` logged (of ``kind``), the next in the log, and published."""
        logged = [SimpleNamespace(seq=seq, kind=kind) for seq in seqs]
        assert [e.seq for e in logged] == list(range(len(self.entries), len(self.entries) + len(seqs)))
        self.entries += logged
        self.watchers.publish(logged)

    def logged(self, *kinds: str) -> list[int]:
        """The next entries, one of each kind, logged and published one by one: their seqs."""
        seqs = []
        for kind in kinds:
            seqs.append(len(self.entries))
            self.log(seqs[-1], kind=kind)
        return seqs

    def players_acknowledge(self, seq: int) -> None:
        self.held = seq
        self.watchers.players_verified()

    def seen(self, fp: str = "leo") -> list:
        """What ``fp`` was sent: an entry's seq, a sync's as a tuple, or the message's type."""
        return [m["entry"]["entry"]["seq"] if m["type"] == "entry"
                else tuple(e["entry"]["entry"]["seq"] for e in m["entries"]) if m["type"] == "sync"
                else m["type"] for m in self.links[fp].sent]


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


#: A private deal's kinds (``net.trust.deals.mental.log``).
DEAL, MENTAL, RESTART, DEALT = "mental-deal", "mental", "mental-restart", "mental-dealt"


def test_a_private_deal_reaches_the_watchers_once_it_is_dealt_all_of_it_in_one_sync():
    table = Table()
    table.logged("start")
    deal = table.logged(DEAL, MENTAL, MENTAL, MENTAL)
    table.players_acknowledge(deal[-1])  # every player holds the deal so far
    assert table.seen() == [0], "a deal's proofs went to a watcher before it was dealt"
    table.clock.run_all()  # (players first's time up: still nothing of the deal)
    assert table.seen() == [0]
    [dealt] = table.logged(DEALT)
    assert table.seen() == [0]  # (players first: not before the players hold its end)
    table.players_acknowledge(dealt)
    assert table.seen() == [0, tuple(deal), dealt] and table.seen("maya") == table.seen()
    [bid] = table.logged("action")  # (the hand's play: each entry as before)
    table.players_acknowledge(bid)
    assert table.seen()[-1] == bid


def test_anything_else_logged_during_the_deal_takes_the_deal_so_far_with_it_in_order():
    """A drop (or a restart) in the middle of a deal is the table's news: it goes as it
    comes, after the deal's entries before it; the deal's after it wait again."""
    table = Table()
    before = table.logged(DEAL, MENTAL)
    [drop] = table.logged("drop")
    after = table.logged(MENTAL)
    [restart] = table.logged(RESTART)
    again = table.logged(MENTAL, MENTAL)
    table.players_acknowledge(again[-1])
    assert table.seen() == [tuple(before), drop, tuple(after), restart]
    [dealt] = table.logged(DEALT)
    table.players_acknowledge(dealt)
    assert table.seen() == [tuple(before), drop, tuple(after), restart, tuple(again), dealt]


def test_a_hands_proofs_after_the_deal_go_as_they_come():
    """``mental`` entries once the cards are dealt (a move's proof, the reveals) are not
    the deal's: nothing holds them."""
    table = Table()
    table.logged(DEAL, MENTAL)
    [dealt] = table.logged(DEALT)
    reveals = table.logged(MENTAL, MENTAL, "hand_end")
    table.players_acknowledge(reveals[-1])
    assert table.seen() == [(0, 1), dealt, *reveals]


def test_the_end_and_a_handover_take_a_deal_not_yet_dealt_with_them():
    for last in ("end", "handover"):
        table = Table()
        deal = table.logged(DEAL, MENTAL)
        table.players_acknowledge(deal[-1])
        (table.watchers.end if last == "end" else table.watchers.broadcast)({"type": last})
        assert table.seen() == [tuple(deal), last], last


def test_under_the_seeded_deal_nothing_is_held_for_the_deal():
    table = Table()
    seqs = table.logged("start", "commit", "contribution", "deal", "action")
    for seq in seqs:
        table.players_acknowledge(seq)
        assert table.seen()[-1] == seq  # each as every player holds it
    assert table.seen() == seqs
