"""Where a test run's time went, from what it recorded (``PARLOUR_TEST_CPU=FILE pytest ...``,
tests/conftest.py): CPU and waiting by file and by test, largest first, and with
``--timeline`` how busy the workers and the cores were over the run.

    python tests/cpu_table.py FILE [--top N] [--by cpu|wait|wall|queued] [--timeline [--step S]]

Each line of FILE is ``<cpu>\\t<worker>\\t<start>\\t<end>\\t<queued>\\t<node id>`` (an older
recording's ``<cpu>\\t<node id>`` has CPU only). A test's *waiting* is its wall time less
its CPU and less the time its worker was ready but queued for a core (the machine's
load): time it spent on a timer, a socket, a process starting (the processes it starts
queue too, uncounted). A test recorded twice (two runs appended to one file) counts
twice.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Record:
    """One test's line: its CPU seconds and, in a newer recording, where and when it ran."""

    nodeid: str
    cpu: float
    worker: str = ""
    start: float = 0.0
    end: float = 0.0
    queued: float = 0.0

    @property
    def file(self) -> str:
        return self.nodeid.split("::", 1)[0]

    @property
    def wall(self) -> float:
        return self.end - self.start

    @property
    def timed(self) -> bool:
        return bool(self.worker)


def parse(line: str) -> Record | None:
    fields = line.split("\t")
    if len(fields) >= 6:
        cpu, worker, start, end, queued = fields[:5]
        return Record("\t".join(fields[5:]), float(cpu), worker, float(start), float(end),
                      float(queued))
    if len(fields) == 2 and fields[1]:
        return Record(fields[1], float(fields[0]))
    return None


def read(path: Path) -> list[Record]:
    return [record for line in path.read_text().splitlines() if (record := parse(line))]


@dataclass
class Sums:
    """CPU, wall, queued and waiting seconds summed over some tests."""

    cpu: float = 0.0
    wall: float = 0.0
    queued: float = 0.0
    tests: int = 0

    @property
    def wait(self) -> float:
        return max(self.wall - self.cpu - self.queued, 0.0)

    def add(self, record: Record) -> None:
        self.cpu += record.cpu
        self.wall += record.wall
        self.queued += record.queued
        self.tests += 1


def summed(records: Iterable[Record], key) -> dict[str, Sums]:
    sums: dict[str, Sums] = defaultdict(Sums)
    for record in records:
        sums[key(record)].add(record)
    return sums


def table(title: str, rows: dict[str, Sums], top: int, by: str, timed: bool) -> str:
    total = sum(getattr(row, by) for row in rows.values()) or 1.0
    ranked = sorted(rows.items(), key=lambda item: getattr(item[1], by), reverse=True)
    head = f"{'CPU s':>8} {'wall s':>8} {'queued':>8} {'wait s':>8} {'share':>6}" if timed \
        else f"{'CPU s':>8} {'share':>6}"
    lines = [f"{title}, by {by} (top {top} of {len(rows)}):", f"{head}  name"]
    for name, row in ranked[:top]:
        share = getattr(row, by) / total
        figures = (f"{row.cpu:8.1f} {row.wall:8.1f} {row.queued:8.1f} {row.wait:8.1f} "
                   f"{share:6.1%}") if timed \
            else f"{row.cpu:8.1f} {share:6.1%}"
        lines.append(f"{figures}  {name}")
    return "\n".join(lines)


# -- the timeline ------------------------------------------------------------------------


def busy_seconds(records: Sequence[Record]) -> dict[int, float]:
    """Seconds of the run during which exactly k workers were running a test, per k."""
    events = sorted([(r.start, 1) for r in records] + [(r.end, -1) for r in records])
    spent: dict[int, float] = Counter()
    busy, since = 0, events[0][0]
    for at, change in events:
        spent[busy] += at - since
        busy, since = busy + change, at
    return spent


