"""A host under a flood of idle connections: ``python -m net.tools.bench_flood``

The attack (issue 11): throwaway keys connect to a table in progress, say ``join`` and
then only heartbeat, so each holds a descriptor and memory at the host; with them, raw
TCP connections that never start TLS. Before the host bounded its unseated connections
(net/sessions/admission.py), ~1,000 of them exhausted a desktop's 1,024 descriptors and a seated
player whose link dropped could not get back in.

What this measures, on loopback (the host and one seated guest in this process with
the soft descriptor limit lowered to a desktop's 1,024; the flood in another process,
from several 127.0.0.x source addresses):

* **flood**: host memory (RSS) before and after ``--connections`` idle connections
  (two thirds authenticated strangers that join and heartbeat, one third silent TCP),
  and how many unseated connections the host held at most;
* **rejoin under flood**: the seated guest's link is cut; from the cut to reconnected
  and caught up. Target < 1 s;
* **per idle connection** (``--per-connection N``): the host's memory per idle
  authenticated connection, with the bounds lifted so every one is kept, for asyncio's
  own TLS read buffer (256 KiB) and Parlour's (``TLS_READ_BUFFER``).

The flood itself is ``python -m net.tools.bench_flood attack …`` (also used by the test).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from net.wire import framing
from net.constants import TLS_READ_BUFFER
from net.wire.heartbeat import WIRE, Timings
from net.wire.identity import Identity
from net.wire.transport import auth_payload, client_context

if TYPE_CHECKING:  # (imported where a table is made: the attacking child process needs neither)
    from net.sessions.guest_session import GuestCore
    from net.sessions.host_session import HostCore

REPO = Path(__file__).resolve().parents[2]


def rss_kib() -> int:
    """This process's resident memory, KiB (Linux)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


# -- the flood (its own process) ---------------------------------------------------------

class Flood:
    """Idle connections to ``address:port`` from ``sources``: strangers that join and
    heartbeat, and silent TCP connections. Counts what the host did with them."""

    def __init__(self, address: str, port: int, sources: list[str], silent_share: float = 1 / 3,
                 heartbeat: float = 1.0):
        self.address, self.port, self.sources = address, port, sources
        self.silent_share = silent_share
        self.heartbeat = heartbeat
        self.opened = self.failed = self.closed_by_host = 0
        self.open_now = self.most_open = 0
        self._tasks: set[asyncio.Task] = set()

    async def run(self, count: int, concurrency: int = 64) -> None:
        gate = asyncio.Semaphore(concurrency)
        silent_every = round(1 / self.silent_share) if self.silent_share else 0
        for i in range(count):
            await gate.acquire()
            silent = bool(silent_every) and i % silent_every == silent_every - 1
            task = asyncio.ensure_future(self._one(i, silent, gate))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        for _ in range(concurrency):  # every connection has got past its handshake
            await gate.acquire()

    async def _one(self, i: int, silent: bool, gate: asyncio.Semaphore) -> None:
        source = self.sources[i % len(self.sources)]
        try:
            if silent:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(
                    self.address, self.port, local_addr=(source, 0)), 10)
            else:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(
                    self.address, self.port, ssl=client_context(), local_addr=(source, 0)), 10)
                await asyncio.wait_for(
                    self._join(reader, writer, Identity.generate(f"Flood{i}")), 10)
        except Exception:  # noqa: BLE001 - refused or dropped mid-handshake: counted
            self.failed += 1
            gate.release()
            return
        self.opened += 1
        self.open_now += 1
        self.most_open = max(self.most_open, self.open_now)
        gate.release()
        try:
            await self._idle(reader, writer, silent)
        finally:
            self.open_now -= 1
            writer.transport.abort()

    async def _join(self, reader, writer, identity: Identity) -> None:
        host_key = _host_key(writer)
        hello = await asyncio.wait_for(framing.read_frame(reader, None), 10)
        sig = identity.sign(auth_payload(hello["challenge"], host_key, identity.public_key))
        await framing.write_frame(writer, {"type": "auth", "protocol": hello["protocol"],
                                           "key": identity.public_key, "sig": sig,
                                           "name": identity.name})
        welcome = await asyncio.wait_for(framing.read_frame(reader, None), 10)
        if welcome["type"] != "welcome":
            raise framing.ConnectionClosed(str(welcome))
        await framing.write_frame(writer, {"type": "join", "name": identity.name, "seat": None,
                                           "last_seq": -1})

    async def _idle(self, reader, writer, silent: bool) -> None:
        """Stay connected (heartbeating, unless silent) until the host hangs up."""
        async def beat():
            while True:
                await asyncio.sleep(self.heartbeat)
                await framing.write_frame(writer, {"type": "hb", "seq": -1})
        beater = None if silent else asyncio.ensure_future(beat())
        try:
            while await reader.read(4096):
                pass
        except (OSError, ConnectionError):
            pass
        finally:
            if beater is not None:
                beater.cancel()
        self.closed_by_host += 1

    def stats(self) -> dict:
        return {"opened": self.opened, "failed": self.failed, "open_now": self.open_now,
                "most_open": self.most_open, "closed_by_host": self.closed_by_host}


