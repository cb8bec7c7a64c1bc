"""What the mental-poker deal costs.  ``python -m net.tools.bench_mental [--runs 7]``

All cryptography, in one process, no sockets (``net.trust.deals.mental.inprocess``): every
party's machine runs in turn on one core, so the "all parties" figures are the sum of
what four clients would each do on their own machine. Printed:

1. The group's operations (libsecp256k1 through coincurve), and the proofs built on them (µs).
2. A deal among four human players for Rook (57 cards), Somerset (50) and Horseshoes
   (52): median and best over ``--runs`` of the whole deal (every party's secrets, key
   shares, the four shuffles, every decryption share, every hand decrypted), then the
   same split into the deal's sequential path (the longest any one party works at each
   step, the shuffles one after another), the operations it takes, and where the time
   goes; then each party's multiplications and additions by what they are for
   (``PURPOSES``: checking the others' shuffles, proving its own, its shares…).
3. A played card's extra cost: the player's share and proof, and its check and
   decryption at the three other players, median over ``--plays`` cards (after
   ``catch_up``), and the first card of a seat without it.
4. The end-of-hand verification at one party, and ``catch_up`` at one party.
5. Message sizes (msgpack) and the deal's total on the log.

The targets are for the final system on loopback (issue 13): a four-human deal in at
most 300 ms median on this 2-core machine, round trips included, and at most 2 ms for a
played card's extra cost. ``python -m net.tools.bench_mental_loopback`` measures them
over real TLS connections, through the host's sequencer and each party's DealClient.
"""

from __future__ import annotations

import argparse
import inspect
import os
import statistics
import time
from collections import Counter, defaultdict
from types import FrameType

import msgpack
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.bench import headline_variants
from engine.registry import make_game
from net.trust.deals.mental.chain import PROVEN
from net.trust.deals.mental import group
from net.trust.deals.mental.group import G, Point, Scalar, base_mul
from net.trust.deals.mental.inprocess import InProcessDeal
from net.trust.deals.mental.keys import DealContext
from net.trust.deals.mental.machine import Dealt, Played, Send
from net.trust.deals.mental.proofs import prove_dleq, prove_key, verify_dleq, verify_key
from net.wire.identity import Identity

# Each title as a table plays it by default, as the engine's bench measures it; the largest deck (the
# dearest deal) gets the operation counts and the loopback projection.
GAMES = sorted((make_game(title_id, ruleset, mode) for _, title_id, ruleset, mode in headline_variants()),
               key=lambda game: -game.deck.size)
# What a logged step costs on loopback today (docs/benchmarks.md, "A table on loopback": an action to
# every peer verified, log fsynced): used only for the projection, which says so.
LOG_STEP_MS = 5.0
#: group.py's four libsecp256k1 calls, by their names there. A sum of any number of points
#: is one call (its additions on projective coordinates, one inversion at the end): each
#: counts once. Parsing a point (33 bytes to libsecp256k1's form, a square root) is all a
#: point from outside needs checked; a point is parsed once, however often it is used.
COUNTED = {"_multiply": "variable-base mult", "_base_multiply": "fixed-base mult (table)",
           "_combine": "addition", "_parse": "parse (on-curve check)"}


def identities(n: int) -> list[Identity]:
    return [Identity(Ed25519PrivateKey.from_private_bytes(bytes([i + 1]) * 32), f"P{i}")
            for i in range(n)]


def micro(call, number: int = 300) -> float:
    best = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(number):
            call()
        best.append((time.perf_counter() - start) / number)
    return min(best) * 1e6  # the operation's own cost: the least disturbed of five


class TimedDeal(InProcessDeal):
    """Records how long each party spends on each message it receives."""

    def __init__(self, *args, **kwargs):
        self.spent: list[tuple[int, str, float]] = []
        self.total = 0.0  # the whole deal's seconds, once ``deal`` ran
        super().__init__(*args, **kwargs)

    def deliver(self, party, sender, message):
        start = time.perf_counter()
        out = super().deliver(party, sender, message)
        self.spent.append((party, message["type"], time.perf_counter() - start))
        return out

    def deal(self) -> None:
        start = time.perf_counter()
        for party, machine in enumerate(self.machines):
            t = time.perf_counter()
            self.take(party, machine.start())
            self.spent.append((party, "start", time.perf_counter() - t))
        self.flush()
        self.total = time.perf_counter() - start

    def sequential_path(self) -> dict[str, float]:
        """The longest one party works at each logged step; the shuffles add up."""
        steps: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        for index, (party, kind, seconds) in enumerate(self.spent):
            steps[self._step_of(index, kind)][party] += seconds
        return {name: max(per_party.values()) for name, per_party in
                ((self._names[k], v) for k, v in sorted(steps.items()))}

    _names = {0: "start (key share + proof)", 1: "keys in (proofs checked, pads made)",
              2: "shuffles (each checks its input, adds its pads)",
              3: "final deck (checked) + own shares", 4: "shares in (checked, hand decrypted)"}

    def _step_of(self, index: int, kind: str) -> int:
        return {"start": 0, "mental-key": 1, "mental-shuffle": 2, "mental-shares": 4}[kind]


