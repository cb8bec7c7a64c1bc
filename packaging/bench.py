"""Figures for the Linux package: sizes and start-up time. A benchmark that prints what
it measured — not a test; compare runs on the same machine.

    python packaging/bench.py [--runs 7] [--bundle dist/parlour]

* sizes: the unpacked bundle, the .tar.gz and the .deb made from it (both packed into
  a temporary folder here, as ``make package``/``make deb`` pack them);
* start to lobby: ``PARLOUR_EXIT_WHEN_SHOWN=1`` runs (the app prints how long after
  exec its main window was shown), warm — after one unmeasured run — for the bundle
  and for ``python -m app``, on Xvfb (xcb, openbox) and offscreen;
* the start-up library check (app/syslibs.py): the same source start with
  ``preflight`` replaced by a no-op, alternating runs, so its cost shows as a
  difference of medians; and the check alone in a fresh interpreter.

Runs in a private network namespace (the lobby's mDNS stays off real interfaces).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))
import build  # noqa: E402 - next to this file
import deb  # noqa: E402
import xdesktop  # noqa: E402

SHOWN = re.compile(r"^shown (\d+) ms after exec$", re.MULTILINE)
WITHOUT_CHECK = ("import sys, app.syslibs; app.syslibs.preflight = lambda: None; "
                 "from app.cli import main; sys.exit(main([]))")
CHECK_ALONE = ("import time; from PySide6.QtCore import QLibraryInfo; "
               "from app.syslibs import preflight; t = time.perf_counter(); "
               "status = preflight(); print((time.perf_counter() - t) * 1000, status)")


def sizes(bundle: Path) -> None:
    print(f"bundle     {build.tree_size(bundle) / 1e6:6.1f} MB unpacked, "
          f"{sum(1 for p in bundle.rglob('*') if p.is_file())} files  ({bundle})")
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as tmp:
        started = time.monotonic()
        tarball = build.make_archive(bundle, Path(tmp) / "parlour.tar.gz")
        print(f"tar.gz     {tarball.stat().st_size / 1e6:6.1f} MB  "
              f"(packed in {time.monotonic() - started:.0f} s)")
        started = time.monotonic()
        package = deb.build_deb(bundle, Path(tmp), build.version())
        print(f".deb       {package.stat().st_size / 1e6:6.1f} MB  "
              f"(built in {time.monotonic() - started:.0f} s)", flush=True)


def shown_ms(argv: list[str], env: dict[str, str], network: list[str]) -> float:
    done = subprocess.run([*network, *argv], env={**env, "PARLOUR_EXIT_WHEN_SHOWN": "1"},
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    match = SHOWN.search(done.stdout)
    if not match:
        raise SystemExit(f"bench: no start-up time from {argv}: {done.stdout}{done.stderr}")
    return float(match[1])


def summary(values: list[float]) -> str:
    return (f"median {statistics.median(values):5.0f} ms  (min {min(values):.0f}, "
            f"max {max(values):.0f}, {len(values)} runs)")


def start_up(bundle: Path, runs: int) -> None:
    network = xdesktop.private_network()
    if network is None:
        raise SystemExit("bench: needs a private network namespace (unshare --net)")
    xdesktop.ensure_tools(install=False)
    programs = {"bundle": [str(bundle / "parlour")], "source": [sys.executable, "-m", "app"]}
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as tmp, \
            xdesktop.x_server(Path(tmp)) as display:
        home = xdesktop.app_home(Path(tmp) / "home", name="Bench")
        platforms = {"xcb": {**xdesktop.x_env(display), **home, "QT_QPA_PLATFORM": "xcb"},
                     "offscreen": {**xdesktop.x_env(display), **home,
                                   "QT_QPA_PLATFORM": "offscreen"}}
        for platform, env in platforms.items():
            for name, argv in programs.items():
                shown_ms(argv, env, network)  # warm the page cache
                values = [shown_ms(argv, env, network) for _ in range(runs)]
                print(f"start to lobby, {name:6} {platform:9}  {summary(values)}", flush=True)
        env = platforms["xcb"]
        with_check, without = [], []
        shown_ms([sys.executable, "-c", WITHOUT_CHECK], env, network)
        for _ in range(runs):
            with_check.append(shown_ms(programs["source"], env, network))
            without.append(shown_ms([sys.executable, "-c", WITHOUT_CHECK], env, network))
        print(f"library check: source xcb with it {summary(with_check)}")
        print(f"               without it         {summary(without)}")
        alone = [float(subprocess.run([sys.executable, "-c", CHECK_ALONE], env=env, cwd=ROOT,
                                      capture_output=True, text=True).stdout.split()[0])
                 for _ in range(runs)]
        print(f"               the check alone    median {statistics.median(alone):5.1f} ms "
              f"(a fresh interpreter, QtCore imported; it loads the xcb plugin's libraries, "
              f"which Qt then finds loaded)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / "parlour")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    if not (args.bundle / "parlour").is_file():
        raise SystemExit(f"bench: no bundle at {args.bundle}; `make package` first")
    sizes(args.bundle)
    start_up(args.bundle, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
