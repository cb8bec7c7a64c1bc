"""``python -m engine.bench``: how many random legal hands per second each title plays.

Each hand is dealt from a fresh seed, then bid, played and scored by random choices
through the public engine API only. The loop is the one OpenSpiel's figures come from
(``while not over: state.apply(rng.choice(state.legal_actions(seat)))``), so the two
can be compared: no bot object in between, and ``sample_action`` only in the phases a
title declares too big to list (``State.SAMPLED_PHASES``: Rook's bury, Somerset's
discard). So the figure is what a bot search or a peer re-checking hands can expect.

    python -m engine.bench [--seconds S] [--json] [--all] [--profile TITLE]

``--seconds`` is per title; ``--json`` prints {"rook": {"hands_per_s": …}, …};
``--all`` measures every ruleset and mode; ``--profile`` prints cProfile's hot spots.
This is a command-line tool, so unlike the rest of the engine it reads the clock.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import sys
import time

from . import registry
from .deal import derive_seed
from .registry import make_game, variants
from .state import Game, State

BENCH_SEED = b"parlour-bench/1".ljust(32, b".")
MAX_ACTIONS = 10_000  # far beyond any real hand; a stuck engine fails instead of hanging


def play_random_hand(game: Game, seed: bytes, dealer: int, rng: random.Random) -> State:
    """Deal from ``seed`` and play the hand out with uniformly random legal actions.
    Where several seats may act (Rook's "Got it"), the first one does."""
    state = game.deal(seed, dealer)
    sampled, choice = state.SAMPLED_PHASES, rng.choice
    for _ in range(MAX_ACTIONS):
        seats = state.to_act()
        if not seats:
            return state
        seat = seats[0]
        if state.phase in sampled:
            state.apply(state.sample_action(seat, rng))
        else:
            state.apply(choice(state.legal_actions(seat)))
    raise RuntimeError(f"{game.id}: the hand did not end within {MAX_ACTIONS} actions")


def hands_per_second(game: Game, seconds: float, label: str = "") -> dict:
    """Play hands for about ``seconds``; the rate and how many were played."""
    rng = random.Random(f"parlour-bench:{label}".encode())
    hands, started = 0, time.perf_counter()
    while True:
        seed = derive_seed(BENCH_SEED, "hand", hands)
        play_random_hand(game, seed, hands % game.num_players, rng)
        hands += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return {"hands_per_s": round(hands / elapsed, 1), "hands": hands}


def headline_variants():
    """Each title as a table plays it by default (its default ruleset and mode)."""
    for title in registry.TITLES:
        yield title, title, None, None


def every_variant():
    for title, ruleset, mode in variants():
        yield "/".join(p for p in (title, ruleset, mode) if p), title, ruleset, mode


def profile(title: str, seconds: float, top: int = 15) -> str:
    """cProfile's report (internal time) for ``seconds`` of the title's headline hands."""
    game = make_game(title)
    profiler = cProfile.Profile()
    profiler.enable()
    figures = hands_per_second(game, seconds, title)
    profiler.disable()
    out = io.StringIO()
    out.write(f"{title}: {figures['hands']} hands under the profiler\n")
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.profile:
        print(profile(args.profile, args.seconds))
        return 0
    chosen = every_variant() if args.all else headline_variants()
    results = {}
    for label, title, ruleset, mode in chosen:
        results[label] = hands_per_second(make_game(title, ruleset, mode), args.seconds, label)
        if not args.json:
            print(f"{label:32} {results[label]['hands_per_s']:>10.1f} hands/s "
                  f"({results[label]['hands']} hands)", flush=True)
    if args.json:
        print(json.dumps({k: {"hands_per_s": v["hands_per_s"]} for k, v in results.items()}))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per title (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--all", action="store_true", help="every ruleset and mode")
    parser.add_argument("--profile", choices=registry.TITLES, help="profile one title's hands")
    return parser


if __name__ == "__main__":
    sys.exit(main())
