"""Succession: carrying the table on when its host is gone for good, over the network.

The trust side is ``trust.takeover`` (the standings, the takeover entry and its checks)
and ``trust.successor`` (a player's log becomes the authority). This module is the
sessions' side:

* **Standby.** Every guest that may carry the table on also listens (``Succession.start``:
  a small TLS server on the interface it reaches the host from — ``TOWARDS_HOST``, what
  the app asks for — or the address it was given, any port) and tells the
  host the port in its "join". The host relays every seated guest's standby address —
  the address it sees the guest's connection come from, and that port — to all of them
  in a "roster" message (``roster.Roster``). So the guests learn each other's addresses from
  the host while it is there; the log says which key plays which seat, and each standby
  connection is pinned to that key.
* **Grace.** When the link to the host drops, the guest reconnects as always and arms a
  timer (``Timings.takeover``; ``TAKEOVER_GRACE`` by default). Back in time: nothing
  changes. Past it, the guest signs its standing and offers it to the remaining players
  in seat order, lowest first, its own seat included: the first that answers is the
  successor. An offer to a player that is gone fails to connect, and the next is tried;
  a player who receives a standing while its own host link is down starts its own
  takeover at once (someone's grace ran out).
* **The successor** waits a short window (``Timings.timeout``) for the standings of the
  other players its log says are connected, rolls its replica back to the last entry they
  all hold, builds the authority (``successor.succeed``) and hosts the table with a
  ``HostCore`` of its own (the same table id, its own key, the departed host's seat held
  and, if asked, a computer player standing in for it); it answers each standing with
  "hosting" (its port, and the entry the takeover extends), and is re-advertised by mDNS
  when the guest had interfaces to advertise on.
* **The others** roll back to that entry too (their replica and their copy on disk), pin
  the new host's key, point their reconnection at its address and rejoin as guests: the
  takeover entry comes first in their sync, and their replica checks it.

* **A person's seat** (the app: no bot plays it) carries the table on as the person's
  host: no stand-in until the person lets one play, no end of the table by itself, and
  the hand abandoned at the takeover dealt again at once (``HostCore.deal_once``). The app's session sends the person's commands to that
  ``HostCore`` from then on (``session.GuestSession``).

Limits, said plainly: a partition (two groups each reaching a different lowest seat)
could make two successors, each refused by nobody in its own group; a successor that
stops too cannot restore its table from disk (``successor``).
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

from net.constants import PRIVATE_DEAL
from net.sessions.events import takeover_event
from net.sessions.host_session import HostCore, Phase
from net.trust import successor, takeover
from net.trust.replica import PeerReplica
from net.wire.framing import SCHEMAS, ConnectionClosed, ProtocolError
from net.wire.address import local_address_towards
from net.wire.identity import fingerprint
from net.wire.transport import HandshakeError, open_connection, start_server, within

log = logging.getLogger(__name__)

#: ``bind`` for a standby on the interface this guest reaches its host from.
TOWARDS_HOST = "towards the host"

#: What travels on a standby connection: a player's standing, the successor's answer.
STANDBY = SCHEMAS.copy()
STANDBY.message("standing", signed=dict)
STANDBY.message("hosting", port=int, seq=int)


class NoSuccession:
    """A guest made without ``takeover``: it neither carries a table on nor follows."""

    port = None
    host = None

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def leave(self, farewell: str | None = None) -> None:
        pass

    async def carried_on(self) -> None:
        pass

    def kept(self, accepted: list) -> None:
        pass

    def on_roster(self, message: dict) -> None:
        pass

    def host_silent(self) -> None:
        pass

    def host_back(self) -> None:
        pass


class Succession:
    """One guest's part in a takeover (``GuestCore`` calls it at a few points)."""

    def __init__(self, core, bind: str | None = None, host_kw: dict | None = None):
        self.core = core
        # ``bind``: where our standby listens, should we carry the table on (an address, or
        # TOWARDS_HOST); None: we only follow: no listener.
        self.bind = bind
        self.host_kw = dict(host_kw or {})  # options for the HostCore, should we host
        self.accepted: list = []  # every EntryMessage the replica accepted, for a roll-back
        self.roster: dict[int, tuple[str, int]] = {}
        self.server = None
        self.host = None  # our HostCore once we carry the table on
        self._timer: asyncio.TimerHandle | None = None
        self._running: asyncio.Task | None = None
        self._offers: dict[int, tuple[dict, object]] = {}  # seat -> (standing, connection)
        self._decided: asyncio.Future | None = None  # the successor's (port, seq)
        self._left: asyncio.Event | None = None  # set when the guest stops (``leave``)

    @property
    def port(self) -> int | None:
        return self.server.port if self.server is not None else None

    async def start(self) -> None:
        if self.bind == TOWARDS_HOST:
            self.bind = self._towards_host()
        if self.bind is None:
            return
        self.server = await start_server(self.bind, 0, self.core.identity, self._serve,
                                         schemas=STANDBY, timeout=self.core.timings.connect)

    async def stop(self) -> None:
        self.host_back()
        if self._running is not None and not self._running.done():
            self._running.cancel()
        if self.server is not None:
            self.server.close()
            self.server = None

    def _towards_host(self) -> str | None:
        """The address of our interface that reaches the host (None, and no standby,
        when there is no route to it)."""
        try:
            return local_address_towards(self.core.address, self.core.port or 9)
        except OSError as exc:
            log.warning("no standby listener (the table cannot be carried on from here): %s", exc)
            return None

    async def leave(self, farewell: str | None = None) -> None:
        """The guest stops: so does the table we host, if we carried it on (``farewell``:
        its people are told it has ended, as when a host person leaves; once is enough)."""
        self._stopping.set()
        if self.host is not None and self.host.phase is not Phase.CLOSED:
            await self.host.stop(farewell)

    async def carried_on(self) -> None:
        """Until the table we carried on ends, or we leave it (at once if we do not host
        it); then its links, port and advert are closed, as a host's are."""
        if self.host is not None:
            finished = asyncio.ensure_future(self.host.finished.wait())
            left = asyncio.ensure_future(self._stopping.wait())
            await asyncio.wait({finished, left}, return_when=asyncio.FIRST_COMPLETED)
            finished.cancel()
            left.cancel()
            if self.host.phase is not Phase.CLOSED:
                await self.host.stop()

    @property
    def _stopping(self) -> asyncio.Event:
        if self._left is None:
            self._left = asyncio.Event()
        return self._left

    # -- what the guest session tells us --------------------------------------------------------
    def kept(self, accepted: list) -> None:
        self.accepted += accepted

    def on_roster(self, message: dict) -> None:
        self.roster = {seat: (address, port) for seat, address, port in message["peers"]}

    def host_silent(self) -> None:
        """The host link dropped: take over unless it is back within the grace."""
        if self._timer is None and self._running is None and self._eligible():
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(self.core.timings.takeover, self._begin)

    def host_back(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # -- the takeover -------------------------------------------------------------------------------
    def _eligible(self) -> bool:
        r = self.core.replica
        return r is not None and r.seat is not None and r.halted is None and r.game is not None

    def _begin(self) -> None:
        self._timer = None
        if self._running is None and self._eligible() and self.core.state.value != "joined":
            self._running = asyncio.ensure_future(self._take_over())

    async def _take_over(self) -> None:
        try:
            await self._find_successor()
        finally:
            self._running = None
            if self.host is None and self.core.state.value != "joined" and not self.core.ended:
                self.host_silent()  # nobody carried it on (yet): try again after the grace

    async def _find_successor(self) -> None:
        core = self.core
        replica = core.replica
        candidates = self._candidates(replica)
        if not candidates:
            return  # nobody to carry the table on with: the guest goes on reconnecting
        standing = takeover.stand(replica, can_host=self.server is not None)
        me = replica.seat
        names = {s: i.name for s, i in replica.seats.items()}
        core.emit(takeover_event("searching", names.get(replica.host_seat, ""), "", None, None))
        for seat in candidates:
            if seat == me:
                if not await self._host(standing):
                    log.info("no other player answered: they still have the host, or are gone; "
                             "not carrying the table on alone")
                return
            answer = await self._offer(seat, standing)
            if answer is not None:
                self._follow(seat, *answer)
                return
        log.warning("no remaining player could be reached to carry the table on")

    def _candidates(self, replica) -> list[int]:
        """The remaining players who may carry the table on, lowest seat first (the
        successor is the first that answers): those with a standby, and we if we have one."""
        me = replica.seat if self.server is not None else None
        return [s for s in sorted(replica.seats.players(besides=replica.host_key))
                if s == me or (s in self.roster and s != replica.seat)]

    async def _offer(self, seat: int, standing: dict):
        """Our standing to ``seat``'s standby: (address, port, seq) if it hosts, else None."""
        address, port = self.roster[seat]
        key = self.core.replica.seats[seat].key
        timings = self.core.timings
        try:
            conn = await open_connection(address, port, self.core.identity, fingerprint(key),
                                         schemas=STANDBY, timeout=timings.connect)
        except (HandshakeError, OSError, TimeoutError, ProtocolError) as exc:
            log.info("seat %s cannot carry the table on: %s", seat, exc)
            return None
        try:
            await conn.send({"type": "standing", "signed": standing})
            reply = await within(timings.connect + 2 * timings.timeout, conn.recv())
        except (ConnectionClosed, ProtocolError, OSError, TimeoutError):
            return None
        finally:
            await conn.close()
        if reply.get("type") != "hosting":
            return None
        return address, reply["port"], reply["seq"]

    async def _serve(self, conn) -> None:
        """Another player's standing, at our standby: we may be the successor."""
        try:
            first = await within(self.core.timings.connect, conn.recv())
        except (ConnectionClosed, ProtocolError, OSError, TimeoutError):
            await conn.close()
            return
        replica = self.core.replica
        problem = "not a standing" if first.get("type") != "standing" or replica is None else \
            takeover.standing_problem(replica.seats, replica.table, replica.host_key, first["signed"])
        if problem is not None or fingerprint(replica.seats[first["signed"]["body"]["seat"]].key) \
                != conn.peer_fingerprint:
            await conn.close()
            return
        if self.core.state.value == "joined":
            await conn.close()  # we still have the host: it is the other player who is cut off
            return
        self._offers[first["signed"]["body"]["seat"]] = (first["signed"], conn)
        if self._running is None:
            self.host_back()
            self._begin()  # someone's grace ran out: ours too
        if self._decided is None:
            self._decided = asyncio.get_running_loop().create_future()
        try:
            port, seq = await within(self.core.timings.connect + 2 * self.core.timings.timeout,
                                     asyncio.shield(self._decided))
            await conn.send({"type": "hosting", "port": port, "seq": seq})
        except (TimeoutError, ConnectionClosed, OSError):
            pass
        finally:
            await conn.close()

    async def _host(self, standing: dict) -> bool:
        """We are the lowest seat that answers: gather the standings, then host — unless
        none of the players our log says are connected answered (we are the one cut
        off, most likely: the others still have the host). Whether we host."""
        core = self.core
        replica = core.replica
        expected = {s for s, info in replica.seats.items() if info.is_player and info.connected
                    and info.key not in (replica.host_key, replica.key)}
        loop = asyncio.get_running_loop()
        until = loop.time() + core.timings.timeout
        while not expected <= set(self._offers) and loop.time() < until:
            await asyncio.sleep(0.01)
        if expected and not self._offers:
            return False
        standings = [standing] + [s for s, _conn in self._offers.values()]
        base = takeover.common_seq(standings)
        replica = self._roll_back(base)
        authority, _out = successor.succeed(core.identity, replica, standings, self.accepted,
                                            rng=core.rng, deadline=core.timings.contribution,
                                            drop_wait=core.timings.drop_wait,
                                            mental_deal=self.host_kw.get("mental_deal", PRIVATE_DEAL))
        self.host = self._host_core(authority)
        await self.host.start()  # the departed host's seat: held, a stand-in armed
        names = {s: i.name for s, i in authority.seats.items()}
        entry = next(e for e in reversed(authority.log) if e.kind == takeover.KIND)
        core.emit(takeover_event("hosting", names.get(entry.body["departed_seat"], ""),
                                 names.get(entry.body["seat"], ""), entry.body["abandoned"],
                                 entry.body["reason"], you=True,
                                 departed_seat=entry.body["departed_seat"]))
        if self._decided is None:
            self._decided = loop.create_future()
        self._decided.set_result((self.host.port, base))
        core.wake(ended_by="takeover")
        return True

    def _host_core(self, authority):
        core = self.core
        state_dir = Path(core.state_dir or Path(os.environ.get("TMPDIR", "/tmp"))) / "carried-on"
        kw = {"bind": self.bind, "timings": core.timings, "you": authority.seats.held_by(core.identity.public_key),
              "autoplay": core.player.bot is not None, "interfaces": core.interfaces,
              "emit": core.emit, "rng": core.rng, **self.host_kw}
        host = HostCore(core.identity, None, state_dir=state_dir, authority=authority, **kw)
        # A person's table (nobody deals on by itself): the hand abandoned at the takeover
        # is dealt again at once — or, between hands, the next one: the person's "Next
        # hand" went to the host that left — once the players are back (``takeback``).
        host.deal_once = not host.auto_start
        return host

    def _follow(self, seat: int, address: str, port: int, seq: int) -> None:
        """Another player hosts now: roll back to the entry its takeover extends, pin its
        key and reconnect to it."""
        core = self.core
        replica = self._roll_back(seq)
        key = replica.seats[seat].key
        names = {s: i.name for s, i in replica.seats.items()}
        core.emit(takeover_event("following", names.get(replica.host_seat, ""), names.get(seat, ""),
                                 takeover.hand_in_progress(replica), None))
        core.host_key, core.fingerprint = key, fingerprint(key)
        core.address, core.port = address, port
        core.wake()

    def _roll_back(self, seq: int) -> PeerReplica:
        core = self.core
        replica = core.replica
        original = replica.log[0].body["host_key"]

        def restore(messages):  # with its own timings
            return PeerReplica.restore(core.identity, original, replica.table, messages, core.rng,
                                         deadline=core.timings.contribution,
                                         slack=core.timings.contribution_slack)
        rolled = takeover.rolled_back(replica, self.accepted, seq, restore)
        if rolled is not replica:
            self.accepted = [a for a in self.accepted if a.entry.seq <= seq]
            core.replica = rolled
            core.disk_log.roll_back(seq)
        return rolled
