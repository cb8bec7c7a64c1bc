"""The mental-poker deal over real sockets.  ``python -m net.tools.bench_mental_loopback``

A host and three guests — four human players — on loopback, each guest on its own
authenticated TLS connection (``net.wire.transport``), in one process and one event loop
(so every party's cryptography runs one after another on one core: what four machines
would do in parallel is summed here, which makes these figures an upper bound). The host
runs the deal's sequencer (``net.trust.deals.mental.sequencer``) and its own party; every party
reads the log through a ``DealClient`` (every message signed by its party and checked by
every reader). Printed:

1. A four-human deal for each title's default game: from the host starting it until the
   last party has decrypted its hand (every key share, shuffle, decryption share and
   their proofs, every signature, every round trip; each guest then says "done", one
   more one-way trip). Median and best over ``--runs``.
2. A played card's extra cost: the round of a card played by a guest (its message to the
   host, logged, relayed to the three others, each says "seen") with the deal's play
   (share and proof made, checked by everyone) and without it (the same round with a
   message signed by the player and checked by the host and each reader, as today's
   moves are); medians over ``--plays`` cards, and their difference. Then the play's CPU
   at each step, and its sum along the critical path.
3. What each party spends, in CPU, on its deal: proving its shuffle (the part made with
   its re-encryption pads while it waits for its turn, and the rest on its turn),
   checking the other parties' shuffles, and the whole deal (every step, signatures and
   TLS included); the host's and the guests' medians for each title, and their sum over
   the four parties (all of it CPU this machine's cores give the deal when every party
   runs here).
4. The messages' sizes on the wire (msgpack frames, signature envelopes included).

Not the whole session: the moves' own log entries, the engine and the UI are not in these
rounds (they are today's, measured by ``net.tools.bench``); these are what the deal adds.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import time

import msgpack

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.bench import headline_variants
from engine.registry import make_game
from net.trust.deals.mental import flows, shuffle_proof
from net.trust.deals.mental.chain import PROVEN, ShuffleChain
from net.trust.deals.mental.client import DealClient
from net.trust.deals.mental.keys import DealContext
from net.trust.deals.mental.machine import Dealt, Played
from net.trust.deals.mental.sequencer import DealSequencer, parties_for
from net.trust.deals.mental.setup import DealSetup
from net.trust.signing import ACTION_DOMAIN, opens, seal
from net.wire.framing import SCHEMAS
from net.wire.identity import Identity, fingerprint
from net.wire.transport import Connection, open_connection, start_server

DEADLINE = 10.0
# The bench's own messages, on top of the protocol's (a tool may extend a copy)
WIRE = SCHEMAS.copy()
WIRE.message("mental", signed=dict)  # guest -> host: one signed deal message
WIRE.message("mental-log", index=int, party=(int, None), record=dict)  # host -> guests
WIRE.message("bench-deal", hand=int, game=str)  # host -> guests: a new deal begins
WIRE.message("bench-done", hand=int)  # guest -> host: I hold my hand
WIRE.message("bench-play", n=int, mental=bool)  # host -> a guest: play a card now
# guest -> host -> others: a card without the deal, signed as today's moves are (the baseline)
WIRE.message("bench-plain", n=int, key=bytes, signed=dict)
WIRE.message("bench-seen", n=int)  # guest -> host: I saw (and checked) it
WIRE.message("bench-report")  # host -> guests: send your CPU figures
WIRE.message("bench-costs", play=list, check=list, deals=list)  # guest -> host: µs, each card; each deal's


PROOF_STEPS = ("prepare", "prove", "check")


class ProofClock:
    """This process's CPU on the shuffles' proofs, deal by deal — ``shuffle_proof.prepare``
    and ``prove`` (its own shuffle's), ``ShuffleChain.check`` (the others') — and over the
    whole deal. ``deals``: ``[hand, prepare, prove, check, whole deal]`` in µs each deal."""

    def __init__(self):
        self.spent = dict.fromkeys(PROOF_STEPS, 0.0)
        self.deals: list[list[int]] = []
        self._began = 0.0
        for owner, name, step in ((shuffle_proof, "prepare", "prepare"), (shuffle_proof, "prove", "prove"),
                                  (ShuffleChain, "check", "check")):
            setattr(owner, name, self._timed(getattr(owner, name), step))

    def _timed(self, real, step: str):
        def timed(*args):
            began = time.process_time()
            try:
                return real(*args)
            finally:
                self.spent[step] += time.process_time() - began
        return timed

    def begin(self) -> None:
        self.spent = dict.fromkeys(PROOF_STEPS, 0.0)
        self._began = time.process_time()

    def end(self, hand: int) -> None:
        whole = time.process_time() - self._began
        self.deals.append([hand, *(round(self.spent[s] * 1e6) for s in PROOF_STEPS), round(whole * 1e6)])


def setup_for(game, host_key: bytes, guest_keys: list[bytes], hand: int) -> DealSetup:
    seats = {0: host_key} | {i + 1: key for i, key in enumerate(guest_keys)}
    return DealSetup.for_game(game, DealContext("bench-loopback", hand), parties_for(host_key, seats),
                              dealer=0, needs_redeal=flows.redeal_rule(game))


def the_games() -> dict:
    return {game.id: game for game in (make_game(t, r, m) for _, t, r, m in headline_variants())}


class Host:
    def __init__(self, identity: Identity, guests: list[bytes], games: dict, clock: ProofClock):
        self.identity, self.games, self.clock = identity, games, clock
        self.guests = guests  # their identity keys
        self.conns: dict[bytes, Connection] = {}
        self.sequencer: DealSequencer | None = None  # the current deal's, from ``deal``
        self.client: DealClient | None = None
        self.waiting: dict[str, asyncio.Future] = {}
        self.needs: dict[str, int] = {}  # how many of a kind ``waiting``'s future waits for
        self.counts: dict[str, int] = {}
        self.reports: list[dict] = []  # the guests' "bench-costs"
        self.sizes: dict[str, list[int]] = {}
        self.connected = asyncio.Event()
        self.costs: dict[str, list[float]] = {"log": [], "check": []}  # a played card's CPU

    async def serve(self, conn) -> None:
        self.conns[conn.peer_key] = conn
        if len(self.conns) == len(self.guests):
            self.connected.set()
        async for msg in conn:
            kind = msg["type"]
            if kind == "mental":
                await self.submit(conn.peer_key, [msg["signed"]])
            elif kind == "bench-plain":
                assert opens(conn.peer_key, ACTION_DOMAIN, msg["signed"])  # as the authority does
                await self.broadcast(dict(msg, key=conn.peer_key), besides=conn.peer_key)
            else:
                if kind == "bench-costs":
                    self.reports.append(msg)
                self.tick(kind)

    def tick(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        future = self.waiting.get(kind)
        if future is not None and self.counts[kind] >= self.needs[kind] and not future.done():
            future.set_result(time.perf_counter())

    def expect(self, kind: str, need: int) -> asyncio.Future:
        self.counts[kind] = 0
        future = asyncio.get_running_loop().create_future()
        self.needs[kind] = need
        self.waiting[kind] = future
        return future

    def dealing(self) -> tuple[DealSequencer, DealClient]:
        """The current deal's sequencer and the host's client (a guest's deal message
        comes only after ``deal`` began one)."""
        if self.sequencer is None or self.client is None:
            raise RuntimeError("a deal message came before any deal began")
        return self.sequencer, self.client

    async def submit(self, key: bytes, envelopes: list[dict]) -> None:
        sequencer, client = self.dealing()
        for envelope in envelopes:
            started = time.perf_counter()
            index = sequencer.submit(key, envelope, time.monotonic())
            if index is None:
                continue
            party, record = sequencer.log[index]
            logged = time.perf_counter()
            self.measure(record)
            await self.broadcast({"type": "mental-log", "index": index, "party": party, "record": record})
            relayed = time.perf_counter()
            sends = client.logged(party, record)
            if record["body"]["type"] == "mental-play":
                self.costs["log"].append(logged - started)
                self.costs["check"].append(time.perf_counter() - relayed)
            await self.submit(self.identity.public_key, sends)

    def measure(self, envelope: dict) -> None:
        kind = envelope["body"]["type"]
        size = len(msgpack.packb({"type": "mental-log", "index": 0, "party": 0, "record": envelope}))
        self.sizes.setdefault(kind, []).append(size)

    async def broadcast(self, msg: dict, besides: bytes | None = None) -> None:
        await asyncio.gather(*(c.send(msg) for k, c in self.conns.items() if k != besides))

    async def deal(self, game_id: str, hand: int) -> float:
        game = self.games[game_id]
        setup = setup_for(game, self.identity.public_key, self.guests, hand)
        self.sequencer = DealSequencer(setup, DEADLINE, time.monotonic())
        self.client = client = DealClient(self.identity, setup)
        done = self.expect("bench-done", len(self.guests))
        self.clock.begin()
        start = time.perf_counter()
        await self.broadcast({"type": "bench-deal", "hand": hand, "game": game_id})
        await self.submit(self.identity.public_key, client.start())
        elapsed = (await done) - start
        self.clock.end(hand)
        # the host reads each message as it relays it: it has its hand by now
        assert any(isinstance(x, Dealt) for x in client.learned)
        return elapsed

    async def play_round(self, guest: bytes, n: int, mental: bool) -> float:
        seen = self.expect("bench-seen", len(self.guests) - 1)
        start = time.perf_counter()
        await self.conns[guest].send({"type": "bench-play", "n": n, "mental": mental})
        return (await seen) - start

    async def guest_costs(self) -> dict[str, list]:
        self.reports.clear()
        reported = self.expect("bench-costs", len(self.guests))
        await self.broadcast({"type": "bench-report"})
        await reported
        costs: dict[str, list] = {kind: [us / 1e6 for report in self.reports for us in report[kind]]
                                  for kind in ("play", "check")}
        costs["deals"] = [deal for report in self.reports for deal in report["deals"]]
        return costs


class Guest:
    def __init__(self, identity: Identity, host_key: bytes, guest_keys: list[bytes],
                 clock: ProofClock | None):
        self.identity, self.host_key, self.guest_keys = identity, host_key, guest_keys
        self.clock = clock  # None: in the host's process, whose clock times every party
        self.games = the_games()
        self._client: DealClient | None = None  # the current deal's, from "bench-deal"
        self.hand: list[int] = []
        self._conn: Connection | None = None  # to the host, from ``run``
        self.costs: dict[str, list[float]] = {"play": [], "check": []}  # a played card's CPU

    @property
    def client(self) -> DealClient:
        """This guest's client in the current deal: the host says "bench-deal" before it
        relays any of the deal's messages or asks for a card."""
        if self._client is None:
            raise RuntimeError("the host sent a deal's message before the deal began")
        return self._client

    @property
    def conn(self) -> Connection:
        """The connection to the host: every handler runs on a message it brought."""
        if self._conn is None:
            raise RuntimeError("not connected to the host yet")
        return self._conn

    async def run(self, port: int) -> None:
        self._conn = conn = await open_connection("127.0.0.1", port, self.identity,
                                                  expect_fingerprint=fingerprint(self.host_key),
                                                  schemas=WIRE)
        async for msg in conn:
            await getattr(self, "on_" + msg["type"].replace("-", "_"))(msg)

    async def send(self, envelopes: list[dict]) -> None:
        for envelope in envelopes:
            await self.conn.send({"type": "mental", "signed": envelope})

    async def on_bench_deal(self, msg: dict) -> None:
        setup = setup_for(self.games[msg["game"]], self.host_key, self.guest_keys, msg["hand"])
        self._client = DealClient(self.identity, setup)
        if self.clock is not None:
            self.clock.begin()
        await self.send(self.client.start())

    async def on_mental_log(self, msg: dict) -> None:
        learned = len(self.client.learned)
        started = time.perf_counter()
        sends = self.client.logged(msg["party"], msg["record"])
        if msg["record"]["body"]["type"] == "mental-play" and msg["party"] != self.client.me:
            self.costs["check"].append(time.perf_counter() - started)
        await self.send(sends)
        for out in self.client.learned[learned:]:
            if isinstance(out, Dealt):
                self.hand = list(out.cards)
                hand = self.client.setup.context.hand
                if self.clock is not None:
                    self.clock.end(hand)
                await self.conn.send({"type": "bench-done", "hand": hand})
                self.client.catch_up()  # idle time: before the first card
            elif isinstance(out, Played) and out.seat not in self.client.seats:
                await self.conn.send({"type": "bench-seen", "n": out.position})

    async def on_bench_play(self, msg: dict) -> None:
        if msg["mental"]:
            [seat] = self.client.seats
            started = time.perf_counter()
            sends = self.client.step(flows.PlayCard(seat, self.hand.pop()))
            self.costs["play"].append(time.perf_counter() - started)
            await self.send(sends)
        else:
            body = {"card": self.hand[-1], "seat": self.client.seats[0], "n": msg["n"]}
            await self.conn.send({"type": "bench-plain", "n": msg["n"], "key": self.identity.public_key,
                                  "signed": seal(self.identity, ACTION_DOMAIN, body)})

    async def on_bench_plain(self, msg: dict) -> None:
        assert opens(msg["key"], ACTION_DOMAIN, msg["signed"])  # as a replica does
        await self.conn.send({"type": "bench-seen", "n": msg["n"]})

    async def on_bench_report(self, msg: dict) -> None:
        micro = {kind: [round(t * 1e6) for t in times] for kind, times in self.costs.items()}
        deals = self.clock.deals if self.clock is not None else []
        await self.conn.send({"type": "bench-costs", **micro, "deals": deals})


