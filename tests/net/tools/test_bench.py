"""bench's latency figure: every action the host takes is timed, its own bots' moves as
well as its peers' messages (the bots are handed the host's ``play`` when it is made)."""

import asyncio
from types import SimpleNamespace

import pytest

from net.tools.bench import Placement, TimedHost, _Timer
from net.wire.heartbeat import Timings
from net.wire.identity import Identity


async def _all_bot_table(state_dir) -> TimedHost:
    """A Rook hand played by the host's bots alone (no peers, no socket)."""
    host = TimedHost(Identity.generate("Bench host"), {"game": "rook"}, state_dir=state_dir,
                      timings=Timings(), listen=False, autoplay=True, auto_start=True, hands=1,
                      bots={1: "random", 2: "random", 3: "random"}, mental_deal=False)
    await host.start()
    try:
        await asyncio.wait_for(host.finished.wait(), 60)
    finally:
        await host.stop()
    return host


def test_the_host_bots_moves_are_timed(tmp_path):
    host = asyncio.run(_all_bot_table(tmp_path))
    assert host.authority is not None
    actions = [signed.seq for signed in host.authority.archive.log if signed.kind == "action"]
    assert actions  # the hand was played
    # no peer acknowledges, so every stamped action is still waiting for its acks
    assert sorted(host.timer.started) == actions
    assert len(host.timer.sent) == len(actions)


def test_pinned_gives_the_players_the_first_half_of_the_cpus_and_the_watchers_the_rest():
    assert Placement.pinned({1, 0}) == Placement(idle=False, players=frozenset({0}),
                                                 watchers=frozenset({1}))
    three = Placement.pinned({4, 2, 7}, ballast=6)
    assert (three.players, three.watchers, three.ballast) == ({2, 4}, {7}, 6)
    with pytest.raises(SystemExit, match="at least 2 CPUs"):
        Placement.pinned({3})


def test_a_watcher_is_placed_only_when_asked_to_be():
    assert Placement(idle=False).for_watcher() is None  # (--watchers-compete: as it comes)
    assert Placement().for_watcher() is not None  # (SCHED_IDLE)
    assert Placement.pinned({0, 1}).for_watcher() is not None


def test_a_player_is_timed_by_the_players_acknowledgements_and_everyone_by_the_watchers_too():
    timer = _Timer()
    store = SimpleNamespace(written_seq=5, durable_seq=5)
    with timer.taking():
        timer.logged([SimpleNamespace(kind="action", seq=5)], store)  # type: ignore[list-item]
    players_hold, watchers_hold = set(), set()
    acked = (lambda seq, by_player: timer.acked(seq, players_hold.__contains__,
                                                 watchers_hold.__contains__, by_player))
    watchers_hold.add(5)
    acked(5, by_player=False)  # every watcher before some player: nobody is done
    assert (len(timer.latencies), len(timer.everyone)) == (0, 0)
    players_hold.add(5)
    acked(5, by_player=True)  # the last player: the players are done, and so is everyone
    assert (len(timer.latencies), len(timer.everyone)) == (1, 1)

    with timer.taking():
        timer.logged([SimpleNamespace(kind="action", seq=6)], store)  # type: ignore[list-item]
    players_hold.add(6)
    acked(6, by_player=True)  # the players before the watchers
    assert (len(timer.latencies), len(timer.everyone)) == (2, 1)
    watchers_hold.add(6)
    acked(6, by_player=False)
    assert (len(timer.latencies), len(timer.everyone)) == (2, 2)
    assert len(timer.on_path) == 2  # the host's CPU in each action's window, as it closed
    assert all(cpu >= 0 for cpu in timer.on_path)
