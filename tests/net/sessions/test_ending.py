"""The end of a table reaches every seated peer, also one that comes back after it
(``net.sessions.ending``): given what it lacks and "end", not turned away as a stranger."""

import asyncio

from tests.net.session_kit import Table, ident
from tests.waits import until


async def seated(tmp_path) -> Table:
    """A Rook table, host and three guests, dealt; the host never finishes by itself."""
    t = Table(tmp_path, hands=None, host_kw={"bot_delay": 0.05})
    await t.start()
    await until(lambda: len(t.host.links) == 3 and t.host.authority.state is not None)
    return t


async def away(t: Table, guest) -> None:
    await guest.stop()
    await until(lambda: guest.identity.fingerprint not in t.host.links)


async def close(t: Table) -> None:
    await t.host.stop()
    for g in t.guests:
        await g.stop()
    await asyncio.gather(*t.tasks, return_exceptions=True)


def test_a_player_back_after_the_end_is_told_it_ended_and_why(tmp_path, arun):
    async def go():
        t = await seated(tmp_path)
        await away(t, t.guests[0])
        await t.host.finish("the host called it a night")
        head = t.head()
        await until(lambda: all(g.ended for g in t.guests[1:]))
        back = t.add_guest(ident("Guest0"))  # the same player, a new client with no log
        await until(lambda: back.ended)
        assert back.fatal is None and back.end["reason"] == "the host called it a night"
        assert back.replica.seq == t.head() == head and not back.alerts  # nothing signed after the end
        await close(t)
    arun(go())


def test_the_end_waits_for_an_expected_player_to_come_back_and_be_told(tmp_path, arun):
    async def go():
        t = await seated(tmp_path)
        gone = t.guests[0]
        await away(t, gone)
        ending = asyncio.ensure_future(t.host.finish("the table cannot go on",
                                                     expected=[gone.identity.fingerprint]))
        await until(lambda: all(g.ended for g in t.guests[1:]))
        assert not t.host.finished.is_set()  # the others acknowledged: still waiting
        back = t.add_guest(ident("Guest0"))
        await asyncio.wait_for(ending, 20)
        assert back.ended and back.fatal is None
        assert back.end["reason"] == "the table cannot go on"
        await close(t)
    arun(go())


def test_a_stranger_after_the_end_is_turned_away(tmp_path, arun):
    async def go():
        t = await seated(tmp_path)
        await t.host.finish("the game is over")
        stranger = t.add_guest(ident("Stranger"))
        await until(lambda: stranger.ended)
        assert "the table is closing" in stranger.fatal
        await close(t)
    arun(go())


def test_a_guest_is_told_once_that_the_host_closed_the_table():
    """Seen in a real window: "The host closed the table (the host left the table)" — the
    host's own farewell said again in brackets. Said once; another reason still follows."""
    from net.sessions.ending import HOST_LEFT, closed_by_host
    assert closed_by_host(HOST_LEFT) == "The host closed the table."
    assert closed_by_host("The host left the table") == "The host closed the table."
    assert closed_by_host("") == "The host closed the table."
    assert closed_by_host("3 hand(s) played") == "The host closed the table (3 hand(s) played)."
