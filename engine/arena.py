"""``python -m engine.arena``: two bot line-ups play seeded games; how often does A win?

    python -m engine.arena --game rook --a normal --b easy --games 200 --seed 1 [--json]
    python -m engine.arena --game horseshoes --mode three --a hard --b normal --hands 300

Seating: in partnership games (Rook, Somerset, Horseshoes ``partners``) line-up A sits in
seats 0 and 2 in even games and 1 and 3 in odd ones, and each pair of games is dealt
from the same table seed, so both line-ups meet the same cards from both sides. In
Horseshoes' individual modes one A bot plays against B bots, A's seat rotating through
every seat over the same table seed.

Reported: A's win rate with a 95% Wilson interval; the average score margin (A minus B,
at the end of a game, or per hand with ``--hands``; in Horseshoes the average penalty
per hand, A minus B, so lower is better for A); decision times (median and 95th
percentile, in ms) of each line-up, on the clock and in the CPU the deciding thread used
(on a machine others share, the clock counts their work too: the CPU figure is what the
same decision takes on a quiet machine); and for Rook and Somerset the bidding sanity: the
share of hands each line-up won the bid, and how often it then made it.

``--hands N`` plays N single hands instead of whole games; a hand is "won" by the
line-up that scored more in it (Horseshoes: the lower penalty), a tie counts half.

A line-up is a level, or a level with some phases decided at another, to tell which
phase a level's edge comes from: ``--a hard,bidding=expert`` bids as expert and does
everything else as hard (every decision still comes from an ordinary level's bot with
the same seed, so ``hard`` alone plays exactly as ``--a hard`` does). Long runs in
resumable chunks: ``python -m engine.arena_runs``.

``--common-seeds`` gives a seat the same bot seed in both games of a pair (by default
each game's bots have seeds of their own). A decision both line-ups make at the same
level is then the same decision in both seatings, so with ``--a hard,play=expert --b
hard`` the auction, kitty and trump come out alike and the pair's margin is what the
card play alone made of the same contract (and ``--a hard --b hard`` is exactly even):
far less spread for the same number of hands when one phase is measured.
This is a command-line tool, so unlike the engine it reads the clock (for the times).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from statistics import median

from . import registry
from .bots import ALL_LEVELS, make_bot
from .deal import derive_seed
from .match import Match
from .registry import make_game

MAX_HANDS_PER_GAME = 300  # far beyond a real game; a stuck match ends as a tie
MAX_ACTIONS = 10_000


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


class LineupBot:
    """A line-up's bot: ``default`` decides, but for the phases ``by_phase`` names."""

    def __init__(self, default, by_phase: dict):
        self.default, self.by_phase = default, by_phase

    def choose(self, game, view):
        return self.by_phase.get(view["phase"], self.default).choose(game, view)


def parse_lineup(spec: str) -> tuple[str, dict[str, str]]:
    """``"hard,bidding=expert"`` → ("hard", {"bidding": "expert"}); ValueError for an
    unknown level or a malformed phase."""
    level, *phases = [part.strip() for part in spec.split(",")]
    by_phase: dict[str, str] = {}
    for part in phases:
        phase, sep, other = part.partition("=")
        if not sep or not phase:
            raise ValueError(f"line-up {spec!r}: expected PHASE=LEVEL after the level, got {part!r}")
        by_phase[phase] = other
    for name in (level, *by_phase.values()):
        if name not in ALL_LEVELS:
            raise ValueError(f"line-up {spec!r}: unknown level {name!r} "
                             f"(choose from {', '.join(ALL_LEVELS)})")
    return level, by_phase


def lineup_bot(spec: str, seed: bytes):
    """The bot for a line-up ``spec`` (see the module docstring): a plain level's own bot
    when no phase is mixed in."""
    level, by_phase = parse_lineup(spec)
    if not by_phase:
        return make_bot(level, seed)
    return LineupBot(make_bot(level, seed), {p: make_bot(other, seed) for p, other in by_phase.items()})


