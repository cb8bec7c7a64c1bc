"""Which Qt plugins and data files the bundle keeps (packaging/lean.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

LINUX = "PySide6/Qt/plugins"
WINDOWS = "PySide6\\plugins"


@pytest.mark.parametrize("dest", [
    f"{LINUX}/platforms/libqxcb.so",
    f"{LINUX}/platforms/libqwayland.so",
    f"{LINUX}/platforms/libqoffscreen.so",
    f"{LINUX}/imageformats/libqsvg.so",
    f"{LINUX}/iconengines/libqsvgicon.so",
    f"{LINUX}/platforminputcontexts/libcomposeplatforminputcontextplugin.so",
    f"{LINUX}/wayland-shell-integration/libxdg-shell.so",
    f"{LINUX}/wayland-decoration-client/libadwaita.so",
    "PySide6/Qt/plugins/platforms/libqcocoa.dylib",
    "PySide6/Qt/plugins/styles/libqmacstyle.dylib",
    "PySide6/plugins/platforms/qwindows.dll",
    "PySide6/plugins/styles/qmodernwindowsstyle.dll",
    "PySide6/Qt/lib/libQt6Gui.so.6",           # not a plugin: never filtered here
    "cryptography/hazmat/bindings/_rust.abi3.so",
])
def test_kept(lean, dest):
    assert lean.keep_plugin(dest)


@pytest.mark.parametrize("dest", [
    f"{LINUX}/platformthemes/libqgtk3.so",    # pulls in GTK, cairo, pango: ~15 MB
    f"{LINUX}/platforms/libqeglfs.so",
    f"{LINUX}/platforms/libqvnc.so",
    f"{LINUX}/imageformats/libqtiff.so",
    f"{LINUX}/imageformats/libqpdf.so",
    f"{LINUX}/tls/libqopensslbackend.so",
    f"{LINUX}/networkinformation/libqnetworkmanager.so",
    f"{LINUX}/egldeviceintegrations/libqeglfs-kms-integration.so",
    f"{LINUX}/wayland-shell-integration/libivi-shell.so",
    "PySide6/plugins/imageformats/qjpeg.dll",
])
def test_dropped(lean, dest):
    assert not lean.keep_plugin(dest)


def test_windows_separators_are_understood(lean):
    assert lean.keep_plugin(f"{WINDOWS}\\platforms\\qwindows.dll")
    assert not lean.keep_plugin(f"{WINDOWS}\\imageformats\\qtiff.dll")
    assert lean.drop_data("PySide6\\translations\\qt_fr.qm")


@pytest.mark.parametrize("filename, name", [
    ("libqxcb.so", "qxcb"), ("qwindows.dll", "qwindows"), ("libqcocoa.dylib", "qcocoa"),
    ("libqsvg.so.6", "qsvg"), ("libxdg-shell.so", "xdg-shell"),
])
def test_plugin_name(lean, filename, name):
    assert lean.plugin_name(filename) == name


def test_translations_go_other_data_stays(lean):
    assert lean.drop_data("PySide6/Qt/translations/qtbase_de.qm")
    assert lean.drop_data("PySide6/translations/qt_fr.qm")
    assert not lean.drop_data("assets/cards/standard/AS.svg")
    assert not lean.drop_data("assets/icons/parlour.png")


def test_python_sources_are_copied_without_the_compiled_modules(lean, tmp_path):
    import zeroconf

    origin = lean.copy_python_sources("zeroconf", tmp_path)
    assert origin == Path(zeroconf.__file__).parent
    copied = {p.relative_to(tmp_path / "zeroconf").as_posix()
              for p in (tmp_path / "zeroconf").rglob("*") if p.is_file()}
    assert {"__init__.py", "_dns.py", "_services/__init__.py", "_protocol/incoming.py"} <= copied
    assert all(name.endswith(".py") for name in copied), copied
    assert copied == {p.relative_to(origin).as_posix() for p in origin.rglob("*.py")
                      if "__pycache__" not in p.parts}


def test_coincurve_runs_on_the_bundles_cffi_backend_in_place_of_its_own_copy():
    """The bundle leaves out coincurve's private ``_cffi_backend`` (lean.EXCLUDES) and its
    runtime hook hands coincurve the one the bundle carries: in a fresh interpreter that
    runs the hook first, coincurve loads on it and multiplies on the curve (2·G's known
    encoding)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    hook = root / "packaging" / "rthook_cffi_backend.py"
    script = f"""
import runpy, sys
runpy.run_path({str(hook)!r})
import coincurve
from coincurve._libsecp256k1 import ffi
assert sys.modules["coincurve._cffi_backend"] is sys.modules["_cffi_backend"]
assert type(ffi).__module__ == "_cffi_backend"
two_g = coincurve.PublicKey.from_valid_secret((1).to_bytes(32, "big")).multiply((2).to_bytes(32, "big"))
print(two_g.format().hex())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "02c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5"


def test_coincurves_private_cffi_backend_is_left_out(lean):
    assert "coincurve._cffi_backend" in lean.EXCLUDES


def test_legacy_single_byte_codecs_go_and_unicode_latin1_ascii_and_cp437_stay(lean):
    excluded = set(lean.EXCLUDES)
    assert {"encodings.cp1252", "encodings.mac_roman", "encodings.iso8859_15",
            "encodings.koi8_r"} <= excluded
    assert not {"encodings.cp437", "encodings.utf_8", "encodings.latin_1", "encodings.ascii",
                "encodings.idna", "encodings.charmap", "encodings.utf_16"} & excluded
    assert len(excluded) == len(lean.EXCLUDES)  # each listed once
