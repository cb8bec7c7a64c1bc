"""Fixtures for the Qt client's tests: offscreen Qt, private settings, a main window
whose local tables have instant bots."""

from __future__ import annotations

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
