"""Open Parlour's lobby on a real X server and prove the window mapped: the check that
cannot pass offscreen.

``parlour --self-test`` draws the window on Qt's offscreen platform, which loads none
of the X11 libraries a desktop needs; a bundle that lacks one passes it and then fails
on every desktop. This starts an X server (Xvfb) with a window manager (openbox),
runs the app on Qt's xcb platform, waits until a top-level window titled "Parlour" is
mapped and painted, and saves a screenshot (PNG, read from Xvfb's own framebuffer
file, so no screenshot tool is needed).

The app runs with a private HOME (settings with a name, so the lobby opens rather
than the first-start dialog) and in a private network namespace holding only ``lo``
(root: ``unshare --net``; others: with ``--map-root-user``), so the lobby's mDNS browse
never reaches a real interface.

    python packaging/xdesktop.py --shot dist/lobby.png -- dist/parlour/parlour
    python packaging/xdesktop.py --install     # only make sure Xvfb & co. are there

With ``--install`` (``make test`` uses it before the suite), Xvfb, openbox and
xwininfo/xprop (x11-utils) — and the X11 libraries Qt's xcb plugin loads when the app
runs from source — are installed with apt-get when missing and this runs as root on
Debian; otherwise the error says what to install.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.append(str(HERE))
import apt_install  # noqa: E402 - next to this file

TITLE = "Parlour"                  # the main window's title (app/window.py)
SCREEN = (1280, 900)               # room for the lobby at its default size, or near it
TOOLS = {"Xvfb": "xvfb", "openbox": "openbox", "xwininfo": "x11-utils", "xprop": "x11-utils"}
# Ceilings, in seconds, not how long these take (a second or two): a cold CI machine, or
# make test's suite running beside the bundle's check, can make them many times slower.
WINDOW_TIMEOUT = 120.0             # for the window to map
STEP_TIMEOUT = 60.0                # for openbox to start, for the lobby to be painted
POLL = 0.05


class DesktopError(RuntimeError):
    """The window check could not run, or the window never appeared (says which)."""


# -- tools ------------------------------------------------------------------------------

def missing_tools() -> list[str]:
    return [command for command in TOOLS if shutil.which(command) is None]


def ensure_tools(install: bool) -> None:
    """Make sure Xvfb, openbox and x11-utils are there (installing them if allowed)."""
    missing = missing_tools()
    if missing and install:
        ensure_packages([TOOLS[c] for c in missing], "the window check")
        missing = missing_tools()
    if missing:
        packages = " ".join(dict.fromkeys(TOOLS[c] for c in missing))
        raise DesktopError(f"no {', '.join(missing)} here: install them "
                           f"(Debian: sudo apt-get install {packages})")


def ensure_qt_libraries() -> None:
    """Install the Debian packages of the libraries Qt and its plugins load from the
    system when the app runs from source (``make run``): the ones the bundle carries
    and the ones it leaves to the system."""
    import linux_libs

    missing = linux_libs.missing_build_libraries(with_excluded=True)
    if missing:
        ensure_packages(linux_libs.debian_packages(missing)[0], "running Qt on X11")


def ensure_packages(packages: list[str], why: str) -> None:
    try:
        apt_install.ensure(packages, why)
    except apt_install.AptError as exc:
        raise DesktopError(str(exc)) from None


def unavailable_reason() -> str | None:
    """None if an X server can be had here (now, without installing), else why not."""
    missing = missing_tools()
    if missing:
        packages = " ".join(dict.fromkeys(TOOLS[c] for c in missing))
        return (f"no X server can be had: {', '.join(missing)} not installed "
                f"(Debian: apt-get install {packages})")
    if private_network() is None:
        return "cannot make a private network namespace (unshare) for the app's mDNS"
    return None


def private_network() -> list[str] | None:
    """A command prefix that runs a program in a fresh network namespace, or None."""
    for prefix in (["unshare", "--net"], ["unshare", "--net", "--map-root-user"]):
        if shutil.which("unshare") and subprocess.run(
                [*prefix, "true"], capture_output=True).returncode == 0:
            return prefix
    return None


# -- the X server -------------------------------------------------------------------------

@dataclass(frozen=True)
class Display:
    name: str            # ":3"
    framebuffer: Path    # Xvfb's screen as an XWD file


@contextmanager
def x_server(workdir: Path, size: tuple[int, int] = SCREEN) -> Iterator[Display]:
    """Xvfb on a free display, with openbox managing it; both stopped on exit."""
    read_end, write_end = os.pipe()
    log = workdir / "xvfb.log"
    with open(log, "wb") as out:
        xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", f"{size[0]}x{size[1]}x24",
             "-nolisten", "tcp", "-fbdir", str(workdir)],
            pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=out)
    os.close(write_end)
    processes = [xvfb]
    try:
        number = _read_display_number(read_end, xvfb, log)
        display = Display(f":{number}", workdir / "Xvfb_screen0")
        wm = subprocess.Popen(["openbox"], env=x_env(display),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(wm)
        _wait_for(lambda: _window_manager_running(display), STEP_TIMEOUT, "openbox to start",
                  wm)
        yield display
    finally:
        os.close(read_end)
        for process in reversed(processes):
            _stop(process)


def _read_display_number(fd: int, xvfb: subprocess.Popen, log: Path) -> int:
    """Xvfb writes the display it took to -displayfd once it accepts clients."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(fd, 16)
        if not chunk:
            xvfb.wait(timeout=10)
            raise DesktopError(f"Xvfb did not start: {log.read_text(errors='replace')[-500:]}")
        data += chunk
    return int(data)


