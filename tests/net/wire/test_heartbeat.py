"""Heartbeats, acknowledgements and backoff: the state machines with made-up clocks, then
a real Link over loopback noticing a silent peer."""

import asyncio
import contextlib
import time

from net.wire import framing
from net.wire import messages as m
from net.wire.heartbeat import WIRE, AckBook, Backoff, Heartbeat, Link, Timings
from net.wire.transport import open_connection, start_server
from tests.waits import until

T = Timings(interval=1.0, timeout=4.0, backoff_min=0.05, backoff_max=2.0)


@contextlib.asynccontextmanager
async def connected(host_id, guest_id, server_side, done: asyncio.Event | None = None):
    """The guest's connection to a server on loopback whose handler is ``server_side``;
    at the end ``done`` is set (the handler may wait on it) and the server closed."""
    server = await start_server("127.0.0.1", 0, host_id, server_side, schemas=WIRE)
    try:
        yield await open_connection("127.0.0.1", server.port, guest_id, host_id.fingerprint,
                                    schemas=WIRE)
    finally:
        if done is not None:
            done.set()
        server.close()
        await server.wait_closed()


def test_defaults_detect_a_drop_within_five_seconds():
    t = Timings()
    assert t.timeout + t.tick <= 5.0 and t.interval < t.timeout


def test_heartbeat_is_due_after_an_idle_interval_and_dead_after_the_timeout():
    hb = Heartbeat(T, now=100.0)
    assert not hb.due(100.5) and hb.due(101.0)
    hb.sent(101.0)
    assert not hb.due(101.5)
    assert not hb.dead(104.0) and hb.dead(104.1)
    hb.heard(104.0)  # any frame is a sign of life
    assert not hb.dead(107.9) and hb.dead(108.01)


def test_backoff_doubles_to_its_cap_and_resets():
    b = Backoff(T)
    delays = [b.next() for _ in range(8)]
    assert delays[:3] == [0.05, 0.1, 0.2]
    assert max(delays) == 2.0 and delays == sorted(delays)
    b.reset()
    assert b.next() == 0.05


def test_backoff_stays_at_its_cap_however_many_attempts_fail():
    """A guest probing a host that refuses at once (a takeover pending: every
    ``takeover_probe``) counts thousands of attempts; the 1,025th used to raise
    OverflowError (0.05 * 2 ** 1024 is no float) and end the guest's process."""
    b = Backoff(T)
    delays = [b.next() for _ in range(5000)]
    assert delays[-1] == 2.0 and max(delays) == 2.0


def test_ack_book_tracks_what_each_peer_was_sent_and_has():
    book = AckBook()
    book.start("a", -1)
    assert book.missing("a", 1) and not book.missing("a", 0)
    for seq in range(5):
        book.on_sent("a", seq)
    book.on_ack("a", 3)
    assert book.acked["a"] == 3 and not book.all_acked(4, ["a"])
    book.on_ack("a", 99)  # cannot acknowledge what was never sent
    assert book.acked["a"] == 4 and book.all_acked(4, ["a"])
    book.on_ack("a", 2)  # acknowledgements never go backwards
    assert book.acked["a"] == 4
    book.forget("a")
    book.start("a", 4)  # it comes back holding 0..4: the next entry is 5
    assert not book.missing("a", 5) and book.missing("a", 6)


def test_a_link_closes_when_the_other_side_goes_silent(arun, host_id, guest_id):
    quick = Timings.quick(interval=0.1, timeout=0.5)
    silent = asyncio.Event()
    heard = []

    async def server_side(conn):
        await silent.wait()  # holds the connection open and says nothing

    async def main():
        server = await start_server("127.0.0.1", 0, host_id, server_side, schemas=WIRE)
        try:
            conn = await open_connection("127.0.0.1", server.port, guest_id,
                                         host_id.fingerprint, schemas=WIRE)
            link = Link(conn, quick, heard.append, position=lambda: 7)
            reason = await asyncio.wait_for(link.run(), 5)
            return reason
        finally:
            silent.set()
            server.close()
            await server.wait_closed()

    assert "no heartbeat" in arun(main())
    assert heard == []


