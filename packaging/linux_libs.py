"""Which shared libraries the Linux bundle carries and which it takes from the system.

The rule: the bundle carries every library Qt, its xcb and Wayland plugins and the
Python extensions need, *except* those on AppImage's exclude list — the libraries
every desktop Linux has and that must match the running system (glibc, the C++
runtime, the OpenGL/EGL dispatch libraries in front of the graphics driver, libxcb and
libX11, fontconfig/freetype/harfbuzz, libz, libexpat …). PyInstaller never bundles a
few more of the same kind on its own (the rest of the Wayland client libraries,
libcrypt, the GLES and vendor driver libraries), so those count as excluded too.

``EXCLUDED`` is copied from AppImage's list: ``excludelist`` in
https://github.com/AppImageCommunity/pkg2appimage (commit 03abb125), the list
appimagetool, linuxdeploy and linuxdeployqt use. Only its active entries are here;
the ones it comments out (Pango, libnss3, Kerberos …) are bundled. ``ALSO_SYSTEM``
adds the few libraries Qt links that PySide6's own wheels take from the system as
well and that every desktop has: D-Bus, GLib and zstd (the reasons are given there).

What this module does with it:

* ``required_sonames``/``missing_build_libraries``: the libraries the build must find
  on the build machine to carry them (found by ``ldd`` over the Qt plugins and
  modules the bundle keeps), so ``build.py`` can install their Debian packages first
  or fail naming them.
* ``check_bundle``: every ELF file in a built bundle, its needs (``DT_NEEDED``) checked
  against where ``ldd`` resolves them: an excluded library may come from the system,
  anything else must resolve inside the bundle; any "not found" outside the exclude
  list fails.
* ``system_sonames``: the excluded libraries the bundle's files need — the Debian
  package's ``Depends:``.

    python packaging/linux_libs.py build-packages   # the Debian packages the build needs

packaging/check_bundle.py runs ``check_bundle`` in ``make check-package``.
"""

from __future__ import annotations

import argparse
import os
import re
import struct
import subprocess
import sys
import sysconfig
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _folder in (ROOT, HERE):  # app.syslibs; lean.py next to this file (appended: no shadowing)
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))
from app.syslibs import PACKAGES  # noqa: E402 - the one soname -> package table

EXCLUDELIST_SOURCE = ("https://github.com/AppImageCommunity/pkg2appimage/blob/"
                      "03abb125cfef25d4ad87ab206fbf186d4a18e1e1/excludelist")

# AppImage's excludelist, active entries, grouped as it groups them.
EXCLUDED: frozenset[str] = frozenset({
    # the GNU C library
    "ld-linux.so.2", "ld-linux-x86-64.so.2", "libanl.so.1", "libBrokenLocale.so.1",
    "libcidn.so.1", "libc.so.6", "libdl.so.2", "libm.so.6", "libmvec.so.1",
    "libnss_compat.so.2", "libnss_dns.so.2", "libnss_files.so.2", "libnss_hesiod.so.2",
    "libnss_nisplus.so.2", "libnss_nis.so.2", "libpthread.so.0", "libresolv.so.2",
    "librt.so.1", "libthread_db.so.1", "libutil.so.1",
    # the C++ runtime: the system's graphics drivers need its newest symbols
    "libstdc++.so.6",
    # OpenGL/EGL and the driver stack: they must match the installed driver
    "libGL.so.1", "libEGL.so.1", "libGLdispatch.so.0", "libGLX.so.0", "libOpenGL.so.0",
    "libdrm.so.2", "libglapi.so.0", "libgbm.so.1", "libxcb-dri3.so.0", "libxcb-dri2.so.0",
    # X11 core and Wayland's client library: bundled copies clash with the driver's
    "libxcb.so.1", "libX11.so.6", "libX11-xcb.so.1", "libwayland-client.so.0",
    # sound servers
    "libasound.so.2", "libjack.so.0", "libpipewire-0.3.so.0",
    # fonts: the system's configuration and caches go with its own fontconfig
    "libfontconfig.so.1", "libfreetype.so.6", "libharfbuzz.so.0", "libfribidi.so.0",
    # the base system
    "libcom_err.so.2", "libexpat.so.1", "libgcc_s.so.1", "libgpg-error.so.0",
    "libICE.so.6", "libSM.so.6", "libusb-1.0.so.0", "libuuid.so.1", "libz.so.1",
    "libgmp.so.10",
})

