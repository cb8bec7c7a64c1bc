"""Waiting for a condition in a test: one way for each kind of test, written once.

* ``until`` — in asyncio code (sessions, links): polls while the loop's other tasks run;
* ``blocking_until`` — in plain code that drives other processes (``parlour`` peers);
* ``qt_until`` — in a pytest-qt test: Qt's event loop runs meanwhile (``qtbot.waitUntil``).

Each fails the test with an ``AssertionError`` saying what it waited for; none sleeps a
fixed time to let something happen. The ceilings are generous (a minute): they cost
nothing when the condition comes, and on a machine loaded by other work (load 15, or CI
beside a CPU hog) a table's deal can take many times its quiet seconds.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
CEILING = 60.0  # seconds: how long a wait lasts at most unless its caller says otherwise


def _message(what: str | Callable[[], str] | None, predicate) -> str:
    said = what() if callable(what) else what
    return f"timed out waiting for {said or predicate}"


async def until(predicate: Callable[[], T], timeout: float = CEILING,
                what: str | Callable[[], str] | None = None, interval: float = 0.01) -> T:
    """``predicate()``'s first true value, polled every ``interval`` seconds; an
    AssertionError after ``timeout`` seconds (``what``: what was awaited, for the message;
    a callable is asked at the timeout, to show what was seen by then)."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(_message(what, predicate))
        await asyncio.sleep(interval)
    return value


def blocking_until(predicate: Callable[[], T], timeout: float = CEILING,
                   what: str | Callable[[], str] | None = None, interval: float = 0.02) -> T:
    """``until`` for code with no event loop of its own (it sleeps between polls)."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(_message(what, predicate))
        time.sleep(interval)
    return value


def qt_until(qtbot, predicate: Callable[[], object], timeout: int = 20000) -> None:
    """Qt's event loop runs until ``predicate()`` is true (``timeout`` in milliseconds)."""
    qtbot.waitUntil(lambda: bool(predicate()), timeout=timeout)
