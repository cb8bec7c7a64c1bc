"""Shrink the ICU data library PySide6 ships on Linux from ~31 MB to a few MB.

Qt Core on Linux links ICU, and ``libicudata.so.NN`` is nothing but one symbol,
``icudtNN_dat``: an ICU "common data" package holding ~3,900 items — every language's
names for every currency, unit, region and time zone, 200 legacy code pages, collation
and transliteration rules for every language. Qt reaches ICU for a few things only
(collation, locale-aware case mapping, legacy text codecs), and Parlour's text is
English and UTF-8. So this keeps the root and English data, the core property,
normalization and time zone tables and the default break-iteration rules, and drops
the rest (character names, StringPrep profiles and the spoof checker's data among
them); an ICU lookup for something dropped returns an error code, and Qt falls back to
its own code (``QCollator`` to plain comparison, ``QString::toUpper`` to Unicode's
rules).
``parlour --self-test`` exercises those paths in the built bundle.

    python packaging/icu_trim.py SRC_LIB OUT_LIB      # what the spec does, by hand

The package format (ICU's ``ucmndata.h``, "CmnD" version 1): a data header, then a
table of contents — a uint32 count and ``count`` pairs of uint32 (name offset, data
offset), both relative to the start of the table — then the names (NUL-terminated,
sorted, looked up by binary search) and the items, each 16-byte aligned. The new
library is assembled with the C compiler (``.incbin``); without one the spec keeps the
original library.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

MAGIC = b"\xda\x27"
ITEM_ALIGN = 16
PAD = b"\xaa"  # what ICU's own packager pads with, so a rewrite is byte-identical

# What stays. Names are relative to the package's "icudtNNl/" prefix.
_KEEP_LOCALES = re.compile(r"^(root|en|en_[A-Za-z0-9_]+|res_index|pool)\.res$")
_LOCALE_FILE = re.compile(r"^[a-z]{2,3}(_[A-Za-z0-9]+)*\.res$")
_DROP_TREES = ("unit/", "curr/", "zone/", "lang/", "region/", "translit/", "rbnf/")
# ICU services Qt never calls: Unicode character names (u_charName), the StringPrep
# profiles (Qt's IDNA is its own) and the spoof checker's confusables.
_DROP_FILES = re.compile(r"^(unames\.icu|\w+\.spp|confusables\w*\.cfu)$")
# Break iteration keeps its default rules; the tailorings (Chinese/Japanese line
# breaking, phrases, loose/normal/strict line styles, Finnish/Swedish words, Greek
# sentences, POSIX words) go.
_DEFAULT_BREAKS = re.compile(r"^brkitr/(\w+\.res|(char|line|sent|title|word)\.brk)$")


def keep_item(name: str) -> bool:
    """True for an ICU data item the bundle keeps (``name`` without the prefix)."""
    if name.startswith(_DROP_TREES) or name.endswith(".cnv") or _DROP_FILES.match(name):
        return False  # display names, spelled-out numbers, legacy code pages …
    if name.startswith("brkitr/"):
        return bool(_DEFAULT_BREAKS.match(name))  # not the CJK/Thai word lists (MBs each)
    tail = name.rsplit("/", 1)[-1]
    if name.startswith("coll/"):
        return tail == "ucadata.icu" or bool(_KEEP_LOCALES.match(tail))
    if "/" not in name and _LOCALE_FILE.match(name):
        return bool(_KEEP_LOCALES.match(name))
    return True  # properties, normalization, time zones, metadata: small and shared


def read_package(blob: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """The header and the (name, bytes) items of a little-endian common data package."""
    header_size = struct.unpack_from("<H", blob, 0)[0]
    if blob[2:4] != MAGIC or blob[12:16] != b"CmnD":
        raise ValueError("not an ICU common data package")
    count = struct.unpack_from("<I", blob, header_size)[0]
    entries = struct.unpack_from(f"<{2 * count}I", blob, header_size + 4)
    starts = [header_size + offset for offset in entries[1::2]] + [len(blob)]
    items = []
    for index in range(count):
        name_at = header_size + entries[2 * index]
        name = blob[name_at:blob.index(b"\0", name_at)].decode("ascii")
        items.append((name, blob[starts[index]:starts[index + 1]]))
    return blob[:header_size], items


def write_package(header: bytes, items: list[tuple[str, bytes]]) -> bytes:
    """A package holding ``items`` (sorted by name, as ICU's binary search needs)."""
    items = sorted(items, key=lambda item: item[0].encode("ascii"))
    toc_size = 4 + 8 * len(items)
    names = b"".join(name.encode("ascii") + b"\0" for name, _ in items)
    name_offsets, at = [], toc_size
    for name, _ in items:
        name_offsets.append(at)
        at += len(name) + 1
    at = _align(at + len(header)) - len(header)
    data, data_offsets = bytearray(), []
    for _, item in items:
        data_offsets.append(at + len(data))
        data += item + PAD * (_align(len(item)) - len(item))
    toc = struct.pack("<I", len(items)) + b"".join(
        struct.pack("<II", n, d) for n, d in zip(name_offsets, data_offsets))
    body = toc + names
    padding = PAD * (_align(len(header) + len(body)) - len(header) - len(body))
    return header + body + padding + bytes(data)


def _align(n: int) -> int:
    return (n + ITEM_ALIGN - 1) // ITEM_ALIGN * ITEM_ALIGN


def trim(blob: bytes) -> bytes:
    """The package with only the items ``keep_item`` wants."""
    header, items = read_package(blob)
    prefix = items[0][0].split("/", 1)[0] + "/" if items else ""
    kept = [(name, data) for name, data in items if keep_item(name[len(prefix):])]
    return write_package(header, kept)


def elf_symbol(data: bytes, wanted: re.Pattern) -> tuple[str, bytes]:
    """(name, bytes) of the first dynamic symbol matching ``wanted`` in an ELF64 LE file."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    for sh in sections:
        if sh[1] != 11:  # SHT_DYNSYM
            continue
        strtab = sections[sh[6]]
        for at in range(sh[4], sh[4] + sh[5], sh[9]):
            st_name, _info, _other, shndx, value, size = struct.unpack_from("<IBBHQQ", data, at)
            name_at = strtab[4] + st_name
            name = data[name_at:data.index(b"\0", name_at)].decode("ascii")
            if wanted.fullmatch(name) and shndx:
                section = sections[shndx]
                offset = value - section[3] + section[4]  # address -> file offset
                return name, data[offset:offset + size]
    raise ValueError(f"no symbol matching {wanted.pattern}")


def build_library(package: bytes, symbol: str, soname: str, out: Path) -> None:
    """A shared library exporting ``symbol`` = ``package``, like ICU's own data library."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        raise RuntimeError("no C compiler (cc) to assemble the ICU data library")
    with tempfile.TemporaryDirectory(prefix="parlour-icu-") as tmp:
        dat, asm = Path(tmp) / "data.bin", Path(tmp) / "data.S"
        dat.write_bytes(package)
        asm.write_text(
            f'    .section .rodata\n    .globl {symbol}\n    .type {symbol}, @object\n'
            f'    .balign 16\n{symbol}:\n    .incbin "{dat}"\n'
            f'    .size {symbol}, . - {symbol}\n'
            '    .section .note.GNU-stack,"",@progbits\n')
        subprocess.run([cc, "-shared", "-nostdlib", f"-Wl,-soname,{soname}",
                        "-o", str(out), str(asm)], check=True)


def trim_library(src: Path, out: Path) -> tuple[int, int]:
    """Write a trimmed copy of the ICU data library ``src`` to ``out``; (old, new) sizes."""
    data = src.read_bytes()
    symbol, package = elf_symbol(data, re.compile(r"icudt\d+_dat"))
    trimmed = trim(package)
    build_library(trimmed, symbol, src.name, out)
    return len(data), out.stat().st_size


if __name__ == "__main__":
    before, after = trim_library(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"ICU data: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")