def deal_once(game, parties: int, ctx: DealContext) -> TimedDeal:
    deal = TimedDeal(game, identities(parties), [[s] for s in range(parties)], dealer=0,
                     context=ctx)
    deal.deal()
    assert all(deal.events(p, Dealt) for p in deal.parties)
    return deal


def shuffle_chain(deal: TimedDeal) -> tuple[float, float, float]:
    """(the shuffles one after another, the slowest final-deck step, the rest)"""
    chain = final = 0.0
    shuffles = [(p, s) for p, kind, s in deal.spent if kind == "mental-shuffle"]
    k = len(deal.machines)
    # deck t reaches every party; party t+1 shuffles on it; the last deck: all work
    for t in range(k):
        per_party = shuffles[t * k:(t + 1) * k]
        if t < k - 1:
            chain += per_party[t + 1][1]
        else:
            final = max(s for _, s in per_party)
    return chain, final, 0.0


def count_operations(call) -> Counter:
    counts: Counter = Counter()
    originals = {}
    for name, label in COUNTED.items():
        original = getattr(group, name)
        originals[name] = original

        def counted(*args, _original=original, _label=label):
            counts[_label] += 1
            return _original(*args)
        setattr(group, name, counted)
    try:
        call()
    finally:
        for name, original in originals.items():
            setattr(group, name, original)
    return counts


#: What a group operation is for, by the outermost of these functions (file, qualified name)
#: it runs under (the outermost: a share made to decrypt one's own card is decrypting).
PURPOSES = {("chain.py", "ShuffleChain.check"): "checking the others' shuffles",
            ("chain.py", "ShuffleChain.check_each"): "checking the others' shuffles",
            ("shuffle_proof.py", "prepare"): "proving its shuffle",
            ("shuffle_proof.py", "prove"): "proving its shuffle",
            ("deck.py", "pads"): "its shuffle's pads",
            ("deck.py", "shuffle"): "its shuffle",
            ("deck.py", "initial_deck"): "the starting deck",
            ("machine.py", "MentalDeal._batch"): "its shares and their proofs",
            ("machine.py", "MentalDeal._check_batch"): "checking the shares it receives",
            ("machine.py", "MentalDeal._decrypt_for_me"): "decrypting its cards",
            ("chain.py", "ShuffleChain.key"): "key shares and their proofs",
            ("proofs.py", "prove_key"): "key shares and their proofs"}


def purpose_here() -> str:
    """The purpose (``PURPOSES``) of the group operation being called, from the call stack."""
    found = "other"
    frame: FrameType | None = inspect.currentframe()
    while frame is not None:
        code = frame.f_code
        label = PURPOSES.get((os.path.basename(code.co_filename), code.co_qualname))
        if label is not None:
            found = label
        frame = frame.f_back
    return found


def count_by_purpose(game) -> dict[tuple[int, str], Counter]:
    """(party, purpose) -> its group operations (``COUNTED``'s labels) in one deal (every
    party checks every proof, as on its own machine, once ``main`` has made ``PROVEN``
    forget)."""
    counts: dict[tuple[int, str], Counter] = defaultdict(Counter)
    receiving: list[int] = []  # the party whose machine runs now

    class Attributed(TimedDeal):
        def deliver(self, party, sender, message):
            receiving.append(party)
            try:
                return super().deliver(party, sender, message)
            finally:
                receiving.pop()

        def deal(self) -> None:
            for party, machine in enumerate(self.machines):
                receiving.append(party)
                try:
                    outputs = machine.start()
                finally:
                    receiving.pop()
                self.take(party, outputs)
            self.flush()

    originals = {name: getattr(group, name) for name in COUNTED}
    for name, label in COUNTED.items():
        def counted(*args, _original=originals[name], _label=label):
            if receiving:
                counts[(receiving[-1], purpose_here())][_label] += 1
            return _original(*args)
        setattr(group, name, counted)
    try:
        deal = Attributed(game, identities(4), [[s] for s in range(4)], dealer=0,
                          context=DealContext("bench-purpose", 98))
        deal.deal()
    finally:
        for name, original in originals.items():
            setattr(group, name, original)
    return counts


