"""HostCore: a table's authority on the network — HostAuthority over live connections.

The trust rules live in ``net.trust.authority.HostAuthority`` (sans-I/O). This module gives it
sockets, a disk, a clock and hands:

* a TLS server (``transport.start_server``) whose guests each get a ``heartbeat.Link``,
  with the connections that hold no seat bounded (``admission.Admission``: so many per
  source and in all, strangers wait at most ``Timings.unseated_wait``) and the soft
  open-file limit raised to the hard one at start, so a flood of idle connections can
  neither exhaust the host nor keep a seated player out;
  the first frame of every connection is "join" and decides what happens: a seat in the
  lobby, a rejoin (same key: the log after the peer's ``last_seq``), a seat handed back
  from a stand-in bot, a re-admission by name (host option), or a refusal;
* the durable log (``store.LogStore``, SQLite WAL) that the authority persists every
  entry to before anything is applied or sent; a host restarted with the same state
  directory restores the table from it, listens on the same port again and gives its
  peers ``RESTART_GRACE`` to come back before logging them as dropped;
* per-peer sequence tracking (``heartbeat.AckBook``): every entry message is sent once
  and in order; if one would leave a gap (the peer was catching up) the missed suffix is
  sent as a sync instead; peers acknowledge what they have verified;
* bots for the host's bot seats (and its own seat, headless), a stand-in bot for a
  dropped seat after a grace period (host option), handing the seat back on return;
* an mDNS advert (``discovery.TableAdvertiser``) kept current: open seats, in game;
* the facade's events for the host's own seat.

Everything runs on one asyncio loop; authority calls are synchronous, so each change
and its sends happen without interleaving.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from engine.bots import make_bot

from net.wire import framing
from net.wire import messages as m
from net.sessions.admission import Admission, raise_file_limit
from net.constants import END_GRACE, HOST_LOG_FILE, HOST_META_FILE, RESTART_GRACE, SHUFFLE_NOTICE
from net.discovery import TableAdvert, TableAdvertiser
from net.wire.framing import ConnectionClosed, ProtocolError
from net.wire.heartbeat import WIRE, AckBook, Link, Timings
from net.trust.authority import HostAuthority, Out, RestoreError
from net.wire.identity import fingerprint
from net.sessions.events import hand_breakdown, state_event
from net.trust.store import LogStore, StoreError
from net.trust.values import NOBODY
from net.wire.transport import start_server

log = logging.getLogger(__name__)

Emit = Callable[[dict], None]


def hint_text(game, state_or_view, seat: int | None, seed: str) -> str:
    """One sentence from a "normal" bot's ``explain`` for ``seat`` (a State, or the
    seat's own view dict), or why there is nothing to suggest."""
    if state_or_view is None or seat is None:
        return "Nothing to decide just now."
    view = state_or_view if isinstance(state_or_view, dict) else state_or_view.view(seat)
    if seat not in (view.get("to_act") or []) or view.get("phase") == "done":
        return "Nothing to decide just now."
    return make_bot("normal", hashlib.sha256(seed.encode()).digest()).explain(game, view)


def describe_table(authority: HostAuthority) -> str:
    """A table as a person recognises it: '“bars-lan” (rook, hand 4, 120–85)'."""
    match = authority.match
    progress = "not started"
    if match is not None:
        progress = f"hand {match.hand_number + 1}, " + "–".join(str(s) for s in match.scores)
    return f"“{authority.name}” ({authority.game.id}, {progress})"


def shuffle_event(names: list[str], skipped: bool = False) -> dict:
    """The facade's "waiting" event: whose shuffle (deal contribution) the table awaits,
    or, ``skipped``, whose it dealt without."""
    who = " and ".join(f"{n}'s" for n in names)
    detail = (f"Dealt without {who} shuffle: it did not come in time." if skipped
              else f"Waiting for {who} shuffle…")
    return {"type": "waiting", "for": "shuffle", "names": list(names),
            "detail": detail if names else ""}


def readmitted_event(seat: int, name: str, key: bytes) -> dict:
    """What every seat is told when a seat goes to a new key (re-admission)."""
    return {"type": "connection", "seat": seat, "state": "readmitted",
            "detail": f"{name}'s seat was given to a new key (fingerprint {fingerprint(key)})"}


def bot_json(game, bot, state, seat: int) -> dict:
    """A bot's decision for ``seat`` in hand-record form without the seat."""
    data = game.action_to_json(bot.choose(state, seat))
    data.pop("seat", None)
    return data


