"""A guest keeps the verified log on disk: the same entries as the host's, with what it
was sent for its seat, enough to rebuild its replica."""

import asyncio

from net.sessions.guest_log import DiskCopy, GuestLog, log_path
from net.trust.peer.replica import PeerReplica
from net.trust.store import LogStore
from tests.net.session_kit import Table, assert_all_verified
from tests.net.trust_table import TABLE, Table as TrustTable
from tests.waits import until


def played_hand(seed: int, seat: int = 2):
    """A hand of Rook played on a trust table: the table, the replica of ``seat`` and
    what it accepted, message by message."""
    t = TrustTable(("rook", None, None), seed=seed, open_=False)
    replica, batches = t.replicas[seat], []
    receive = replica.receive

    def keeping(message):
        out = receive(message)
        if out.accepted:
            batches.append(out.accepted)
        return out
    replica.receive = keeping
    t.open()
    t.start()
    t.play_hand()
    return t, replica, batches


def accepted_batches() -> list[list]:
    return played_hand(seed=5)[2]


def test_a_guest_log_keeps_what_the_replica_accepted_and_rebuilds_it(tmp_path):
    t, replica, batches = played_hand(seed=3)
    disk = GuestLog(log_path(tmp_path, TABLE))
    for batch in batches:
        disk.keep(batch)
    kept = disk.messages()
    assert [k.signed.hash for k in kept] == [e.hash for e in t.host.log]
    rebuilt = PeerReplica.restore(t.ids[2], t.host_id.public_key, TABLE, kept)
    assert rebuilt.chain.head == replica.chain.head and rebuilt.scores == replica.scores
    assert rebuilt.view == replica.view and rebuilt.halted is None
    disk.roll_back(5)
    assert [k.signed.seq for k in disk.messages()] == list(range(6))
    disk.start_over()
    assert disk.messages() == []
    disk.close()


def on_disk(copy: DiskCopy) -> list[int]:
    return [k.signed.seq for k in copy.log.messages()]


async def written(copy: DiskCopy, count: int) -> None:
    """Until ``count`` entries are on the disk (the copy's delay is short in the tests)."""
    await until(lambda: len(on_disk(copy)) >= count, timeout=30,
                what=lambda: f"{count} entries on the disk: {on_disk(copy)} there")


def test_a_running_guest_writes_its_copy_a_moment_after_the_entries_in_one_go(tmp_path):
    batches = accepted_batches()
    messages = [m for batch in batches for m in batch]
    seqs = [m.signed.seq for m in messages]

    async def run():
        copy = DiskCopy(tmp_path, [].append, delay=0.02)
        copy.open(TABLE)
        for batch in batches[:10]:
            copy.keep(batch)
        assert on_disk(copy) == []  # not on the move's round trip
        first = sum(len(b) for b in batches[:10])
        await written(copy, first)
        assert on_disk(copy) == seqs[:first]
        for batch in batches[10:20]:
            copy.keep(batch)
        copy.roll_back(seqs[first + 2])  # a takeover's roll-back covers what is pending too
        assert on_disk(copy) == seqs[:first + 3]
        for message in messages[first + 3:]:  # the log goes on from there; the session ends
            copy.keep([message])
        copy.close()
        assert copy.log is None
    asyncio.run(run())
    disk = GuestLog(log_path(tmp_path, TABLE))
    kept = disk.messages()
    assert [k.signed.hash for k in kept] == [m.signed.hash for m in messages]
    assert [(k.events, k.public, k.view, k.action) for k in kept] == \
        [(m.events, m.public, m.view, m.action) for m in messages]
    disk.close()


def test_without_an_event_loop_the_copy_is_written_at_once(tmp_path):
    batches = accepted_batches()
    copy = DiskCopy(tmp_path, [].append)
    copy.open(TABLE)
    copy.keep(batches[0])
    assert on_disk(copy) == [m.signed.seq for m in batches[0]]
    copy.close()


def test_a_table_id_is_made_safe_for_a_file_name(tmp_path):
    assert log_path(tmp_path, "../x/y z").parent == tmp_path / "tables"
    assert log_path(tmp_path, "../x/y z").name == ".._x_y_z.db"


