"""How long a hand against the computer takes with no pauses: the cost of the table
brain itself (signing, the log on disk, replays), which a person would feel as added
latency after each move.

    python -m net.tools.bench_local [--hands 6] [--game rook] [--sync FULL|GROUP]

Plays ``--hands`` hands with every seat a bot (``autoplay``, no thinking pause) through
``LocalSession`` — the app's own path — and prints the wall time per hand and per
decision. ``--sync`` picks the table log's durability (``store.GROUP``, the default: a
crash of the app loses nothing, a power cut at most the last move; ``store.FULL``: every
entry fsynced before it is shown, the old behaviour). Compare ratios between runs on
one machine, not absolute figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time

from net.sessions.facade import Event


def play(hands: int, game: str, sync: str | None, home: str) -> list[tuple[float, int]]:
    """(seconds, decisions) for each hand."""
    from net.sessions.local import LocalSession
    done = threading.Event()
    events: list[Event] = []

    def on_event(event: Event) -> None:
        events.append(event)
        if event["type"] == "hand_over":
            done.set()

    if sync is not None:
        _set_sync(sync)
    kwargs = {"bot_delay": 0, "autoplay": True, "table_seed": bytes(32)}
    try:
        session = LocalSession(on_event, {"game": game}, home=home, **kwargs)
    except TypeError:  # the earlier LocalSession kept nothing on disk
        session = LocalSession(on_event, {"game": game}, **kwargs)
    out = []
    try:
        for hand in range(hands):
            done.clear()
            before = len(events)
            start = time.perf_counter()
            session.start_game() if hand == 0 else session.next_hand()
            if not done.wait(120):
                raise SystemExit("a hand did not finish in 120 s")
            seconds = time.perf_counter() - start
            decisions = sum(len(e.get("events") or []) > 0 for e in events[before:]
                            if e["type"] == "state")
            out.append((seconds, decisions))
            over = [e for e in events[before:] if e["type"] == "game_over"]
            if over:
                session.rematch()
                time.sleep(0.05)
    finally:
        session.close()
    return out


def _set_sync(mode: str) -> None:
    """Every table log opened from now on with durability ``mode`` (this bench only: it
    measures what each costs)."""
    from net.sessions.table_files import TableFiles
    opened = TableFiles.__init__

    def init(self, *args, **kwargs):
        opened(self, *args, **kwargs)
        self.sync = mode
    TableFiles.__init__ = init


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--game", default="rook")
    parser.add_argument("--sync", choices=["FULL", "GROUP"], default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as home:
        os.environ.setdefault("PARLOUR_HOME", home)
        results = play(args.hands, args.game, args.sync, home)
    per_hand = [s for s, _ in results]
    per_decision = [s / max(d, 1) for s, d in results]
    print(f"{args.game}, {len(results)} hands, sync {args.sync or 'store default'}: "
          f"median {statistics.median(per_hand) * 1000:.0f} ms a hand, "
          f"{statistics.median(per_decision) * 1000:.1f} ms a decision "
          f"(decisions a hand: {', '.join(str(d) for _, d in results)})")


if __name__ == "__main__":
    main()
