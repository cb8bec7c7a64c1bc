"""The pinned PySide6 must not leak references to None.

PySide6-Essentials 6.12.0 on Python 3.11 dropped a reference to None on every
void-returning call, aborting the interpreter ("none_dealloc") after a few thousand
calls — a crash a few minutes into any game. This fails if a pin bump brings that back.
"""

import sys

from PySide6.QtWidgets import QLabel


def test_void_qt_calls_keep_none_references(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for _ in range(2000):
        label.setText("x")
        label.update()
    # Other threads may hold or drop a few references meanwhile; a leak loses 4,000.
    assert sys.getrefcount(None) > before - 100