# Beyond AppImage's list (which leaves GLib to the AppImage, for old systems that lack
# the GLib it was built with): libraries Qt links that the PySide6 wheels on PyPI take
# from the system too, and that every desktop distribution has. Qt's wheels are built on
# an old base (manylinux_2_28), so any system's copy is new enough; carried, they and
# what only they need (libsystemd, libgcrypt, lz4, xz, libcap, pcre2) cost 5.6 MB, and a
# bundled D-Bus or GLib can clash with the system's own plugins (input methods, GIO
# modules) that load the system's copy into the same process.
ALSO_SYSTEM: frozenset[str] = frozenset({
    "libdbus-1.so.3",  # the desktop's message bus; Qt: input methods, accessibility
    "libglib-2.0.so.0", "libgthread-2.0.so.0",  # Qt Core's event loop runs on GLib's
    "libzstd.so.1",  # Zstandard: dpkg, rpm, pacman and systemd themselves need it
})

# What PyInstaller itself never collects on Linux beyond that list
# (PyInstaller.depend.dylib._unix_excludes): more of glibc, the GLES and vendor
# driver libraries, and the rest of the Wayland client libraries.
PYINSTALLER_EXCLUDED = re.compile(
    r"^(libcrypt|libnsl|libGLES(v1_CM|v2)|libxcb-dri\d*|libwayland-(cursor|egl|server)"
    r"|libcuda|libnvidia-[\w-]+|lib(EGL|GLX)_nvidia)\.so(\.[0-9.]+)?$")

_QT_OWN = ("libQt6", "libicu", "libpyside6", "libshiboken6")  # in the PySide6 wheels
_LDD_LINE = re.compile(r"^\s*(\S+)\s+=>\s+(?:(not found)|(\S+))")


def excluded(soname: str) -> bool:
    """True for a library the bundle leaves to the system."""
    return (soname in EXCLUDED or soname in ALSO_SYSTEM
            or bool(PYINSTALLER_EXCLUDED.match(soname)))


def pyinstaller_patterns() -> list[str]:
    """``EXCLUDED`` and ``ALSO_SYSTEM`` as the regular expressions PyInstaller's exclude
    list is made of (it matches them against a file's name, versioned or not)."""
    return [re.escape(name) + r"(\..*)?$" for name in sorted(EXCLUDED | ALSO_SYSTEM)]


# -- ELF and ldd ----------------------------------------------------------------------

def is_elf(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def elf_needed(path: Path) -> list[str]:
    """The ``DT_NEEDED`` entries of an ELF file: the libraries it names itself (not
    the ones they need in turn). [] for a file without a dynamic section."""
    with open(path, "rb") as f:
        ident = f.read(16)
        if ident[:4] != b"\x7fELF":
            raise ValueError(f"{path} is not an ELF file")
        wide, order = ident[4] == 2, "<" if ident[5] == 1 else ">"
        f.seek(0x20 if wide else 0x1C)
        phoff = struct.unpack(order + ("Q" if wide else "I"), f.read(8 if wide else 4))[0]
        f.seek(0x36 if wide else 0x2A)
        phentsize, phnum = struct.unpack(order + "HH", f.read(4))
        loads, dynamic = [], None
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            if wide:
                ptype, _flags, offset, vaddr, _paddr, filesz = struct.unpack(
                    order + "IIQQQQ", f.read(40))
            else:
                ptype, offset, vaddr, _paddr, filesz = struct.unpack(order + "5I", f.read(20))
            if ptype == 1:  # PT_LOAD
                loads.append((vaddr, offset, filesz))
            elif ptype == 2:  # PT_DYNAMIC
                dynamic = (offset, filesz)
        if dynamic is None:
            return []
        f.seek(dynamic[0])
        raw = f.read(dynamic[1])
        entry = struct.Struct(order + ("qQ" if wide else "iI"))
        needed, strtab = [], None
        for tag, value in entry.iter_unpack(raw[:len(raw) - len(raw) % entry.size]):
            if tag == 0:  # DT_NULL
                break
            if tag == 1:  # DT_NEEDED: an offset into the string table
                needed.append(value)
            elif tag == 5:  # DT_STRTAB: its address in memory
                strtab = value
        if strtab is None:
            return []
        base = next((offset + strtab - vaddr for vaddr, offset, size in loads
                     if vaddr <= strtab < vaddr + size), None)
        if base is None:
            raise ValueError(f"{path}: the string table is in no loaded segment")
        names = []
        for offset in needed:
            f.seek(base + offset)
            names.append(f.read(256).split(b"\0", 1)[0].decode())
        return names


def ldd(path: Path, env: dict[str, str] | None = None) -> dict[str, str | None]:
    """Where the loader finds each library ``path`` needs, directly or not
    (soname -> path, None if not found), as ``ldd`` reports it."""
    done = subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env,
                          timeout=60)
    resolved: dict[str, str | None] = {}
    for line in done.stdout.splitlines():
        match = _LDD_LINE.match(line)
        if match:
            resolved[match[1]] = None if match[2] else match[3]
    return resolved


