"""Bench: Parlour's connection across houses, measured in the two-house test world.

    python -m net.tools.bench_houses [--rounds 200] [--no-nodelay] [--hands 3] [--no-table]

Builds the world of the tests across houses (``net.tools.houses_world``: two NAT'd
houses, the mailbox and the relay in an "internet" namespace: root and iptables
needed), then measures, printing one JSON line for each:

1. **The link** (``"part": "link"``): in house A, a Parlour TLS server that answers every
   frame at once and makes a code; in house B, a process that joins by that code and
   sends small frames (the size of a played card's move), one at a time: the code's
   round from typed to a Parlour connection (``code_to_connected_ms``), and each frame's
   round trip through the relay (median, 90th percentile). ``--no-nodelay`` leaves
   Dilation's connections as the library makes them (Nagle's algorithm on,
   acknowledgements delayed), to compare.
2. **A table** (``"part": "table"``): a Rook table of four human clients under the
   private deal, two in each house — the host and a player at home (over the LAN) in
   house A, two players in house B who join by the host's codes — each in its own
   process, seats played by bots with no pause, ``--hands`` hands. Per far player: a
   code typed → seated at the table (``code_to_seated_ms``: from the code handed to the
   guest's core, the wormhole's import included, to its "joined"), and a played card's
   round trip across houses (its move signed and sent → the host's entry holding it
   back and checked). At the host: each deal with four human clients
   (``mental-deal`` → ``mental-dealt`` logged), and the time between two cards logged.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from net.sessions.facade import Event

#: The seats of the table of four (part 2) taken by code, in house B.
FAR_SEATS = (2, 3)


async def serve(args) -> None:
    from net.houses import configure, service
    from net.wire.framing import SCHEMAS
    from net.wire.identity import Identity
    from net.wire.transport import start_server
    configure(args.mailbox, args.relay)
    schemas = SCHEMAS.copy()
    schemas.message("ping", n=int, pad=bytes)
    identity = Identity.generate("Bench host")

    async def echo(conn):
        async for msg in conn:
            await conn.send(msg)
    server = await start_server("house", 0, identity, echo, schemas=schemas)
    code = await service.invite(identity, "bench-table", 1, {
        "key": identity.public_key.hex(), "table": "bench-table", "port": server.port},
        None, lambda event: None)
    print(json.dumps({"code": code}), flush=True)
    await asyncio.sleep(args.serve_for)


async def ping(args) -> None:
    from net.houses import configure, service
    from net.wire.framing import SCHEMAS
    from net.wire.identity import Identity
    from net.wire.transport import open_connection
    configure(args.mailbox, args.relay)
    schemas = SCHEMAS.copy()
    schemas.message("ping", n=int, pad=bytes)
    identity = Identity.generate("Bench guest")
    started = time.perf_counter()
    found = await service.use_code(identity, args.code)
    from net.wire.identity import fingerprint
    conn = await open_connection(found["address"], found["port"], identity,
                                 fingerprint(found["key"]), schemas=schemas, timeout=30)
    connected = time.perf_counter() - started
    rounds = []
    for n in range(args.rounds):
        t = time.perf_counter()
        await conn.send({"type": "ping", "n": n, "pad": bytes(180)})
        await conn.recv()
        rounds.append(time.perf_counter() - t)
    await conn.close()
    rounds.sort()
    print(json.dumps({"code_to_connected_ms": round(connected * 1000, 1),
                      "round_trip_median_ms": round(statistics.median(rounds) * 1000, 2),
                      "round_trip_p90_ms": round(rounds[int(len(rounds) * 0.9)] * 1000, 2),
                      "rounds": len(rounds)}), flush=True)


async def host_table(args) -> None:
    """House A's host: four human seats, two of them by code; its clock's figures."""
    from net.houses import configure
    from net.sessions.host_session import HostCore
    from net.tools.bench_mental_sessions import TIMINGS, Clocked, ClockedAuthority
    from net.wire.identity import Identity
    configure(args.mailbox, args.relay)
    with tempfile.TemporaryDirectory() as tmp:
        codes: dict[int, str] = {}

        def out(event: Event) -> None:
            if event.get("type") == "invite" and event["state"] == "waiting":
                codes[event["seat"]] = event["code"]
                if len(codes) == 2:
                    print(json.dumps({"codes": codes, "port": host.port}), flush=True)
        host = HostCore(Identity.generate("Bench host"), {"game": "rook", "name": "Bench"},
                        state_dir=Path(tmp), emit=out, bind="0.0.0.0", timings=TIMINGS, you=0,
                        autoplay=True, auto_start=True, hands=args.hands, mental_deal=True)
        host.files.authority = ClockedAuthority  # (what Clocked reads each entry from)
        await host.start()
        clock = Clocked(host)
        for seat in FAR_SEATS:
            host.houses.invite(seat)
        try:
            await asyncio.wait_for(host.finished.wait(), 120 * args.hands)
        finally:
            await host.stop()
        deals, gaps = clock.deals(), clock.card_gaps()
        print(json.dumps({"deals_ms": [round(d * 1000) for d in deals],
                          "card_gap_median_ms": round(statistics.median(gaps) * 1000, 1)}), flush=True)


async def far_player(args) -> None:
    """House B: a player who joins by a code; code → seated, and its cards' round trips."""
    from net.houses import configure
    from net.sessions.guest_session import GuestCore
    from net.tools.bench_mental_sessions import TIMINGS
    from net.wire.identity import Identity
    configure(args.mailbox, args.relay)
    marks: dict[str, float] = {}

    def out(event: Event) -> None:
        if event.get("type") == "connection" and event.get("state") == "connected":
            marks.setdefault("seated", time.perf_counter())
    core = GuestCore(Identity.generate("Far player"), emit=out, timings=TIMINGS,
                     bot_level="random", code=args.code)
    rounds, sent = [], {}
    player, send, settle = core.player, core.player.send, core.player.settle

    def timed_send(data: dict) -> None:
        send(data)
        if "play" in data:
            sent["at"] = time.perf_counter()

    def timed_settle(accepted: list) -> None:
        was = player.in_flight
        settle(accepted)
        if was is not None and player.in_flight is None and "at" in sent:
            rounds.append(time.perf_counter() - sent.pop("at"))
    # The player's own send and settle, timed in place: GuestCore makes its GuestPlayer
    # itself and offers no way to give it another (a subclass) to time them.
    player.send, player.settle = timed_send, timed_settle  # type: ignore[method-assign]
    started = time.perf_counter()
    summary = await core.run()
    if summary["alerts"]:
        raise SystemExit(f"an alert stopped the bench: {summary['alerts'][0]}")
    rounds.sort()
    print(json.dumps({"code_to_seated_ms": round((marks["seated"] - started) * 1000),
                      "card_round_trip_median_ms": round(statistics.median(rounds) * 1000, 1),
                      "card_round_trip_p90_ms": round(rounds[int(len(rounds) * 0.9)] * 1000, 1),
                      "cards": len(rounds)}), flush=True)


