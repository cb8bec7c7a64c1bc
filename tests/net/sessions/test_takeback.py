"""A restarted host takes back, from its peers, the entries its disk lost (``Takeback``).

The host sends an entry once it is written and fsyncs afterwards, so a power cut can
cost it the tail of its log. The process test kills the host with SIGKILL mid-trick and
then cuts the last entries off its store — what the disk holds after a power cut that
came before the flusher's fsync (SQLite's WAL recovery keeps exactly the transactions
that reached the disk, a prefix) — and restarts it: it must get the tail back from the
peers and finish the game with no alert anywhere. The in-process tests drive a
``HostCore`` and ``GuestCore``s on loopback: a peer offering a forged tail, and a lost
deal secret that stops the table instead of forking it.
"""

import asyncio
import re

from net.sessions.host_session import HostCore
from net.sessions.takeback import WAIT
from net.trust.host.recovery import can_rebuild
from net.trust.store import LogStore
from tests.net.proc_kit import Peers, check_summaries
from tests.net.session_kit import Table, ident
from tests.net.sessions.test_faults import assert_log_clean, host_args, join_args, mid_trick
from tests.waits import until


def cut_tail(db, most: int = 3) -> tuple[int, int]:
    """Drop up to ``most`` entries from the end of the log at ``db``, stopping before one
    that held a secret (those are fsynced before they are sent): (head left, dropped)."""
    store = LogStore(db)
    try:
        records = store.load().records
        n = 0
        while n < most and can_rebuild(records[-1 - n][0]):
            n += 1
        head = len(records) - 1 - n
        assert n >= 1 and store.truncate_after(head) == n
    finally:
        store.close()
    return head, n


# -- processes: SIGKILL, a lost tail, a restart --------------------------------------------------

def second_trick(event) -> bool:
    """Mid-trick after a whole trick: the last few entries are cards played."""
    return mid_trick(event) and len(event["view"].get("tricks") or []) >= 1 \
        and len(event["view"]["trick"]) >= 2

def test_a_host_killed_before_its_tail_was_on_disk_gets_it_back_from_the_peers(tmp_path):
    with Peers() as peers:
        args = host_args(tmp_path, "--restart-grace", "20")
        host = peers.start(args, name="host")
        address = f"127.0.0.1:{host.wait_event('listening')['port']}"
        joiners = [peers.start(join_args(tmp_path, i, address, *(["--verbose"] if i == 0 else [])),
                               name=f"join{i}") for i in range(3)]
        joiners[0].wait_event("state", where=second_trick)
        host.kill()
        kept, lost = cut_tail(tmp_path / "host" / "table.db")
        assert lost >= 2  # mid-trick: the last entries are visible moves
        again = peers.start(args, name="host again")
        resumed = again.wait_event("listening")
        assert resumed["restored"] and resumed["head"] == kept
        got = again.wait_event("notice", timeout=30, where=lambda e: "Got back" in e["message"])
        assert again.wait(90) == 0
        result = again.wait_event("result", timeout=1)
        summaries = check_summaries(joiners, hands=2, head=result["head"])  # no alerts
    # the peers hold what was sent before the kill: all the cut entries, or all but the
    # last if it was written and never sent
    back = int(re.search(r"Got back (\d+) entries", got["message"]).group(1))
    assert lost - 1 <= back <= lost and back >= 1
    assert not again.events("alert")
    assert all(s["reconnects"] >= 1 for s in summaries)
    assert_log_clean(tmp_path / "host")


# -- in one process: a forged tail, a lost secret ------------------------------------------------

async def played_then_restarted(tmp_path, lose: int, moves: int = 6, private: bool = True, **guest_kw):
    """A table four players into a hand's play, its host stopped as by a crash and its
    log cut by ``lose`` entries; a new host on the same directory and port."""
    t = Table(tmp_path, hands=1, host_kw={"bot_delay": 0.01, "restart_grace": 5.0, "mental_deal": private},
              bot_delay=0.01)
    await t.start()
    await until(lambda: t.host.authority.state is not None
                   and len(t.host.authority.state.tricks) >= 1 and t.host.authority.chain.seq >= 0)
    mark = t.host.authority.chain.seq + moves
    await until(lambda: t.host.authority.chain.seq >= mark
                   and all(g.replica and g.replica.seq == t.host.authority.chain.seq for g in t.guests))
    port = t.host.port
    await t.host.stop()  # no farewell: as a crash, the table can be resumed
    store = LogStore(tmp_path / "host" / "table.db")
    records = store.load().records
    assert all(can_rebuild(signed) for signed, _ in records[-lose:])
    head = records[-1][0].seq
    store.truncate_after(head - lose)
    store.close()
    return t, port, head


