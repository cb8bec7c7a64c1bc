"""One Parlour per identity (issue 20, item 10): a second start with the same identity
brings the first window forward and stops, instead of taking the same seat at a table
and fighting the first for it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from PySide6.QtNetwork import QLocalServer

from app.single_instance import SingleInstance, identity_key

ROOT = Path(__file__).resolve().parents[2]


def fresh_key() -> str:
    return f"test-{uuid.uuid4().hex[:12]}"  # never another test run's (or a real Parlour's)


def test_a_second_start_with_one_identity_brings_the_first_forward(qtbot):
    key = fresh_key()
    first = SingleInstance(key)
    assert first.claim()
    try:
        with qtbot.waitSignal(first.come_forward):
            assert not SingleInstance(key).claim()  # the second stops…
        assert SingleInstance(fresh_key()).claim()  # …another identity does not
    finally:
        first.release()


def test_the_window_asked_comes_forward(qtbot, window):
    window.showMinimized()
    qtbot.waitUntil(window.isMinimized)
    window.come_forward()
    qtbot.waitUntil(lambda: not window.isMinimized() and window.isVisible())


def test_a_socket_left_by_a_crashed_copy_is_taken_over(qtbot):
    key = fresh_key()
    crashed = QLocalServer()
    assert crashed.listen(f"parlour-{key}")
    crashed.close()  # (a crash leaves the socket file; no one answers on it)
    first = SingleInstance(key)
    try:
        assert first.claim()
    finally:
        first.release()


def test_one_identity_is_one_key_whatever_the_name(tmp_path):
    from net.wire.identity import load_identity
    identity = load_identity(tmp_path)
    assert identity_key(tmp_path) == identity.fingerprint.replace("-", "")


def test_parlour_started_twice_runs_once(tmp_path):
    """Two real starts of the app, one data directory: the second ends at once and the
    first goes on."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PARLOUR_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}
    config = tmp_path / "config" / "Parlour"
    config.mkdir(parents=True)
    (config / "Parlour.conf").write_text("[General]\ndisplay_name=Ann\n")
    start = [sys.executable, "-c", "import sys; from app.main import main; sys.exit(main([]))"]
    first = subprocess.Popen(start, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    try:
        name = f"parlour-{identity_key(tmp_path / 'data')}"
        deadline = time.monotonic() + 30
        while not _answers(name):  # the first is up
            assert first.poll() is None, first.stderr.read().decode()
            assert time.monotonic() < deadline, "the first Parlour never listened"
            time.sleep(0.1)
        second = subprocess.run(start, cwd=ROOT, env=env, capture_output=True, timeout=30)
        assert second.returncode == 0, second.stderr.decode()
        assert first.poll() is None  # the first plays on
    finally:
        first.kill()
        first.wait()


def _answers(name: str) -> bool:
    from PySide6.QtNetwork import QLocalSocket
    socket = QLocalSocket()
    socket.connectToServer(name)
    answered = socket.waitForConnected(200)
    socket.abort()
    return answered