def test_every_guest_of_a_played_table_holds_the_hosts_log_on_disk(tmp_path):
    async def run():
        table = Table(tmp_path, game="rook", hands=1)
        await table.start()
        summaries = await table.finish()
        assert_all_verified(summaries, 1)
        return table
    table = asyncio.run(run())
    host_log = [e.hash for e in table.host.authority.log]
    for i, guest in enumerate(table.guests):
        store = LogStore(log_path(tmp_path / f"guest{i}", guest.table))
        loaded = store.load()
        assert loaded.dropped == 0
        assert [signed.hash for signed, _ in loaded.records] == host_log
        store.close()


def test_a_copy_that_cannot_be_kept_is_said_once_and_the_game_goes_on(tmp_path):
    (tmp_path / "tables").write_text("a file where the folder should be")
    events = []
    copy = DiskCopy(tmp_path, events.append)
    copy.open(TABLE)
    copy.keep([])  # nothing kept, nothing raised
    assert [e["type"] for e in events] == ["error"] and "goes on without it" in events[0]["message"]
    assert not events[0].get("fatal")
    copy.close()


def test_a_restarted_guest_resumes_from_its_copy_and_fetches_only_what_it_lacks(tmp_path, deal):
    """A guest's app killed mid-game and started again at the seat it remembers: it
    rebuilds its replica from its own copy of the log, asks the host for what came
    after, is sent exactly that (counted), and plays on to the end with no alert."""
    from net.sessions.last_table import LastTable
    from net.wire import messages as m
    from tests.net.sessions.test_both_deals import kill
    from tests.net.trust_table import identity as ident

    async def run():
        table = Table(tmp_path, game="rook", hands=2, guests=0,
                      host_kw={"mental_deal": deal, "stand_in_after": 0.05, "bot_delay": 0.01})
        await table.start()
        home = tmp_path / "victim"
        guests = [table.add_guest(ident(f"Guest{i}"), bot_delay=0.01) for i in range(2)]
        victim = table.add_guest(ident("Victim"), bot_delay=0.01, state_dir=home,
                                 remember=LastTable(home))
        auth = table.host.authority
        await until(lambda: auth.match is not None and auth.match.hand_number == 1
                       and auth.state is not None and len(auth.state.history) >= 4, timeout=30)
        kill(victim)  # in the second hand
        killed_at = victim.replica.seq
        # the table goes on without it (a stand-in plays its seat): entries it must fetch
        await until(lambda: auth.chain.seq > killed_at + 2, timeout=30,
                    what=lambda: f"the table going on past entry {killed_at}: {table.where()}")
        record = LastTable(home).load()
        back = table.add_guest(ident("Victim"), bot_delay=0.01, state_dir=home,
                               remember=LastTable(home), seat=record["seat"])
        fetched, heads = [], []
        from_host, on_joined = back._from_host, back._on_joined

        def counted(msg):
            if msg["type"] == m.SYNC:
                fetched.extend(e["entry"]["entry"]["seq"] for e in msg["entries"])
            elif msg["type"] == m.ENTRY:
                fetched.append(msg["entry"]["entry"]["seq"])
            from_host(msg)

        def joined(msg):
            heads.append(msg["head"])
            on_joined(msg)
        back._from_host, back._on_joined = counted, joined
        await asyncio.wait_for(table.host.finished.wait(), 60)
        summaries = await asyncio.wait_for(asyncio.gather(*table.tasks), 30)
        return table, victim, back, killed_at, fetched, heads, summaries

    table, victim, back, killed_at, fetched, heads, summaries = asyncio.run(run())
    assert back.from_disk is not None and back.from_disk > killed_at // 2, (back.from_disk, killed_at)
    # it was sent the log from the first entry it lacked, each entry once, none it held
    assert fetched[0] == back.from_disk and fetched == list(range(fetched[0], fetched[-1] + 1))
    assert fetched[-1] == table.head()
    print(f"\nrestarted guest: {back.from_disk} entries from its disk, {heads[0] + 1 - back.from_disk} "
          f"fetched at its rejoin (the host at entry {heads[0]})")
    assert heads[0] + 1 - back.from_disk < back.from_disk  # a hand's worth, not the game's
    for summary in summaries[:2] + summaries[3:]:
        assert summary["alerts"] == [] and summary["head"] == table.head(), summary
    assert [s.hash for s in back.replica.log] == [s.hash for s in table.host.authority.log]
    # back in the second hand, it is shown that hand's summary, not the first's again over it
    assert [e["hand"] for e in table.guest_events[3] if e["type"] == "hand_over"] == [1]