class HostCore:
    """One hosted table. ``await start()``, then commands; ``await stop()`` at the end."""

    def __init__(self, identity, settings: dict | None, *, state_dir: str | os.PathLike,
                 emit: Emit | None = None, bind: str = "127.0.0.1", port: int = 0,
                 interfaces=None, timings: Timings | None = None,
                 bots: dict[int, str] | None = None, you: int | None = 0,
                 autoplay: bool = False, auto_start: bool = False, hands: int | None = None,
                 stand_in_after: float | None = None, stand_in_level: str = "normal",
                 readmit_names: bool = False, bot_delay: float = 0.0,
                 restart_grace: float = RESTART_GRACE, resume: bool = False,
                 admission: Admission | None = None, tamper=None, rng=None):
        self.identity = identity
        self.key = identity.public_key
        self.settings = dict(settings or {})
        self.state_dir = Path(state_dir)
        self.emit: Emit = emit or (lambda event: None)
        self.bind, self.port = bind, port
        self.interfaces = interfaces  # None: no mDNS advert (join by address only)
        self.timings = timings or Timings()
        self.bot_levels = dict(bots or {})
        self.you = you
        self.autoplay = autoplay  # a bot plays the host's own seat (headless)
        self.auto_start = auto_start  # deal as soon as every seat is taken
        self.hands = hands  # headless: finish after this many hands (None: the game)
        self.stand_in_after = stand_in_after
        self.stand_in_level = stand_in_level
        self.readmit_names = readmit_names
        self.bot_delay = bot_delay
        self.restart_grace = restart_grace
        self.resume = resume  # resume an unfinished table even if its game or name differ
        self.tamper = tamper  # tests: fn(fp, message) -> message, a dishonest host
        self.rng = rng or os.urandom  # the host's deal secrets
        self.authority: HostAuthority | None = None
        self.store: LogStore | None = None
        self.server = None
        self.admission = admission if admission is not None else Admission()
        self.advertiser: TableAdvertiser | None = None
        self.links: dict[str, Link] = {}
        self.keys: dict[str, bytes] = {}  # fingerprint -> key of everyone connected
        self.acks = AckBook()
        self.ack_listeners: list[Callable[[str, int], None]] = []
        self.stand_ins: dict[int, tuple[bytes, str]] = {}  # seat -> (player's key, name)
        self.waiting: dict[str, tuple[bytes, str, Link]] = {}  # unseated, asking in
        self.restored = False
        self.closing = False
        self.finished = asyncio.Event()
        self.result: dict | None = None
        self._timers: dict[tuple, asyncio.TimerHandle] = {}
        self._pending: set[int] = set()
        self._bots: dict[int, object] = {}
        self._tasks: set[asyncio.Task] = set()
        self._ended = False

    # -- lifecycle ----------------------------------------------------------------------
    @property
    def table(self) -> str:
        return self.authority.table

    @property
    def game(self):
        return self.authority.game

    async def start(self) -> None:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        meta = self._read_meta()
        self._open_store(meta)
        port = self.port or (meta.get("port", 0) if self.restored else 0)
        raise_file_limit()
        self.server = await start_server(self.bind, port, self.identity, self._serve,
                                         schemas=WIRE, timeout=self.timings.connect,
                                         admission=self.admission)
        self.port = self.server.port
        self._write_meta(done=False)
        self.emit({"type": "listening", "address": self.bind, "port": self.port,
                   "table": self.table, "fingerprint": self.identity.fingerprint,
                   "restored": self.restored, "head": self.authority.chain.seq})
        if self.interfaces is not None:
            self.advertiser = TableAdvertiser(self._advert(), interfaces=self.interfaces)
            await self.advertiser.start()
        if self.restored:
            self._await_peers_after_restart()
        self._emit_table()
        self._emit_state([])
        self._advance()

    def _open_store(self, meta: dict) -> None:
        path = self.state_dir / HOST_LOG_FILE
        self.store = LogStore(path)
        loaded = self.store.load()
        found = problem = None
        if loaded.records and not meta.get("done"):
            try:
                found = HostAuthority.restore(self.identity, loaded.records, rng=self.rng,
                                              persist=self.store)
            except RestoreError as exc:
                if self.resume:
                    raise
                problem = str(exc)  # another key's table, or a log that does not replay
            if found is not None and (self.resume or self._same_table(found)):
                self.authority = found
                self.restored = True
                if loaded.dropped:
                    self.emit({"type": "error", "message": f"the table log lost {loaded.dropped} "
                               f"damaged entries at its end ({loaded.problem})"})
                return
        if loaded.records:  # finished, or not the table asked for: keep it, start anew
            self.store.close()
            kept = path.with_name(f"table-{int(time.time())}.db")
            path.rename(kept)
            if found is not None:
                self.emit({"type": "notice", "message": f"Found an unfinished table, "
                           f"{describe_table(found)}; kept it as {kept} and opened a new "
                           "table (resume it with --resume, or by hosting the same game "
                           "and table name)."})
            elif problem is not None:
                self.emit({"type": "notice", "message": f"Found a table log that cannot be "
                           f"resumed ({problem}); kept it as {kept} and opened a new table."})
            self.store = LogStore(path)
        self.authority = HostAuthority(self.identity, rng=self.rng, persist=self.store)
        table = f"{self.identity.fingerprint}-{os.urandom(4).hex()}"
        self._check(self.authority.open_table(table, self.settings, self._wanted_name()))
        for seat in range(self.game.num_players):
            if seat == self.you:
                self._check(self.authority.seat(seat, "human", self.key, self.identity.name))
            elif seat in self.bot_levels:
                self._check(self.authority.seat(seat, "bot", name=f"Bot {seat + 1}",
                                                level=self.bot_levels[seat]))
            else:
                self._check(self.authority.seat(seat, "empty"))

    def _wanted_name(self) -> str:
        return self.settings.get("name") or f"{self.identity.name}'s table"

    def _same_table(self, found: HostAuthority) -> bool:
        """Resume without being asked only the table asked for: same game, same name."""
        wanted = self.settings.get("game")
        return (wanted is None or wanted == found.game.id) and found.name == self._wanted_name()

    def _check(self, out: Out) -> None:
        if out.error:
            raise StoreError(out.error)

    def _read_meta(self) -> dict:
        try:
            return json.loads((self.state_dir / HOST_META_FILE).read_text())
        except (OSError, ValueError):
            return {}

    def _write_meta(self, done: bool) -> None:
        meta = {"table": self.table, "port": self.port, "done": done}
        tmp = self.state_dir / (HOST_META_FILE + ".tmp")
        tmp.write_text(json.dumps(meta))
        os.replace(tmp, self.state_dir / HOST_META_FILE)

    async def stop(self, farewell: str | None = None) -> None:
        """Close everything (the log stays on disk; ``finish`` marks it done).

        ``farewell``: the host is leaving on purpose (the app's Leave): every peer is
        told the table has ended, with this reason, and the table is marked done so the
        next table opened here starts afresh. Without it (a crash, a signal) the table
        can be resumed from its log and peers keep trying to reconnect."""
        self.closing = True
        for handle in self._timers.values():
            handle.cancel()
        if farewell is not None and self.authority is not None and not self._ended:
            self._ended = True
            head = self.authority.chain.seq
            for link in list(self.links.values()):
                link.send({"type": "end", "reason": farewell, "head": head})
            # Each peer hangs up once it has read "end": closing first could reset the
            # connection with the peer's last acknowledgement unread, and a reset throws
            # away what the peer had not read yet — "end" included.
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline and any(not l.closed for l in self.links.values()):
                await asyncio.sleep(0.02)
            if self.server is not None:
                self._write_meta(done=True)
        for link in list(self.links.values()) + [w[2] for w in self.waiting.values()]:
            link.close("the host closed the table")
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        if self.advertiser is not None:
            try:
                await self.advertiser.stop()
            except Exception:  # noqa: BLE001 - leaving the network must not fail
                log.exception("advert withdrawal failed")
        for task in list(self._tasks):
            task.cancel()
        if self.store is not None:
            self.store.close()
            self.store = None

    async def finish(self, reason: str = "the game is over") -> None:
        """Tell every peer the table is closing after the last entry and wait (bounded)
        until each has acknowledged it."""
        if self._ended:
            return
        self._ended = True
        head = self.authority.chain.seq
        for link in self.links.values():
            link.send({"type": "end", "reason": reason, "head": head})
        deadline = time.monotonic() + END_GRACE
        while time.monotonic() < deadline and not self.acks.all_acked(head, list(self.links)):
            await asyncio.sleep(0.02)
        self._write_meta(done=True)
        self.result = self._result(reason)
        self.emit({"type": "finished", **self.result})
        self.finished.set()

    def _result(self, reason: str) -> dict:
        match = self.authority.match
        return {"reason": reason, "table": self.table, "head": self.authority.chain.seq,
                "hands": match.hand_number if match else 0,
                "scores": list(match.scores) if match else None,
                "winner": match.winner if match else None,
                "acked": {seat: self.acks.acked.get(fp, -1)
                          for seat, fp in self.authority.peers().items()}}

    # -- connections --------------------------------------------------------------------
    async def _serve(self, conn) -> None:
        try:
            first = await asyncio.wait_for(conn.recv(), self.timings.connect)
        except ProtocolError as exc:
            await conn.reject(f"bad message: {exc}")
            return
        except (ConnectionClosed, TimeoutError, OSError):
            return
        fp = conn.peer_fingerprint
        holder: list[Link] = []
        link = Link(conn, self.timings, lambda msg: self._on_message(fp, holder[0], msg),
                    position=lambda: self.authority.chain.seq,
                    head=lambda: self.authority.chain.head,
                    on_hb=lambda seq, head: self._on_ack(fp, holder[0], seq))
        holder.append(link)
        if first["type"] != "join" or self.closing:
            link.reject("the first message must be 'join'" if not self.closing
                        else "the table is closing")
        else:
            self._admit(fp, conn.peer_key, conn.peer_name, link, first)
        reason = await link.run()
        self._link_ended(fp, link, reason)

    def _admit(self, fp: str, key: bytes, name: str, link: Link, join: dict) -> None:
        auth = self.authority
        seat = auth.seat_of(fp)
        if seat is None:
            seat = self._hand_back(key, name)
        taken = auth.taken_from(key) if seat is None else None
        if taken is not None:
            self._show_taken(fp, key, link, join, *taken)
            return
        if seat is None and join.get("seat") is not None and join["last_seq"] >= 0:
            # Claims a seat it does not hold: the trust layer refuses it with its reason.
            self._refuse_claim(fp, link, join)
            return
        if seat is None:
            seat = self._new_seat(fp, key, name, link, join)
            if seat is None:
                return
        self._register(fp, key, link, seat, join["last_seq"])

    def _register(self, fp: str, key: bytes, link: Link, seat: int, last_seq: int) -> None:
        old = self.links.get(fp)
        if old is not None and old is not link:
            old.close("replaced by a new connection from the same key")
        self.links[fp] = link
        self.keys[fp] = key
        self.waiting.pop(fp, None)
        self._cancel(("waiting", fp))
        if link.conn.ticket is not None:
            self.admission.seat(link.conn.ticket)  # a player: never dropped for room
        self._cancel(("absent", seat))
        self._cancel(("stand-in", seat))
        has = min(last_seq, self.authority.chain.seq)
        self.acks.start(fp, has)
        link.send({"type": "joined", "table": self.table, "seat": seat,
                   "head": self.authority.chain.seq})
        out = self.authority.rejoin(fp, seat, has)
        self._dispatch(out)
        self.emit({"type": "connection", "seat": seat, "state": "connected",
                   "detail": f"{link.conn.peer_name} ({fp})"})
        self._emit_table()
        self._update_advert()
        self._advance()

    def _hand_back(self, key: bytes, name: str) -> int | None:
        """A returning player whose seat a bot was keeping: give it back."""
        for seat, (held_key, held_name) in list(self.stand_ins.items()):
            if held_key == key:
                del self.stand_ins[seat]
                self._bots.pop(seat, None)
                out = self.authority.seat(seat, "human", key, held_name)
                self._dispatch(out)
                self._changed(out)
                return seat
        return None

    def _refuse_claim(self, fp: str, link: Link, join: dict) -> None:
        out = self.authority.rejoin(fp, join["seat"], join["last_seq"])
        for who, msg in out.sends:
            if who == fp:
                link.send(msg)
        link.finish()
        self.emit({"type": "connection", "seat": join["seat"], "state": "refused",
                   "detail": f"{link.conn.peer_name} ({fp}) claimed seat {join['seat']}, "
                             "which another key holds"})

    def _new_seat(self, fp: str, key: bytes, name: str, link: Link, join: dict) -> int | None:
        auth = self.authority
        if auth.match is None:
            empty = [s for s, i in sorted(auth.seats.items()) if i.kind == "empty"]
            if empty:
                seat = join["seat"] if join.get("seat") in empty else empty[0]
                out = auth.seat(seat, "human", key, name)
                self._dispatch(out)
                return seat
        if self.readmit_names:  # headless only (HostSession refuses it): unasked, by name
            seat = next((s for s in self._readmittable(name) if self._away(s)[1] == name), None)
            if seat is not None:
                self._give_seat(seat, key, name)
                return seat
        if auth.match is None:
            link.reject("the table is full")
            return None
        # In game: wait for the host to re-admit this key (a player who lost theirs).
        self.waiting[fp] = (key, name, link)
        if link.conn.ticket is not None:
            self.admission.wait(link.conn.ticket)
        wait = self.timings.unseated_wait
        self._later(("waiting", fp), wait, self._send_away, fp, link,
                    f"the host gave you no seat within {wait:g} s")
        self.emit({"type": "connection", "seat": None, "state": "waiting",
                   "detail": f"{name} ({fp}) asks to be re-admitted"})
        self._emit_table()
        self._offer_seat(fp)
        return None

    # -- re-admission: a seat given to a new key ------------------------------------------
    def _readmittable(self, name: str | None = None) -> list[int]:
        """Seats a new key could be given — a player away (dropped, or played by a
        stand-in bot) — those of a player called ``name`` first."""
        seats = self.authority.seats
        away = [s for s, i in sorted(seats.items()) if i.kind == "human"
                and not i.connected and i.key != self.key] + sorted(self.stand_ins)
        return sorted(away, key=lambda s: self._away(s)[1] != name)

    def _away(self, seat: int) -> tuple[bytes, str]:
        """(key, name) of the player whose seat this is, even while a bot stands in."""
        if seat in self.stand_ins:
            return self.stand_ins[seat]
        info = self.authority.seats[seat]
        return info.key, info.name

    def _offer_seat(self, fp: str) -> None:
        """Ask the host person (the app's dialog) whether a waiting stranger may have an
        away player's seat; nothing is given without a yes (``set_seat``)."""
        if fp not in self.waiting:
            return
        _, name, _ = self.waiting[fp]
        seats = self._readmittable(name)
        if seats:
            old_key, old_name = self._away(seats[0])
            self.emit({"type": "readmit", "seat": seats[0], "name": old_name,
                       "old_fingerprint": fingerprint(old_key), "new_fingerprint": fp,
                       "new_name": name})

    def _give_seat(self, seat: int, key: bytes, name: str) -> None:
        """Re-admit: ``seat`` goes to ``key``, logged as a seat entry with ``readmit``."""
        _, old_name = self._away(seat)
        self.stand_ins.pop(seat, None)
        self._bots.pop(seat, None)
        old = self.authority.seats[seat]
        if old.kind == "human" and old.key is not None:
            stale = self.links.pop(fingerprint(old.key), None)
            if stale is not None:
                stale.close("the seat was given to another key")
        self._dispatch(self.authority.readmit(seat, key, name))
        self.emit(readmitted_event(seat, old_name, key))

    def readmit(self, seat: int, fp: str) -> bool:
        """The host person's yes: give ``seat`` to the waiting player ``fp`` (a lost key)."""
        if fp not in self.waiting or seat not in self.authority.seats:
            return False
        key, name, link = self.waiting.pop(fp)
        self._cancel(("waiting", fp))
        self._give_seat(seat, key, name)
        self._register(fp, key, link, seat, -1)
        return True

    def turn_away(self, fp: str) -> None:
        """The host person's no: the waiting player ``fp`` gets no seat."""
        waiting = self.waiting.get(fp)
        if waiting is not None:
            self._send_away(fp, waiting[2], "the host did not give you a seat")

    def _show_taken(self, fp: str, key: bytes, link: Link, join: dict, seat: int, seq: int) -> None:
        """A key whose seat was given to a new key is back. It is not simply refused: it
        is shown the log, so that its own replica raises the alert on the re-admission
        entry and keeps the evidence, and then told why it has no seat."""
        auth = self.authority
        mine = join.get("seat") == seat and join["last_seq"] <= auth.chain.seq
        link.send({"type": "joined", "table": self.table, "seat": None, "head": auth.chain.seq})
        for msg in auth.sync(seat, join["last_seq"] if mine else -1, key=key):
            link.send(msg)
        link.send(m.refused_message(f"seat {seat} was given to a new key at entry {seq}; ask "
                                    "the host why"))
        link.finish()
        self.emit({"type": "connection", "seat": seat, "state": "refused",
                   "detail": f"{link.conn.peer_name} ({fp}) came back for seat {seat}, which was "
                             f"given to a new key at entry {seq}, and was shown the log"})

    def _send_away(self, fp: str, link: Link, reason: str) -> None:
        """A stranger that waited too long for a seat."""
        if self.waiting.get(fp, (None, None, None))[2] is link:
            del self.waiting[fp]
            link.reject(reason)
            self._emit_table()

    def _link_ended(self, fp: str, link: Link, reason: str) -> None:
        if self.waiting.get(fp, (None, None, None))[2] is link:
            del self.waiting[fp]
        if self.links.get(fp) is not link:
            return  # replaced, refused or never seated
        del self.links[fp]
        self.acks.forget(fp)
        seat = self.authority.seat_of(fp)
        if seat is None or self.closing or self._ended:
            return  # peers leaving a finished table are not drops
        self.emit({"type": "connection", "seat": seat, "state": "dropped", "detail": reason})
        if self.authority.seats[seat].connected:
            out = self.authority.drop(seat)
            self._dispatch(out)
            self._changed(out)
        self._arm_stand_in(seat)
        for waiting in list(self.waiting):  # a stranger may be the player who dropped
            self._offer_seat(waiting)

    def _await_peers_after_restart(self) -> None:
        """Peers of a restarted host are all away: give them time before logging drops."""
        for seat in self.authority.peers():
            if self.authority.seats[seat].connected:
                self._later(("absent", seat), self.restart_grace, self._absent, seat)
            else:
                self._arm_stand_in(seat)

    def _absent(self, seat: int) -> None:
        fp = self.authority.peers().get(seat)
        if fp is None or fp in self.links or self.closing:
            return
        self.emit({"type": "connection", "seat": seat, "state": "dropped",
                   "detail": "did not come back after the host restarted"})
        out = self.authority.drop(seat)
        self._dispatch(out)
        self._changed(out)
        self._arm_stand_in(seat)

    # -- stand-in bots --------------------------------------------------------------------
    def _arm_stand_in(self, seat: int) -> None:
        if self.stand_in_after is not None and self.authority.match is not None:
            self._later(("stand-in", seat), self.stand_in_after, self.stand_in, seat, True)

    def stand_in(self, seat: int, bot: bool) -> None:
        """Let a bot play a dropped seat now (True), or keep waiting (False)."""
        self._cancel(("stand-in", seat))
        info = self.authority.seats.get(seat)
        if not bot or info is None or info.kind != "human" or info.connected \
                or info.key == self.key:
            return
        self.stand_ins[seat] = (info.key, info.name)
        out = self.authority.seat(seat, "bot", name=f"{info.name} (bot)",
                                  level=self.stand_in_level)
        self.emit({"type": "connection", "seat": seat, "state": "stand_in",
                   "detail": f"a bot plays for {info.name} until they come back"})
        self._dispatch(out)
        self._changed(out)

    # -- messages from peers ----------------------------------------------------------------
    def _on_message(self, fp: str, link: Link, msg: dict) -> None:
        if self.links.get(fp) is not link:
            if msg["type"] != "join":
                link.reject("you have no seat at this table")
            return
        if msg["type"] == "join":
            link.reject("already joined")
            return
        out = self.authority.receive(fp, msg)
        self._dispatch(out)
        self._changed(out)

    def _on_ack(self, fp: str, link: Link, seq: int) -> None:
        if self.links.get(fp) is link:
            self.acks.on_ack(fp, seq)
            for listener in self.ack_listeners:
                listener(fp, seq)

    # -- sending ----------------------------------------------------------------------------
    def _dispatch(self, out: Out) -> None:
        if out.error:
            self.emit({"type": "error", "message": f"the table stopped: {out.error}"})
        for fp, msg in out.sends:
            self._send(fp, msg)
        for fp in out.disconnect:
            link = self.links.get(fp)
            if link is not None:
                link.reject("disconnected after a malformed message")

    def _send(self, fp: str, msg: dict) -> None:
        link = self.links.get(fp)
        if link is None:
            return
        kind = msg["type"]
        if kind == m.ENTRY:
            seq = msg["entry"]["entry"]["seq"]
            if seq <= self.acks.sent.get(fp, -1):
                return  # already sent on this link (in a sync)
            if self.acks.missing(fp, seq):
                seat = self.authority.seat_of(fp)
                for sync in self.authority.sync(seat, self.acks.sent[fp]):
                    self._send_sync(fp, link, sync)
                return
            msg = self._tampered(fp, msg)
            if msg is not None:  # a dishonest host (tests) may withhold it
                link.send(msg)
            self.acks.on_sent(fp, seq)
        elif kind == m.SYNC:
            self._send_sync(fp, link, msg)
        else:
            link.send(msg)

    def _tampered(self, fp: str, msg: dict) -> dict | None:
        return msg if self.tamper is None else self.tamper(fp, msg)

    def _send_sync(self, fp: str, link: Link, msg: dict) -> None:
        have = self.acks.sent.get(fp, -1)
        entries = [t for e in msg["entries"] if e["entry"]["entry"]["seq"] > have
                   and (t := self._tampered(fp, e)) is not None]
        if not entries and not msg["last"]:
            return
        for chunk in _fitting(entries, msg["last"]):
            link.send(chunk)
        if entries:
            self.acks.on_sent(fp, entries[-1]["entry"]["entry"]["seq"])

    # -- after every change -----------------------------------------------------------------
    def _changed(self, out: Out) -> None:
        kinds = [e.kind for e in out.entries]
        if not kinds:
            return
        if set(kinds) & {"seat", "drop", "rejoin", "start", "option"}:
            self._emit_table()
            self._update_advert()
        events = []
        for signed in out.entries:
            events += self.authority.archive.events[signed.seq]
        if set(kinds) & {"deal", "action"}:
            self._emit_state(events)
        if "hand_end" in kinds:
            self._emit_hand_over(next(e for e in out.entries if e.kind == "hand_end"))
        self._advance()

    def _advance(self) -> None:
        """Whatever should happen next without anyone asking: deal, bots, finish."""
        if self.closing or self._ended:
            return
        self._watch_shuffles()
        auth = self.authority
        match = auth.match
        if match is None:
            if self.auto_start and self._all_seated():
                self.start_game()
            return
        if self.hands is not None and match.hand_number >= self.hands and match.state is None:
            self._spawn(self.finish(f"{match.hand_number} hand(s) played"))
            return
        if match.is_over:
            if self.autoplay or self.hands is not None:  # headless: the table is done
                self._spawn(self.finish("the game is over"))
            return  # a person hosting may offer a rematch: the guests stay
        if self.auto_start and match.state is None and (auth.round is None or auth.round.revealed):
            self.next_hand()
            return
        self._schedule_bots()

    def _watch_shuffles(self) -> None:
        """A deal waiting for players' contributions: say whom it waits for once that
        takes a while, and deal without the late ones at the deadline."""
        rnd = self.authority.round
        if rnd is None or rnd.dealt or not rnd.waiting_for:
            return
        deadline = ("shuffle-deadline", rnd.commitment)
        if deadline not in self._timers:
            self._later(deadline, self.timings.contribution, self._skip_late, rnd.commitment)
            self._later(("shuffle-notice", rnd.commitment), SHUFFLE_NOTICE,
                        self._shuffle_notice, rnd.commitment)

    def _awaited(self, commitment: bytes) -> list[int]:
        rnd = self.authority.round
        if rnd is None or rnd.commitment != commitment or rnd.dealt:
            return []
        return list(rnd.waiting_for)

    def _shuffle_notice(self, commitment: bytes) -> None:
        seats = self._awaited(commitment)
        if seats:
            self.emit(shuffle_event([self.authority.seats[s].name for s in seats]))

    def _skip_late(self, commitment: bytes) -> None:
        """The contribution deadline passed: a "skip" entry for each seat still owing."""
        seats = self._awaited(commitment)
        if not seats or self.closing:
            return
        self.emit(shuffle_event([self.authority.seats[s].name for s in seats], skipped=True))
        for seat in seats:
            out = self.authority.skip(seat)
            self._dispatch(out)
            self._changed(out)

    def _all_seated(self) -> bool:
        seats = self.authority.seats
        return len(seats) == self.game.num_players and all(
            i.kind == "bot" or (i.kind == "human" and (i.key == self.key or i.connected
                                   and fingerprint(i.key) in self.links))
            for i in seats.values())

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _later(self, key: tuple, delay: float, fn, *args) -> None:
        self._cancel(key)
        loop = asyncio.get_running_loop()

        def fire():
            self._timers.pop(key, None)
            fn(*args)
        self._timers[key] = loop.call_later(delay, fire)

    def _cancel(self, key: tuple) -> None:
        handle = self._timers.pop(key, None)
        if handle is not None:
            handle.cancel()

    # -- bots -------------------------------------------------------------------------------
    def _controlled(self, seat: int) -> bool:
        info = self.authority.seats.get(seat)
        if info is None or info.key != self.key:
            return False
        return info.kind == "bot" or (seat == self.you and self.autoplay)

    def _schedule_bots(self) -> None:
        state = self.authority.state
        if state is None or state.is_over or self.closing:
            return
        token = self.authority.chain.seq
        loop = asyncio.get_running_loop()
        for seat in state.to_act():
            if self._controlled(seat) and seat not in self._pending:
                self._pending.add(seat)
                loop.call_later(self.bot_delay, self._bot_move, seat, token)

    def _bot(self, seat: int):
        if seat not in self._bots:
            info = self.authority.seats[seat]
            level = info.level or self.bot_levels.get(seat) or self.stand_in_level
            seed = hashlib.sha256(f"{self.table}|bot|{seat}".encode()).digest()
            self._bots[seat] = make_bot(level, seed)
        return self._bots[seat]

    def _bot_move(self, seat: int, token: int) -> None:
        self._pending.discard(seat)
        if self.closing or self._ended:
            return
        state = self.authority.state
        if self.authority.chain.seq != token:
            self._schedule_bots()  # the table moved on meanwhile: decide afresh
            return
        if state is None or state.is_over or seat not in state.to_act() or not self._controlled(seat):
            return
        try:
            action = bot_json(self.game, self._bot(seat), state, seat)
        except Exception:  # noqa: BLE001 - a bot bug must not stop the table (nor be
            log.exception("bot failed")  # put on the person's screen: not their move)
            return
        self._local(seat, action)

    def _local(self, seat: int, action: dict) -> None:
        out = self.authority.act_local(seat, action)
        if out.error:
            if seat == self.you:  # the person's own move (or the headless host's bot)
                self.emit({"type": "error", "message": out.error})
            else:
                log.warning("seat %s's bot move was refused: %s", seat, out.error)
            return
        self._dispatch(out)
        self._changed(out)

    # -- commands (the facade and the CLI) -----------------------------------------------------
    def act(self, action: dict) -> None:
        if self.you is not None:
            self._local(self.you, action)

    def start_game(self) -> None:
        auth = self.authority
        if auth.match is not None and not auth.match.is_over:
            return
        for seat, info in sorted(auth.seats.items()):
            if info.kind == "empty":
                self._dispatch(auth.seat(seat, "bot", name=f"Bot {seat + 1}",
                                         level=self.bot_levels.get(seat, "normal")))
        out = auth.start_game()
        self._dispatch(out)
        self._changed(out)

    def next_hand(self) -> None:
        out = self.authority.next_hand()
        if out.error:
            return
        self._dispatch(out)
        self._changed(out)

    def set_option(self, name: str, value: bool) -> None:
        out = self.authority.set_option(name, value)
        self._dispatch(out)
        self._changed(out)

    def set_seat(self, seat: int, kind: str, level: str | None = None,
                 player: str | None = None) -> None:
        """Before the first deal: a bot of ``level``, nobody, or a joined player (moved
        from their seat, swapping with whoever sits here) in ``seat``. In game: give
        ``seat`` to a waiting player (a lost key)."""
        auth = self.authority
        if kind == "human" and player:
            if auth.match is None:
                self._move_player(seat, player)
            else:
                self.readmit(seat, player)
            return
        if auth.match is not None or seat not in auth.seats or kind not in ("bot", "empty"):
            return
        info = auth.seats[seat]
        if info.kind == "human" and (seat == self.you or fingerprint(info.key) in self.links):
            self.emit({"type": "error", "message": "You are sitting there: sit somewhere else first"
                       if seat == self.you else
                       f"{info.name} is sitting there: move them to another seat first"})
            self._emit_table()  # the setup screen shows the seat as it still is
            return
        if kind == "bot":
            self.bot_levels[seat] = level or "normal"
        else:
            self.bot_levels.pop(seat, None)
        out = auth.seat(seat, kind, name=f"Bot {seat + 1}" if kind == "bot" else "",
                        level=(level or "normal") if kind == "bot" else None)
        self._dispatch(out)
        self._changed(out)

    def sit(self, seat: int) -> None:
        """Before the first deal: the host moves to ``seat``, swapping with whoever is
        there (a player, a bot or nobody)."""
        if self.you is None or self.authority.match is not None or seat == self.you \
                or seat not in self.authority.seats:
            return
        self._swap(self.you, seat)

    def _move_player(self, seat: int, player: str) -> None:
        auth = self.authority
        if seat not in auth.seats:
            return
        if player == self.identity.fingerprint:
            self.sit(seat)
            return
        source = auth.seat_of(player)
        if source is None:
            self.emit({"type": "error", "message": "that player is no longer at the table"})
            self._emit_table()
            return
        if source != seat:
            self._swap(source, seat)

    def _swap(self, a: int, b: int) -> None:
        """Exchange the occupants of seats ``a`` and ``b`` (lobby only), logged as seat
        entries in an order that never shows one key in two seats."""
        auth = self.authority
        first, second = auth.seats[a], auth.seats[b]
        empty = NOBODY
        if first.kind == "human" and second.kind == "human":
            steps = [(a, empty), (b, first), (a, second)]
        elif first.kind == "human":
            steps = [(a, second), (b, first)]
        else:
            steps = [(b, first), (a, second)]
        for seat, info in steps:
            if info.kind == "bot":
                out = auth.seat(seat, "bot", name=f"Bot {seat + 1}", level=info.level)
            elif info.kind == "human":
                out = auth.seat(seat, "human", info.key, info.name)
            else:
                out = auth.seat(seat, "empty")
            self._dispatch(out)
            if out.error:
                break
        self.bot_levels = {s: i.level or "normal" for s, i in auth.seats.items()
                           if i.kind == "bot"}
        self._bots.clear()
        if self.you is not None:
            self.you = next((s for s, i in sorted(auth.seats.items())
                             if i.kind == "human" and i.key == self.key), self.you)
        self._emit_table()
        self._update_advert()
        self._advance()

    def hint(self) -> None:
        """What a "normal" bot would do in the host's seat: a "hint" event."""
        self.emit({"type": "hint", "text": hint_text(self.game, self.authority.state, self.you,
                                                     f"{self.table}|hint|{self.authority.chain.seq}")})

    # -- what the host's own seat sees -----------------------------------------------------------
    def seats_info(self) -> list[dict]:
        seats = []
        for seat in range(self.game.num_players):
            info = self.authority.seats.get(seat, NOBODY)
            key = info.key
            connected = info.kind == "bot" or key == self.key or (
                key is not None and fingerprint(key) in self.links)
            seats.append({"seat": seat, "name": info.name,
                          "fingerprint": fingerprint(key) if key else "", "kind": info.kind,
                          "level": info.level, "connected": bool(connected)})
        return seats

    def _emit_table(self) -> None:
        game = self.game
        self.emit({"type": "table", "seats": self.seats_info(), "you": self.you, "is_host": True,
                   "settings": {**game.key(), "name": self.authority.name},
                   "table_options": {"live_scores": bool(self.authority.options.get("live_scores")),
                                     "game_log": bool(self.authority.options.get("game_log"))},
                   "started": self.authority.match is not None,
                   "waiting": [{"fingerprint": fp, "name": w[1]} for fp, w in self.waiting.items()]})

    def _emit_state(self, events: list) -> None:
        state, match = self.authority.state, self.authority.match
        if state is None or match is None:
            return
        self.emit(state_event(self.game, state, self.you, events, match.scores,
                              match.hand_number + 1))

    def _emit_hand_over(self, signed) -> None:
        body = signed.body
        match = self.authority.match
        self.emit({"type": "hand_over", "result": body["result"], "scores": body["scores"],
                   "record_path": None, "hand": body["hand"],
                   "breakdown": hand_breakdown(match.last_hand if match else None)})
        if body["winner"] is not None:
            self.emit({"type": "game_over", "winner": body["winner"], "scores": body["scores"]})

    # -- discovery --------------------------------------------------------------------------
    def _advert(self) -> TableAdvert:
        game = self.game
        return TableAdvert(name=self.authority.name, game=game.id, ruleset=game.ruleset.id,
                           mode=game.mode or "", host=self.identity.name,
                           fingerprint=self.identity.fingerprint, port=self.port,
                           open_seats=self._open_seats(), in_game=self.authority.match is not None)

    def _open_seats(self) -> int:
        return sum(1 for i in self.authority.seats.values() if i.kind == "empty")

    def _update_advert(self) -> None:
        if self.advertiser is not None and not self.closing:
            self._spawn(self.advertiser.update(open_seats=self._open_seats(),
                                               in_game=self.authority.match is not None))


def _fitting(entries: list[dict], last: bool) -> list[dict]:
    """Sync messages carrying ``entries``, split so each fits in one frame."""
    msg = m.sync_message(entries, last)
    try:
        framing.encode(msg)
        return [msg]
    except ProtocolError:
        if len(entries) <= 1:
            raise
    half = len(entries) // 2
    return _fitting(entries[:half], False) + _fitting(entries[half:], last)
