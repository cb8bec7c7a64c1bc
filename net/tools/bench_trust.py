"""What one move costs the trust protocol, without a network: ``python -m net.tools.bench_trust``

A Rook table in memory — a ``HostAuthority`` (its own seat played by a random bot, with
the host's key) and three ``PeerReplica`` peers whose random bots sign through their
replicas — plays whole hands; messages are handed over by hand, nothing is persisted
to disk, no clock but ``perf_counter`` around the calls. Two figures per move:

* **host**: the authority taking the move (a peer's signed message, or its own seat's
  decision) up to the messages for every peer, signatures and the state hash included;
* **replicas**: the three replicas checking the entry message that logs it.

Also counted, on a separate run (counting slows the calls): how many times the host
parses a move's action JSON into an ``Action`` (``Game.action_from_json``) and applies
it to a state (``State.apply``) per move.

The figures are for comparing two versions of the code on one machine (ratios, not
absolutes); ``--hands`` sets the length of the run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import deque
from contextlib import contextmanager

from engine import make_game
from engine.bots.random_bot import RandomBot
from net.trust.host.authority import HostAuthority
from net.trust.peer.replica import PeerReplica
from net.wire.identity import Identity

TABLE = "bench-table"
PEERS = (1, 2, 3)


class _Table:
    """Host, replicas and the message passing between them (the seat-0 host plays too)."""

    def __init__(self, seed: int):
        rng = random.Random(seed)
        self.randbytes = rng.randbytes
        self.host_id = Identity.generate("Bench host")
        self.ids = {seat: Identity.generate(f"P{seat}") for seat in PEERS}
        self.host = HostAuthority(self.host_id, self.randbytes)
        self.replicas = {seat: PeerReplica(self.ids[seat], self.host_id.public_key, TABLE,
                                           self.randbytes) for seat in PEERS}
        self.by_fp = {self.ids[s].fingerprint: s for s in PEERS}
        self.bot = RandomBot(seed)
        self.host_time: list[float] = []
        self.replica_time: list[float] = []
        self.host.open_table(TABLE, {"game": "rook"}, "Bench")
        self.host.seat(0, "human", self.host_id.public_key, "Host")
        for seat in PEERS:
            self.host.seat(seat, "human", self.ids[seat].public_key, f"P{seat}")
        for seat in PEERS:  # seated peers first ask for the whole log, as in a session
            self.deliver(self.host.rejoin(self.ids[seat].fingerprint, seat, -1))

    def deliver(self, out, timed: bool = False) -> None:
        queue = deque(out.sends)
        spent = 0.0
        while queue:
            fp, msg = queue.popleft()
            t0 = time.perf_counter()
            rout = self.replicas[self.by_fp[fp]].receive(msg)
            spent += time.perf_counter() - t0
            assert not rout.alerts and not rout.errors, (rout.alerts, rout.errors)
            for reply in rout.sends:
                queue.extend(self.host.receive(fp, reply).sends)
        if timed:
            self.replica_time.append(spent)

    def move(self) -> None:
        state = self.host.state
        seat = state.to_act()[0]
        data = state.game.action_to_json(self.bot.choose(state, seat))
        del data["seat"]
        if seat in self.replicas:
            message = self.replicas[seat].act(data)
            t0 = time.perf_counter()
            out = self.host.receive(self.ids[seat].fingerprint, message)
        else:
            t0 = time.perf_counter()
            out = self.host.act_local(seat, data)
        self.host_time.append(time.perf_counter() - t0)
        assert out.entries and out.error is None, out.sends
        self.deliver(out, timed=True)

    def play(self, hands: int) -> int:
        """Play ``hands`` hands; the number of moves."""
        moves = 0
        self.deliver(self.host.start_game(dealer=0))
        for hand in range(hands):
            if hand:
                self.deliver(self.host.next_hand())
            while self.host.state is not None and not self.host.state.is_over:
                self.move()
                moves += 1
            assert self.host.match is not None  # (start_game made it)
            if self.host.match.is_over:
                self.deliver(self.host.start_game(dealer=0))
        return moves


@contextmanager
def _counting(cls, name: str, tally: dict, active: list):
    """Count calls of ``cls.name`` made while ``active[0]`` is set."""
    original = getattr(cls, name)

    def counted(*args, **kwargs):
        if active[0]:
            tally[name] = tally.get(name, 0) + 1
        return original(*args, **kwargs)
    setattr(cls, name, counted)
    try:
        yield
    finally:
        setattr(cls, name, original)


def count_per_move(hands: int, seed: int) -> dict[str, float]:
    """Parses and applies the host makes per move, averaged over ``hands`` hands."""
    table = _Table(seed)
    game = make_game("rook")
    state_class = type(game.deal(bytes(32), 0))
    tally: dict[str, int] = {}
    active = [False]
    host = table.host
    for name in ("receive", "act_local"):
        real = getattr(host, name)

        def wrapped(*args, _real=real):
            active[0] = True
            try:
                return _real(*args)
            finally:
                active[0] = False
        setattr(host, name, wrapped)
    with _counting(type(game), "action_from_json", tally, active), \
            _counting(state_class, "apply", tally, active):
        moves = table.play(hands)
    return {"moves": moves, "parse": tally.get("action_from_json", 0) / moves,
            "apply": tally.get("apply", 0) / moves}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m net.tools.bench_trust")
    ap.add_argument("--hands", type=int, default=6, help="Rook hands per run")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    counts = count_per_move(2, args.seed)
    table = _Table(args.seed)
    moves = table.play(args.hands)
    host = [t * 1000 for t in table.host_time]
    replicas = [t * 1000 for t in table.replica_time]
    print(f"Rook, 4 players (host + 3 replicas in memory), {args.hands} hands, {moves} moves")
    print(f"host per move:     median {statistics.median(host):.3f} ms, "
          f"mean {statistics.fmean(host):.3f} ms")
    print(f"3 replicas per move: median {statistics.median(replicas):.3f} ms, "
          f"mean {statistics.fmean(replicas):.3f} ms")
    print(f"host parses per move {counts['parse']:.2f}, applies per move {counts['apply']:.2f} "
          f"(over {counts['moves']} moves)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