def run_guest(private: bytes, host_key: bytes, guest_keys: list[bytes], port: int) -> None:
    """A guest in its own process (``multiprocessing``), until the host hangs up."""
    identity = Identity(Ed25519PrivateKey.from_private_bytes(private), "Guest")
    asyncio.run(Guest(identity, host_key, guest_keys, ProofClock()).run(port))


async def measure(runs: int, plays: int, processes: bool) -> dict:
    PROVEN.forget()  # every party checks every proof, as on its own machine
    host_identity = Identity.generate("Host")
    privates = [os.urandom(32) for _ in range(3)]
    guest_identities = [Identity(Ed25519PrivateKey.from_private_bytes(p), "Guest") for p in privates]
    guest_keys = [g.public_key for g in guest_identities]
    games = the_games()
    host = Host(host_identity, guest_keys, games, ProofClock())
    server = await start_server("127.0.0.1", 0, host_identity, host.serve, schemas=WIRE)
    if processes:
        spawn = multiprocessing.get_context("spawn")
        workers = [spawn.Process(target=run_guest, args=(p, host_identity.public_key, guest_keys,
                                                         server.port)) for p in privates]
        for worker in workers:
            worker.start()
    else:
        guests = [Guest(g, host_identity.public_key, guest_keys, None) for g in guest_identities]
        tasks = [asyncio.create_task(g.run(server.port)) for g in guests]
    await host.connected.wait()
    results: dict[str, dict] = {"deal": {}, "play": {}, "sizes": {}}
    hand = 0
    timed: dict[int, str] = {}  # hand -> its game, the warm-ups left out
    for game_id in sorted(games):
        times = []
        for run in range(runs + 1):  # the first is a warm-up
            hand += 1
            times.append(await host.deal(game_id, hand))
            if run:
                timed[hand] = game_id
        results["deal"][game_id] = times[1:]
    sizes = {kind: sorted(set(s)) for kind, s in host.sizes.items()}
    host.sizes.clear()
    # plays on the last deal: each guest plays its cards in turn
    with_deal, without = [], []
    for n in range(plays):
        guest = guest_keys[n % len(guest_keys)]
        without.append(await host.play_round(guest, n, mental=False))
        with_deal.append(await host.play_round(guest, n, mental=True))
    sizes.update({kind: sorted(set(s)) for kind, s in host.sizes.items()})
    costs = await host.guest_costs()
    results["play"] = {"with": with_deal, "without": without, "play": costs["play"],
                       "log": host.costs["log"], "host check": host.costs["check"],
                       "guest check": costs["check"]}
    results["sizes"] = sizes
    results["proofs"] = {"host": _by_game(host.clock.deals, timed),
                         "guests": _by_game(costs["deals"], timed)}
    server.close()
    await server.wait_closed()
    if processes:
        for worker in workers:
            await asyncio.to_thread(worker.join, 10)
    else:
        await asyncio.gather(*tasks, return_exceptions=True)
    return results


