"""The table outlives its host — in seconds, and never in two places (issue 23).

A Rook table on loopback: a ``HostCore`` (seat 0, its own seat played by a bot) and
three ``GuestCore`` s, each standing by to carry the table on as the app does. The host
goes:

* **its app killed** (every link reset at once, its port refusing): the players carry
  the table on, and play goes on, well before the old 15-second grace — and a host
  restarted within the wait is simply back, nothing carried on;
* **its computer silent** (its network gone, the app alive: nothing arrives, a new
  connection is never answered): the same, once the heartbeats have told;
* **silent, with a guest cut off at the same moment**: two of the four players cannot
  carry the table on (a majority is three), nobody raises an alert, and when the host is
  back the table goes on where it was;
* **split from some of its players** (2 + 2, 3 + 1, 1 + 3): only a side holding a majority
  of the table's players carries it on; the others say why and keep trying, and once
  the network is whole again there is one table, every copy of its log the same — the
  host left alone learns where its table went, says so, and closes its copy.

The speed itself is measured by ``python -m net.tools.bench --takeovers``; these tests
use the protocol's own takeover timings and assert only "before the old grace".
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import pytest

from net.constants import (HEARTBEAT_INTERVAL, HEARTBEAT_TIMEOUT, TAKEOVER_AFTER_RESET,
                           TAKEOVER_AFTER_SILENCE, TAKEOVER_GATHER)
from net.sessions.guest_session import GuestCore
from net.sessions.host_session import HostCore, Phase
from net.sessions.table_files import read_meta
from net.trust import takeover
from net.trust.deals.mental import log as ml
from net.wire.heartbeat import Timings
from tests.net.session_kit import Reach, Table, only_the_gone_timed_tightly, silence
from tests.net.trust_table import identity as ident
from tests.waits import until

#: How long the players used to wait before carrying a table on (``TAKEOVER_GRACE``).
OLD_GRACE = 15.0
#: The protocol's heartbeats and takeover waits (the rest short, as in every test).
REAL = Timings.quick(interval=HEARTBEAT_INTERVAL, timeout=HEARTBEAT_TIMEOUT,
                     takeover_reset=TAKEOVER_AFTER_RESET, takeover_silent=TAKEOVER_AFTER_SILENCE,
                     takeover_gather=TAKEOVER_GATHER, takeover_retry=2.0)
#: Short timings, but a link silent for 5 s before it counts as dropped (the kits' quick
#: timings): the table shares one loop, and at load 10-15 a healthy link's 1 s of silence
#: dropped it before the hand had started (the private 1+3 split: the deal never got to
#: three moves in 60 s). A cut link is silent for good, and is seen 4 s later than at 1 s.
PATIENT_LINKS = Timings.quick(timeout=5.0)
CARRY_ON = {"bind": "127.0.0.1",
            "host_kw": {"hands": 1, "stand_in_after": 0.05, "auto_start": True, "headless": True,
                        "bot_delay": 0.01}}


async def four_players(tmp_path, deal: bool, timings=REAL, hands: int = 1) -> Table:
    """The host and three guests, each able to carry the table on, mid-hand."""
    table = Table(tmp_path, game="rook", hands=hands, guests=0, timings=timings,
                  host_kw={"mental_deal": deal, "bot_delay": 0.01})
    await table.start()
    for i in range(3):
        table.add_guest(ident(f"Guest{i}"), takeover=CARRY_ON, bot_delay=0.01)
    await until(lambda: table.hand_started() and len(table.host.authority.state.history) >= 3,
                what=table.where)
    await until(lambda: all(len(g.succession.roster) == 3 for g in table.guests), what=table.where)
    return table


def host_killed(table) -> None:
    """The host's app gone as a SIGKILL leaves it: every link reset, its port refusing,
    nothing more signed."""
    host = table.host
    host.phase = Phase.CLOSED
    for link in list(host.links.values()):
        link.close("killed")
    host.spawn(host.stop())


def carrying_on(table):
    """The guest that carries the table on, once every other remaining guest plays at its
    table (None until then)."""
    heirs = [g for g in table.guests if g.succession.host is not None and g.succession.host.is_open]
    if len(heirs) != 1:
        return None
    heir = heirs[0]
    key = heir.identity.public_key
    others = [g for g in table.guests if g is not heir]
    if all(g.replica.host_key == key and g.state.value == "joined" for g in others):
        return heir
    return None


def alerts(table) -> list:
    return [a for g in table.guests for a in g.alerts]


def looked_twice(table, guests) -> bool:
    """Each of ``guests`` has looked for who carries the table on twice (and, if nobody
    did, been told why), or someone carried it on, or an alert was raised."""
    def looks(guest):
        return [e for e in table.guest_events[table.guests.index(guest)]
                if e["type"] == "takeover" and e["stage"] == "searching"]
    return bool(alerts(table)) or any(g.succession.host is not None for g in table.guests) \
        or all(len(looks(g)) >= 4 and "(3 of 4)" in looks(g)[-1]["text"] for g in guests)


def the_looks(table, guests):
    """What each of ``guests`` was told of its search so far (for a wait's message)."""
    def said() -> str:
        return "; ".join(
            f"{g.identity.name}: " + " | ".join(
                e["text"] for e in table.guest_events[table.guests.index(g)]
                if e["type"] == "takeover" and e["stage"] == "searching")
            for g in guests)
    return lambda: (f"each of {len(guests)} guests to look twice (4 searches, the last "
                    f"'(3 of 4)'); seen: {said()}")


async def play_goes_on(table, gone_at: float) -> tuple:
    """Wait for the table to be carried on: the heir, and how long after ``gone_at``."""
    await until(lambda: carrying_on(table) is not None or alerts(table), timeout=OLD_GRACE + 5)
    return carrying_on(table), time.monotonic() - gone_at


async def played_out(table, heir) -> list[dict]:
    """The carried-on table played to its end; every guest's summary."""
    carried = heir.succession.host
    await until(carried.finished.is_set, what=lambda: f"the carried-on table's end: {where(carried)}")
    tasks = asyncio.gather(*table.tasks)
    await until(tasks.done, what=lambda: "every guest's end after the carried-on table's: "
                f"{[(g.identity.name, g.state.value, g.end, g.errors[-2:]) for g in table.guests]}")
    return tasks.result()


def where(host) -> str:
    """How a host's table stands (for a stall's message): its last entries, its seats."""
    auth = host.authority
    return (f"phase {host.phase}, last entries {[(e.seq, e.kind) for e in auth.log[-10:]]}, seats "
            f"{ {s: (i.kind, i.connected) for s, i in auth.seats.items()} }")


def one_log(heir, guests, summaries) -> None:
    """No alert anywhere, and every copy of the log the carried-on table's."""
    log = heir.succession.host.authority.log
    assert [e.kind for e in log].count(takeover.KIND) == 1
    for guest, summary in zip(guests, summaries):
        assert summary["alerts"] == [], summary["alerts"]
        if guest is not heir:
            assert [s.hash for s in guest.replica.log] == [s.hash for s in log]


def test_the_host_app_killed_play_goes_on_before_the_old_grace(tmp_path, deal):
    async def run():
        table = await four_players(tmp_path, deal)
        gone_at = time.monotonic()
        host_killed(table)
        heir, took = await play_goes_on(table, gone_at)
        return table, heir, took, await played_out(table, heir)

    table, heir, took, summaries = asyncio.run(run())
    assert heir is table.guests[0], [a["detail"] for a in alerts(table)]
    assert took < OLD_GRACE, took
    one_log(heir, table.guests, summaries)


def test_the_host_gone_silent_play_goes_on_before_the_old_grace(tmp_path, deal):
    async def run():
        table = await four_players(tmp_path, deal)
        gone_at = time.monotonic()
        await silence(table.host)
        heir, took = await play_goes_on(table, gone_at)
        summaries = await played_out(table, heir)
        await table.host.stop()  # (alive all along, but heard by no one)
        return table, heir, took, summaries

    table, heir, took, summaries = asyncio.run(run())
    assert heir is table.guests[0], [a["detail"] for a in alerts(table)]
    assert took < OLD_GRACE, took
    one_log(heir, table.guests, summaries)


def test_a_host_app_restarted_within_the_wait_is_simply_back(tmp_path, deal):
    """The host's app killed and started again at once (its table restored from its
    log): the players rejoin it, nobody carries the table on, and the game ends there."""
    # The wait longer than the protocol's: a loaded machine may take a while to restore
    # the table, and the test is of what happens within the wait, not of its length.
    async def run():
        table = await four_players(tmp_path, deal, timings=replace(REAL, takeover_reset=8.0))
        host_killed(table)
        await until(lambda: all(g.state.value != "joined" for g in table.guests), timeout=30,
                    what=lambda: f"every player seeing its host gone: {[g.state for g in table.guests]}")
        old = table.host
        table.host = HostCore(old.identity, {"game": "rook"}, state_dir=tmp_path / "host",
                              timings=table.timings, autoplay=True, auto_start=True, hands=1,
                              resume=True, port=old.port, mental_deal=deal, bot_delay=0.01)
        await table.host.start()
        summaries = await table.finish()
        return table, summaries

    table, summaries = asyncio.run(run())
    assert table.host.restored
    assert not [e for e in table.host.authority.log if e.kind == takeover.KIND]
    for guest, summary in zip(table.guests, summaries):
        assert summary["alerts"] == [] and summary["head"] == table.head(), summary
        assert guest.succession.host is None


def test_the_host_silent_and_a_player_cut_off_no_alert_and_no_second_table(tmp_path, monkeypatch,
                                                                          deal):
    """The host's network goes down and, at the same moment, one guest is cut off from
    the other two. The two together are not a majority of the four: they do not carry
    the table on, and nobody raises an alert; the host back (then the third player's
    network), the table goes on where it was."""
    timings = PATIENT_LINKS
    only_the_gone_timed_tightly(monkeypatch)  # (the private deal's 2 s for a party cut off)

    async def run():
        table = await four_players(tmp_path, deal, timings=timings)
        reach = Reach(table)
        host, (a, b, c) = table.host, table.guests
        gone = await silence(host)  # (silent to everyone: its links time out)
        reach.cut([a, b], [c])
        await until(lambda: looked_twice(table, [a, b, c]), timeout=60,
                    what=the_looks(table, [a, b, c]))
        assert alerts(table) == []
        assert all(g.succession.host is None for g in table.guests)  # no second table
        await gone.restore()  # the host's network is back: the two rejoin it...
        await until(lambda: a.state.value == b.state.value == "joined", timeout=60)
        reach.heal()  # ...and the third, once it can
        try:
            return table, await table.finish()
        except TimeoutError:
            auth = table.host.authority
            raise AssertionError(f"the table stalled: {[(e.seq, e.kind) for e in auth.log[-8:]]} "
                                 f"{[(g.replica.seq, g.state.value, g.alerts, g.errors[-2:]) for g in table.guests]}"
                                 f" links {list(table.host.links)} to act {auth.state and auth.state.to_act()}") from None

    table, summaries = asyncio.run(run())
    assert not [e for e in table.host.authority.log if e.kind == takeover.KIND]
    for summary in summaries:
        assert summary["alerts"] == [] and summary["head"] == table.head(), summary
        # (under the private deal a player away when the hand was dealt again is no party
        # of it, and follows it unchecked: tests/net/sessions/test_mental_drops.py)
        assert summary["hands_verified"] == 1 or deal


SPLITS = {"2+2": ([0, 1], [2, 3]), "3+1": ([0, 1, 2], [3]), "1+3": ([0], [1, 2, 3])}


@pytest.mark.parametrize("split", list(SPLITS))
def test_a_split_table_is_carried_on_by_a_majority_side_only(tmp_path, monkeypatch, deal, split):
    """The table's network splits (seat 0 is the host). Only a side without the host and
    with a majority of the four players (three) carries it on; a side that cannot says
    so and keeps trying. Once the network is whole, there is one table."""
    timings = PATIENT_LINKS
    # the private deal's 2 s only for a party cut off: at load 15 healthy guests sharing
    # this one loop were restarted out of the deal ("your client did not answer the deal
    # in time"), and the host alone never heard where its table went (failed twice, 1+3)
    only_the_gone_timed_tightly(monkeypatch)

    async def run():
        table = await four_players(tmp_path, deal, timings=timings)
        reach = Reach(table)
        by_seat = {0: table.host, **{g.replica.seat: g for g in table.guests}}
        sides = [[by_seat[s] for s in side] for side in SPLITS[split]]
        reach.cut(*sides)
        lonely = [g for side in sides if table.host not in side and len(side) < 3 for g in side]
        majority = [side for side in sides if table.host not in side and len(side) >= 3]
        if majority:
            await until(lambda: carrying_on(table) is not None or alerts(table), timeout=60)
        else:  # every guest away from the host has looked, and found too few
            await until(lambda: looked_twice(table, lonely), timeout=60,
                        what=the_looks(table, lonely))
        assert alerts(table) == []
        carried = [g for g in table.guests if g.succession.host is not None]
        assert len(carried) == bool(majority), carried  # a second table only with a majority
        reach.heal()
        if majority:
            heir = carried[0]
            summaries = await played_out(table, heir)
            # the host, alone on its side all along, learns where its table went (it asks
            # every ``takeover_retry``: a loaded machine may take many of them)
            await until(table.host.finished.is_set,
                        what=lambda: f"the host alone learning where its table went: {where(table.host)}")
        else:
            summaries = await table.finish()
        return table, carried, bool(majority), summaries

    table, carried, majority, summaries = asyncio.run(run())
    if majority:  # 1+3: the three carry it on; the host alone has no one left
        assert carried == [table.guests[0]]
        one_log(carried[0], table.guests, summaries)
        [told] = [e for e in table.host_events if e["type"] == "error" and e.get("fatal")]
        assert told["message"].startswith("Guest0 is carrying the table on")
        assert table.host.phase is Phase.CLOSED and read_meta(tmp_path / "host")["done"]
    else:  # 2+2, 3+1: no second table; the cut-off players came back to the host's
        assert carried == []
        assert not [e for e in table.host.authority.log if e.kind == takeover.KIND]
        for summary in summaries:
            assert summary["alerts"] == [] and summary["head"] == table.head(), summary


def test_a_host_leaving_hands_the_table_over_at_once(tmp_path, deal):
    """The host person leaves mid-hand and hands the table to the player in seat 3 (not
    the lowest, seat 2): seat 3 carries it on at once — no wait — with the host's signed
    handover in its takeover entry, the other player follows, the host's table closes,
    and the game is played to its end with no alert."""
    # The players' own waits far longer than the test waits for the heir (``play_goes_on``):
    # carried on at all, it was carried on without them, however loaded the machine.
    no_wait = replace(REAL, takeover_reset=10 * OLD_GRACE, takeover_silent=10 * OLD_GRACE)

    async def run():
        table = Table(tmp_path, game="rook", hands=1, guests=0, bots=1,  # seat 1: the host's bot
                      timings=no_wait, host_kw={"mental_deal": deal, "bot_delay": 0.01})
        await table.start()
        for i in range(2):
            table.add_guest(ident(f"Guest{i}"), takeover=CARRY_ON, bot_delay=0.01)
        await until(lambda: table.hand_started() and len(table.host.authority.state.history) >= 3)
        await until(lambda: table.host.heirs() == [2, 3])
        left_at = time.monotonic()
        handed = await table.host.hand_over(3)
        heir, took = await play_goes_on(table, left_at)
        return table, handed, heir, took, await played_out(table, heir)

    table, handed, heir, took, summaries = asyncio.run(run())
    assert handed and heir is table.guests[1] and table.host.phase is Phase.CLOSED
    assert took < no_wait.takeover_reset, took  # no wait at all
    print(f"\ncarried on {took:.2f} s after the handover")
    one_log(heir, table.guests, summaries)
    [entry] = [e for e in heir.succession.host.authority.log if e.kind == takeover.KIND]
    assert entry.body["seat"] == 3 and entry.body["handover"]["body"]["seat"] == 3
    assert "handed the table to" in entry.body["reason"]
    assert entry.seq == table.host.authority.chain.seq + 1  # from the host's last entry
    texts = [e["text"] for e in table.guest_events[0] if e["type"] == "takeover"]
    assert texts and all("handed the table to Guest1" in t for t in texts), texts



#: Issue 28, item 3: the handover is at once. "At once" is held by what the players did —
#: nobody failed a single attempt to reach the departed host (the broken path counted
#: "attempt 5 of 30" for about 8 s first) — and by a ceiling far above the time it takes
#: (about 0.3 s on a quiet machine; the figure is printed) but below that path's 8 s, so a
#: busy machine does not fail it.
HANDED_WITHIN = 5.0


def test_the_host_hands_the_table_only_to_a_player_who_can_carry_it_on(tmp_path, deal):
    """Issue 28, item 3. Maya's and Sam's computers can carry the table on; Dad's (headless,
    no ``--carry-on``) cannot. Before the deal the host moves Dad to Maya's seat (the setup
    screen's swap): a standby is its player's, so the host may hand the table to Maya or
    Sam — never to Dad, whose seat Maya's standby used to be under. Handed to Sam, Sam
    carries it on at once: within ``HANDED_WITHIN`` of the click everyone is at Sam's
    table and the hand is being dealt again, and it is played out there. (Seen in real
    windows: "Hand the table to Dad", then "The host left the game … (attempt 5 of 30)"
    for about 8 s.) The first move's time is printed: under the private deal it adds the
    deal's cryptography, which takes what the machine gives it (docs/benchmarks.md)."""
    async def run():
        table = Table(tmp_path, game="rook", hands=1, guests=0, timings=REAL,
                      host_kw={"mental_deal": deal, "bot_delay": 0.01})
        table.host.auto_start = False  # (the host person starts it, after moving Dad)
        await table.start()
        players = {}
        for name, carry_on in (("Maya", CARRY_ON), ("Dad", {}), ("Sam", CARRY_ON)):
            players[name] = table.add_guest(ident(name), takeover=carry_on, bot_delay=0.01)
            await until(lambda: players[name].replica is not None
                        and players[name].replica.seat is not None)
        maya, dad, sam = players.values()
        assert (maya.replica.seat, dad.replica.seat, sam.replica.seat) == (1, 2, 3)
        table.host.set_seat(1, "human", player=dad.identity.fingerprint)  # Dad to Maya's seat
        await until(lambda: (dad.replica.seat, maya.replica.seat) == (1, 2))
        heirs = table.host.heirs()
        offered = [e for e in table.host_events if e["type"] == "table"][-1]["heirs"]
        table.host.start_game()
        await until(lambda: table.hand_started() and len(table.host.authority.state.history) >= 3)
        loop = asyncio.get_running_loop()
        clicked = loop.time()
        handed = await table.host.hand_over(3)
        carried = await until(lambda: sam.succession.host, timeout=10)

        def dealing_again() -> bool:
            log = carried.authority.log
            took = next((e.seq for e in log if e.kind == takeover.KIND), len(log))
            return carrying_on(table) is sam and any(e.kind in (ml.DEAL, "commit") for e in log[took:])
        await until(lambda: dealing_again() or alerts(table), timeout=10)
        going_on = loop.time() - clicked
        await until(lambda: carried.authority.state is not None and carried.authority.state.history
                    or alerts(table), timeout=20)
        print(f"handed over: everyone at the heir's, dealing again, {going_on:.3f} s after the "
              f"click; its first move {loop.time() - clicked:.3f} s after")
        failed = [e for events in table.guest_events.values() for e in events
                  if e["type"] == "connection" and e.get("state") == "reconnecting"
                  and (e.get("attempt") or 0) >= 1]
        return table, heirs, offered, handed, going_on, failed, await played_out(table, sam)

    table, heirs, offered, handed, going_on, failed, summaries = asyncio.run(run())
    assert heirs == offered == [2, 3]  # Maya (moved to seat 2) and Sam; not Dad
    assert handed
    assert not failed, f"a player tried the departed host before following the handover: {failed}"
    assert going_on < HANDED_WITHIN, going_on
    one_log(table.guests[2], table.guests, summaries)


def test_a_table_handed_over_goes_on_when_its_heir_is_then_killed(tmp_path, deal):
    """The host hands the table to seat 1 and comes back as a guest; then the heir's app is
    killed mid-hand: the three players left (a majority of the four) carry the table on
    again, as after any host gone — the handover they followed was spent once they
    played at the heir's table (it named the heir as the only one who may carry on)."""
    async def run():
        table = await four_players(tmp_path, deal)
        await table.host.hand_over(1)
        await until(lambda: carrying_on(table) is not None)
        heir = carrying_on(table)
        back = GuestCore(table.host.identity, address="127.0.0.1", port=heir.succession.host.port,
                         fingerprint=heir.identity.fingerprint, timings=table.timings,
                         emit=[].append, state_dir=tmp_path / "host", bot_level="random",
                         takeover=CARRY_ON)
        table.guests.append(back)
        table.tasks.append(asyncio.ensure_future(back.run()))
        rest = [g for g in table.guests if g is not heir]
        await until(lambda: all(0 in g.succession.roster for g in rest), timeout=60)
        gone_at = time.monotonic()
        heir_killed(table, heir)
        await until(lambda: next_heir(rest) is not None or alerts(table), timeout=OLD_GRACE + 5)
        return heir, back, next_heir(rest), time.monotonic() - gone_at

    first, back, second, took = asyncio.run(run())
    assert first.replica.seat == 1 and back.replica.seat == 0
    assert second is back and took < OLD_GRACE, took


def heir_killed(table, heir) -> None:
    """The app of the player who carries the table on killed: its table's links reset, its
    standby shut, its guest gone."""
    carried = heir.succession.host
    carried.phase = Phase.CLOSED
    for link in list(carried.links.values()):
        link.close("killed")
    carried.spawn(carried.stop())
    heir.succession.server.close()
    table.tasks[table.guests.index(heir)].cancel()


def next_heir(guests):
    """The one of ``guests`` carrying the table on, once the others play at its table."""
    hosting = [g for g in guests if g.succession.host is not None and g.succession.host.is_open]
    if len(hosting) != 1:
        return None
    key = hosting[0].identity.public_key
    others = [g for g in guests if g is not hosting[0]]
    return hosting[0] if all(g.replica.host_key == key and g.state.value == "joined"
                             for g in others) else None


@pytest.mark.parametrize("host_back", [True, False], ids=["host back", "host away"])
def test_a_guest_restarted_after_a_takeover_does_not_hold_the_seat_of_a_host_who_is_back(
        tmp_path, deal, host_back):
    """Seen in real windows: the host's app was killed, Dad carried the table on, Ann (the
    old host) came back; then Maya's app was restarted. Rebuilt from her disk copy, her
    table said "Ann's seat is held for them" while Ann played on: the catch-up told the
    takeover after Ann's return (and told it at all: it was on her disk, news she had
    been told before). Told in the log's order, Ann's return comes last."""
    from net.sessions.last_table import LastTable
    from tests.net.sessions.test_both_deals import kill

    async def run():
        table = Table(tmp_path, game="rook", hands=1, guests=0, timings=REAL,
                      host_kw={"mental_deal": deal, "bot_delay": 0.01})
        await table.start()
        home = tmp_path / "victim"
        held = {**CARRY_ON, "host_kw": {**CARRY_ON["host_kw"], "stand_in_after": 60}}  # no bot
        for i in range(2):
            table.add_guest(ident(f"Guest{i}"), takeover=held, bot_delay=0.01)
        victim = table.add_guest(ident("Victim"), takeover=held, bot_delay=0.01,
                                 state_dir=home, remember=LastTable(home))
        await until(lambda: table.hand_started() and len(table.host.authority.state.history) >= 3)
        await until(lambda: all(len(g.succession.roster) == 3 for g in table.guests))
        host_killed(table)
        await until(lambda: carrying_on(table) is not None, timeout=OLD_GRACE + 5)
        heir = carrying_on(table)
        where = {"address": "127.0.0.1", "port": heir.succession.host.port,
                 "fingerprint": heir.identity.fingerprint, "timings": table.timings,
                 "bot_level": "random", "bot_delay": 0.01}
        back = GuestCore(table.host.identity, emit=[].append, state_dir=tmp_path / "host", **where)
        tasks = [asyncio.ensure_future(back.run())] if host_back else []
        await until(lambda: victim.replica.seats[0].connected == host_back
                       and victim.replica.host_key == heir.identity.public_key, timeout=60)
        kill(victim)
        seats = heir.succession.host.authority.seats
        await until(lambda: not seats[victim.replica.seat].connected, timeout=30,
                    what=lambda: f"the new host seeing the victim gone: {seats}")
        events = []
        again = GuestCore(ident("Victim"), emit=events.append, state_dir=home,
                          remember=LastTable(home), seat=LastTable(home).load()["seat"], **where)
        tasks.append(asyncio.ensure_future(again.run()))
        await until(lambda: again.from_disk is not None and again.caught_up, timeout=60)
        for guest in [again, back] + table.guests:
            await guest.stop()
        await asyncio.gather(*table.tasks, *tasks, return_exceptions=True)
        return again, events

    again, events = asyncio.run(run())
    assert again.from_disk and again.replica.seats[0].connected == host_back
    about_host = [e for e in events if e["type"] == "takeover" and e.get("stage") == "done"
                  or e["type"] == "connection" and e.get("seat") == 0]
    if host_back:  # the takeover was on its disk, told before its app was killed: not again
        assert about_host[-1]["type"] == "connection" and about_host[-1]["state"] == "connected"
        assert not [e for e in events if e["type"] == "takeover"], events
    else:  # its seat is still held for them: said
        assert about_host[-1]["type"] == "takeover" and about_host[-1]["departed_seat"] == 0, about_host
