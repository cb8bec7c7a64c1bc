"""A client's own error is its own: an exception inside a guest's own checks (here one
injected into its replica) is told to its person as this computer's error — a fatal
"error" event, a bug report saved in its state directory with the traceback, the
versions and the entries involved — never as a rule someone else broke: no alert
names anyone, on its screen or another's. The guest leaves the table, which the host
logs as a drop, and the others play on. Both deals."""

from __future__ import annotations

import json
from pathlib import Path

from net.trust.peer.replica import PeerReplica
from tests.net.session_kit import PATIENT, Table
from tests.waits import until

BROKEN = 0  # the guest whose check breaks (seat 1)


def break_checks_of(guest, after: int) -> None:
    """``guest``'s replica raises inside its own check of the first action entry past
    ``after`` moves (a bug of this computer's, not anything the host sent)."""
    replica: PeerReplica = guest.replica
    check, moves = replica._check, []

    def broken(entry, message):
        if entry.kind == "action":
            moves.append(entry.seq)
            if len(moves) > after:
                raise RuntimeError("an injected bug in this client's own check")
        return check(entry, message)
    replica._check = broken


def test_an_exception_in_a_guests_own_check_is_its_own_error_not_an_alert(arun, tmp_path, deal):
    async def main():
        table = Table(tmp_path, game="rook", guests=2, bots=1, timings=PATIENT,
                      host_kw={"mental_deal": deal, "bot_delay": 0.01})
        await table.start()
        try:
            guest = table.guests[BROKEN]
            await until(lambda: guest.replica is not None and guest.replica.seat is not None)
            seat = guest.replica.seat
            break_checks_of(guest, after=2)
            await until(lambda: guest.ended, what=lambda: f"the guest's end ({table.where()})")
            auth = table.host.authority
            await until(lambda: not auth.seats[seat].connected,
                        what=lambda: f"the host to log the guest's drop ({table.where()})")
            head = auth.chain.seq
            other = table.guests[1]
            await until(lambda: other.replica.seq >= head, what="the other guest to go on")
            return table
        finally:
            await table.close()

    table = arun(main(), timeout=60)
    broken = table.guest_events[BROKEN]
    [error] = [e for e in broken if e["type"] == "error" and e.get("fatal")]
    assert "a check on this computer failed" in error["message"] and "not anyone's cheat" in error["message"]
    saved = json.loads(Path(error["bug_report"]).read_text())
    assert Path(error["bug_report"]).parent == tmp_path / f"guest{BROKEN}" / "bug-reports"
    assert saved["format"] == "parlour-bug/1" and "RuntimeError" in saved["error"]
    assert "an injected bug" in saved["traceback"] and saved["versions"]["protocol"] >= 8
    assert saved["evidence"][-1]["type"] == "entry"  # the entry it was checking, as it came
    assert saved["evidence"][-1]["entry"]["entry"]["kind"] == "action"
    # nobody is accused of anything, on any screen
    everyone = [broken, table.host_events, *(table.guest_events[i] for i in table.guest_events if i != BROKEN)]
    assert not [e for events in everyone for e in events if e["type"] == "alert"]
    assert not (tmp_path / f"guest{BROKEN}" / "evidence").exists()
    assert table.guests[BROKEN].summary()["alerts"] == [] and table.guests[1].summary()["alerts"] == []
