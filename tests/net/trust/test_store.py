"""The durable log: round trips, a host restarted mid-hand, torn and damaged files, and
writes that fail cleanly."""

import shutil
import sqlite3
from contextlib import contextmanager

import pytest

from net.trust.host.authority import HostAuthority
from net.trust.store import LogStore, StoreError, one_change
from tests.net.trust_table import Table


def stored_table(tmp_path, variant=("rook", None, None)):
    store = LogStore(tmp_path / "table.db")
    t = Table(variant, persist=store, open_=False)
    t.store = store
    t.open()
    t.start()
    return t


def test_entries_come_back_in_order_with_their_private_parts(tmp_path):
    t = stored_table(tmp_path)
    loaded = t.store.load()
    assert loaded.problem is None and loaded.dropped == 0
    assert [s for s, _ in loaded.records] == t.host.log
    commit = next(p for s, p in loaded.records if s.kind == "commit")
    assert commit == {"secret": t.host.round.secret}


def test_a_restarted_host_resumes_mid_hand_and_the_game_goes_on(tmp_path):
    t = stored_table(tmp_path, ("somerset", "kitty-doubled", None))
    for _ in range(15):
        t.step()
    head, state_hash = t.host.chain.head, t.host.state.state_hash()
    t.store.close()  # the host process dies
    store = LogStore(tmp_path / "table.db")
    t.persist = store
    t.host = HostAuthority.restore(t.host_id, store.load().records, t._bytes,
                                   persist=lambda s, p: t.persist(s, p))
    assert (t.host.chain.head, t.host.state.state_hash()) == (head, state_hash)
    for seat in t.peer_seats:  # the peers reconnect by themselves
        t.deliver(t.host.rejoin(t.fp(seat), seat, t.replicas[seat].seq))
    t.play_hand()
    assert not t.alerts and not t.errors and t.heads_agree()
    assert all(len(v) == 1 for v in t.verified.values())
    actions = [e for e in t.host.log if e.kind == "action"]
    assert len(actions) == len(t.verified[1][0]["record"]["actions"])  # none lost, none twice


def test_an_entry_persisted_but_never_sent_reaches_the_peers_after_a_restart(tmp_path):
    t = stored_table(tmp_path)
    seat = t.host.state.to_act()[0]
    msg = t.raw_act(seat, {"pass": True}) if seat else None
    out = t.host.receive(t.fp(seat), msg) if seat else t.host.act_local(0, {"pass": True})
    assert out.entries  # written... and the host dies before sending
    t.store.close()
    store = LogStore(tmp_path / "table.db")
    t.host = HostAuthority.restore(t.host_id, store.load().records, t._bytes, persist=store)
    for s in t.peer_seats:
        t.deliver(t.host.rejoin(t.fp(s), s, t.replicas[s].seq))
    assert t.heads_agree() and not t.alerts
    # the move is in once: the same signed action again is refused as a replay
    if seat:
        again = t.host.receive(t.fp(seat), msg)
        assert not again.entries and again.sends[0][1]["type"] == "error"
    t.play_hand()
    assert not t.alerts and t.heads_agree()


def test_a_torn_last_transaction_is_ignored(tmp_path):
    t = stored_table(tmp_path)
    n = len(t.host.log)
    t.step()  # one more committed transaction in the WAL
    db, wal = tmp_path / "table.db", tmp_path / "table.db-wal"
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(db, copy / "table.db")
    data = wal.read_bytes()
    (copy / "table.db-wal").write_bytes(data[: len(data) - 100])  # the crash cut it short
    loaded = LogStore(copy / "table.db").load()
    assert n <= len(loaded.records) < len(t.host.log)
    assert [s for s, _ in loaded.records] == t.host.log[: len(loaded.records)]
    restored = HostAuthority.restore(t.host_id, loaded.records)
    assert restored.chain.seq == len(loaded.records) - 1


def test_a_damaged_tail_row_is_dropped_and_reported(tmp_path):
    t = stored_table(tmp_path)
    n = len(t.host.log)
    raw = sqlite3.connect(tmp_path / "table.db")
    raw.execute("UPDATE entries SET entry = ? WHERE seq = ?", (b"\xc1garbage", n - 1))
    raw.commit()
    loaded = LogStore(tmp_path / "table.db").load()
    assert len(loaded.records) == n - 1 and loaded.dropped == 1
    assert f"entry {n - 1}" in loaded.problem


