"""app/syslibs.py: which platform plugin Qt will try, what is missing, what to install.

The end-to-end case (``python -m app`` on a system without libxcb-icccm4 and
libxcb-keysyms1, exit status 2) is tests/packaging/test_without_libraries.py: hiding
libraries needs a private mount namespace.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app import syslibs

ROOT = Path(__file__).resolve().parents[2]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux loader")


@pytest.mark.parametrize("environ, expected", [
    ({}, ["xcb"]),
    ({"DISPLAY": ":0"}, ["xcb"]),
    ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, ["wayland", "xcb"]),
    ({"XDG_SESSION_TYPE": "wayland"}, ["wayland", "xcb"]),
    ({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, ["xcb"]),
    ({"QT_QPA_PLATFORM": "wayland;xcb"}, ["wayland", "xcb"]),
    ({"QT_QPA_PLATFORM": "offscreen"}, ["offscreen"]),
    ({"QT_QPA_PLATFORM": "vnc:size=800x600"}, ["vnc"]),
])
def test_platform_candidates_follow_qts_choice(environ, expected):
    assert syslibs.platform_candidates(environ) == expected


def test_install_commands_name_each_familys_packages():
    lines = syslibs.install_commands(["libxcb-icccm.so.4", "libxcb-keysyms.so.1",
                                      "libxcb-randr.so.0"])
    assert lines == [
        "Debian, Ubuntu:  sudo apt install libxcb-icccm4 libxcb-keysyms1 libxcb-randr0",
        "Fedora:          sudo dnf install libxcb xcb-util-keysyms xcb-util-wm",
        "Arch:            sudo pacman -S libxcb xcb-util-keysyms xcb-util-wm",
    ]


def test_a_library_without_a_known_package_is_still_named():
    lines = syslibs.install_commands(["libxcb-icccm.so.4", "libmystery.so.3"])
    assert lines[0].endswith("libxcb-icccm4")
    assert lines[-1].startswith("Others:") and "libmystery.so.3" in lines[-1]


def test_the_report_lists_libraries_then_commands():
    text = syslibs.report("xcb", ["libxcb-icccm.so.4"])
    assert text.splitlines()[:2] == [
        "Parlour cannot open its window: Qt's X11 platform plugin (xcb) needs libraries "
        "this system does not have:", "    libxcb-icccm.so.4"]
    assert "sudo apt install libxcb-icccm4" in text


def test_every_package_entry_is_complete():
    for soname, package in syslibs.PACKAGES.items():
        assert soname.startswith(("lib", "ld-")) and ".so" in soname, soname
        assert all((package.debian, package.fedora, package.arch)), soname


def test_other_platforms_are_left_to_qt(tmp_path):
    out = io.StringIO()
    for platform in ("offscreen", "minimal", "xcb;offscreen"):
        assert syslibs.preflight({"QT_QPA_PLATFORM": platform}, tmp_path, out) is None
    assert out.getvalue() == ""


@linux_only
def test_a_plugin_that_loads_passes(tmp_path):
    # any loadable library stands in for the plugin (the check is "does it load"):
    # a copy of zlib, which is harmless to load twice
    (tmp_path / "platforms").mkdir()
    zlib = next(p for d in ("/lib/x86_64-linux-gnu", "/usr/lib64", "/lib64", "/usr/lib")
                for p in Path(d).glob("libz.so.1"))
    shutil.copy(zlib, tmp_path / "platforms" / "libqxcb.so")
    assert syslibs.preflight({"QT_QPA_PLATFORM": "xcb"}, tmp_path, io.StringIO()) is None


@linux_only
def test_a_plugin_that_is_not_a_library_warns_and_leaves_it_to_qt(tmp_path):
    (tmp_path / "platforms").mkdir()
    (tmp_path / "platforms" / "libqxcb.so").write_bytes(b"not an ELF file")
    out = io.StringIO()
    assert syslibs.preflight({"QT_QPA_PLATFORM": "xcb"}, tmp_path, out) is None
    assert out.getvalue().startswith("parlour: warning: Qt's xcb plugin did not load")


@linux_only
@pytest.mark.skipif(shutil.which("ldd") is None, reason="needs ldd")
def test_a_real_plugin_missing_its_libraries_is_reported_with_exit_2(tmp_path):
    """PySide6's own xcb plugin copied away from Qt's libraries: what it needs from
    Qt cannot be found, exactly like a missing system library. In a subprocess, so no
    Qt library this test process has loaded can stand in."""
    import PySide6

    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    (tmp_path / "plugins" / "platforms").mkdir(parents=True)
    shutil.copy(plugin, tmp_path / "plugins" / "platforms" / "libqxcb.so")
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from app.syslibs import preflight
        sys.exit(preflight({{"QT_QPA_PLATFORM": "xcb"}}, Path({str(tmp_path / "plugins")!r}),
                           sys.stdout))
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == syslibs.EXIT_MISSING_LIBRARIES, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "    libQt6XcbQpa.so.6" in lines and "    libQt6Gui.so.6" in lines
    assert any(line.strip().startswith("Others:") for line in lines)


def test_without_ldd_the_loaders_message_names_the_library(monkeypatch, tmp_path):
    monkeypatch.setattr(syslibs.shutil, "which", lambda name: None)
    error = (f"{tmp_path}/libqxcb.so: libxcb-icccm.so.4: cannot open shared object file: "
             "No such file or directory")
    assert syslibs.missing_libraries(tmp_path / "libqxcb.so", error) == ["libxcb-icccm.so.4"]


def test_the_desktop_command_runs_the_check_first(monkeypatch):
    from app import cli

    monkeypatch.setattr(syslibs, "preflight", lambda: 2)
    assert cli.main([]) == 2  # no QApplication was made: it stopped before app.main