def test_links_exchange_heartbeats_carrying_positions(arun, host_id, guest_id):
    quick = Timings.quick(interval=0.05, timeout=1.0)
    seen = []

    async def server_side(conn):
        link = Link(conn, quick, lambda msg: None, position=lambda: 42, head=lambda: b"h" * 32)
        await link.run()

    async def main():
        server = await start_server("127.0.0.1", 0, host_id, server_side, schemas=WIRE)
        try:
            conn = await open_connection("127.0.0.1", server.port, guest_id,
                                         host_id.fingerprint, schemas=WIRE)
            link = Link(conn, quick, lambda msg: None, position=lambda: 3,
                        on_hb=lambda seq, head: seen.append((seq, head)))
            task = asyncio.ensure_future(link.run())
            await until(lambda: len(seen) >= 3, what=lambda: f"heartbeats heard {seen}")
            link.close("done")
            await task
        finally:
            server.close()
            await server.wait_closed()

    arun(main())
    assert seen[:3] == [(42, b"h" * 32)] * 3  # the host's position and its head's hash


def test_a_link_writes_at_once_when_nothing_waits_and_keeps_the_order(arun, host_id, guest_id):
    """``send`` writes straight to the connection when nothing is queued before it (an
    acknowledgement leaves before its handler goes on), and queues behind anything that
    is, so the other side reads every frame in the order sent."""
    got = []
    done = asyncio.Event()

    async def server_side(conn):
        while len(got) < 3:
            got.append((await conn.recv())["seq"])
        await done.wait()

    async def main():
        async with connected(host_id, guest_id, server_side, done) as conn:
            link = Link(conn, T, lambda msg: None, position=lambda: 0)
            link.send({"type": "hb", "seq": 1})  # the link's writer is not even running
            await until(lambda: got == [1], what=lambda: f"the server read {got}")
            link.send_raw(framing.encode({"type": "hb", "seq": 2}))  # queued for the writer
            link.send({"type": "hb", "seq": 3})  # so this waits behind it
            task = asyncio.ensure_future(link.run())
            await until(lambda: len(got) == 3, what=lambda: f"the server read {got}")
            link.close("done")
            await task

    arun(main())
    assert got == [1, 2, 3]


def test_a_link_whose_other_side_stops_reading_ends_past_its_backlog(arun, host_id, guest_id):
    """A watcher's link holds at most ``max_backlog`` messages unsent: once the other side
    stops reading, the connection takes no more, and the link ends, saying why (its
    heartbeats may still come: only what it was sent piles up)."""
    reasons = []

    async def server_side(conn):
        link = Link(conn, T, lambda msg: None, position=lambda: 0, max_backlog=4)
        task = asyncio.ensure_future(link.run())
        for _ in range(400):  # ~80 MB if it were all read: far past any socket's buffers
            link.send({"type": "error", "reason": "x" * 200_000})
            await asyncio.sleep(0)
            if link.closed:
                break
        reasons.append(await task)

    async def main():
        server = await start_server("127.0.0.1", 0, host_id, server_side, schemas=WIRE)
        try:
            conn = await open_connection("127.0.0.1", server.port, guest_id, host_id.fingerprint,
                                         schemas=WIRE)  # connected, and never reads a frame
            await until(lambda: reasons, what=lambda: "the link kept everything queued")
            await conn.close()
        finally:
            server.close()
            await server.wait_closed()

    arun(main(), timeout=30)
    assert reasons[0].startswith("it stopped reading: 4 messages unsent")


