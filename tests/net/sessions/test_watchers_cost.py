"""What a watcher costs the host per entry, counted (no clock): each entry is made,
signed and encoded once however many watch, and every watcher's connection is written
the same bytes (issue 29: a card's action takes the players no longer with six watchers).

The first test runs the host's watchers part (``Watchers``) over real links and
connections (``heartbeat.Link``, ``transport.Connection``) whose socket is a recording
writer, with a real host (``trust_table``) that has played a hand; the session test
counts the same in a whole hand on loopback, under both deals; the last, that a
watcher's catch-up (the whole log, for one arriving late) is signed once for them all.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from types import SimpleNamespace

import pytest

from net.sessions.watchers import Watcher, Watchers
from net.trust import sent
from net.wire import framing
from net.wire import messages as m
from net.wire.heartbeat import Link, Timings
from net.wire.transport import Connection
from tests.net.session_kit import PATIENT, Table
from tests.net.trust_table import Table as TrustTable
from tests.net.trust_table import identity
from tests.waits import until


class Socket:
    """A connection's writer that takes every write at once and keeps the bytes."""

    def __init__(self):
        self.written: list[bytes] = []
        self.transport = SimpleNamespace(get_write_buffer_size=lambda: 0)

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return False

    def get_extra_info(self, name: str):
        return None


class Counted:
    """Calls to ``module.name`` counted (``calls``), and each call's first argument kept."""

    def __init__(self, monkeypatch, module, name: str):
        self.calls: list = []
        real = getattr(module, name)

        def counting(*args, **kwargs):
            self.calls.append(args[0] if args else None)
            return real(*args, **kwargs)
        monkeypatch.setattr(module, name, counting)


def played_host():
    """A host that has logged a whole hand of Rook (seeded deal, three peers)."""
    table = TrustTable()  # (opened, every seat taken)
    table.start()
    table.play_hand()
    assert not table.alerts and not table.errors, (table.alerts, table.errors)
    return table.host


def watching(host, count: int) -> tuple[Watchers, list[Socket]]:
    """The host's ``Watchers`` with ``count`` watchers on real links, each holding nothing."""
    watchers = Watchers(lambda: host, b"host", admission=None, players=list, roster=None,
                        emit=lambda event: None)  # (every player holds every entry)
    sockets = []
    for i in range(count):
        key = identity(f"Watcher{i}").public_key
        socket = Socket()
        link = Link(Connection(None, socket, key, f"Watcher{i}"), Timings(),  # type: ignore[arg-type]
                    on_message=lambda msg: None, position=lambda: -1)
        fp = f"watcher-{i}"
        watchers.here[fp] = Watcher(fp, key, f"Watcher{i}", link)
        watchers.outbox.attach(fp, link, -1)
        sockets.append(socket)
    return watchers, sockets


@pytest.mark.parametrize("count", [1, 6])
def test_each_entry_is_signed_and_encoded_once_however_many_watch(monkeypatch, count):
    host = played_host()
    entries = host.log
    watchers, sockets = watching(host, count)
    encodings = Counted(monkeypatch, framing, "encode")
    signatures = Counted(monkeypatch, sent, "signed")
    watchers.publish(entries)
    signed, encoded = len(signatures.calls), len(encodings.calls)
    assert signed == len(entries), f"{signed} signatures for {len(entries)} entries, {count} watchers"
    assert encoded == len(entries), f"{encoded} encodings for {len(entries)} entries, {count} watchers"
    first = sockets[0].written
    assert [framing.decode(frame[framing.LENGTH_BYTES:])["entry"]["entry"]["seq"]
            for frame in first] == [signed.seq for signed in entries]
    assert all(socket.written == first for socket in sockets), "each watcher sent other bytes"


def test_a_framed_message_is_read_only_and_a_copy_of_it_is_encoded_anew():
    message = framing.Framed({"type": "hb", "seq": 3})
    assert message.frame() == framing.encode({"type": "hb", "seq": 3})
    assert message.frame() is message.frame()  # (made once)
    with pytest.raises(TypeError):
        message["seq"] = 4
    changed = {**message, "seq": 4}
    assert framing.frame_of(changed) == framing.encode({"type": "hb", "seq": 4})


def test_in_a_session_no_entry_message_is_encoded_twice_for_the_watchers(tmp_path, deal,
                                                                         monkeypatch):
    """Three watchers at a whole hand: the host encodes each entry message it sends once —
    the watchers' one public message for them all, each player's its own. (An entry
    message's ``sent`` signature is the host's over what it carries for its recipients:
    the same for every watcher, another for each seat.)"""
    encodings = Counted(monkeypatch, framing, "encode")

    async def main():
        table = Table(tmp_path, hands=1, guests=2, bots=1, timings=PATIENT,
                      host_kw={"mental_deal": deal, "bot_delay": 0.01})
        await table.host.start()
        watchers = [table.add_guest(identity(f"Watcher{i}"), watch=True, bot_level=None)
                    for i in range(3)]
        await until(lambda: len(table.host.watchers.here) == 3)
        return table, watchers, await table.play_out(120, players=2, bot_delay=0.01)

    table, watchers, summaries = asyncio.run(main())
    assert all(s["alerts"] == [] for s in summaries), summaries
    assert all(summaries[table.guests.index(w)]["hands_verified"] == 1 for w in watchers)
    live = [msg for msg in encodings.calls if msg.get("type") == m.ENTRY]
    by_signature = Counter(msg["sent"] for msg in live)
    twice = {sig: n for sig, n in by_signature.items() if n > 1}
    assert len(twice) == 0, f"{len(twice)} entry messages encoded more than once: " \
                      f"{sorted(Counter(twice.values()).items())} (times, how many)"
    public = {msg["entry"]["entry"]["seq"] for msg in live
              if msg["private"] == {"view": None, "action": None}}
    assert public, "no watcher was sent an entry live"


def test_a_watchers_catch_up_is_signed_once_for_every_watcher_that_arrives(monkeypatch):
    """A watcher arriving late is sent the whole log, each entry signed as a catch-up: the
    host signs each once, not once more for every watcher that arrives."""
    archive = played_host().archive
    signatures = Counted(monkeypatch, sent, "signed")
    first = archive.public_sync(-1)
    again = [archive.public_sync(-1) for _ in range(5)]
    later = archive.public_sync(10)
    signed = len(signatures.calls)
    assert signed == len(archive.log), f"{signed} signatures for {len(archive.log)} entries"
    assert all(sync == first for sync in again)
    assert [e["entry"]["entry"]["seq"] for msg in later for e in msg["entries"]] \
        == list(range(11, len(archive.log)))
    assert all(e["sent"] and e["private"] == {"view": None, "action": None}
               for msg in first for e in msg["entries"])