def print_purposes(counts: dict[tuple[int, str], Counter]) -> None:
    parties = sorted({party for party, _ in counts})
    purposes = sorted({purpose for _, purpose in counts},
                      key=lambda p: -sum(counts[(q, p)]["variable-base mult"] for q in parties))
    print("      variable-base mults / additions at each party (0 shuffles first), by what for:")
    for purpose in purposes + ["the party's whole deal"]:
        cells = []
        for party in parties:
            c = counts[(party, purpose)] if purpose in purposes else \
                sum((counts[(party, p)] for p in purposes), Counter())
            cells.append(f"{c['variable-base mult']:5d} / {c['addition']:5d}")
        print(f"        {purpose:32s} " + "   ".join(cells))


def play_costs(game, plays: int, catch_up: bool) -> list[float]:
    """Produce + check at every other party, per card, in ms."""
    deal = deal_once(game, 4, DealContext("bench-play", 1 if catch_up else 2))
    if catch_up:
        for machine in deal.machines:
            machine.catch_up()
    costs: list[float] = []
    hands = {h.seat: list(h.cards) for p in deal.parties for h in deal.events(p, Dealt)}
    seat = 0
    while len(costs) < plays and any(hands.values()):
        if hands[seat]:
            card = hands[seat].pop(0)
            start = time.perf_counter()
            [send] = deal.machines[seat].play(seat, card)
            for party in deal.parties:
                if party != seat:
                    out = deal.machines[party].receive(seat, send.message)
                    assert out == [Played(seat, out[0].position, card)]
            costs.append((time.perf_counter() - start) * 1e3)
            deal.machines[seat].receive(seat, send.message)
        seat = (seat + 1) % 4
    return costs


def reveal_cost(game) -> tuple[float, float]:
    """(catch_up at one party, the end-of-hand verification at one party), ms."""
    deal = deal_once(game, 4, DealContext("bench-reveal", 3))
    start = time.perf_counter()
    deal.machines[0].catch_up()
    catch = time.perf_counter() - start
    reveals = [deal.machines[p].finish()[0] for p in deal.parties]
    start = time.perf_counter()
    for party, send in enumerate(reveals):
        deal.machines[0].receive(party, send.message)
    return catch * 1e3, (time.perf_counter() - start) * 1e3


def sizes(game) -> dict[str, list[int]]:
    deal = deal_once(game, 4, DealContext("bench-sizes", 4))
    card = deal.events(1, Dealt)[0].cards[0]
    deal.run(1, deal.machines[1].play(1, card))
    deal.run(0, deal.machines[0].commit(0, "bury", deal.events(0, Dealt)[0].cards[:5]))
    for party in deal.parties:
        deal.take(party, deal.machines[party].finish())
    deal.flush()
    out: dict[str, list[int]] = defaultdict(list)
    for _, message in deal.log:
        out[message["type"]].append(len(msgpack.packb(message, use_bin_type=True)))
    return out


