"""The Linux checks of a built bundle that ``parlour --self-test`` cannot make
(``make check-package`` runs them after the self-test):

1. **libraries** — ``ldd`` over every ELF file: each library a file needs resolves
   inside the bundle, or is on the exclude list (packaging/linux_libs.py); nothing
   outside the list is "not found".
2. **window** — the bundle opens its lobby on a real X server (Xvfb, xcb, openbox);
   a screenshot is saved (packaging/xdesktop.py).
3. **missing system library** — on a system without a library the bundle leaves to
   the system (libX11-xcb, hidden in a private mount namespace), the bundle names it
   with the package to install and exits with status 2 instead of Qt's message.
   Needs root or user namespaces; skipped, saying why, without.
4. **across houses** — the bundle hosts a table with a code for one seat and the bundle
   takes it by that code, through a mailbox and a transit relay on 127.0.0.1 in a
   private network namespace: magic-wormhole and Dilation, which the self-test cannot
   reach (packaging/houses_check.py; skipped, saying why, without the test extra's
   servers or a namespace).

    python packaging/check_bundle.py dist/parlour [--shot dist/check-package-lobby.png]

Exit status 0 only if every check that ran passed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))
import apt_install  # noqa: E402 - next to this file
import hide_libs  # noqa: E402
import houses_check  # noqa: E402
import linux_libs  # noqa: E402
import xdesktop  # noqa: E402

# A library Qt's xcb plugin needs and the bundle leaves to the system, with its package.
HIDDEN = ("libX11-xcb.so.1", "libx11-xcb1")


def check_libraries(bundle: Path) -> bool:
    report = linux_libs.check_bundle(bundle)
    for line in report.lines():
        print(f"check-libraries: {line}")
    provided = ", ".join(linux_libs.system_sonames(bundle))
    print(f"check-libraries: {'ok' if report.ok else 'FAILED'} — {report.files} ELF files; "
          f"the system provides {provided}", flush=True)
    return report.ok


def check_window(bundle: Path, shot: Path | None) -> bool:
    try:
        xdesktop.ensure_tools(install=True)
        # what any desktop has, and the .deb depends on (a fresh CI machine may lack it)
        if apt_install.why_not() is None:
            system = linux_libs.debian_packages(linux_libs.system_sonames(bundle))[0]
            xdesktop.ensure_packages(system, "the libraries a desktop provides")
        shown = xdesktop.show_lobby([str(bundle / "parlour")], shot=shot)
    except xdesktop.DesktopError as exc:
        print(f"check-window: FAILED — {exc}", flush=True)
        return False
    print(f"check-window: ok — {xdesktop.describe(shown)}", flush=True)
    return True


def check_missing_system_library(bundle: Path) -> bool:
    soname, package = HIDDEN
    reason = hide_libs.unavailable_reason()
    if reason:
        print(f"check-missing-library: skipped — {reason}", flush=True)
        return True
    command = hide_libs.hidden_command([soname], [str(bundle / "parlour")])
    env = {"PATH": "/usr/bin:/bin", "DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    said = done.stdout + done.stderr
    if done.returncode == 2 and soname in said and f"apt install {package}" in said:
        print(f"check-missing-library: ok — without {soname} the bundle says to install "
              f"{package} and exits 2", flush=True)
        return True
    print(f"check-missing-library: FAILED — without {soname} the bundle exited "
          f"{done.returncode} and said:\n{said[-2000:]}", flush=True)
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bundle", type=Path)
    parser.add_argument("--shot", type=Path, help="where to save the lobby's screenshot")
    args = parser.parse_args(argv)
    bundle = args.bundle.resolve()
    results = [check_libraries(bundle), check_window(bundle, args.shot),
               check_missing_system_library(bundle), houses_check.check(bundle)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