def test_a_full_disk_is_a_clear_error_and_nothing_is_half_applied(tmp_path):
    t = stored_table(tmp_path)
    t.store.db.execute("PRAGMA max_page_count = %d" % t.store.db.execute("PRAGMA page_count").fetchone()[0])
    before = (t.host.chain.seq, t.host.state.state_hash(), len(t.store.load().records))
    for _ in range(30):  # fill the last free page, then fail
        seat = t.host.state.to_act()[0]
        out = (t.host.receive(t.fp(seat), t.raw_act(seat, t.choose(seat))) if seat
               else t.host.act_local(0, t.choose(0)))
        if out.error:
            break
        t.deliver(out)
        before = (t.host.chain.seq, t.host.state.state_hash(), len(t.store.load().records))
    assert out.error and "full" in out.error and str(tmp_path) in out.error
    assert out.sends == [] and out.entries == []
    assert (t.host.chain.seq, t.host.state.state_hash(), len(t.store.load().records)) == before


def test_an_unusable_path_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="cannot open the table log"):
        LogStore(tmp_path / "missing-dir" / "table.db")


def test_the_same_entry_is_never_written_twice(tmp_path):
    t = stored_table(tmp_path)
    with pytest.raises(StoreError, match="already has entry"):
        t.store.append(t.host.log[-1])


class CommitFails(LogStore):
    """A store whose batches fail to commit while ``failing`` (a disk that fills up)."""

    failing = False

    @contextmanager
    def batch(self):
        with LogStore.batch(self):
            yield
            if self.failing:
                raise StoreError("disk full")


def batched_table(store: LogStore, variant) -> Table:
    """A table whose host writes to ``store`` itself, as the host session does (the test
    table's own persist hook is a plain function, which cannot batch)."""
    t = Table(variant, persist=store, open_=False)
    t.host.persist = t.store = store
    t.open()
    t.start()
    return t


def commits_during(store: LogStore, change) -> int:
    statements = []
    store.db.set_trace_callback(statements.append)
    try:
        change()
    finally:
        store.db.set_trace_callback(None)
    return sum(1 for s in statements if s.strip().upper() == "COMMIT")


def test_the_entries_of_one_change_are_written_in_one_transaction(tmp_path):
    t = batched_table(LogStore(tmp_path / "table.db"), ("horseshoes", "horseshoes", "four"))
    while len(t.host.state.tricks) < 12 or len(t.host.state.trick) < 3:  # to the last card
        t.step()
    seat = t.host.state.to_act()[0]
    last_card = t.choose(seat)
    if seat in t.replicas:
        def play():  # one call to the host, the peers' replies not delivered
            return t.host.receive(t.fp(seat), t.replicas[seat].act(last_card))
    else:
        def play():
            return t.host.act_local(seat, last_card)
    outs = []
    assert commits_during(t.store, lambda: outs.append(play())) == 1
    kinds = [signed.kind for signed in outs[0].entries]
    assert kinds[:3] == ["action", "hand_end", "reveal"]  # … all in that one commit
    assert [s for s, _ in t.store.load().records] == t.host.log


def test_a_change_that_cannot_be_written_changes_nothing_and_sends_nothing(tmp_path):
    store = CommitFails(tmp_path / "table.db")
    t = batched_table(store, ("rook", None, None))
    for _ in range(6):
        t.step()
    seat = t.host.state.to_act()[0]
    action = t.choose(seat)
    head, state_hash, logged = t.host.chain.head, t.host.state.state_hash(), len(t.host.log)
    store.failing = True
    out = t.step(seat, action)
    assert out.error and "disk full" in out.error and not out.sends and not out.entries
    assert (t.host.chain.head, t.host.state.state_hash(), len(t.host.log)) == \
        (head, state_hash, logged)
    assert len(store.load().records) == logged
    store.failing = False  # space again: the same move goes through, and the game goes on
    assert not t.step(seat, action).error
    assert t.heads_agree() and not t.alerts


def test_one_change_undoes_a_failed_transaction_only_where_the_store_batches(tmp_path):
    store = CommitFails(tmp_path / "table.db")
    undone = []
    with one_change(store, undo=lambda: undone.append(True)):
        pass
    assert undone == []  # written: nothing to undo
    store.failing = True
    with pytest.raises(StoreError):
        with one_change(store, undo=lambda: undone.append(True)):
            pass
    assert undone == [True]

    def plain(signed, private):  # writes each entry before it is applied: nothing to undo
        raise StoreError("disk full")
    with pytest.raises(StoreError):
        with one_change(plain, undo=lambda: undone.append(False)):
            plain(None, None)
    assert undone == [True]
    store.close()


