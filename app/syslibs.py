"""The system libraries Qt's window plugins need, and a plain word when some are missing.

Qt reports a platform plugin that cannot load with a guess ("xcb-cursor0 or
libxcb-cursor0 is needed to load the Qt xcb platform plugin"), even when the library
that is really missing is another one. So before the desktop app creates its
QApplication, ``preflight`` loads the plugin Qt is about to use itself (a ``dlopen``:
the libraries it pulls in are the ones Qt would load a moment later anyway, so a good
start pays next to nothing). Only if that fails does it ask ``ldd`` which libraries are
missing — all of them, not just the first — and print them with the command that
installs them on Debian/Ubuntu, Fedora and Arch; the app then exits with status 2.

``PACKAGES`` maps each library (by soname) that Qt, its xcb and Wayland plugins, or the
bundle's other binaries take from the system to the package that provides it on each
family. packaging/ uses the same table: to install what the build must carry, and for
the Debian package's ``Depends:``.

No Qt here: the check runs before Qt is imported beyond ``QtCore``.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

EXIT_MISSING_LIBRARIES = 2


@dataclass(frozen=True)
class Package:
    """The package that provides one library, per distribution family."""

    debian: str   # Debian and Ubuntu (apt)
    fedora: str   # Fedora (dnf)
    arch: str     # Arch (pacman)


def _xcb_util(debian: str, name: str) -> Package:
    return Package(debian, f"xcb-util-{name}" if name else "xcb-util",
                   f"xcb-util-{name}" if name else "xcb-util")


def _libxcb(debian: str) -> Package:
    return Package(debian, "libxcb", "libxcb")


def _glibc() -> Package:
    return Package("libc6", "glibc", "glibc")


PACKAGES: dict[str, Package] = {
    # X11: the xcb-util helper libraries (one source package each everywhere but Debian)
    "libxcb-icccm.so.4": _xcb_util("libxcb-icccm4", "wm"),
    "libxcb-keysyms.so.1": _xcb_util("libxcb-keysyms1", "keysyms"),
    "libxcb-cursor.so.0": _xcb_util("libxcb-cursor0", "cursor"),
    "libxcb-image.so.0": _xcb_util("libxcb-image0", "image"),
    "libxcb-render-util.so.0": _xcb_util("libxcb-render-util0", "renderutil"),
    "libxcb-util.so.1": _xcb_util("libxcb-util1", ""),
    # X11: libxcb and its protocol extensions (one package on Fedora and Arch)
    "libxcb.so.1": _libxcb("libxcb1"),
    "libxcb-randr.so.0": _libxcb("libxcb-randr0"),
    "libxcb-render.so.0": _libxcb("libxcb-render0"),
    "libxcb-shape.so.0": _libxcb("libxcb-shape0"),
    "libxcb-shm.so.0": _libxcb("libxcb-shm0"),
    "libxcb-sync.so.1": _libxcb("libxcb-sync1"),
    "libxcb-xfixes.so.0": _libxcb("libxcb-xfixes0"),
    "libxcb-xkb.so.1": _libxcb("libxcb-xkb1"),
    "libxcb-xinput.so.0": _libxcb("libxcb-xinput0"),
    "libxcb-glx.so.0": _libxcb("libxcb-glx0"),
    "libxcb-dri2.so.0": _libxcb("libxcb-dri2-0"),
    "libxcb-dri3.so.0": _libxcb("libxcb-dri3-0"),
    "libxcb-present.so.0": _libxcb("libxcb-present0"),
    "libX11.so.6": Package("libx11-6", "libX11", "libx11"),
    "libX11-xcb.so.1": Package("libx11-xcb1", "libX11-xcb", "libx11"),
    "libXau.so.6": Package("libxau6", "libXau", "libxau"),
    "libXdmcp.so.6": Package("libxdmcp6", "libXdmcp", "libxdmcp"),
    "libICE.so.6": Package("libice6", "libICE", "libice"),
    "libSM.so.6": Package("libsm6", "libSM", "libsm"),
    # the keyboard: both platforms
    "libxkbcommon.so.0": Package("libxkbcommon0", "libxkbcommon", "libxkbcommon"),
    "libxkbcommon-x11.so.0": Package("libxkbcommon-x11-0", "libxkbcommon-x11",
                                     "libxkbcommon-x11"),
    # Wayland
    "libwayland-client.so.0": Package("libwayland-client0", "libwayland-client", "wayland"),
    "libwayland-cursor.so.0": Package("libwayland-cursor0", "libwayland-cursor", "wayland"),
    "libwayland-egl.so.1": Package("libwayland-egl1", "libwayland-egl", "wayland"),
    "libwayland-server.so.0": Package("libwayland-server0", "libwayland-server", "wayland"),
    # OpenGL: the vendor-neutral dispatch (libglvnd) in front of the graphics driver
    "libEGL.so.1": Package("libegl1", "libglvnd-egl", "libglvnd"),
    "libGL.so.1": Package("libgl1", "libglvnd-glx", "libglvnd"),
    "libGLX.so.0": Package("libglx0", "libglvnd-glx", "libglvnd"),
    "libOpenGL.so.0": Package("libopengl0", "libglvnd-opengl", "libglvnd"),
    "libGLdispatch.so.0": Package("libglvnd0", "libglvnd", "libglvnd"),
    "libdrm.so.2": Package("libdrm2", "libdrm", "libdrm"),
    "libgbm.so.1": Package("libgbm1", "mesa-libgbm", "mesa"),
    # fonts and text
    "libfontconfig.so.1": Package("libfontconfig1", "fontconfig", "fontconfig"),
    "libfreetype.so.6": Package("libfreetype6", "freetype", "freetype2"),
    "libharfbuzz.so.0": Package("libharfbuzz0b", "harfbuzz", "harfbuzz"),
    "libfribidi.so.0": Package("libfribidi0", "fribidi", "fribidi"),
    "libexpat.so.1": Package("libexpat1", "expat", "expat"),
    "libpng16.so.16": Package("libpng16-16", "libpng", "libpng"),
    # D-Bus (Qt's accessibility and input-method bridges) and GLib (Qt's event loop)
    "libdbus-1.so.3": Package("libdbus-1-3", "dbus-libs", "dbus"),
    "libglib-2.0.so.0": Package("libglib2.0-0", "glib2", "glib2"),
    "libgthread-2.0.so.0": Package("libglib2.0-0", "glib2", "glib2"),
    # what D-Bus and GLib need in turn (the system's, with them)
    "libsystemd.so.0": Package("libsystemd0", "systemd-libs", "systemd-libs"),
    "libcap.so.2": Package("libcap2", "libcap", "libcap"),
    "libgcrypt.so.20": Package("libgcrypt20", "libgcrypt", "libgcrypt"),
    "liblz4.so.1": Package("liblz4-1", "lz4-libs", "lz4"),
    "liblzma.so.5": Package("liblzma5", "xz-libs", "xz"),
    "libzstd.so.1": Package("libzstd1", "libzstd", "zstd"),
    "libpcre2-8.so.0": Package("libpcre2-8-0", "pcre2", "pcre2"),
    # the C and C++ runtimes and the small libraries every system has
    "libc.so.6": _glibc(),
    "libm.so.6": _glibc(),
    "libdl.so.2": _glibc(),
    "libpthread.so.0": _glibc(),
    "librt.so.1": _glibc(),
    "libutil.so.1": _glibc(),
    "libresolv.so.2": _glibc(),
    "libanl.so.1": _glibc(),
    "ld-linux-x86-64.so.2": _glibc(),
    "libstdc++.so.6": Package("libstdc++6", "libstdc++", "gcc-libs"),
    "libgcc_s.so.1": Package("libgcc-s1", "libgcc", "gcc-libs"),
    "libz.so.1": Package("zlib1g", "zlib", "zlib"),
    "libgpg-error.so.0": Package("libgpg-error0", "libgpg-error", "libgpg-error"),
    "libuuid.so.1": Package("libuuid1", "libuuid", "util-linux-libs"),
    "libcom_err.so.2": Package("libcom-err2", "libcom_err", "e2fsprogs"),
    "libgmp.so.10": Package("libgmp10", "gmp", "gmp"),
}

# Qt's platform plugins this check knows; any other (offscreen, minimal, eglfs, vnc …)
# is left to Qt.
PLUGINS = {"xcb": "X11", "wayland": "Wayland"}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)
_DLOPEN_MISSING = re.compile(r"^([^:\s]+\.so[^:\s]*): cannot open shared object file")


def platform_candidates(environ: dict[str, str]) -> list[str]:
    """The platform plugins Qt will try, in order (as QGuiApplication chooses them)."""
    chosen = environ.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return [name.split(":", 1)[0].strip() for name in chosen.split(";") if name.strip()]
    if environ.get("WAYLAND_DISPLAY") or environ.get("XDG_SESSION_TYPE") == "wayland":
        return ["wayland", "xcb"]
    return ["xcb"]


def plugin_file(plugins_dir: Path, name: str) -> Path:
    return plugins_dir / "platforms" / f"libq{name}.so"


def load_error(plugin: Path) -> str | None:
    """None if the plugin and every library it needs load; else the loader's message."""
    try:
        ctypes.CDLL(str(plugin))
    except OSError as exc:
        return str(exc)
    return None


