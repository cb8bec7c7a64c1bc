"""A guard against a reference-counting bug in the pinned PySide6 6.12.0 build.

Measured on Python 3.11 (see tests/app/test_qt_guard.py): every call to a Qt method
that returns ``void`` hands Python ``None`` without taking a reference to it, so each
such call (``setText``, ``show``, ``drawLine``, ``update`` …) lowers None's reference
count by one. None starts with a few thousand references; after that many calls the
interpreter aborts with "Fatal Python error: none_dealloc". (Python 3.12 made None
immortal, which is why the bug does not show there.)

Until the pin moves to a fixed build, ``protect()`` does what 3.12 does: it gives None
(and True/False, for good measure) so many references — 2**60 — that no session could
ever use them up. It only touches CPython < 3.12 and checks that it is reading the
reference count field before it writes it.
"""

from __future__ import annotations

import sys

BALLAST = 1 << 60
_done = False


def needed() -> bool:
    return sys.implementation.name == "cpython" and sys.version_info < (3, 12)


def protect() -> bool:
    """Make None/True/False effectively immortal; True when the guard is in place."""
    global _done
    if _done or not needed():
        return _done or not needed()
    import ctypes
    for obj in (None, True, False):
        field = ctypes.c_ssize_t.from_address(id(obj))
        # ob_refcnt is the first field of every object on normal builds; refuse to write
        # anywhere else (a trace-refs debug build lays objects out differently).
        if abs(field.value - (sys.getrefcount(obj) - 1)) > 16:
            return False
        field.value += BALLAST
    _done = True
    return True
