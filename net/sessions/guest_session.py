"""GuestCore: a seat at someone else's table — PeerReplica over a link that comes back.

The guest finds the table (mDNS by name, or an address), connects with the host's key
pinned, sends "join" (its seat and the last entry it holds) and from then on feeds
every entry the host sends to its own ``PeerReplica``, which checks it with the engine
before anything is shown.

What the person is told is built by ``guest_view.GuestView`` (with the host's event
builders), and the seat's decisions are made by ``guest_player.GuestPlayer``. What the
guest does with the results:

* integrity alerts: saved as evidence and reported as the facade's "alert" event; the
  replica halts, and the guest tells the other players and the host (its signed
  report: ``reporting``) and leaves the table, so that it does not wait for ever at a
  seat that no longer moves (a headless guest exits non-zero). Another player's report
  is weighed by the replica: checked here, it stops this guest as its own finding would;
  not, it is told as that player's word, and the guest goes on;
* an exception in its own checks: a bug here, told as such (``failures``: a bug
  report saved), and the guest leaves the table, accusing nobody;
* verified hands: a "hand_over" event (with the hand record saved, when there is a
  state directory);
* every accepted batch is acknowledged at once with an "hb" carrying the last verified
  seq, so the host knows what this peer has — a player's; a watcher's client says how
  far its log goes in its heartbeat only (every ``interval``: the host needs it for
  nothing sooner, and six watchers' acknowledgements of every entry were CPU on the
  host's loop);
* the seat's decisions: a bot's (headless), or the person's through ``act`` — none
  after a join until the replica holds the log up to the head the host announced in
  "joined" (``caught_up``: a restarted app must not play a turn of the table's past),
  and one at a time: nothing more is decided or offered until the host logs or refuses
  the move in flight, and only a refusal of that move reaches the person (the host's
  error names the move it refuses; others are logged);
* table talk (``talk.GuestTalk``): what the person says, signed and sent; what the host
  relays, checked before it is shown;
* the app's seat is remembered on disk (``last_table.LastTable``) for a rejoin after
  the app or the computer restarts, and forgotten when the table ends or turns us away;
* who watches the table (the host's "watchers"), and — a player's — its own hand shown
  to the watchers its person chose (``showing.ShowingHand``: "show" messages, sealed for
  each watcher alone).

A guest made with ``watch=True`` is a **watcher**: its "join" asks to watch, it holds no
seat and decides nothing (``act`` says so), its replica checks every entry all the same,
and it is shown the public view — with a hand a player shows it (``watching.ShownHands``:
the legal moves and the Hint too, never to play). It follows the table when a player
carries it on after the host is gone (``watching.Following``), never counting towards the
takeover, and remembers no seat to rejoin.

Messages from the host that are the sessions' own besides the trust protocol's ("watchers",
"shown") go to ``host_messages`` by type.

The connection is a state machine (``GuestState``, its transitions in
``TRANSITIONS``): ``connecting → joined → dropped → backing off → connecting … → ended``
(a failed attempt goes ``connecting → backing off``). A drop (closed socket, heartbeat silence, garbage from the
other end) leads to reconnection with exponential backoff, to the last known address
or, when the table was found by mDNS, wherever the same host key advertises it now.
On reconnection the "join" names the last entry held, and the host sends only the
suffix. A pin mismatch, a protocol version mismatch or a refusal ends the session with
a message for the person; so does the app's first join when it has not reached the
table within ``FIRST_JOIN_WITHIN`` seconds (what went wrong in plain words).
"""

from __future__ import annotations

import asyncio
import enum
import errno
import logging
import os
import socket
from collections.abc import Callable
from pathlib import Path

from net.constants import FIRST_JOIN_WITHIN, MAX_WATCHERS
from net.houses.tables import GuestHouses
from net.sessions.events import connection_event, error_event, watchers_event
from net.sessions.facade import ConnectionEvent, EventCallback, FatalCause, TableInfo
from net.sessions.ending import closed_by_host
from net.sessions.finder import NotFound, TableFinder
from net.sessions.guest_log import DiskCopy
from net.sessions.guest_player import GuestPlayer
from net.sessions.guest_view import GuestView
from net.sessions.last_table import LastTable, NoLastTable
from net.sessions.reporting import Reporter
from net.sessions.showing import ShowingHand
from net.sessions.watching import Following, ShownHands
from net.sessions.succession import NoSuccession, Succession
from net.sessions.talk import TALK_MESSAGES, GuestTalk, speakers
from net.trust import failures, reports
from net.trust.entries import TableBody
from net.trust.peer.replica import PeerReplica, ReplicaOut
from net.trust.shown import private_part
from net.trust.values import Seats
from net.wire import messages as m
from net.wire.address import format_address
from net.wire.framing import ProtocolError
from net.wire.heartbeat import WIRE, Backoff, Link, Timings
from net.wire.identity import fingerprint
from net.wire.transport import (HandshakeError, PinMismatch, VersionMismatch, open_connection,
                                this_task, within)

log = logging.getLogger(__name__)

Emit = EventCallback


