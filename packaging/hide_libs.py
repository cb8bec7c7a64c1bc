"""Run a program as if this machine lacked some shared libraries — without removing them.

The program runs in a private mount namespace where each library directory holding
one of them is replaced by an overlay with those files deleted; the machine itself,
and every other process, still sees them. This is how the checks show what a desktop
without, say, libxcb-icccm4 does with Parlour: the bundle must still open its window,
``python -m app`` must say what to install.

    python packaging/hide_libs.py libxcb-icccm.so.4 libxcb-keysyms.so.1 -- python -m app

Needs root, or a kernel that lets a user namespace mount overlays (``unshare -rm``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

LIBRARY_DIRS = ("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64", "/lib64",
                "/usr/lib", "/lib", "/usr/local/lib")


def locate(soname: str) -> list[Path]:
    """The files (the soname and its versioned names) the loader could find it by."""
    found = []
    for folder in dict.fromkeys(Path(d).resolve() for d in LIBRARY_DIRS):
        if folder.is_dir():
            found += sorted(folder.glob(f"{soname}*"))
    return found


def hidden_command(sonames: list[str], argv: list[str]) -> list[str]:
    """The command that runs ``argv`` with ``sonames`` hidden."""
    by_dir: dict[Path, list[str]] = defaultdict(list)
    for soname in sonames:
        for path in locate(soname):
            by_dir[path.parent].append(path.name)
    # The overlays' working folders live in a tmpfs on a fresh folder; once they are in
    # place it is detached and the folder removed, so nothing is left in /tmp.
    lines = ["set -e", 'top=$(mktemp -d "${TMPDIR:-/tmp}/parlour-hide.XXXXXX")',
             'mount -t tmpfs tmpfs "$top"']
    for i, (folder, names) in enumerate(sorted(by_dir.items())):
        d = shlex.quote(str(folder))
        lines += [f'mkdir "$top/u{i}" "$top/w{i}" "$top/m{i}"',
                  f'mount -t overlay overlay -o lowerdir={d},upperdir="$top/u{i}",'
                  f'workdir="$top/w{i}" "$top/m{i}"',
                  *(f'rm -f "$top/m{i}/"{shlex.quote(name)}' for name in sorted(set(names))),
                  f'mount --bind "$top/m{i}" {d}']
    lines += ['umount -l "$top"', 'rmdir "$top"', 'exec "$@"']
    prefix = ["unshare", "--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        prefix.append("--map-root-user")
    return [*prefix, "sh", "-c", "\n".join(lines), "hide_libs", *argv]


def unavailable_reason() -> str | None:
    """None if libraries can be hidden here, else why not."""
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None:
        return "hiding libraries needs Linux and unshare (util-linux)"
    # libz: on every system, and not something `true` needs
    probe = subprocess.run(hidden_command(["libz.so.1"], ["true"]), capture_output=True,
                           text=True)
    if probe.returncode != 0:
        return f"cannot make a private mount namespace here: {probe.stderr.strip()[-200:]}"
    return None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv or argv.index("--") == 0 or argv[-1] == "--":
        print(__doc__.split("\n\n")[2], file=sys.stderr)
        return 2
    split = argv.index("--")
    return subprocess.run(hidden_command(argv[:split], argv[split + 1:])).returncode


if __name__ == "__main__":
    sys.exit(main())