def test_a_restarted_guest_whose_copy_is_of_another_table_joins_the_new_one_afresh(tmp_path):
    """Seen in real windows: the app remembered seat 1 of the host's last table (and kept
    its log), and joined the same host's new table, where seat 1 is another player's. It
    used to be refused ("seat 1 belongs to another player's key"); its "join" now names
    the table its log is of, and the host takes it for a newcomer: seated, the new log
    sent whole."""
    from net.sessions.last_table import LastTable
    from tests.net.trust_table import identity as ident

    async def run():
        first = Table(tmp_path / "first", game="rook", hands=1, guests=0,
                      host_kw={"mental_deal": False, "bot_delay": 0.01})
        await first.start()
        home = tmp_path / "dad"
        first.add_guest(ident("Dad"), bot_delay=0.01, state_dir=home, remember=LastTable(home))
        for i in range(2):
            first.add_guest(ident(f"Guest{i}"), bot_delay=0.01)
        await until(lambda: first.hand_started() and len(first.host.authority.state.history) >= 4)
        record = LastTable(home).load()
        await first.close()
        second = Table(tmp_path / "second", game="rook", hands=1, guests=0,
                       host_identity=first.host.identity,
                       host_kw={"mental_deal": False, "bot_delay": 0.01})
        await second.start()
        for i in range(2):
            second.add_guest(ident(f"Other{i}"), bot_delay=0.01)  # seats 1 and 2 taken first
        await until(lambda: len(second.host.authority.seats.players()) == 3)
        dad = second.add_guest(ident("Dad"), bot_delay=0.01, state_dir=home,
                               remember=LastTable(home), seat=record["seat"])
        summaries = await second.finish()
        return record, dad, second, summaries

    record, dad, second, summaries = asyncio.run(run())
    assert record["seat"] == 1 and dad.from_disk  # it did rebuild the old table's log...
    assert dad.replica.table == second.host.table and dad.replica.seat == 3  # ...and sat here
    assert all(s["alerts"] == [] and s["fatal"] is None for s in summaries), summaries
    assert [s.hash for s in dad.replica.log] == [s.hash for s in second.host.authority.log]


def test_a_restarted_guest_is_not_told_a_bot_stands_in_for_the_computer_player(tmp_path, deal):
    """Seen in real windows: Maya's app restarted at a table with a computer player ("Bot
    4") said "a bot plays for Bot 4 until they come back": rebuilt from the log's start,
    the seat the bot was given at setup was told as a stand-in for a player gone."""
    from net.sessions.last_table import LastTable
    from tests.net.sessions.test_both_deals import kill
    from tests.net.trust_table import identity as ident

    async def run():
        table = Table(tmp_path, game="rook", hands=1, guests=0, bots=1,  # seat 1: a computer
                      host_kw={"mental_deal": deal, "bot_delay": 0.01})
        await table.start()
        home = tmp_path / "victim"
        table.add_guest(ident("Guest0"), bot_delay=0.01)
        victim = table.add_guest(ident("Victim"), bot_delay=0.01, state_dir=home,
                                 remember=LastTable(home))
        auth = table.host.authority
        await until(lambda: auth.state is not None and len(auth.state.history) >= 4, timeout=30)
        kill(victim)
        seat = victim.replica.seat
        await until(lambda: not auth.seats[seat].connected, timeout=30,
                    what=lambda: f"the host seeing seat {seat} gone: {table.where()}")
        back = table.add_guest(ident("Victim"), bot_delay=0.01, state_dir=home,
                               remember=LastTable(home), seat=LastTable(home).load()["seat"])
        events = table.guest_events[table.guests.index(back)]
        await until(lambda: back.from_disk is not None and back.caught_up, timeout=60,
                    what=lambda: f"the restarted guest rebuilt from its disk and caught up: "
                                 f"{table.where()}")
        await table.close()
        return back, events

    back, events = asyncio.run(run())
    assert back.from_disk and back.replica.seats[1].kind == "bot"
    assert not [e for e in events if e["type"] == "connection" and e["state"] == "stand_in"], events