# -- group commit: the entry is sent once written, fsynced by a thread ----------------------

def fsyncs_during(monkeypatch, change) -> list[int]:
    """The file descriptors fsynced on this thread while ``change`` runs."""
    import os
    import threading
    calls, real, me = [], os.fsync, threading.get_ident()

    def fsync(fd):
        if threading.get_ident() == me:
            calls.append(fd)
        return real(fd)
    monkeypatch.setattr(os, "fsync", fsync)
    try:
        change()
    finally:
        monkeypatch.setattr(os, "fsync", real)
    return calls


def until_durable(store: LogStore, seq: int) -> None:
    import time
    deadline = time.monotonic() + 5
    while store.durable_seq < seq and time.monotonic() < deadline:
        time.sleep(0.001)
    assert store.durable_seq >= seq


def test_a_move_is_written_without_an_fsync_and_made_durable_by_the_flusher(tmp_path, monkeypatch):
    t = batched_table(LogStore(tmp_path / "table.db"), ("rook", None, None))
    while t.host.state is None or t.host.round is None or not t.host.round.dealt:
        t.step()
    assert t.store.sync_mode == "GROUP"
    assert t.store.db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    seat = t.host.state.to_act()[0]
    action = t.choose(seat)
    fsyncs = fsyncs_during(monkeypatch, lambda: t.step(seat, action))
    last = t.host.log[-1]
    assert last.kind == "action" and t.store.written_seq == last.seq
    assert fsyncs == []  # the table's thread never waited for the disk
    until_durable(t.store, last.seq)  # … the flusher thread did it


def test_on_a_loop_the_flusher_is_woken_after_the_change_not_during_it(tmp_path):
    """``defer`` (the table's loop.call_soon): the change's sends go out before the
    flusher thread is woken; one wake-up for the entries of several changes."""
    store = LogStore(tmp_path / "table.db")
    later = []
    store.defer = later.append
    t = batched_table(store, ("rook", None, None))
    while len(t.host.log) < 12:
        t.step()
    assert len(later) == 1  # woken once, whatever was written meanwhile
    assert store.durable_seq < store.written_seq  # nobody woke the flusher yet
    later.pop()()
    until_durable(store, store.written_seq)
    t.step()
    assert len(later) == 1  # the next change asks again


def test_an_entry_only_the_host_could_give_back_is_fsynced_before_it_is_sent(tmp_path, monkeypatch):
    t = batched_table(LogStore(tmp_path / "table.db"), ("rook", None, None))
    t.play_hand()
    # the hand is over: the next change commits to the next deal's secret
    fsyncs = fsyncs_during(monkeypatch, lambda: t.deliver(t.host.next_hand()))
    commit = next(s for s in reversed(t.host.log) if s.kind == "commit")
    assert fsyncs and t.store.durable_seq >= commit.seq


def test_the_old_behaviour_fsyncs_every_entry_itself(tmp_path):
    store = LogStore(tmp_path / "table.db", sync="FULL")
    t = batched_table(store, ("rook", None, None))
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store.durable_seq == store.written_seq == t.host.chain.seq


def test_host_only_tells_which_private_parts_no_peer_holds(tmp_path):
    from net.trust.store import host_only
    t = batched_table(LogStore(tmp_path / "table.db"), ("rook", None, None))
    for _ in range(30):
        t.step()
    records = t.store.load().records
    kinds = {(s.kind, host_only(s, p)) for s, p in records}
    assert ("commit", True) in kinds and ("action", False) in kinds and ("seat", False) in kinds
    for signed, private in records:
        if signed.kind == "action":
            hidden = signed.body["signed"]["body"]["hidden"]
            assert host_only(signed, private) == (hidden is not None)


def test_a_truncated_tail_is_gone_after_reopening(tmp_path):
    t = stored_table(tmp_path)
    n = len(t.host.log)
    assert t.store.truncate_after(n - 4) == 3
    t.store.close()
    again = LogStore(tmp_path / "table.db")
    assert [s for s, _ in again.load().records] == t.host.log[: n - 3]
    assert again.written_seq == again.durable_seq == n - 4
