"""What the app needs from network sessions, on loopback: the host arranges seats before
the deal (moving itself and joined players, everyone sees it), hints from your own
view, and endings a person can understand (table full, host gone, host left)."""

import asyncio
import json

from net.sessions.guest_session import GuestCore
from net.sessions.host_session import HostCore
from tests.net.session_kit import QUICK, ident
from tests.waits import until


def _host(tmp_path, **kw):
    events = []
    kw.setdefault("autoplay", True)
    host = HostCore(ident("Host"), {"game": "rook"}, state_dir=tmp_path / "host",
                    emit=events.append, timings=QUICK, **kw)
    return host, events


def _guest(tmp_path, host, name, events=None, **kw):
    return GuestCore(ident(name), address="127.0.0.1", port=host.port,
                     fingerprint=host.identity.fingerprint, timings=QUICK,
                     emit=(events if events is not None else []).append,
                     state_dir=tmp_path / name, **kw)


def test_the_host_moves_itself_and_players_before_the_deal_and_everyone_sees_it(arun, tmp_path):
    guest_events = {"Guest0": [], "Guest1": []}

    async def main():
        host, events = _host(tmp_path, hands=1, bots={3: "random"})
        await host.start()
        guests = [_guest(tmp_path, host, n, guest_events[n], bot_level="random") for n in guest_events]
        tasks = [asyncio.ensure_future(g.run()) for g in guests]
        try:
            await until(lambda: all(g.replica and g.replica.seat is not None for g in guests))
            assert {g.replica.seat for g in guests} == {1, 2}
            g1 = next(g for g in guests if g.replica.seat == 1)
            g2 = next(g for g in guests if g.replica.seat == 2)
            host.sit(2)  # the host swaps with the player in seat 2
            assert host.you == 2
            await until(lambda: g2.replica.seat == 0)
            host.set_seat(3, "human", player=g1.identity.fingerprint)  # with the bot in 3
            await until(lambda: g1.replica.seat == 3)
            seats = host.view.seats()
            assert [s["kind"] for s in seats] == ["human", "bot", "human", "human"]
            assert seats[2]["fingerprint"] == host.identity.fingerprint
            # a connected player cannot be replaced by a bot; the host hears why
            host.set_seat(3, "bot", "easy")
            assert "move them to another seat first" in events[-2]["message"]
            assert host.view.seats()[3]["kind"] == "human"
            # the guests' own table events say where they sit now
            table = [e for e in guest_events[g1.identity.name] if e["type"] == "table"][-1]
            assert table["you"] == 3 and table["seats"][2]["name"] == "Host"
            assert table["settings"]["name"] == "Host's table"  # joined by address
            # a computer player's level reaches the guests (their setup screen shows it)
            levels = [seat["level"] for seat in host.view.seats()]
            assert table["seats"][1]["kind"] == "bot" and table["seats"][1]["level"] == levels[1] is not None
            host.start_game()
            await asyncio.wait_for(host.finished.wait(), 40)
            return await asyncio.wait_for(asyncio.gather(*tasks), 20), host.result
        finally:
            for g in guests:
                await g.stop()
            await asyncio.gather(*tasks, return_exceptions=True)
            await host.stop()

    summaries, result = arun(main(), timeout=60)
    assert all(s["alerts"] == [] and s["hands_verified"] == 1 for s in summaries)
    assert sorted(s["seat"] for s in summaries) == [0, 3]
    assert all(s["scores"] == result["scores"] for s in summaries)
    # each guest's hand summary explains the verified hand's scoring and shows the
    # buried cards, from the record it verified
    for name, events in guest_events.items():
        (over,) = [e for e in events if e["type"] == "hand_over"]
        terms = over["breakdown"]["terms"]
        assert [sum(t["points"] for t in terms if t["side"] == side) for side in (0, 1)] == over["result"]["score"]
        (buried,) = over["breakdown"]["cards"]
        assert buried["label"] == "Buried cards" and len(buried["cards"]) == 5


def test_hints_come_from_your_own_view(arun, tmp_path):
    async def main():
        host, events = _host(tmp_path, autoplay=False, bots={1: "random", 2: "random", 3: "random"})
        await host.start()
        try:
            host.view.hint()
            before = events[-1]
            host.start_game()
            state = host.authority.state
            await until(lambda: host.authority.state is not None
                           and 0 in host.authority.state.to_act(), timeout=60)
            host.view.hint()
            return before, events[-1], state is not None
        finally:
            await host.stop()

    before, hint, _ = arun(main())
    assert before == {"type": "hint", "text": "Nothing to decide just now.", "action": None}
    assert hint["type"] == "hint" and hint["text"] and hint["text"] != before["text"]


