"""Fixtures for the Qt client's tests: offscreen Qt, private settings, a main window
whose local tables have instant bots."""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

# --import-mode=importlib leaves test folders off sys.path; our helpers live here.
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import app  # noqa: E402,F401  (installs the PySide6 refcount guard before Qt is used)
import pytest  # noqa: E402

from app.lobby import StaticDirectory  # noqa: E402
from app.settings import Settings  # noqa: E402



@pytest.fixture(autouse=True)
def private_data_dir(tmp_path, monkeypatch):
    """Identity and games against the computer in the test's own directory, never in
    the user's data directory."""
    monkeypatch.setenv("PARLOUR_HOME", str(tmp_path / "parlour-home"))


#: The least a qtbot wait (``waitUntil``, ``waitSignal``…) waits before it fails, whatever
#: timeout it names: pytest-qt's default 5 s, or a test's 20 s for a whole hand, are
#: generous on a quiet machine, not beside a CPU hog. (No test here waits to see that
#: something does *not* happen: a wait that succeeds returns as soon as it does.)
PATIENCE_MS = 60_000
QTBOT_WAITS = ("waitUntil", "waitSignal", "waitSignals", "waitCallback", "waitExposed",
               "waitActive")


@pytest.fixture
def qtbot(qtbot):
    """pytest-qt's ``qtbot``, its waits' timeouts at least ``PATIENCE_MS``."""
    for name in QTBOT_WAITS:
        setattr(qtbot, name, _patient(getattr(qtbot, name)))
    return qtbot


def _patient(wait):
    @functools.wraps(wait)
    def patient(*args, timeout: int = PATIENCE_MS, **kw):
        return wait(*args, timeout=max(timeout, PATIENCE_MS), **kw)
    return patient


@pytest.fixture
def settings(tmp_path):
    s = Settings.at(str(tmp_path / "parlour.ini"))
    s.display_name = "Ann"
    s.animation = "off"
    return s


@pytest.fixture
def directory():
    return StaticDirectory()


@pytest.fixture
def window(qtbot, settings, directory):
    from app.window import MainWindow
    win = MainWindow(settings, directory=directory, bot_delay=0)
    win.table.last_trick_hold_ms = 0  # the summary at once (tests of the hold set their own)
    qtbot.addWidget(win)
    win.show()
    yield win
    win.leave_table(to_lobby=False)


@pytest.fixture
def closing():
    """Sessions a test started outside the window, closed at the end whatever happens."""
    sessions = []
    yield sessions
    for session in sessions:
        session.close()