def x_env(display: Display) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "XAUTHORITY")}
    env["DISPLAY"] = display.name
    return env


def _window_manager_running(display: Display) -> bool:
    done = subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"],
                          env=x_env(display), capture_output=True, text=True)
    return "window id #" in done.stdout


def _wait_for(condition, timeout: float, what: str, process: subprocess.Popen | None = None):
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if process is not None and process.poll() is not None:
            raise DesktopError(f"{what}: the process ended (status {process.returncode})")
        if time.monotonic() > deadline:
            raise DesktopError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(POLL)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# -- windows --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Geometry:
    x: int
    y: int
    width: int
    height: int


# `xwininfo -root -tree` lines: 0x400007 "Parlour": ("parlour" "Parlour")  1180x800+1+20  +50+57
_TREE_LINE = re.compile(r'^\s*(0x[0-9a-f]+) "(.*)": \((.*)\)\s+(\d+)x(\d+)[+-]\d+[+-]\d+\s+'
                        r'\+(-?\d+)\+(-?\d+)')


def mapped_window(display: Display, title: str = TITLE) -> Geometry | None:
    """The geometry of a viewable top-level window named ``title`` (one with a class:
    Qt's hidden helper windows have none), or None."""
    env = x_env(display)
    tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True,
                          text=True).stdout
    for line in tree.splitlines():
        match = _TREE_LINE.match(line)
        if not match or match[2] != title or not match[3].strip():
            continue
        info = subprocess.run(["xwininfo", "-id", match[1]], env=env, capture_output=True,
                              text=True).stdout
        if "Map State: IsViewable" in info:
            return Geometry(int(match[6]), int(match[7]), int(match[4]), int(match[5]))
    return None


# -- the screen as an image -------------------------------------------------------------------

def read_framebuffer(path: Path) -> tuple[int, int, bytes]:
    """(width, height, RGB bytes) of Xvfb's screen file (XWD, 24-bit TrueColor,
    32 bits per pixel)."""
    data = path.read_bytes()
    fields = struct.unpack(">25I", data[:100])
    header_size, depth, width, height = fields[0], fields[3], fields[4], fields[5]
    byte_order, bits_per_pixel, bytes_per_line = fields[7], fields[11], fields[12]
    red_mask, ncolors = fields[14], fields[19]
    if depth != 24 or bits_per_pixel != 32 or red_mask != 0xFF0000:
        raise DesktopError(f"unexpected framebuffer format (depth {depth}, "
                           f"{bits_per_pixel} bpp, red mask {red_mask:#x})")
    start = header_size + ncolors * 12
    rgb = bytearray(width * height * 3)
    for row in range(height):
        line = data[start + row * bytes_per_line:start + row * bytes_per_line + width * 4]
        out = row * width * 3
        # LSB first: each pixel is B, G, R, unused; MSB first: unused, R, G, B
        r, g, b = (2, 1, 0) if byte_order == 0 else (1, 2, 3)
        rgb[out:out + width * 3:3] = line[r::4]
        rgb[out + 1:out + width * 3:3] = line[g::4]
        rgb[out + 2:out + width * 3:3] = line[b::4]
    return width, height, bytes(rgb)


