"""A table an older Parlour left unfinished under the private deal (protocol 15 or before:
its deals over edwards25519, which this Parlour cannot check) is never resumed and never a
crash: the host says why, keeps the log aside for the Parlour that wrote it, and opens a
new table — whether the person asked to resume it or not."""

import pytest

from net.constants import HOST_LOG_FILE
from net.sessions.host_session import HostCore
from net.trust.store import LogStore
from tests.net.session_kit import QUICK, ident
from tests.net.trust.test_mental_old_log import old_records


@pytest.mark.parametrize("resume", [None, True], ids=["found", "asked for"])
def test_an_older_parlours_private_table_is_kept_aside_with_a_notice(arun, tmp_path, resume):
    state = tmp_path / "host"
    state.mkdir()
    old = LogStore(state / HOST_LOG_FILE)
    with old.batch():
        for signed, private in old_records(15):  # signed by ident("host"), six cards played
            old.append(signed, private)
    old.close()
    events: list = []
    options = {"resume": resume} if resume else {}
    host = HostCore(ident("host"), {"game": "rook"}, state_dir=state, emit=events.append,
                    timings=QUICK, **options)

    async def main():
        await host.start()
        await host.stop()
    arun(main(), timeout=30)
    assert not host.restored and host.table != old_records(15)[0][0].entry.table
    [notice] = [e for e in events if e["type"] == "notice"]
    assert "cannot be resumed" in notice["message"], notice
    assert "dealt privately by an older version of Parlour" in notice["message"]
    assert "edwards25519" in notice["message"]  # the detail a helper may ask for
    kept = [p.name for p in state.glob("table-*.db")]
    assert len(kept) == 1 and kept[0] in notice["message"]  # set aside, not lost
    assert len(LogStore(state / kept[0]).load().records) == len(old_records(15))