def main(argv: list[str] | None = None) -> int:
    PROVEN.forget()  # every party checks every proof, as on its own machine
    parser = argparse.ArgumentParser(prog="python -m net.tools.bench_mental",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="deals per game (default 7)")
    parser.add_argument("--plays", type=int, default=40, help="played cards timed (default 40)")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")

    print("\n1. Group operations (coincurve → libsecp256k1), µs (best of five runs)")
    s = Scalar.from_hash(b"bench", b"s")
    p = base_mul(Scalar.from_hash(b"bench", b"p"))
    bases = [base_mul(Scalar.from_hash(b"bench", bytes([i]))) for i in range(13)]
    shares = [s * c for c in bases]
    proof13 = prove_dleq(s, base_mul(s), bases, shares, b"c", b"k")
    proof1 = prove_dleq(s, base_mul(s), bases[:1], shares[:1], b"c", b"k")
    key_proof = prove_key(s, base_mul(s), b"c", b"k")
    micro_costs = {
        "variable-base mult": micro(lambda: s * p),
        "fixed-base mult (table)": micro(lambda: base_mul(s)),
        "addition": micro(lambda: p + G, 1000),
        "parse (on-curve check)": micro(lambda: Point.from_wire(p.raw), 1000),
        "hash to group": micro(lambda: Point.from_uniform(s.raw), 1000),
    }
    for name, cost in micro_costs.items():
        print(f"   {name:34s} {cost:8.1f}")
    for name, call in [("Schnorr key proof: verify", lambda: verify_key(base_mul(s), key_proof, b"c")),
                       ("Chaum–Pedersen, 1 share: prove", lambda: prove_dleq(s, base_mul(s), bases[:1], shares[:1], b"c", b"k")),
                       ("Chaum–Pedersen, 1 share: verify", lambda: verify_dleq(base_mul(s), bases[:1], shares[:1], proof1, b"c")),
                       ("batch of 13 shares: prove", lambda: prove_dleq(s, base_mul(s), bases, shares, b"c", b"k")),
                       ("batch of 13 shares: verify", lambda: verify_dleq(base_mul(s), bases, shares, proof13, b"c"))]:
        print(f"   {name:34s} {micro(call, 20):8.1f}")

    print(f"\n2. A deal among 4 human players, in-process, all parties' cryptography "
          f"(median of {args.runs}, ms)")
    projected_from: dict[str, tuple[float, float]] = {}  # game id: (sequential path, all parties), s
    for game in GAMES:
        name, title_id = game.info.name, game.id
        deals = [deal_once(game, 4, DealContext(f"bench-{title_id}", hand)) for hand in range(args.runs)]
        totals = [d.total * 1e3 for d in deals]
        median_deal = sorted(deals, key=lambda d: d.total)[len(deals) // 2]
        path = median_deal.sequential_path()
        chain, final, _ = shuffle_chain(median_deal)
        sequential = path["start (key share + proof)"] + path["keys in (proofs checked, pads made)"] \
            + chain + final + path["shares in (checked, hand decrypted)"]
        print(f"   {name} ({game.deck.size} cards): all parties {statistics.median(totals):6.1f} "
              f"(best {min(totals):.1f}); sequential path {sequential * 1e3:6.1f}: keys "
              f"{(path['start (key share + proof)'] + path['keys in (proofs checked, pads made)']) * 1e3:.1f}, "
              f"shuffles {chain * 1e3:.1f}, final deck + shares {final * 1e3:.1f}, "
              f"shares in {path['shares in (checked, hand decrypted)'] * 1e3:.1f}")
        if game is GAMES[0]:
            projected_from[title_id] = sequential, statistics.median(totals) / 1e3
            counts = count_operations(lambda: deal_once(game, 4, DealContext("bench-count", 99)))
            print("      operations (all 4 parties) and their share of the time:")
            estimated = sum(counts[k] * micro_costs[k] for k in counts) / 1e3
            for label, n in counts.most_common():
                print(f"        {label:28s} {n:6d}  ≈ {n * micro_costs[label] / 1e3:6.1f} ms")
            print(f"        {'sum of the above':28s} {'':6s}  ≈ {estimated:6.1f} ms "
                  f"(the rest: hashing, Python)")
            print_purposes(count_by_purpose(game))
    steps = 4 + 2  # keys, four shuffles, shares: each a logged step
    logged = steps * LOG_STEP_MS
    largest_sequential, largest_total = projected_from[GAMES[0].id]
    print(f"   projection, 4 clients on loopback on this 2-core machine (not measured here; "
          f"{steps} logged steps × {LOG_STEP_MS:.0f} ms, today's measured action latency): "
          f"{GAMES[0].info.name} between {largest_sequential * 1e3 + logged:.0f} ms (each client "
          f"on its own core) and {largest_total * 1e3 + logged:.0f} ms (all on one core); "
          f"target ≤ 300 ms")

    print(f"\n3. A played card's extra cost: share + proof, checked and decrypted at 3 "
          f"peers ({GAMES[0].info.name}, ms)")
    largest = GAMES[0]  # the largest deck
    steady = play_costs(largest, args.plays, catch_up=True)
    first = play_costs(largest, 4, catch_up=False)
    print(f"   median {statistics.median(steady):.2f} (best {min(steady):.2f}, "
          f"worst {max(steady):.2f}) over {len(steady)} cards; target ≤ 2 ms")
    print(f"   a seat's first card without catch_up (3 share batches checked then): "
          f"median {statistics.median(first):.1f}")
    catch, verify = reveal_cost(largest)
    print(f"\n4. At one party ({GAMES[0].info.name}): catch_up {catch:.1f} ms (idle time after the deal); "
          f"the end-of-hand verification {verify:.1f} ms")

    print(f"\n5. Message sizes (msgpack bytes, {GAMES[0].info.name}, 4 parties)")
    out = sizes(largest)
    for kind, lengths in out.items():
        print(f"   {kind:16s} {sorted(set(lengths))}")
    deal_kinds = ("mental-key", "mental-shuffle", "mental-shares")
    deal_bytes = sum(n for kind in deal_kinds for n in out[kind][:4])
    print(f"   a deal's messages on the log: {deal_bytes} bytes (keys, shuffles, deal shares)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
