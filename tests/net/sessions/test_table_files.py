"""A table's files: the unfinished game is described for the lobby from the record
beside its log, discarded on request, and a new table replaces or keeps aside an old
log (the host's own key; a real LogStore in a temporary directory)."""

import random

from net.constants import HOST_LOG_FILE
from net.sessions.table_files import TableFiles, discard, unfinished
from net.trust.host.authority import HostAuthority
from tests.net.trust_table import identity


def new_table(files: TableFiles, started: bool = True) -> HostAuthority:
    host = identity("host")
    assert files.open(host, lambda found: True, None, random.Random(1).randbytes) is None
    auth = HostAuthority(host, rng=random.Random(2).randbytes, persist=files.store)
    auth.open_table("table-1", {"game": "rook"}, "Kitchen")
    for seat in range(4):
        auth.seat(seat, "human" if seat == 0 else "bot", host.public_key if seat == 0 else None,
                  "Host" if seat == 0 else f"Bot {seat + 1}", level=None if seat == 0 else "easy")
    if started:
        auth.start_game()
    files.write_meta(auth, None, done=False, side=1)
    return auth


def test_an_unfinished_game_is_described_and_goes_on_when_opened_again(tmp_path):
    files = TableFiles(tmp_path, emit=lambda e: None)
    auth = new_table(files)
    auth.match.scores = [85, 120]  # as if some hands were played
    files.write_meta(auth, None, done=False, side=1)
    files.close()
    offer = unfinished(tmp_path)
    assert offer["name"] == "Kitchen" and offer["game"]["game"] == "rook"
    assert (offer["hand"], offer["scores"], offer["side"], offer["started"]) == (1, [85, 120], 1, True)
    again = TableFiles(tmp_path, emit=lambda e: None)
    found = again.open(identity("host"), lambda f: False, True, random.Random(1).randbytes)
    assert found is not None and found.table == "table-1" and again.restored
    again.close()


def test_nothing_is_offered_before_the_deal_after_discard_or_for_a_damaged_record(tmp_path):
    files = TableFiles(tmp_path / "a", emit=lambda e: None)
    new_table(files, started=False)
    files.close()
    assert unfinished(tmp_path / "a") is None
    files = TableFiles(tmp_path / "b", emit=lambda e: None)
    new_table(files)
    files.close()
    assert unfinished(tmp_path / "b") is not None
    discard(tmp_path / "b")
    assert unfinished(tmp_path / "b") is None
    (tmp_path / "b" / "host.json").write_text("{not json")
    assert unfinished(tmp_path / "b") is None
    assert unfinished(tmp_path / "nowhere") is None


def test_a_new_table_replaces_the_computers_old_log_and_keeps_a_hosts_aside(tmp_path):
    notices = []
    for keep_old, where in ((False, tmp_path / "local"), (True, tmp_path / "host")):
        files = TableFiles(where, emit=notices.append, keep_old=keep_old)
        new_table(files)
        files.close()
        fresh = TableFiles(where, emit=notices.append, keep_old=keep_old)
        assert fresh.open(identity("host"), lambda f: True, False, random.Random(1).randbytes) is None
        fresh.close()
        kept = sorted(p.name for p in where.glob("table-*.db"))
        assert (where / HOST_LOG_FILE).exists() and len(kept) == (1 if keep_old else 0)
