"""packaging/install.sh: the per-user menu entry, icons and ~/.local/bin link.

Run against a fake bundle (a folder holding a ``parlour`` program and the assets in
``_internal/``, as PyInstaller lays them out) whose path has a space and a ``$`` in
it, with HOME pointed at a temporary folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "install.sh"

pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell")


@pytest.fixture
def bundle(tmp_path) -> Path:
    folder = tmp_path / "my games $1" / "parlour"
    assets = folder / "_internal" / "assets"
    shutil.copytree(ROOT / "assets" / "icons", assets / "icons")
    shutil.copy(ROOT / "assets" / "parlour.desktop", assets)
    (folder / "parlour").write_text("#!/bin/sh\necho parlour\n")
    (folder / "parlour").chmod(0o755)
    shutil.copy(SCRIPT, folder / "install.sh")
    return folder


@pytest.fixture
def home(tmp_path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def run(script: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
    return subprocess.run(["sh", str(script), *args], env=env, capture_output=True,
                          text=True, timeout=60)


def desktop_exec(line: str) -> list[str]:
    """The argv a launcher makes of an Exec= value (Desktop Entry spec: the string
    escapes first, then the quoting rules)."""
    value = line.removeprefix("Exec=").replace("\\\\", "\\")
    args, current, quoted, i = [], "", False, 0
    while i < len(value):
        c = value[i]
        if quoted and c == "\\":
            current, i = current + value[i + 1], i + 2
            continue
        if c == '"':
            quoted = not quoted
        elif c == " " and not quoted:
            args, current = args + [current], ""
        else:
            current += c
        i += 1
    return args + [current]


def test_install_writes_the_menu_entry_icons_and_link(bundle, home):
    done = run(bundle / "install.sh", home)
    assert done.returncode == 0, done.stderr
    share = home / ".local" / "share"
    entry = (share / "applications" / "parlour.desktop").read_text().splitlines()
    exec_line = next(line for line in entry if line.startswith("Exec="))
    assert desktop_exec(exec_line) == [str(bundle / "parlour")]
    assert f"TryExec={bundle / 'parlour'}" in entry
    assert "Icon=parlour" in entry and "Name=Parlour" in entry
    assert (share / "icons/hicolor/scalable/apps/parlour.svg").read_bytes() == \
        (ROOT / "assets/icons/parlour.svg").read_bytes()
    assert (share / "icons/hicolor/256x256/apps/parlour.png").is_file()
    assert os.readlink(home / ".local/bin/parlour") == str(bundle / "parlour")


def test_uninstall_removes_what_install_made(bundle, home):
    run(bundle / "install.sh", home)
    done = run(bundle / "install.sh", home, "--uninstall")
    assert done.returncode == 0, done.stderr
    assert not (home / ".local/share/applications/parlour.desktop").exists()
    assert not (home / ".local/share/icons/hicolor/scalable/apps/parlour.svg").exists()
    assert not os.path.lexists(home / ".local/bin/parlour")


def test_another_parlour_on_the_path_is_left_alone(bundle, home, tmp_path):
    other = tmp_path / "pipx" / "parlour"
    other.parent.mkdir()
    other.write_text("#!/bin/sh\n")
    (home / ".local/bin").mkdir(parents=True)
    (home / ".local/bin/parlour").symlink_to(other)
    assert run(bundle / "install.sh", home).returncode == 0
    assert os.readlink(home / ".local/bin/parlour") == str(other)
    run(bundle / "install.sh", home, "--uninstall")
    assert os.readlink(home / ".local/bin/parlour") == str(other)


def test_a_folder_without_parlour_is_refused(home):
    done = run(SCRIPT, home)  # packaging/ itself: the script, but no bundle
    assert done.returncode == 1
    assert "no parlour program" in done.stderr
    assert not (home / ".local").exists()
