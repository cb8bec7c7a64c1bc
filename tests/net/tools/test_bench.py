"""bench's latency figure: every action the host takes is timed, its own bots' moves as
well as its peers' messages (the bots are handed the host's ``play`` when it is made)."""

import asyncio

from net.tools.bench import TimedHost
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