def _first_line(proc: subprocess.Popen) -> dict:
    """The first JSON line a child process started with ``stdout=PIPE`` printed."""
    if proc.stdout is None:
        raise ValueError("the child's stdout is not piped")
    return json.loads(proc.stdout.readline())


def table(args, houses, common: list[str]) -> dict:
    """Four human clients, two in each house: the figures of part 2."""
    (a_host, a_home), far = houses.homes
    host = a_host.python("-m", "net.tools.bench_houses", "--host-table", "--hands", str(args.hands),
                         *common, stdout=subprocess.PIPE, text=True)
    procs = [host]
    try:
        first = _first_line(host)
        codes = {int(seat): code for seat, code in first["codes"].items()}
        with tempfile.TemporaryDirectory() as tmp:
            procs.append(a_home.python("-m", "net.cli", "join", "--address",
                                       f"{a_host.address}:{first['port']}", "--bot", "random",
                                       "--quick", "--state-dir", tmp, stdout=subprocess.DEVNULL))
            players = [ns.python("-m", "net.tools.bench_houses", "--code", codes[seat], "--far-player",
                                 *common, stdout=subprocess.PIPE, text=True)
                       for ns, seat in zip(far, FAR_SEATS)]
            procs += players
            outs = [json.loads(p.communicate(timeout=120 * args.hands)[0].strip().splitlines()[-1])
                    for p in players]
            at_host = json.loads(host.communicate(timeout=60)[0].strip().splitlines()[-1])
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    return {"part": "table", "hands": args.hands, "far_players": outs, **at_host}


def world(args) -> int:
    from net.tools import netns
    from net.tools.houses_world import World, unavailable_reason
    reason = unavailable_reason()
    if reason:
        print(json.dumps({"skipped": reason}))
        return 1
    with netns.houses((2, 2)) as houses, tempfile.TemporaryDirectory() as tmp:
        w = World(houses, Path(tmp))
        w.start()
        try:
            common = ["--mailbox", w.mailbox, "--relay", w.relay] + (["--no-nodelay"] if args.no_nodelay else [])
            (a, _), (b, _) = houses.homes
            host = a.python("-m", "net.tools.bench_houses", "--serve", *common,
                            stdout=subprocess.PIPE, text=True)
            code = _first_line(host)["code"]
            guest = b.python("-m", "net.tools.bench_houses", "--code", code, "--rounds",
                             str(args.rounds), *common, stdout=subprocess.PIPE, text=True)
            out, _ = guest.communicate(timeout=120)
            host.kill()
            result = json.loads(out.strip().splitlines()[-1])
            result["nodelay"] = not args.no_nodelay
            print(json.dumps({"part": "link", **result}), flush=True)
            if args.table:
                print(json.dumps(table(args, houses, common)), flush=True)
        finally:
            w.stop()
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m net.tools.bench_houses")
    p.add_argument("--rounds", type=int, default=200)
    p.add_argument("--no-nodelay", action="store_true", help="leave Nagle's algorithm on")
    p.add_argument("--hands", type=int, default=3, help="hands of the table of four (part 2)")
    p.add_argument("--table", action=argparse.BooleanOptionalAction, default=True,
                   help="measure a table of four across houses too (part 2)")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--host-table", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--far-player", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--serve-for", type=float, default=120, help=argparse.SUPPRESS)
    p.add_argument("--code", help=argparse.SUPPRESS)
    p.add_argument("--mailbox", help=argparse.SUPPRESS)
    p.add_argument("--relay", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.no_nodelay and (args.serve or args.code):
        from net.houses import links
        links.quick_connections(False)
    if args.serve:
        asyncio.run(serve(args))
        return 0
    if args.host_table:
        asyncio.run(host_table(args))
        return 0
    if args.far_player:
        asyncio.run(far_player(args))
        return 0
    if args.code:
        asyncio.run(ping(args))
        return 0
    return world(args)


if __name__ == "__main__":
    sys.exit(main())