def restarted_host(t, tmp_path, port, events) -> HostCore:
    return HostCore(ident("Host"), {"game": "rook"}, state_dir=tmp_path / "host",
                    emit=events.append, timings=t.timings, port=port, autoplay=True,
                    auto_start=True, hands=1, bot_delay=0.01, restart_grace=5.0)


def test_a_peer_offering_a_forged_tail_is_refused_with_an_alert(tmp_path, arun):
    async def go():
        t, port, head = await played_then_restarted(tmp_path, lose=2)
        liars = []  # whichever peer is asked first forges its tail; the others do not

        def forging(guest):
            honest_tail = guest.replica.tail

            def tail(after):
                msgs = honest_tail(after)
                if not liars:
                    liars.append(guest.replica.seat)
                    first = msgs[0]["entries"][0]
                    body = {**first["entry"], "body": {**first["entry"]["body"], "forged": True}}
                    msgs[0]["entries"][0] = {**first, "entry": body}  # not the host's signature
                return msgs
            return tail
        for guest in t.guests:
            guest.replica.tail = forging(guest)
        events = []
        t.host = restarted_host(t, tmp_path, port, events)
        await t.host.start()
        await until(lambda: any(e["type"] == "alert" for e in events), timeout=60)
        alert = next(e for e in events if e["type"] == "alert")
        assert alert["rule"] == "host-signature" and [alert["seat"]] == liars
        assert alert["evidence_path"] and "seat" in alert["detail"]
        # the honest peers still give the tail back, and the table goes on
        await until(lambda: t.host.authority.chain.seq > head, timeout=60)
        assert any(e["type"] == "notice" and "Got back" in e["message"] for e in events)
        await t.host.stop()
        for g in t.guests:
            await g.stop()
        await asyncio.gather(*t.tasks, return_exceptions=True)
    arun(go())


def test_a_lost_deal_secret_ends_the_table_with_a_reason_and_nothing_signed(tmp_path, arun):
    async def go():
        # the seeded deal's secret (the mental deal's are derived from the host's key)
        t, port, head = await played_then_restarted(tmp_path, lose=1, private=False)
        store = LogStore(tmp_path / "host" / "table.db")
        records = store.load().records
        commit = max(s.seq for s, _ in records if s.kind == "commit")
        store.truncate_after(commit - 1)  # a damaged disk: even the fsynced secret is gone
        store.close()
        events = []
        t.host = restarted_host(t, tmp_path, port, events)
        await t.host.start()
        await until(lambda: t.host.finished.is_set(), timeout=60)
        fatal = next(e for e in events if e["type"] == "error" and e.get("fatal"))
        assert f"entry {commit} (commit)" in fatal["message"] and "stops here" in fatal["message"]
        assert t.host.authority.chain.seq == commit - 1  # nothing new signed: no fork
        await until(lambda: all(g.ended for g in t.guests), timeout=60)
        assert not any(g.alerts for g in t.guests)
        await t.host.stop()
        await asyncio.gather(*t.tasks, return_exceptions=True)
    arun(go())


def test_a_game_against_the_computer_resumes_from_its_disk_at_once(tmp_path, arun):
    """Nobody to ask: what the disk kept is the game (at most the move in flight lost)."""
    def local(events):
        return HostCore(ident("Host"), {"game": "rook"}, state_dir=tmp_path / "local",
                        emit=events.append, listen=False, autoplay=True, auto_start=True,
                        hands=1, bot_delay=0.01, bots={1: "random", 2: "random", 3: "random"})

    async def go():
        first = local([])
        await first.start()
        await until(lambda: first.authority.state is not None
                       and len(first.authority.state.tricks) >= 2)
        await first.stop()  # closed mid-hand, as a crash would
        kept, _ = cut_tail(tmp_path / "local" / "table.db", most=2)
        events = []
        again = local(events)
        await again.start()
        assert again.restored and not again.takeback.active
        await until(lambda: again.authority.chain.seq > kept + 3)  # it goes on at once
        await until(lambda: again.finished.is_set(), timeout=30)
        assert not [e for e in events if e["type"] in ("alert", "error")]
        await again.stop()
    arun(go())