def test_a_full_table_and_a_vanished_host_end_the_guest_with_a_reason(arun, tmp_path):
    async def main():
        host, _ = _host(tmp_path, bots={1: "random", 2: "random", 3: "random"})
        await host.start()
        events = []
        try:
            full = await asyncio.wait_for(_guest(tmp_path, host, "Late", events).run(), 10)
        finally:
            await host.stop()
        gone_events = []
        gone = await asyncio.wait_for(_guest(tmp_path, host, "Later", gone_events,
                                             give_up=4).run(), 20)
        return full, events, gone, gone_events

    full, events, gone, gone_events = arun(main(), timeout=40)
    assert full["fatal"] == "The host turned you away: the table is full."
    assert events[-1] == {"type": "error", "message": full["fatal"], "fatal": True, "cause": "refused"}
    assert gone["fatal"].startswith("Couldn't reach the table at 127.0.0.1:")
    assert gone_events[-1]["fatal"] is True and gone_events[-1]["cause"] == "lost"


def test_a_host_that_leaves_tells_its_guests_and_starts_afresh_next_time(arun, tmp_path):
    async def main():
        host, _ = _host(tmp_path, bots={2: "random", 3: "random"}, auto_start=True)
        await host.start()
        events = []
        guest = _guest(tmp_path, host, "Guest0", events, bot_level="random", give_up=5)
        task = asyncio.ensure_future(guest.run())
        await until(lambda: host.authority.match is not None)
        await host.stop(farewell="the host left the table")
        summary = await asyncio.wait_for(task, 10)
        again, _ = _host(tmp_path)
        await again.start()
        restored = again.restored
        await again.stop()
        return summary, events, restored

    summary, events, restored = arun(main(), timeout=40)
    fatal = [e for e in events if e.get("fatal")]
    assert fatal and fatal[-1]["message"] == "The host closed the table."  # (said once)
    assert fatal[-1]["cause"] == "closed"  # (the app titles it so: the person did not leave)
    assert summary["ended"]["reason"] == "the host left the table"
    assert restored is False
    assert json.loads((tmp_path / "host" / "host.json").read_text())["done"] is False


# -- a restarted host resumes only the table it was asked for ---------------------------

def test_a_restarted_host_resumes_only_the_table_asked_for(arun, tmp_path):
    def named(name, **kw):
        events = []
        kw.setdefault("bots", {1: "random", 2: "random", 3: "random"})
        return HostCore(ident("Host"), {"game": "rook", "name": name}, state_dir=tmp_path / "host",
                        emit=events.append, timings=QUICK, **kw), events

    async def main():
        bars, _ = named("bars-lan", auto_start=True, bot_delay=0.01)
        await bars.start()
        await until(lambda: bars.authority.match is not None and bars.authority.state is not None)
        await bars.stop()  # a crash: the table is unfinished
        other, other_events = named("interop-check")
        await other.start()
        await other.stop()
        again, _ = named("interop-check")
        await again.start()
        await again.stop()
        asked, _ = named("anything", resume=True)
        await asked.start()
        await asked.stop()
        return bars, other, other_events, again, asked

    bars, other, other_events, again, asked = arun(main(), timeout=40)
    assert not other.restored and other.table != bars.table  # a new table, not bars-lan
    assert other.authority.name == "interop-check"
    [notice] = [e for e in other_events if e["type"] == "notice"]
    assert "“bars-lan” (rook, hand 1, 0–0)" in notice["message"] and "--resume" in notice["message"]
    kept = [p.name for p in (tmp_path / "host").glob("table-*.db")]
    assert len(kept) == 1 and kept[0] in notice["message"]  # set aside, not lost
    assert again.restored and again.table == other.table  # same game and name: resumed
    assert asked.restored and asked.table == other.table  # --resume: whatever is there


def test_a_table_log_of_another_key_is_kept_aside_not_fatal(arun, tmp_path):
    async def main():
        theirs = HostCore(ident("Someone else"), {"game": "rook"}, state_dir=tmp_path / "host",
                          timings=QUICK)
        await theirs.start()
        await theirs.stop()  # unfinished, signed by another key
        events = []
        mine = HostCore(ident("Host"), {"game": "rook"}, state_dir=tmp_path / "host",
                        emit=events.append, timings=QUICK)
        await mine.start()
        await mine.stop()
        return theirs, mine, events

    theirs, mine, events = arun(main(), timeout=20)
    assert not mine.restored and mine.table != theirs.table
    [notice] = [e for e in events if e["type"] == "notice"]
    assert "cannot be resumed" in notice["message"] and "not signed by the host's key" in notice["message"]
