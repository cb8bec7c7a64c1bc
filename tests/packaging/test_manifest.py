"""packaging/manifest.py: which distributions the bundle carries (by file), the
metadata the spec copies for them, a bundle's manifest and the comparison of two."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _file_of(distribution: str, suffix: str) -> str:
    dist = metadata.distribution(distribution)
    path = next(f for f in dist.files if str(f).endswith(suffix))
    return str(dist.locate_file(path))


def test_distributions_are_found_by_the_files_collected(manifest):
    sources = [_file_of("Twisted", "twisted/internet/defer.py"),
               _file_of("msgpack", "msgpack/__init__.py"), "/nowhere/else.py"]
    names = [dist.metadata["Name"] for dist in manifest.carried_distributions(sources)]
    # twisted/ also holds other distributions' plugins (the mailbox server's): not carried
    assert sorted(names, key=str.lower) == ["msgpack", "parlour", "Twisted"]


def test_the_metadata_copied_is_metadata_and_licences_only(manifest):
    files = manifest.metadata_files([metadata.distribution("msgpack")])
    folder = files[0][1]
    assert folder.startswith("msgpack-") and folder.endswith(".dist-info")
    assert Path(files[0][0]).name == "METADATA"
    names = {Path(source).name for source, _dest in files}
    assert "RECORD" not in names and "entry_points.txt" not in names
    assert any(name.upper().startswith("LICENSE") or name.upper().startswith("COPYING")
               for name in names), names


def _bundle(tmp_path: Path, name: str, versions: dict[str, str], extra: str = "") -> Path:
    bundle = tmp_path / name
    for dist, version in versions.items():
        info = bundle / "_internal" / f"{dist}-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n\nText.\n")
    (bundle / "parlour").write_bytes(b"an executable")
    (bundle / "_internal" / "libx.so").write_bytes(b"library" + extra.encode())
    return bundle


@pytest.fixture
def no_pyz(manifest, monkeypatch):
    monkeypatch.setattr(manifest, "pyz_modules", lambda exe: {"app.cli": "c0de"})


def test_a_manifest_lists_distributions_files_and_modules(manifest, no_pyz, tmp_path):
    found = manifest.manifest(_bundle(tmp_path, "one", {"PySide6_Essentials": "6.11.3"}))
    assert found.distributions == {"pyside6-essentials": "6.11.3"}
    assert sorted(found.files) == ["_internal/PySide6_Essentials-6.11.3.dist-info/METADATA",
                                   "_internal/libx.so", "parlour"]
    assert found.modules == {"app.cli": "c0de"}
    assert manifest.Manifest.from_json(found.to_json()) == found


def test_two_bundles_compared(manifest, no_pyz, tmp_path):
    one = manifest.manifest(_bundle(tmp_path, "one", {"zeroconf": "0.154.0"}))
    two = manifest.manifest(_bundle(tmp_path, "two", {"zeroconf": "0.154.0"}))
    same = manifest.compare(one, two)
    assert same.same and not same.changed_files
    assert same.lines(one)[-1] == "the same packages"

    stamped = manifest.compare(one, manifest.manifest(
        _bundle(tmp_path, "three", {"zeroconf": "0.154.0"}, extra="a build's own stamp")))
    assert stamped.same and stamped.changed_files == ["_internal/libx.so"]

    four = manifest.manifest(_bundle(tmp_path, "four", {"zeroconf": "0.155.0"}))
    newer = manifest.compare(one, four)
    assert not newer.same
    assert newer.distributions == {"zeroconf": ("0.154.0", "0.155.0")}
    assert set(newer.only_files[0]) == {"_internal/zeroconf-0.154.0.dist-info/METADATA"}
    assert newer.lines(one)[-1] == "NOT the same packages"


def test_compare_on_the_command_line_exits_non_zero_when_they_differ(manifest, no_pyz,
                                                                      tmp_path, capsys):
    one = _bundle(tmp_path, "one", {"msgpack": "1.2.4"})
    (tmp_path / "one.json").write_text(manifest.manifest(one).to_json())
    assert manifest.main(["--compare", str(tmp_path / "one.json"), str(one)]) == 0
    two = _bundle(tmp_path, "two", {"msgpack": "1.2.5"})
    assert manifest.main(["--compare", str(one), str(two)]) == 1
    assert "msgpack: 1.2.4 vs 1.2.5" in capsys.readouterr().out


def test_a_zip_is_known_by_its_members_whatever_their_order(manifest, tmp_path):
    import zipfile

    def archive(name: str, members: list[tuple[str, bytes]]) -> Path:
        path = tmp_path / name
        with zipfile.ZipFile(path, "w") as out:
            for member, data in members:
                out.writestr(member, data)
        return path

    one = archive("one.zip", [("a.pyc", b"A"), ("b.pyc", b"B")])
    swapped = archive("two.zip", [("b.pyc", b"B"), ("a.pyc", b"A")])
    changed = archive("three.zip", [("a.pyc", b"A"), ("b.pyc", b"C")])
    assert one.read_bytes() != swapped.read_bytes()
    assert manifest._file_digest(one) == manifest._file_digest(swapped)
    assert manifest._file_digest(one) != manifest._file_digest(changed)
