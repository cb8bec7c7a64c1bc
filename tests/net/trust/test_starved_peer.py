"""A peer starved of CPU never finds an honest host's wait too short (issue 30), under
both deals; in process, through the host's authority and every peer's replica, one
clock the test moves.

A starved peer's loop does not run: what the host sends it waits, unread, and is read
in one go when the loop runs again — the host's drop and, the deadline later, its
restart (the private deal), or the commitment and the skip of a silent seat (the
seeded deal), read at the same moment. Timed from when it *read* each entry the host
waited no time at all; the replica times an entry from the earliest moment it could
have come in instead (``receive(…, arrived=…)``: the last time the peer's link found
nothing waiting to be read, ``heartbeat.Link.arrived``), and a restart or a skip from
when it is read. Then the wait it measures is never shorter than the host's, and a host
that cuts the wait short is still named, unless this peer's own starvation covers what
it cut."""

from __future__ import annotations

import pytest

from net.constants import CONTRIBUTION_DEADLINE, CONTRIBUTION_SLACK
from net.trust.alerts import HOST
from net.trust.deals.mental import log as ml
from net.trust.values import EntryMessage
from tests.net.trust.test_mental_drops import GONE, Clock, gone, table_with_clock
from tests.net.trust_table import Table

STARVED = 3  # the peer whose loop is starved (seat 2's player is the one gone, or silent)


def starve(table, seat: int = STARVED) -> list[dict]:
    """From now on nothing the host sends ``seat`` is read: it waits in the list returned."""
    backlog: list[dict] = []
    other = table.tamper

    def hold(fp, msg):
        if fp == table.fp(seat):
            backlog.append(msg)
            return None
        return other(fp, msg) if other is not None else msg
    table.tamper = hold
    return backlog


def kind(message: dict) -> str:
    return EntryMessage.from_wire(message).entry.kind


def read_in_one_go(table, backlog: list[dict], arrived: float | None, seat: int = STARVED):
    """The starved peer's loop runs again: it reads its whole backlog now (each message
    came in no sooner than ``arrived``; None: timed as it is read), its answers go to the
    host. Its integrity alert, if it raised one."""
    replica = table.replicas[seat]
    for msg in backlog:
        out = replica.receive(msg, arrived=arrived)
        if out.alerts:
            return out.alerts[0]
        for reply in out.sends:
            table.deliver(table.host.receive(table.fp(seat), reply))
    backlog.clear()
    return None


# -- the private deal: a player gone, the hand voided without them ------------------------------

def gone_mid_hand(table, clock) -> list[dict]:
    """A hand dealt and a few moves in; seat 3's loop starved from here on, then seat 2's
    player drops: its drop waits in seat 3's backlog (returned)."""
    table.start()
    for _ in range(4):
        table.step()
    gone(table)
    backlog = starve(table)
    table.deliver(table.host.drop(GONE))
    return backlog


@pytest.mark.slow  # (a private deal's hand: a second or more of CPU)
def test_a_starved_peer_accepts_an_honest_void_it_reads_with_the_drop():
    table, clock = table_with_clock()
    looked = clock.now  # the last time seat 3's link found nothing waiting
    backlog = gone_mid_hand(table, clock)
    clock.now += CONTRIBUTION_DEADLINE  # the host person deals again without seat 2
    table.deliver(table.host.restart_without([GONE]))
    assert [k for k in map(kind, backlog) if k != "mental"][:2] == ["drop", ml.RESTART]
    assert read_in_one_go(table, backlog, arrived=looked) is None
    assert table.replicas[STARVED].seq == table.host.chain.seq and table.alerts == []


@pytest.mark.slow  # (a private deal's hand: a second or more of CPU)
def test_timed_as_it_reads_a_starved_peer_would_name_an_honest_host():
    """What the replica did before entries were timed from their arrival (and still does
    for a message whose arrival it is not told): the drop read at the same moment as the
    void, 0.0 s apart."""
    table, clock = table_with_clock()
    backlog = gone_mid_hand(table, clock)
    clock.now += CONTRIBUTION_DEADLINE
    table.deliver(table.host.restart_without([GONE]))
    alert = read_in_one_go(table, backlog, arrived=None)
    assert alert is not None and (alert.party, alert.rule) == (HOST, "deal"), alert
    assert "0.0 s after seats [2] dropped" in alert.detail, alert.detail


