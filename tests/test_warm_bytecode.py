"""tests/warm_bytecode.py: which test modules are cold, and what it runs to warm them."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tests.warm_bytecode import COLD_ENOUGH, cold_test_modules, collect_command, main

TAG, VERSION = "cpython-311", "9.2.0"


def _module(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("def test_nothing():\n    assert True\n")
    return path


def _cache(source: Path, *, older: bool = False, name: str | None = None) -> None:
    cache = source.parent / "__pycache__" / (name or f"{source.stem}.{TAG}-pytest-{VERSION}.pyc")
    cache.parent.mkdir(exist_ok=True)
    cache.write_bytes(b"")
    stamp = source.stat().st_mtime + (-10 if older else 10)
    os.utime(cache, (stamp, stamp))


def test_a_test_module_or_conftest_without_its_rewritten_cache_is_cold(tmp_path):
    cold = _module(tmp_path / "engine" / "test_cold.py")
    conftest = _module(tmp_path / "conftest.py")
    warm = _module(tmp_path / "engine" / "test_warm.py")
    _cache(warm)
    _module(tmp_path / "kit.py")  # a helper: compiled by an ordinary import, not counted

    assert cold_test_modules(tmp_path, TAG, VERSION) == [conftest, cold]


def test_a_cache_older_than_its_source_or_of_another_pytest_is_cold(tmp_path):
    edited = _module(tmp_path / "test_edited.py")
    _cache(edited, older=True)
    upgraded = _module(tmp_path / "test_upgraded.py")
    _cache(upgraded, name=f"test_upgraded.{TAG}-pytest-8.0.0.pyc")
    plain = _module(tmp_path / "test_plain.py")
    _cache(plain, name=f"test_plain.{TAG}.pyc")  # compiled, but its asserts not rewritten

    assert cold_test_modules(tmp_path, TAG, VERSION) == [edited, plain, upgraded]


def test_the_warming_collects_those_modules_and_runs_nothing(tmp_path):
    modules = [tmp_path / "test_a.py", tmp_path / "b" / "conftest.py"]

    command = collect_command(modules)

    assert command[:3] == [sys.executable, "-m", "pytest"]
    assert "--collect-only" in command
    assert command[-2:] == [str(path) for path in modules]


def test_a_few_cold_modules_are_left_to_the_workers(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    for index in range(COLD_ENOUGH - 1):
        _module(tmp_path / "tests" / f"test_{index}.py")

    assert main([str(tmp_path)]) == 0

    assert capsys.readouterr().out == ""
    assert not list(tmp_path.rglob("__pycache__"))