class Fatal(Exception):
    """The session cannot go on (wrong key, wrong version, refused, the host unreachable):
    message for people; ``details``, ``waited`` and ``cause`` as an error event has them."""

    def __init__(self, message: str, details: str = "", waited: float | None = None,
                 cause: FatalCause = "lost"):
        super().__init__(message)
        self.details, self.waited, self.cause = details, waited, cause


class GuestState(enum.Enum):
    CONNECTING = "connecting"  # an attempt (TCP, TLS, handshake, "join") under way
    JOINED = "joined"  # the host said "joined": entries flow
    DROPPED = "dropped"  # the link ended (closed, silent, garbage)
    BACKING_OFF = "backing off"  # waiting before the next attempt
    ENDED = "ended"  # the table ended, we were turned away, stopped, or an alert stopped us


TRANSITIONS = {
    GuestState.CONNECTING: {GuestState.JOINED, GuestState.DROPPED, GuestState.BACKING_OFF,
                            GuestState.ENDED},
    GuestState.JOINED: {GuestState.DROPPED, GuestState.ENDED},
    GuestState.DROPPED: {GuestState.BACKING_OFF, GuestState.ENDED},
    GuestState.BACKING_OFF: {GuestState.CONNECTING, GuestState.ENDED},
    GuestState.ENDED: set(),
}


