"""uv.lock, the one lock every install reads (``make``, CI, the bundle), and the pinned
uv that installs from it (requirements-uv.txt).

The Makefile's ``uv sync --locked`` already refuses a lock that no longer matches
pyproject.toml; these hold what it does not check: that every file the lock names comes
from PyPI with a hash, and that the pinned uv carries the build backend pyproject asks
for (else building Parlour would fetch an unpinned backend).
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPI = "https://pypi.org/simple"
UV = ROOT / ".uv" / "bin" / "uv"


def _lock() -> dict:
    with open(ROOT / "uv.lock", "rb") as f:
        return tomllib.load(f)


def _pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def test_every_locked_release_comes_from_pypi_with_a_hash():
    packages = [p for p in _lock()["package"] if p["name"] != "parlour"]
    assert len(packages) > 30, "the lock holds too few packages to be Parlour's"
    for package in packages:
        where = f"{package['name']} {package['version']}"
        assert package["source"] == {"registry": PYPI}, f"{where} comes from {package['source']}"
        files = package.get("wheels", []) + ([package["sdist"]] if "sdist" in package else [])
        assert files, f"{where}: no files"
        for file in files:
            assert file["url"].startswith("https://files.pythonhosted.org/"), file["url"]
            assert re.fullmatch(r"sha256:[0-9a-f]{64}", file.get("hash", "")), \
                f"{where}: {file['url']} has no sha256"


def test_the_lock_covers_every_extra():
    parlour = next(p for p in _lock()["package"] if p["name"] == "parlour")
    locked = set(parlour.get("optional-dependencies", {}))
    assert locked == set(_pyproject()["project"]["optional-dependencies"])


def test_the_pinned_uv_carries_the_build_backend_pyproject_names():
    text = (ROOT / "requirements-uv.txt").read_text()
    pins = re.findall(r"^uv==(\d+)\.(\d+)\.(\d+) \\$", text, re.MULTILINE)
    assert len(pins) == 1, "requirements-uv.txt must pin exactly one uv"
    assert len(re.findall(r"--hash=sha256:[0-9a-f]{64}", text)) >= 1
    major, minor, patch = map(int, pins[0])
    build = _pyproject()["build-system"]
    assert build["build-backend"] == "uv_build"
    (requirement,) = build["requires"]
    low, high = re.fullmatch(r"uv_build>=(\d+\.\d+\.\d+),<(\d+\.\d+)", requirement).groups()
    assert tuple(map(int, low.split("."))) <= (major, minor, patch), requirement
    assert (major, minor) < tuple(map(int, high.split("."))), requirement


@pytest.mark.skipif(not UV.exists(), reason="uv is not installed in .uv/ (make installs it)")
def test_the_lock_matches_pyproject():
    done = subprocess.run([str(UV), "lock", "--check", "--offline"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, ("uv.lock is out of date with pyproject.toml: run "
                                  f"`make lock`\n{done.stdout}{done.stderr}")