def lineup_arg(spec: str) -> str:
    """argparse's type for a line-up: the spec itself, or a usage error saying what is wrong."""
    try:
        parse_lineup(spec)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc
    return spec


class Tally:
    """Everything the arena counts while it plays."""

    def __init__(self):
        self.games = 0
        self.wins = 0.0
        self.ties = 0
        self.margins: list[float] = []
        self.hands = 0
        self.times: dict[str, list[float]] = {"a": [], "b": []}  # ms per decision
        self.cpu: dict[str, list[float]] = {"a": [], "b": []}  # ms of this thread's CPU
        self.bids = {"a": 0, "b": 0}
        self.made = {"a": 0, "b": 0}
        self.penalty = {"a": 0.0, "b": 0.0}

    FIELDS = ("games", "wins", "ties", "margins", "hands", "times", "cpu", "bids", "made", "penalty")

    def to_json(self) -> dict:
        """Everything counted, as plain values (times to 0.01 ms), for a chunk's line."""
        out = {name: getattr(self, name) for name in self.FIELDS}
        for name in ("times", "cpu"):
            out[name] = {who: [round(v, 2) for v in values] for who, values in out[name].items()}
        return out

    def add(self, counted: dict) -> None:
        """Add another run's counts (``to_json``'s form): chunks of one run summed."""
        for name in ("games", "wins", "ties", "hands"):
            setattr(self, name, getattr(self, name) + counted[name])
        self.margins += counted["margins"]
        for name in ("times", "cpu", "bids", "made", "penalty"):
            mine = getattr(self, name)
            for who in ("a", "b"):
                mine[who] += counted[name][who]


