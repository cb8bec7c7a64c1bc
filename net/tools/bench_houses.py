"""Bench: Parlour's connection across houses, measured in the two-house test world.

    python -m net.tools.bench_houses [--rounds 200] [--no-nodelay]

Builds the world of tests/net/houses (two NAT'd houses, the mailbox and the relay in an
"internet" namespace: root and iptables needed), then, in house A, a Parlour TLS server
that answers every frame at once and makes a code; in house B, a process that joins by
that code and sends small frames (the size of a played card's move), one at a time.
Prints JSON: the code's round from typed to a Parlour connection (``code_to_connected_ms``),
and each frame's round trip through the relay (median, 90th percentile).
``--no-nodelay`` leaves Dilation's connections as the library makes them (Nagle's
algorithm on, acknowledgements delayed), to compare.
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


def world(args) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from net.tools import netns
    from tests.net.houses.world import World, unavailable_reason
    reason = unavailable_reason()
    if reason:
        print(json.dumps({"skipped": reason}))
        return 1
    with netns.houses((1, 1)) as houses, tempfile.TemporaryDirectory() as tmp:
        w = World(houses, Path(tmp))
        w.start()
        try:
            common = ["--mailbox", w.mailbox, "--relay", w.relay] + (["--no-nodelay"] if args.no_nodelay else [])
            (a,), (b,) = houses.homes
            host = a.python("-m", "net.tools.bench_houses", "--serve", *common,
                            stdout=subprocess.PIPE, text=True)
            code = json.loads(host.stdout.readline())["code"]
            guest = b.python("-m", "net.tools.bench_houses", "--code", code, "--rounds",
                             str(args.rounds), *common, stdout=subprocess.PIPE, text=True)
            out, _ = guest.communicate(timeout=120)
            host.kill()
            result = json.loads(out.strip().splitlines()[-1])
            result["nodelay"] = not args.no_nodelay
            print(json.dumps(result))
        finally:
            w.stop()
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m net.tools.bench_houses")
    p.add_argument("--rounds", type=int, default=200)
    p.add_argument("--no-nodelay", action="store_true", help="leave Nagle's algorithm on")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--serve-for", type=float, default=120, help=argparse.SUPPRESS)
    p.add_argument("--code", help=argparse.SUPPRESS)
    p.add_argument("--mailbox", help=argparse.SUPPRESS)
    p.add_argument("--relay", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.no_nodelay and (args.serve or args.code):
        from net.houses import links
        protocol = links._dilation_connection.DilatedConnectionProtocol
        protocol.connectionMade = protocol._parlour_made
        protocol.dataReceived = protocol._parlour_received
    if args.serve:
        asyncio.run(serve(args))
        return 0
    if args.code:
        asyncio.run(ping(args))
        return 0
    return world(args)


if __name__ == "__main__":
    sys.exit(main())
