"""What a Parlour bundle carries, and whether two bundles carry the same.

A bundle's manifest has three parts:

* **distributions**: every Python distribution the bundle carries, with its version, read
  from the ``*.dist-info/METADATA`` files in it. The spec copies those in for every
  distribution whose modules it collects (``carried_distributions``, ``metadata_files``):
  the self-test reads its versions from them too (app/selftest.py, ``LIBRARIES``);
* **files**: every file in the bundle folder, with its SHA-256 (of a ``.zip``, of its
  members, whatever their order: PyInstaller writes base_library.zip's members in an
  order that changes from build to build, their bytes do not);
* **modules**: every Python module in the executable's PYZ archive, with the SHA-256 of
  its (decompressed) code.

``compare`` says whether two manifests carry the same: the same distributions at the same
versions, the same files and the same modules. Contents are compared too and the files
and modules that differ listed; a build from another checkout of the same commit may
differ in contents where a build stamps something of its own (the difference is shown,
not hidden).

    python packaging/manifest.py dist/parlour > one.json        # the manifest as JSON
    python packaging/manifest.py --compare one.json two.json    # or two bundle folders

Exit status of ``--compare``: 0 if the two carry the same distributions, files and
modules, 1 if not.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.parser import HeaderParser
from importlib import metadata
from pathlib import Path

EXECUTABLE = "parlour"  # the bundle's program; parlour.exe/parlour-cli.exe on Windows
PYZ_NAME = "PYZ.pyz"
# Licence texts go with a distribution's metadata: a binary that carries a library
# carries its licence.
_LICENCE_PREFIXES = ("LICENSE", "LICENCE", "COPYING", "NOTICE", "AUTHORS")


# -- what the spec copies in -------------------------------------------------------------

def carried_distributions(sources: Iterable[str], own: str = "parlour"
                          ) -> list[metadata.Distribution]:
    """The installed distributions whose files are among ``sources`` (the source paths
    of what the bundle collects: modules, extensions, data), and ``own`` (the project,
    whose editable install lists none of its modules), sorted by name.

    By file, not by top-level package: several distributions install into ``twisted/``
    (plugins of their own) and are carried only if one of their files is."""
    owners: dict[Path, metadata.Distribution] = {}
    for dist in metadata.distributions():
        for file in dist.files or ():
            owners.setdefault(Path(str(dist.locate_file(file))).resolve(), dist)
    found = {}
    try:
        found[_normal(own)] = metadata.distribution(own)
    except metadata.PackageNotFoundError:
        pass  # a checkout never installed: the spec says so
    for source in sources:
        dist = owners.get(Path(source).resolve())
        if dist is not None:
            found.setdefault(_normal(dist.metadata["Name"]), dist)
    return [found[key] for key in sorted(found)]


def metadata_files(distributions: Iterable[metadata.Distribution]) -> list[tuple[str, str]]:
    """(source file, folder in the bundle) for each distribution's METADATA and licence
    texts, under its ``*.dist-info`` folder name: what importlib.metadata needs to find
    its version, and no more (no RECORD, no entry points)."""
    files = []
    for dist in distributions:
        folder = _dist_info(dist)
        files.append((str(folder / "METADATA"), folder.name))
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            relative = path.relative_to(folder)
            if relative.parts[0] == "licenses" or path.name.upper().startswith(_LICENCE_PREFIXES):
                files.append((str(path), str(Path(folder.name) / relative.parent)))
    return files


def _dist_info(dist: metadata.Distribution) -> Path:
    path = getattr(dist, "_path", None)  # PathDistribution: its *.dist-info folder
    if path is None or not (Path(path) / "METADATA").is_file():
        raise ValueError(f"{dist.metadata['Name']}: no *.dist-info/METADATA to copy")
    return Path(path)


def _normal(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return "-".join(name.replace("_", "-").replace(".", "-").lower().split("-"))


# -- a built bundle's manifest -----------------------------------------------------------

@dataclass(frozen=True)
class Manifest:
    distributions: dict[str, str] = field(default_factory=dict)  # name -> version
    files: dict[str, str] = field(default_factory=dict)          # path -> sha256
    modules: dict[str, str] = field(default_factory=dict)        # module -> sha256 of code

    def to_json(self) -> str:
        return json.dumps({"distributions": self.distributions, "files": self.files,
                           "modules": self.modules}, indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        data = json.loads(text)
        return cls(data["distributions"], data["files"], data["modules"])


def manifest(bundle: Path) -> Manifest:
    """The manifest of the bundle folder ``bundle`` (``dist/parlour``)."""
    files = {path.relative_to(bundle).as_posix(): _file_digest(path)
             for path in sorted(bundle.rglob("*")) if path.is_file() and not path.is_symlink()}
    distributions = {}
    for meta in sorted(bundle.rglob("*.dist-info/METADATA")):
        headers = HeaderParser().parsestr(meta.read_text(encoding="utf-8", errors="replace"))
        distributions[_normal(headers["Name"])] = headers["Version"]
    return Manifest(distributions, files, pyz_modules(_executable(bundle)))


def _executable(bundle: Path) -> Path:
    for name in (EXECUTABLE, f"{EXECUTABLE}.exe"):
        if (bundle / name).is_file():
            return bundle / name
    raise FileNotFoundError(f"no {EXECUTABLE} executable in {bundle}")


def pyz_modules(executable: Path) -> dict[str, str]:
    """Every module in the PYZ archive inside ``executable`` -> the SHA-256 of its code
    (PyInstaller's own archive readers, from the build's environment)."""
    from PyInstaller.archive.readers import CArchiveReader

    pyz = CArchiveReader(str(executable)).open_embedded_archive(PYZ_NAME)
    return {name: _sha256(pyz.extract(name, raw=True) or b"") for name in sorted(pyz.toc)}


def _file_digest(path: Path) -> str:
    """SHA-256 of the file; of a zip archive, of its members (names and bytes) sorted."""
    if path.suffix == ".zip" and zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            members = sorted((info.filename, _sha256(archive.read(info)))
                             for info in archive.infolist())
        return _sha256(json.dumps(members).encode())
    return _sha256(path.read_bytes())


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- comparing two -----------------------------------------------------------------------

@dataclass(frozen=True)
class Comparison:
    """How two manifests differ. ``same`` asks for the same distributions (and
    versions), file list and module list; ``changed_*`` list contents that differ."""
    distributions: dict[str, tuple[str | None, str | None]]
    only_files: tuple[list[str], list[str]]
    only_modules: tuple[list[str], list[str]]
    changed_files: list[str]
    changed_modules: list[str]

    @property
    def same(self) -> bool:
        return not (self.distributions or any(self.only_files) or any(self.only_modules))

    def lines(self, first: Manifest) -> list[str]:
        out = [f"distributions: {len(first.distributions)}, "
               + ("the same releases" if not self.distributions else "DIFFERENT")]
        for name, (one, two) in sorted(self.distributions.items()):
            out.append(f"    {name}: {one or '-'} vs {two or '-'}")
        for label, (one, two), total in (("files", self.only_files, len(first.files)),
                                         ("modules", self.only_modules, len(first.modules))):
            out.append(f"{label}: {total}, " + ("the same list" if not (one or two)
                                                 else "DIFFERENT"))
            out += [f"    only in the first: {name}" for name in one]
            out += [f"    only in the second: {name}" for name in two]
        for label, changed in (("files", self.changed_files), ("modules", self.changed_modules)):
            out.append(f"{label} whose contents differ: {len(changed)}"
                       + (": " + ", ".join(changed[:12]) if changed else ""))
            if len(changed) > 12:
                out.append(f"    … and {len(changed) - 12} more")
        out.append("the same packages" if self.same else "NOT the same packages")
        return out


def compare(one: Manifest, two: Manifest) -> Comparison:
    names = sorted(set(one.distributions) | set(two.distributions))
    distributions = {name: (one.distributions.get(name), two.distributions.get(name))
                     for name in names
                     if one.distributions.get(name) != two.distributions.get(name)}
    return Comparison(
        distributions=distributions,
        only_files=(sorted(set(one.files) - set(two.files)),
                    sorted(set(two.files) - set(one.files))),
        only_modules=(sorted(set(one.modules) - set(two.modules)),
                      sorted(set(two.modules) - set(one.modules))),
        changed_files=sorted(path for path in set(one.files) & set(two.files)
                             if one.files[path] != two.files[path]),
        changed_modules=sorted(name for name in set(one.modules) & set(two.modules)
                               if one.modules[name] != two.modules[name]))


def _load(path: Path) -> Manifest:
    return manifest(path) if path.is_dir() else Manifest.from_json(path.read_text())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bundle", type=Path, nargs="?", help="a bundle folder (dist/parlour)")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("ONE", "TWO"),
                        help="two bundle folders or manifests (JSON) to compare")
    args = parser.parse_args(argv)
    if args.compare:
        one, two = map(_load, args.compare)
        comparison = compare(one, two)
        print("\n".join(comparison.lines(one)))
        return 0 if comparison.same else 1
    if args.bundle is None:
        parser.error("name a bundle folder, or --compare two")
    print(_load(args.bundle).to_json())
    return 0


if __name__ == "__main__":
    sys.exit(main())