def _host_key(writer) -> bytes:
    from net.wire.transport import peer_certificate_key
    return peer_certificate_key(writer)


async def _attack(args) -> None:
    flood = Flood(args.address, args.port, args.source or ["127.0.0.1"],
                  silent_share=args.silent_share, heartbeat=args.heartbeat)
    await flood.run(args.count)
    print(json.dumps({"event": "flooded", **flood.stats()}), flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)  # hold on until told to stop
    print(json.dumps({"event": "stopped", **flood.stats()}), flush=True)


class Attacker:
    """``python -m net.tools.bench_flood attack`` as a child process (its own descriptors)."""

    def __init__(self, port: int, count: int, sources: list[str], address: str = "127.0.0.1",
                 silent_share: float = 1 / 3, heartbeat: float = 1.0):
        argv = [sys.executable, "-m", "net.tools.bench_flood", "attack", "--address", address,
                "--port", str(port), "--count", str(count), "--silent-share", str(silent_share),
                "--heartbeat", str(heartbeat)]
        for source in sources:
            argv += ["--source", source]
        env = dict(os.environ, PYTHONPATH=str(REPO))
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, env=env, cwd=str(REPO))
        assert self.proc.stdin is not None and self.proc.stdout is not None  # (both PIPE)
        self._in, self._out = self.proc.stdin, self.proc.stdout

    async def flooded(self, timeout: float = 120.0) -> dict:
        """Wait until every connection was tried; the flood's counts."""
        loop = asyncio.get_running_loop()
        line = await asyncio.wait_for(loop.run_in_executor(None, self._out.readline), timeout)
        if not line:
            raise RuntimeError("the flood process ended early")
        return json.loads(line)

    def stop(self) -> None:
        try:
            self._in.close()
            self.proc.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait(10)


def lower_file_limit(soft: int):
    """Lower this process's soft descriptor limit; returns a function that restores it."""
    import resource
    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, before[1]))
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, before)


async def rejoin_time(host: HostCore, guest: GuestCore, timeout: float = 10.0) -> float:
    """Cut ``guest``'s link; seconds until it is back and holds the host's whole log."""
    from net.tools import hosts
    log = hosts.chain(host)
    while guest.link is None or guest.replica is None or guest.replica.seq < log.seq:
        await asyncio.sleep(0.002)
    guest.joined.clear()
    t0 = time.perf_counter()
    guest.link.close("bench: cut")
    deadline = t0 + timeout
    while not (guest.joined.is_set() and guest.link is not None
               and guest.replica.seq >= log.seq):
        if time.perf_counter() > deadline:
            return float("inf")
        await asyncio.sleep(0.001)
    return time.perf_counter() - t0


# -- the bench ----------------------------------------------------------------------------

FLOOD_SOURCES = [f"127.0.0.{i}" for i in range(1, 10)]


async def _table(tmp: Path, **host_kw) -> tuple[HostCore, GuestCore, asyncio.Task]:
    from net.sessions.guest_session import GuestCore
    from net.sessions.host_session import HostCore
    from net.tools import hosts
    host = HostCore(Identity.generate("Flooded"), {"game": "rook"}, state_dir=tmp / "host",
                    timings=Timings(), autoplay=True, auto_start=True, bot_delay=0.2,
                    bots={1: "random", 2: "random"}, **{"mental_deal": False, **host_kw})  # as before
    await host.start()
    guest = GuestCore(Identity.generate("Seated"), address="127.0.0.1", port=host.port,
                      fingerprint=host.identity.fingerprint, bot_level="random", bot_delay=0.2)
    task = asyncio.ensure_future(guest.run())
    while hosts.authority(host).state is None or guest.replica is None or guest.replica.view is None:
        await asyncio.sleep(0.01)
    return host, guest, task


async def bench_flood(connections: int, rejoins: int, tmp: Path) -> dict:
    host, guest, task = await _table(tmp)
    restore = lower_file_limit(1024)  # a typical desktop's limit
    attacker = None
    try:
        before = rss_kib()
        attacker = Attacker(host.port, connections, FLOOD_SOURCES)
        flood = await attacker.flooded()
        await asyncio.sleep(1.0)  # the strangers settle into heartbeating
        after = rss_kib()
        times = [await rejoin_time(host, guest) for _ in range(rejoins)]
        return {"flood": flood, "rss_before": before, "rss_after": after,
                "held": len(host.admission), "most": host.admission.most,
                "evicted": host.admission.evicted, "fds": open_descriptors(), "rejoin": times}
    finally:
        if attacker is not None:
            attacker.stop()
        restore()
        await guest.stop()
        await asyncio.gather(task, return_exceptions=True)
        await host.stop()


