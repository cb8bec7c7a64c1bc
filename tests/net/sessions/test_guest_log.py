"""A guest keeps the verified log on disk: the same entries as the host's, with what it
was sent for its seat, enough to rebuild its replica."""

import asyncio

from net.sessions.guest_log import DiskCopy, GuestLog, log_path
from net.trust.replica import PeerReplica
from net.trust.store import LogStore
from tests.net.session_kit import Table, assert_all_verified
from tests.net.trust_table import TABLE, Table as TrustTable


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
    for _ in range(400):
        if len(on_disk(copy)) >= count:
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"{on_disk(copy)} on the disk, waiting for {count}")


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
