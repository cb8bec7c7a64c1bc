"""The last table a guest held a seat at: kept on disk by GuestCore while the seat is
ours, forgotten when the table ends, and never a crash when the file is damaged."""

import json
from types import SimpleNamespace

from net.sessions.last_table import LastTable, NoLastTable
from tests.net.session_kit import Table

RECORD = {"address": "192.168.1.20", "port": 47311, "fingerprint": "3f9a-07c2-b1d4-e608",
          "table": "t-1", "name": "Kitchen table", "host": "Mum", "game": "rook", "mode": None,
          "seat": 1, "players": 4, "side": 1, "hand": 4, "scores": [120, 85], "started": True}


def test_save_load_forget(tmp_path):
    store = LastTable(tmp_path)
    assert store.load() is None
    store.save(RECORD)
    assert store.load() == RECORD
    store.forget("another table")  # only that table's record is forgotten
    assert store.load() == RECORD
    store.forget("t-1")
    assert store.load() is None
    store.forget()  # nothing there: fine


def test_a_record_that_is_not_one_is_not_kept(tmp_path):
    store = LastTable(tmp_path)
    store.save({**RECORD, "fingerprint": None})  # logged, never raised into the session
    assert store.load() is None


def test_a_damaged_or_strange_file_is_ignored(tmp_path):
    store = LastTable(tmp_path)
    for text in ("{not json", json.dumps({**RECORD, "port": "47311"}), json.dumps([1, 2]),
                 json.dumps({**RECORD, "seat": 4}), json.dumps({**RECORD, "scores": ["a"]})):
        store.path.write_text(text)
        assert store.load() is None


def test_a_seat_is_kept_once_there_is_one_and_nowhere_without_a_store(tmp_path):
    store = LastTable(tmp_path)
    replica = SimpleNamespace(game=None, seat=None, table="t-1")
    store.keep(replica, "192.168.1.20", 47311, "3f9a-07c2-b1d4-e608", "Kitchen table", "Mum")
    store.keep(None, "192.168.1.20", 47311, "3f9a-07c2-b1d4-e608", "Kitchen table", "Mum")
    assert store.load() is None  # no table entry yet, or no seat: nothing to rejoin
    NoLastTable().keep(replica, "192.168.1.20", 47311, "3f9a", "Kitchen table", "Mum")
    NoLastTable().forget("t-1")
    assert not list(tmp_path.iterdir())
    replica.game = SimpleNamespace(id="rook", mode=None, num_players=4, side_of=lambda s: s % 2)
    replica.seat, replica.hand_number, replica.scores = 1, 3, [120, 85]
    store.keep(replica, "192.168.1.20", 47311, "3f9a-07c2-b1d4-e608", "Kitchen table", "Mum")
    assert store.load() == RECORD


def test_a_guest_remembers_its_seat_and_forgets_the_table_at_its_end(arun, tmp_path):
    seen = []

    async def main():
        table = Table(tmp_path, game="rook", hands=1, guests=0)
        await table.start()
        store = LastTable(tmp_path / "dad")

        class Watching(LastTable):
            def save(self, record):
                seen.append(dict(record))
                super().save(record)
        table.add_guest(table.host.identity.__class__.generate("Dad"),
                        remember=Watching(tmp_path / "dad"))
        for i in range(2):
            table.add_guest(table.host.identity.__class__.generate(f"G{i}"))
        try:
            await table.finish()
            return store.load(), table.host.port, table.host.identity.fingerprint
        finally:
            await table.close()

    after, port, fingerprint = arun(main(), timeout=60)
    assert after is None  # the table ended: nothing to rejoin
    first, last = seen[0], seen[-1]
    assert (first["address"], first["port"], first["fingerprint"]) == ("127.0.0.1", port, fingerprint)
    assert first["game"] == "rook" and first["players"] == 4 and first["seat"] in (1, 2, 3)
    assert any(r["started"] and r["hand"] == 1 for r in seen)
    assert last["hand"] == 2 and len(last["scores"]) == 2  # after the hand: its scores