def test_a_link_times_frames_read_late_from_before_they_were_sent(arun, host_id, guest_id):
    """The loop is blocked between two frames (a computer starved of CPU): the link reads
    both in one go, moments apart, and times each from the last moment it found nothing
    waiting to be read (``Link.arrived``) — before the first was sent; a frame that comes
    while it is idle is timed from a look after the last one was read."""
    read: list[tuple[int, float, float]] = []  # (seq, arrived, read at)
    sent: list[float] = []
    go, again, done = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def server_side(conn):
        await go.wait()
        sent.append(time.monotonic())
        assert conn.send_now({"type": "hb", "seq": 1})
        time.sleep(0.3)  # the whole loop blocked: nothing is read meanwhile
        assert conn.send_now({"type": "hb", "seq": 2})
        await again.wait()
        assert conn.send_now({"type": "hb", "seq": 3})
        await done.wait()

    async def main():
        async with connected(host_id, guest_id, server_side, done) as conn:
            link = Link(conn, T, lambda msg: None, position=lambda: 0,
                        on_hb=lambda seq, head: read.append((seq, link.arrived, time.monotonic())))
            made = link.quiet
            task = asyncio.ensure_future(link.run())
            await until(lambda: link.quiet > made, what="the link to look once")
            go.set()
            await until(lambda: len(read) == 2, what=lambda: f"two frames, read {read}")
            await until(lambda: link.quiet > read[1][2], what="the link to look again")
            again.set()
            await until(lambda: len(read) == 3, what=lambda: f"three frames, read {read}")
            link.close("done")
            await task

    arun(main())
    (_, came1, read1), (_, came2, read2), (_, came3, _) = read
    assert came1 == came2 <= sent[0] < read1 <= read2, read
    assert read2 - came2 >= 0.3, read  # the whole block, though read moments apart
    assert came3 > read2, read


def test_a_quiet_connection_has_nothing_buffered_and_one_with_a_frame_waiting_has(
        arun, host_id, guest_id):
    """``Connection.nothing_buffered`` (which reads a field asyncio keeps private: a Python
    that renames it fails here)."""
    seen: list[bool] = []
    wrote = asyncio.Event()

    async def server_side(conn):
        assert conn.send_now({"type": "hb", "seq": 1})
        wrote.set()
        await asyncio.Event().wait()  # held open until the test closes the server

    async def main():
        async with connected(host_id, guest_id, server_side) as conn:
            await wrote.wait()
            seen.append(conn.nothing_buffered())  # the frame waits, in the kernel or asyncio
            await conn.recv()
            await until(conn.nothing_buffered, what="nothing left to read")
            seen.append(conn.nothing_buffered())
            await conn.close()
            seen.append(conn.nothing_buffered())  # closed: it cannot tell

    arun(main())
    assert seen == [False, True, False]


def test_a_link_that_notes_no_arrival_reads_every_frame_without_looking_at_the_socket(
        arun, host_id, guest_id):
    """A host's link (``notes_arrival=False``: nothing on the host reads ``arrived``)
    spares the look at its socket for each frame — a system call per acknowledgement of
    every player and watcher — and reads every frame as another link does."""
    looks: dict[bool, int] = {}
    read: dict[bool, list] = {}

    async def server_side(conn):
        for n in range(5):
            await conn.send(m.refused_message(str(n)))
        await asyncio.Event().wait()  # held open until the test closes the server

    async def main(notes: bool):
        async with connected(host_id, guest_id, server_side) as conn:
            looks[notes], read[notes] = 0, []
            look = conn.nothing_buffered

            def counted() -> bool:
                looks[notes] += 1
                return look()
            conn.nothing_buffered = counted  # type: ignore[method-assign]
            link = Link(conn, T, lambda msg: read[notes].append(msg["reason"]), position=lambda: 0,
                        notes_arrival=notes)
            task = asyncio.ensure_future(link.run())
            await until(lambda: len(read[notes]) == 5, what=lambda: f"read {read[notes]}")
            link.close("done")
            await task

    for notes in (True, False):
        arun(main(notes))
    assert read == {True: list("01234"), False: list("01234")}
    assert looks[False] == 0 and looks[True] >= 5, looks
