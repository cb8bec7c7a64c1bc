"""``python -m engine.bench``: random legal hands per second, each title against OpenSpiel.

Each hand is dealt from a fresh seed, then bid, played and scored by random choices
through the public engine API only (``while someone is to act:
state.apply(rng.choice(state.legal_actions(seat)))``): no bot object in between, and
``sample_action`` only in the phases a title declares too big to list
(``State.SAMPLED_PHASES``: Rook's bury, Somerset's discard). So the figure is what a
bot search or a peer re-checking hands can expect.

OpenSpiel's partnership spades (``make bench`` installs it; skipped without it) is
driven by the same loop through its public Python API: every decision is a uniformly
random choice from ``state.legal_actions()``, and every chance node (the deal, card by
card) is sampled from ``state.chance_outcomes()``, OpenSpiel's way of sampling chance —
spades' outcomes are equally likely, so a uniform pick among them, as our deal from a
fresh seed is uniform. ``--chance legal`` picks chance outcomes from
``state.legal_actions()`` instead: a stricter reference, as it spares OpenSpiel
building the outcome list.

All contenders are measured in one run, interleaved: each plays for a short slice in
turn, round after round, so a machine that slows down (other work, heat) slows them all
alike. Each figure is hands over that contender's own slices; the ratio to spades is
what to compare between machines, not the hands per second.

    python -m engine.bench [--seconds S] [--json] [--all] [--chance outcomes|legal]
    python -m engine.bench --profile TITLE [--seconds S]
    python -m engine.bench --clones [--seconds S] [--json] [--all]

``--seconds`` is per contender; ``--json`` prints {"rook": {"hands_per_s": …,
"vs_spades": …}, …, "openspiel-spades": {…}}; ``--all`` measures every ruleset and mode;
``--profile`` prints cProfile's hot spots for one title; ``--clones`` measures
``State.clone()`` instead (what a bot's search pays for each world it imagines), in
clones per second over every position of a few random hands. This is a command-line
tool, so unlike the rest of the engine it reads the clock.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import itertools
import json
import pstats
import random
import sys
import time
from collections.abc import Callable
from typing import NamedTuple

from . import registry
from .deal import derive_seed
from .registry import make_game, variants
from .state import Game, State

BENCH_SEED = b"parlour-bench/1".ljust(32, b".")
MAX_ACTIONS = 10_000  # far beyond any real hand; a stuck engine fails instead of hanging
SLICE_SECONDS = 0.1  # how long each contender plays before the next one's turn
SPADES = "openspiel-spades"


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
            action = state.sample_action(seat, rng)
            assert action is not None  # a sampled phase, asked of the seat to act
            state.apply(action)
        else:
            state.apply(choice(state.legal_actions(seat)))
    raise RuntimeError(f"{game.id}: the hand did not end within {MAX_ACTIONS} actions")


class Contender(NamedTuple):
    label: str
    play_hand: Callable[[], object]  # plays one whole hand


def engine_contender(label: str, game: Game) -> Contender:
    """Hands of ``game``, each dealt from the next seed."""
    rng = random.Random(f"parlour-bench:{label}".encode())
    numbers = itertools.count()

    def play_hand():
        n = next(numbers)
        return play_random_hand(game, derive_seed(BENCH_SEED, "hand", n), n % game.num_players, rng)
    return Contender(label, play_hand)


def spades_contender(chance: str = "outcomes") -> Contender | None:
    """OpenSpiel's spades, or None where OpenSpiel is not installed."""
    try:
        # By name: a bundle built in a checkout that has the bench extra must not
        # take OpenSpiel along (PyInstaller follows written imports).
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    choice = random.Random(b"parlour-bench:spades").choice

    def by_outcomes():
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))

    def by_legal():
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
    return Contender(SPADES, by_outcomes if chance == "outcomes" else by_legal)


def measure(contenders: list[Contender], seconds: float,
            slice_seconds: float = SLICE_SECONDS) -> dict[str, dict]:
    """Interleaved: ``seconds`` of play for each contender, a slice at a time in turn."""
    slice_seconds = min(slice_seconds, seconds)
    rounds = max(1, round(seconds / slice_seconds))
    played = {c.label: 0 for c in contenders}
    spent = {c.label: 0.0 for c in contenders}
    clock = time.perf_counter
    for _ in range(rounds):
        for contender in contenders:
            hands, started = 0, clock()
            while True:
                contender.play_hand()
                hands += 1
                elapsed = clock() - started
                if elapsed >= slice_seconds:
                    break
            played[contender.label] += hands
            spent[contender.label] += elapsed
    return {label: {"hands_per_s": round(played[label] / spent[label], 1), "hands": played[label]}
            for label in played}


def with_ratios(results: dict[str, dict]) -> dict[str, dict]:
    """Each title's hands per second divided by spades' (where spades was measured)."""
    spades = results.get(SPADES)
    if spades:
        for label, figures in results.items():
            if label != SPADES:
                figures["vs_spades"] = round(figures["hands_per_s"] / spades["hands_per_s"], 3)
    return results


