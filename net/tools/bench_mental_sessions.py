"""The mental-poker deal through the real sessions.  ``python -m net.tools.bench_mental_sessions``

A ``HostCore`` with ``mental_deal`` and three ``GuestCore``s — four human players (each
seat played by a bot with no pause) — on loopback, each guest on its own TLS
connection, all in one process and one event loop (so the four parties' cryptography
runs one after another on one core: an upper bound for four machines). Each table plays
``--hands`` hands. Printed:

1. The deal: from the host logging ``mental-deal`` until it logs ``mental-dealt`` (every
   key share, shuffle and decryption share with their proofs and signatures, every entry
   signed, persisted, sent and checked by every replica) — median and best.
2. A played card: the time between two cards logged at the host while the tricks are
   played (the player's replica signs and, under the mental deal, proves its card; the
   host checks, logs and sends; every replica checks), median, under the mental deal and
   on today's seeded deal at the same table, and at a game against the computer (one
   human, no network: the seeded deal); the mental deal's extra cost per card is the
   difference of the first two medians.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from net.sessions.guest_session import GuestCore
from net.sessions.host_session import HostCore
from net.wire.heartbeat import Timings
from net.wire.identity import Identity

TIMINGS = Timings.quick()


class Clocked:
    """The host's entries by kind, with the time each was logged."""

    def __init__(self, host: HostCore):
        self.marks: list[tuple[str, bool, float]] = []  # (kind, is a play, time)
        auth = host.authority
        append = auth._append

        def timed(out, kind, body, *args, **kwargs):
            append(out, kind, body, *args, **kwargs)
            play = kind == "action" and "play" in body["signed"]["body"]["action"]
            self.marks.append((kind, play, time.perf_counter()))
        auth._append = timed

    def deals(self) -> list[float]:
        out, start = [], None
        for kind, _, at in self.marks:
            if kind == "mental-deal":
                start = at
            elif kind == "mental-dealt" and start is not None:
                out.append(at - start)
                start = None
        return out

    def card_gaps(self) -> list[float]:
        """Between two consecutive cards of a trick-play phase (no other move between)."""
        gaps, last = [], None
        for kind, play, at in self.marks:
            if play:
                if last is not None:
                    gaps.append(at - last)
                last = at
            elif kind == "action" or kind in ("hand_end", "mental-deal", "commit"):
                last = None
        return gaps


async def table(game: str, hands: int, mental: bool, guests: int = 3) -> Clocked:
    with tempfile.TemporaryDirectory() as tmp:
        host = HostCore(Identity.generate("Host"), {"game": game}, state_dir=Path(tmp) / "host",
                        timings=TIMINGS, autoplay=True, auto_start=True, hands=hands,
                        mental_deal=mental, listen=guests > 0,
                        bots={s: "random" for s in range(1, 4)} if not guests else None)
        await host.start()
        clock = Clocked(host)
        cores = [GuestCore(Identity.generate(f"Guest{i}"), address="127.0.0.1", port=host.port,
                           fingerprint=host.identity.fingerprint, timings=TIMINGS,
                           bot_level="random", stop_on_alert=True) for i in range(guests)]
        tasks = [asyncio.ensure_future(core.run()) for core in cores]
        try:
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


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:7.2f} ms, best {min(values) * 1000:7.2f} ms " \
           f"({len(values)} samples)"


async def run(game: str, hands: int) -> None:
    mental = await table(game, hands, True)
    seeded = await table(game, hands, False)
    local = await table(game, hands, False, guests=0)
    print(f"{game}: 4 humans, {hands} hand(s)")
    print(f"  mental deal (mental-deal -> mental-dealt): {ms(mental.deals())}")
    card_m, card_s, card_l = mental.card_gaps(), seeded.card_gaps(), local.card_gaps()
    print(f"  a card, mental deal:      {ms(card_m)}")
    print(f"  a card, seeded deal:      {ms(card_s)}")
    print(f"  a card, one human, local: {ms(card_l)}")
    extra = statistics.median(card_m) - statistics.median(card_s)
    print(f"  the mental deal's extra cost per card: {extra * 1000:.2f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m net.tools.bench_mental_sessions",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5, help="hands per table (default 5)")
    parser.add_argument("--game", action="append", help="rook, somerset, horseshoes (default: all)")
    args = parser.parse_args(argv)
    for game in args.game or ["rook", "somerset", "horseshoes"]:
        asyncio.run(run(game, args.hands))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
