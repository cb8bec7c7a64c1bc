"""How fast is a networked table?  ``python -m net.tools.bench``

On loopback (127.0.0.1 only), with four players at a Rook table — the host (its seat
and nothing else played by a bot in this process) and three ``parlour join`` peers,
each its own process:

* **action → all verified**: from the moment the host takes an action (a bot's or a
  peer's message) to the moment every peer has acknowledged, by sequence number, that
  its replica verified the entry. Includes the host's write to its log, signing, TLS,
  each peer's checks and the acknowledgement's way back. Median and p99 over a few
  hundred actions, for each way the host's log may be written (``--sync``): ``GROUP``
  (the default: the entry is sent once written, and fsynced by a thread off the loop —
  the peers' copies are the backup) and ``FULL`` (the old behaviour: an fsync before
  every send), alternated ``--rounds`` times in one run so both see the same machine.
  Target p99 ≤ 3 ms with ``GROUP``.
* **rejoin**: a guest's link is cut; from the cut to the guest having reconnected and
  caught up with the host's log (the backoff's first wait included). Target < 1 s.
* **detection** (``--detections N``): a dishonest host withholds one entry from one
  guest, or sends it a different entry with that number (a fork), and then nothing for
  3 s; from that moment to the guest's alert, which only the host's heartbeat head can
  raise. Target < 2 s. (The flood of idle connections: ``python -m net.tools.bench_flood``.)

* **watchers** (``--watchers N``, only that): the latency run without watchers (A) and
  with N ``parlour join --watch`` processes (B), under each deal, in ``--rounds`` rounds
  of one run each, alternated A B, B A, ...: what a player waits for (an action's time
  until every *player* has verified it), what the watchers add (until the host has
  heard from everyone that it has: a watcher says so in its heartbeat, every second),
  and the private deal's time (``mental-deal`` logged until every player verified
  ``mental-dealt``) — pooled, and paired round by round with a bootstrap interval and
  a plain verdict against the target (``bench_stats``). Beside the clock, what the
  machine's load lengthens less: the host's CPU per run, per action and on each
  action's path (its loop's, from taking the action to every player's verification),
  and the kernel's count, over the deal, of the host's and its players' CPU, their wait
  for a CPU and other processes' time on their CPUs. Where the watchers run
  (``Placement``): on CPU nobody else here wants (``SCHED_IDLE``, the default);
  ``--watchers-compete``: as the players' equals; ``--pin``: on CPUs of their own, the
  host and its players on the others, with watchers and without (``--ballast``: those
  CPUs kept full in every run). ``--think``: each bot's pause.

Discovery time (a table visible in another lobby; target 1.5 s) needs two network
namespaces and is measured by ``python -m net.tools.bench_discovery``.

Every table here deals by the seeded deal (``mental_deal=False``), so that the figures
compare with those before the private deal became the default; the private deal's costs
are ``python -m net.tools.bench_mental_sessions``'s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net.sessions.guest_session import GuestCore
from net.wire.heartbeat import Timings
from net.sessions.host_session import HostCore
from net.tools import hosts
from net.trust.host.authority import Out
from net.trust.values import SignedEntry
from net.cli import start_up_done
from net.wire.identity import Identity
from net.trust.signing import sign_entry
from net.trust.store import FULL, GROUP, LogStore
from net.tools.bench_stats import Comparison, abba_order, direction, verdict

REPO = Path(__file__).resolve().parents[2]
#: How long each bot pauses before its move, by default (a person takes seconds).
THINK = 0.005


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


class _Timer:
    """Stamps each action entry with when the host started taking it, and records
    when it had been sent to every peer (``sent``), how many entries of the log were
    not yet on the disk then (``undurable``), when the last player acknowledged it
    (``latencies``: what a player waits for) and when the last of everyone — players and
    watchers — had (``everyone``: a watcher acknowledges in its heartbeat only, so this
    is when the host heard it, up to a heartbeat's interval after the watcher had
    verified it); and, under the private deal, each deal's time from the
    host logging "mental-deal" until every player has verified "mental-dealt" (``deals``)."""

    def __init__(self):
        self.started: dict[int, float] = {}
        self.latencies: list[float] = []
        self.everyone: list[float] = []
        self.sent: list[float] = []
        self.undurable: list[int] = []
        self.deals: list[float] = []
        self.host_cpu: list[float] = []  # per run: the host process's CPU seconds in the game
        # The kernel's count for the host and its players so far (``scheduled``), and its
        # change over each deal (``deal_sched``) and over each run's game (``game_sched``).
        self.scheduled: Callable[[], Sched] = Sched
        self.deal_sched: list[Sched] = []
        self.game_sched: list[Sched] = []
        self._deal_sched = Sched()
        self.watchers_lost = 0  # watchers gone before the table's end (none, if the host kept up)
        self._for_players: deque[int] = deque()  # stamped actions not every player holds yet
        self._deal_started: float | None = None
        self._dealt: int | None = None  # the "mental-dealt" entry no player has verified yet
        self._t0: float | None = None
        # The host's loop's CPU (its thread's) in each action's window, from taking it to
        # every player having verified it (``on_path``): what of the host's work, its
        # watchers' included, fell where a player waits — in CPU time, which other
        # processes on the machine do not lengthen as they do the wall clock's.
        self.on_path: list[float] = []
        self._cpu_started: dict[int, float] = {}
        self._c0 = 0.0

    @contextlib.contextmanager
    def taking(self) -> Iterator[None]:
        """The host takes an action (its bot's move or a peer's message) meanwhile."""
        self._t0, self._c0 = time.perf_counter(), time.thread_time()
        try:
            yield
        finally:
            self._t0 = None

    def logged(self, entries: list[SignedEntry], store: LogStore | None) -> None:
        """The entries a change logged; the trust layer's messages are sent by now."""
        for signed in entries:
            if signed.kind == "mental-deal":
                self._deal_started = time.perf_counter()
                self._deal_sched = self.scheduled()
            elif signed.kind == "mental-dealt" and self._deal_started is not None:
                self._dealt = signed.seq
            if signed.kind == "action" and self._t0 is not None:
                self.started[signed.seq] = self._t0
                self._cpu_started[signed.seq] = self._c0
                self._for_players.append(signed.seq)
                self.sent.append(time.perf_counter() - self._t0)
                assert store is not None, "a host logs its entries to its open store"
                self.undurable.append(store.written_seq - store.durable_seq)

    def acked(self, seq: int, players_acked: Callable[[int], bool],
              watchers_acked: Callable[[int], bool], by_player: bool = True) -> None:
        """Entries up to ``seq`` acknowledged by a peer (``by_player``, or a watcher):
        those every player now holds, and those everyone holds. Each looked at in the
        log's order, up to the first not yet held (an acknowledgement covers every entry
        before it); a watcher's acknowledgement asks only about the watchers (an entry
        before the first some player lacks, every player holds) — so that the bench's own
        work on the host's loop stays small however many watch and however far they lag."""
        now = time.perf_counter()
        if by_player:
            self._players_acked(seq, now, players_acked)
        while self.started:
            first = next(iter(self.started))  # (stamped in the log's order)
            if first > seq or (self._for_players and first >= self._for_players[0]) \
                    or not watchers_acked(first):
                break
            self.everyone.append(now - self.started.pop(first))

    def _players_acked(self, seq: int, now: float, players_acked: Callable[[int], bool]) -> None:
        if self._dealt is not None and self._dealt <= seq and players_acked(self._dealt):
            assert self._deal_started is not None
            self.deals.append(now - self._deal_started)
            self.deal_sched.append(self.scheduled() - self._deal_sched)
            self._deal_started = self._dealt = None
        while self._for_players and self._for_players[0] <= seq \
                and players_acked(self._for_players[0]):
            first = self._for_players.popleft()
            self.latencies.append(now - self.started[first])
            self.on_path.append(time.thread_time() - self._cpu_started.pop(first))


