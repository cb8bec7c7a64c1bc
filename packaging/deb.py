"""The Debian package: ``dist/parlour_<version>_<arch>.deb`` from the built bundle
(``make deb``), and its install/self-test/remove check (``make check-deb``).

What it installs:

    /opt/parlour/                              the bundle (dist/parlour/, less install.sh)
    /usr/bin/parlour -> /opt/parlour/parlour
    /usr/share/applications/parlour.desktop    the entry install.sh writes for a bundle
                                               in /opt/parlour: the same menu entry
    /usr/share/icons/hicolor/{scalable,256x256}/apps/parlour.{svg,png}

``Depends:`` lists exactly the packages of the libraries the bundle leaves to the system
(those on the exclude list that its files need; packaging/linux_libs.py), libc6 at
least at the build machine's version. No maintainer scripts: dpkg's triggers refresh
the menu and icon caches where a desktop has them, and removal leaves nothing behind.

    python packaging/deb.py [--bundle dist/parlour] [--out dist]   # build
    python packaging/deb.py --check                                # build, then as root:
        apt-get install ./dist/parlour_*.deb; parlour --self-test; apt-get remove parlour;
        nothing of it left. Skipped, saying why, when not root or without apt.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))
import apt_install  # noqa: E402 - next to this file
import linux_libs  # noqa: E402

PACKAGE = "parlour"
PREFIX = "/opt/parlour"
EXE = f"{PREFIX}/parlour"
DESKTOP_TEMPLATE = ROOT / "assets" / "parlour.desktop"
ICONS = {"scalable": ROOT / "assets" / "icons" / "parlour.svg",
         "256x256": ROOT / "assets" / "icons" / "parlour.png"}
MAINTAINER = "Parlour developers <parlour@users.noreply.github.com>"
DESCRIPTION = """\
trick-taking card games with family and friends on a home network
 Parlour plays Somerset, Rook and Horseshoes at one table or across the
 house: one person hosts, the others join from the lobby, bots fill empty
 seats. Every deal is provably fair and every hand can be replayed."""


def architecture() -> str:
    """dpkg's name for this machine's architecture."""
    if shutil.which("dpkg"):
        return subprocess.run(["dpkg", "--print-architecture"], capture_output=True,
                              text=True, check=True).stdout.strip()
    return {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())


def deb_name(version: str, arch: str) -> str:
    return f"{PACKAGE}_{version}_{arch}.deb"


def desktop_entry(template: str, exe: str) -> str:
    """The menu entry for the program at ``exe`` — what packaging/install.sh writes:
    Exec= quoted as the Desktop Entry spec asks (then its string escapes), TryExec=
    right after Type=."""
    def quoted(path: str) -> str:
        out = "".join("\\\\\\\\" if c == "\\" else ("\\\\" + c if c in '"`$' else c)
                      for c in path)
        return f'"{out}"'

    lines = []
    for line in template.splitlines():
        if line.startswith("Exec="):
            lines.append(f"Exec={quoted(exe)}")
            continue
        if line.startswith("TryExec="):
            continue
        lines.append(line)
        if line.startswith("Type="):
            lines.append(f"TryExec={exe}")
    return "\n".join(lines) + "\n"


def depends(bundle: Path) -> list[str]:
    """The Debian packages of the libraries the bundle takes from the system."""
    sonames = linux_libs.system_sonames(bundle)
    packages, unknown = linux_libs.debian_packages(sonames)
    if unknown:
        raise SystemExit(f"deb: no Debian package known for {', '.join(unknown)}: "
                         "add it to app/syslibs.py's PACKAGES")
    glibc = os.confstr("CS_GNU_LIBC_VERSION").split()[-1]  # "glibc 2.36"
    return [f"libc6 (>= {glibc})" if name == "libc6" else name for name in packages]


def control(version: str, arch: str, depends_on: list[str], installed_kib: int) -> str:
    return (f"Package: {PACKAGE}\nVersion: {version}\nArchitecture: {arch}\n"
            f"Maintainer: {MAINTAINER}\nInstalled-Size: {installed_kib}\n"
            f"Depends: {', '.join(depends_on)}\nSection: games\nPriority: optional\n"
            f"Description: {DESCRIPTION}\n")


def stage(bundle: Path, root: Path) -> None:
    """Lay the package's files out under ``root`` (hard links to the bundle's files
    where possible: nothing is copied twice)."""
    def link_or_copy(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(bundle, root / PREFIX.lstrip("/"), symlinks=True,
                    copy_function=link_or_copy, ignore=shutil.ignore_patterns("install.sh"))
    (root / "usr" / "bin").mkdir(parents=True)
    (root / "usr" / "bin" / PACKAGE).symlink_to(EXE)
    apps = root / "usr" / "share" / "applications"
    apps.mkdir(parents=True)
    (apps / "parlour.desktop").write_text(desktop_entry(DESKTOP_TEMPLATE.read_text(), EXE))
    for size, icon in ICONS.items():
        folder = root / "usr" / "share" / "icons" / "hicolor" / size / "apps"
        folder.mkdir(parents=True)
        shutil.copy(icon, folder / icon.name)


def build_deb(bundle: Path, out_dir: Path, version: str) -> Path:
    """``<out_dir>/parlour_<version>_<arch>.deb`` from ``bundle``."""
    if not (bundle / "parlour").is_file():
        raise SystemExit(f"deb: no bundle at {bundle}; build it first (make deb or make check-package)")
    arch = architecture()
    out = out_dir / deb_name(version, arch)
    with tempfile.TemporaryDirectory(prefix="parlour-deb-", dir=out_dir) as tmp:
        root = Path(tmp) / "root"
        stage(bundle, root)
        files = sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink())
        kib = sum(-(-p.stat().st_size // 1024) for p in files)
        (root / "DEBIAN").mkdir()
        (root / "DEBIAN" / "control").write_text(control(version, arch, depends(bundle), kib))
        (root / "DEBIAN" / "md5sums").write_text("".join(
            f"{hashlib.md5(p.read_bytes()).hexdigest()}  {p.relative_to(root)}\n"
            for p in files if "DEBIAN" not in p.parts))
        for path in [root, *root.rglob("*")]:  # dpkg-deb wants 0755 folders, no group write
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        # gzip: every dpkg reads it, and -z6 packs the 100 MB in seconds (xz takes a minute)
        subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "-z6", "--build",
                        str(root), str(out)], check=True, stdout=subprocess.DEVNULL)
    return out


# -- the check: install, self-test, remove ---------------------------------------------------

def check_deb(deb: Path) -> bool:
    """Install ``deb`` with apt-get, self-test it, remove it, and look for leftovers."""
    reason = apt_install.why_not()
    if reason:
        print(f"check-deb: skipped — installing a package needs root and apt-get ({reason}); "
              "CI runs this as root", flush=True)
        return True
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    env.pop("QT_QPA_PLATFORM", None)
    installed = False
    try:
        _apt(["install", "-y", "-q", "--no-install-recommends", str(deb.resolve())], env)
        installed = True
        files = subprocess.run(["dpkg", "-L", PACKAGE], capture_output=True, text=True,
                               check=True).stdout.split()
        where = shutil.which(PACKAGE, path="/usr/bin")
        with tempfile.TemporaryDirectory(prefix="parlour-deb-home-") as home:
            test = subprocess.run([PACKAGE, "--self-test"], env={**env, "HOME": home},
                                  capture_output=True, text=True, timeout=300)
        print(test.stdout, end="", flush=True)
        if test.returncode != 0 or where != "/usr/bin/parlour":
            print(f"check-deb: FAILED — the installed parlour ({where}) self-test exited "
                  f"{test.returncode}\n{test.stderr[-2000:]}", flush=True)
            return False
    finally:
        if installed:
            _apt(["remove", "-y", "-q", PACKAGE], env)
    left = leftovers(files)
    if left:
        print(f"check-deb: FAILED — left behind after apt-get remove: {', '.join(left[:10])}",
              flush=True)
        return False
    print(f"check-deb: ok — {deb.name} installed ({len(files)} paths), self-tested, removed "
          "with nothing left behind", flush=True)
    return True


def leftovers(files: list[str]) -> list[str]:
    """What is still there of an uninstalled package: dpkg's record, any of its files,
    anything under /opt/parlour (a cache written at run time would be)."""
    left = []
    status = subprocess.run(["dpkg-query", "-W", "-f", "${db:Status-Status}", PACKAGE],
                            capture_output=True, text=True).stdout.strip()
    if status not in ("", "not-installed"):
        left.append(f"dpkg status {status!r}")
    if os.path.lexists(PREFIX):
        left.append(PREFIX)
    left += [path for path in files if not path.startswith(PREFIX)
             and os.path.lexists(path) and not os.path.isdir(path)]
    return left


#: apt-get waits this long (seconds) for dpkg's lock rather than failing at once: another
#: checkout's make test on the same machine may be installing its own .deb.
APT = ["apt-get", "-o", "DPkg::Lock::Timeout=300"]


def _apt(args: list[str], env: dict[str, str]) -> None:
    done = subprocess.run([*APT, *args], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0 and args[0] == "install":
        # a fresh machine has no package lists for the dependencies yet
        subprocess.run([*APT, "update", "-q"], env=env, capture_output=True)
        done = subprocess.run([*APT, *args], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        raise SystemExit(f"check-deb: apt-get {' '.join(args)} failed:\n{done.stdout[-3000:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / "parlour")
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--check", action="store_true",
                        help="then install it with apt-get, self-test it and remove it (root)")
    args = parser.parse_args(argv)
    import build

    started = time.monotonic()
    deb = build_deb(args.bundle, args.out, build.version())
    print(f"deb: {deb} — {deb.stat().st_size / 1e6:.1f} MB, built in "
          f"{time.monotonic() - started:.0f} s", flush=True)
    if args.check:
        return 0 if check_deb(deb) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
