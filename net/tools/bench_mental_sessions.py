"""The mental-poker deal through the real sessions.  ``python -m net.tools.bench_mental_sessions``

A ``HostCore`` with ``mental_deal`` and three ``GuestCore``s — four human players (each
seat played by a bot with no pause) — on loopback, each guest on its own TLS
connection, all in one process and one event loop (so the four parties' cryptography
runs one after another on one core: an upper bound for four machines). Each table plays
``--hands`` hands (``--processes``: each guest in its own process instead, as on four
machines, though this one has two cores). Printed:

1. The deal: from the host logging ``mental-deal`` until it logs ``mental-dealt`` (every
   key share, shuffle and decryption share with their proofs and signatures, every entry
   signed, persisted, sent and checked by every replica) — median and best.
2. A played card: the time between two cards logged at the host while the tricks are
   played (the player's replica signs and, under the mental deal, proves its card; the
   host checks, logs and sends; every replica checks), median, under the mental deal and
   on today's seeded deal at the same table, and at a game against the computer (one
   human, no network: the seeded deal); the mental deal's extra cost per card is the
   difference of the first two medians.
3. The CPU time this process spent between two such cards, median, under each deal: in
   one process every party's work (a figure that a loaded machine skews far less than
   the time between cards); with ``--processes`` the host's alone.
4. In one process, where that CPU time goes while the tricks are played, per card
   played, under each deal: the host taking a peer's move (checked, logged, sent), the
   guests reading each entry, and the players' bots deciding (a card's proof made and
   its move signed there).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from engine import TITLES
from net.sessions.bots import BotDriver
from net.sessions.guest_session import GuestCore
from net.sessions.host_session import HostCore
from net.tools import hosts
from net.trust.deals.mental.chain import PROVEN
from net.trust.entries import ActionEntryBody
from net.trust.host.authority import HostAuthority
from net.trust.values import SignedEntry
from net.wire.heartbeat import Timings
from net.wire.identity import Identity

TIMINGS = Timings.quick()


# Where the CPU goes while the tricks are played (one process): part -> what is timed
PARTS = {"host, a peer's move": (HostCore, "receive"), "guests, each entry": (GuestCore, "receive"),
         "bots, deciding": (BotDriver, "_decide")}


class ClockedAuthority(HostAuthority):
    """The host's table as the bench's host makes it (its files' ``authority`` class):
    it hands each entry to ``on_entry`` once the entry is signed, persisted and applied."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.on_entry: Callable[[SignedEntry], None] = lambda signed: None

    def _apply(self, signed: SignedEntry, private: dict | None, applied: list | None = None) -> list:
        events = super()._apply(signed, private, applied)
        self.on_entry(signed)
        return events


class Clocked:
    """The host's entries by kind, with the time each was logged; and, once ``parts``
    is entered, the CPU time each of ``PARTS`` spends while cards are being played.
    The host's files make its table a ``ClockedAuthority``."""

    def __init__(self, host: HostCore):
        self.marks: list[tuple[str, bool, float, float]] = []  # (kind, is a play, time, CPU)
        self.playing = False  # from a card logged until another kind of entry
        self.spent: dict[str, float] = defaultdict(float)
        table = hosts.authority(host)
        if not isinstance(table, ClockedAuthority):
            raise TypeError("the host's files must make its table a ClockedAuthority")
        table.on_entry = self.logged

    def logged(self, signed: SignedEntry) -> None:
        """Each entry, once signed, persisted and applied."""
        logged = signed.content
        play = isinstance(logged, ActionEntryBody) and "play" in logged.move.action
        self.marks.append((signed.kind, play, time.perf_counter(), time.process_time()))
        self.playing = play or (self.playing and signed.kind == "action")

    @contextlib.contextmanager
    def parts(self):
        originals = {part: getattr(cls, name) for part, (cls, name) in PARTS.items()}

        def timed(part, method):
            def call(*args, **kwargs):
                if not self.playing:
                    return method(*args, **kwargs)
                start = time.process_time()
                try:
                    return method(*args, **kwargs)
                finally:
                    self.spent[part] += time.process_time() - start
            return call
        for part, (cls, name) in PARTS.items():
            setattr(cls, name, timed(part, originals[part]))
        try:
            yield
        finally:
            for part, (cls, name) in PARTS.items():
                setattr(cls, name, originals[part])

    def per_card(self, part: str) -> float:
        return self.spent[part] / max(1, sum(1 for _, play, _, _ in self.marks if play))

    def deals(self) -> list[float]:
        out, start = [], None
        for kind, _, at, _ in self.marks:
            if kind == "mental-deal":
                start = at
            elif kind == "mental-dealt" and start is not None:
                out.append(at - start)
                start = None
        return out

    def card_gaps(self, cpu: bool = False) -> list[float]:
        """Between two consecutive cards of a trick-play phase (no other move between):
        the time, or (``cpu``) this process's CPU time."""
        gaps, last = [], None
        for kind, play, wall, used in self.marks:
            at = used if cpu else wall
            if play:
                if last is not None:
                    gaps.append(at - last)
                last = at
            elif kind == "action" or kind in ("hand_end", "mental-deal", "commit"):
                last = None
        return gaps


def guest_process(port: int, fingerprint: str, name: str) -> None:
    """One guest in its own process (``--processes``)."""
    async def run():
        core = GuestCore(Identity.generate(name), address="127.0.0.1", port=port,
                         fingerprint=fingerprint, timings=TIMINGS, bot_level="random")
        summary = await core.run()
        if summary["alerts"]:
            raise SystemExit(f"an alert stopped the bench: {summary['alerts'][0]}")
    asyncio.run(run())


async def table(game: str, hands: int, mental: bool, guests: int = 3,
                processes: bool = False) -> Clocked:
    with tempfile.TemporaryDirectory() as tmp:
        host = HostCore(Identity.generate("Host"), {"game": game}, state_dir=Path(tmp) / "host",
                        timings=TIMINGS, autoplay=True, auto_start=True, hands=hands,
                        mental_deal=mental, listen=guests > 0,
                        bots={s: "random" for s in range(1, 4)} if not guests else None)
        host.files.authority = ClockedAuthority
        await host.start()
        clock = Clocked(host)
        if processes and guests:
            return await in_processes(host, clock, guests, hands)
        cores = [GuestCore(Identity.generate(f"Guest{i}"), address="127.0.0.1", port=host.port,
                           fingerprint=host.identity.fingerprint, timings=TIMINGS,
                           bot_level="random") for i in range(guests)]
        tasks = [asyncio.ensure_future(core.run()) for core in cores]
        try:
            with clock.parts():
                await asyncio.wait_for(host.finished.wait(), 60 * hands)
            summaries = await asyncio.wait_for(asyncio.gather(*tasks), 30)
        finally:
            for core in cores:
                await core.stop()
            await host.stop()
        alerts = [a for s in summaries for a in s["alerts"]]
        if alerts:
            raise SystemExit(f"an alert stopped the bench: {alerts[0]}")
        return clock


async def in_processes(host: HostCore, clock: Clocked, guests: int, hands: int) -> Clocked:
    context = multiprocessing.get_context("spawn")
    procs = [context.Process(target=guest_process, args=(host.port, host.identity.fingerprint,
                                                        f"Guest{i}")) for i in range(guests)]
    for proc in procs:
        proc.start()
    try:
        await asyncio.wait_for(host.finished.wait(), 60 * hands)
    finally:
        await host.stop()
        for proc in procs:
            proc.join(10)
    if any(proc.exitcode for proc in procs):
        raise SystemExit("a guest process failed")
    return clock


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:7.2f} ms, best {min(values) * 1000:7.2f} ms " \
           f"({len(values)} samples)"