def headline_variants():
    """Each title as a table plays it by default (its default ruleset and mode)."""
    for title in registry.TITLES:
        yield title, title, None, None


def every_variant():
    for title, ruleset, mode in variants():
        yield "/".join(p for p in (title, ruleset, mode) if p), title, ruleset, mode


def profile(title: str, seconds: float, top: int = 15) -> str:
    """cProfile's report (internal time) for ``seconds`` of the title's default hands."""
    contender = engine_contender(title, make_game(title))
    profiler = cProfile.Profile()
    profiler.enable()
    figures = measure([contender], seconds, seconds)[title]
    profiler.disable()
    out = io.StringIO()
    out.write(f"{title}: {figures['hands']} hands under the profiler\n")
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


CLONE_HANDS = 8  # random hands whose every position is cloned by --clones


def positions(game: Game, hands: int = CLONE_HANDS) -> list[State]:
    """Every position of ``hands`` random hands (from the bench's seeds), each a
    clone kept as it was when that position was reached."""
    rng = random.Random(f"parlour-bench:positions:{game.id}".encode())
    kept: list[State] = []
    for n in range(hands):
        state = game.deal(derive_seed(BENCH_SEED, "positions", n), n % game.num_players)
        while state.to_act():
            kept.append(state.clone())
            seat = state.to_act()[0]
            if state.phase in state.SAMPLED_PHASES:
                action = state.sample_action(seat, rng)
                assert action is not None  # a sampled phase, asked of the seat to act
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply(action)
    return kept


def clone_contender(label: str, kept: list) -> tuple[Contender, int]:
    """One "hand" is one clone of each of the ``kept`` positions, in turn; and their count."""
    def clone_all():
        for state in kept:
            state.clone()
    return Contender(label, clone_all), len(kept)


def spades_positions(hands: int = CLONE_HANDS) -> list | None:
    """Every position of a few random games of OpenSpiel's spades (None without it)."""
    try:
        pyspiel = importlib.import_module("pyspiel")  # by name: see spades_contender
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    choice = random.Random(b"parlour-bench:spades-positions").choice
    kept = []
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            kept.append(state.clone())
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
    return kept


def clone_rates(chosen, seconds: float) -> dict[str, dict]:
    """Clones per second of each chosen variant's State, and of OpenSpiel's spades
    state where it is installed (interleaved like ``measure``)."""
    made = [clone_contender(label, positions(make_game(title, ruleset, mode)))
            for label, title, ruleset, mode in chosen]
    spades = spades_positions()
    if spades is not None:
        made.append(clone_contender(SPADES, spades))
    rounds = measure([contender for contender, _ in made], seconds)
    return {contender.label: {"clones_per_s": round(rounds[contender.label]["hands_per_s"] * each),
                              "clones": rounds[contender.label]["hands"] * each}
            for contender, each in made}


def report(results: dict[str, dict]) -> str:
    lines = []
    for label, figures in results.items():
        ratio = f"  {figures['vs_spades']:.2f}x spades" if "vs_spades" in figures else ""
        lines.append(f"{label:32} {figures['hands_per_s']:>10.1f} hands/s "
                     f"({figures['hands']} hands){ratio}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.profile:
        print(profile(args.profile, args.seconds))
        return 0
    chosen = every_variant() if args.all else headline_variants()
    if args.clones:
        clones = clone_rates(chosen, args.seconds)
        if args.json:
            print(json.dumps({label: {"clones_per_s": f["clones_per_s"]} for label, f in clones.items()}))
        else:
            print("\n".join(f"{label:32} {f['clones_per_s']:>10} clones/s ({f['clones']} clones)"
                            for label, f in clones.items()))
        return 0
    contenders = [engine_contender(label, make_game(title, ruleset, mode))
                  for label, title, ruleset, mode in chosen]
    spades = spades_contender(args.chance)
    if spades is None:
        print("bench: OpenSpiel is not installed (`make bench` installs it): no ratios",
              file=sys.stderr)
    else:
        contenders.append(spades)
    results = with_ratios(measure(contenders, args.seconds))
    if args.json:
        print(json.dumps({label: {k: v for k, v in figures.items() if k != "hands"}
                          for label, figures in results.items()}))
    else:
        print(report(results))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per contender (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--all", action="store_true", help="every ruleset and mode")
    parser.add_argument("--chance", choices=("outcomes", "legal"), default="outcomes",
                        help="how OpenSpiel's chance nodes are sampled (default: chance_outcomes)")
    parser.add_argument("--profile", choices=registry.TITLES, help="profile one title's hands")
    parser.add_argument("--clones", action="store_true",
                        help="measure State.clone() (a bot search's cost per world) instead")
    return parser


if __name__ == "__main__":
    sys.exit(main())
