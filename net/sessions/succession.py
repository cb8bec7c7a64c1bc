"""Succession: carrying the table on when its host is gone for good, over the network.

The trust side is ``trust.takeover`` (the standings, the majority, the handover, the
takeover entry and its checks) and ``trust.host.successor`` (a player's log becomes the
authority). This module is the sessions' side:

* **Standby.** Every guest that may carry the table on also listens (``Succession.start``:
  a small TLS server on the interface it reaches the host from — ``TOWARDS_HOST``, what
  the app asks for — or the address it was given, any port) and tells the
  host the port in its "join". The host relays every seated guest's standby address —
  the address it sees the guest's connection come from, and that port — to all of them
  in a "roster" message (``roster.Roster``). So the guests learn each other's addresses from
  the host while it is there; the log says which key plays which seat, and each standby
  connection is pinned to that key.
* **How the host went, and how long to wait.** When the link to the host ends, the
  guest reconnects as always — every ``Timings.takeover_probe`` while a takeover is
  pending — and arms a timer whose length says how the host went
  (``Timings.takeover_after``): its *app* is gone when the link was closed or reset
  (what a crashed or killed app leaves: the computer itself answers, refusing the
  connection) — ``takeover_reset``, a couple of seconds; its *computer* is silent when
  the link timed out (nothing heard for the heartbeat timeout: a lid closed, the Wi-Fi
  gone) — ``takeover_silent`` more. Back in time (a restarted app, a Wi-Fi blip): the
  guest rejoins as after any drop and nothing changes. A blip shorter than the heartbeat
  timeout is never even noticed.
* **Standings.** Past the timer the guest signs its standing and offers it to the
  remaining players in seat order, lowest first, its own seat included: the first that
  answers "hosting" is the successor. An offer to a player that is gone fails to
  connect, and the next is tried; a player who still has the host answers "declined";
  one that follows a successor already answers "follow" with where it is (so a player
  who cannot reach the successor learns who carries the table on); a player who
  receives a standing while its own host link is down starts its own takeover at once
  (someone's timer ran out). While its standing is out the guest does not reconnect to
  the old host: it is committed to whoever answers.
* **The successor** waits a short window (``Timings.takeover_gather``) for the standings
  of the other players its log says are connected — short of a majority, up to a
  retry's time (``Succession._hold``: a standing on its way may be that slow) — and
  carries the table on only with a
  majority of the table's persons behind it (``takeover.majority``): else it answers
  "declined" (with how many it had and needed) and everyone keeps trying the host, and
  the takeover again every ``Timings.takeover_retry``, each window saying what
  happened. It reads the standings against its whole log first (``takeover.gather``):
  one that says less than its player's own signed moves show is corrected, with the
  proof, and its player named to the person. With a majority it rolls its replica back
  to the entry the takeover extends (the last entry they all hold, or the end of a hand
  past it), builds the authority (``successor.succeed``) and hosts the table with a
  ``HostCore`` of its own (the same table id, its own key, the departed host's seat
  held and, if asked, a computer player standing in for it); it answers each standing
  with "hosting" (its port, and its takeover entry), a late one too, and is
  re-advertised by mDNS when the guest had interfaces to advertise on.
* **The others** read that takeover entry against their whole log first
  (``takeover.audit``): a player it shows lying is named; one that would roll the table
  back — its successor understating, or a scored hand thrown away — is refused, its
  successor never asked again this time, and the player goes on to the next seat (the
  next successor counts the liar's standing, corrected). Otherwise they roll back to
  the entry it extends (their replica and their copy on disk), pin the new host's key,
  point their reconnection at its address and rejoin as guests: the takeover entry
  comes first in their sync, and their replica checks it again. One that cannot reach
  the successor keeps trying, its window saying so ("Dad is carrying the table on; you
  are not connected to him").
* **A handover.** A host leaving on purpose may hand the table to a player at once
  (``HostCore.hand_over``): after its last entry it sends every guest a "handover" — its
  signed handover naming the heir, and the heir's standby address. Every guest then
  offers its standing to the heir straight away (no timer), the heir carries the table
  on with the handover in its takeover entry (it counts as the departed host's
  standing), and the others follow, as in any takeover.

* **A person's seat** (the app: no bot plays it) carries the table on as the person's
  host: no stand-in until the person lets one play, no end of the table by itself, and
  the hand abandoned at the takeover dealt again at once (``HostCore.deal_once``). The app's session sends the person's commands to that
  ``HostCore`` from then on (``session.GuestSession``).

Limits, said plainly: a table of two persons is carried on only by a handover (the
player left cannot tell its host gone from itself cut off: carrying on alone could make
two tables); a partition where no side holds a majority carries on nowhere until it
heals (the host's own side plays on, if the host is alive in it).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from net.constants import CARRIED_ON_DIR, PRIVATE_DEAL
from net.sessions.events import takeover_event
from net.sessions.facade import EventCallback
from net.sessions.host_session import HostCore, Phase
from net.sessions.standby import STANDBY
from net.trust import takeover
from net.trust.alerts import IntegrityAlert
from net.trust.entries import EntryError, TakeoverBody
from net.trust.host import successor
from net.trust.host.authority import HostAuthority
from net.trust.peer.replica import PeerReplica
from net.trust.values import EntryMessage, SignedEntry
from net.wire import messages as m
from net.wire.framing import ConnectionClosed, ProtocolError
from net.wire.address import local_address_towards
from net.wire.heartbeat import Link, Timings
from net.wire.identity import fingerprint
from net.wire.transport import (Connection, HandshakeError, Server, open_connection,
                                start_server, within)

log = logging.getLogger(__name__)

#: ``bind`` for a standby on the interface this guest reaches its host from.
TOWARDS_HOST = "towards the host"

class NoSuccession:
    """A guest made without ``takeover``: it neither carries a table on nor follows."""

    port = None
    host: HostCore | None = None
    following = None
    pending = False
    roster: dict[int, tuple[str, int]] = {}  # (never written: no standby hears a roster)

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def leave(self, farewell: str | None = None) -> None:
        pass

    async def carried_on(self) -> None:
        pass

    async def settled(self) -> None:
        pass

    def kept(self, accepted: list[EntryMessage]) -> None:
        pass

    def on_roster(self, message: dict) -> None:
        pass

    def on_handover(self, message: dict) -> None:
        pass

    def host_silent(self, silent: bool = False) -> None:
        pass

    def host_back(self) -> None:
        pass

    def unreachable(self) -> None:
        pass


class Succession:
    """One guest's part in a takeover (``GuestCore`` calls it at a few points).

    Wired by the ``GuestCore`` to what it uses: the guest's ``identity``, ``timings``,
    ``rng``, ``state_dir`` and ``interfaces`` (the carried-on table's HostCore gets them
    too); getters for what changes as the guest runs — its ``replica``, its ``link`` to
    the host, ``host_at`` (the address and port it connects to), whether it is
    ``joined`` to a host or has ``ended``, and whether a bot plays its seat
    (``autoplay``); and the calls ``emit`` (tell the person), ``rolled_back`` (the guest
    takes this replica, rolled back to that entry, and its copy on disk too), ``follow``
    (pin this host key and reconnect to that address and port), ``hosting`` (we carry the
    table on: the guest's own session ends), ``forget`` (nothing to rejoin) and ``named``
    (players a takeover caught lying: tell the person, the evidence saved)."""

    def __init__(self, identity, timings: Timings, *, replica: Callable[[], PeerReplica | None],
                 reported: Callable[[dict], None],
                 link: Callable[[], Link | None], host_at: Callable[[], tuple[str | None, int | None]],
                 joined: Callable[[], bool], ended: Callable[[], bool], autoplay: Callable[[], bool],
                 emit: EventCallback, rolled_back: Callable[[PeerReplica, int], None],
                 follow: Callable[[bytes, str, int], None], hosting: Callable[[], None],
                 forget: Callable[[], None], rng: Callable[[int], bytes],
                 named: Callable[[list[IntegrityAlert]], None] = lambda alerts: None,
                 state_dir: Path | None = None, interfaces=None,
                 bind: str | None = None, host_kw: dict | None = None,
                 watchers: Callable[[], set[bytes]] = set,
                 watch_settings: Callable[[], dict] = dict):
        self.identity, self.timings, self.rng = identity, timings, rng
        self.state_dir, self.interfaces = state_dir, interfaces
        self._replica, self._link, self._host_at = replica, link, host_at
        self._reported = reported  # another player's report, at our standby (``reporting``)
        self._joined, self._ended, self._autoplay = joined, ended, autoplay
        self._emit, self._rolled_back, self._follow_to = emit, rolled_back, follow
        self._hosting, self._forget, self._named = hosting, forget, named
        self._watchers = watchers  # the keys the host last said watch the table
        # the host's settings for watchers, as it last said them: a table carried on keeps
        # them (HostOptions' ``watching`` and ``max_watchers``)
        self._watch_settings = watch_settings
        # ``bind``: where our standby listens, should we carry the table on (an address, or
        # TOWARDS_HOST); None: we only follow: no listener.
        self.bind = bind
        self.host_kw = dict(host_kw or {})  # options for the HostCore, should we host
        self.accepted: list[EntryMessage] = []  # every one the replica accepted, for a roll-back
        self.roster: dict[int, tuple[str, int]] = {}
        self.server: Server | None = None
        self.host: HostCore | None = None  # once we carry the table on
        self.hosted: SignedEntry | None = None  # our takeover entry, once we host
        # (seat, address, port, its takeover entry): the player we follow
        self.following: tuple[int, str, int, SignedEntry] | None = None
        # seat -> the takeover entry of a successor we refused (it would roll the table
        # back): never followed, and its standing counts at the next one's, corrected
        self.refused: dict[int, SignedEntry] = {}
        self.handover: dict | None = None  # the departing host's signed handover
        self._timer: asyncio.TimerHandle | None = None
        self._running: asyncio.Task | None = None
        self._answer: asyncio.Future | None = None  # this attempt's answer to standings
        self._offers: dict[int, tuple[dict, Connection]] = {}  # seat -> (standing, connection)
        self._idle: asyncio.Event | None = None  # set while no attempt is under way
        self._told_unreachable = False
        self._left: asyncio.Event | None = None  # set when the guest stops (``leave``)

    @property
    def port(self) -> int | None:
        return self.server.port if self.server is not None else None

    @property
    def _ours(self) -> PeerReplica:
        """Our replica, in a takeover: one is armed or begun only while we hold one
        (``_eligible``), and we never hold none again (a rejoin or a roll-back puts
        another in its place)."""
        replica = self._replica()
        assert replica is not None, "a takeover goes on only from a replica"
        return replica

    @property
    def pending(self) -> bool:
        """A takeover is armed or under way: the host is tried often meanwhile."""
        return self._timer is not None or self._running is not None

    async def start(self) -> None:
        if self.bind == TOWARDS_HOST:
            self.bind = self._towards_host()
        if self.bind is None:
            return
        self.server = await start_server(self.bind, 0, self.identity, self._serve,
                                         schemas=STANDBY, timeout=self.timings.connect)

    async def stop(self) -> None:
        self._cancel_timer()
        if self._running is not None and not self._running.done():
            self._running.cancel()
        if self.server is not None:
            self.server.close()
            self.server = None

    def _towards_host(self) -> str | None:
        """The address of our interface that reaches the host (None, and no standby,
        when there is no route to it)."""
        address, port = self._host_at()
        if address is None:
            log.warning("no standby listener (the table cannot be carried on from here): "
                        "the host's address is not known")
            return None
        try:
            return local_address_towards(address, port or 9)
        except OSError as exc:
            log.warning("no standby listener (the table cannot be carried on from here): %s", exc)
            return None

    async def leave(self, farewell: str | None = None) -> None:
        """The guest stops: so does the table we host, if we carried it on (``farewell``:
        its people are told it has ended, as when a host person leaves; once is enough).
        Its person left it on purpose (or handed it on): nothing to rejoin from the lobby."""
        self._stopping.set()
        if self.host is not None and farewell is not None:
            self._forget()
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

    async def settled(self) -> None:
        """Until no takeover attempt is under way (the guest does not reconnect to the
        old host while its standing is out: it follows whoever answers)."""
        while self._running is not None:
            if self._idle is None:
                self._idle = asyncio.Event()
            self._idle.clear()
            await self._idle.wait()

    @property
    def _stopping(self) -> asyncio.Event:
        if self._left is None:
            self._left = asyncio.Event()
        return self._left

    # -- what the guest session tells us --------------------------------------------------------
    def kept(self, accepted: list[EntryMessage]) -> None:
        self.accepted += accepted

    def on_roster(self, message: dict) -> None:
        self.roster = {seat: (address, port) for seat, address, port in message["peers"]}

    def host_silent(self, silent: bool = False) -> None:
        """The host link ended (``silent``: it timed out, rather than being closed or
        reset): take over unless the host is back in time. (On our way to a successor
        we keep trying it.)"""
        if self.following is None and self.handover is None:
            self._arm(self.timings.takeover_after(silent))

    def host_back(self) -> None:
        """We joined a host (the old one back, or the one we followed). A handover we
        followed is spent: should this host go in its turn, any of us may carry on."""
        self._cancel_timer()
        self.following = None
        self.handover = None
        self.refused.clear()
        self._told_unreachable = False

    def on_handover(self, message: dict) -> None:
        """Our host is leaving and hands the table to a player (``HostCore.hand_over``):
        the takeover starts now, with that player as the successor."""
        replica = self._replica()
        if replica is None or replica.seat is None or self.host is not None:
            return
        signed = message["signed"]
        problem = takeover.handover_problem(replica.seats, replica.table, replica.host_key, signed)
        if problem is not None:
            log.warning("ignored the host's handover: %s", problem)
            return
        heir = signed["body"]["seat"]
        if heir != replica.seat:
            self.roster[heir] = (message["address"], message["port"])
        self.handover = signed
        self._cancel_timer()
        self._begin()

    def unreachable(self) -> None:
        """An attempt to reach the player we follow failed: say so, once."""
        if self.following is None or self._told_unreachable:
            return
        self._told_unreachable = True
        replica = self._ours
        names = {s: i.name for s, i in replica.seats.items()}
        who = names.get(self.following[0]) or "Another player"
        self._emit(takeover_event(
            "following", names.get(replica.host_seat, ""), who, None, None,
            text=f"{who} is carrying the table on; you are not connected to them. Trying again…"))

    # -- the takeover -------------------------------------------------------------------------------
    def _eligible(self) -> bool:
        r = self._replica()
        return r is not None and r.seat is not None and r.stopped is None and r.game is not None \
            and not self._ended()

    def _arm(self, delay: float) -> None:
        if self._timer is None and self._running is None and self.host is None and self._eligible():
            self._timer = asyncio.get_running_loop().call_later(delay, self._begin)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _begin(self) -> None:
        self._timer = None
        if self._running is not None or self.host is not None or not self._eligible():
            return
        if self._joined() and self.handover is None:
            return  # the host is back
        self._answer = asyncio.get_running_loop().create_future()
        self._running = asyncio.ensure_future(self._take_over(self._answer))

    async def _take_over(self, answer: asyncio.Future) -> None:
        outcome = None
        try:
            outcome = await self._attempt(answer)
        finally:
            self._running = None
            if not answer.done():
                answer.set_result({"type": "declined", "reason": "nobody"})
            if self._idle is not None:
                self._idle.set()
        if outcome is None:  # nobody carried it on (yet): try the host, and this again later
            self._offers.clear()
            retry = self.timings.takeover_retry
            if self.handover is not None:  # the heir did not take it: any of us may
                self.handover, retry = None, self.timings.takeover_reset
            if not self._joined():
                self._arm(retry)

    async def _attempt(self, answer: asyncio.Future) -> str | None:
        """One try: "hosting", "following", or None (not carried on)."""
        replica = self._ours
        candidates = self._candidates(replica)
        if not candidates:
            return None  # nobody to carry the table on with: the guest goes on reconnecting
        standing = takeover.stand(replica, can_host=self.server is not None)
        me = replica.seat
        names = {s: i.name for s, i in replica.seats.items()}
        departed = names.get(replica.host_seat, "")
        if self.handover is None:
            self._emit(takeover_event("searching", departed, "", None, None))
        for seat in candidates:
            if seat in self.refused:
                continue  # it would roll the table back: never followed
            if seat == me:
                return "hosting" if await self._host(standing, answer) else None
            reply = await self._offer(seat, standing)
            if reply is None or reply["type"] == "declined" and reply["reason"] != "majority":
                continue  # gone, or it still has the host: the next one
            if reply["type"] in ("hosting", "follow"):
                if self._follow(*self._where(seat, reply), answer):
                    return "following"
                continue  # a takeover refused (its successor named): the next one
            answer.set_result(reply)
            self._short(reply.get("have", 1), reply.get("need", takeover.majority(replica.seats)),
                        reached=[seat])
            return None
        self._short(1, takeover.majority(replica.seats))
        return None

    def _short(self, have: int, need: int, reached: Iterable[int] = ()) -> None:
        """Too few of the players reach each other to carry the table on: say so (the
        guest keeps trying the host, and the takeover again later)."""
        replica = self._ours
        names = {s: i.name for s, i in replica.seats.items()}
        departed = names.get(replica.host_seat, "") or "the host"
        persons = sum(1 for info in replica.seats.values() if info.is_player)
        reach = ", ".join(names.get(s) or f"seat {s + 1}" for s in sorted(reached))
        text = (f"{departed}'s computer has stopped answering. The table is carried on only by "
                f"most of its players ({need} of {persons}); "
                + (f"you reach {reach} — " if reach else "you reach none of the others — ")
                + f"waiting for {departed} or the others…")
        log.info("not carrying the table on: %s of the %s needed reach each other", have, need)
        self._emit(takeover_event("searching", names.get(replica.host_seat, ""), "", None,
                                  None, text=text))

    def _candidates(self, replica: PeerReplica) -> list[int]:
        """The remaining players who may carry the table on, lowest seat first (the
        successor is the first that answers): those with a standby, and we if we have one
        — or only the player the host handed the table to."""
        me = replica.seat if self.server is not None else None
        if self.handover is not None:
            heir = self.handover["body"]["seat"]
            return [heir] if heir == me or (heir in self.roster and heir != replica.seat) else []
        return [s for s in sorted(replica.seats.players(besides=replica.host_key))
                if s == me or (s in self.roster and s != replica.seat)]

    def _hold(self) -> float:
        """How long a successor short of a majority holds the standings it has for the
        others': a standing sent as the first was may come later — a slow computer;
        across houses, the relay — by up to a connection attempt, and two players
        declined out of step offer again each ``takeover_retry`` after their own decline.
        Declined at the first ``takeover_gather``, their standings came round after round
        each in a window of its own: across houses at a fifth of a core, "2 of the 3
        needed" for 60 s and no successor (ci32). Never longer than ``takeover_retry``:
        held longer, the successor and the players waiting on it were hardly ever free
        to find their host back (test_outlives' private splits stalled)."""
        timings = self.timings
        return max(timings.takeover_gather,
                   min(timings.connect + timings.takeover_gather, timings.takeover_retry))

    def _answer_within(self) -> float:
        """How long an offer waits for its answer: the successor's gathering, its table
        opening, and the connections."""
        timings = self.timings
        return 2 * timings.connect + 2 * timings.takeover_gather

    async def _offer(self, seat: int, standing: dict) -> dict | None:
        """Our standing to ``seat``'s standby: its answer, or None (unreachable)."""
        address, port = self.roster[seat]
        key = self._ours.seats[seat].key
        timings = self.timings
        try:
            conn = await open_connection(address, port, self.identity, fingerprint(key),
                                         schemas=STANDBY, timeout=timings.connect)
        except (HandshakeError, OSError, TimeoutError, ProtocolError) as exc:
            log.info("seat %s cannot carry the table on: %s", seat, exc)
            return None
        offer: dict[str, object] = {"type": "standing", "signed": standing}
        if self.handover is not None:  # (the heir may read ours before its own from the host)
            offer["handover"] = self.handover
        try:
            await conn.send(offer)
            reply = await within(self._answer_within(), conn.recv())
        except (ConnectionClosed, ProtocolError, OSError, TimeoutError):
            return None
        finally:
            await conn.close()
        return reply if reply.get("type") in ("hosting", "follow", "declined") else None

    async def _serve(self, conn: Connection) -> None:
        """Another player's standing, at our standby: we may be the successor, or tell
        it who is."""
        try:
            first = await within(self.timings.connect, conn.recv())
        except (ConnectionClosed, ProtocolError, OSError, TimeoutError):
            await conn.close()
            return
        if first.get("type") == "where":
            await self._tell_where(first, conn)
            return
        if first.get("type") == "report":
            await conn.close()
            self._reported(first)
            return
        replica = self._replica()
        if replica is None or first.get("type") != "standing" \
                or takeover.standing_problem(replica.seats, replica.table, replica.host_key,
                                             first["signed"]) is not None \
                or fingerprint(replica.seats[first["signed"]["body"]["seat"]].key) \
                != conn.peer_fingerprint:
            await conn.close()
            return
        if first.get("handover") is not None and self.handover is None:
            self.on_handover({"signed": first["handover"], "address": "", "port": 0})
        try:
            await conn.send(await self._answer_to(first["signed"], conn))
        except (TimeoutError, ConnectionClosed, OSError, ProtocolError):
            pass
        finally:
            await conn.close()

    async def _tell_where(self, ask: dict, conn: Connection) -> None:
        """The departed host, still running, asks where its table went (``whereabouts``):
        if the table was carried on after it left, where it is now — with the takeover
        entry that names it departed, its proof (it believes nothing less). A watcher of
        the table (one the host's "watchers" list named) asks the same to follow it, and
        is told of the last takeover."""
        replica = self._replica()
        host_address, host_port = self._host_at()  # the host we connect to (the one we followed)
        # The log we hold: the table's we carry on (once its HostCore has started), else our replica's.
        authority = self.host.authority if self.host is not None else None
        log = authority.log if authority is not None else \
            (replica.log if replica is not None else [])
        # the takeover after the host that asks left (in our log, or the one we follow)
        took = next((e for e in log if isinstance(b := e.content, TakeoverBody)
                     and b.departed == conn.peer_key), None)
        watcher = conn.peer_key in self._watchers()  # a watcher follows the table too
        if took is None and watcher:
            took = next((e for e in reversed(log) if isinstance(e.content, TakeoverBody)), None)
        reply: dict[str, object] = {"type": "declined", "reason": "nobody"}
        if replica is None or ask["table"] != replica.table:
            pass
        elif self.hosted is not None and self.host is not None and took is not None:
            reply = {"type": "follow", "seat": replica.seat, "address": self.bind,
                     "port": self.host.port, "took": took.wire}
        elif self.following is not None and (conn.peer_key == replica.host_key or watcher):
            seat, address, port, on_its_way = self.following
            reply = {"type": "follow", "seat": seat, "address": address, "port": port,
                     "took": on_its_way.wire}
        elif self.host is None and took is not None and host_port is not None:
            reply = {"type": "follow", "seat": replica.host_seat, "address": host_address,
                     "port": host_port, "took": took.wire}
        try:
            await conn.send(reply)
        except (ConnectionClosed, OSError, ProtocolError):
            pass
        finally:
            await conn.close()

    async def _answer_to(self, standing: dict, conn: Connection) -> dict:
        """What we answer a standing: where the table is carried on, that we still have
        the host, or — joining the takeover — what it comes to."""
        if self.hosted is not None and self.host is not None:  # (a late standing: it follows all the same)
            return {"type": "hosting", "port": self.host.port, "took": self.hosted.wire}
        if self.following is not None:
            seat, address, port, took = self.following
            return {"type": "follow", "seat": seat, "address": address, "port": port,
                    "took": took.wire}
        if self._joined() and self.handover is None:
            return {"type": "declined", "reason": "connected"}  # it is the one cut off
        self._offers[standing["body"]["seat"]] = (standing, conn)
        if self._running is None:
            self._cancel_timer()
            self._begin()  # someone's timer ran out: ours too
        if self._running is None or self._answer is None:
            return {"type": "declined", "reason": "nobody"}
        return await within(self._answer_within(), asyncio.shield(self._answer))

    async def _host(self, standing: dict, answer: asyncio.Future) -> bool:
        """We are the lowest seat that answers (or the heir): gather the standings, then
        host — if a majority of the table's players are behind us. Whether we host.

        The standings are read against our whole log (``takeover.gather``): one that says
        less than its player's own signed moves show is corrected, the proof in our entry
        and its player named; and we never go back past the end of a hand we hold. A
        successor we refused for understating (``refused``) is not waited for, and its
        own standing, corrected, counts here: it said its host was gone."""
        replica = self._ours
        expected = {s for s, info in replica.seats.items() if info.is_player and info.connected
                    and info.key not in (replica.host_key, replica.key)} - set(self.refused)
        need = takeover.majority(replica.seats)
        loop = asyncio.get_running_loop()
        begun = loop.time()
        while not expected <= set(self._offers):
            waited = loop.time() - begun
            backed = 1 + len(self._offers) + (self.handover is not None)  # (ours among them)
            if waited >= self.timings.takeover_gather and (backed >= need or waited >= self._hold()):
                break
            await asyncio.sleep(0.01)
        offered = [standing] + [s for s, _conn in self._offers.values()]
        gathered = takeover.gather(replica, offered, self.handover, liars=self._liars(offered))
        for why in gathered.left_out:
            log.warning("a standing left out of the takeover: %s", why)
        named = [a for a in gathered.named if a.seat not in self.refused]  # (named as refused)
        if named:
            self._named(named)
        standings = gathered.standings
        need = takeover.majority(replica.seats)
        have = takeover.backing(standings, self.handover)
        if have < need:
            answer.set_result({"type": "declined", "reason": "majority", "have": have, "need": need})
            self._short(have, need, reached=self._offers)
            return False
        replica = self._roll_back(gathered.base)
        authority, _out = successor.succeed(self.identity, replica, standings, self.accepted,
                                            rng=self.rng, deadline=self.timings.contribution,
                                            drop_wait=self.timings.drop_wait,
                                            mental_deal=self.host_kw.get("mental_deal", PRIVATE_DEAL),
                                            handover=self.handover, held=gathered.held,
                                            base=gathered.base)
        self._leave_old_host()
        host = self.host = self._host_core(authority)
        await host.start()  # the departed host's seat: held, a stand-in armed
        self.hosted = next(e for e in reversed(authority.log) if e.kind == takeover.KIND)
        names = {s: i.name for s, i in authority.seats.items()}
        took = self.hosted.entry.body_as(TakeoverBody)
        self._emit(takeover_event("hosting", names.get(took.departed_seat, ""),
                                  names.get(took.seat, ""), took.abandoned,
                                  took.reason, you=True,
                                  departed_seat=took.departed_seat,
                                  handed=self.handover is not None))
        answer.set_result({"type": "hosting", "port": host.port, "took": self.hosted.wire})
        self._hosting()
        return True

    def _liars(self, offered: list[dict]) -> list[dict]:
        """The standings of the successors we refused, from their own takeover entries
        (those not offered to us again)."""
        seats = {s["body"]["seat"] for s in offered}
        found = []
        for seat, took in self.refused.items():  # (each parsed as a takeover by ``_follow``)
            body = took.entry.body_as(TakeoverBody)
            found += [s for s in body.standings if takeover.is_standing(s)
                      and s["body"]["seat"] == seat and seat not in seats]
        return found

    def _host_core(self, authority: HostAuthority) -> HostCore:
        state_dir = Path(self.state_dir or Path(os.environ.get("TMPDIR", "/tmp"))) / CARRIED_ON_DIR
        kw = {"bind": self.bind, "timings": self.timings,
              "you": authority.seats.held_by(self.identity.public_key),
              "autoplay": self._autoplay(), "interfaces": self.interfaces,
              "emit": self._emit, "rng": self.rng, **self._watch_settings(), **self.host_kw}
        host = HostCore(self.identity, None, state_dir=state_dir, authority=authority, **kw)
        # A person's table (nobody deals on by itself): the hand abandoned at the takeover
        # is dealt again at once — or, between hands, the next one: the person's "Next
        # hand" went to the host that left — once the players are back (``takeback``).
        host.deal_once = not host.auto_start
        return host

    def _where(self, seat: int, reply: dict) -> tuple[int, str, int, SignedEntry | None]:
        """Who carries the table on, by a "hosting" (``seat`` itself) or "follow" answer:
        (seat, address, port, its takeover entry — None if the answer carries none)."""
        took = SignedEntry.from_wire(reply["took"]) if m.is_signed_entry(reply["took"]) else None
        if reply["type"] == "hosting":
            return seat, self.roster[seat][0], reply["port"], took
        return reply["seat"], reply["address"], reply["port"], took

    def _follow(self, seat: int, address: str, port: int, took: SignedEntry | None,
                answer: asyncio.Future) -> bool:
        """Another player hosts now: read its takeover entry against our whole log
        (``takeover.audit``: players it shows lying are named); if it is one to follow,
        roll back to the entry it extends, pin its key and reconnect to it. Whether we
        follow it (not: it would roll the table back, or is no takeover by that seat)."""
        replica = self._ours
        if took is None or seat in self.refused:
            log.warning("not following seat %s: %s", seat, "it was refused" if took is not None
                        else "its answer carries no takeover entry")
            return False
        audit = takeover.audit(takeover.Holder.of(replica), replica.log, took)
        if audit.named:
            self._named(audit.named)
        try:
            by = took.entry.body_as(TakeoverBody).seat
        except (EntryError, TypeError):
            by = None
        if audit.refusal is not None or by != seat:
            log.warning("not following seat %s's takeover: %s", seat,
                        audit.refusal or f"it is seat {by}'s")
            info = replica.seats.get(seat)
            if audit.refusal is not None and by == seat and info is not None \
                    and took.signed_by(info.key):  # (its own entry: nobody else's word about it)
                self.refused[seat] = took
            return False
        self._leave_old_host()
        replica = self._roll_back(took.seq - 1)
        key = replica.seats[seat].key
        self.following = (seat, address, port, took)
        if not answer.done():
            answer.set_result({"type": "follow", "seat": seat, "address": address, "port": port,
                               "took": took.wire})
        names = {s: i.name for s, i in replica.seats.items()}
        departed = names.get(replica.host_seat, "")
        self._emit(takeover_event("following", departed, names.get(seat, ""),
                                  takeover.hand_in_progress(replica), None,
                                  handed=self.handover is not None))
        self._follow_to(key, address, port)
        return True


    def _leave_old_host(self) -> None:
        """Our link to the host that left (still up after a handover) ends now: nothing it
        sends from here on is ours to check against the log we rolled back."""
        link = self._link()
        if link is not None:
            link.close("the table is carried on by another player")

    def _roll_back(self, seq: int) -> PeerReplica:
        replica = self._ours
        rolled, self.accepted = replica.rolled_back(self.accepted, seq)
        if rolled is not replica:
            self._rolled_back(rolled, seq)
        return rolled