def missing_libraries(plugin: Path, error: str = "") -> list[str]:
    """The libraries ``plugin`` needs that the loader cannot find — all of them, by
    ``ldd``; where there is no ``ldd``, the one the loader's ``error`` names."""
    ldd = shutil.which("ldd")
    if ldd:
        try:
            done = subprocess.run([ldd, str(plugin)], capture_output=True, text=True,
                                  timeout=30)
        except (OSError, subprocess.SubprocessError):
            done = None
        if done is not None:
            return sorted(set(_NOT_FOUND.findall(done.stdout)))
    # the loader names the library first: "…/libqxcb.so: libxcb-icccm.so.4: cannot open …"
    for part in error.split(": ", 1)[::-1]:
        match = _DLOPEN_MISSING.match(part)
        if match:
            return [match[1]]
    return []


def install_commands(libraries: list[str]) -> list[str]:
    """How to install ``libraries``: one line each for apt, dnf and pacman."""
    known = [PACKAGES[name] for name in libraries if name in PACKAGES]
    lines = []
    for family, command, field in (("Debian, Ubuntu", "sudo apt install", "debian"),
                                   ("Fedora", "sudo dnf install", "fedora"),
                                   ("Arch", "sudo pacman -S", "arch")):
        names = sorted({getattr(package, field) for package in known})
        if names:
            lines.append(f"{family + ':':16} {command} {' '.join(names)}")
    unknown = [name for name in libraries if name not in PACKAGES]
    if unknown:
        lines.append(f"{'Others:':16} your package manager's search for "
                     f"{', '.join(unknown)}")
    return lines