class GuestCore:
    def __init__(self, identity, *, address: str | None = None, port: int | None = None,
                 fingerprint: str | None = None, table_name: str | None = None,
                 interfaces=None, emit: Emit | None = None, timings: Timings | None = None,
                 bot_level: str | None = None, state_dir: str | os.PathLike | None = None,
                 seat: int | None = None, bot_delay: float = 0.0,
                 discover_timeout: float = 30.0, claim: tuple[int, int] | None = None,
                 give_up: int | None = None, remember: LastTable | None = None,
                 call_later: Callable | None = None, rng: Callable[[int], bytes] = os.urandom,
                 takeover: dict | None = None, code: str | None = None, watch: bool = False):
        self.identity = identity
        # Timers (a bot's thinking pause, the shuffle notice) go through this, so the
        # core can be driven message by message without an event loop in tests.
        self.call_later = call_later or (
            lambda delay, fn, *args: asyncio.get_running_loop().call_later(delay, fn, *args))
        self.rng = rng  # our randomness: deal contributions, nonces in a move signed here
        self.address, self.port, self.fingerprint = address, port, fingerprint
        self.table_name = table_name
        self.interfaces = interfaces
        self.emit: Emit = emit or (lambda event: None)
        self.timings = timings or Timings()
        self.state_dir = Path(state_dir) if state_dir else None
        self.wanted_seat = seat
        self.claim = claim  # tests: ask for (seat, last_seq) this key does not hold
        # The app: stop after this many failed connection attempts in a row (a few
        # before the first join) and say the host is gone; None: keep trying (headless).
        self.give_up = give_up
        # The app: where this seat is, for a rejoin after a restart (a watcher holds none).
        self.remember = remember if remember is not None and not watch else NoLastTable()
        self.watching = watch  # a watcher: no seat, nothing to decide
        # who watches, as the host last said (with its settings for watchers)
        self.watch_list: dict = {"type": "watchers", "watchers": [], "open": True, "cap": MAX_WATCHERS}
        self.shown = ShownHands(identity)  # (a watcher's) the hands players show it
        self.showing = ShowingHand(identity, os.urandom)  # (a player's) whom it shows its hand
        # The host's messages that are the sessions' own (not the trust protocol's).
        self.host_messages: dict[str, Callable[[dict], None]] = {
            "watchers": self._on_watchers, "shown": self._on_shown}
        self.state = GuestState.CONNECTING
        # Why it ended: "stopped" (we left), "refused", "fatal", "table" (it ended), "alert".
        self.ended_by: str | None = None
        # (``emit`` through the core: tests put a recording one in its place)
        self.view = GuestView(lambda: self.replica, lambda event: self.emit(event),
                              self.call_later, self.timings,
                              table_name=lambda: self.table_name, subdir=self.subdir,
                              caught_up=lambda: self.caught_up,
                              moving=lambda: self.player.in_flight is not None,
                              from_disk=lambda: self.from_disk,
                              coach=lambda: self.shown.coach_view(self.replica)
                              if self.watching and self.replica is not None else None,
                              watching=lambda: self.watching)
        self.player = GuestPlayer(identity.public_key, lambda: self.replica, lambda: self.link,
                                  emit=lambda event: self.emit(event), call_later=self.call_later,
                                  caught_up=lambda: self.caught_up,
                                  noted=lambda reason: self.errors.append(reason),
                                  offer=lambda: self.view.state_event([]),
                                  bot_level=bot_level, bot_delay=bot_delay)
        self._host_name = ""
        # table talk: ours signed and sent, the host's relays checked (never in the log)
        self.talk = GuestTalk(identity, lambda: self.replica.table if self.replica else None,
                              lambda: self.host_key,
                              speakers(lambda: self.replica.seats if self.replica else Seats(),
                                       lambda: self.host_key, lambda: self._host_name,
                                       lambda: [(w["key"], w["name"])
                                                for w in self.watch_list["watchers"]]),
                              link=lambda: self.link if self.state is GuestState.JOINED else None,
                              emit=lambda event: self.emit(event))
        self._deadline: float | None = None  # the app's first join gives up by then
        # A failed attempt counts (towards ``give_up``) only from then on, at the backoff's
        # pace: the attempts a pending takeover makes in between (``_back_off``) do not.
        self._counts_from = 0.0
        self._attempt: asyncio.Future | None = None
        self._wake_event: asyncio.Event | None = None
        self.replica: PeerReplica | None = None
        self.disk_log = DiskCopy(self.state_dir, self.emit)  # our copy of the verified log
        self.reporter = Reporter(identity, self.timings, replica=lambda: self.replica,
                                 link=lambda: self.link)
        self.succession: Succession | NoSuccession | Following = \
            self._following() if watch else \
            self._succession(takeover) if takeover is not None else NoSuccession()
        # a code typed; a host across houses
        self.houses = GuestHouses(identity, self.state_dir, address=lambda: self.address,
                                  replica=lambda: self.replica, table=lambda: self.table, code=code)
        self.host_key: bytes | None = None
        self.table: str | None = None
        self.link: Link | None = None
        self.links_made = 0  # links to a host so far (the last one's number)
        self.finder = TableFinder(interfaces, table_name, discover_timeout, self.emit)
        self.alerts: list[dict] = []
        self.named: list[dict] = []  # players' cheats named; the table went on
        self.reported: list[dict] = []  # other players' reports we could not check; we went on
        self.verified: list[dict] = []
        self.errors: list[str] = []
        self.reconnects = 0
        self.end: dict | None = None
        self.fatal: str | None = None
        self.done = asyncio.Event()
        self.joined = asyncio.Event()  # set at the first "joined", and stays set
        self.from_disk: int | None = None  # entries our replica was rebuilt with from disk
        self.received = 0  # entries this run took from the host (not from its disk)
        self._restored: ReplicaOut | None = None  # what it replayed, told once the host has us back
        self.announced: int | None = None  # the host's head at our last "joined" (its seq)

    def _succession(self, takeover: dict) -> Succession:
        """Our part in a takeover (``takeover``: its options), wired to what it uses."""
        return Succession(self.identity, self.timings, replica=lambda: self.replica,
                          reported=self._on_report,
                          link=lambda: self.link, host_at=lambda: (self.address, self.port),
                          joined=lambda: self.state is GuestState.JOINED,
                          ended=lambda: self.ended,
                          autoplay=lambda: self.player.bot is not None,
                          emit=lambda event: self.emit(event), rolled_back=self._rolled_back,
                          follow=self._follow, hosting=lambda: self.wake(ended_by="takeover"),
                          forget=lambda: self.remember.forget(self.table), rng=self.rng,
                          named=self._name, state_dir=self.state_dir,
                          interfaces=self.interfaces, watchers=self._watcher_keys,
                          watch_settings=self._watch_settings, **takeover)

    def _following(self) -> Following:
        """A watcher's way to the table should its host leave for good."""
        return Following(self.identity, self.timings, replica=lambda: self.replica,
                         joined=lambda: self.state is GuestState.JOINED,
                         emit=lambda event: self.emit(event), rolled_back=self._rolled_back,
                         follow=self._follow, rng=self.rng)

    def _name(self, alerts: list) -> None:
        """Players a takeover caught lying (``succession``): each named to the person, the
        evidence saved; the table goes on."""
        self.named += self.view.alerts(alerts, goes_on=True)

    def _rolled_back(self, replica: PeerReplica, seq: int) -> None:
        """A takeover rolled our log back to entry ``seq``: ``replica`` is ours now, and
        our copy on disk ends there too."""
        self.replica = replica
        self.disk_log.roll_back(seq)

    def _follow(self, key: bytes, address: str, port: int) -> None:
        """Another player carries the table on: pin its key, and reconnect to it now. The
        seat we remember goes with it: should the app close before we are back at the
        table, its lobby looks for the new host, not the one that left."""
        self.host_key, self.fingerprint = key, fingerprint(key)
        self.address, self.port = address, port
        if self.replica is not None:
            self._host_name = next((info.name for info in self.replica.seats.values()
                                    if info.key == key), self._host_name)
            self._remember()
        self.wake()

    # -- the connection state machine ------------------------------------------------------
    def _to(self, state: GuestState) -> None:
        if state is self.state:
            return
        if state not in TRANSITIONS[self.state]:
            raise AssertionError(f"a guest cannot go from {self.state.value} to {state.value}")
        log.debug("guest: %s -> %s", self.state.value, state.value)
        self.state = state

    def _end(self, cause: str) -> None:
        if not self.ended:
            self.ended_by = cause
            self._to(GuestState.ENDED)

    @property
    def ended(self) -> bool:
        return self.state is GuestState.ENDED

    async def run(self) -> dict:
        """Play until the table ends, an alert stops us, or ``stop``; the summary."""
        try:
            if self.houses.code:
                await self._use_code()
            self.houses.keep_count()
            if self.address is None:
                self._moved_to(await self.finder.find(self.fingerprint))
            self._from_disk()
            await self.succession.start()
            if self.give_up is not None:
                self._deadline = asyncio.get_running_loop().time() + FIRST_JOIN_WITHIN
            backoff = Backoff(self.timings)
            while not self.ended:
                await self.succession.settled()  # our standing is out: no old host meanwhile
                if self.ended:
                    break
                conn = await self._attempt_once(backoff)
                if conn is None:
                    continue
                backoff.reset()
                self._counts_from = 0.0
                self.fingerprint = self.fingerprint or conn.peer_fingerprint
                reason, silent = await self._session(conn)
                if self.ended:
                    break
                self._to(GuestState.DROPPED)
                self.reconnects += 1
                self.succession.host_silent(silent)
                self.houses.host_gone(self.succession.roster)
                log.info("the link to the host ended: %s", reason)
                self.emit(self._reconnecting("The connection to the table dropped. Trying again…", 0))
                await self._back_off(self._paced(backoff.next()))
                self._moved_to(self.finder.where(self.fingerprint))
            self._closed_by_host()
            await self.succession.carried_on()  # when we host the table now: until it ends
        except (Fatal, NotFound) as exc:
            self.fatal = str(exc)
            self._end("fatal")
            details, waited, cause = (exc.details, exc.waited, exc.cause) if isinstance(exc, Fatal) \
                else ("", None, "lost")
            self.emit(error_event(self.fatal, fatal=True, details=details, waited=waited,
                                  cause=cause))
        finally:
            await self.finder.stop()
            self.disk_log.close()
            await self.reporter.flush()  # (our report out before our standby closes)
            await self.succession.stop()
            await self.houses.stop()
            self.done.set()
        return self.summary()

    async def _attempt_once(self, backoff: Backoff):
        """One connection attempt: the connection, or None after backing off."""
        try:
            return await self._connect()
        except asyncio.CancelledError:
            if not this_task().cancelling():
                return None  # Cancel while connecting, or the table moved (``wake``)
            raise
        except (PinMismatch, VersionMismatch) as exc:
            raise Fatal(str(exc), cause="refused") from None
        except (HandshakeError, OSError, TimeoutError, ProtocolError) as exc:
            now = asyncio.get_running_loop().time()
            if now < self._counts_from:  # a takeover's probe, between two counted attempts
                await self._back_off(self._counts_from - now)
                return None
            self._failed_attempt(backoff, plain_problem(exc))
            await self._back_off(self._paced(self._before_deadline(backoff.next())))
            return None

    def _paced(self, delay: float) -> float:
        """``delay``, the backoff's next: the next attempt counts only once it is over,
        however often a pending takeover probes the host meanwhile (``_back_off``) — so
        that ``give_up`` attempts take the backoff's time, not the probes'."""
        self._counts_from = asyncio.get_running_loop().time() + delay
        return delay

    async def _back_off(self, delay: float) -> None:
        if self.ended:
            return
        self._to(GuestState.BACKING_OFF)
        if self.succession.pending:  # a host back before the players carry on is found
            delay = min(delay, self.timings.takeover_probe)
        try:
            await within(delay, self._wake.wait())
        except TimeoutError:
            pass
        self._wake.clear()
        if not self.ended:
            self._to(GuestState.CONNECTING)

    async def _connect(self):
        """One connection attempt (TCP, TLS, the Parlour handshake); ``stop`` cancels it."""
        address, port = self._host_at
        self._attempt = asyncio.ensure_future(open_connection(
            address, port, self.identity, self.fingerprint, schemas=WIRE,
            timeout=self._before_deadline(self.timings.connect)))
        try:
            return await self._attempt
        finally:
            self._attempt = None

    def _before_deadline(self, seconds: float) -> float:
        """``seconds``, cut to what is left of the first join's time (not after it)."""
        if self.joined.is_set() or self._deadline is None:
            return seconds
        left = self._deadline - asyncio.get_running_loop().time()
        return max(0.05, min(seconds, left))

    @property
    def _host_at(self) -> tuple[str, int]:
        """Where the host is: given with both parts, or found (by its advert, or a code)
        before the first attempt (``run``); a takeover moves both at once."""
        assert self.address is not None and self.port is not None, "no attempt before the host is found"
        return self.address, self.port

    def _reconnecting(self, detail: str, attempt: int) -> ConnectionEvent:
        """Our own reconnection progress: ``attempt`` of ``attempts`` (None: no limit)."""
        return connection_event(self._seat(), "reconnecting", detail, attempt=attempt,
                                attempts=self.give_up)

    def _failed_attempt(self, backoff: Backoff, problem: str) -> None:
        """A connection attempt failed: report it, or give up (the app's limit)."""
        failed = backoff.attempts + 1
        where = format_address(*self._host_at)
        if not self.joined.is_set():
            late = self._deadline is not None and \
                asyncio.get_running_loop().time() >= self._deadline - 0.05
            if self.give_up is not None and (failed >= min(self.give_up, 3) or late):
                raise Fatal(f"Couldn't reach the table at {where}: {problem}. The host may "
                            "have closed it, or the address is wrong.")
            return
        if self.succession.following is not None:  # another player carries the table on
            self.succession.unreachable()  # (and we keep trying to reach them)
        elif self.give_up is not None and failed >= self.give_up:
            raise Fatal(f"The host stopped answering ({problem}; tried {failed} times). "
                        "The table may have closed.")
        self.emit(self._reconnecting(f"Trying to reach the host at {where} again… ({problem})",
                                     failed))

    def _closed_by_host(self) -> None:
        """The host ended the table before the game was over (it left): say so."""
        r = self.replica
        if self.end is not None and self.ended_by != "stopped" and r is not None \
                and r.winner is None and r.stopped is None and self.fatal is None:
            self.emit(error_event(closed_by_host(self.end["reason"]), fatal=True, cause="closed"))

    def _table_over(self) -> bool:
        return self.end is not None and self.replica is not None \
            and self.replica.seq >= self.end["head"]

    @property
    def _wake(self) -> asyncio.Event:
        if self._wake_event is None:
            self._wake_event = asyncio.Event()
        return self._wake_event

    def wake(self, ended_by: str | None = None) -> None:
        """Stop backing off, and any attempt still waiting on the old address: the table
        moved, or (``ended_by``) we host it now (succession)."""
        if ended_by is not None:
            self._end(ended_by)
        self._wake.set()
        if self._attempt is not None:
            self._attempt.cancel()

    async def stop(self) -> None:
        await self.succession.leave()
        self._end("stopped")
        self._wake.set()
        if self._attempt is not None:
            self._attempt.cancel()
        if self.link is not None:
            self.link.close("left the table")

    async def _session(self, conn) -> tuple[str, bool]:
        """One connection to the host, from "join" to its end: why it ended, and whether
        the host went silent (rather than closing or resetting it)."""
        replica = self.replica
        seat = replica.seat if replica is not None else None
        last = replica.seq if replica is not None else -1
        if self.claim is not None:
            seat, last = self.claim
        join: dict = {"type": "join", "name": self.identity.name, "last_seq": last,
                      "seat": seat if seat is not None else self.wanted_seat,
                      "standby": self.succession.port}
        if self.watching:
            join = {"type": "join", "name": self.identity.name, "last_seq": last, "watch": True}
        if replica is not None:  # (the log we hold is this table's: a new one's host starts us over)
            join["table"] = replica.table
        link = Link(conn, self.timings, self.receive,
                    position=lambda: self.replica.seq if self.replica else -1,
                    on_hb=lambda seq, head: self._on_host_head(link, seq, head))
        self.link = link
        self.links_made += 1  # (this link's number: ``deliveries`` tells links apart by it)
        link.send(join)
        try:
            return await link.run(), link.silent
        finally:
            self.link = None

    # -- finding the table --------------------------------------------------------------------
    async def _use_code(self) -> None:
        """The code a person typed: the host's house address, its key pinned."""
        from net.houses.links import HouseError
        try:
            found = await self.houses.use_code(self.finder.within)
        except HouseError as exc:
            log.warning("couldn't join by code: %s (%s)", exc, exc.details or "no details")
            raise Fatal(f"Couldn't join by code: {str(exc).rstrip('.')}.", exc.details,
                        exc.waited) from None
        self.address, self.port = found["address"], found["port"]
        self.fingerprint = fingerprint(found["key"])
        self.table_name = found.get("name") or self.table_name
        if found.get("watch") and not self.watching:
            self._become_watcher()  # the host made the code for a watcher
        if self.wanted_seat is None and isinstance(found.get("seat"), int):
            self.wanted_seat = found["seat"]

    def _become_watcher(self) -> None:
        """A code made for a watcher: this guest watches (before it has joined anything)."""
        self.watching = True
        self.remember = NoLastTable()
        self.succession = self._following()

    def _moved_to(self, table: TableInfo | None) -> None:
        """Where the host (by key, once known) advertises its table now (mDNS)."""
        if table is not None:
            self.address, self.port = table["address"], table["port"]
            self.fingerprint = table["fingerprint"]

    # -- messages from the host ------------------------------------------------------------------
    def receive(self, msg: dict) -> None:
        """One message from the host, in order (none matters once we have ended)."""
        if self.ended:
            return
        kind = msg["type"]
        if kind == "joined":
            self._on_joined(msg)
        elif kind == "end":
            self.end = {"reason": msg["reason"], "head": msg["head"]}
            self.remember.forget(self.table)  # nothing to rejoin
            self._check_end()
        elif kind == m.REFUSED:
            # A seat played from another copy of this identity is still ours: kept for a
            # rejoin from here once that copy stops.
            self._turned_away(f"The host refused: {msg['reason']}",
                              forget=msg["reason"] != m.SEAT_IN_USE)
        elif kind in (m.ENTRY, m.SYNC, m.ERROR):
            self._from_host(msg)
        elif kind == m.TAIL_REQUEST and self.replica is not None:
            for reply in self.replica.tail(msg["after"]):  # a restarted host lost them
                self._linked.send(reply)
        elif kind == "roster":
            roster = self.houses.roster(msg)
            self.succession.on_roster(roster)
            self.reporter.on_roster(roster)
        elif kind == "handover":
            self.succession.on_handover(self.houses.heir(msg))
        elif kind in self.host_messages:
            self.host_messages[kind](msg)
        elif kind in TALK_MESSAGES:
            self.talk.heard(msg)
        else:
            self._linked.reject(f"unexpected message {kind!r}")

    @property
    def _linked(self) -> Link:
        """The link the host's message came by: ``receive`` is its reader, and ``link``
        is kept until it has ended."""
        assert self.link is not None, "the host's messages come over a link"
        return self.link

    def _turned_away(self, message: str, forget: bool = True) -> None:
        """The same answer would come again: stop here with the host's reason."""
        if forget:
            self.remember.forget(self.table)  # nothing to rejoin
        self.fatal = message
        self._end("refused")
        self.emit(error_event(message, fatal=True, cause="refused"))
        if self.link is not None:
            self.link.close(message)

    @property
    def caught_up(self) -> bool:
        """Whether our replica holds the host's log up to the head it announced at our
        last join: before that, what it shows is the table's past, and nothing is
        decided or offered on it."""
        return self.replica is not None and self.announced is not None \
            and self.replica.seq >= self.announced

    def _on_joined(self, msg: dict) -> None:
        conn = self._linked.conn
        key = conn.peer_key
        if self.replica is None or self.replica.table != msg["table"] \
                or (self.host_key != key and not self._carried_on_from(msg)):
            self.host_key, self.table = key, msg["table"]
            self.replica = self._new_replica(msg.get("origin", key), msg["table"])
            self.disk_log.open(msg["table"])
            self._restored = None  # (another host, or table, than the copy on disk)
        else:
            self.host_key = key  # (the same, or the player carrying the table on now)
        self._host_name = conn.peer_name
        self.announced = msg["head"]
        self.talk.joined()  # the host's mutes in force come next
        self.succession.host_back()
        self._to(GuestState.JOINED)
        self.player.reconnected()
        self.joined.set()
        self.emit(connection_event(msg["seat"], "connected",
                                   f"joined {self.table} at entry {msg['head']}"))
        hand = self.replica.hand
        if not self.caught_up and hand is not None and hand.playing:
            self.emit(self.view.state_event([]))  # what was offered is not, until we hold it

    def _carried_on_from(self, msg: dict) -> bool:
        """Whether the host that answered ``msg`` ("joined") carries on the table our copy
        is of — opened by the key our copy's first entry names — though our copy came
        from another host: we were away while a player carried it on (the app closed,
        and its Rejoin found the new host). The copy is kept: only it holds the cards
        we were dealt before the takeover (the new host never had them), and the log
        follows on from its end, the takeover entry checked by the replica as it comes.
        (A copy that goes past the entry the takeover extends does not follow on: a
        known limit, design.md.)"""
        replica = self.replica
        return replica is not None and replica.table == msg["table"] \
            and msg.get("origin") == replica.log[0].entry.body_as(TableBody).host_key

    def _new_replica(self, origin: bytes, table: str) -> PeerReplica:
        return PeerReplica(self.identity, origin, table, rng=self.rng,
                           deadline=self.timings.contribution, slack=self.timings.contribution_slack)

    def _from_disk(self) -> None:
        """The app started again at the seat it remembers: our replica rebuilt from our own
        copy of that table's log (every entry checked again), so that the host sends only
        what we lack. Anything amiss — no copy, another seat, a copy that does not check —
        and the log is fetched whole, as on a first join."""
        record = self.remember.load()
        if self.replica is not None or record is None or self.wanted_seat is None \
                or record["seat"] != self.wanted_seat:
            return
        messages = self.disk_log.read(record["table"])
        if not messages or messages[0].entry.kind != "table":
            return
        replica = self._new_replica(messages[0].entry.body_as(TableBody).host_key, record["table"])
        out = replica.replay(messages)
        if replica.stopped is not None or replica.seat != self.wanted_seat:
            log.warning("our copy of the table's log does not check (%s): fetching it whole",
                        replica.stopped or "another seat")
            return
        self.replica, self.host_key, self.table = replica, replica.host_key, record["table"]
        self.disk_log.open(record["table"], keep=True)
        self.succession.kept(out.accepted)
        self.from_disk = replica.seq + 1
        self._restored = out

    def _from_host(self, msg: dict) -> None:
        if self.replica is None:
            if msg["type"] == m.ERROR:
                # Turned away before taking a seat (the table is full, or closing).
                self.errors.append(msg["reason"])
                self._turned_away(f"The host turned you away: {msg['reason'].rstrip('.')}.")
                return
            self._linked.reject("entries before 'joined'")
            return
        was_seat = self.replica.seat
        was_names = {s: i.name for s, i in self.replica.seats.items()}
        was_behind = not self.caught_up
        out = self.replica.receive(msg, arrived=self._linked.arrived)
        written = []
        for reply in out.sends:
            if self._linked.send(reply):
                written.append(reply)
        self._deliveries(msg, written)
        for reason in out.errors:
            self.player.refused(reason, out.refuses)
        self._raise_alerts(out)
        self._own_errors(out)
        self.received += len(out.accepted)
        if out.accepted:  # acknowledged at once (a watcher's: by its heartbeat), kept
            if not self.watching:
                self._linked.send({"type": "hb", "seq": self.replica.seq})
            self.disk_log.keep(out.accepted)
            self.succession.kept(out.accepted)
        live = msg["type"] == m.ENTRY
        if self._restored is not None:  # (the first batch since we rebuilt the replica from
            out = self._restored.then(out)  # disk: shown with it, as one catch-up sync — our
            self._restored, was_seat, live = None, None, False  # copy is no news, live or not)
        self._show(out, was_seat, was_names, caught_up=was_behind and self.caught_up, live=live)

    def _show(self, out, was_seat, was_names: dict, caught_up: bool, live: bool) -> None:
        """What the replica accepted (``out``), told to the person and acted on: ``live``
        a move as it is played; ``caught_up`` the batch that brought us up to date."""
        if out.accepted:
            self.player.settle(out.accepted)
            self.view.report(out.accepted, was_seat, was_names, caught_up=caught_up, live=live)
            self._remember()
        for hand in out.verified:
            self.verified.append({"hand": hand["hand"], "scores": hand["scores"],
                                  "deferred": len(hand["deferred"])})
            self.view.hand_verified(hand)
        self.view.hands_not_verified(out.accepted, out.verified)
        self._check_end()
        self.player.poke()
        self._show_own()

    def _deliveries(self, msg: dict, written: list[dict]) -> None:
        """What our replica keeps of our deal messages' way to the host (``deliveries``):
        each one written to this link at once (one queued behind others is not counted:
        when it left is not known here), and the host closing the link for our not
        answering."""
        replica = self.replica
        assert replica is not None  # (a message from the host reaches a replica)
        for reply in written:
            if reply["type"] == m.MENTAL:
                replica.deliveries.sending(reply["signed"], self.links_made, replica.clock())
        if msg["type"] == m.ERROR and msg["reason"] == m.NO_ANSWER:
            replica.deliveries.cut(self.links_made, replica.clock())

    def _on_host_head(self, link, seq: int, head: bytes | None) -> None:
        """The host's heartbeat: the head of what it sent us, checked against our log."""
        if self.replica is None or head is None or link is not self.link:
            return  # not joined yet, or a link we have left (a takeover)
        self._raise_alerts(self.replica.check_head(seq, head))

    def _raise_alerts(self, out) -> None:
        """Tell the person of every alert. One that stops our replica ends our part at
        this table: our own finding is reported to the others first (``reporting``;
        one found on another player's report is theirs to send), then we leave — the
        host sees us go, and the table goes on without us where the rules let it."""
        self.named += self.view.alerts(out.named, goes_on=True)  # a player's cheat: the table goes on
        self.reported += self.view.alerts(out.reported)  # another player's word: we go on
        stopping = self.view.alerts(out.alerts)
        self.alerts += stopping
        if not stopping or self.ended:
            return
        for alert in out.alerts:
            if alert.reported_by is None:
                self.reporter.report(alert)
        self._end("alert")
        if self.link is not None:
            self.link.finish()  # (the report to the host, queued, goes first)

    def _on_report(self, message: dict) -> None:
        """Another player's report, at our standby: weighed by our replica."""
        replica = self.replica
        if replica is None or self.ended:
            return
        report = reports.read(message["signed"], replica.seats, replica.table)
        if isinstance(report, str):
            log.warning("ignored a report: %s", report)
            return
        out = replica.weigh(report)
        if not out.alerts and not out.reported:
            log.warning("ignored seat %s's report: its entries are not the host's log as we hold it",
                        report.seat)
        self._raise_alerts(out)

    def _own_errors(self, out: ReplicaOut) -> None:
        """An exception in our own checks: a bug on this computer, which accuses nobody.
        The person is told so, a bug report is saved for them to send, and we leave the
        table (the host sees us drop, and the table goes on as after any drop)."""
        for failure in out.failed:
            log.error("our own check failed at entry %s:\n%s", failure.seq, failure.trace)
            event = failures.error_event(failure, self.subdir("bug-reports"))
            self.fatal = event["message"]
            self._end("fatal")
            self.emit(event)
            if self.link is not None:
                self.link.close("this client's own check failed")

    def _check_end(self) -> None:
        if self._table_over():
            self._end("table")
            if self.link is not None:
                self.link.close("the table ended")

    def subdir(self, name: str) -> Path | None:
        return self.state_dir / name if self.state_dir is not None else None

    def _seat(self) -> int | None:
        return self.replica.seat if self.replica is not None else None

    # -- where we sit, for a rejoin after a restart -----------------------------------------------
    def _remember(self) -> None:
        """Keep the table's whereabouts and our seat on disk while we hold the seat."""
        self.remember.keep(self.replica, self.address, self.port, self.fingerprint,
                           self.view.table_name(), self._host_name)

    # -- the person's commands ----------------------------------------------------------------------
    def act(self, data: dict) -> None:
        """The person's decision (hand-record form, no seat)."""
        if self.watching:
            self.emit(error_event(WATCHING))
            return
        self.player.act(data)

    # -- watchers --------------------------------------------------------------------------------
    def _on_watchers(self, message: dict) -> None:
        """Who watches now (the host's list, checked for shape: a bad one is only logged)."""
        if not watchers_well_formed(message):
            log.warning("the host's list of watchers is malformed: ignored")
            return
        self.watch_list = message
        self.showing.present(self._watcher_keys())
        self._show_own()  # (a watcher back: it is shown the hand again)
        self.emit(watchers_event(message, you_watch=self.watching, showing=self.showing.to,
                                 you=self.identity.fingerprint))

    def _watcher_keys(self) -> set[bytes]:
        return {w["key"] for w in self.watch_list["watchers"]}

    def _watch_settings(self) -> dict:
        """The host's settings for watchers, for a table we carry on (``HostOptions``)."""
        return {"watching": bool(self.watch_list["open"]), "max_watchers": int(self.watch_list["cap"])}

    def _on_shown(self, message: dict) -> None:
        """(a watcher) A hand a player shows us, relayed by the host."""
        if not self.watching:
            return
        event = self.shown.receive(self.replica, message)
        if event is not None:
            self.emit(event)
        if self.replica is not None and self.replica.game is not None and self.caught_up:
            self.emit(self.view.state_event([]))

    def show_hand(self, fp: str, on: bool) -> None:
        """Our person shows our hand to the watcher ``fp`` from now on (``on``), or stops."""
        key = next((k for k in self._watcher_keys() | set(self.showing.to) if fingerprint(k) == fp), None)
        if key is None or self.watching:
            self.emit(error_event("that watcher is not here now" if key is None
                                  else "a watcher has no hand to show"))
            return
        if on:
            self.showing.start(key)
            self._show_own()
        else:
            r = self.replica
            box = self.showing.stop(key, r.table if r else None, r.seat if r else None,
                                    r.seq if r else -1, r.hand_number if r else 0)
            if box is not None and self.link is not None:
                self.link.send(box.message())
        self.emit(watchers_event(self.watch_list, you_watch=False, showing=self.showing.to,
                                 you=self.identity.fingerprint))

    def _show_own(self) -> None:
        """Our hand, sealed again for each watcher we show it to, when it changed."""
        r = self.replica
        if not self.showing.to or r is None or self.link is None or self.watching:
            return
        view = private_part(r.view, r.public) if r.view is not None and not r.view_behind \
            and r.seat is not None and r.view.get("seat") == r.seat else None
        for box in self.showing.boxes(r.table, r.seat, r.seq, r.hand_number, view,
                                      self._watcher_keys()):
            self.link.send(box.message())

    def hint(self) -> None:
        self.view.hint()

    # -- the end -----------------------------------------------------------------------------------
    def summary(self) -> dict:
        r = self.replica
        return {"table": self.table, "seat": r.seat if r else None,
                "hands_verified": len(self.verified), "verified": self.verified,
                "alerts": self.alerts, "named": self.named, "reported": self.reported,
                "head": r.seq if r else -1,
                "scores": list(r.scores) if r and r.scores else None,
                "winner": r.winner if r else None, "reconnects": self.reconnects,
                "ended": self.end, "fatal": self.fatal, "errors": self.errors[-5:],
                "error_count": len(self.errors), "state": self.state.value}