@pytest.mark.slow  # (a private deal's hand: a second or more of CPU)
def test_a_starved_peer_names_a_host_that_cuts_the_wait_by_more_than_its_starvation():
    """The host voids the hand 1 s after the drop; seat 3 reads both 3 s after it last
    looked (it was starved for 3 s): 3 s is all it can say the host waited, too little."""
    table, clock = table_with_clock()
    looked = clock.now
    backlog = gone_mid_hand(table, clock)
    clock.now += 1.0
    table.deliver(table.host.restart_without([GONE]))  # far sooner than the deadline
    clock.now += 2.0
    alert = read_in_one_go(table, backlog, arrived=looked)
    assert alert is not None and (alert.party, alert.rule) == (HOST, "deal"), alert
    assert "3.0 s after seats [2] dropped; it must wait 10 s" in alert.detail, alert.detail


@pytest.mark.slow  # (a private deal's hand: a second or more of CPU)
def test_a_host_that_cuts_the_wait_short_gains_no_more_than_the_peers_starvation():
    """Seat 3 starved for longer than the floor (the deadline less the slack) cannot tell a
    restart that came 1 s after the drop from an honest one: only its own starvation gives
    a dishonest host leeway, and only with this peer."""
    table, clock = table_with_clock()
    looked = clock.now
    backlog = gone_mid_hand(table, clock)
    clock.now += 1.0
    table.deliver(table.host.restart_without([GONE]))
    clock.now += CONTRIBUTION_DEADLINE - CONTRIBUTION_SLACK - 1.0
    assert read_in_one_go(table, backlog, arrived=looked) is None
    assert table.alerts[0][0] != STARVED  # seat 1, not starved, named the host
    assert {seat for seat, _ in table.alerts} == {1}


# -- the seeded deal: a silent seat's shuffle skipped ----------------------------------------------

def silent_shuffle(seat: int):
    """A Rook table whose seat ``seat`` never sends its shuffle (its computer hangs: it
    reads nothing more), on a clock the test moves."""
    table, clock = Table(("rook", None, None)), Clock()
    for replica in table.replicas.values():
        replica.clock = clock
    gone(table, seat)
    return table, clock


def test_a_starved_peer_accepts_an_honest_skip_it_reads_with_the_commitment():
    table, clock = silent_shuffle(GONE)
    looked = clock.now
    backlog = starve(table)
    table.deliver(table.host.start_game(dealer=0))
    clock.now += CONTRIBUTION_DEADLINE
    table.deliver(table.host.restart_without([GONE]))  # seat 3's shuffle is not in either
    assert [kind(m) for m in backlog] == ["start", "commit", "contribution", "skip"]  # (seat 1's)
    assert read_in_one_go(table, backlog, arrived=looked) is None
    assert table.alerts == [] and table.replicas[STARVED].seq == table.host.chain.seq
    assert "deal" in [s.kind for s in table.host.log]  # seat 3's shuffle came: dealt


def test_timed_as_it_reads_a_starved_peer_would_name_an_honest_skip():
    table, clock = silent_shuffle(GONE)
    backlog = starve(table)
    table.deliver(table.host.start_game(dealer=0))
    clock.now += CONTRIBUTION_DEADLINE
    table.deliver(table.host.restart_without([GONE]))
    alert = read_in_one_go(table, backlog, arrived=None)
    assert alert is not None and (alert.party, alert.rule) == (HOST, "contribution"), alert
    assert "skipped seat 2's shuffle 0.0 s after the commitment" in alert.detail, alert.detail


def test_a_starved_peer_names_a_skip_sooner_than_its_starvation_covers():
    table, clock = silent_shuffle(GONE)
    looked = clock.now
    backlog = starve(table)
    table.deliver(table.host.start_game(dealer=0))
    clock.now += 1.0
    table.deliver(table.host.restart_without([GONE]))  # at once, nearly
    clock.now += 2.0
    alert = read_in_one_go(table, backlog, arrived=looked)
    assert alert is not None and (alert.party, alert.rule) == (HOST, "contribution"), alert
    assert "3.0 s after the commitment" in alert.detail, alert.detail