class TimedHost(HostCore):
    """The bench's host: every action it takes, a bot's move (``play``, which its bots
    are given) or a peer's message (``receive``), is timed by ``timer`` up to the
    entries it logs (``changed``) and their acknowledgements."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.timer = _Timer()
        self.watchers_at_end = 0  # how many watched when the table ended
        self.sched_at_end = Sched()  # the host's and its players' then
        # first: a player's acknowledgement is timed before the host goes on to anything
        # it brings about (the entries it releases to the watchers)
        self.outbox.ack_listeners.insert(0, lambda fp, seq: self._acked(seq, True))
        self.watchers.outbox.ack_listeners.append(  # (for ``everyone``)
            lambda fp, seq: self._acked(seq, False))

    def play(self, seat: int, action: dict) -> None:
        with self.timer.taking():
            super().play(seat, action)

    def receive(self, fp: str, link, msg: dict) -> None:
        with self.timer.taking():
            super().receive(fp, link, msg)

    def changed(self, out: Out) -> None:
        self.timer.logged(out.entries, self.files.store)
        super().changed(out)

    async def finish(self, reason: str = "the game is over", expected=()) -> None:
        self.watchers_at_end = len(self.watchers.here)  # (after this, they are told to go)
        self.sched_at_end = self.timer.scheduled()  # (and the players leave)
        await super().finish(reason, expected)

    def _acked(self, seq: int, by_player: bool) -> None:
        # (the players' fingerprints: looked up only when asked for)
        def players_acked(s: int) -> bool:
            return self.outbox.acks.all_acked(s, hosts.authority(self).peers().values())
        self.timer.acked(seq, players_acked,
                         lambda s: self.watchers.outbox.acks.all_acked(s, self.watchers.here),
                         by_player)


@dataclass(frozen=True)
class Placement:
    """Where the watchers' processes run, beside the host's and its players'.

    By default each watcher runs only on CPU nobody else here wants (``idle``:
    ``SCHED_IDLE``); without ``idle``, as the players' equal (``--watchers-compete``).
    ``pinned`` (``--pin``) gives them CPUs of their own instead: the host (this process)
    and its players run on ``players``, the watchers — as the players' equals — on
    ``watchers`` alone, in the runs with watchers and without alike, so that both give
    the players the same CPU and what differs is the host's own work for its watchers.
    But the machine's other processes go where the CPU is free: to the players' CPUs
    while the watchers are busy on theirs, and not while no watcher is there. ``ballast``
    (``--ballast``) keeps the watchers' CPUs full in every run, with watchers and
    without: that many processes that only spin, placed as the watchers are, from
    before the players come to the table's end — so that the machine's other processes
    are pushed to the players' CPUs alike in both."""

    idle: bool = True
    players: frozenset[int] | None = None  # the CPUs of the host and its players (None: any)
    watchers: frozenset[int] | None = None  # the watchers' (None: any)
    ballast: int = 0  # spinning processes on the watchers' CPUs, in every run

    @classmethod
    def pinned(cls, cpus: Iterable[int], ballast: int = 0) -> "Placement":
        """``cpus`` (this process's) halved: the first half the players', the rest the
        watchers'."""
        ordered = sorted(cpus)
        if len(ordered) < 2:
            raise SystemExit(f"--pin needs at least 2 CPUs; this process may use {ordered}")
        half = (len(ordered) + 1) // 2
        return cls(idle=False, players=frozenset(ordered[:half]),
                   watchers=frozenset(ordered[half:]), ballast=ballast)

    def describe(self) -> str:
        if self.watchers is not None:
            return (f"on CPUs of their own ({sorted(self.watchers)}; the host and its players "
                    f"on {sorted(self.players or ())}, with watchers and without"
                    + (f"; {self.ballast} spinning processes beside the watchers, in every "
                       "run)" if self.ballast else ")"))
        return ("on CPU nobody else here wants (SCHED_IDLE: a machine of its own)" if self.idle
                else "sharing the CPU with the players as an equal")

    @contextlib.contextmanager
    def for_players(self) -> Iterator[None]:
        """This process (the host) and the players it starts on the players' CPUs meanwhile."""
        if self.players is None:
            yield
            return
        before = os.sched_getaffinity(0)
        os.sched_setaffinity(0, self.players)
        try:
            yield
        finally:
            os.sched_setaffinity(0, before)

    def for_watcher(self) -> Callable[[], None] | None:
        """What a watcher's process does before it starts (in the child), if anything."""
        cpus, idle = self.watchers, self.idle

        def place() -> None:
            if cpus is not None:
                os.sched_setaffinity(0, cpus)
            if idle:
                _idle()
        return place if cpus is not None or idle else None


