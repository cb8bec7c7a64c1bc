"""HostCore: a table's authority — HostAuthority with a disk, a clock, bots and, on the
network, sockets.

Every table this app runs is hosted by a ``HostCore``: a table on the network, and a
game against the computer, which is a host with no network (``listen=False``): the same
signed log on disk, the same events, the same bots. The trust rules live in
``net.trust.host.authority.HostAuthority`` (sans-I/O); the core wires single-job parts around
it, each with its own tests:

* ``table_files.TableFiles``: the durable log (SQLite) and the record beside it; a host
  restarted with the same state directory restores the table from its log;
* ``outbox.Outbox``: every entry sent to each peer once and in order, syncs in frames
  that fit, acknowledgements;
* ``arrivals.Arrivals``: each connection's "join" (seat, rejoin, hand-back, re-admission,
  the waiting room) and each drop; ``admission.Admission`` bounds the unseated ones;
* ``seating.Seating``: the arrangement before the deal (bots, nobody, swaps);
* ``stand_ins.StandIns``: a bot for a dropped seat, handed back on return;
* ``takeback.Takeback``: after a restart, the entries its disk lost taken back from
  the peers' copies before anything new is signed;
* ``HostBots`` (below): the bots it plays, driven by the one ``bots.BotDriver``;
* ``HostView`` (below): the facade's events for the host's own seat;
* ``advert.Advert``: the mDNS advert (open seats, in game);
* ``talk.HostTalk``: table talk, checked and relayed beside the log (never in it);
* ``deal_watch.DealWatch``: a deal waiting for a player's client (a shuffle, a deal
  message, a player gone whose cards only its client can open) goes on without it at
  the deadline (a shuffle skipped; under the mental deal, the deal restarted without it,
  the hand voided if it was dealt);
* ``watchers.Watchers``: the people who watch the table (admitted, sent the log's public
  part and every entry, told of each other, a shown hand relayed to them);
  ``showing.ShowingHand``: the host person's own hand, shown to the watchers it chose.

Messages from a seated player that are the sessions' own, not the trust layer's (a
shown hand: "show"; a player's report of an alert), go to ``peer_messages`` by type; a
watcher's, to ``Watchers.handlers``.

The core itself keeps the table's ``Phase`` (opening → open → ended → closed), runs the
commands of the facade and the CLI, and after every change tells the host's seat and
decides what happens next (``advance``). It is the one place that wires the parts: each
is given only the collaborators it uses (the authority always through a getter, since a
restore or a takeover replaces it), never the core. Everything runs on
one asyncio loop; authority calls are synchronous, so each change and its sends happen
without interleaving.
"""

from __future__ import annotations

import asyncio
import enum
import functools
import hashlib
import logging
import os
from pathlib import Path
from collections.abc import Callable
from dataclasses import dataclass, replace

from engine import Game
from engine.bots import ALL_LEVELS, make_bot
from engine.deal import derive_seed

from net.constants import END_GRACE, FAREWELL_GRACE, HANDOVER_GRACE, MAX_WATCHERS, PRIVATE_DEAL, RESTART_GRACE
from net.sessions.admission import Admission, raise_file_limit
from net.houses.tables import HostHouses
from net.sessions.advert import Advert
from net.sessions.arrivals import Arrivals
from net.sessions.bots import BotDriver
from net.sessions.clock import Timers, wait_until
from net.sessions.deal_watch import DealWatch
from net.sessions.ending import Ending
from net.sessions.events import (deal_kind, error_event, hand_breakdown, hand_over_events,
                                 hint_event, named_event, score_history, seat_info, shows_hand,
                                 state_event, table_event)
from net.sessions.facade import DealKind, EventCallback, SeatInfo, TableEvent
from net.sessions.opened import chain_of, game_of, table_of
from net.sessions.outbox import Outbox
from net.sessions.seating import Seating
from net.sessions.stand_ins import StandIns
from net.sessions.roster import Roster
from net.sessions.showing import ShowingHand
from net.sessions.watchers import WatchPolicy, Watchers
from net.sessions.takeback import Takeback
from net.sessions.talk import TALK_MESSAGES, HostTalk, speakers
from net.trust.talk import TALK
from net.sessions.whereabouts import Whereabouts
from net.sessions.table_files import TableFiles
from net.trust import reports, takeover
from net.trust.entries import HandEndBody
from net.trust.host.authority import HostAuthority, Out
from net.trust.alerts import HOST, PLAYER, IntegrityAlert, alert_event
from net.trust.store import StoreError
from net.trust.values import SignedEntry
from net.wire.framing import ConnectionClosed, ProtocolError
from net.wire.heartbeat import WIRE, Link, Timings
from net.wire.identity import fingerprint
from net.wire.transport import Server, start_server

log = logging.getLogger(__name__)

Emit = EventCallback


class Phase(enum.Enum):
    OPENING = "opening"  # reading the log, opening the port
    OPEN = "open"  # seating, playing
    ENDED = "ended"  # the peers were told the table has ended; nothing more happens
    CLOSED = "closed"  # stopped: links, port, advert and log closed


def bot_json(game, bot, state, seat: int) -> dict:
    """A bot's decision for ``seat`` in hand-record form without the seat."""
    data = game.action_to_json(bot.choose(state, seat))
    data.pop("seat", None)
    return data


def may_move(authority, seat: int) -> bool:
    """Whether ``seat`` may move now: under the mental deal, not while the cards it is to
    decide on (a kitty) or the spare are on their way, or an audit is under way."""
    return authority.deal.move_problem(seat) is None


