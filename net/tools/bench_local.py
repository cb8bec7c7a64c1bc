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
from collections.abc import Callable

from net.sessions.facade import EventCallback
from net.sessions.local import LocalSession
from net.sessions.session import HostedSession


class _LoggedAs(HostedSession):
    """A hosted session whose table log is written with durability ``log_sync`` (None:
    the store's default), set on the core's files as the core is made, before its table
    opens them."""

    log_sync: str | None = None

    def __init__(self, on_event: EventCallback, name: str, core_factory: Callable):
        def made(emit):
            core = core_factory(emit)
            if self.log_sync is not None:
                core.files.sync = self.log_sync
            return core
        super().__init__(on_event, name, made)


class _BenchSession(LocalSession, _LoggedAs):
    """The app's ``LocalSession``, its table log written with durability ``log_sync``
    (this bench only: it measures what each costs). ``LocalSession`` hands its core
    factory to ``_LoggedAs``, next in the method order."""

    def __init__(self, on_event: EventCallback, settings: dict, log_sync: str | None, *,
                 home: str, bot_delay: float, autoplay: bool, table_seed: bytes):
        self.log_sync = log_sync
        super().__init__(on_event, settings, home=home, bot_delay=bot_delay, autoplay=autoplay,
                         table_seed=table_seed)

from net.sessions.facade import Event


def play(hands: int, game: str, sync: str | None, home: str) -> list[tuple[float, int]]:
    """(seconds, decisions) for each hand."""
    done = threading.Event()
    events: list[Event] = []

    def on_event(event: Event) -> None:
        events.append(event)
        if event["type"] == "hand_over":
            done.set()

    session = _BenchSession(on_event, {"game": game}, sync, home=home, bot_delay=0,
                            autoplay=True, table_seed=bytes(32))
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