# -- what the build must carry ----------------------------------------------------------

def pyside_dir() -> Path:
    import PySide6  # the package only: its Qt libraries are not loaded by this
    return Path(PySide6.__file__).resolve().parent


# The PySide6 modules app/ imports (tests/packaging/test_linux_libs.py keeps this true).
QT_MODULES = ("QtCore", "QtGui", "QtNetwork", "QtSvg", "QtWidgets")


def kept_qt_binaries(pyside: Path) -> list[Path]:
    """The Qt plugins the bundle keeps (lean.KEEP_PLUGINS) and the PySide6 modules
    Parlour imports: what pulls the system libraries in."""
    import lean

    plugins = sorted(p for p in (pyside / "Qt" / "plugins").rglob("*.so")
                     if lean.keep_plugin(p.relative_to(pyside.parent).as_posix()))
    return plugins + [pyside / f"{name}.abi3.so" for name in QT_MODULES]


def required_sonames(binaries: Iterable[Path], with_excluded: bool = False
                     ) -> dict[str, str | None]:
    """Every library those binaries need that the bundle must carry, with where this
    machine has it (None: it does not). Followed as PyInstaller follows it: through
    ``DT_NEEDED``, but not into excluded libraries (their needs are the system's).
    Qt's own libraries come with the wheel: followed, but not listed. With
    ``with_excluded``, the excluded libraries met are listed too: everything Qt needs
    from the system when it runs from source."""
    found: dict[str, str | None] = {}
    queue, seen = list(binaries), set()
    while queue:
        batch = [path for path in queue if path not in seen]
        seen.update(batch)
        queue = []
        for path, resolved in zip(batch, _parallel(ldd, batch)):
            for soname in elf_needed(path):
                where = resolved.get(soname)
                if excluded(soname):
                    if with_excluded and found.get(soname) is None:
                        found[soname] = where
                    continue
                if not soname.startswith(_QT_OWN) and found.get(soname) is None:
                    found[soname] = where
                if where is not None:
                    queue.append(Path(where))
    return found


def missing_build_libraries(pyside: Path | None = None, with_excluded: bool = False
                            ) -> list[str]:
    """The libraries the bundle must carry that this machine lacks (with
    ``with_excluded``: that Qt needs to run here from source), Python's own included."""
    needed = required_sonames(kept_qt_binaries(pyside or pyside_dir()), with_excluded)
    missing = sorted(soname for soname, where in needed.items() if where is None)
    python, _debian, present = python_library()
    return missing if present or with_excluded else [*missing, python]


