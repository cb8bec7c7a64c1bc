"""Named timers on one event loop: a table's deadlines, each replaced or cancelled by name.

A host waits for many things at once — a stranger's seat, a dropped player's return, a
shuffle's deadline — each under a key such as ``("stand-in", 2)``. Arming a key again
replaces its timer; cancelling a key that is not armed does nothing. ``call_later`` is
injected (the running loop's by default), so the parts that use timers are tested with
a fake clock.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol


class Cancellable(Protocol):
    """What a ``call_later`` gives back: the loop's ``TimerHandle``, or a fake clock's."""

    def cancel(self) -> object: ...


#: ``call_later(delay, fn, *args)``: call ``fn(*args)`` after ``delay`` seconds.
CallLater = Callable[..., Cancellable]


def loop_call_later(delay: float, fn: Callable, *args) -> asyncio.TimerHandle:
    return asyncio.get_running_loop().call_later(delay, fn, *args)


class Timers:
    def __init__(self, call_later: CallLater = loop_call_later):
        self.call_later = call_later
        self.armed: dict[tuple, Cancellable] = {}  # key -> handle

    def later(self, key: tuple, delay: float, fn: Callable, *args) -> None:
        """Call ``fn(*args)`` after ``delay`` seconds, unless ``key`` is cancelled first."""
        self.cancel(key)

        def fire():
            self.armed.pop(key, None)
            fn(*args)
        self.armed[key] = self.call_later(delay, fire)

    def cancel(self, key: tuple) -> None:
        handle = self.armed.pop(key, None)
        if handle is not None:
            handle.cancel()

    def __contains__(self, key: tuple) -> bool:
        return key in self.armed

    def cancel_all(self) -> None:
        for key in list(self.armed):
            self.cancel(key)


async def wait_until(done: Callable[[], bool], within: float, poll: float = 0.02) -> bool:
    """Wait until ``done()`` (checked every ``poll`` seconds) but at most ``within``
    seconds: whether it came true. For what the loop's other tasks bring about, such as
    every peer acknowledging the last entry."""
    deadline = time.monotonic() + within
    while not done():
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(poll)
    return True