def test_nothing_is_signed_until_the_peers_have_given_the_tail_back_and_commands_wait(tmp_path, arun):
    async def go():
        t, port, head = await played_then_restarted(tmp_path, lose=2)
        events = []
        t.host = restarted_host(t, tmp_path, port, events)
        await t.host.start()
        kept = t.host.authority.chain.seq
        assert kept == head - 2 and t.host.takeback.active  # the peers are not back yet
        t.host.start_game()
        t.host.set_option("live_scores", True)
        t.host.set_option("live_scores", True)  # a second click on the same
        assert [e["message"] for e in events if e["type"] == "error"] == [WAIT] * 3
        assert t.host.authority.chain.seq == kept
        await until(lambda: not t.host.takeback.active, timeout=60)
        # The person's commands were held, not lost: run once the table went on, and
        # the one given twice once (the game had begun: its start is refused then).
        await until(lambda: t.host.authority.options.get("live_scores") is True, timeout=60)
        assert [e.body["name"] for e in t.host.authority.log[head + 1:]
                if e.kind == "option"] == ["live_scores"]
        assert t.host.authority.log[kept + 1:head + 1] == t.guests[0].replica.log[kept + 1:head + 1]
        await until(lambda: t.host.authority.chain.seq > head + 2, timeout=60)  # goes on
        assert not any(g.alerts for g in t.guests)
        await t.host.stop()
        for g in t.guests:
            await g.stop()
        await asyncio.gather(*t.tasks, return_exceptions=True)
    arun(go())


def test_a_game_continued_between_hands_shows_the_last_hands_summary_again(tmp_path, arun, deal):
    """Left on a hand's summary and continued from the lobby, a game against the computer
    showed the last trick of a table that waited for a Next hand nobody could click (seen
    in a real window, Somerset). Restored between hands, the person is told the last
    hand's end again — its summary, with Next hand — and Next hand deals on."""
    def local(events, resume=False):
        return HostCore(ident("Host"), {"game": "somerset"}, state_dir=tmp_path / "local",
                        emit=events.append, listen=False, autoplay=True, headless=False,
                        bot_delay=0.0, bots={1: "random", 2: "random", 3: "random"},
                        table_seed=b"between-hands-32-byte-table-seed", resume=resume, fresh=not resume,
                        mental_deal=deal)

    async def go():
        first_events: list[dict] = []
        first = local(first_events)
        await first.start()
        first.start_game()
        await until(lambda: any(e["type"] == "hand_over" for e in first_events), timeout=60,
                    what=lambda: [e["type"] for e in first_events][-10:])
        [told] = [e for e in first_events if e["type"] == "hand_over"]
        await first.stop()  # Leave on the summary
        events: list[dict] = []
        again = local(events, resume=True)
        await again.start()
        assert again.restored and again.authority.state is None
        shown = [e for e in events if e["type"] == "hand_over"]
        assert shown == [told], [e["type"] for e in events]
        # the finished hand's state comes first, as after the live hand: the game's own
        # description with it, which the summary is drawn by (its sides: seen in a real
        # window, a Somerset summary drawn by seats without it)
        kinds = [e["type"] for e in events]
        assert "state" in kinds[:kinds.index("hand_over")], kinds
        last = [e for e in events[:kinds.index("hand_over")] if e["type"] == "state"][-1]
        live = [e for e in first_events[:first_events.index(told)] if e["type"] == "state"][-1]
        assert last["info"] == live["info"] and last["hand_number"] == live["hand_number"] == 1
        assert last["view"]["tricks"] == live["view"]["tricks"]  # its last trick, as it was
        again.next_hand()  # the summary's Next hand
        await until(lambda: again.authority.state is not None, timeout=30)
        await again.stop()
    arun(go())
