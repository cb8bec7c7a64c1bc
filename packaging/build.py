"""Build the Parlour bundle and its archive: ``python packaging/build.py`` (``make package``).

1. makes sure PyInstaller is installed (the ``package`` extra of pyproject.toml, which
   ``make`` installs into .venv from uv.lock); on Linux, that this machine has every library the bundle must carry (the X11
   helpers Qt's xcb plugin needs …; packaging/linux_libs.py) — ``--install-deps``
   installs their Debian packages when missing (root, apt), else the build stops
   naming the libraries and the packages;
2. runs packaging/parlour.spec into ``dist/parlour/`` (work files in ``build/``), and
   fails if PyInstaller could not find a library the bundle must carry;
3. copies packaging/install.sh next to the ``parlour`` executable;
4. packs ``dist/parlour-<version>-<os>-<arch>.tar.gz`` (``.zip`` on Windows), whose
   one top-level folder is ``parlour/``;
5. prints what it measured: build time, unpacked size, archive size.

Python rather than shell so that the same script builds on Windows in CI. The archive
.tar.gz is reproducible for a given bundle: members are sorted, owned by root and
dated by ``SOURCE_DATE_EPOCH`` (0 when unset), so packing the same bundle twice gives
the same bytes.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "parlour.spec"
INSTALLER = ROOT / "packaging" / "install.sh"
BUNDLE_NAME = "parlour"


def version() -> str:
    """The version in pyproject.toml — the one source; installed metadata can lag."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["version"]


def platform_tag(system: str | None = None, machine: str | None = None) -> str:
    """``linux-x86_64``, ``windows-amd64``, ``macos-arm64`` …"""
    system = (system or platform.system()).lower()
    machine = (machine or platform.machine()).lower()
    return f"{'macos' if system == 'darwin' else system}-{machine}"


def archive_name(ver: str, tag: str) -> str:
    suffix = ".zip" if tag.startswith("windows") else ".tar.gz"
    return f"{BUNDLE_NAME}-{ver}-{tag}{suffix}"


def ensure_pyinstaller() -> None:
    """Stop, saying how to install it, if this interpreter has no PyInstaller.

    Not installed here on the spot: the bundle is built from the releases uv.lock pins,
    and ``make`` is what installs those (the ``package`` extra is part of .venv)."""
    if importlib.util.find_spec("PyInstaller") is None:
        raise SystemExit(f"build: PyInstaller is not installed in {sys.executable}. "
                         "`make package` builds with .venv, which `make` installs from "
                         "uv.lock, PyInstaller included (pyproject's 'package' extra).")


