"""packaging/build.py's helpers: names, the version, the archive."""

from __future__ import annotations

import io
import tarfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_version_is_pyprojects(build):
    with open(ROOT / "pyproject.toml", "rb") as f:
        assert build.version() == tomllib.load(f)["project"]["version"]


def test_archive_names(build):
    assert build.platform_tag("Linux", "x86_64") == "linux-x86_64"
    assert build.platform_tag("Darwin", "arm64") == "macos-arm64"
    assert build.archive_name("1.2.3", "linux-x86_64") == "parlour-1.2.3-linux-x86_64.tar.gz"
    assert build.archive_name("1.2.3", "windows-amd64") == "parlour-1.2.3-windows-amd64.zip"


def _fake_bundle(root: Path) -> Path:
    bundle = root / "parlour"
    (bundle / "_internal" / "lib").mkdir(parents=True)
    (bundle / "parlour").write_bytes(b"\x7fELF program")
    (bundle / "parlour").chmod(0o755)
    (bundle / "_internal" / "lib" / "libQt6Core.so.6").write_bytes(b"qt" * 100)
    (bundle / "_internal" / "libQt6Core.so.6").symlink_to("lib/libQt6Core.so.6")
    return bundle


def test_archive_has_one_folder_keeps_modes_and_links(build, tmp_path):
    out = build.make_archive(_fake_bundle(tmp_path), tmp_path / "a.tar.gz")
    with tarfile.open(out) as tar:
        members = {m.name: m for m in tar.getmembers()}
    assert {name.split("/")[0] for name in members} == {"parlour"}
    assert members["parlour/parlour"].mode & 0o111
    link = members["parlour/_internal/libQt6Core.so.6"]
    assert link.issym() and link.linkname == "lib/libQt6Core.so.6"
    assert all(m.uid == 0 and m.mtime == 0 for m in members.values())


def test_packing_the_same_bundle_twice_gives_the_same_bytes(build, tmp_path):
    bundle = _fake_bundle(tmp_path)
    first = build.make_archive(bundle, tmp_path / "1.tar.gz").read_bytes()
    (bundle / "parlour").touch()  # a newer date must not change the archive
    assert build.make_archive(bundle, tmp_path / "2.tar.gz").read_bytes() == first


def test_zip_for_windows(build, tmp_path):
    import zipfile

    out = build.make_archive(_fake_bundle(tmp_path), tmp_path / "a.zip")
    with zipfile.ZipFile(io.BytesIO(out.read_bytes())) as zf:
        assert "parlour/parlour" in zf.namelist()


def test_unresolved_libraries_are_read_from_the_log(build, tmp_path):
    log = tmp_path / "pyinstaller.log"
    log.write_text(
        "1 WARNING: Library not found: could not resolve 'libxcb-icccm.so.4', dependency of 'a'.\n"
        "2 WARNING: Library not found: could not resolve 'libxcb-icccm.so.4', dependency of 'b'.\n"
        "3 WARNING: something else\n")
    assert build.unresolved_libraries(log) == ["libxcb-icccm.so.4"]


def test_the_missing_libraries_message_names_libraries_and_packages(build):
    text = build.missing_libraries_message(["libxcb-icccm.so.4", "libxcb-keysyms.so.1",
                                            "libmystery.so.2"])
    lines = text.splitlines()
    assert lines[1:4] == ["    libxcb-icccm.so.4    (Debian package libxcb-icccm4)",
                          "    libxcb-keysyms.so.1  (Debian package libxcb-keysyms1)",
                          "    libmystery.so.2      (no Debian package known)"]
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in text
    assert "libmystery.so.2" in lines[-1]


def test_a_missing_library_stops_the_build_before_pyinstaller(build, monkeypatch):
    import sys

    if not sys.platform.startswith("linux"):
        return
    import linux_libs  # the module build.py imports

    monkeypatch.setattr(linux_libs, "missing_build_libraries", lambda: ["libxcb-icccm.so.4"])
    try:
        build.ensure_libraries(install=False)
    except SystemExit as stop:
        assert "libxcb-icccm.so.4" in str(stop) and "libxcb-icccm4" in str(stop)
    else:
        raise AssertionError("the build went on without libxcb-icccm.so.4")


def test_without_pyinstaller_the_build_stops_and_says_how_to_install_it(build, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *rest: None if name == "PyInstaller" else real(name, *rest))
    try:
        build.ensure_pyinstaller()
    except SystemExit as stop:
        assert "uv.lock" in str(stop) and "make package" in str(stop), str(stop)
    else:
        raise AssertionError("the build went on without PyInstaller")