def seeded_rng(seed: bytes) -> Callable[[int], bytes]:
    """Deterministic bytes (SHA-256 in counter mode): reproducible deals for tests."""
    counter = [0]

    def rng(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha256(seed + counter[0].to_bytes(8, "big")).digest()
            counter[0] += 1
        return out[:n]
    return rng


def signing(command):
    """A command that would sign an entry: while a restarted host (or a player's client
    that carries the table on) is still taking back the entries its disk lost, held and
    run once that is done (the person told to wait a moment), never lost."""
    @functools.wraps(command)
    def run(self, *args, **kwargs):
        if self.takeback.active:
            key = (command.__name__, repr(args), repr(sorted(kwargs.items())))
            self.takeback.hold_command(key, lambda: run(self, *args, **kwargs))
            return None
        return command(self, *args, **kwargs)
    return run


@dataclass(frozen=True)
class HostOptions:
    """How a hosted table behaves: where it listens, who plays what, and what it does by
    itself. Values only; ``HostCore`` is handed its collaborators apart."""

    bind: str = "127.0.0.1"
    port: int = 0  # 0: any free port (a restarted host: the one it had)
    listen: bool = True  # False: a game against the computer (no network)
    interfaces: object = None  # None: no mDNS advert (join by address only)
    timings: Timings | None = None
    bots: dict[int, str] | None = None  # seat -> level of the bots seated at the start
    you: int | None = 0  # the host person's seat (None: nobody plays here)
    autoplay: bool = False  # a bot plays the host's own seat
    auto_start: bool = False  # deal as soon as every seat is taken
    hands: int | None = None  # headless: finish after this many hands (None: the game)
    stand_in_after: float | None = None  # a bot for a dropped seat after this (None: never)
    # a stand-in's level (None: the level chosen as the game starts, else the strongest
    # of the table's computer players: ``StandIns.level_now``)
    stand_in_level: str | None = None
    readmit_names: bool = False  # headless only: a new key gets an away seat by its name
    bot_delay: float = 0.0
    restart_grace: float = RESTART_GRACE
    resume: bool = False  # whatever unfinished table is on disk
    fresh: bool = False  # never an unfinished table (else: only the same table)
    # Headless (the CLI, benches): the table finishes by itself when the game is over
    # (None: when a bot plays the host's seat, ``autoplay``).
    headless: bool | None = None
    mental_deal: bool = PRIVATE_DEAL  # the private deal (the settings' "private_deal" wins)
    table_seed: bytes | None = None  # tests: the deals and first dealers follow from it
    watching: bool = True  # people may watch the table (``watchers``)
    max_watchers: int = MAX_WATCHERS  # how many at once


class HostCore:
    """One hosted table. ``await start()``, then commands; ``await stop()`` at the end."""

    def __init__(self, identity, settings: dict | None, *, state_dir: str | os.PathLike,
                 emit: Emit | None = None, options: HostOptions | None = None,
                 admission: Admission | None = None, tamper=None, rng=None,
                 authority: HostAuthority | None = None, **knobs):
        """``options``: how the table behaves (``HostOptions``); any of its fields may also
        be given by name (``autoplay=True``), over ``options``. ``admission`` (the
        connection caps), ``tamper`` (tests: a hook on what is sent), ``rng`` (the deal's
        randomness) and ``authority`` (a player's log that carries the table on) are the
        collaborators made elsewhere."""
        options = self.options = replace(options or HostOptions(), **knobs)
        self.identity = identity
        self.key = identity.public_key
        self.fingerprint = identity.fingerprint
        self.settings = dict(settings or {})
        self.emit: Emit = emit or (lambda event: None)
        self.port, self.listen = options.port, options.listen  # (the port: the one opened)
        self.timings = options.timings or Timings()
        self.you = options.you  # the host person's seat (it may move before the deal)
        self.headless = options.autoplay if options.headless is None else options.headless
        self.auto_start = options.auto_start  # deal as soon as every seat is taken
        self.deal_once = False  # deal the next hand by itself, once (a person's carried-on table)
        # resume: whatever unfinished table is there; fresh: never; else only the same table
        self.resume = True if options.resume else (False if options.fresh else None)
        self.rng = rng or (seeded_rng(options.table_seed) if options.table_seed else os.urandom)
        self.phase = Phase.OPENING
        self._authority: HostAuthority | None = None  # made by start(); see ``authority``
        self.carried_on = authority  # a player's log made the authority (succession)
        self.files = TableFiles(state_dir, self.emit, keep_old=self.listen)
        # the mental-poker deal (issue 13; on by default); the app's box: "private_deal"
        self.mental_deal = bool(self.settings.pop("private_deal", options.mental_deal))
        # who may watch; the app's "Let people watch" and its cap: "watching", "max_watchers"
        watch_policy = WatchPolicy(bool(self.settings.pop("watching", options.watching)),
                                   max(0, int(self.settings.pop("max_watchers", options.max_watchers))))
        self.server: Server | None = None
        self.admission = admission if admission is not None else Admission()
        self.timers = Timers()
        self.outbox = Outbox(self._sync_for, tamper)
        self.seating = Seating(lambda: self.authority, self.key, self.fingerprint,
                               you=lambda: self.you, connected=self.connected, emit=self.emit,
                               apply=self.apply, log_only=self.log_only, settled=self.settled,
                               reseated=self.reseated, bot_levels=options.bots)
        self.stand_ins = StandIns(lambda: self.authority, self.key, self.timers, emit=self.emit,
                                  apply=self.apply, forget_bot=lambda seat: self.bots.forget(seat),
                                  after=options.stand_in_after, level=options.stand_in_level,
                                  held_wait=self.timings.drop_wait)
        self.takeback = Takeback(lambda: self.authority, self.timers, self.outbox,
                                 evidence=self.files.dir / "evidence", emit=self.emit,
                                 sync=self.files.flush, log_only=self.log_only,
                                 receive=self.receive, went_on=self._taken_back,
                                 failed=lambda reason, waited: self.spawn(self.finish(reason, waited)),
                                 grace=options.restart_grace)
        self.arrivals = Arrivals(lambda: self.authority, self.key, self.outbox, self.stand_ins,
                                 self.takeback, self.timers, self.admission, emit=self.emit,
                                 apply=self.apply, log_only=self.log_only, settled=self.settled,
                                 refresh=self.refresh, is_open=lambda: self.is_open,
                                 unseated_wait=self.timings.unseated_wait,
                                 restart_grace=options.restart_grace,
                                 readmit_names=options.readmit_names,
                                 live_within=self.timings.live)
        self.bots = HostBots(lambda: self.authority, self.key, self.timers,
                             you=lambda: self.you, autoplay=options.autoplay,
                             is_open=lambda: self.is_open, play=self.play,
                             level_of=lambda seat: self.seating.bot_levels.get(seat)
                             or self.stand_ins.level or "normal", delay=options.bot_delay)
        self.view = HostView(lambda: self.authority, self.emit, listen=self.listen,
                             evidence=self.files.dir / "evidence", you=lambda: self.you,
                             connected=self.connected, waiting=self.arrivals.waiting_list,
                             heirs=self.heirs)
        self.advert = Advert(options.interfaces, watchable=lambda: self.watchers.room())
        self.roster = Roster(lambda: [*self.outbox.links.values(), *self.watchers.links()],
                             seat_of=lambda fp: self.authority.seat_of(fp))
        self.watchers = Watchers(lambda: self.authority, self.key, self.admission,
                                 players=lambda: self.outbox.links.values(), roster=self.roster,
                                 players_hold=lambda seq: self.outbox.all_acked(seq),
                                 timers=self.timers, emit=self.emit, policy=watch_policy,
                                 tamper=tamper, changed=self._watchers_changed)
        # players first: what every player holds now goes on to the watchers
        self.outbox.ack_listeners.append(lambda fp, seq: self.watchers.players_verified())
        self.showing = ShowingHand(identity, os.urandom)  # (nonces: never the table's seeded rng)
        # A seated player's messages that are the sessions' own (not the trust layer's).
        self.peer_messages: dict[str, Callable[[str, dict], None]] = {
            "show": self._relay_shown, reports.REPORT: lambda fp, msg: self.view.reported(msg)}
        self.deal_watch = DealWatch(lambda: self.authority, self.timers, self.outbox, self.stand_ins,
                                    self.takeback, emit=self.emit, apply=self.apply,
                                    is_open=lambda: self.is_open)
        self.ending = Ending(lambda: self.authority, self.outbox, self.arrivals.joined_message)
        self.talk = HostTalk(self.identity, self._talking_table,
                             speakers(lambda: self.authority.seats, lambda: self.key,
                                      lambda: self.identity.name, self.watchers.names),
                             people=lambda: [*(info.key for info in self.authority.seats.values()
                                               if info.kind == "human"), *self.watchers.keys()],
                             links=lambda: [*self.outbox.links.values(), *self.watchers.links()],
                             emit=self.emit, timeout=self.timings.timeout)
        # a watcher talks too: on its own link, checked and relayed as anyone's
        self.watchers.handlers[TALK] = lambda watcher, msg: self.talk.heard(watcher.key,
                                                                            watcher.link, msg)
        # invitations from other houses, their ways back
        self.houses = HostHouses(self.identity, self.files.dir, listen=self.listen,
                                 authority=lambda: self.authority,
                                 serving=lambda: self.port if self.server is not None else None,
                                 emit=self.emit, spawn=self.spawn)
        self.whereabouts = Whereabouts(self.identity, self.timings, self.roster,
                                       watched=self._watched, connected=self.connected,
                                       carried_on=self.close_carried_on,
                                       evidence=self.files.dir / "evidence")
        self.finished = asyncio.Event()
        self.result: dict | None = None
        self.games_started = 0
        self._tasks: set[asyncio.Task] = set()

    # -- lifecycle ----------------------------------------------------------------------
    @property
    def authority(self) -> HostAuthority:
        """The table's authority: read from the disk, carried on, or new, by ``start``
        (the parts and the commands run only once it has; a takeback may replace it)."""
        if self._authority is None:
            raise RuntimeError("the table is not open yet (HostCore.start)")
        return self._authority

    @property
    def table(self) -> str:
        return table_of(self.authority)

    @property
    def game(self) -> Game:
        return game_of(self.authority)

    @property
    def is_open(self) -> bool:
        return self.phase is Phase.OPEN

    @property
    def restored(self) -> bool:
        return self.files.restored

    @property
    def links(self) -> dict:
        return self.outbox.links

    async def start(self) -> None:
        self._authority = self.files.adopt(self.carried_on) if self.carried_on else \
            self.files.open(self.identity, self._same_table, self.resume, self.rng, self.mental_deal,
                            self.timings.contribution, self.timings.drop_wait)
        if self._authority is None:
            self._open_new()
        if self.listen:
            await self._listen()
            await self.houses.start()
        self._record(done=False)
        self.phase = Phase.OPEN
        if self.restored:
            mine = self.authority.seats.held_by(self.key)
            if self.you is not None and mine is not None:
                self.you = mine  # the seat this key plays (one it carried on: not seat 0)
            if not self.takeback.begin():
                self.arrivals.after_restart()
            self.games_started = self.authority.game_number
        self.settled()
        self.view.state([])
        if self.restored and not self.headless:
            self._the_last_hand_again()
        self.advance()

    def _the_last_hand_again(self) -> None:
        """A table restored between hands (a game against the computer continued from the
        lobby after its summary, a host's app started again) shows its person the last
        hand's summary again, with its Next hand — not the last trick of a table that
        waits for a click nobody can make (seen in a real window: Somerset, Continue)."""
        auth = self.authority
        match = auth.match
        if match is None or match.state is not None or match.is_over \
                or not auth.deal.between_hands():
            return
        ended = next((e for e in reversed(auth.log) if e.kind == "hand_end"), None)
        if ended is not None:
            # the hand as it stood at its last card first, as after a live hand: the game's
            # description (its sides, its words) comes with it, which the summary is drawn
            # by (seen in a real window: a Somerset summary by seats, not by teams)
            self.view.state([], ended=True)
            self.view.hand_over(ended)

    async def _listen(self) -> None:
        port = self.port or (self.files.meta().get("port", 0) if self.restored else 0)
        raise_file_limit()
        self.server = await start_server(self.options.bind, port, self.identity, self.serve,
                                         schemas=WIRE, timeout=self.timings.connect,
                                         admission=self.admission)
        self.port = self.server.port
        self.emit({"type": "listening", "address": self.options.bind, "port": self.port,
                   "table": self.table, "fingerprint": self.fingerprint,
                   "restored": self.restored, "head": chain_of(self.authority).seq})
        if self.options.interfaces is not None:
            await self.advert.start(self.identity, self.authority, self.port)

    def _open_new(self) -> None:
        auth = self._authority = self.files.new(self.identity, self.rng, self.mental_deal,
                                                self.timings.contribution, self.timings.drop_wait)
        suffix = (self.rng if self.options.table_seed else os.urandom)(4).hex()
        self._check(auth.open_table(f"{self.fingerprint}-{suffix}", self.settings,
                                    self._wanted_name()))
        for seat, kind, key, name, level in self.seating.first_seats(self.game.num_players,
                                                                     self.identity.name):
            self._check(auth.seat(seat, kind, key, name, level))

    def _wanted_name(self) -> str:
        return self.settings.get("name") or f"{self.identity.name}'s table"

    def _same_table(self, found: HostAuthority) -> bool:
        """Resume without being asked only the table asked for: same game, same name."""
        wanted = self.settings.get("game")
        return (wanted is None or wanted == game_of(found).id) and found.name == self._wanted_name()

    def _check(self, out: Out) -> None:
        if out.error:
            raise StoreError(out.error)

    async def stop(self, farewell: str | None = None) -> None:
        """Close everything (the log stays on disk; ``finish`` marks it done).

        ``farewell``: the host is leaving on purpose (the app's Leave): every peer is
        told the table has ended, with this reason, and the table is marked done so the
        next table opened here starts afresh. Without it (a crash, a signal, or closing
        a game against the computer) the table can be resumed from its log."""
        if farewell is not None and self.phase is Phase.OPEN:
            self.phase = Phase.ENDED
            self.watchers.end({"type": "end", "reason": farewell, "head": chain_of(self.authority).seq})
            await self.ending.tell(farewell, hang_up=True)
            await wait_until(self.watchers.all_told, FAREWELL_GRACE)
            self._record(done=True)
        self.phase = Phase.CLOSED
        self.timers.cancel_all()
        self.whereabouts.stop()
        self.bots.driver.stop()
        for link in list(self.links.values()):
            link.close("the host closed the table")
        self.watchers.close_all("the host closed the table")
        self.arrivals.close_all("the host closed the table")
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        await self.advert.stop()
        for task in list(self._tasks):
            task.cancel()
        await self.houses.stop()
        self.files.close()

    def heirs(self) -> list[int]:
        """The players this host may hand the table to when it leaves (``hand_over``),
        lowest seat first: those here whose client can carry the table on (it named a
        standby)."""
        auth = self._authority
        if auth is None or not self.is_open:
            return []
        return [seat for seat, key in sorted(auth.seats.players(besides=self.key).items())
                if seat in self.roster.standby and self.outbox.holds(fingerprint(key))]

    async def hand_over(self, seat: int) -> bool:
        """The host person leaves and hands the table to the player in ``seat`` at once
        (``succession``): after the log's last entry every guest is sent this host's signed
        handover and where that player's standby is; it carries the table on as in any
        takeover (the hand in progress dealt again), the others follow it, and this table
        closes once they have gone (``HANDOVER_GRACE`` at most). False, and nothing done,
        if that player cannot take it (not here, or its client cannot host)."""
        if seat not in self.heirs():
            return False
        auth = self.authority
        self.phase = Phase.ENDED  # nothing more is signed here: the heir's log goes on from ours
        self.bots.driver.stop()
        self.timers.cancel_all()
        address, port = self.roster.standby[seat]
        chain = chain_of(auth)
        signed = takeover.hand_over(self.identity, table_of(auth), seat, chain.seq, chain.head)
        handover = {"type": "handover", "signed": signed, "address": address, "port": port}
        self.outbox.broadcast(handover)
        self.watchers.broadcast(handover)  # (they follow the heir)
        self._record(done=True, handed=True)  # not resumed here: rejoined at the heir's
        await wait_until(self.outbox.all_hung_up, HANDOVER_GRACE)
        await self.stop()
        return True

    def _talking_table(self) -> str | None:
        """The table talk is bound to (None before it has opened, or once it has ended)."""
        return self._authority.table if self._authority is not None and self.is_open else None

    def _taken_back(self, grace: float) -> None:
        """The entries the disk lost are back (``takeback``): the peers still away get what
        is left of the restart ``grace``, and the table goes on."""
        self.arrivals.after_restart(grace)
        self.view.state([])
        self.refresh()

    def _watched(self):
        """The authority ``whereabouts`` watches: while players may come and go in a match."""
        auth = self._authority
        return auth if self.is_open and self.listen and auth is not None \
            and auth.match is not None else None

    async def close_carried_on(self, message: str) -> None:
        """Most of the players carried the table on without this host (``whereabouts``,
        which says so in ``message``): this copy is done — not offered to resume — and
        closes, as after a finish."""
        if self.phase is not Phase.OPEN:
            return
        self.emit(error_event(message, fatal=True, cause="carried-on"))
        self.phase = Phase.ENDED
        self._record(done=True)
        await self.stop()
        self.finished.set()

    async def finish(self, reason: str = "the game is over", expected=()) -> None:
        """Tell every peer the table is closing after the last entry and wait (bounded)
        until each has acknowledged it (``expected``: peers not back yet, told as they come)."""
        if self.phase is not Phase.OPEN:
            return
        self.phase = Phase.ENDED
        self.bots.driver.stop()
        self.watchers.end({"type": "end", "reason": reason, "head": chain_of(self.authority).seq})
        await self.ending.tell(reason, expected)
        await wait_until(self.watchers.all_told, END_GRACE)  # (before a headless host exits)
        self._record(done=True)
        self.result = self.summary(reason)
        self.emit({"type": "finished", **self.result})
        self.finished.set()

    def _record(self, done: bool, handed: bool = False) -> None:
        """The record beside the log: done or not (or handed to a player), and how the
        game stands."""
        side = self.game.side_of(self.you) if self.you is not None else 0
        self.files.write_meta(self.authority, self.port if self.listen else None, done, side,
                              handed)

    def summary(self, reason: str) -> dict:
        """How the table stands: hands, scores, winner, what each peer acknowledged."""
        match = self.authority.match
        return {"reason": reason, "table": self.table, "head": chain_of(self.authority).seq,
                "hands": match.hand_number if match else 0,
                "scores": list(match.scores) if match else None,
                "winner": match.winner if match else None,
                "acked": {seat: self.outbox.acked(fp) for seat, fp in self.authority.peers().items()}}

    # -- connections ----------------------------------------------------------------------
    async def serve(self, conn) -> None:
        """One accepted connection, from its first frame ("join") to its end."""
        try:
            first = await asyncio.wait_for(conn.recv(), self.timings.connect)
        except ProtocolError as exc:
            await conn.reject(f"bad message: {exc}")
            return
        except (ConnectionClosed, TimeoutError, OSError):
            return
        fp = conn.peer_fingerprint
        if first.get("type") == "join" and first.get("table") not in (None, self.authority.table):
            # what it holds is another table's (this host's last one, say): a newcomer here
            first = {**first, "last_seq": -1}
        holder: list[Link] = []
        link = Link(conn, self.timings, lambda msg: self.receive(fp, holder[0], msg),
                    position=lambda: self._announced(fp, holder[0]),
                    head=lambda: self._announced_head(fp, holder[0]),
                    on_hb=lambda seq, head: self._outbox_of(fp, holder[0]).on_ack(fp, holder[0], seq),
                    notes_arrival=False)  # (the host reads no ``arrived``: a guest's replica does)
        holder.append(link)
        if first["type"] == "join" and first.get("watch") and self.is_open:
            if self.watchers.join(fp, conn.peer_key, conn.peer_name, link, first):
                self.talk.welcome(link)  # the host's mutes in force
        elif first["type"] == "join" and first.get("watch") and self.watchers.ending is not None:
            # (ended, not handed over: a watcher back then follows the heir, as a player does)
            self.watchers.arrived_after_end(fp, conn.peer_key, conn.peer_name, link, first)
        elif first["type"] == "join" and self.phase is Phase.ENDED:
            self.ending.arrived(fp, link, first)
        elif first["type"] != "join" or not self.is_open:
            link.reject("the first message must be 'join'" if self.is_open
                        else "the table is closing")
        else:
            self.arrivals.join(fp, conn.peer_key, conn.peer_name, link, first)
            if self.outbox.holds(fp, link):
                self.watchers.tell(link)  # (who watches: a player may show them its hand)
            if self.roster.joined(fp, link, first):
                self.settled()  # (a player who may be handed the table)
            if self.outbox.holds(fp, link):
                self.talk.welcome(link)  # the host's mutes in force
        reason = await link.run()
        if not self.watchers.ended(fp, link):
            self.arrivals.ended(fp, link, reason)

    def _sync_for(self, fp: str, after: int) -> list[dict]:
        """The sync messages that fill ``fp``'s log after ``after`` (the outbox holds the
        links of seated peers only)."""
        seat = self.authority.seat_of(fp)
        if seat is None:
            raise LookupError(f"{fp} holds no seat here: there is no log to sync it")
        return self.authority.sync(seat, after)

    def _announced(self, fp: str, link) -> int:
        """The head our heartbeat tells ``fp``'s peer of: the last entry sent on its link
        (-1: none yet). Never more: a peer told of an entry it was not sent takes the host
        for one withholding it — and a link may be held before its log is sent (while a
        restarted host, or a player that carried the table on, waits for the others)."""
        return self._outbox_of(fp, link).sent_on(fp, link)

    def _outbox_of(self, fp: str, link) -> Outbox:
        """The outbox ``link`` is sent by: the watchers' own for a watcher's, else the players'."""
        return self.watchers.outbox if self.watchers.holds(fp, link) else self.outbox

    def _announced_head(self, fp: str, link) -> bytes | None:
        seq = self._announced(fp, link)
        auth = self.authority
        return auth.archive.hash_at(seq) if 0 <= seq <= chain_of(auth).seq else None

    def receive(self, fp: str, link, msg: dict) -> None:
        """A message from a peer after its "join" (a watcher's: ``Watchers.receive``)."""
        if self.watchers.holds(fp, link):
            self.watchers.receive(fp, link, msg)
            return
        if not self.outbox.holds(fp, link):
            if msg["type"] != "join":
                link.reject("you have no seat at this table")
            return
        if msg["type"] == "join":
            link.reject("already joined")
            return
        if not self.is_open:  # ended: nothing is signed after the "end" the peers were sent
            return
        handler = self.peer_messages.get(msg["type"])
        if handler is not None:  # the sessions' own (a report, a shown hand), not the trust layer's
            handler(fp, msg)
            return
        if msg["type"] in TALK_MESSAGES:  # table talk: beside the log, never in it
            self.talk.heard(link.conn.peer_key, link, msg)
            return
        if self.takeback.active:
            self.takeback.message(fp, link, msg)
            return
        self.apply(self.authority.receive(fp, msg))

    def connected(self, key: bytes | None) -> bool:
        """Whether the player with ``key`` is here: the host, or a peer with a link."""
        return key is not None and (key == self.key or self.outbox.holds(fingerprint(key)))

    # -- after every change -----------------------------------------------------------------
    def log_only(self, out: Out) -> None:
        """Send what the trust layer answered (the change's events come later)."""
        if out.error:
            self.emit(error_event(f"the table stopped: {out.error}"))
        self.outbox.deliver(out.sends, out.disconnect)
        self.watchers.publish(out.entries)

    def apply(self, out: Out) -> None:
        """Send what the trust layer answered, tell the host's seat, and go on."""
        self.log_only(out)
        self.changed(out)

    def changed(self, out: Out) -> None:
        kinds = [e.kind for e in out.entries]
        if not kinds:
            return
        if set(kinds) & {"seat", "drop", "rejoin", "start", "option"}:
            self.settled()
            self._update_advert()
            self.whereabouts.watch()  # (most of the players gone: carried on elsewhere?)
        events: list[dict] = []
        for signed in out.entries:
            events += self.authority.archive.events[signed.seq]
        if shows_hand(kinds, self.view.playing()):
            self.view.state(events, ended="hand_end" in kinds)
        if set(kinds) & {"start", "hand_end"}:
            self._record(done=False)
        if "hand_end" in kinds:
            self.view.hand_over(next(e for e in out.entries if e.kind == "hand_end"))
        for signed in out.entries:
            self.view.cheat_named(signed)
        self._show_own()
        self.advance()

    def refresh(self) -> None:
        """Seats or links changed: show it, advertise it, go on."""
        self.settled()
        self._update_advert()
        self.advance()

    def reseated(self) -> None:
        """Seats were swapped before the deal: new bots, perhaps a new seat for the host."""
        self.bots.forget()
        if self.you is not None:
            self.you = next((s for s, i in sorted(self.authority.seats.items())
                             if i.kind == "human" and i.key == self.key), self.you)
        self.refresh()

    def advance(self) -> None:
        """Whatever should happen next without anyone asking: deal, bots, finish."""
        if not self.is_open or self.takeback.active:
            return
        self.deal_watch.watch()
        self.stand_ins.time_held()
        auth = self.authority
        match = auth.match
        if match is None:
            if self.auto_start and self.seating.all_taken():
                self.start_game()
            return
        hands = self.options.hands
        if hands is not None and match.hand_number >= hands and match.state is None:
            self.spawn(self.finish(f"{match.hand_number} hand(s) played"))
            return
        if match.is_over:
            if self.headless or hands is not None:  # headless: the table is done
                self.spawn(self.finish("the game is over"))
            return  # a person hosting may offer a rematch: the guests stay
        if (self.auto_start or self.deal_once) and match.state is None \
                and (auth.round is None or auth.round.revealed):
            self.deal_once = False
            self.next_hand()
            return
        self.bots.driver.poke()

    def spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @signing
    def play(self, seat: int, action: dict) -> None:
        """A move for a seat this host plays: its person's, or one of its bots'."""
        out = self.authority.act_local(seat, action)
        if out.error:
            if seat == self.you:  # the person's own move (or the headless host's bot)
                self.emit(error_event(out.error))
            else:
                log.warning("seat %s's bot move was refused: %s", seat, out.error)
            return
        self.apply(out)

    # -- commands (the facade and the CLI) -----------------------------------------------------
    def act(self, action: dict) -> None:
        if self.you is None:
            return
        if self.authority.state is None:
            self.emit(error_event("there is no hand in progress"))
            return
        self.play(self.you, action)

    @signing
    def start_game(self, level: str | None = None) -> None:
        """Deal the first hand of a game; ``level``: the computer level the host chose
        for the table, which a stand-in for a dropped player plays at."""
        auth = self.authority
        if auth.match is not None and not auth.match.is_over:
            return
        if level in ALL_LEVELS:
            self.stand_ins.level = level
        self.seating.fill()
        dealer = None
        if self.options.table_seed is not None:
            dealer = self.game.first_dealer(derive_seed(self.options.table_seed, "game", self.games_started))
        self.games_started += 1
        self.bots.new_game()
        self.apply(auth.start_game(dealer))
        self.stand_ins.game_started()

    @signing
    def next_hand(self) -> None:
        out = self.authority.next_hand()
        if not out.error:
            self.apply(out)

    @signing
    def set_option(self, name: str, value: bool) -> None:
        self.apply(self.authority.set_option(name, value))

    @signing
    def set_seat(self, seat: int, kind: str, level: str | None = None,
                 player: str | None = None) -> None:
        """Before the first deal: a bot of ``level``, nobody, or a joined player (moved
        from their seat, swapping with whoever sits here) in ``seat``. In game: give
        ``seat`` to a waiting player (a lost key)."""
        if kind == "human" and player:
            if self.authority.match is None:
                self.seating.move_player(seat, player)
            else:
                self.arrivals.readmit(seat, player)
            return
        self.seating.set_seat(seat, kind, level)

    @signing
    def sit(self, seat: int) -> None:
        """Before the first deal: the host moves to ``seat``, swapping with whoever is
        there (a player, a bot or nobody)."""
        self.seating.sit(seat)

    @signing
    def stand_in(self, seat: int, bot: bool) -> None:
        self.stand_ins.stand_in(seat, bot)

    # -- watchers -----------------------------------------------------------------------------
    def set_watching(self, open_: bool, cap: int | None = None) -> None:
        """The host person's settings: whether anyone may watch, and how many at once."""
        cap = self.watchers.policy.cap if cap is None else int(cap)
        self.watchers.set_policy(WatchPolicy(bool(open_), cap))

    def remove_watcher(self, fp: str) -> None:
        """The host person sends a watcher away."""
        self.watchers.remove(fp)

    def show_hand(self, fp: str, on: bool) -> None:
        """The host person shows its own hand to the watcher ``fp`` from now on (``on``),
        or stops: sealed here for that watcher alone (``showing``)."""
        watcher = self.watchers.here.get(fp)
        if on:
            if watcher is None or self.you is None:
                self.emit(error_event("that watcher is not here now" if watcher is None
                                      else "you have no seat: no hand to show"))
                return
            self.showing.start(watcher.key)
        else:
            key = next((k for k in self.showing.to if fingerprint(k) == fp), None)
            box = self.showing.stop(key, *self._shown_at()[:4]) if key is not None else None
            if box is not None:
                self.watchers.send_shown(self._shown_at()[1], box.to, box.sealed, box.on)
        self._watchers_changed()

    def _shown_at(self) -> tuple:
        """(table, the host person's seat, the log's last entry, the hand's number, its
        private view or None) for a box of the host person's own hand."""
        auth = self.authority
        state, match = auth.state, auth.match
        view = None
        if self.you is not None and state is not None and not state.is_over and auth.deal.exact():
            view = state.private_view(self.you)
        return (auth.table, self.you, chain_of(auth).seq,
                match.hand_number if match is not None else 0, view)

    def _show_own(self) -> None:
        """The host person's hand, sealed again for each watcher it shows it to, when it
        changed (or the watcher is back)."""
        if not self.showing.to or self._authority is None or not self.listen:
            return
        table, seat, seq, hand, view = self._shown_at()
        self.showing.present(self.watchers.keys())
        for box in self.showing.boxes(table, seat, seq, hand, view, self.watchers.keys()):
            self.watchers.send_shown(seat, box.to, box.sealed, box.on)

    def _watchers_changed(self) -> None:
        """Who watches changed: the host person's hand to a watcher back, the event, and
        the advert (room to watch, or none)."""
        self._show_own()
        self.emit(self.watchers.event(self.showing.to))
        if self._authority is not None:
            self._update_advert()

    def _relay_shown(self, fp: str, message: dict) -> None:
        """A seated player's "show": its hand sealed for one watcher, relayed to it alone."""
        seat = self.authority.seat_of(fp)
        if seat is None:
            return
        problem = self.watchers.relay(seat, message)
        if problem is not None:
            log.info("a shown hand from seat %s was not relayed: %s", seat, problem)

    def settled(self) -> None:
        """Tell the host's seat who sits where (the "table" event), and the guests where
        each other's standby is now (a standby is its player's: it moves with them)."""
        self.roster.reseated()
        self.emit(self.view.table_event())

    def _update_advert(self) -> None:
        changes = self.advert.changes(self.authority)
        if changes is not None and self.phase is not Phase.CLOSED:
            self.spawn(self.advert.update(changes))


class HostBots:
    """The bots a host plays — its bot seats, stand-ins, and its own seat when headless —
    each made at its seat's level and driven by one ``BotDriver``. Wired to the table's
    ``authority`` (a getter: a restore may replace it), the host's ``key``, the ``timers``,
    and the calls ``you`` (the host person's seat now; a bot plays it if ``autoplay``),
    ``is_open``, ``level_of`` (the level chosen for a seat's bot) and ``play`` (a move)."""

    def __init__(self, authority: Callable[[], HostAuthority], key: bytes, timers: Timers, *,
                 you: Callable[[], int | None], autoplay: bool, is_open: Callable[[], bool],
                 level_of: Callable[[int], str], play: Callable[[int, dict], None], delay: float):
        self._authority, self.key, self.autoplay = authority, key, autoplay
        self._you, self._is_open, self._level_of, self._play = you, is_open, level_of, play
        self.delay = delay
        self.players: dict[int, object] = {}  # seat -> the bot playing it
        self.driver = BotDriver(timers.call_later, due=self.due,
                                position=lambda: chain_of(authority()).seq, move=self.move,
                                pace=self.pace)

    def controlled(self, seat: int) -> bool:
        info = self._authority().seats.get(seat)
        if info is None or info.key != self.key:
            return False
        return info.kind == "bot" or (seat == self._you() and self.autoplay)

    def due(self) -> list[int]:
        auth = self._authority()
        state = auth.state
        if state is None or state.is_over or not self._is_open():
            return []
        return [seat for seat in state.to_act() if self.controlled(seat) and may_move(auth, seat)]

    def pace(self) -> float:
        """A bot's pause; twice as long while a finished trick is on the table."""
        state = self._authority().state
        trick_done = state is not None and not state.trick and bool(state.tricks)
        return self.delay * (2 if trick_done else 1)

    def new_game(self) -> None:
        """Each bot is made as the game starts (at the levels the setup chose)."""
        self.players.clear()
        for seat in range(game_of(self._authority()).num_players):
            if self.controlled(seat):
                self.player(seat)

    def forget(self, seat: int | None = None) -> None:
        if seat is None:
            self.players.clear()
        else:
            self.players.pop(seat, None)

    def player(self, seat: int):
        """The bot that plays ``seat`` (made on first use, at the seat's level)."""
        if seat not in self.players:
            auth = self._authority()
            level = auth.seats[seat].level or self._level_of(seat)
            seed = hashlib.sha256(f"{auth.table}|bot|{seat}".encode()).digest()
            self.players[seat] = make_bot(level, seed)
        return self.players[seat]

    def move(self, seat: int) -> None:
        auth = self._authority()
        self._play(seat, bot_json(auth.game, self.player(seat), auth.state, seat))


class HostView:
    """What the host's own seat is told: the facade's events, from the authority. Wired to
    the table's ``authority`` (a getter: a restore may replace it), ``emit``, whether the
    table is on the network (``listen``), where alerts keep their ``evidence``, and the calls
    ``you`` (the host person's seat now), ``connected`` (is this key's player here),
    ``waiting`` (the strangers asking for a seat) and ``heirs`` (whom the host person may hand
    the table to)."""

    def __init__(self, authority: Callable[[], HostAuthority], emit: Emit, *, listen: bool,
                 evidence: Path, you: Callable[[], int | None],
                 connected: Callable[[bytes | None], bool], waiting: Callable[[], list[dict]],
                 heirs: Callable[[], list[int]]):
        self._authority, self.emit, self.listen, self.evidence = authority, emit, listen, evidence
        self._you, self._connected, self._waiting, self._heirs = you, connected, waiting, heirs

    def seats(self) -> list[SeatInfo]:
        auth = self._authority()
        seats = auth.seats
        return [seat_info(seat, seats.get(seat), seat in seats and (
                    seats[seat].kind == "bot" or self._connected(seats[seat].key)))
                for seat in range(game_of(auth).num_players)]

    def table_event(self) -> TableEvent:
        auth = self._authority()
        event = table_event(auth.game, auth.name, self.seats(), self._you(), True, auth.options,
                            auth.match is not None, self._waiting(), host_seat=self._you())
        event["heirs"] = self._heirs()  # whom the host person may hand the table to on leaving
        return event

    def playing(self) -> bool:
        state = self._authority().state
        return state is not None and not state.is_over

    def state(self, events: list, ended: bool = False) -> None:
        """The host's seat's "state" event. ``ended``: the move just logged ended the
        hand, and its "hand_end" came with it (the seeded deal banks the score at once),
        so the match has moved on: the finished hand is shown all the same — its last
        trick on the table and in the log — before the summary, as guests see it."""
        auth, you = self._authority(), self._you()
        state, match = auth.state, auth.match
        if match is None:
            return
        if state is None and ended and match.last_hand is not None:
            self._finished(events, match)
            return
        if state is None or not auth.deal.exact():
            return  # (the spare on its way: the table as it was until it is known)
        view = None
        if you is not None and you in state.to_act() and not may_move(auth, you):
            # under the mental deal, this seat's cards (a kitty) are on their way: nothing is
            # offered until they come (the hand shown meanwhile holds made-up cards for them)
            view, state = dict(state.view(you), to_act=[]), None
        self.emit(state_event(auth.game, state, you, events, match.scores, match.hand_number + 1,
                              view, deal=self.deal()))

    def deal(self) -> DealKind | None:
        """How this hand was dealt (``events.deal_kind``); nothing at a table no one
        else can join (a game against the computer)."""
        if not self.listen:
            return None
        return deal_kind(self._authority().deal.PRIVATE)

    def _finished(self, events: list, match) -> None:
        """The hand ``match`` has just banked, as it stood at its last card: its number
        and the scores before it (the "hand_over" event right after brings the new ones)."""
        state = match.last_hand
        banked = match.results[-1].score
        before = [total - points for total, points in zip(match.scores, banked)]
        self.emit(state_event(self._authority().game, state, self._you(), events, before,
                              match.hand_number))

    def cheat_named(self, signed) -> None:
        """A player's proven cheat that forfeited the hand (its ``hand_end``: the host's own
        client's verdict, which every honest guest reaches too): the host's person is told,
        as each guest's is, and the evidence saved; the table goes on to the next hand."""
        end = signed.content
        if not isinstance(end, HandEndBody) or end.forfeit is None:
            return
        cheat = end.forfeit
        auth = self._authority()
        log = auth.log
        start = max((s.seq for s in log[:signed.seq] if s.kind in ("mental-deal", "mental-restart")),
                    default=0)
        alert = IntegrityAlert(cheat["seat"], PLAYER, cheat["rule"],
                               f"{cheat['detail']} — that player's side forfeits the hand; it is "
                               "not dealt again", table_of(auth), signed.seq,
                               [s.wire for s in log[start:signed.seq + 1]])
        self.emit(named_event(alert_event(alert, self.evidence), forfeits=True))

    def reported(self, message: dict) -> None:
        """A player's report of the alert its client stopped at (``trust.reports``): told
        to the host's person as that player's word, the evidence saved. This computer
        does not judge a claim about itself; that player has left the table, and the
        table goes on without it where the rules let it."""
        auth = self._authority()
        report = reports.read(message["signed"], auth.seats, table_of(auth))
        if isinstance(report, str):
            log.warning("ignored a report: %s", report)
            return
        name = auth.seats[report.seat].name or f"seat {report.seat + 1}"
        who = "this computer" if report.party == HOST else f"the player in seat {report.accused}"
        alert = IntegrityAlert(report.accused, report.party, report.rule,
                               f"{name}'s client reports that {who} broke rule {report.rule!r}: "
                               f'"{report.detail}"', table_of(auth), report.seq,
                               report.entries + [report.signed], report.sent, report.seat,
                               checked=False)
        self.emit(alert_event(alert, self.evidence))

    def hand_over(self, signed: SignedEntry) -> None:
        body = signed.entry.body_as(HandEndBody)
        auth = self._authority()
        match = auth.match
        for event in hand_over_events(body.result, body.scores, body.hand, body.winner,
                                      hand_breakdown(match.last_hand if match else None),
                                      history=score_history(auth.log, body.hand)):
            self.emit(event)

    def hint(self) -> None:
        auth = self._authority()
        self.emit(hint_event(auth.game, auth.state, self._you(),
                             f"{auth.table}|hint|{chain_of(auth).seq}"))