def python_library() -> tuple[str, str | None, bool]:
    """Python's shared library, which PyInstaller bundles: (its name, the Debian package
    that provides it if this is Debian's Python, whether this machine has it).
    Debian's python3 is linked statically and ships the library separately."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    name = sysconfig.get_config_var("INSTSONAME") or ""
    if ".so" not in name:
        name = f"libpython{version}.so.1.0"
    libdir = Path(sysconfig.get_config_var("LIBDIR") or sys.base_prefix + "/lib")
    places = [libdir, libdir / (sysconfig.get_config_var("MULTIARCH") or "")]
    present = any((place / name).exists() for place in places)
    debian = f"libpython{version}" if sys.base_prefix == "/usr" else None
    return name, debian, present


def debian_packages(sonames: Iterable[str]) -> tuple[list[str], list[str]]:
    """(Debian packages for the known sonames, the sonames no package is known for)."""
    sonames = list(sonames)
    table = {name: package.debian for name, package in PACKAGES.items()}
    python, debian, _present = python_library()
    if debian:
        table[python] = debian
    known = sorted({table[name] for name in sonames if name in table})
    return known, [name for name in sonames if name not in table]


def build_packages(pyside: Path | None = None) -> list[str]:
    """The Debian packages of every library the bundle carries from the system."""
    needed = required_sonames(kept_qt_binaries(pyside or pyside_dir()))
    return debian_packages(needed)[0]


def orphans(binaries: Iterable[tuple[str, str, str]]) -> list[str]:
    """The top-level libraries in PyInstaller's binaries list (``(dest, src, kind)``)
    that nothing else in it needs, following ``DT_NEEDED``.

    PyInstaller collects a binary's dependencies from ``ldd``, which lists them all
    the way down: libqxcb.so brings libXau and libXdmcp, which only libxcb (excluded,
    the system's) needs. Bundled, they would be loaded in place of the system's own
    under the system's libxcb; so they go with the library that needed them.
    Everything below the top level (Qt, its plugins, Python's extension modules) and
    libpython (the bootloader loads it by name) is a root and stays.
    """
    entries = [(dest, src) for dest, src, kind in binaries if kind in ("BINARY", "EXTENSION")]
    top = {dest: src for dest, src in entries
           if "/" not in dest and dest.startswith("lib") and ".so" in dest
           and not dest.startswith("libpython")}
    queue = [src for dest, src in entries if dest not in top]
    reached: set[str] = set()
    while queue:
        path = Path(queue.pop())
        if not is_elf(path):
            continue
        for soname in elf_needed(path):
            if soname in top and soname not in reached:
                reached.add(soname)
                queue.append(top[soname])
    return sorted(set(top) - reached)


# -- checking a built bundle ------------------------------------------------------------

@dataclass
class BundleReport:
    files: int = 0
    # soname -> the bundle files that need it
    not_found: dict[str, set[str]] = field(default_factory=dict)       # outside the list
    from_system: dict[str, set[str]] = field(default_factory=dict)     # should be carried
    system_missing: dict[str, set[str]] = field(default_factory=dict)  # excluded, absent
    carried_excluded: list[str] = field(default_factory=list)          # excluded, bundled

    @property
    def ok(self) -> bool:
        return not (self.not_found or self.from_system or self.carried_excluded)

    def lines(self) -> list[str]:
        out = []
        for soname, users in sorted(self.not_found.items()):
            out.append(f"not found: {soname} (needed by {_few(users)}) — {_install(soname)}")
        for soname, users in sorted(self.from_system.items()):
            out.append(f"not in the bundle: {soname} resolves to the system's copy "
                       f"(needed by {_few(users)}); the bundle must carry it")
        for path in self.carried_excluded:
            out.append(f"bundled but on the exclude list (the system's must be used): {path}")
        for soname, users in sorted(self.system_missing.items()):
            out.append(f"note: {soname} is left to the system and this machine lacks it "
                       f"(needed by {_few(users)}) — {_install(soname)}")
        return out


def _few(users: set[str]) -> str:
    names = sorted(users)
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _install(soname: str) -> str:
    package = PACKAGES.get(soname)
    return f"Debian package {package.debian}" if package else "no Debian package known"


def bundle_elves(bundle: Path) -> list[Path]:
    return sorted(p for p in bundle.rglob("*")
                  if p.is_file() and not p.is_symlink() and is_elf(p))


def bundle_env(bundle: Path) -> dict[str, str]:
    """The environment the bundle's loader sees (the bootloader puts ``_internal`` on
    LD_LIBRARY_PATH before Python starts)."""
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = str(bundle / "_internal")
    return env


def check_bundle(bundle: Path) -> BundleReport:
    """``ldd`` over every ELF file in ``bundle``, each need checked (module docstring)."""
    bundle = bundle.resolve()
    env = bundle_env(bundle)
    files = bundle_elves(bundle)
    report = BundleReport(files=len(files))
    resolutions = _parallel(lambda path: ldd(path, env), files)
    for path, resolved in zip(files, resolutions):
        name = path.relative_to(bundle).as_posix()
        if excluded(path.name) or any(excluded(n) for n in _sonames_of(path)):
            report.carried_excluded.append(name)
        for soname, where in resolved.items():
            if where is None and not excluded(soname):
                report.not_found.setdefault(soname, set()).add(name)
        for soname in elf_needed(path):
            where = resolved.get(soname)
            if excluded(soname):
                if where is None and soname in resolved:
                    report.system_missing.setdefault(soname, set()).add(name)
            elif where is not None and not _inside(Path(where), bundle):
                report.from_system.setdefault(soname, set()).add(name)
    return report


def _sonames_of(path: Path) -> list[str]:
    """A bundled library is also known by its versionless-suffix name (libz.so.1.2.13
    is libz.so.1); PyInstaller collects libraries under their sonames."""
    match = re.match(r"^(.+\.so\.\d+)\.", path.name)
    return [match[1]] if match else []


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder)
    except ValueError:
        return False
    return True


def system_sonames(bundle: Path) -> list[str]:
    """The excluded libraries the bundle's files name in DT_NEEDED: what the system
    must provide (and what the Debian package depends on)."""
    needed = set()
    for path in bundle_elves(bundle):
        needed.update(name for name in elf_needed(path) if excluded(name))
    return sorted(needed)


def _parallel(function, items):
    items = list(items)
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(function, items))


# -- command line -----------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["build-packages"],
                        help="print the Debian packages of the libraries the bundle carries")
    parser.parse_args(argv)
    print(" ".join(build_packages()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
