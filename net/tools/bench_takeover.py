"""How soon does play go on when the host is gone?  ``python -m net.tools.bench_takeover``

Four players at a Rook table, each its own process — ``parlour host`` and three
``parlour join --carry-on`` (bots playing every seat), with the protocol's own timings —
each in a network namespace of its own on a private bridge (``net/tools/netns.py``;
this needs root, or a user namespace that is root). Mid-hand the host goes:

* **reset**: its process is SIGKILLed (its app gone: the connections reset, its port
  refusing);
* **silent**: its namespace's link is set down, the process alive (a lid closed, the
  Wi-Fi gone: nothing arrives, nothing answers).

Each is timed, on the one monotonic clock every process stamps its events with, from
that moment to the successor's takeover ("hosting"), to every other player back at its
table ("connected" after the takeover) and to **play going on**: the hand dealt again,
the successor's first position with cards in hand (its bot can move). The issue's
targets: ≤ 5 s (reset), ≤ 8 s (silent); before, 15.3 s and 20.7 s.

And **a guest's app restarted** (one process, loopback, the protocol's timings): a
guest stopped mid-game and started again with the same state directory and remembered
seat, from its start to caught up with the host, with how many entries it read from its
own copy on disk and how many it fetched — and the same with its copy deleted first
(what every restart did before: the whole log fetched).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from net.constants import GUEST_LOG_DIR
from net.sessions.guest_session import GuestCore
from net.sessions.host_session import HostCore
from net.sessions.last_table import LastTable
from net.tools import hosts, netns
from net.wire.heartbeat import Timings
from net.wire.identity import Identity

REPO = Path(__file__).resolve().parents[2]


class _Process:
    """``python -m net.cli ARGS`` in a namespace, its JSON lines read by a thread."""

    def __init__(self, ns, args: list[str | int | float | Path]):
        env = {"PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1", "PATH": "/usr/bin:/bin"}
        self.proc = ns.python("-m", "net.cli", *map(str, args), stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, env=env)
        self.lines: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None  # (started with stdout=PIPE)
        for line in self.proc.stdout:
            try:
                self.lines.append(json.loads(line))
            except ValueError:
                pass

    def events(self, kind: str, after: float = 0.0) -> list[dict]:
        return [e for e in list(self.lines) if e.get("event") == kind and e["t"] >= after]

    def wait(self, kind: str, timeout: float, where=lambda e: True, after: float = 0.0) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [e for e in self.events(kind, after) if where(e)]
            if found:
                return found[0]
            time.sleep(0.01)
        raise TimeoutError(f"no {kind} within {timeout} s")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)


def _mid_hand(event: dict) -> bool:
    view = event.get("view") or {}
    return view.get("phase") == "play" and bool(view.get("trick"))


def _dealt(event: dict) -> bool:
    view = event.get("view") or {}
    return bool(view.get("hand"))


def takeover_once(how: str, private: bool, tmp: Path) -> dict:
    """One table, its host gone ``how`` ("reset" or "silent") mid-hand: seconds from then
    to the takeover, to everyone back, and to play going on."""
    with netns.bridged_namespaces(4) as (host_ns, *guest_ns):
        procs: list[_Process] = []
        try:
            host = _Process(host_ns, ["host", "--game", "rook", "--table", "Bench", "--no-advertise",
                                      "--bind", host_ns.address, "--state-dir", tmp / "host",
                                      "--bot-level", "easy", "--delay", "0.05", "--hands", 5,
                                      "--private-deal" if private else "--no-private-deal"])
            procs.append(host)
            listening = host.wait("listening", 30)
            guests = [_Process(ns, ["join", "--address", f"{host_ns.address}:{listening['port']}",
                                    "--fingerprint", listening["fingerprint"], "--bot", "easy",
                                    "--delay", "0.05", "--state-dir", tmp / f"guest{i}",
                                    "--carry-on", "--standby-bind", ns.address, "--hands", 5,
                                    "--stand-in", 0.3, "--verbose"])
                      for i, ns in enumerate(guest_ns)]
            procs += guests
            guests[0].wait("state", 60, _mid_hand)
            time.sleep(1.0)  # (the roster of standbys is with everyone since the first deal)
            gone = time.monotonic()
            if how == "reset":
                host.kill()
            else:
                subprocess.run(["ip", "-n", host_ns.name, "link", "set", "eth0", "down"], check=True)
            hosting = _first([g for g in guests], "takeover", 40, gone,
                             lambda e: e.get("stage") == "hosting")
            heir = next(g for g in guests if g.events("takeover", gone) and any(
                e.get("stage") == "hosting" for e in g.events("takeover", gone)))
            back = [g.wait("connection", 20, lambda e: e.get("state") == "connected", hosting["t"])
                    for g in guests if g is not heir]
            dealt = heir.wait("state", 30, _dealt, hosting["t"])
            return {"takeover": hosting["t"] - gone, "back": max(e["t"] for e in back) - gone,
                    "play": dealt["t"] - gone}
        finally:
            for p in procs:
                p.kill()


def _first(procs, kind: str, timeout: float, after: float, where) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = sorted((e for p in procs for e in p.events(kind, after) if where(e)),
                       key=lambda e: e["t"])
        if found:
            return found[0]
        time.sleep(0.01)
    raise TimeoutError(f"no {kind} within {timeout} s")


async def restart_once(tmp: Path, after_hands: int, copy: bool = True) -> dict:
    """A guest's app stopped after ``after_hands`` hands and a few moves and started
    again at once: seconds to caught up, entries read from its disk and fetched
    (``copy`` False: its copy on disk deleted first, so it fetches the whole log, as
    every restarted guest did before)."""
    host = HostCore(Identity.generate("Bench host"), {"game": "rook"}, state_dir=tmp / "host",
                    timings=Timings(), autoplay=True, auto_start=True, bot_delay=0.01,
                    stand_in_after=0.2, mental_deal=False)
    await host.start()
    victim_id = Identity.generate("Victim")
    home = tmp / "victim"

    def guest(identity, **kw):
        return GuestCore(identity, address="127.0.0.1", port=host.port,
                         fingerprint=host.identity.fingerprint, bot_level="random",
                         bot_delay=0.01, **kw)
    guests = [guest(Identity.generate(f"G{i}")) for i in range(2)]
    victim = guest(victim_id, state_dir=home, remember=LastTable(home))
    tasks = [asyncio.ensure_future(g.run()) for g in guests + [victim]]
    auth, chain = hosts.authority(host), hosts.chain(host)
    back = None
    try:
        while auth.match is None or auth.match.hand_number < after_hands or auth.state is None \
                or len(auth.state.history) < 4:
            await asyncio.sleep(0.005)
        await victim.stop()
        await asyncio.sleep(0.5)  # the table goes on meanwhile (a stand-in plays its seat)
        record = LastTable(home).load()
        if record is None:
            raise RuntimeError("the stopped guest remembered no table to go back to")
        if not copy:
            shutil.rmtree(home / GUEST_LOG_DIR)
        back = guest(victim_id, state_dir=home, remember=LastTable(home), seat=record["seat"])
        started = time.perf_counter()
        tasks.append(asyncio.ensure_future(back.run()))
        while back.replica is None or back.state.value != "joined" or back.replica.seq < chain.seq:
            await asyncio.sleep(0.001)
        took = time.perf_counter() - started
        return {"took": took, "disk": back.from_disk or 0, "fetched": back.received,
                "head": chain.seq}
    finally:
        for g in guests + [victim] + ([back] if back is not None else []):
            await g.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
        await host.stop()


def _summary(values: list[float]) -> str:
    return f"median {statistics.median(values):.2f} s, max {max(values):.2f} s"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m net.tools.bench_takeover")
    ap.add_argument("--runs", type=int, default=2, help="tables per case and deal")
    ap.add_argument("--deal", default="both", choices=("seeded", "private", "both"))
    ap.add_argument("--restarts", type=int, default=3, help="guest app restarts measured")
    args = ap.parse_args(argv)
    deals = {"seeded": [False], "private": [True], "both": [False, True]}[args.deal]
    reason = netns.unavailable_reason()
    with tempfile.TemporaryDirectory(prefix="parlour-bench-takeover-") as tmp:
        if reason:
            print(f"takeovers not measured: network namespaces unavailable ({reason})")
        elif args.runs > 0:
            for how, target in (("reset", 5.0), ("silent", 8.0)):
                for private in deals:
                    runs = [takeover_once(how, private, Path(tmp) / f"{how}{private}{i}")
                            for i in range(args.runs)]
                    deal = "private deal" if private else "seeded deal"
                    print(f"host {how:6} ({deal}), n={len(runs)}: takeover "
                          f"{_summary([r['takeover'] for r in runs])}; everyone back "
                          f"{_summary([r['back'] for r in runs])}; play goes on (the hand dealt "
                          f"again) {_summary([r['play'] for r in runs])}  (target <= {target:g} s)")
        for i in range(args.restarts):
            for copy in (True, False):
                r = asyncio.run(restart_once(Path(tmp) / f"restart{i}{copy}", 1 + i, copy))
                print(f"guest app restarted at entry {r['head']}"
                      f"{'' if copy else ', its copy on disk deleted'}: caught up in "
                      f"{r['took'] * 1000:.0f} ms, {r['disk']} entries read from its disk, "
                      f"{r['fetched']} fetched from the host")
    return 0


if __name__ == "__main__":
    sys.exit(main())