def _by_game(deals: list[list[int]], timed: dict[int, str]) -> dict[str, list[list[int]]]:
    """Each timed deal's figures (µs), by game."""
    out: dict[str, list[list[int]]] = {}
    for hand, *figures in deals:
        if hand in timed:
            out.setdefault(timed[hand], []).append(figures)
    return out


def _proof_lines(results: dict, one_process: bool) -> list[str]:
    """The proofs' CPU per deal, each party's median (all parties summed in one process)."""
    lines = []
    who = [("all four parties", "host")] if one_process else [("the host", "host"), ("a guest", "guests")]
    for game_id in sorted(results["deal"]):
        wholes = []
        for label, key in who:
            deals = results["proofs"][key].get(game_id, [])
            if not deals:
                continue
            prepare, prove, check, whole = (statistics.median(d[i] for d in deals) / 1000 for i in range(4))
            wholes.append(whole)
            lines.append(f"  {game_id:<11} {label:<16} proving {prepare + prove:5.1f} ms "
                         f"({prepare:.1f} with the pads, {prove:.1f} on its turn), checking "
                         f"{check:5.1f} ms, the whole deal {whole:6.1f} ms")
        if len(wholes) == 2:  # what the four processes ask of this machine's cores, together
            lines.append(f"  {game_id:<11} all four (the host's + 3 × a guest's) {wholes[0] + 3 * wholes[1]:6.1f} ms")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m net.tools.bench_mental_loopback",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="deals per game (default 9)")
    parser.add_argument("--plays", type=int, default=30,
                        help="played cards timed (default 30; at most 36: the guests' hands)")
    parser.add_argument("--one-process", action="store_true",
                        help="run the guests in the host's process and event loop (one core)")
    args = parser.parse_args(argv)
    results = asyncio.run(measure(args.runs, min(args.plays, 36), not args.one_process))
    ms = lambda seconds: f"{seconds * 1000:7.1f} ms"  # noqa: E731 - a local format
    where = "one process" if args.one_process else "each guest its own process"
    print(f"A four-human deal on loopback (host + 3 guests over TLS, {where}):")
    for game_id, times in results["deal"].items():
        print(f"  {game_id:<11} median {ms(statistics.median(times))}   best {ms(min(times))}"
              f"   ({len(times)} deals)")
    with_deal, without = results["play"]["with"], results["play"]["without"]
    extra = statistics.median(with_deal) - statistics.median(without)
    print("A played card, guest -> host -> three guests -> host (round, median):")
    print(f"  with the deal's proof {ms(statistics.median(with_deal))}   plain {ms(statistics.median(without))}"
          f"   extra {ms(extra)}   ({len(with_deal)} cards)")
    play = results["play"]
    parts = {name: statistics.median(play[name]) for name in ("play", "log", "host check", "guest check")}
    print("  its CPU, median: the player's share, proof and signature " + ms(parts["play"]).strip() +
          "; the host logging it (signature, shape) " + ms(parts["log"]).strip() +
          "; each reader's check (signature, proof, decryption): host " + ms(parts["host check"]).strip() +
          ", guest " + ms(parts["guest check"]).strip())
    path = parts["play"] + parts["log"] + parts["guest check"]
    print(f"  on the critical path with each client on its own machine (play + log + one check): {ms(path).strip()}")
    print("Each party's CPU in a deal (median), on the shuffles' proofs and in all:")
    for line in _proof_lines(results, args.one_process):
        print(line)
    print("Frames on the wire (bytes, as the host relays them):")
    for kind, sizes in sorted(results["sizes"].items()):
        print(f"  {kind:<15} {', '.join(map(str, sizes))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
