"""Warm the byte-code caches once before the suite's workers start (``make test``, ``make check``).

Each pytest-xdist worker collects the whole suite. On a clean clone nothing is compiled
yet, so every worker rewrites the asserts of all ~200 test modules and compiles the
project and the libraries it imports on its own, all at once, while the first test
waits: four workers starting cold took 33.5 s of CPU, warm 14.5 s. Collecting the cold
test modules here first, in one process (~11 s of CPU: two processes took 16 s between
them, each importing the libraries and compiling the shared ones), does that work once
and writes the caches (``__pycache__``) the workers then load.

A module counts as cold when its ``__pycache__`` holds no cache at least as new as its
source: for a test module or a conftest the one pytest writes with its asserts rewritten
(``<stem>.<cache tag>-pytest-<version>.pyc``). Below ``COLD_ENOUGH`` cold test modules (a
developer's few edits between two ``make check``) the workers' own compiling costs less
than the processes this would start, and nothing is done.

    python tests/warm_bytecode.py [ROOT]

Only worth it with byte-code caches written: under ``PYTHONDONTWRITEBYTECODE`` (which
the Makefile unexports) it says so and does nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path

# Fewer cold test modules than this: left to the workers (starting a collecting process
# costs ~2 s of CPU on its own; rewriting one module's asserts ~0.03 s).
COLD_ENOUGH = 20


def is_test_module(path: Path) -> bool:
    """A module pytest collects and rewrites (pytest's default ``python_files``, and conftests)."""
    return path.name == "conftest.py" or (path.name.startswith("test_") and path.suffix == ".py")


def rewritten_cache(source: Path, cache_tag: str, pytest_version: str) -> Path:
    """Where pytest keeps ``source`` compiled with its asserts rewritten."""
    return source.parent / "__pycache__" / f"{source.stem}.{cache_tag}-pytest-{pytest_version}.pyc"


def cold_test_modules(tests: Path, cache_tag: str, pytest_version: str) -> list[Path]:
    """The test modules under ``tests`` whose rewritten cache is missing or older than them."""
    cold = []
    for source in sorted(tests.rglob("*.py")):
        if not is_test_module(source) or "__pycache__" in source.parts:
            continue
        cache = rewritten_cache(source, cache_tag, pytest_version)
        if not cache.exists() or cache.stat().st_mtime < source.stat().st_mtime:
            cold.append(source)
    return cold


def collect_command(modules: Sequence[Path]) -> list[str]:
    """A pytest collection of ``modules``: imports (so compiles and rewrites) and runs nothing."""
    return [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
            *(str(module) for module in modules)]


def main(argv: Sequence[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("warm_bytecode: PYTHONDONTWRITEBYTECODE is set, so no cache would be written; skipped")
        return 0
    cold = cold_test_modules(root / "tests", sys.implementation.cache_tag, version("pytest"))
    if len(cold) < COLD_ENOUGH:
        return 0
    started = time.monotonic()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    collected = subprocess.run(collect_command(cold), cwd=root, env=env, text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if collected.returncode != 0:
        # Not fatal: the suite collects again, and reports an error properly.
        print(f"warm_bytecode: the collection exited {collected.returncode}:\n"
              f"{collected.stderr[-2000:]}")
    print(f"warm_bytecode: {len(cold)} cold test modules collected once for the workers, "
          f"{time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