async def bench_per_connection(count: int, tmp: Path, stdlib_buffer: bool) -> float:
    from asyncio import sslproto

    from net.sessions.admission import Admission
    host, guest, task = await _table(tmp, admission=Admission(limit=10 ** 6, per_source=10 ** 6))
    if stdlib_buffer:  # start_server lowered it: put asyncio's default back for this run
        sslproto.SSLProtocol.max_size = 256 * 1024
    attacker = None
    try:
        before = rss_kib()
        attacker = Attacker(host.port, count, ["127.0.0.1"], silent_share=0)
        await attacker.flooded()
        await asyncio.sleep(1.0)
        held = len(host.arrivals.waiting)  # the strangers asking in: every connection here
        return (rss_kib() - before) / max(held, 1)
    finally:
        if attacker is not None:
            attacker.stop()
        sslproto.SSLProtocol.max_size = TLS_READ_BUFFER
        await guest.stop()
        await asyncio.gather(task, return_exceptions=True)
        await host.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m net.tools.bench_flood")
    sub = ap.add_subparsers(dest="command")
    attack = sub.add_parser("attack", help="open idle connections to a host (a child process)")
    attack.add_argument("--address", default="127.0.0.1")
    attack.add_argument("--port", type=int, required=True)
    attack.add_argument("--count", type=int, default=1500)
    attack.add_argument("--source", action="append", help="local address to connect from")
    attack.add_argument("--silent-share", type=float, default=1 / 3)
    attack.add_argument("--heartbeat", type=float, default=1.0, help="seconds between hb")
    per_connection = sub.add_parser("per-connection", help="memory per idle connection (one run)")
    per_connection.add_argument("--count", type=int, default=300)
    per_connection.add_argument("--stdlib-buffer", action="store_true")
    ap.add_argument("--connections", type=int, default=1500)
    ap.add_argument("--rejoins", type=int, default=10)
    ap.add_argument("--per-connection", type=int, default=300,
                    help="idle connections for the per-connection memory figure (0: skip)")
    args = ap.parse_args(argv)
    if args.command == "attack":
        from net.sessions.admission import raise_file_limit
        raise_file_limit()
        asyncio.run(_attack(args))
        return 0
    if args.command == "per-connection":
        with tempfile.TemporaryDirectory(prefix="parlour-flood-") as tmp:
            kib = asyncio.run(bench_per_connection(args.count, Path(tmp), args.stdlib_buffer))
        print(json.dumps({"kib": kib}))
        return 0
    with tempfile.TemporaryDirectory(prefix="parlour-flood-") as tmp:
        r = asyncio.run(bench_flood(args.connections, args.rejoins, Path(tmp) / "flood"))
    per: dict[bool, float] = {}  # KiB per connection, by whether asyncio's own buffer
    for stdlib in (True, False) if args.per_connection else ():
        # A fresh process each: memory freed by an earlier run would be reused.
        argv = [sys.executable, "-m", "net.tools.bench_flood", "per-connection", "--count",
                str(args.per_connection)] + (["--stdlib-buffer"] if stdlib else [])
        out = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=str(REPO),
                             env=dict(os.environ, PYTHONPATH=str(REPO)))
        per[stdlib] = json.loads(out.stdout.strip().splitlines()[-1])["kib"]
    f = r["flood"]
    ms = [t * 1000 for t in r["rejoin"]]
    print(f"flood: {f['opened']} of {args.connections} idle connections opened "
          f"({f['closed_by_host']} since dropped by the host, {f['failed']} failed); "
          f"host held at most {r['most']} unseated, {r['held']} now, evicted {r['evicted']}; "
          f"{r['fds']} descriptors open (soft limit 1024)")
    print(f"host memory: {r['rss_before'] / 1024:.1f} MiB before, {r['rss_after'] / 1024:.1f} MiB "
          f"after the flood (+{(r['rss_after'] - r['rss_before']) / 1024:.1f} MiB)")
    print(f"rejoin under the flood (cut -> reconnected and caught up): n={len(ms)} "
          f"median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms  (target < 1000 ms)")
    for stdlib, kib in per.items():
        which = "asyncio's 256 KiB TLS buffer" if stdlib else f"{TLS_READ_BUFFER // 1024} KiB TLS buffer"
        print(f"per idle authenticated connection ({which}): {kib:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
