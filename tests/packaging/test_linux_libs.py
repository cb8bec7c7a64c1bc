"""packaging/linux_libs.py: the exclude list, reading DT_NEEDED, what the build must
carry, pruning what only excluded libraries need, and the check of a built bundle.

Run on the real libraries of this machine where they exist (a library that is not
installed skips the test that needs it, saying which).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIB_DIRS = ("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("ldd"),
                                reason="ELF libraries and ldd: Linux only")


def system_lib(soname: str) -> Path:
    for folder in LIB_DIRS:
        if (Path(folder) / soname).exists():
            return Path(folder) / soname
    pytest.skip(f"{soname} is not installed here")


def pyside_plugin(name: str) -> Path:
    import PySide6
    return Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / name


@pytest.mark.parametrize("soname", [
    "libc.so.6", "ld-linux-x86-64.so.2", "libstdc++.so.6", "libGL.so.1", "libEGL.so.1",
    "libxcb.so.1", "libX11.so.6", "libX11-xcb.so.1", "libfontconfig.so.1", "libz.so.1",
    "libwayland-client.so.0", "libexpat.so.1", "libgcc_s.so.1",
    # PyInstaller never bundles these either
    "libwayland-cursor.so.0", "libwayland-egl.so.1", "libGLESv2.so.2", "libcrypt.so.1",
    # beyond AppImage's list: what Qt's own wheels take from every desktop too
    "libdbus-1.so.3", "libglib-2.0.so.0", "libgthread-2.0.so.0", "libzstd.so.1",
])
def test_excluded(linux_libs, soname):
    assert linux_libs.excluded(soname)


@pytest.mark.parametrize("soname", [
    "libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-cursor.so.0", "libxkbcommon.so.0",
    "libxkbcommon-x11.so.0", "libgssapi_krb5.so.2", "libbrotlidec.so.1",
    "libpython3.11.so.1.0", "libQt6Gui.so.6",
])
def test_carried(linux_libs, soname):
    assert not linux_libs.excluded(soname)


def test_pyinstaller_patterns_match_as_pyinstaller_matches(linux_libs):
    # PyInstaller joins its patterns with "|" and re.match()es a file's base name
    matcher = re.compile("|".join(linux_libs.pyinstaller_patterns()), re.I)
    assert matcher.match("libz.so.1") and matcher.match("libz.so.1.2.13")
    assert matcher.match("libstdc++.so.6.0.30")
    assert not matcher.match("libzip.so.4") and not matcher.match("libxcb-icccm.so.4")


def test_pyinstaller_would_exclude_the_list_once_extended(linux_libs):
    dylib = pytest.importorskip("PyInstaller.depend.dylib")
    matcher = dylib.MatchList(sorted(dylib._excludes) + linux_libs.pyinstaller_patterns())
    for name in sorted(linux_libs.EXCLUDED) + ["libwayland-egl.so.1"]:
        assert matcher.check_library(f"/usr/lib/x86_64-linux-gnu/{name}"), name
    assert not matcher.check_library("/usr/lib/x86_64-linux-gnu/libxcb-icccm.so.4")


def test_elf_needed_reads_a_plugins_own_needs(linux_libs):
    needed = linux_libs.elf_needed(pyside_plugin("libqxcb.so"))
    assert needed[:2] == ["libQt6XcbQpa.so.6", "libQt6Gui.so.6"]
    assert {"libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb.so.1", "libc.so.6"} <= set(needed)


def test_elf_needed_agrees_with_readelf(linux_libs):
    if shutil.which("readelf") is None:
        pytest.skip("no readelf (binutils) to compare with")
    for path in (pyside_plugin("libqwayland.so"), system_lib("libxkbcommon-x11.so.0")):
        out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True).stdout
        assert linux_libs.elf_needed(path) == re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]",
                                                         out)


def test_elf_needed_refuses_other_files(linux_libs, tmp_path):
    (tmp_path / "x").write_text("#!/bin/sh\n")
    with pytest.raises(ValueError):
        linux_libs.elf_needed(tmp_path / "x")


def test_the_qt_modules_listed_are_the_ones_app_imports(linux_libs):
    imported = set()
    for path in (ROOT / "app").rglob("*.py"):
        imported |= set(re.findall(r"^\s*(?:from|import) PySide6\.(Qt\w+)",
                                   path.read_text(encoding="utf-8"), re.MULTILINE))
    assert imported == set(linux_libs.QT_MODULES)


def test_what_the_build_must_carry_covers_the_xcb_helpers(linux_libs):
    needed = linux_libs.required_sonames(linux_libs.kept_qt_binaries(linux_libs.pyside_dir()))
    assert {"libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxkbcommon-x11.so.0",
            "libxkbcommon.so.0"} <= set(needed)
    assert not any(linux_libs.excluded(name) for name in needed)
    assert "libXau.so.6" not in needed  # only the system's libxcb needs it
    assert "libsystemd.so.0" not in needed  # only the system's libdbus-1 needs it
    assert not any(name.startswith("libQt6") for name in needed)


def test_debian_packages_for_sonames(linux_libs):
    assert linux_libs.debian_packages(["libxcb-icccm.so.4", "libxcb-keysyms.so.1",
                                       "libmystery.so.1"]) == \
        (["libxcb-icccm4", "libxcb-keysyms1"], ["libmystery.so.1"])


def test_the_package_table_agrees_with_dpkg(linux_libs):
    """Each library installed here belongs to the Debian package the table names."""
    if shutil.which("dpkg") is None:
        pytest.skip("not a Debian system")
    names = sorted(linux_libs.PACKAGES)
    # exact paths (a glob makes dpkg take seconds); merged /usr: either may be recorded
    paths = [f"{folder}/{name}" for name in names for folder in LIB_DIRS[:2]]
    done = subprocess.run(["dpkg", "-S", *paths], capture_output=True, text=True)
    owners: dict[str, set[str]] = {}
    for line in done.stdout.splitlines():
        packages, path = line.split(": ", 1)
        for package in packages.split(", "):
            owners.setdefault(Path(path).name, set()).add(package.split(":")[0])
    checked = [name for name in names if name in owners]
    assert len(checked) > 30, f"dpkg knew too few of them to mean anything: {checked}"
    wrong = {name: (linux_libs.PACKAGES[name].debian, sorted(owners[name]))
             for name in checked if linux_libs.PACKAGES[name].debian not in owners[name]}
    assert not wrong


def _binaries(**named: Path) -> list[tuple[str, str, str]]:
    return [(dest, str(src), "BINARY") for dest, src in named.items()]


def test_orphans_are_what_only_excluded_libraries_need(linux_libs):
    # libqxcb needs libxkbcommon-x11 itself; libXau only comes in under the system's libxcb
    binaries = [("PySide6/Qt/plugins/platforms/libqxcb.so", str(pyside_plugin("libqxcb.so")),
                 "BINARY"),
                ("libxkbcommon-x11.so.0", str(system_lib("libxkbcommon-x11.so.0")), "BINARY"),
                ("libxkbcommon.so.0", str(system_lib("libxkbcommon.so.0")), "BINARY"),
                ("libXau.so.6", str(system_lib("libXau.so.6")), "BINARY"),
                ("libpython3.11.so.1.0", "/nonexistent/libpython3.11.so.1.0", "BINARY")]
    assert linux_libs.orphans(binaries) == ["libXau.so.6"]


def _fake_bundle(tmp_path: Path, *sonames: str) -> Path:
    bundle = tmp_path / "parlour"
    (bundle / "_internal").mkdir(parents=True)
    for soname in sonames:
        shutil.copy(system_lib(soname), bundle / "_internal" / soname)
    return bundle


def test_a_bundle_carrying_what_it_needs_passes(linux_libs, tmp_path):
    bundle = _fake_bundle(tmp_path, "libxkbcommon-x11.so.0", "libxkbcommon.so.0",
                          "libxcb-xkb.so.1")
    report = linux_libs.check_bundle(bundle)
    assert report.ok, report.lines()
    assert report.files == 3
    assert "libxcb.so.1" in linux_libs.system_sonames(bundle)


def test_a_library_taken_from_the_system_fails_the_check(linux_libs, tmp_path):
    bundle = _fake_bundle(tmp_path, "libxkbcommon-x11.so.0", "libxcb-xkb.so.1")
    report = linux_libs.check_bundle(bundle)
    assert not report.ok
    assert set(report.from_system) == {"libxkbcommon.so.0"}
    assert any("libxkbcommon.so.0 resolves to the system's copy" in line
               for line in report.lines())


def test_an_excluded_library_in_the_bundle_fails_the_check(linux_libs, tmp_path):
    report = linux_libs.check_bundle(_fake_bundle(tmp_path, "libz.so.1"))
    assert report.carried_excluded == ["_internal/libz.so.1"] and not report.ok


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_a_library_found_nowhere_fails_the_check(linux_libs, tmp_path):
    """A bundled library that needs one neither the bundle nor the system has."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "gone.c").write_text("int gone(void) { return 1; }\n")
    (src / "user.c").write_text("int gone(void);\nint user(void) { return gone(); }\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", "libgone.so.1", "-Wl,-soname,libgone.so.1",
                    "gone.c"], cwd=src, check=True)
    bundle = _fake_bundle(tmp_path)
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(bundle / "_internal" / "libuser.so.1"),
                    "user.c", "-L.", "-l:libgone.so.1"], cwd=src, check=True)
    report = linux_libs.check_bundle(bundle)
    assert set(report.not_found) == {"libgone.so.1"} and not report.ok
    assert report.lines()[0].startswith("not found: libgone.so.1 (needed by "
                                        "_internal/libuser.so.1)")


def test_pythons_shared_library_is_found_and_named(linux_libs, monkeypatch):
    name, _debian, present = linux_libs.python_library()
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert name.startswith(f"libpython{version}") and ".so" in name
    assert present  # this interpreter runs PyInstaller builds, so it has one
    monkeypatch.setattr(linux_libs.sys, "base_prefix", "/usr")  # Debian's python3
    assert linux_libs.python_library()[1] == f"libpython{version}"
    assert linux_libs.debian_packages([name]) == ([f"libpython{version}"], [])