def run_pyinstaller(dist: Path, work: Path, log: Path) -> None:
    """Build the one-folder bundle; PyInstaller's output goes to ``log``."""
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
               "--log-level", "WARN", "--distpath", str(dist), "--workpath", str(work),
               str(SPEC)]
    work.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as out:
        done = subprocess.run(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode:
        sys.stdout.write(log.read_text()[-4000:])
        raise SystemExit(f"build: PyInstaller failed (full log: {log})")


def unresolved_libraries(log: Path) -> list[str]:
    """Libraries PyInstaller could not find, from its log. Excluded ones (left to the
    user's system) are never reported, so each of these is one the bundle lacks."""
    marker = "could not resolve '"
    found = {line.split(marker, 1)[1].split("'", 1)[0]
             for line in log.read_text(errors="replace").splitlines() if marker in line}
    return sorted(found)


def missing_libraries_message(sonames: list[str]) -> str:
    """Which libraries the bundle must carry and this machine lacks, and what to install."""
    import linux_libs

    packages, unknown = linux_libs.debian_packages(sonames)
    width = max(map(len, sonames))
    lines = ["build: the bundle must carry these libraries, and this machine does not "
             "have them:"]
    for name in sonames:
        package = linux_libs.debian_packages([name])[0]
        lines.append(f"    {name:{width}}  " + (f"(Debian package {package[0]})" if package
                                                  else "(no Debian package known)"))
    if packages:
        lines.append(f"Install them with `sudo apt-get install {' '.join(packages)}` "
                     "(`make package` does this itself when run as root).")
    if unknown:
        lines.append(f"Find the package for {', '.join(unknown)} with "
                     "`apt-file search` or your distribution's equivalent.")
    return "\n".join(lines)


def ensure_libraries(install: bool) -> None:
    """Linux: stop before building if a library the bundle must carry is missing here,
    installing its Debian package first when ``install`` (and root, and apt) allow."""
    if not sys.platform.startswith("linux"):
        return
    import apt_install
    import linux_libs

    missing = linux_libs.missing_build_libraries()
    if missing and install:
        packages, _unknown = linux_libs.debian_packages(missing)
        try:
            apt_install.ensure(packages, "the bundle's libraries")
        except apt_install.AptError as exc:
            print(f"build: {exc}", flush=True)
        missing = linux_libs.missing_build_libraries()
    if missing:
        raise SystemExit(missing_libraries_message(missing))


def tree_size(path: Path) -> int:
    """Bytes in regular files under ``path`` (symlinks counted as nothing)."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def _tar_filter(epoch: int):
    def clean(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        info.mtime = epoch
        return info
    return clean


def make_archive(bundle: Path, out: Path, epoch: int = 0) -> Path:
    """Pack ``bundle`` as ``<bundle.name>/…`` into ``out`` (.tar.gz or .zip)."""
    members = sorted(bundle.rglob("*"))
    if out.name.endswith(".zip"):
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in members:
                zf.write(path, Path(bundle.name) / path.relative_to(bundle))
        return out
    # gzip's own header carries a date and a file name: pin both. Level 6
    # (gzip's default) packs 100 MB twice as fast as 9 for about 1% more bytes.
    with open(out, "wb") as raw, \
            gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=epoch,
                          compresslevel=6) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
        tar.add(bundle, arcname=bundle.name, recursive=False, filter=_tar_filter(epoch))
        for path in members:
            tar.add(path, arcname=f"{bundle.name}/{path.relative_to(bundle).as_posix()}",
                    recursive=False, filter=_tar_filter(epoch))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the Parlour bundle and archive.")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--work", type=Path, default=ROOT / "build")
    parser.add_argument("--no-archive", action="store_true", help="only the bundle")
    parser.add_argument("--max-mb", type=float,
                        help="fail if the unpacked bundle is bigger (make check-package: 100)")
    parser.add_argument("--install-deps", action="store_true",
                        help="Linux: install the Debian packages of libraries the bundle "
                             "carries when they are missing (needs root and apt-get)")
    args = parser.parse_args(argv)

    started = time.monotonic()
    ensure_pyinstaller()
    ensure_libraries(args.install_deps)
    log = args.work / "pyinstaller.log"
    run_pyinstaller(args.dist, args.work, log)
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("parlour.spec:"):  # what the spec decided (libraries left out …)
            print(f"build: {line}", flush=True)
    missing = unresolved_libraries(log)
    if missing:  # the check above knows Qt's needs; this catches anyone else's
        raise SystemExit(missing_libraries_message(missing))
    bundle = args.dist / BUNDLE_NAME
    shutil.copy2(INSTALLER, bundle / INSTALLER.name)
    built, size_mb = time.monotonic() - started, tree_size(bundle) / 1e6
    print(f"build: bundle {bundle} — {size_mb:.1f} MB unpacked, built in {built:.0f} s",
          flush=True)
    if args.max_mb is not None and size_mb > args.max_mb:
        raise SystemExit(f"build: the bundle grew past {args.max_mb:g} MB — see "
                         "packaging/README.md, 'Keeping it lean'")
    if not args.no_archive:
        epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "0"))
        out = make_archive(bundle, args.dist / archive_name(version(), platform_tag()), epoch)
        print(f"build: archive {out} — {out.stat().st_size / 1e6:.1f} MB, "
              f"{time.monotonic() - started:.0f} s in all", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
