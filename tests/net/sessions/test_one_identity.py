"""One identity, two clients (issue 20, item 10): Parlour started twice, or one data
directory on two computers. The host refuses the second live connection for a seat,
politely and once, instead of swapping the seat back and forth on every reconnection (a
headless run saw about 2,900 swaps in three minutes); a client whose link truly died
(silent: heard no more) is let back in at once. Under both deals."""

import asyncio
import time

import pytest

from net.sessions.last_table import LastTable
from net.wire.heartbeat import Timings
from tests.net.sessions.test_last_table import RECORD
from tests.net.session_kit import PATIENT, Table, assert_all_verified, play_as_a_person
from tests.net.trust.mental_table import fixed_identity
from tests.waits import until

ME = 1  # fixed_identity(ME): the one key both clients hold
# A link silent for 10 s is dropped by the host's heartbeat; a client silent for longer than
# Timings.live (5.2 s here) is no longer "there", and one back with its key takes the seat:
# the 4.8 s between them leave a loaded machine room to seat it before the heartbeat would.
DEAD_LINK = Timings.quick(timeout=10.0, contribution=30.0)


def refusals(table) -> list[dict]:
    return [e for e in table.host_events if e["type"] == "connection" and e["state"] == "refused"]


def turned_away(guest) -> bool:
    return guest.ended_by == "refused" and "another Parlour with the same identity" in guest.fatal


@pytest.mark.parametrize("mental", [False, True], ids=["seeded", "private"])
def test_a_second_copy_with_the_same_key_is_refused_and_the_first_plays_on(tmp_path, mental):
    async def main():
        table = Table(tmp_path, game="rook", hands=1, guests=0, bots=2, timings=PATIENT,
                      host_kw={"mental_deal": mental})
        await table.host.start()
        first = table.add_guest(fixed_identity(ME))
        await until(table.hand_started, timeout=30)
        # The same key, a second copy, which remembers the seat from an earlier run.
        memory = LastTable(tmp_path / "second")
        memory.save({**RECORD, "table": table.host.authority.table})
        second = table.add_guest(fixed_identity(ME), remember=memory)
        await until(lambda: second.ended, timeout=30)
        try:
            summaries = await table.finish(timeout=90)
        finally:
            await table.close()
        return table, first, second, memory, summaries

    table, first, second, memory, summaries = asyncio.run(main())
    assert turned_away(second) and second.replica is None  # never sat down
    assert memory.load() is not None  # the seat is still this key's: its way back is kept
    assert first.reconnects == 0  # never pushed off its seat
    assert_all_verified([summaries[0]], hands=1, head=table.head())
    assert len(refusals(table)) == 1


@pytest.mark.parametrize("mental", [False, True], ids=["seeded", "private"])
def test_a_client_whose_link_died_comes_back_at_once(tmp_path, mental):
    async def main():
        table = Table(tmp_path, game="rook", hands=1, guests=0, bots=2, timings=DEAD_LINK,
                      host_kw={"mental_deal": mental})
        await table.host.start()
        first = table.add_guest(fixed_identity(ME))
        await until(table.hand_started, timeout=30)
        silence(first)  # its network is gone: nothing it sends arrives, the socket stays open
        silent_since = time.monotonic()
        await asyncio.sleep(DEAD_LINK.live + 0.3)
        # The same key, from a computer that works, with a person at it who plays only
        # once the silenced client has tried to come back: a hand played out by bots can
        # end before that try on a loaded machine, and then the seat is free again.
        back = table.add_guest(fixed_identity(ME), bot_level=None)
        await until(back.joined.is_set, timeout=30)
        back_after = time.monotonic() - silent_since
        try:
            # the host closed the silenced client's link when the seat went to ``back``:
            # its try to come back ends it
            await until(lambda: first.ended_by is not None, timeout=30)
            await play_as_a_person(back, table.guest_events[1], table.host, table.host.finished.is_set)
            summaries = await table.finish(timeout=90)
        finally:
            await table.close()
        return table, first, back, back_after, summaries

    table, first, back, back_after, summaries = asyncio.run(main())
    # Back before the host's own heartbeat timeout would have dropped the dead link.
    assert back_after < DEAD_LINK.timeout
    assert back.fatal is None and back.reconnects == 0
    assert_all_verified([summaries[1]], hands=1, head=table.head())
    # The silenced client, still running, was cut off and, coming back while the seat
    # was in use again, was told why: no back-and-forth.
    assert turned_away(first) and first.reconnects == 1 and len(refusals(table)) == 1, \
        (first.ended_by, first.fatal, first.reconnects, refusals(table))


def silence(guest) -> None:
    """Everything ``guest`` sends from now on is lost on the way (its socket stays open)."""
    async def lost(*_args, **_kwargs):
        return None
    conn = guest.link.conn
    conn.send_now = lambda msg: True
    conn.send = lost
    conn.send_raw = lost
