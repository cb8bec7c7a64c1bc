"""packaging/icu_trim.py: reading, trimming and rewriting ICU's common data package,
and assembling it back into a library, checked on PySide6's own ICU data where the
wheel ships one (Linux)."""

from __future__ import annotations

import re
import shutil
import struct
import sys
from pathlib import Path

import pytest

SYMBOL = re.compile(r"icudt\d+_dat")


def _pyside_icu() -> Path | None:
    try:
        import PySide6
    except ImportError:
        return None
    found = sorted((Path(PySide6.__file__).parent / "Qt" / "lib").glob("libicudata.so.*"))
    return found[0] if found else None


ICU = _pyside_icu()
needs_icu = pytest.mark.skipif(ICU is None, reason="this PySide6 wheel ships no ICU data (not Linux)")
needs_cc = pytest.mark.skipif(
    not (sys.platform.startswith("linux") and (shutil.which("cc") or shutil.which("gcc"))),
    reason="assembling an ELF library needs Linux and a C compiler")


def _header() -> bytes:
    """A 32-byte little-endian "CmnD" header, like ICU's."""
    info = struct.pack("<HHBBBB4s4s4s", 20, 0, 0, 0, 2, 0, b"CmnD", b"\1\0\0\0", b"\0\0\0\0")
    return (struct.pack("<H", 32) + b"\xda\x27" + info).ljust(32, b"\0")


ITEMS = [("icudt99l/root.res", b"R" * 21), ("icudt99l/coll/root.res", b"C" * 40),
         ("icudt99l/ibm-37.cnv", b"X" * 7), ("icudt99l/de.res", b"D" * 16)]


@pytest.fixture(scope="module")
def real_package(icu_trim):
    if ICU is None:
        pytest.skip("no ICU data library in this PySide6")
    return icu_trim.elf_symbol(ICU.read_bytes(), SYMBOL)


def test_a_written_package_reads_back_sorted_and_aligned(icu_trim):
    blob = icu_trim.write_package(_header(), ITEMS)
    header, items = icu_trim.read_package(blob)
    assert header == _header()
    assert [name for name, _ in items] == sorted(name for name, _ in ITEMS)
    for name, data in ITEMS:  # each item is its bytes plus padding to 16
        got = dict(items)[name]
        assert got[:len(data)] == data and len(got) % 16 == 0


def test_trim_drops_code_pages_and_other_languages(icu_trim):
    _header_, items = icu_trim.read_package(icu_trim.trim(icu_trim.write_package(_header(), ITEMS)))
    assert [name for name, _ in items] == ["icudt99l/coll/root.res", "icudt99l/root.res"]


@pytest.mark.parametrize("name, kept", [
    ("root.res", True), ("en.res", True), ("en_GB.res", True), ("res_index.res", True),
    ("pool.res", True), ("uprops.icu", True), ("nfkc.nrm", True), ("zoneinfo64.res", True),
    ("likelySubtags.res", True), ("coll/ucadata.icu", True), ("coll/root.res", True),
    ("coll/en.res", True), ("brkitr/line.brk", True), ("brkitr/root.res", True),
    ("de.res", False), ("zh_Hant_TW.res", False), ("coll/de.res", False),
    ("brkitr/cjdict.dict", False), ("ibm-1390_P110-2003.cnv", False),
    ("curr/en.res", False), ("translit/root.res", False), ("unit/de.res", False),
    ("brkitr/word.brk", True), ("brkitr/en.res", True), ("brkitr/line_cj.brk", False),
    ("brkitr/line_loose_phrase_cj.brk", False), ("brkitr/word_POSIX.brk", False),
    ("unames.icu", False), ("rfc3491.spp", False), ("confusables.cfu", False),
    ("cnvalias.icu", True), ("uts46.nrm", True),
])
def test_keep_item(icu_trim, name, kept):
    assert icu_trim.keep_item(name) is kept


def test_garbage_is_not_a_package(icu_trim):
    with pytest.raises(ValueError):
        icu_trim.read_package(b"\x20\x00\xda\x27" + b"\0" * 60)


@needs_icu
def test_rewriting_pysides_icu_data_is_byte_identical(icu_trim, real_package):
    _name, blob = real_package
    header, items = icu_trim.read_package(blob)
    assert len(items) > 1000
    assert icu_trim.write_package(header, items) == blob


@needs_icu
def test_trimmed_pyside_data_keeps_what_qt_uses(icu_trim, real_package):
    _name, blob = real_package
    trimmed = icu_trim.trim(blob)
    names = {name.split("/", 1)[1] for name, _ in icu_trim.read_package(trimmed)[1]}
    assert {"coll/ucadata.icu", "coll/root.res", "root.res", "res_index.res"} <= names
    assert not any(name.endswith(".cnv") for name in names)
    assert len(trimmed) < len(blob) / 4


@needs_cc
def test_an_assembled_library_exports_the_package(icu_trim, tmp_path):
    package = icu_trim.write_package(_header(), ITEMS)
    out = tmp_path / "libicudata.so.99"
    icu_trim.build_library(package, "icudt99_dat", out.name, out)
    assert icu_trim.elf_symbol(out.read_bytes(), SYMBOL) == ("icudt99_dat", package)
    assert b"libicudata.so.99\0" in out.read_bytes()  # the soname the loader looks for
