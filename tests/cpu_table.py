"""Sum the CPU a test run recorded (``PARLOUR_TEST_CPU=FILE pytest ...``, tests/conftest.py)
by file and by test, largest first.

    python tests/cpu_table.py FILE [--top N]

Each line of FILE is ``<cpu seconds>\\t<node id>``; a test recorded twice (two runs
appended to one file) counts twice.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path


def read(path: Path) -> Counter[str]:
    """CPU seconds per test node id."""
    per_test: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        seconds, _, nodeid = line.partition("\t")
        if nodeid:
            per_test[nodeid] += float(seconds)
    return per_test


def by_file(per_test: Counter[str]) -> Counter[str]:
    per_file: Counter[str] = Counter()
    for nodeid, seconds in per_test.items():
        per_file[nodeid.split("::", 1)[0]] += seconds
    return per_file


def table(title: str, rows: Counter[str], top: int, total: float) -> str:
    lines = [f"{title} (top {top} of {len(rows)}):",
             f"{'CPU s':>8} {'share':>6}  name"]
    for name, seconds in rows.most_common(top):
        lines.append(f"{seconds:8.1f} {seconds / total:6.1%}  {name}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    per_test = read(args.file)
    total = sum(per_test.values()) or 1.0
    print(f"{len(per_test)} tests, {total:.1f} s of CPU in all\n")
    print(table("by file", by_file(per_test), args.top, total), end="\n\n")
    print(table("by test", per_test, args.top, total))


if __name__ == "__main__":
    main()
