"""Twisted, on a thread of its own, for the whole process.

magic-wormhole is written for Twisted. Twisted has one reactor per process, and
Parlour runs an asyncio loop per session (each on its own thread), so the reactor gets
a thread of its own, started the first time a code or a house address is used, and
every call into it goes through ``call`` (from any thread; an asyncio caller awaits
``run``). It runs with ``installSignalHandlers=False`` (signals belong to the main
thread), and is stopped before the interpreter waits for its threads at exit.

Importing this module imports Twisted (about 0.4 s with magic-wormhole): only
``service`` does, and nothing imports ``service`` until it is needed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import socket
import threading
from collections.abc import Callable
from typing import Protocol

from twisted.internet import defer, protocol
from twisted.internet import reactor as _reactor
from twisted.internet.base import DelayedCall
from twisted.python.failure import Failure

log = logging.getLogger(__name__)


class Reactor(Protocol):
    """What Parlour uses of Twisted's reactor (on every desktop system, a ``ReactorBase``
    of ``twisted.internet.posixbase``: epoll, kqueue, poll or select)."""

    def run(self, installSignalHandlers: bool = True) -> None: ...  # noqa: N803 - Twisted's

    def stop(self) -> None: ...

    def callFromThread(self, f: Callable[..., object], *args: object) -> None: ...  # noqa: N802

    def callLater(self, delay: float, f: Callable[..., object],  # noqa: N802
                  *args: object) -> DelayedCall: ...

    def seconds(self) -> float: ...

    def adoptStreamConnection(self, fileDescriptor: int,  # noqa: N802, N803
                              addressFamily: socket.AddressFamily,  # noqa: N803
                              factory: protocol.Factory) -> None: ...


#: Twisted declares the global reactor as a blend of its zope.interface interfaces, whose
#: methods are written without ``self``: mypy reads them rightly only with the mypy-zope
#: plugin, which we do not run (it takes each one's first argument for ``self``).
reactor: Reactor = _reactor
_started = threading.Lock()
_thread: threading.Thread | None = None


_BEFORE_STOP: list = []  # what closes before the reactor stops (each returns a Deferred)


def before_stop(close) -> None:
    """``close()`` (on the reactor's thread, returning a Deferred) runs before it stops."""
    _BEFORE_STOP.append(close)


def start() -> None:
    """The reactor's thread, once per process."""
    global _thread
    with _started:
        if _thread is not None:
            return
        _thread = threading.Thread(target=_run, name="parlour-houses", daemon=True)
        _thread.start()
        # Before the interpreter joins non-daemon threads (Twisted's pool), not after
        # (atexit runs after that join: the process would hang on the pool for a minute).
        register = getattr(threading, "_register_atexit", None)
        if register is not None:
            register(stop)


def _known_noise(event: dict) -> bool:
    """magic-wormhole 0.24 trips over its own state machine when both sides close a dilated
    wormhole at once (``Boss.closed`` in ``S4_closed``): everything is closed all the
    same, so it is not worth a warning."""
    failure = event.get("log_failure")
    return failure is not None and "S4_closed" in str(failure.value)


def _run() -> None:
    from twisted.logger import FilteringLogObserver, PredicateResult, STDLibLogObserver, globalLogBeginner
    to_log = STDLibLogObserver(name="net.houses.twisted")
    # (The observers and the predicate provide Twisted's zope.interface interfaces, which
    # mypy sees only with the mypy-zope plugin: see ``reactor`` above.)
    quiet = FilteringLogObserver(to_log, [lambda e: PredicateResult.no  # type: ignore[arg-type, list-item]
                                          if _known_noise(e) else PredicateResult.maybe])
    # Twisted's own messages (the library's unhandled errors among them) go to the log.
    globalLogBeginner.beginLoggingTo([quiet], redirectStandardIO=False)  # type: ignore[list-item]
    try:
        reactor.run(installSignalHandlers=False)
    except Exception:  # noqa: BLE001 - the houses stop working; the rest of the app goes on
        log.exception("the houses' reactor stopped")


def call(fn, *args, **kwargs) -> concurrent.futures.Future:
    """Run ``fn(*args)`` on the reactor's thread; its result (a Deferred's, once fired)."""
    start()
    future: concurrent.futures.Future = concurrent.futures.Future()

    def run():
        if not future.set_running_or_notify_cancel():
            return
        try:
            result = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            future.set_exception(exc)
            return
        if isinstance(result, defer.Deferred):
            result.addCallbacks(_settle(future, True), _settle(future, False))
        else:
            future.set_result(result)
    reactor.callFromThread(run)
    return future


def _settle(future: concurrent.futures.Future, ok: bool):
    def settle(value):
        if future.done():
            return None
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value.value if isinstance(value, Failure) else value)
        return None
    return settle


async def run(fn, *args, **kwargs):
    """``call`` from asyncio: awaited; cancelling the await does not stop ``fn``."""
    return await asyncio.wrap_future(call(fn, *args, **kwargs))


def stop(timeout: float = 3.0) -> None:
    """Stop the reactor (its wormholes are closed first) and wait for its thread."""
    thread = _thread
    if thread is None or not thread.is_alive():
        return
    done = threading.Event()

    def shut():
        d = defer.gatherResults([close() for close in _BEFORE_STOP], consumeErrors=True)
        d.addBoth(lambda _: reactor.stop())
        d.addBoth(lambda _: done.set())
    try:
        reactor.callFromThread(shut)
    except RuntimeError:
        return
    done.wait(timeout)
    thread.join(timeout)
    if thread.is_alive():
        reactor.callFromThread(reactor.stop)