def report(platform: str, libraries: list[str]) -> str:
    """What a person reads when the window cannot open."""
    lines = [f"Parlour cannot open its window: Qt's {PLUGINS[platform]} platform plugin "
             f"({platform}) needs libraries this system does not have:"]
    lines += [f"    {name}" for name in libraries]
    lines.append("Install them, then start Parlour again:")
    lines += [f"    {line}" for line in install_commands(libraries)]
    return "\n".join(lines)


def preflight(environ: dict[str, str] | None = None, plugins_dir: Path | None = None,
              out=None) -> int | None:
    """Check that a platform plugin Qt will try can load; None if one can (or the
    platform is one this check leaves to Qt), else print why and return the exit
    status (2). Linux only."""
    if not sys.platform.startswith("linux"):
        return None
    environ = os.environ if environ is None else environ
    candidates = platform_candidates(environ)
    if not candidates or any(name not in PLUGINS for name in candidates):
        return None  # offscreen, a custom list, …: Qt's own business
    plugins_dir = plugins_dir or _qt_plugins_dir()
    failures = []
    for name in candidates:
        plugin = plugin_file(plugins_dir, name)
        if not plugin.exists():
            return None  # a Qt build without it: Qt says so clearly itself
        error = load_error(plugin)
        if error is None:
            return None
        failures.append((name, plugin, error))
    out = out or sys.stderr
    for name, plugin, error in failures:
        libraries = missing_libraries(plugin, error)
        if libraries:
            print(report(name, libraries), file=out, flush=True)
            return EXIT_MISSING_LIBRARIES
    # Present but unloadable for another reason (a symbol, a version): Qt says more.
    print(f"parlour: warning: Qt's {failures[0][0]} plugin did not load: {failures[0][2]}",
          file=out, flush=True)
    return None


def _qt_plugins_dir() -> Path:
    from PySide6.QtCore import QLibraryInfo

    return Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