#: What a watcher is told when it tries to play.
WATCHING = "You are watching this table: only its players play."


def watchers_well_formed(message: dict) -> bool:
    """Whether a "watchers" message's list is what it should be: each watcher a map with
    a 32-byte ``key``, a ``name`` and the seats it is ``shown``."""
    return all(isinstance(w, dict) and isinstance(w.get("key"), bytes) and len(w["key"]) == 32
               and isinstance(w.get("name"), str) and isinstance(w.get("shown"), list)
               and all(isinstance(s, int) and not isinstance(s, bool) for s in w["shown"])
               for w in message["watchers"])


def plain_problem(exc: BaseException) -> str:
    """Why a connection attempt failed, in words a person can act on (no error numbers,
    no exception names)."""
    if isinstance(exc, ConnectionRefusedError):
        return "nothing answered at that port"
    if isinstance(exc, socket.gaierror):
        return "no computer by that name was found"
    if isinstance(exc, TimeoutError) or (isinstance(exc, HandshakeError) and "in time" in str(exc)):
        return "it did not answer in time"
    if isinstance(exc, HandshakeError) and str(exc).startswith("the host refused"):
        return str(exc)
    if isinstance(exc, (HandshakeError, ProtocolError)):
        return "it did not answer like a Parlour table"
    if isinstance(exc, OSError) and exc.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH,
                                                   errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
        return "this computer has no way to reach that address"
    return "the connection failed"