def write_png(path: Path, width: int, height: int, rgb: bytes) -> Path:
    """An 8-bit RGB PNG, no filtering."""
    stride = width * 3
    raw = b"".join(b"\0" + rgb[y * stride:(y + 1) * stride] for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    path.write_bytes(b"\x89PNG\r\n\x1a\n"
                     + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
    return path


def colours(width: int, rgb: bytes, area: Geometry, samples: int = 40) -> int:
    """How many different colours a grid of samples across ``area`` finds."""
    seen = set()
    for i in range(samples):
        for j in range(samples):
            x = area.x + i * area.width // samples
            y = area.y + j * area.height // samples
            offset = (y * width + x) * 3
            seen.add(rgb[offset:offset + 3])
    return len(seen)


# -- the check ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Shown:
    geometry: Geometry
    seconds: float       # from starting the program to the window mapped and painted
    colours: int
    screenshot: Path | None


def app_home(root: Path, name: str = "Check") -> dict[str, str]:
    """Environment for a private Parlour user under ``root`` who has a name already."""
    config = root / "config"
    (config / "Parlour").mkdir(parents=True, exist_ok=True)
    (config / "Parlour" / "Parlour.conf").write_text(f"[General]\ndisplay_name={name}\n")
    return {"HOME": str(root), "XDG_CONFIG_HOME": str(config),
            "XDG_DATA_HOME": str(root / "data"), "XDG_CACHE_HOME": str(root / "cache"),
            "PARLOUR_HOME": str(root / "identity")}


def show_lobby(argv: list[str], shot: Path | None = None, cwd: Path | None = None,
               timeout: float = WINDOW_TIMEOUT, min_colours: int = 8) -> Shown:
    """Run ``argv`` (the app) on a fresh X server with a window manager until its lobby
    window is mapped and painted; screenshot it to ``shot``. Raises DesktopError."""
    network = private_network()
    if network is None:
        raise DesktopError("cannot make a private network namespace (unshare --net) "
                           "to keep the lobby's mDNS off real interfaces")
    with tempfile.TemporaryDirectory(prefix="parlour-x-") as tmp, \
            x_server(Path(tmp)) as display:
        env = {**x_env(display), **app_home(Path(tmp) / "home"), "QT_QPA_PLATFORM": "xcb"}
        log = Path(tmp) / "app.log"
        started = time.monotonic()
        with open(log, "wb") as out:
            app = subprocess.Popen([*network, *argv], env=env, cwd=cwd, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        try:
            try:
                geometry = _wait_for(lambda: mapped_window(display), timeout,
                                     "the lobby window to map", app)
                width, rgb, count = _wait_for(
                    lambda: _painted(display, geometry, min_colours), STEP_TIMEOUT,
                    "the lobby to be painted", app)
            except DesktopError as exc:
                output = log.read_text(errors="replace").strip()[-3000:]
                raise DesktopError(f"{exc}\n--- the app's output ---\n{output or '(none)'}") \
                    from None
            seconds = time.monotonic() - started
            if shot is not None:
                _w, height, _ = read_framebuffer(display.framebuffer)
                write_png(shot, width, height, rgb)
            return Shown(geometry, seconds, count, shot)
        finally:
            _stop_group(app)


def _painted(display: Display, area: Geometry, min_colours: int):
    width, height, rgb = read_framebuffer(display.framebuffer)
    inside = Geometry(max(area.x, 0), max(area.y, 0),
                      min(area.width, width - max(area.x, 0)),
                      min(area.height, height - max(area.y, 0)))
    count = colours(width, rgb, inside)
    return (width, rgb, count) if count >= min_colours else None


def _stop_group(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[argv.index("--") + 1:] if "--" in argv else []
    own = argv[:argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     usage="%(prog)s [--install] [--shot PNG] [-- APP ...]")
    parser.add_argument("--install", action="store_true",
                        help="install Xvfb, openbox, x11-utils and Qt's X11 libraries when "
                             "missing (root, apt)")
    parser.add_argument("--shot", type=Path, help="where to save the screenshot (PNG)")
    args = parser.parse_args(own)
    try:
        if args.install:
            ensure_qt_libraries()
        ensure_tools(args.install)
        if not command:
            return 0
        shown = show_lobby(command, shot=args.shot)
    except DesktopError as exc:
        print(f"check-window: FAILED — {exc}", flush=True)
        return 1
    print(f"check-window: ok — {describe(shown)}", flush=True)
    return 0


def describe(shown: Shown) -> str:
    g = shown.geometry
    return (f"the lobby mapped on Xvfb (xcb, openbox), {g.width}x{g.height} at {g.x},{g.y}, "
            f"{shown.colours} colours, {shown.seconds:.1f} s after start"
            + (f"; screenshot {shown.screenshot}" if shown.screenshot else ""))


if __name__ == "__main__":
    sys.exit(main())