def _spinner(place: Callable[[], None] | None) -> subprocess.Popen:
    """A process that only spins (ballast: ``Placement.ballast``) until it is killed."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"], preexec_fn=place)


def _joiner(host: HostCore, state_dir: Path, *role: str,
            place: Callable[[], None] | None = None, think: float = THINK) -> subprocess.Popen:
    """A ``parlour join`` process at ``host`` (``role``: ``--bot LEVEL`` or ``--watch``;
    ``think``: its bot's pause before each move); ``place``: run in the child before it
    starts (its CPUs, its scheduling: ``Placement.for_watcher``)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen(
        [sys.executable, "-m", "net.cli", "join", "--address", f"127.0.0.1:{host.port}",
         "--fingerprint", host.identity.fingerprint, *role, "--state-dir", str(state_dir),
         "--delay", str(think)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
        preexec_fn=place)


@dataclass(frozen=True)
class Sched:
    """The kernel's count so far, for the host and its players: their CPU seconds
    (``cpu``; the host's alone: ``host``), their seconds ready to run but waiting for a
    CPU (``waited``), and the seconds the CPUs they may run on were busy with anything
    (``busy``: theirs and every other process's, in the kernel's ticks of 10 ms). Whether
    a longer deal is more work, or the same work waiting for a CPU — and for whom."""

    cpu: float = 0.0
    waited: float = 0.0
    busy: float = 0.0
    host: float = 0.0

    def __sub__(self, before: "Sched") -> "Sched":
        return Sched(self.cpu - before.cpu, self.waited - before.waited,
                     self.busy - before.busy, self.host - before.host)

    @property
    def others(self) -> float:
        """The seconds of their CPUs that other processes took."""
        return max(0.0, self.busy - self.cpu)


def _scheduled(pids: Iterable[int], cpus: Iterable[int]) -> Sched:
    """The processes' ``Sched`` so far (the first of ``pids``: the host), every thread's
    (``/proc/PID/task/TID/schedstat``; a process or thread gone counts nothing), on
    ``cpus`` (``/proc/stat``)."""
    cpu = waited = host = 0
    for i, pid in enumerate(pids):
        for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().split()
                cpu, waited = cpu + int(fields[0]), waited + int(fields[1])
                host += int(fields[0]) if i == 0 else 0
    names = {f"cpu{n}" for n in cpus}
    ticks = 0
    for line in Path("/proc/stat").read_text().splitlines():
        fields = line.split()
        if fields and fields[0] in names:  # user nice system idle iowait irq softirq steal
            ticks += sum(int(fields[i]) for i in (1, 2, 3, 6, 7, 8))
    return Sched(cpu / 1e9, waited / 1e9, ticks / os.sysconf("SC_CLK_TCK"), host / 1e9)


def _cpu() -> float:
    """This process's CPU seconds so far (the host's: its bots and the bench's timer too)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _idle() -> None:
    """This process runs only on CPU nobody else here wants (a machine of its own, as
    near as one machine can stand for another)."""
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


async def bench_latency(hands: int, tmp: Path, sync: str = GROUP, watchers: int = 0,
                        mental: bool = False, placement: Placement = Placement(),
                        think: float = THINK) -> _Timer:
    """Rook ``hands`` at a host with three ``parlour join`` players (and ``watchers``
    ``parlour join --watch`` processes, admitted before the game starts, each run where
    ``placement`` says: by default on CPU nobody else here wants), by
    the seeded deal or (``mental``) the private one, each bot pausing ``think`` seconds
    before a move: each action's time until every player has verified it, and until
    everyone has."""
    host = TimedHost(Identity.generate("Bench host"), {"game": "rook"}, state_dir=tmp / "host",
                     timings=Timings(), autoplay=True, auto_start=True, hands=hands,
                     bot_delay=think, bots={}, mental_deal=mental)
    # GROUP (the store's default) sends each entry once it is written, and fsyncs in a
    # thread off the loop; FULL (the old behaviour) fsyncs every entry before sending it.
    host.files.sync = sync
    start_up_done()  # as ``parlour host`` does, which this host stands for
    await host.start()
    procs = [_joiner(host, tmp / f"watcher{i}", "--watch", place=placement.for_watcher())
             for i in range(watchers)]
    ballast = [_spinner(placement.for_watcher()) for _ in range(placement.ballast)]
    try:
        while len(host.watchers.here) < watchers:  # every watcher in before the deal
            await asyncio.sleep(0.05)
        cpu = _cpu()
        players = [_joiner(host, tmp / f"guest{i}", "--bot", "random", think=think)
                   for i in range(3)]
        procs += players
        ours, cpus = [os.getpid(), *(p.pid for p in players)], os.sched_getaffinity(0)
        host.timer.scheduled = lambda: _scheduled(ours, cpus)
        sched = host.timer.scheduled()
        await asyncio.wait_for(host.finished.wait(), 600)
        host.timer.game_sched.append(host.sched_at_end - sched)
        host.timer.host_cpu.append(_cpu() - cpu)
        host.timer.watchers_lost += watchers - host.watchers_at_end
    finally:
        for p in ballast:
            p.kill()
            p.wait()
        await host.stop()
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
    return host.timer


async def bench_rejoin(runs: int, tmp: Path) -> list[float]:
    host = HostCore(Identity.generate("Bench host"), {"game": "somerset"},
                    state_dir=tmp / "rejoin-host", timings=Timings(), autoplay=True,
                    auto_start=True, bot_delay=0.01, bots={}, mental_deal=False)
    await host.start()
    guests = [GuestCore(Identity.generate(f"G{i}"), address="127.0.0.1", port=host.port,
                        fingerprint=host.identity.fingerprint, bot_level="random",
                        bot_delay=0.01) for i in range(3)]
    tasks = [asyncio.ensure_future(g.run()) for g in guests]
    times = []
    try:
        victim = guests[0]
        for _ in range(runs):
            mark = hosts.chain(host).seq
            # Wait until the table has moved on a little and this guest is caught up.
            while victim.link is None or victim.replica is None or hosts.chain(host).seq < mark + 3 \
                    or victim.replica.seq < hosts.chain(host).seq:
                await asyncio.sleep(0.002)
            victim.joined.clear()
            t0 = time.perf_counter()
            victim.link.close("bench: cut")
            while victim.link is None or not victim.joined.is_set():
                await asyncio.sleep(0.001)
            while victim.replica.seq < hosts.chain(host).seq or victim.link is None:
                await asyncio.sleep(0.001)
            times.append(time.perf_counter() - t0)
    finally:
        for g in guests:
            await g.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
        await host.stop()
    return times


def withhold_or_fork(how: str, victim: str, host_identity, when: list):
    """A dishonest host's ``tamper`` towards the guest with fingerprint ``victim``: its
    first action entry is withheld (``how`` = "withhold"), or replaced by a different
    entry with the same number, signed all the same ("fork"). The time goes in ``when``."""
    def tamper(fp, msg):
        entry = msg["entry"]["entry"]
        if fp != victim or entry["kind"] != "action" or when:
            return msg
        when.append(time.monotonic())
        if how == "withhold":
            return None
        forked = {**entry, "body": {**entry["body"], "fork": True}}
        return {**msg, "entry": sign_entry(host_identity, forked)}
    return tamper


async def detection_time(how: str, tmp: Path) -> tuple[str, float]:
    """(the alert's rule, seconds from the bad entry to the alert), default timings; a
    fresh state directory under ``tmp``."""
    host_id, victim = Identity.generate("Bench host"), Identity.generate("Victim")
    when: list[float] = []  # when the bad entry went out
    alerts: list[tuple[float, Mapping[str, Any]]] = []

    def on_event(event: Mapping[str, Any]) -> None:  # (an event: JSON values, as facade's)
        if event["type"] == "alert":
            alerts.append((time.monotonic(), event))
    host = HostCore(host_id, {"game": "rook"}, state_dir=tmp / "host", timings=Timings(),
                    autoplay=True, auto_start=True, hands=1, bot_delay=3.0, bots={1: "random"},
                    tamper=withhold_or_fork(how, victim.fingerprint, host_id, when), mental_deal=False)
    await host.start()
    guests = [GuestCore(who, address="127.0.0.1", port=host.port, bot_level="random",
                        fingerprint=host.identity.fingerprint, bot_delay=3.0,
                        emit=on_event)
              for who in (victim, Identity.generate("Other"))]
    tasks = [asyncio.ensure_future(g.run()) for g in guests]
    try:
        while not alerts:
            await asyncio.sleep(0.005)
    finally:
        for g in guests:
            await g.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
        await host.stop()
    at, alert = alerts[0]
    return alert["rule"], at - when[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m net.tools.bench")
    ap.add_argument("--hands", type=int, default=5, help="Rook hands for the latency run")
    ap.add_argument("--rejoins", type=int, default=20)
    ap.add_argument("--sync", default="both", choices=(FULL, GROUP, "both"),
                    help="how the host's log is written in the latency run (both: alternate)")
    ap.add_argument("--rounds", type=int, default=2,
                    help="latency runs of each --sync mode, alternated")
    ap.add_argument("--detections", type=int, default=0,
                    help="runs of the withheld-entry and fork detection measurement")
    ap.add_argument("--watchers", type=int, default=0,
                    help="compare the latency run (log group) without watchers and with this "
                         "many, alternated --rounds times, under each deal (only that)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--watchers-compete", action="store_true",
                       help="the watchers' processes share this machine's CPU with the "
                            "players' as equals (by default each runs only on CPU nobody "
                            "else here wants, standing for a machine of its own)")
    where.add_argument("--pin", action="store_true",
                       help="the host and its players on half of this process's CPUs, the "
                            "watchers (as equals among themselves) on the other half, in "
                            "the runs with watchers and without alike")
    ap.add_argument("--ballast", action="store_true",
                    help="with --pin: as many processes as watchers that only spin on the "
                         "watchers' CPUs, in every run (so that the machine's other processes "
                         "are pushed to the players' CPUs alike with watchers and without)")
    ap.add_argument("--think", type=float, default=THINK,
                    help=f"each bot's pause before its move, in seconds (default {THINK}): "
                         "the time the players take to think, when the host does what waits")
    args = ap.parse_args(argv)
    if args.watchers:
        if args.ballast and not args.pin:
            ap.error("--ballast goes with --pin")
        placement = (Placement.pinned(os.sched_getaffinity(0),
                                      args.watchers if args.ballast else 0) if args.pin
                     else Placement(idle=not args.watchers_compete))
        return compare_watchers(args.hands, args.rounds, args.watchers, placement, args.think)
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as tmp:
        modes = (FULL, GROUP) if args.sync == "both" else (args.sync,)
        lat: dict[str, dict[str, list]] = {mode: {"all": [], "sent": [], "undurable": []}
                                           for mode in modes}
        for i in range(args.rounds):
            for mode in modes:
                timer = asyncio.run(bench_latency(args.hands, Path(tmp) / f"{mode}{i}", mode))
                lat[mode]["all"] += timer.latencies
                lat[mode]["sent"] += timer.sent
                lat[mode]["undurable"] += timer.undurable
        rej = asyncio.run(bench_rejoin(args.rejoins, Path(tmp)))
        detections = {how: [asyncio.run(detection_time(how, Path(tmp) / f"{how}{i}"))
                            for i in range(args.detections)] for how in ("withhold", "fork")}
    for mode, found in lat.items():
        ms = [x * 1000 for x in found["all"]]
        print(f"action -> all 3 peers verified (4 players, loopback), log {mode}: n={len(ms)} "
              f"median {statistics.median(ms):.2f} ms, p99 {_pct(ms, 0.99):.2f} ms, "
              f"max {max(ms):.2f} ms  (target p99 <= 3 ms with {GROUP})")
        sent = [x * 1000 for x in found["sent"]]
        print(f"  of which the host (take, write, sign, send to all): median "
              f"{statistics.median(sent):.2f} ms, p99 {_pct(sent, 0.99):.2f} ms; entries not yet "
              f"on disk as an action was sent: at most {max(found['undurable'])}, p99 "
              f"{_pct(found['undurable'], 0.99)}")
    rms = [x * 1000 for x in rej]
    if rms:  # --rejoins 0 measures none
        print(f"rejoin (cut -> reconnected and caught up): n={len(rms)} "
              f"median {statistics.median(rms):.1f} ms, max {max(rms):.1f} ms  (target < 1000 ms)")
    for how, runs in detections.items():
        if runs:
            rules = sorted({rule for rule, _ in runs})
            ms = [t * 1000 for _, t in runs]
            print(f"{how} caught ({', '.join(rules)}) after: n={len(ms)} median "
                  f"{statistics.median(ms):.0f} ms, max {max(ms):.0f} ms  (target < 2000 ms)")
    print("table visible in another lobby: see python -m net.tools.bench_discovery (target 1.5 s)")
    return 0


def compare_watchers(hands: int, rounds: int, watchers: int,
                     placement: Placement = Placement(), think: float = THINK) -> int:
    """The latency run with no watchers (A) and with ``watchers`` (B), under each deal,
    in ``rounds`` rounds of one run of each, alternated A B, B A, ...: what a player waits
    for (an action's time until every player has verified it), what the watchers add
    after that (until everyone has), the private deal's time and the host's CPU — pooled
    over the rounds, and paired round by round (``bench_stats``)."""
    print(f"{watchers} watchers, each {placement.describe()}; each bot thinks "
          f"{think * 1000:g} ms before a move; {rounds} rounds of {hands} hand(s) a run")
    deals = (False, True)
    runs: dict[tuple[bool, int], list[_Timer]] = {(mental, n): [] for mental in deals
                                                  for n in (0, watchers)}
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as tmp, placement.for_players():
        for i, order in enumerate(abba_order(rounds)):
            for mental in deals:
                deal = "private" if mental else "seeded"
                for with_watchers in order:
                    n = watchers if with_watchers else 0
                    runs[mental, n].append(asyncio.run(bench_latency(
                        hands, Path(tmp) / f"{deal}-w{n}-{i}", GROUP, n, mental, placement,
                        think)))
    for mental in deals:
        _report_watchers(mental, runs[mental, 0], runs[mental, watchers], watchers,
                         pinned=placement.players is not None)
    return 0


def _report_watchers(mental: bool, without: list[_Timer], with_: list[_Timer],
                     watchers: int, pinned: bool) -> None:
    """One deal's figures: each side pooled, then paired round by round (``pinned``: the
    host and its players had CPUs of their own, which only other processes shared)."""
    deal = "private" if mental else "seeded"
    for n, timers in ((0, without), (watchers, with_)):
        print(f"{deal} deal, {n} watchers (loopback, log {GROUP}): action -> all 3 players "
              f"verified: {_figures([x for t in timers for x in t.latencies])}")
        if n:
            print(f"  ... and all {n} watchers too (as the host hears it: a watcher says how "
                  f"far it holds in its heartbeat, every second): "
                  f"{_figures([x for t in timers for x in t.everyone])}; watchers gone "
                  f"before the end: {sum(t.watchers_lost for t in timers)}")
        print(f"  the host process's CPU in the game (its players in to the end), per run: "
              f"median {statistics.median([c for t in timers for c in t.host_cpu]):.3f} s "
              f"of {len(timers)}")
        print(f"  the host and its players in the game, per run: "
              f"{_sched_figures([x for t in timers for x in t.game_sched])}")
        if mental:
            print(f"  the deal (mental-deal logged -> every player verified mental-dealt): "
                  f"{_figures([x for t in timers for x in t.deals], 'best')}")
            print(f"  the host and its players in the deal: "
                  f"{_sched_figures([x for t in timers for x in t.deal_sched])}")
    pairs = list(zip(without, with_))
    players = Comparison.of([(a.latencies, b.latencies) for a, b in pairs])
    print(f"{deal} deal, paired by round ({watchers} watchers - none): the players' median "
          f"{_paired(players, 1000, 'ms')} -> {verdict(players.interval(), 0.001)} "
          f"(target: within 1 ms)")
    on_path = Comparison.of([(_mean(a.on_path), _mean(b.on_path)) for a, b in pairs])
    print(f"  the host's CPU on an action's path (taken -> every player verified), mean per "
          f"run {_paired(on_path, 1000, 'ms')} -> {verdict(on_path.interval(), 0.001)} "
          f"(at most 1 ms more)")
    cpu = Comparison.of([(a.host_cpu, b.host_cpu) for a, b in pairs])
    print(f"  the host's CPU per run {_paired(cpu, 1000, 'ms')}")
    # (the most a player's action can wait for the host's work for its watchers, were
    # all of it on the action's path: the players do the same work with watchers or not)
    per_action = Comparison.of([(_per_action(a), _per_action(b)) for a, b in pairs])
    print(f"  the host's CPU per action {_paired(per_action, 1000, 'ms')} -> "
          f"{verdict(per_action.interval(), 0.001)} (at most 1 ms more)")
    if mental:
        dealt = Comparison.of([(a.deals, b.deals) for a, b in pairs])
        print(f"  the deal's median {_paired(dealt, 1000, 'ms')} -> "
              f"{direction(dealt.interval())} (target: unchanged)")
        for what, of in (("the host's CPU", lambda c: c.host),
                         ("the host's and its players' CPU", lambda c: c.cpu),
                         ("their wait for a CPU", lambda c: c.waited),
                         ("other processes' time on their CPUs", lambda c: c.others)):
            during = Comparison.of([([of(c) for c in a.deal_sched], [of(c) for c in b.deal_sched])
                                    for a, b in pairs])
            print(f"  {what} in the deal {_paired(during, 1000, 'ms')}")
        if not pinned:
            return
        # (on the players' CPUs, the deal's time is the host's and its players' CPU, other
        # processes' and the CPUs' idle time: less the others', what is left is this table's)
        own = Comparison.of([([d - c.others for d, c in zip(a.deals, a.deal_sched)],
                              [d - c.others for d, c in zip(b.deals, b.deal_sched)])
                             for a, b in pairs])
        print(f"  the deal's time less other processes' on the players' CPUs "
              f"{_paired(own, 1000, 'ms')} -> {direction(own.interval())}")


def _sched_figures(sched: list[Sched]) -> str:
    """The medians of a ``Sched`` over runs or deals."""
    if not sched:
        return "n=0"
    return (f"CPU median {statistics.median(c.cpu for c in sched):.3f} s, waiting for a CPU "
            f"{statistics.median(c.waited for c in sched):.3f} s; other processes on their "
            f"CPUs {statistics.median(c.others for c in sched):.3f} s (n={len(sched)})")


def _mean(values: list[float]) -> list[float]:
    """``values``' mean, as one sample (none, if there are none)."""
    return [statistics.fmean(values)] if values else []


def _per_action(timer: _Timer) -> list[float]:
    """The host's CPU in each run over the actions the players verified in it."""
    return [timer.host_cpu[0] / len(timer.latencies)] if timer.latencies else []


def _paired(comparison: Comparison, scale: float, unit: str) -> str:
    """A paired comparison in words: its estimate, 95% interval and each round's difference."""
    if not comparison.rounds:
        return "(no round measured both sides)"
    low, high = comparison.interval()
    each = ", ".join(f"{d * scale:+.2f}" for d in comparison.differences())
    return (f"{comparison.estimate() * scale:+.2f} {unit}, 95% interval {low * scale:+.2f} .. "
            f"{high * scale:+.2f} {unit} (round by round: {each})")


def _figures(seconds: list[float], low: str = "p95") -> str:
    """n, median, p95 (or the best) and p99 of ``seconds``, in ms."""
    if not seconds:
        return "n=0"
    ms = [x * 1000 for x in seconds]
    second = f"p95 {_pct(ms, 0.95):.2f}" if low == "p95" else f"best {min(ms):.2f}"
    return (f"n={len(ms)} median {statistics.median(ms):.2f} ms, {second} ms, "
            f"p99 {_pct(ms, 0.99):.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
