"""The facade's network sessions: ``HostSession``, ``GuestSession`` and ``Lobby``.

Each runs its asyncio loop in a background thread (like ``net.local.LocalSession``),
posts the app's commands onto it with ``call_soon_threadsafe`` and reports through
``on_event`` on that thread. The work is done by ``host_session.HostCore`` (the table's
authority) and ``guest_session.GuestCore`` (a verifying seat); this module only moves
calls and events between threads.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from .facade import EventCallback, Session
from .heartbeat import Timings

log = logging.getLogger(__name__)


class _LoopThread:
    """An asyncio loop running forever in a daemon thread."""

    def __init__(self, name: str):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()
        self.loop.close()

    def post(self, fn: Callable, *args) -> None:
        try:
            self.loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # closed: a late click changes nothing
            pass

    def submit(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def stop(self, coro=None, timeout: float = 5.0) -> None:
        if self.loop.is_closed() or not self.thread.is_alive():
            if coro is not None:
                coro.close()  # closed twice: nothing left to shut down
            return
        if coro is not None:
            try:
                self.submit(coro).result(timeout)
            except Exception:  # noqa: BLE001 - closing is best effort
                log.exception("session shutdown failed")
        try:
            self.loop.call_soon_threadsafe(self.loop.stop)
        except RuntimeError:
            return
        if threading.current_thread() is not self.thread:
            self.thread.join(timeout)


class _NetworkSession(Session):
    def __init__(self, on_event: EventCallback, name: str):
        super().__init__(on_event)
        self._thread = _LoopThread(name)
        self.core = None

    def _emit(self, event: dict) -> None:
        try:
            self.on_event(event)
        except Exception:  # noqa: BLE001 - an app bug must not stop the session
            log.exception("event callback failed")

    def _call(self, method: str, *args) -> None:
        def run():
            if self.core is None:
                return
            try:
                getattr(self.core, method)(*args)
            except Exception as exc:  # noqa: BLE001 - report, keep the table alive
                log.exception("session command failed")
                self._emit({"type": "error", "message": f"internal error: {exc!r}"})
        self._thread.post(run)


class HostSession(_NetworkSession):
    """Host a table: you sit in seat 0; guests join over the network."""

    def __init__(self, on_event: EventCallback, settings: dict, identity, *, state_dir,
                 interfaces=None, bind: str = "127.0.0.1", port: int = 0,
                 timings: Timings | None = None, stand_in_after: float | None = None, **core):
        super().__init__(on_event, "parlour-host")
        if core.get("readmit_names"):
            raise ValueError("re-admitting a seat to a new key needs the host person's yes "
                             "(the 'readmit' event); only a headless host may do it by name")
        from .host_session import HostCore
        self.core = HostCore(identity, settings, state_dir=state_dir, emit=self._emit, bind=bind,
                             port=port, interfaces=interfaces, timings=timings, you=0,
                             stand_in_after=stand_in_after, **core)
        self._thread.submit(self._start())

    async def _start(self) -> None:
        try:
            await self.core.start()
        except Exception as exc:  # noqa: BLE001 - e.g. the port is taken: tell the person
            self._emit({"type": "error", "message": f"Could not open the table: {exc}",
                        "fatal": True})

    def sit(self, seat: int) -> None:
        """Before the first deal: move to ``seat`` (swapping with whoever is there)."""
        self._call("sit", seat)

    def set_seat(self, seat, kind, level=None, player=None) -> None:
        self._call("set_seat", seat, kind, level, player)

    def start_game(self) -> None:
        self._call("start_game")

    def turn_away(self, fingerprint: str) -> None:
        """The host's no to a "readmit" request: that key gets no seat. (The yes is
        ``set_seat(seat, "human", player=fingerprint)``.)"""
        self._call("turn_away", fingerprint)

    def act(self, action: dict) -> None:
        self._call("act", dict(action))

    def set_table_option(self, name: str, value: bool) -> None:
        self._call("set_option", name, bool(value))

    def next_hand(self) -> None:
        self._call("next_hand")

    def rematch(self) -> None:
        self._call("start_game")

    def stand_in(self, seat: int, bot: bool) -> None:
        self._call("stand_in", seat, bool(bot))

    def hint(self) -> None:
        """What a bot would do in your seat: a "hint" event (computed on this thread)."""
        self._call("hint")

    def close(self) -> None:
        """Leave: the guests are told the table has closed (it is not resumed)."""
        self.on_event = lambda event: None
        self._thread.stop(self.core.stop(farewell="the host left the table"))

    def crash(self) -> None:
        """Stop without a word, as a crash would (tests: a host restarted from its log)."""
        self.on_event = lambda event: None
        self._thread.stop(self.core.stop())


class GuestSession(_NetworkSession):
    """A seat at another player's table, every entry checked by our own replica."""

    def __init__(self, on_event: EventCallback, identity, *, address: str | None = None,
                 port: int | None = None, fingerprint: str | None = None,
                 table_name: str | None = None, interfaces=None, state_dir=None,
                 timings: Timings | None = None, seat: int | None = None, **core):
        super().__init__(on_event, "parlour-guest")
        from .guest_session import GuestCore
        self.core = GuestCore(identity, address=address, port=port, fingerprint=fingerprint,
                              table_name=table_name, interfaces=interfaces, emit=self._emit,
                              timings=timings, state_dir=state_dir, seat=seat, **core)
        self.future = self._thread.submit(self.core.run())

    def sit(self, seat: int) -> None:
        """Seats are given by the host in this version."""

    def set_seat(self, seat, kind, level=None, player=None) -> None:
        self._only_host()

    def start_game(self) -> None:
        self._only_host()

    def act(self, action: dict) -> None:
        self._call("act", dict(action))

    def set_table_option(self, name: str, value: bool) -> None:
        self._only_host()

    def next_hand(self) -> None:
        """The host deals the next hand."""

    def rematch(self) -> None:
        self._only_host()

    def stand_in(self, seat: int, bot: bool) -> None:
        self._only_host()

    def hint(self) -> None:
        """What a bot would do in your seat, from your own view: a "hint" event."""
        self._call("hint")

    def _only_host(self) -> None:
        self._thread.post(self._emit, {"type": "error", "message": "only the host can do that"})

    def close(self) -> None:
        self.on_event = lambda event: None
        self._thread.stop(self._shutdown())

    async def _shutdown(self) -> None:
        await self.core.stop()
        try:
            await asyncio.wait_for(self.core.done.wait(), 3)
        except TimeoutError:
            pass


class Lobby:
    """The app's table directory: a live mDNS browse, reported as "tables" events."""

    def __init__(self, interfaces):
        self.interfaces = interfaces
        self._thread: _LoopThread | None = None
        self._browser = None

    def start(self, on_event) -> None:
        from .discovery import TableBrowser
        self._thread = _LoopThread("parlour-lobby")

        async def begin():
            self._browser = TableBrowser(
                interfaces=self.interfaces,
                on_change=lambda tables: on_event({"type": "tables", "tables": tables}))
            await self._browser.start()
            on_event({"type": "tables", "tables": []})
        self._thread.submit(begin())

    def stop(self) -> None:
        if self._thread is None:
            return

        async def end():
            if self._browser is not None:
                await self._browser.stop()
        self._thread.stop(end())
        self._thread = None
