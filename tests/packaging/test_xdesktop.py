"""packaging/xdesktop.py, and ``make run``'s path on a real X server.

The last test is the point: ``python -m app`` from the source tree, on Xvfb with the
xcb platform and openbox, must map its lobby window (the suite's other Qt tests run
offscreen, where no X11 library is ever loaded). It is skipped, saying why, only where
no X server can be had; ``make test`` installs Xvfb and openbox first as root on
Debian. ``make check-package`` does the same for the bundle.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import pytest

from app.window import DEFAULT_SIZE, MIN_SIZE

ROOT = Path(__file__).resolve().parents[2]


def _xwd(width: int, height: int, pixels: list[tuple[int, int, int]], ncolors: int = 2) -> bytes:
    """A little-endian 24-bit TrueColor XWD image as Xvfb writes its screen."""
    name = b"Xvfb test\0"
    header_size = 100 + len(name)
    fields = [header_size, 7, 2, 24, width, height, 0, 0, 32, 0, 32, 32, width * 4, 4,
              0xFF0000, 0xFF00, 0xFF, 8, 256, ncolors, width, height, 0, 0, 0]
    body = b"".join(bytes([b, g, r, 0]) for r, g, b in pixels)
    return struct.pack(">25I", *fields) + name + b"\0" * (12 * ncolors) + body


def _png_pixels(data: bytes) -> tuple[int, int, bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    idat, pos = b"", 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 3
    rows = [raw[y * (stride + 1):(y + 1) * (stride + 1)] for y in range(height)]
    assert all(row[0] == 0 for row in rows)  # no filter
    return width, height, b"".join(row[1:] for row in rows)


def test_the_framebuffer_becomes_a_png(xdesktop, tmp_path):
    pixels = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (10, 20, 30), (200, 100, 50), (0, 0, 0)]
    (tmp_path / "Xvfb_screen0").write_bytes(_xwd(3, 2, pixels))
    width, height, rgb = xdesktop.read_framebuffer(tmp_path / "Xvfb_screen0")
    assert (width, height) == (3, 2)
    assert rgb == bytes(c for pixel in pixels for c in pixel)
    png = xdesktop.write_png(tmp_path / "shot.png", width, height, rgb)
    assert _png_pixels(png.read_bytes()) == (3, 2, rgb)
    assert xdesktop.colours(width, rgb, xdesktop.Geometry(0, 0, 3, 2), samples=3) == 6


def test_another_framebuffer_format_is_refused(xdesktop, tmp_path):
    data = bytearray(_xwd(1, 1, [(0, 0, 0)]))
    data[12:16] = struct.pack(">I", 16)  # depth 16
    (tmp_path / "fb").write_bytes(bytes(data))
    with pytest.raises(xdesktop.DesktopError, match="depth 16"):
        xdesktop.read_framebuffer(tmp_path / "fb")


@pytest.mark.parametrize("line, found", [
    ('        0x400007 "Parlour": ("parlour" "Parlour")  1180x800+1+20  +50+57',
     ("0x400007", "Parlour", '"parlour" "Parlour"', "1180", "800", "50", "57")),
    ('     0x400009 "Parlour": ()  1x1+0+0  +0+0',
     ("0x400009", "Parlour", "", "1", "1", "0", "0")),
])
def test_xwininfo_tree_lines(xdesktop, line, found):
    assert xdesktop._TREE_LINE.match(line).groups() == found


def test_a_private_user_has_a_name_so_the_lobby_opens(xdesktop, tmp_path):
    env = xdesktop.app_home(tmp_path, name="Ada")
    conf = Path(env["XDG_CONFIG_HOME"]) / "Parlour" / "Parlour.conf"
    assert conf.read_text() == "[General]\ndisplay_name=Ada\n"
    assert all(value.startswith(str(tmp_path)) for value in env.values())


def test_make_run_opens_the_lobby_on_a_real_x_server(xdesktop, tmp_path):
    reason = xdesktop.unavailable_reason()
    if reason:
        pytest.skip(reason)
    shot = tmp_path / "lobby.png"
    shown = xdesktop.show_lobby([sys.executable, "-m", "app"], shot=shot, cwd=ROOT)
    # The lobby opens at its default size, shrunk to fit this screen if need be.
    size = (shown.geometry.width, shown.geometry.height)
    assert all(MIN_SIZE[i] <= size[i] <= min(DEFAULT_SIZE[i], xdesktop.SCREEN[i]) for i in (0, 1)), size
    assert shown.colours >= 8
    width, height, rgb = _png_pixels(shot.read_bytes())
    assert (width, height) == xdesktop.SCREEN
    assert xdesktop.colours(width, rgb, shown.geometry) == shown.colours
