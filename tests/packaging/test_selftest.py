"""``parlour --self-test`` (app/selftest.py) and the start-up timer hook.

The self-test itself runs in a subprocess, as a user would run it: it sets the
offscreen platform and a private home of its own and must leave with status 0 and
one "ok" line per check. The frozen bundle runs the same thing in
``make check-package``.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"^(ok (?P<ok>[\w-]+) \(\d+ ms\)( — .*)?|FAIL (?P<fail>[\w-]+): .+)$")


def test_run_checks_prints_one_line_per_check_and_counts_failures():
    from app.selftest import run_checks

    def boom() -> str:
        raise ValueError("no cards\nsecond line")

    out = io.StringIO()
    failed = run_checks([("first", lambda: "fine"), ("second", boom), ("third", lambda: "")], out)
    lines = out.getvalue().splitlines()
    assert failed == 1
    assert [LINE.match(line)["ok"] or LINE.match(line)["fail"] for line in lines] == \
        ["first", "second", "third"]
    assert lines[1] == "FAIL second: ValueError: no cards"
    assert lines[0].endswith(" — fine") and not lines[2].endswith("—")


def test_self_test_passes_from_the_source_tree(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}  # it sets its own
    env["HOME"] = str(tmp_path)  # nothing of the developer's may be touched
    done = subprocess.run([sys.executable, "-m", "app", "--self-test"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert all(LINE.match(line) for line in lines[:-1]), lines
    names = [LINE.match(line)["ok"] for line in lines[:-1]]
    assert names == ["libraries", "engine", "crypto", "group", "framing", "zeroconf", "assets",
                     "locale-text", "window", "loopback"]
    assert lines[-1] == "self-test: 10 of 10 checks passed"
    assert not list(tmp_path.iterdir()), "the self-test wrote into HOME"


def test_a_failing_check_makes_the_exit_status_non_zero(monkeypatch, capsys):
    from app import selftest

    monkeypatch.setattr(selftest, "checks", lambda home: [
        ("good", lambda: ""), ("bad", lambda: (_ for _ in ()).throw(OSError("disk")))])
    assert selftest.main([]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [out[0], "FAIL bad: OSError: disk", "self-test: 1 of 2 checks passed"]


def test_the_first_line_names_the_release_of_every_library_carried():
    from importlib.metadata import version

    from app.selftest import LIBRARIES, check_libraries, run_checks

    out = io.StringIO()
    assert run_checks([("libraries", check_libraries)], out) == 0
    line = out.getvalue().strip()
    assert LINE.match(line), line
    assert line.split(" — ", 1)[1].split(", ") == [f"{name} {version(name)}"
                                                   for name in LIBRARIES]
    for name in ("PySide6-Essentials", "zeroconf", "msgpack", "cryptography", "PyNaCl", "coincurve",
                 "platformdirs", "magic-wormhole"):
        assert name in LIBRARIES


def test_a_library_without_metadata_fails_the_check_by_name(monkeypatch):
    from app import selftest

    monkeypatch.setattr(selftest, "LIBRARIES", ("msgpack", "no-such-library-here"))
    with pytest.raises(AssertionError, match="no version found for no-such-library-here"):
        selftest.check_libraries()


def test_the_engine_check_replays_every_variant():
    from app.selftest import check_engine
    from engine import variants

    assert check_engine() == f"{len(list(variants()))} variants"


def test_exit_when_shown_quits_once_a_main_window_shows(qapp, capsys):
    from PySide6.QtWidgets import QDialog, QMainWindow

    from app.selftest import arm_exit_when_shown

    arm_exit_when_shown([])
    dialog = QDialog()  # a dialog (the first-start one) does not stop the timer
    dialog.show()
    window = QMainWindow()
    window.show()
    try:
        assert qapp.exec() == 0  # returns: the hook asked the loop to quit
    finally:
        window.close()
        dialog.close()
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and re.fullmatch(r"shown \d+ ms after (exec|start-up began)", out[0])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_process_age_comes_from_proc():
    from app.selftest import seconds_since_process_start

    age = seconds_since_process_start()
    assert age is not None and age >= 0


def test_cli_dispatches_self_test(monkeypatch):
    from app import cli, selftest

    seen = []
    monkeypatch.setattr(selftest, "main", lambda argv: seen.append(argv) or 7)
    assert cli.main(["--self-test", "--verbose"]) == 7
    assert seen == [["--verbose"]]
