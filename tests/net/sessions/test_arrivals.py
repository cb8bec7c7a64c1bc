"""Arrivals: what each "join" gets — a seat, a rejoin, the waiting room and the host
person's yes or no — and what a link that ends means (a recording table around a real
HostAuthority, links that keep what is sent; no sockets)."""

from net.sessions.arrivals import Arrivals
from tests.net.sessions.parts_kit import FakeLink, RecordingTable
from tests.net.trust_table import identity


def arrivals(t: RecordingTable, **kw) -> Arrivals:
    return Arrivals(lambda: t.authority, t.key, t.outbox, t.stand_ins, t.takeback, t.timers,
                    t.admission, emit=t.emit, apply=t.apply, log_only=t.log_only,
                    settled=t.settled, refresh=t.refresh, is_open=lambda: t.is_open,
                    unseated_wait=kw.pop("wait", 60), restart_grace=kw.pop("grace", 5), **kw)


def join(a: Arrivals, name: str, seat=None, last_seq=-1) -> FakeLink:
    who = identity(name)
    link = FakeLink(name, ticket=f"ticket-{name}")
    a.join(who.fingerprint, who.public_key, name, link, {"seat": seat, "last_seq": last_seq})
    return link


def test_before_the_deal_a_newcomer_gets_the_seat_it_asks_for_and_the_log():
    t = RecordingTable()
    a = arrivals(t)
    link = join(a, "peer2", seat=2)
    assert t.authority.seats[2].name == "peer2"
    assert link.sent[0] == {"type": "joined", "table": "table-1", "seat": 2,
                            "head": t.authority.chain.seq}
    assert "sync" in link.kinds() and t.outbox.holds(identity("peer2").fingerprint, link)
    assert ("seat ticket", "ticket-peer2") in t.calls and t.names()[-1] == "refresh"
    assert t.events[-1]["state"] == "connected"


def test_a_full_table_turns_a_stranger_away_before_the_deal():
    t = RecordingTable()
    a = arrivals(t)
    for name in ("peer1", "peer2", "peer3"):
        join(a, name)
    assert join(a, "stranger").closed == "rejected: the table is full"


def test_in_game_a_stranger_waits_and_the_host_person_decides():
    t = RecordingTable(stand_in_after=None)
    a = arrivals(t)
    dad = join(a, "peer2", seat=2)
    t.authority.start_game()
    a.ended(identity("peer2").fingerprint, dad, "silence")  # Dad drops
    assert t.authority.seats[2].connected is False
    new = join(a, "newdad")
    fp = identity("newdad").fingerprint
    assert a.waiting_list() == [{"fingerprint": fp, "name": "newdad"}]
    readmit = [e for e in t.events if e["type"] == "readmit"]
    assert readmit[-1]["seat"] == 2 and readmit[-1]["name"] == "peer2"
    assert a.readmit(2, fp)
    assert t.authority.seats[2].key == identity("newdad").public_key and new.sent[0]["seat"] == 2
    assert any(e["state"] == "readmitted" for e in t.events if e["type"] == "connection")
    other = join(a, "stranger")
    a.turn_away(identity("stranger").fingerprint)
    assert other.closed == "rejected: the host did not give you a seat" and not a.waiting_list()


def test_a_stranger_not_given_a_seat_in_time_is_sent_away():
    t = RecordingTable()
    a = arrivals(t, wait=9)
    for name in ("peer1", "peer2", "peer3"):
        join(a, name)
    t.authority.start_game()
    link = join(a, "late")
    assert [e[0] for e in t.clock.live()] == [9]
    t.clock.run_all()
    assert link.closed == "rejected: the host gave you no seat within 9 s"


def test_a_restarted_host_logs_a_peer_that_does_not_come_back_as_dropped():
    t = RecordingTable()
    a = arrivals(t, grace=5)
    join(a, "peer1", seat=1)
    t.authority.start_game()
    a.after_restart()
    t.clock.run_all()  # peer1's link is still here: not dropped
    assert t.authority.seats[1].connected
    t.outbox.detach(identity("peer1").fingerprint, t.outbox.links[identity("peer1").fingerprint])
    a.after_restart()
    t.clock.run_all()
    assert not t.authority.seats[1].connected
    assert t.events[-1]["detail"] == "did not come back after the host restarted"


def test_a_link_ending_at_a_closing_table_is_not_a_drop():
    t = RecordingTable()
    a = arrivals(t)
    link = join(a, "peer1", seat=1)
    t.authority.start_game()
    t.is_open = False
    a.ended(identity("peer1").fingerprint, link, "bye")
    assert t.authority.seats[1].connected


def test_a_second_live_connection_for_a_seat_is_refused_and_the_first_plays_on():
    """One identity, two copies of the app (issue 20): the second asking for the seat
    while the first's link is live is told why, once; the seat is not swapped."""
    t = RecordingTable()
    a = arrivals(t)
    first = join(a, "peer1", seat=1)
    first.live = True  # its heartbeats come in
    t.authority.start_game()
    second = join(a, "peer1", seat=1, last_seq=t.authority.chain.seq)
    assert second.kinds() == ["refused"] and second.finished
    assert "another Parlour with the same identity" in second.sent[0]["reason"]
    assert first.closed is None and t.outbox.holds(identity("peer1").fingerprint, first)
    assert t.events[-1]["state"] == "refused" and "live connection" in t.events[-1]["detail"]


def test_a_seat_whose_link_went_silent_is_taken_back_at_once():
    """A link that truly died (a laptop's network gone: nothing heard) is no reason to
    keep its player out: the new connection takes the seat's link over."""
    t = RecordingTable()
    a = arrivals(t)
    first = join(a, "peer1", seat=1)  # never heard from since: silent
    t.authority.start_game()
    again = join(a, "peer1", seat=1, last_seq=t.authority.chain.seq)
    assert again.sent[0]["type"] == "joined" and again.sent[0]["seat"] == 1
    assert first.closed == "replaced by a new connection from the same key"
    assert t.outbox.holds(identity("peer1").fingerprint, again)
