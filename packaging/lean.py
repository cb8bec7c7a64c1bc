"""What the Parlour bundle leaves out, in one place the spec and the tests both read.

A bare PyInstaller bundle of a PySide6 window weighs about 160 MB, most of it things
Parlour never loads: Qt translations, plugins for platforms and formats it does not
use (and the GTK/cairo/pango stack one of them drags in), and Python modules only a
developer needs. Three lists say what goes:

* ``EXCLUDES``: Python modules PyInstaller must not collect. tests/packaging checks
  that nothing app/, net/ or engine/ imports is in here.
* ``KEEP_PLUGINS``: the Qt plugins that stay, by plugin folder; a folder that is not
  listed goes entirely. Names are given without "lib" and without the extension, so
  one list serves Linux (.so), Windows (.dll) and macOS (.dylib).
* ``drop_data``: data files that go (Qt's translations: Parlour's text is English and
  its dialogs are its own).
* ``DEV_TOOLS``: Parlour's own modules that are a developer's (benchmarks, the arena,
  the network tools): the spec does not collect them, and nothing else imports them.
* ``PURE_PYTHON``: packages the bundle carries as the pure-Python source they ship
  beside their compiled modules (``copy_python_sources``).

Nothing here imports PyInstaller, so the tests can load it with plain Python.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

def _legacy_single_byte_codecs() -> list[str]:
    """``encodings.cp1252``, ``encodings.mac_roman``, ``encodings.iso8859_15`` …: every
    single-byte code page of the building Python's ``encodings`` but cp437 (cp932, cp949
    and cp950 are East Asian multi-byte ones, listed with those)."""
    import encodings
    import pkgutil

    legacy = re.compile(r"(cp(?!437$|65001$|932$|949$|950$)\d+|mac_\w+|iso8859_\d+|koi8_\w+|hp_roman8|kz1048|"
                        r"ptcp154|tis_620|palmos)$")
    return sorted(f"encodings.{module.name}" for module in pkgutil.iter_modules(encodings.__path__)
                  if legacy.match(module.name))


# Python modules nobody in app/, net/ or engine/ (nor the libraries they use at run
# time) needs in the installed app. Each is a developer's or another GUI's tool.
EXCLUDES = [
    # other GUI toolkits and Qt modules Parlour does not use (PySide6 links some of
    # their C++ libraries; the Python modules would pull in their plugins and data)
    # (QtNetwork stays: one copy of the app per identity listens on a QLocalServer)
    "tkinter", "_tkinter", "turtle", "turtledemo", "idlelib",
    "PySide6.QtDBus", "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets",
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtPrintSupport",
    "PySide6.QtSql", "PySide6.QtTest", "PySide6.QtXml", "PySide6.QtConcurrent",
    "PySide6.QtPdf", "PySide6.QtPdfWidgets", "PySide6.QtMultimedia", "PySide6.QtUiTools",
    "PySide6.QtDesigner", "PySide6.QtHelp", "PySide6.QtSvgWidgets", "PySide6.scripts",
    # test, documentation and packaging tools
    "unittest", "doctest", "pydoc", "pydoc_data", "pdb", "lib2to3", "ensurepip", "venv",
    "distutils", "setuptools", "pkg_resources", "pip", "test",
    "pytest", "_pytest", "hypothesis", "pytestqt",
    # servers and formats nothing here speaks
    "xmlrpc", "http.server", "wsgiref", "ftplib", "imaplib", "smtplib", "poplib",
    "nntplib", "telnetlib", "mailbox", "curses", "readline",
    # what magic-wormhole's command-line tool, tor support and optional accelerators bring:
    # the app uses its library only (net/houses); autobahn imports these if present
    "wormhole.cli", "wormhole.test", "txtorcon", "qrcode", "click", "tqdm", "humanize",
    "zipstream", "cbor2", "ujson", "twisted.test", "twisted.trial", "twisted.conch",
    "twisted.mail", "twisted.words", "twisted.names", "twisted.spread", "twisted.runner",
    # East Asian legacy text codecs (0.9 MB of C): Parlour's text is UTF-8, and the
    # bundle runs Python in UTF-8 mode (parlour.spec), so no locale asks for one.
    "_multibytecodec", "_codecs_cn", "_codecs_hk", "_codecs_iso2022", "_codecs_jp",
    "_codecs_kr", "_codecs_tw", *(f"encodings.{name}" for name in (
        "big5", "big5hkscs", "cp932", "cp949", "cp950", "euc_jis_2004", "euc_jisx0213",
        "euc_jp", "euc_kr", "gb18030", "gb2312", "gbk", "hz", "iso2022_jp",
        "iso2022_jp_1", "iso2022_jp_2", "iso2022_jp_2004", "iso2022_jp_3",
        "iso2022_jp_ext", "iso2022_kr", "johab", "shift_jis", "shift_jis_2004",
        "shift_jisx0213")),
    # optional accelerators and formats only libraries' unused paths reach: decimal
    # falls back to its pure-Python twin (_pydecimal, autobahn's WAMP serializer is its
    # only user); bz2 and lzma are optional in zipfile, tarfile and autobahn's
    # compression; the profilers only in twisted's command-line runner
    "_decimal", "bz2", "_bz2", "lzma", "_lzma", "cProfile", "profile", "pstats", "_lsprof",
    # coincurve's private copy of cffi's backend (1 MB): the bundle's own _cffi_backend
    # stands in for it (packaging/rthook_cffi_backend.py)
    "coincurve._cffi_backend",
    # process pools and tar archives: only the standard library's lazy paths reach them
    # (concurrent.futures' ProcessPoolExecutor, shutil's archive functions), and nothing
    # Parlour runs takes those paths (0.25 MB)
    "multiprocessing", "_multiprocessing", "_posixshmem", "concurrent.futures.process", "tarfile",
    # The single-byte legacy code pages (0.4 MB of byte code), for the East Asian codecs'
    # reason: in UTF-8 mode no locale asks for one. cp437 stays (zipfile reads a legacy
    # archive member's name with it), and so does everything UTF-8, Latin-1 and ASCII.
    *_legacy_single_byte_codecs(),
]

# Parlour's own developer tools: benchmarks, the bot arena, the network test tools (and,
# through them, tests/). The app never imports them (tests/packaging/test_lean.py).
DEV_TOOLS = ("net.tools", "engine.arena", "engine.arena_runs", "engine.bench", "engine.demo", "tests")

# zeroconf ships each of its 18 Cython-compiled modules beside the Python source it is
# compiled from, and runs that source when the compiled one is missing (as on PyPy): same
# code, same behaviour, 2.9 MB less. Parlour's mDNS traffic is a few packets a second
# on a home network, which pure Python parses in microseconds.
PURE_PYTHON = ("zeroconf",)

# Qt plugins to keep, per plugin folder. Everything else in PySide6's plugin tree goes.
KEEP_PLUGINS: dict[str, set[str] | None] = {
    # offscreen: the self-test and CI; xcb: X11; wayland: Wayland desktops;
    # windows / cocoa: the other two platforms' only backends.
    "platforms": {"qoffscreen", "qxcb", "qwayland", "qwindows", "qdirect2d", "qcocoa"},
    # the card art and the app icon are SVG; PNG and friends are built into QtGui
    "imageformats": {"qsvg"},
    "iconengines": {"qsvgicon"},
    # dead keys and input methods, so every name can be typed (ü, ñ, 李 …)
    "platforminputcontexts": {"composeplatforminputcontextplugin",
                              "ibusplatforminputcontextplugin"},
    # native widget styles on Windows and macOS (None: keep the whole folder)
    "styles": None,
    # a Wayland window needs a shell, and client-side decorations on GNOME
    "wayland-shell-integration": {"xdg-shell"},
    "wayland-decoration-client": None,
}

# PySide6/Qt/plugins/… on Linux and macOS, PySide6/plugins/… on Windows.
_PLUGIN_DIR = re.compile(r"(?:^|/)PySide6/(?:Qt/)?plugins/(?P<kind>[^/]+)/(?P<file>[^/]+)$")
_LIBRARY_SUFFIX = re.compile(r"\.(so|dll|dylib)(\.[0-9.]+)?$")


def plugin_name(filename: str) -> str:
    """``libqxcb.so`` / ``qxcb.dll`` / ``libqcocoa.dylib`` -> ``qxcb`` / ``qcocoa``."""
    stem = _LIBRARY_SUFFIX.sub("", filename)
    return stem[3:] if stem.startswith("lib") else stem


def _posix(dest: str) -> str:
    """Forward slashes whatever the build machine (TOC paths use its separator)."""
    return dest.replace("\\", "/")


def keep_plugin(dest: str) -> bool:
    """False for a Qt plugin (by its path in the bundle) that Parlour does not load;
    True for anything that is not a Qt plugin at all."""
    match = _PLUGIN_DIR.search(_posix(dest))
    if not match:
        return True
    if match["kind"] not in KEEP_PLUGINS:
        return False
    wanted = KEEP_PLUGINS[match["kind"]]
    return wanted is None or plugin_name(match["file"]) in wanted


def drop_data(dest: str) -> bool:
    """True for a data file the bundle leaves out (Qt's translations)."""
    path = _posix(dest)
    return "/translations/" in path and path.endswith(".qm")


def copy_python_sources(package: str, into: Path) -> Path:
    """Copy the installed ``package``'s Python files (not its compiled modules) to
    ``into/<package>``; returns the folder it was installed in. With ``into`` searched
    first, the spec's analysis finds and follows the pure-Python modules."""
    spec = importlib.util.find_spec(package)  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"{package} is not an installed package")
    origin = Path(next(iter(spec.submodule_search_locations)))
    target = into / package
    shutil.rmtree(target, ignore_errors=True)
    for source in sorted(origin.rglob("*.py")):
        if "__pycache__" not in source.parts:
            copy = target / source.relative_to(origin)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy)
    return origin


def dev_tool(module: str) -> bool:
    """True for a module of Parlour's that only a developer runs (``DEV_TOOLS``)."""
    return any(module == tool or module.startswith(tool + ".") for tool in DEV_TOOLS)


def excluded(module: str, excludes: list[str] | None = None) -> str | None:
    """The exclude entry that removes ``module`` (itself or a parent package), if any."""
    for entry in EXCLUDES if excludes is None else excludes:
        if module == entry or module.startswith(entry + "."):
            return entry
    return None