async def run(game: str, hands: int, processes: bool) -> None:
    mental = await table(game, hands, True, processes=processes)
    seeded = await table(game, hands, False, processes=processes)
    local = await table(game, hands, False, guests=0)
    where = "each guest in its own process" if processes else "one process"
    print(f"{game}: 4 humans, {hands} hand(s), {where}")
    print(f"  mental deal (mental-deal -> mental-dealt): {ms(mental.deals())}")
    card_m, card_s, card_l = mental.card_gaps(), seeded.card_gaps(), local.card_gaps()
    print(f"  a card, mental deal:      {ms(card_m)}")
    print(f"  a card, seeded deal:      {ms(card_s)}")
    print(f"  a card, one human, local: {ms(card_l)}")
    extra = statistics.median(card_m) - statistics.median(card_s)
    print(f"  the mental deal's extra cost per card: {extra * 1000:.2f} ms")
    cpu_m, cpu_s = mental.card_gaps(cpu=True), seeded.card_gaps(cpu=True)
    whose = "the host's process" if processes else "all parties"
    print(f"  CPU per card ({whose}): mental {statistics.median(cpu_m) * 1000:.2f} ms, "
          f"seeded {statistics.median(cpu_s) * 1000:.2f} ms, "
          f"extra {(statistics.median(cpu_m) - statistics.median(cpu_s)) * 1000:.2f} ms")
    if not processes:
        print("  CPU per card by part (mean over the tricks), mental / seeded / extra:")
        for part in PARTS:
            m_ms, s_ms = mental.per_card(part) * 1000, seeded.per_card(part) * 1000
            print(f"    {part + ':':22} {m_ms:5.2f} / {s_ms:5.2f} / {m_ms - s_ms:5.2f} ms")


def main(argv: list[str] | None = None) -> int:
    PROVEN.forget()  # every party checks every shuffle's proof, as on its own machine
    parser = argparse.ArgumentParser(prog="python -m net.tools.bench_mental_sessions",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5, help="hands per table (default 5)")
    parser.add_argument("--game", action="append", choices=TITLES, help="a title (default: all)")
    parser.add_argument("--processes", action="store_true",
                        help="each guest in its own process (default: all in this one)")
    args = parser.parse_args(argv)
    for game in args.game or TITLES:
        asyncio.run(run(game, args.hands, args.processes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
