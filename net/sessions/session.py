"""The facade's sessions: ``HostSession``, ``LocalSession``, ``GuestSession`` and ``Lobby``.

Each runs its asyncio loop in a background thread, posts the app's commands onto it
with ``call_soon_threadsafe`` and reports through ``on_event`` on that thread. The work
is done by ``host_session.HostCore`` (the table's authority: a table on the network, or
a game against the computer, which is a host with no network) and
``guest_session.GuestCore`` (a verifying seat); this module only moves calls and events
between threads — and adds what only the app needs: the address others type to reach a
hosted table (in its "table" events), and the lobby's offer to rejoin the last table
this installation held a seat at.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from net.wire.address import format_address, local_address_towards
from net.constants import HANDOVER_GRACE, REJOIN_PROBE_EVERY, REJOIN_PROBE_TIMEOUT
from net.sessions.answering import CheckTimings, ListedTable, TableChecks
from net.sessions.ending import HOST_LEFT
from net.sessions.events import error_event, rejoin_event, tables_event
from net.sessions.facade import Event, EventCallback, SeatInfo, Session, TableInfo
from net.wire.heartbeat import Timings
from net.wire.identity import Identity, same_fingerprint
from net.wire.transport import within

if TYPE_CHECKING:  # (imported where they are made: a session loads only the core it runs)
    from net.discovery import TableBrowser
    from net.sessions.guest_session import GuestCore
    from net.sessions.host_session import HostCore

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

    def stop(self, coro=None, timeout: float = 5.0):
        """Run ``coro`` (the shutdown) on the loop, then stop it; what ``coro`` returned."""
        result = None
        if self.loop.is_closed() or not self.thread.is_alive():
            if coro is not None:
                coro.close()  # closed twice: nothing left to shut down
            return None
        if coro is not None:
            try:
                result = self.submit(coro).result(timeout)
            except Exception:  # noqa: BLE001 - closing is best effort
                log.exception("%s: shutdown failed", self.thread.name)
        try:
            self.loop.call_soon_threadsafe(self.loop.stop)
        except RuntimeError:
            return result
        if threading.current_thread() is not self.thread:
            self.thread.join(timeout)
        return result


class _NetworkSession(Session):
    def __init__(self, on_event: EventCallback, name: str):
        super().__init__(on_event)
        self._thread = _LoopThread(name)
        self.address: str | None = None  # what others type to reach the table, once we host it

    def _emit(self, event: Event) -> None:
        if event.get("type") == "listening":
            self.address = typed_address(event["address"], event["port"])
        elif event.get("type") == "table" and event.get("is_host") and self.address:
            event = {**event, "address": self.address}
        try:
            self.on_event(event)
        except Exception:  # noqa: BLE001 - an app bug must not stop the session
            log.exception("event callback failed")

    def _do(self, command: Callable, *args) -> None:
        """Run ``command(*args)`` (a core's method) on the session's loop; a bug becomes
        an "error" event for the person and a log entry, and the table goes on."""
        def run():
            try:
                command(*args)
            except Exception:  # noqa: BLE001 - report, keep the table alive
                log.exception("session command failed")
                self._emit(error_event(INTERNAL_ERROR))
        self._thread.post(run)

    @property
    def thread(self) -> threading.Thread:
        return self._thread.thread


# What a person is told when a command hit a bug (the details go to the log).
INTERNAL_ERROR = "Something went wrong inside Parlour (the details are in its log); the table goes on."


def _why_not_open(exc: Exception) -> str:
    """A host's start failure in words (no error numbers)."""
    if isinstance(exc, OSError) and exc.errno == errno.EADDRINUSE:
        return "another program is using the port"
    if isinstance(exc, OSError) and exc.errno in (errno.EACCES, errno.EPERM):
        return "this computer does not allow Parlour to listen on the network, or to write its files"
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return "the disk is full"
    from net.trust.store import StoreError
    if isinstance(exc, StoreError):
        return str(exc)  # written for people
    return "something went wrong inside Parlour (the details are in its log)"


def typed_address(bind: str, port: int) -> str:
    """What others type to reach a host listening on ``bind``: this computer's address
    on the home network when it listens on every interface."""
    if bind not in ("0.0.0.0", "", "::"):
        return format_address(bind, port)
    return format_address(lan_address(), port)


def lan_address() -> str:
    """This computer's IPv4 address on its network: the one its default route leaves
    from, else the first private one an interface has, else loopback."""
    try:
        address = local_address_towards("192.0.2.1")  # a documentation address: nothing is sent
        if not ipaddress.ip_address(address).is_unspecified:
            return address
    except OSError:
        pass
    import ifaddr  # zeroconf's own dependency
    found = [ipaddress.ip_address(ip.ip) for adapter in ifaddr.get_adapters()
             for ip in adapter.ips if ip.is_IPv4 and isinstance(ip.ip, str)]  # (v6: a tuple)
    usable = [a for a in found if not (a.is_loopback or a.is_link_local)]
    usable.sort(key=lambda a: not a.is_private)
    return str(usable[0]) if usable else "127.0.0.1"


class HostedSession(_NetworkSession):
    """A table this app hosts (``HostCore``): on the network, or against the computer."""

    def __init__(self, on_event: EventCallback, name: str,
                 core_factory: Callable[[EventCallback], HostCore]):
        super().__init__(on_event, name)
        self.core = core_factory(self._emit)
        # commands that came before the table opened, as (command, args)
        self._early: list[tuple[Callable, tuple]] | None = []
        self._thread.submit(self._start())

    async def _start(self) -> None:
        try:
            await self.core.start()
        except Exception as exc:  # noqa: BLE001 - e.g. the port is taken: tell the person
            log.exception("the table could not open")
            self._emit(error_event(f"Could not open the table: {_why_not_open(exc)}.",
                                   fatal=True, cause="unopened"))
            return
        early, self._early = self._early, None
        for command, args in early or ():  # (start runs once: the queue is there)
            super()._do(command, *args)

    def _do(self, command: Callable, *args) -> None:
        """As for every session, once the table is open (until then, in order, queued)."""
        def run():
            if self._early is not None:
                self._early.append((command, args))
            else:
                super(HostedSession, self)._do(command, *args)
        self._thread.post(run)

    def sit(self, seat: int) -> None:
        """Before the first deal: move to ``seat`` (swapping with whoever is there)."""
        self._do(self.core.sit, seat)

    def set_seat(self, seat, kind, level=None, player=None) -> None:
        self._do(self.core.set_seat, seat, kind, level, player)

    def start_game(self, level: str | None = None) -> None:
        self._do(self.core.start_game, level)

    def act(self, action: dict) -> None:
        self._do(self.core.act, dict(action))

    def set_table_option(self, name: str, value: bool) -> None:
        self._do(self.core.set_option, name, bool(value))

    def next_hand(self) -> None:
        self._do(self.core.next_hand)

    def rematch(self) -> None:
        self._do(self.core.start_game)

    def stand_in(self, seat: int, bot: bool) -> None:
        self._do(self.core.stand_in, seat, bool(bot))

    def keep_waiting(self, seat: int) -> None:
        self._do(self.core.deal_watch.keep_waiting, seat)

    def deal_again_without(self, seat: int) -> None:
        self._do(self.core.deal_watch.deal_again_without, seat)

    def hint(self) -> None:
        """What a bot would do in your seat: a "hint" event (computed on this thread)."""
        self._do(self.core.view.hint)

    def say(self, text: str) -> None:
        self._do(self.core.talk.say, str(text))

    def react(self, reaction: str) -> None:
        self._do(self.core.talk.react, str(reaction))

    def mute(self, fingerprint: str, on: bool = True) -> None:
        self._do(self.core.talk.mute, str(fingerprint), bool(on))

    def crash(self) -> None:
        """Stop without a word, as a crash would (tests: a host restarted from its log)."""
        self.on_event = lambda event: None
        self._thread.stop(self.core.stop())

    # -- what the table holds now (tests and tools read it; the app uses the events) --------
    @property
    def you(self) -> int | None:
        return self.core.you

    @property
    def game(self):
        return self.core.game

    @property
    def seats(self) -> list[SeatInfo]:
        return self.core.view.seats()

    @property
    def match(self):
        return self.core.authority.match

    @property
    def last_hand(self):
        """The last finished hand's engine state (every card, every action)."""
        match = self.core.authority.match
        return match.last_hand if match is not None else None

    @property
    def bots(self) -> dict:
        """seat -> the bot playing it."""
        return self.core.bots.players

    @property
    def bot_delay(self) -> float:
        return self.core.bots.delay


class HostSession(HostedSession):
    """Host a table: you sit in seat 0; guests join over the network.

    Its "table" events carry ``address``: what others type in Join by address."""

    def __init__(self, on_event: EventCallback, settings: dict, identity, *, state_dir,
                 interfaces=None, bind: str = "127.0.0.1", port: int = 0,
                 timings: Timings | None = None, stand_in_after: float | None = None, **core):
        if core.get("readmit_names"):
            raise ValueError("re-admitting a seat to a new key needs the host person's yes "
                             "(the 'readmit' event); only a headless host may do it by name")
        from net.sessions.host_session import HostCore
        super().__init__(on_event, "parlour-host", lambda emit: HostCore(
            identity, settings, state_dir=state_dir, emit=emit, bind=bind, port=port,
            interfaces=interfaces, timings=timings, you=0, stand_in_after=stand_in_after, **core))

    def turn_away(self, fingerprint: str) -> None:
        """The host's no to a "readmit" request: that key gets no seat. (The yes is
        ``set_seat(seat, "human", player=fingerprint)``.)"""
        self._do(self.core.arrivals.turn_away, fingerprint)

    def invite(self, seat: int) -> None:
        """A code for ``seat``, for a player in another house: "invite" events."""
        self._do(self.core.houses.invite, seat)

    def invite_watcher(self) -> None:
        """A code for someone in another house to watch the table: "invite" events
        (``watch``)."""
        self._do(self.core.houses.invite_watcher)

    def set_watching(self, open_: bool, cap: int | None = None) -> None:
        """Whether anyone may watch the table, and how many at once ("watchers" events)."""
        self._do(self.core.set_watching, bool(open_), cap)

    def remove_watcher(self, fingerprint: str) -> None:
        self._do(self.core.remove_watcher, fingerprint)

    def show_hand(self, fingerprint: str, on: bool) -> None:
        """Show your own hand to the watcher ``fingerprint`` from now on, or stop."""
        self._do(self.core.show_hand, fingerprint, bool(on))

    def close(self) -> None:
        """Leave: the guests are told the table has closed (it is not resumed)."""
        self.on_event = lambda event: None
        self._thread.stop(self.core.stop(farewell=HOST_LEFT))

    def hand_over(self, seat: int) -> bool:
        """Leave, handing the table to the player in ``seat`` (``HostCore.hand_over``);
        if it cannot be handed over, the table is closed for everyone, as ``close`` does."""
        self.on_event = lambda event: None

        async def hand_over() -> bool:
            handed = await self.core.hand_over(seat)
            if not handed:
                await self.core.stop(farewell=HOST_LEFT)
            return handed
        return bool(self._thread.stop(hand_over(), timeout=HANDOVER_WAIT))


#: Seconds the app waits for a handover to be done before it closes anyway.
HANDOVER_WAIT = HANDOVER_GRACE + 3


class GuestSession(_NetworkSession):
    """A seat at another player's table, every entry checked by our own replica.

    Made with ``takeover`` options that let it host (``succession``), it may come to
    carry the table on when the host leaves for good: from then on the person's
    commands go to the ``HostCore`` it hosts the table with (the host's ones included:
    a stand-in, the next hand, a rematch, a re-admission), whose events already come
    through the same ``on_event``; leaving closes that table for everyone."""

    def __init__(self, on_event: EventCallback, identity, *, address: str | None = None,
                 port: int | None = None, fingerprint: str | None = None,
                 table_name: str | None = None, interfaces=None, state_dir=None,
                 timings: Timings | None = None, seat: int | None = None, **core):
        super().__init__(on_event, "parlour-guest")
        from net.sessions.guest_session import GuestCore
        self.core: GuestCore = GuestCore(
            identity, address=address, port=port, fingerprint=fingerprint, table_name=table_name,
            interfaces=interfaces, emit=self._emit, timings=timings, state_dir=state_dir,
            seat=seat, **core)
        self.future = self._thread.submit(self.core.run())

    def _seat(self):
        """Where the person's moves go: the table we carried on, else our seat at the host's
        (read on the session's loop, where a takeover happens)."""
        return self.core.succession.host or self.core

    def _as_host(self, command: Callable[[HostCore], object], *, quiet: bool = False) -> None:
        """A host's command, run on the table we carried on; else "only the host"
        (``quiet``: nothing, the host does it)."""
        def run():
            host = self.core.succession.host
            if host is not None:
                command(host)
            elif not quiet:
                self._emit(error_event("only the host can do that"))
        self._do(run)

    def sit(self, seat: int) -> None:
        """Seats are given by the host in this version."""

    def set_seat(self, seat, kind, level=None, player=None) -> None:
        self._as_host(lambda host: host.set_seat(seat, kind, level, player))

    def start_game(self, level: str | None = None) -> None:
        self._as_host(lambda host: host.start_game(level))

    def act(self, action: dict) -> None:
        action = dict(action)
        self._do(lambda: self._seat().act(action))

    def set_table_option(self, name: str, value: bool) -> None:
        self._as_host(lambda host: host.set_option(name, bool(value)))

    def next_hand(self) -> None:
        """The host deals the next hand (we do, once we carry the table on)."""
        self._as_host(lambda host: host.next_hand(), quiet=True)

    def rematch(self) -> None:
        self._as_host(lambda host: host.start_game())

    def stand_in(self, seat: int, bot: bool) -> None:
        self._as_host(lambda host: host.stand_in(seat, bool(bot)))

    def keep_waiting(self, seat: int) -> None:
        self._as_host(lambda host: host.deal_watch.keep_waiting(seat))

    def deal_again_without(self, seat: int) -> None:
        self._as_host(lambda host: host.deal_watch.deal_again_without(seat))

    def turn_away(self, fingerprint: str) -> None:
        """The host's no to a "readmit" request (once we carry the table on)."""
        self._as_host(lambda host: host.arrivals.turn_away(fingerprint))

    def show_hand(self, fingerprint: str, on: bool) -> None:
        """Show your own hand to the watcher ``fingerprint`` from now on, or stop."""
        self._do(lambda: self._seat().show_hand(fingerprint, bool(on)))

    def set_watching(self, open_: bool, cap: int | None = None) -> None:
        self._as_host(lambda host: host.set_watching(bool(open_), cap))

    def remove_watcher(self, fingerprint: str) -> None:
        self._as_host(lambda host: host.remove_watcher(fingerprint))

    @property
    def watching(self) -> bool:
        """Whether this session only watches (``watch=True``): nothing is yours to play."""
        return self.core.watching

    def hint(self) -> None:
        """What a bot would do in your seat, from your own view: a "hint" event."""
        self._do(lambda: self._seat().hint())

    def say(self, text: str) -> None:
        text = str(text)
        self._do(lambda: self._seat().talk.say(text))

    def react(self, reaction: str) -> None:
        reaction = str(reaction)
        self._do(lambda: self._seat().talk.react(reaction))

    def mute(self, fingerprint: str, on: bool = True) -> None:
        fingerprint, on = str(fingerprint), bool(on)
        self._as_host(lambda host: host.talk.mute(fingerprint, on))

    def close(self) -> None:
        self.on_event = lambda event: None
        self._thread.stop(self._shutdown())

    def hand_over(self, seat: int) -> bool:
        """Once we carry the table on: leave, handing it to the player in ``seat``."""
        self.on_event = lambda event: None

        async def hand_over() -> bool:
            host = self.core.succession.host
            handed = host is not None and await host.hand_over(seat)
            await self._shutdown()  # (the table closed for everyone, if it was not handed over)
            return handed
        return bool(self._thread.stop(hand_over(), timeout=HANDOVER_WAIT))

    async def _shutdown(self) -> None:
        # a table we carried on closes for everyone, as any host person's does
        await self.core.succession.leave(farewell=HOST_LEFT)
        await self.core.stop()
        try:
            await within(3, self.core.done.wait())
        except TimeoutError:
            pass


class Lobby:
    """The app's table directory: a live mDNS browse, reported as "tables" events, and
    the offer to rejoin the last table, as "rejoin" events.

    ``interfaces``: where to browse (empty: nowhere — join by address only).
    ``memory`` (a ``last_table.LastTable``) and ``identity`` (a callable giving this
    installation's identity): when the remembered table's host key is among the tables
    found, or answers at its remembered address (checked every ``REJOIN_PROBE_EVERY``
    seconds with a Parlour handshake, the key pinned), the lobby sends
    ``{"type": "rejoin", "table": record + {"address", "port", "where"}}``; when another
    key advertises the remembered table's id (a player carried it on while this one was
    away), the offer points there instead (its ``fingerprint`` and ``host`` too); and
    ``{"type": "rejoin", "table": None}`` when it no longer can.

    Each table listed is checked to answer at its address (``answering.TableChecks``,
    timed by ``checks``) while the lobby is shown: its rows carry ``"answering"``, a
    table that stopped answering is marked so, then left out; the rejoin offer is made
    only for a table that answers."""

    def __init__(self, interfaces, memory=None, identity: Callable[[], Identity] | None = None,
                 probe_every: float = REJOIN_PROBE_EVERY, checks: CheckTimings = CheckTimings()):
        self.interfaces = interfaces
        self.memory = memory
        self.identity = identity
        self.probe_every = probe_every
        self.checks = checks
        self._thread: _LoopThread | None = None
        self._browser: TableBrowser | None = None
        self._checks: TableChecks | None = None
        self._checking: asyncio.Task | None = None
        self._tables: list[ListedTable] = []
        self._offer: dict | None = None
        self._wake: asyncio.Event | None = None
        self._watch: asyncio.Task | None = None
        self._paused = False

    def start(self, on_event) -> None:
        self._thread = _LoopThread("parlour-lobby")

        def shown(tables: list[ListedTable]) -> None:
            self._tables = list(tables)
            on_event(tables_event(tables))
            if self._wake is not None:
                self._wake.set()  # the remembered table may have been found, or gone

        async def begin():
            wake = self._wake = asyncio.Event()
            checks = self._checks = TableChecks(shown, self.checks)
            if self._paused:
                checks.pause()
            self._checking = asyncio.ensure_future(checks.run())
            if self.memory is not None:
                self._watch = asyncio.ensure_future(self._watch_rejoin(on_event, wake))
            if self.interfaces:
                from net.discovery import TableBrowser
                self._browser = TableBrowser(interfaces=self.interfaces, on_change=checks.listed)
                await self._browser.start()
        self._thread.submit(begin())

    def refresh(self) -> None:
        """Look at the remembered table again now, and keep looking; check every table
        listed again now, and keep checking (the app is back in the lobby)."""
        self._paused = False
        if self._thread is not None and self._wake is not None:
            self._thread.post(self._wake.set)
        if self._thread is not None and self._checks is not None:
            self._thread.post(self._checks.resume)

    def pause(self) -> None:
        """Stop checking the remembered table's address, and whether the tables listed
        answer (the app sat down somewhere)."""
        self._paused = True
        if self._thread is not None and self._checks is not None:
            self._thread.post(self._checks.pause)

    async def _watch_rejoin(self, on_event, wake: asyncio.Event) -> None:
        while True:
            try:
                offer = await self._rejoin_offer()
            except Exception:  # noqa: BLE001 - the offer is a convenience: never a crash
                log.exception("checking the last table failed")
                offer = None
            if offer != self._offer:
                self._offer = offer
                on_event(rejoin_event(offer))
            try:
                await within(None if self._paused else self.probe_every, wake.wait())
            except TimeoutError:
                pass
            wake.clear()

    async def _rejoin_offer(self) -> dict | None:
        """The remembered table where it can be reached now, or None."""
        from net.wire.identity import same_fingerprint
        record = self.memory.load()
        if record is None:
            return None
        for table in self._tables:
            if table["answering"] and same_fingerprint(table["fingerprint"], record["fingerprint"]):
                if not _could_be(record, table):
                    return None  # that host has another table now: ours is over
                return {**record, "address": table["address"], "port": table["port"],
                        "where": "network"}
        carried = _carried_on(record, self._tables)
        if carried is not None:  # its host left, and a player carries it on: our seat is there
            return {**record, "address": carried["address"], "port": carried["port"],
                    "fingerprint": carried["fingerprint"], "host": carried["host"],
                    "where": "network"}
        if self.identity is not None and await self._answers(record, self.identity):
            return {**record, "where": "address"}
        return None

    async def _answers(self, record: dict, identity: Callable[[], Identity]) -> bool:
        """Whether the host with the remembered key answers at the remembered address
        (it sees a connection that closes before asking for a seat)."""
        from net.wire.framing import ProtocolError
        from net.wire.heartbeat import WIRE
        from net.wire.transport import HandshakeError, open_connection
        self._count_codes(record, identity)
        try:
            conn = await open_connection(record["address"], record["port"], identity(),
                                         record["fingerprint"], schemas=WIRE,
                                         timeout=REJOIN_PROBE_TIMEOUT)
        except (HandshakeError, OSError, TimeoutError, ProtocolError):
            return False
        await conn.close()
        return True

    def _count_codes(self, record: dict, identity: Callable[[], Identity]) -> None:
        """A table across houses is found again by the codes this installation and its
        host derive, counted in the data directory (``net.houses.pairs.Book``): the probe
        counts from there, as the guest will (an empty count starts at code 0, long used,
        and never meets the host's)."""
        from net.houses import parse_house
        where = parse_house(record["address"])
        path = getattr(self.memory, "path", None)
        if where is not None and path is not None:
            from net.houses import service
            service.keep_count(identity(), where[1], path.parent)

    def stop(self) -> None:
        if self._thread is None:
            return

        async def end():
            for task in (self._watch, self._checking):
                if task is not None:
                    task.cancel()  # perhaps mid-check: its connection is closed
                    await asyncio.gather(task, return_exceptions=True)
            if self._browser is not None:
                await self._browser.stop()
        self._thread.stop(end())
        self._thread = None


def _carried_on(record: dict, tables: list[ListedTable]) -> ListedTable | None:
    """The remembered table carried on under another host, among ``tables``: the same
    table id (a takeover keeps it) advertised by another key, answering. Only a rejoin's
    way there: the guest checks the new host's log, its takeover entry first, as a player
    who followed it does."""
    return next((table for table in tables if table["answering"] and table.get("table")
                 and table["table"] == record["table"]
                 and not same_fingerprint(table["fingerprint"], record["fingerprint"])
                 and _could_be(record, table)), None)


def _could_be(record: dict, table: TableInfo) -> bool:
    """Whether the advertised ``table`` may be the remembered one: same name, and in
    game if ours had started (a started table never goes back to waiting)."""
    same_name = not record["name"] or table.get("name") == record["name"]
    return same_name and (bool(table.get("in_game")) or not record["started"])
