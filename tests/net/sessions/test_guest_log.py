"""A guest keeps the verified log on disk: the same entries as the host's, with what it
was sent for its seat, enough to rebuild its replica."""

import asyncio

from net.sessions.guest_log import DiskCopy, GuestLog, log_path
from net.trust.replica import PeerReplica
from net.trust.store import LogStore
from tests.net.session_kit import Table, assert_all_verified
from tests.net.trust_table import TABLE, Table as TrustTable


def test_a_guest_log_keeps_what_the_replica_accepted_and_rebuilds_it(tmp_path):
    t = TrustTable(("rook", None, None), seed=3, open_=False)
    replica = t.replicas[2]
    disk = GuestLog(log_path(tmp_path, TABLE))
    receive = replica.receive

    def keeping(message):
        out = receive(message)
        disk.keep(out.accepted)
        return out
    replica.receive = keeping
    t.open()
    t.start()
    t.play_hand()
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