class Arena:
    def __init__(self, game, level_a: str, level_b: str, seed: bytes, common_seeds: bool = False):
        parse_lineup(level_a), parse_lineup(level_b)  # (a bad line-up fails before any play)
        self.game = game
        self.common_seeds = common_seeds
        self.levels = {"a": level_a, "b": level_b}
        self.seed = seed
        self.partnerships = game.partnerships
        self.rotation = 2 if self.partnerships else game.num_players
        self.tally = Tally()

    # -- seating ---------------------------------------------------------------------
    def lineup(self, index: int) -> list[str]:
        """"a" or "b" for every seat in game ``index``."""
        n = self.game.num_players
        if self.partnerships:
            first = "a" if index % 2 == 0 else "b"
            other = "b" if first == "a" else "a"
            return [first if s % 2 == 0 else other for s in range(n)]
        seat_a = index % n
        return ["a" if s == seat_a else "b" for s in range(n)]

    def bots(self, index: int, lineup: list[str]) -> list:
        number = index // self.rotation if self.common_seeds else index
        kind = "common bot" if self.common_seeds else "bot"
        return [lineup_bot(self.levels[who], derive_seed(self.seed, kind, number, seat))
                for seat, who in enumerate(lineup)]

    def table_seed(self, index: int) -> bytes:
        return derive_seed(self.seed, "table", index // self.rotation)

    # -- playing -------------------------------------------------------------------------
    def play_hand(self, state, bots: list, lineup: list[str]) -> None:
        game, times, cpu = self.game, self.tally.times, self.tally.cpu
        for _ in range(MAX_ACTIONS):
            seats = state.to_act()
            if not seats:
                return
            seat = seats[0]
            view = state.view(seat)
            started, started_cpu = time.perf_counter(), time.thread_time()
            action = bots[seat].choose(game, view)
            times[lineup[seat]].append((time.perf_counter() - started) * 1000)
            cpu[lineup[seat]].append((time.thread_time() - started_cpu) * 1000)
            state.apply(action)
        raise RuntimeError("a hand did not end")

    def count_hand(self, state, lineup: list[str]) -> dict[str, float]:
        """Bank a finished hand's bidding and penalties; the score per line-up."""
        t, result = self.tally, state.result()
        t.hands += 1
        game, info = self.game, self.game.info
        sides: dict[str, list[int]] = {"a": [], "b": []}
        for seat, who in enumerate(lineup):
            side = game.side_of(seat)
            if side not in sides[who]:
                sides[who].append(side)
        bidder = getattr(state, "bidder", None)
        if info.contract and bidder is not None and not result.thrown_in:
            who = lineup[bidder]
            t.bids[who] += 1
            t.made[who] += bool(result.made)
        per = {who: sum(result.score[s] for s in ss) / len(ss) for who, ss in sides.items()}
        if info.lower_wins:
            for who in ("a", "b"):
                t.penalty[who] += per[who]
        return per

    def play_game(self, index: int) -> None:
        lineup = self.lineup(index)
        bots = self.bots(index, lineup)
        match = Match(self.game, self.table_seed(index))
        for _ in range(MAX_HANDS_PER_GAME):
            state = match.start_hand()
            self.play_hand(state, bots, lineup)
            self.count_hand(state, lineup)
            match.finish_hand()
            if match.is_over:
                break
        self.record(index, lineup, match.scores, match.winner)

    def play_single_hand(self, index: int) -> None:
        lineup = self.lineup(index)
        bots = self.bots(index, lineup)
        seed = self.table_seed(index)
        state = self.game.deal(derive_seed(seed, "hand", 0), self.game.first_dealer(seed))
        self.play_hand(state, bots, lineup)
        per = self.count_hand(state, lineup)
        better = per["a"] < per["b"] if self.game.info.lower_wins else per["a"] > per["b"]
        self.tally.games += 1
        if per["a"] == per["b"]:
            self.tally.ties += 1
            self.tally.wins += 0.5
        elif better:
            self.tally.wins += 1
        self.tally.margins.append(per["a"] - per["b"])

    def record(self, index: int, lineup: list[str], scores: list[int], winner: int | None) -> None:
        t, game = self.tally, self.game
        t.games += 1
        side_a = [game.side_of(s) for s, who in enumerate(lineup) if who == "a"]
        side_b = sorted({game.side_of(s) for s, who in enumerate(lineup) if who == "b"})
        if winner is None:
            t.ties += 1
            t.wins += 0.5
        elif winner in side_a:
            t.wins += 1
        score_a = scores[side_a[0]]
        score_b = sum(scores[s] for s in side_b) / len(side_b)
        t.margins.append(score_a - score_b)

    # -- the report ------------------------------------------------------------------------
    def report(self) -> dict:
        t = self.tally
        lo, hi = wilson(t.wins, t.games)
        out = {
            "game": self.game.id, "ruleset": self.game.ruleset.id, "mode": self.game.mode,
            "a": self.levels["a"], "b": self.levels["b"],
            "games": t.games, "hands": t.hands, "wins_a": t.wins, "ties": t.ties,
            "win_rate_a": round(t.wins / t.games, 4) if t.games else None,
            "ci95": [round(lo, 4), round(hi, 4)],
            "margin": round(sum(t.margins) / len(t.margins), 2) if t.margins else None,
            "margin_ci95": margin_interval(t.margins, self.rotation),
            "decision_ms": _times(t.times["a"]),
            "decision_ms_b": _times(t.times["b"]),
            "decision_cpu_ms": _times(t.cpu["a"]),
            "decision_cpu_ms_b": _times(t.cpu["b"]),
            "made_rate_a": None, "made_rate_b": None,
        }
        if self.game.info.contract:
            for who in ("a", "b"):
                out[f"bid_share_{who}"] = round(t.bids[who] / t.hands, 4) if t.hands else None
                out[f"made_rate_{who}"] = round(t.made[who] / t.bids[who], 4) if t.bids[who] else None
                out[f"bids_{who}"] = t.bids[who]
        else:
            if self.game.info.lower_wins:
                out["penalty_a"] = round(t.penalty["a"] / t.hands, 3) if t.hands else None
                out["penalty_b"] = round(t.penalty["b"] / t.hands, 3) if t.hands else None
            if not self.partnerships and t.games:
                out["fair_share"] = round(1 / self.game.num_players, 4)
        return out


def margin_interval(margins: list[float], group: int) -> list[float] | None:
    """A normal 95% interval for the mean margin, its spread taken between groups of
    ``group`` consecutive games (one seat rotation over one deal: the pairing removes
    the luck of the deal from the spread); None with fewer than two groups."""
    means = [sum(margins[i:i + group]) / group for i in range(0, len(margins) - group + 1, group)]
    if len(means) < 2:
        return None
    centre = sum(means) / len(means)
    spread = math.sqrt(sum((m - centre) ** 2 for m in means) / (len(means) - 1) / len(means))
    return [round(centre - 1.96 * spread, 2), round(centre + 1.96 * spread, 2)]


def _times(values: list[float]) -> dict:
    return {"median": round(median(values), 2) if values else None,
            "p95": round(percentile(values, 0.95), 2) if values else None,
            "count": len(values)}


def run_seed(seed: int | str) -> bytes:
    """The arena's seed for a ``--seed`` (every game and bot seed is derived from it)."""
    return hashlib.sha256(f"parlour-arena/{seed}".encode()).digest()


def run(game_id: str, level_a: str, level_b: str, games: int = 0, hands: int = 0,
        seed: int | str = 0, ruleset: str | None = None, mode: str | None = None,
        common_seeds: bool = False) -> dict:
    """Play and report (the CLI's work, callable from tests)."""
    game = make_game(game_id, ruleset, mode)
    arena = Arena(game, level_a, level_b, run_seed(seed), common_seeds)
    if hands:
        for index in range(hands):
            arena.play_single_hand(index)
    else:
        for index in range(games):
            arena.play_game(index)
    return arena.report()


def format_report(r: dict) -> str:
    lines = [f"{r['game']} {r['ruleset']}{' ' + r['mode'] if r['mode'] else ''}: "
             f"A={r['a']} vs B={r['b']}, {r['games']} {'games' if r['hands'] != r['games'] else 'hands'}"
             f" ({r['hands']} hands)",
             f"A wins {r['win_rate_a']:.1%}  (95% CI {r['ci95'][0]:.1%} – {r['ci95'][1]:.1%}), "
             f"ties {r['ties']}",
             f"margin (A − B): {r['margin']}"
             + (f" (95% CI {r['margin_ci95'][0]} – {r['margin_ci95'][1]})" if r.get("margin_ci95") else "")]
    if "penalty_a" in r:
        lines.append(f"penalty per hand: A {r['penalty_a']}, B {r['penalty_b']} (lower is better)")
    for who in ("a", "b"):
        ms = r["decision_ms" if who == "a" else "decision_ms_b"]
        cpu = r["decision_cpu_ms" if who == "a" else "decision_cpu_ms_b"]
        lines.append(f"decision time {who.upper()}: median {ms['median']} ms, p95 {ms['p95']} ms "
                     f"({ms['count']} decisions); its CPU: median {cpu['median']} ms, "
                     f"p95 {cpu['p95']} ms")
    if r.get("made_rate_a") is not None or r.get("made_rate_b") is not None:
        for who in ("a", "b"):
            lines.append(f"{who.upper()} won the bid in {r[f'bid_share_{who}']:.1%} of hands, "
                         f"made it {r[f'made_rate_{who}']} of the time")
    return "\n".join(lines)


def add_match_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say what is played: the title, the two line-ups, how many games or
    hands, the seed (this command's, and ``engine.arena_runs run``'s)."""
    parser.add_argument("--game", required=True, choices=registry.TITLES)
    parser.add_argument("--ruleset")
    parser.add_argument("--mode")
    parser.add_argument("--a", required=True, type=lineup_arg,
                        help=f"a level ({', '.join(ALL_LEVELS)}), or e.g. hard,bidding=expert")
    parser.add_argument("--b", required=True, type=lineup_arg)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--hands", type=int, default=0)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--common-seeds", action="store_true",
                        help="a seat's bots share their seed in both games of a pair")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.arena", description=__doc__.splitlines()[0])
    add_match_arguments(parser)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.games and not args.hands:
        parser.error("give --games N or --hands N")
    try:
        report = run(args.game, args.a, args.b, args.games, args.hands, args.seed, args.ruleset, args.mode,
                     args.common_seeds)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
