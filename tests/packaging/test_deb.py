"""packaging/deb.py: the Debian package built from a small stand-in bundle, and its
menu entry being the one install.sh writes.

Installing it for real (apt-get install, self-test, apt-get remove, nothing left) is
``make check-deb``, which ``make test`` runs: it changes the machine, so it is no test.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
needs_dpkg_deb = pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="needs dpkg-deb")


def test_the_menu_entry_is_the_one_install_sh_writes(deb, tmp_path):
    folder = tmp_path / "odd $place \"quoted\" `x` back\\slash" / "parlour"
    (folder / "_internal").mkdir(parents=True)
    shutil.copytree(ROOT / "assets" / "icons", folder / "_internal" / "assets" / "icons")
    shutil.copy(ROOT / "assets" / "parlour.desktop", folder / "_internal" / "assets")
    (folder / "parlour").write_text("#!/bin/sh\n")
    (folder / "parlour").chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    done = subprocess.run(["sh", str(ROOT / "packaging" / "install.sh"), str(folder)],
                          env={"PATH": "/usr/bin:/bin", "HOME": str(home)},
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    written = (home / ".local/share/applications/parlour.desktop").read_text()
    template = (ROOT / "assets" / "parlour.desktop").read_text()
    assert deb.desktop_entry(template, str(folder / "parlour")) == written


def test_the_package_name(deb):
    assert deb.deb_name("1.2.3", "amd64") == "parlour_1.2.3_amd64.deb"


@pytest.fixture
def stand_in_bundle(tmp_path) -> Path:
    """A bundle with one real library (it needs libxcb and libc from the system)."""
    lib = next((Path(d) / "libxcb-xkb.so.1" for d in
                ("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64")
                if (Path(d) / "libxcb-xkb.so.1").exists()), None)
    if lib is None or not sys.platform.startswith("linux"):
        pytest.skip("needs libxcb-xkb.so.1 to stand in for the bundle's libraries")
    bundle = tmp_path / "dist" / "parlour"
    (bundle / "_internal").mkdir(parents=True)
    shutil.copy(lib, bundle / "_internal" / lib.name)
    (bundle / "parlour").write_text("#!/bin/sh\necho parlour\n")
    (bundle / "parlour").chmod(0o755)
    (bundle / "install.sh").write_text("#!/bin/sh\n")
    return bundle


@needs_dpkg_deb
def test_a_built_package(deb, stand_in_bundle, tmp_path):
    out = deb.build_deb(stand_in_bundle, tmp_path, "1.2.3")
    assert out.name == f"parlour_1.2.3_{deb.architecture()}.deb"
    field = lambda name: subprocess.run(["dpkg-deb", "-f", str(out), name],  # noqa: E731
                                        capture_output=True, text=True).stdout.strip()
    assert field("Package") == "parlour" and field("Version") == "1.2.3"
    depends = field("Depends").split(", ")
    assert depends[0].startswith("libc6 (>= 2.") and depends[1:] == ["libxcb1"]
    tar = tarfile.open(fileobj=io.BytesIO(subprocess.run(
        ["dpkg-deb", "--fsys-tarfile", str(out)], capture_output=True, check=True).stdout))
    members = {m.name.removeprefix("./"): m for m in tar.getmembers()}
    assert members["opt/parlour/parlour"].mode & 0o111
    assert "opt/parlour/_internal/libxcb-xkb.so.1" in members
    assert "opt/parlour/install.sh" not in members  # the package is its own menu entry
    link = members["usr/bin/parlour"]
    assert link.issym() and link.linkname == "/opt/parlour/parlour"
    assert {"usr/share/icons/hicolor/scalable/apps/parlour.svg",
            "usr/share/icons/hicolor/256x256/apps/parlour.png"} <= set(members)
    assert all(m.uid == 0 and m.gid == 0 for m in members.values())
    entry = tar.extractfile(members["usr/share/applications/parlour.desktop"]).read().decode()
    template = (ROOT / "assets" / "parlour.desktop").read_text()
    assert entry == deb.desktop_entry(template, "/opt/parlour/parlour")
    assert 'Exec="/opt/parlour/parlour"' in entry.splitlines()
