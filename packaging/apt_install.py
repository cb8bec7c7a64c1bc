"""Install the Debian packages a build or a check needs, when they are missing.

``make package`` needs the X11 libraries it bundles, ``make check-package`` an X server
and a window manager, ``make check-deb`` apt itself. On Debian and Ubuntu as root (CI)
``ensure`` installs what is missing with ``apt-get install --no-install-recommends``,
refreshing the package lists only if that fails (a fresh machine has none); anywhere
else it raises ``AptError`` with the command to run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable


class AptError(RuntimeError):
    """Packages are missing and could not be installed (the message says what to run)."""


def missing(packages: Iterable[str]) -> list[str]:
    """Which of ``packages`` dpkg does not have installed (all of them without dpkg)."""
    packages = list(dict.fromkeys(packages))
    if not packages or shutil.which("dpkg-query") is None:
        return packages
    done = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${db:Status-Status}\\n",
                           *packages], capture_output=True, text=True)
    installed = {line.split()[0].split(":")[0] for line in done.stdout.splitlines()
                 if line.endswith(" installed")}
    return [name for name in packages if name not in installed]


def why_not() -> str | None:
    """None if this process can install packages with apt-get, else why not."""
    if shutil.which("apt-get") is None:
        return "this is not a Debian-based system (no apt-get)"
    if os.geteuid() != 0:
        return "installing packages needs root"
    return None


def ensure(packages: Iterable[str], why: str, log=print) -> list[str]:
    """Install whichever of ``packages`` are missing; returns those it installed."""
    needed = missing(packages)
    if not needed:
        return []
    reason = why_not()
    if reason:
        raise AptError(f"{why} needs {' '.join(needed)}, and {reason}: run\n"
                       f"    sudo apt-get install {' '.join(needed)}")
    log(f"apt: installing {' '.join(needed)} ({why})")
    command = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *needed]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if _quiet(command, env).returncode != 0:
        # A fresh machine has no package lists yet; refresh them only when needed.
        update = _quiet(["apt-get", "update", "-q"], env)
        done = _quiet(command, env) if update.returncode == 0 else update
        if done.returncode != 0:
            raise AptError(f"{why}: `{' '.join(command)}` failed:\n{done.stdout[-2000:]}")
    return needed


def _quiet(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          stdin=subprocess.DEVNULL, text=True)


def main(argv: list[str] | None = None) -> int:
    """``python packaging/apt_install.py WHY PACKAGE...``: install what is missing."""
    import sys
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        print("usage: apt_install.py WHY PACKAGE...")
        return 2
    try:
        ensure(args[1:], args[0])
    except AptError as exc:
        print(exc)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