def tail_below(records: Sequence[Record], workers: int) -> float:
    """How long the run's end had fewer than ``workers`` workers busy: from the last
    moment that many were, to the last test's end."""
    events = sorted([(r.start, 1) for r in records] + [(r.end, -1) for r in records])
    busy, last_full = 0, events[0][0]
    for at, change in events:
        if busy >= workers:  # that many were busy until now
            last_full = at
        busy += change
    return events[-1][0] - last_full


def buckets(records: Sequence[Record], step: float) -> list[tuple[float, float, float]]:
    """Per ``step`` seconds from the first start: (offset, workers busy, cores used), a
    test's CPU spread evenly over its wall time (an estimate: a test's CPU comes in bursts)."""
    origin = min(r.start for r in records)
    count = int((max(r.end for r in records) - origin) // step) + 1
    busy, cores = [0.0] * count, [0.0] * count
    for r in records:
        rate = r.cpu / r.wall if r.wall > 0 else 0.0
        first, last = int((r.start - origin) // step), int((r.end - origin) // step)
        for i in range(first, last + 1):
            lo, hi = origin + i * step, origin + (i + 1) * step
            overlap = max(0.0, min(hi, r.end) - max(lo, r.start))
            busy[i] += overlap / step
            cores[i] += rate * overlap / step
    return [(i * step, busy[i], cores[i]) for i in range(count)]


def timeline(records: Sequence[Record], step: float) -> str:
    origin = min(r.start for r in records)
    span = max(r.end for r in records) - origin
    cpu = sum(r.cpu for r in records)
    lines = [f"timeline: {span:.0f} s from the first test's start to the last's end; "
             f"{cpu:.0f} s of the tests' CPU = {cpu / span:.2f} cores on average", "",
             "per worker: first start, last end (s from the first start), busy s, tests"]
    for worker, own in sorted(group(records).items()):
        lines.append(f"  {worker:>6}: {min(r.start for r in own) - origin:7.1f} "
                     f"{max(r.end for r in own) - origin:7.1f} "
                     f"{sum(r.wall for r in own):8.1f} {len(own):6d}")
    lines += ["", "workers busy at once: seconds of the run"]
    for k, seconds in sorted(busy_seconds(records).items()):
        lines.append(f"  {k}: {seconds:7.1f} s ({seconds / span:.0%})")
    lines += [f"tail with fewer than 2 workers busy: {tail_below(records, 2):.1f} s; "
              f"fewer than all {len(group(records))}: "
              f"{tail_below(records, len(group(records))):.1f} s", "",
              f"per {step:.0f} s: workers busy, cores the tests used (their CPU spread "
              "over their wall time)"]
    for offset, busy, cores in buckets(records, step):
        bar = "#" * round(cores * 10)
        lines.append(f"  {offset:6.0f} {busy:5.2f} {cores:5.2f} {bar}")
    return "\n".join(lines)


def group(records: Iterable[Record]) -> dict[str, list[Record]]:
    by_worker: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        by_worker[record.worker].append(record)
    return by_worker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--by", choices=("cpu", "wait", "wall", "queued"), default="cpu")
    parser.add_argument("--timeline", action="store_true",
                        help="how busy the workers and the cores were over the run")
    parser.add_argument("--step", type=float, default=30.0,
                        help="the timeline's bucket, seconds")
    args = parser.parse_args()
    records = read(args.file)
    timed = bool(records) and all(r.timed for r in records)
    cpu = sum(r.cpu for r in records)
    print(f"{len(records)} tests, {cpu:.1f} s of CPU in all"
          + (f", {sum(r.wall for r in records):.1f} s of wall" if timed else "") + "\n")
    if args.timeline:
        if not timed:
            raise SystemExit("--timeline: this recording has no wall times (an older one)")
        print(timeline(records, args.step))
        return
    by = args.by if timed else "cpu"
    print(table("by file", summed(records, lambda r: r.file), args.top, by, timed), end="\n\n")
    print(table("by test", summed(records, lambda r: r.nodeid), args.top, by, timed))


if __name__ == "__main__":
    main()
