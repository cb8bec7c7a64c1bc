"""``python -m engine.arena_runs``: a long arena run in resumable chunks, and its summary.

    python -m engine.arena_runs run OUT.jsonl --game somerset --a expert --b hard --games 200
    python -m engine.arena_runs summary OUT.jsonl [MORE.jsonl ...] [--json]

``run`` splits the run's games (or ``--hands`` single hands) into chunks of ``--chunk``
consecutive game numbers, a whole number of seat rotations so that both line-ups meet
each deal, and plays them in order, appending each finished chunk to ``OUT.jsonl`` as one
JSON line (its configuration, its range of game numbers, everything the arena counted
for it, decision times included). Games are numbered and seeded exactly as in
``engine.arena`` (``--seed``), so a chunk's games are the same whichever process plays
them. Stopped at any moment, the same command picks up where it left off: chunks already
in the file are skipped, and only the chunk under way is lost. A larger ``--games`` later
extends the run with more chunks, and ``--max-chunks K`` stops after K new ones, so that
two runs can take turns one process at a time (a shell loop: docs/benchmarks.md has the
one the expert's games run in).

``summary`` sums the chunks of each configuration found and prints the arena's report
for the sum: the win rate with its Wilson 95% interval, the margin, bids won and made,
and the decision-time percentiles (the deciding thread's CPU and the clock) over every
decision of every chunk, with how many chunks and which game numbers it covers, and the
load average the chunks started at (the clock counts other jobs' work too).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from .arena import Arena, Tally, add_match_arguments, format_report, run_seed
from .registry import make_game


def config_of(args) -> dict:
    """What makes two chunks part of one run (a ``--label``, say the commit, keeps runs of
    different code apart)."""
    config = {"game": args.game, "ruleset": args.ruleset, "mode": args.mode, "a": args.a, "b": args.b,
              "seed": str(args.seed), "unit": "hands" if args.hands else "games"}
    if args.label:
        config["label"] = args.label
    if args.common_seeds:  # (left out otherwise, so that earlier runs' chunks still match)
        config["common_seeds"] = True
    return config


def chunks(total: int, size: int) -> list[tuple[int, int]]:
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def read_lines(path: Path) -> list[dict]:
    """The chunks in ``path`` (none when it does not exist); a line cut short by a crash
    mid-write is skipped."""
    if not path.exists():
        return []
    found = []
    for line in path.read_text().splitlines():
        try:
            found.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return found


def play_chunk(config: dict, start: int, end: int) -> dict:
    """Play game numbers ``start``…``end - 1`` of the run; its line."""
    game = make_game(config["game"], config["ruleset"], config["mode"])
    arena = Arena(game, config["a"], config["b"], run_seed(config["seed"]), config.get("common_seeds", False))
    load, started = os.getloadavg()[0], time.time()
    for index in range(start, end):
        if config["unit"] == "hands":
            arena.play_single_hand(index)
        else:
            arena.play_game(index)
    return {"config": config, "start": start, "end": end, "load": round(load, 2),
            "seconds": round(time.time() - started, 1), "counted": arena.tally.to_json()}


def append_line(path: Path, text: str) -> None:
    """Append one line in one write call, on a line of its own even after a line a
    killed run left cut short; on the disk before the next chunk starts."""
    cut_short = path.exists() and path.stat().st_size and path.read_bytes()[-1:] != b"\n"
    with path.open("ab", buffering=0) as f:
        f.write((("\n" if cut_short else "") + text + "\n").encode())
        os.fsync(f.fileno())


def run(args) -> int:
    config = config_of(args)
    total = args.hands or args.games
    game = make_game(args.game, args.ruleset, args.mode)
    rotation = 2 if game.partnerships else game.num_players
    if args.chunk % rotation:
        print(f"--chunk must be a multiple of {rotation} (a whole seat rotation)", file=sys.stderr)
        return 2
    out = Path(args.out)
    done = {(c["start"], c["end"]) for c in read_lines(out) if c.get("config") == config}
    todo = [c for c in chunks(total, args.chunk) if c not in done][:args.max_chunks or None]
    print(f"{len(done)} chunks already in {out}; {len(todo)} to play", flush=True)
    for start, end in todo:
        line = play_chunk(config, start, end)
        append_line(out, json.dumps(line))
        t = line["counted"]
        print(f"games {start}-{end - 1}: A won {t['wins']} of {t['games']} "
              f"({line['seconds']} s, load {line['load']})", flush=True)
    return 0


def summarise(lines: list[dict]) -> list[dict]:
    """One report per configuration found in ``lines``, in the order first seen."""
    groups: dict[str, list[dict]] = {}
    for line in lines:
        groups.setdefault(json.dumps(line["config"], sort_keys=True), []).append(line)
    reports = []
    for group in groups.values():
        config = group[0]["config"]
        seen: dict[tuple[int, int], dict] = {}
        for line in group:
            seen.setdefault((line["start"], line["end"]), line)  # (a chunk written twice counts once)
        tally = Tally()
        for line in seen.values():
            tally.add(line["counted"])
        game = make_game(config["game"], config["ruleset"], config["mode"])
        arena = Arena(game, config["a"], config["b"], run_seed(config["seed"]))
        arena.tally = tally
        report = arena.report()
        loads = [line["load"] for line in seen.values()]
        report.update(seed=config["seed"], label=config.get("label"), chunks=len(seen), covered=_ranges(list(seen)),
                      load=[min(loads), max(loads)],
                      cpu_hours=round(sum(line["seconds"] for line in seen.values()) / 3600, 2))
        reports.append(report)
    return reports


def _ranges(spans: list[tuple[int, int]]) -> list[list[int]]:
    """The game numbers covered, as [first, last] runs."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end - 1)
        else:
            merged.append([start, end - 1])
    return merged


def summary(args) -> int:
    lines = [line for path in args.files for line in read_lines(Path(path))]
    reports = summarise(lines)
    if args.json:
        print(json.dumps(reports))
        return 0
    for report in reports:
        covered = ", ".join(f"{a}–{b}" for a, b in report["covered"])
        print(format_report(report))
        label = f" ({report['label']})" if report["label"] else ""
        print(f"seed {report['seed']}{label}: {report['chunks']} chunks, game numbers {covered}; "
              f"load average {report['load'][0]}–{report['load'][1]} as chunks started; "
              f"{report['cpu_hours']} h on the clock\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.arena_runs",
                                     description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("run", help="play the chunks not yet in OUT")
    play.add_argument("out")
    add_match_arguments(play)
    play.add_argument("--chunk", type=int, default=4, help="games (or hands) a chunk")
    play.add_argument("--label", help="kept with the run (e.g. the commit): runs of other labels "
                                      "are summed apart")
    play.add_argument("--max-chunks", type=int, default=0,
                      help="stop after this many new chunks (to take turns with another run)")
    total = commands.add_parser("summary", help="sum the chunks and report")
    total.add_argument("files", nargs="+")
    total.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "summary":
        return summary(args)
    if not args.games and not args.hands:
        parser.error("give --games N or --hands N")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
