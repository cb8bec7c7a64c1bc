"""GuestCore: a seat at someone else's table — PeerReplica over a link that comes back.

The guest finds the table (mDNS by name, or an address), connects with the host's key
pinned, sends "join" (its seat and the last entry it holds) and from then on feeds
every entry the host sends to its own ``PeerReplica``, which checks it with the engine
before anything is shown. What the guest does with the results:

* integrity alerts: saved as evidence and reported as the facade's "alert" event; the
  replica halts and this seat stops acting (a headless guest exits non-zero);
* verified hands: a "hand_over" event (with the hand record saved, when there is a
  state directory);
* every accepted batch is acknowledged at once with an "hb" carrying the last verified
  seq, so the host knows what this peer has;
* the seat's decisions: a bot's (headless), or the person's through ``act`` — one at a
  time: nothing more is decided or offered until the host logs or refuses the move in
  flight, and only a refusal of that move reaches the person (others are logged);
* the app's seat is remembered on disk (``last_table.LastTable``) for a rejoin after
  the app or the computer restarts, and forgotten when the table ends or turns us away.

Connection state machine: ``connecting → joined → (dropped → backing off →
connecting)* → ended``. A drop (closed socket, heartbeat silence, garbage from the
other end) leads to reconnection with exponential backoff, to the last known address
or, when the table was found by mDNS, wherever the same host key advertises it now.
On reconnection the "join" names the last entry held, and the host sends only the
suffix. A pin mismatch, a protocol version mismatch or a refusal ends the session with
a message for the person; so does the app's first join when it has not reached the
table within ``FIRST_JOIN_WITHIN`` seconds (what went wrong in plain words).
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import os
import socket
from collections.abc import Callable
from pathlib import Path

from engine import IllegalAction, RecordError
from engine.bots import make_bot
from engine.bots.random_bot import RandomBot

from net.wire import messages as m
from net.wire.address import format_address
from net.trust.alerts import alert_event
from net.constants import FIRST_JOIN_WITHIN, SHUFFLE_NOTICE
from net.wire.framing import ProtocolError
from net.wire.heartbeat import WIRE, Backoff, Link, Timings
from net.trust.authority import repeats
from net.wire.identity import same_fingerprint
from net.sessions.last_table import LastTable
from net.trust.replica import PeerReplica, ReplicaHalted
from net.sessions.events import record_breakdown, state_event
from net.wire.transport import HandshakeError, PinMismatch, VersionMismatch, open_connection

log = logging.getLogger(__name__)

Emit = Callable[[dict], None]

class Fatal(Exception):
    """The session cannot go on (wrong key, wrong version, refused): message for people."""


class GuestCore:
    def __init__(self, identity, *, address: str | None = None, port: int | None = None,
                 fingerprint: str | None = None, table_name: str | None = None,
                 interfaces=None, emit: Emit | None = None, timings: Timings | None = None,
                 bot_level: str | None = None, state_dir: str | os.PathLike | None = None,
                 seat: int | None = None, bot_delay: float = 0.0, stop_on_alert: bool = False,
                 discover_timeout: float = 30.0, claim: tuple[int, int] | None = None,
                 give_up: int | None = None, remember: LastTable | None = None,
                 call_later: Callable | None = None):
        self.identity = identity
        # Timers (a bot's thinking pause, the shuffle notice) go through this, so the
        # core can be driven message by message without an event loop in tests.
        self.call_later = call_later or (
            lambda delay, fn, *args: asyncio.get_running_loop().call_later(delay, fn, *args))
        self.address, self.port, self.fingerprint = address, port, fingerprint
        self.table_name = table_name
        self.interfaces = interfaces
        self.emit: Emit = emit or (lambda event: None)
        self.timings = timings or Timings()
        self.bot = make_bot(bot_level, identity.public_key) if bot_level else None
        self.state_dir = Path(state_dir) if state_dir else None
        self.wanted_seat = seat
        self.bot_delay = bot_delay
        self.stop_on_alert = stop_on_alert
        self.discover_timeout = discover_timeout
        self.claim = claim  # tests: ask for (seat, last_seq) this key does not hold
        # The app: stop after this many failed connection attempts in a row (a few
        # before the first join) and say the host is gone; None: keep trying (headless).
        self.give_up = give_up
        self.remember = remember  # the app: where this seat is, for a rejoin after a restart
        self._remembered: dict | None = None
        self._host_name = ""
        self._deadline: float | None = None  # the app's first join gives up by then
        self._attempt: asyncio.Future | None = None
        self.replica: PeerReplica | None = None
        self.host_key: bytes | None = None
        self.table: str | None = None
        self.link: Link | None = None
        self.browser = None
        self.tables: list[dict] = []
        self.alerts: list[dict] = []
        self.verified: list[dict] = []
        self.errors: list[str] = []
        self.reconnects = 0
        self.end: dict | None = None
        self.fatal: str | None = None
        self.done = asyncio.Event()
        self.joined = asyncio.Event()
        self._acted: int | None = None
        # The log position our last action was sent at, until the host logs it or
        # refuses it: meanwhile this seat decides nothing more (a Rook "Got it" sent
        # while someone else's is logged must not go twice).
        self._in_flight: int | None = None
        self._stopping = False
        self._was_joined = False

    # -- the connection state machine ------------------------------------------------------
    async def run(self) -> dict:
        """Play until the table ends, an alert stops us, or ``stop``; the summary."""
        try:
            await self._locate()
            if self.give_up is not None:
                self._deadline = asyncio.get_running_loop().time() + FIRST_JOIN_WITHIN
            backoff = Backoff(self.timings)
            while not self._finished():
                try:
                    conn = await self._connect()
                except asyncio.CancelledError:
                    if self._stopping:
                        break  # Cancel while connecting
                    raise
                except (PinMismatch, VersionMismatch) as exc:
                    raise Fatal(str(exc)) from None
                except (HandshakeError, OSError, TimeoutError, ProtocolError) as exc:
                    self._failed_attempt(backoff, plain_problem(exc))
                    await self._pause(self._before_deadline(backoff.next()))
                    continue
                backoff.reset()
                self.fingerprint = self.fingerprint or conn.peer_fingerprint
                reason = await self._session(conn)
                if self._finished():
                    break
                self.reconnects += 1
                log.info("the link to the host ended: %s", reason)
                self.emit(self._reconnecting("The connection to the table dropped. Trying again…", 0))
                await self._pause(backoff.next())
                self._relocate()
            self._closed_by_host()
        except Fatal as exc:
            self.fatal = str(exc)
            self.emit({"type": "error", "message": self.fatal, "fatal": True})
        finally:
            await self._stop_browser()
            self.done.set()
        return self.summary()

    async def _connect(self):
        """One connection attempt (TCP, TLS, the Parlour handshake); ``stop`` cancels it."""
        self._attempt = asyncio.ensure_future(open_connection(
            self.address, self.port, self.identity, self.fingerprint, schemas=WIRE,
            timeout=self._before_deadline(self.timings.connect)))
        try:
            return await self._attempt
        finally:
            self._attempt = None

    def _before_deadline(self, seconds: float) -> float:
        """``seconds``, cut to what is left of the first join's time (not after it)."""
        if self._was_joined or self._deadline is None:
            return seconds
        left = self._deadline - asyncio.get_running_loop().time()
        return max(0.05, min(seconds, left))

    def _reconnecting(self, detail: str, attempt: int) -> dict:
        """Our own reconnection progress: ``attempt`` of ``attempts`` (None: no limit)."""
        return {"type": "connection", "seat": self._seat(), "state": "reconnecting",
                "detail": detail, "attempt": attempt, "attempts": self.give_up}

    def _failed_attempt(self, backoff: Backoff, problem: str) -> None:
        """A connection attempt failed: report it, or give up (the app's limit)."""
        failed = backoff.attempts + 1
        where = format_address(self.address, self.port)
        if not self._was_joined:
            late = self._deadline is not None and \
                asyncio.get_running_loop().time() >= self._deadline - 0.05
            if self.give_up is not None and (failed >= min(self.give_up, 3) or late):
                raise Fatal(f"Couldn't reach the table at {where}: {problem}. The host may "
                            "have closed it, or the address is wrong.")
            return
        if self.give_up is not None and failed >= self.give_up:
            raise Fatal(f"The host stopped answering ({problem}; tried {failed} times). "
                        "The table may have closed.")
        self.emit(self._reconnecting(f"Trying to reach the host at {where} again… ({problem})",
                                     failed))

    def _closed_by_host(self) -> None:
        """The host ended the table before the game was over (it left): say so."""
        r = self.replica
        if self.end is not None and not self._stopping and r is not None and r.winner is None \
                and r.halted is None:
            self.emit({"type": "error", "fatal": True,
                       "message": f"The host closed the table ({self.end['reason']})."})

    def _finished(self) -> bool:
        return self._stopping or self.fatal is not None or self._ended() or (
            self.stop_on_alert and bool(self.alerts))

    def _ended(self) -> bool:
        return self.end is not None and self.replica is not None \
            and self.replica.seq >= self.end["head"]

    async def _pause(self, delay: float) -> None:
        try:
            await asyncio.wait_for(self._wake.wait(), delay)
        except TimeoutError:
            pass

    @property
    def _wake(self) -> asyncio.Event:
        if not hasattr(self, "_wake_event"):
            self._wake_event = asyncio.Event()
        return self._wake_event

    async def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        if self._attempt is not None:
            self._attempt.cancel()
        if self.link is not None:
            self.link.close("left the table")

    async def _session(self, conn) -> str:
        replica = self.replica
        seat = replica.seat if replica is not None else None
        last = replica.seq if replica is not None else -1
        if self.claim is not None:
            seat, last = self.claim
        join = {"type": "join", "name": self.identity.name, "last_seq": last,
                "seat": seat if seat is not None else self.wanted_seat}
        link = Link(conn, self.timings, self._on_message,
                    position=lambda: self.replica.seq if self.replica else -1,
                    on_hb=self._on_host_head)
        self.link = link
        link.send(join)
        try:
            return await link.run()
        finally:
            self.link = None

    # -- finding the table --------------------------------------------------------------------
    async def _locate(self) -> None:
        if self.address is not None:
            return
        from net.discovery import TableBrowser
        self.browser = TableBrowser(interfaces=self.interfaces, on_change=self._on_tables)
        await self.browser.start()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.discover_timeout
        while self._pick() is None:
            if loop.time() > deadline:
                raise Fatal(f"no table named {self.table_name!r} was found" if self.table_name
                            else "no table was found on the network")
            await asyncio.sleep(0.02)
        self._relocate()

    def _on_tables(self, tables: list[dict]) -> None:
        self.tables = tables
        self.emit({"type": "tables", "tables": tables})

    def _pick(self) -> dict | None:
        for table in self.tables:
            if self.fingerprint is not None:
                if same_fingerprint(table["fingerprint"], self.fingerprint):
                    return table
            elif self.table_name is None or table["name"] == self.table_name:
                return table
        return None

    def _relocate(self) -> None:
        """Where the host (by key, once known) advertises its table now."""
        table = self._pick() if self.browser is not None else None
        if table is not None:
            self.address, self.port = table["address"], table["port"]
            self.fingerprint = table["fingerprint"]

    async def _stop_browser(self) -> None:
        if self.browser is not None:
            await self.browser.stop()
            self.browser = None

    # -- messages from the host ------------------------------------------------------------------
    def _on_message(self, msg: dict) -> None:
        kind = msg["type"]
        if kind == "joined":
            self._on_joined(msg)
        elif kind == "end":
            self.end = {"reason": msg["reason"], "head": msg["head"]}
            self._forget()
            self._check_end()
        elif kind == m.REFUSED:
            raise_fatal = f"The host refused: {msg['reason']}"
            self._forget()
            self.fatal = raise_fatal
            self.emit({"type": "error", "message": raise_fatal, "fatal": True})
            if self.link is not None:
                self.link.close(raise_fatal)
        elif kind in (m.ENTRY, m.SYNC, m.ERROR):
            self._from_host(msg)
        else:
            self.link.reject(f"unexpected message {kind!r}")

    def _on_joined(self, msg: dict) -> None:
        key = self.link.conn.peer_key
        if self.replica is None or self.replica.table != msg["table"] or self.host_key != key:
            self.host_key, self.table = key, msg["table"]
            self.replica = PeerReplica(self.identity, key, msg["table"],
                                       deadline=self.timings.contribution,
                                       slack=self.timings.contribution_slack)
        self._host_name = self.link.conn.peer_name
        self._was_joined = True
        self._acted = None  # a move sent on the old link may never have arrived
        self._in_flight = None  # if it was logged, the sync shows it
        self.joined.set()
        self.emit({"type": "connection", "seat": msg["seat"], "state": "connected",
                   "detail": f"joined {self.table} at entry {msg['head']}"})

    def _from_host(self, msg: dict) -> None:
        if self.replica is None:
            if msg["type"] == m.ERROR:
                # Turned away before taking a seat (the table is full, or closing): the
                # same answer would come again, so stop here with the host's reason.
                self.errors.append(msg["reason"])
                self._forget()
                self.fatal = f"The host turned you away: {msg['reason']}."
                self.emit({"type": "error", "message": self.fatal, "fatal": True})
                self.link.close(self.fatal)
                return
            self.link.reject("entries before 'joined'")
            return
        was_seat = self.replica.seat
        was_names = {s: i["name"] for s, i in self.replica.seats.items()}
        out = self.replica.receive(msg)
        for reply in out.sends:
            self.link.send(reply)
        for reason in out.errors:
            self._refused(reason)
        self._raise_alerts(out)
        if out.accepted:
            self.link.send({"type": "hb", "seq": self.replica.seq})
            self._settle(out.accepted)
            self._report(out.accepted, was_seat, was_names)
            self._remember()
        for hand in out.verified:
            self._hand_verified(hand)
        if self.alerts and self.stop_on_alert and self.link is not None:
            self.link.close("stopped at an integrity alert")
        self._check_end()
        self._maybe_act()

    def _on_host_head(self, seq: int, head: bytes | None) -> None:
        """The host's heartbeat: its log's head, checked against what it sent us."""
        if self.replica is None or head is None:
            return  # not joined yet (the host sends nothing before "joined")
        self._raise_alerts(self.replica.check_head(seq, head))

    def _raise_alerts(self, out) -> None:
        for alert in out.alerts:
            event = alert_event(alert, self._dir("evidence"))
            self.alerts.append(event)
            self.emit(event)
        if out.alerts and self.stop_on_alert and self.link is not None:
            self.link.close("stopped at an integrity alert")

    def _refused(self, reason: str) -> None:
        """An error from the host (or junk our replica rejected). Only a refusal of this
        seat's own move in flight is the person's business; anything else is logged."""
        self.errors.append(reason)
        if self._in_flight is None:
            log.warning("the host reported a problem that was not about our move: %s", reason)
            return
        self._in_flight = None
        self._acted = None  # our move was refused: decide again
        self.emit({"type": "error", "message": reason})
        if self.replica is not None and self.replica.scores is not None:
            self.emit(self.state_event([]))  # the decision is offered again

    def _settle(self, accepted: list[dict]) -> None:
        """Our move in flight is settled once the host logs it (or the hand moves on)."""
        if self._in_flight is None:
            return
        seat = self._seat()
        for a in accepted:
            entry = a["entry"]["entry"]
            if entry["kind"] in ("deal", "hand_end", "start") or (
                    entry["kind"] == "action"
                    and entry["body"]["signed"]["body"]["action"].get("seat") == seat):
                self._in_flight = None
                return

    # -- where we sit, for a rejoin after a restart -----------------------------------------------
    def _remember(self) -> None:
        """Keep the table's whereabouts and our seat on disk while we hold the seat."""
        r = self.replica
        if self.remember is None or r is None or r.game is None or r.seat is None:
            return
        record = {"address": self.address, "port": self.port, "fingerprint": self.fingerprint,
                  "table": r.table, "name": self.table_name or self._table_name(),
                  "host": self._host_name, "game": r.game.id, "mode": r.game.mode,
                  "seat": r.seat, "players": r.game.num_players, "side": r.game.side_of(r.seat),
                  "hand": r.hand_number + 1, "scores": list(r.scores or []),
                  "started": r.scores is not None}
        if record != self._remembered:
            self._remembered = record
            self.remember.save(record)

    def _forget(self) -> None:
        """The table ended or turned us away: nothing to rejoin."""
        if self.remember is not None:
            self.remember.forget(self.table)
            self._remembered = None

    def _check_end(self) -> None:
        if self._ended() and self.link is not None:
            self.link.close("the table ended")

    def _dir(self, name: str) -> Path | None:
        return self.state_dir / name if self.state_dir is not None else None

    # -- what the person (or bot) sees ---------------------------------------------------------
    def _seat(self) -> int | None:
        return self.replica.seat if self.replica is not None else None

    def _report(self, accepted: list[dict], was_seat, was_names: dict) -> None:
        kinds = {a["entry"]["entry"]["kind"] for a in accepted}
        self._others_connection(accepted, was_names)
        self._watch_shuffles(accepted)
        if kinds & {"seat", "drop", "rejoin", "start", "option", "table"} or was_seat != self._seat():
            self.emit(self.table_event())
        if kinds & {"deal", "action"}:
            events = [e for a in accepted for e in a["events"]]
            self.emit(self.state_event(events))

    def _watch_shuffles(self, accepted: list[dict]) -> None:
        """Once the deal has waited a while for other players' shuffles, say whose."""
        rnd = self.replica.round
        if rnd is None or rnd.dealt or not any(
                a["entry"]["entry"]["kind"] == "commit" for a in accepted):
            return
        self.call_later(SHUFFLE_NOTICE, self._shuffle_notice, rnd.commitment)

    def _shuffle_notice(self, commitment: bytes) -> None:
        from net.sessions.events import shuffle_event
        r = self.replica
        rnd = r.round if r is not None else None
        if rnd is None or rnd.commitment != commitment or rnd.dealt or r.halted is not None:
            return
        names = [r.seats[s]["name"] for s in rnd.waiting_for if s != r.seat]
        if names:
            self.emit(shuffle_event(names))

    def _others_connection(self, accepted: list[dict], was_names: dict) -> None:
        """Other players dropping and coming back (or a bot standing in, or their seat
        given to a new key), in game."""
        from net.sessions.events import readmitted_event
        r = self.replica
        if r.scores is None:
            return
        for a in accepted:
            entry = a["entry"]["entry"]
            seat = entry["body"].get("seat") if isinstance(entry["body"], dict) else None
            if seat is None or seat == r.seat:
                continue
            name = r.seats.get(seat, {}).get("name") or f"seat {seat + 1}"
            if entry["kind"] == "seat" and entry["body"].get("readmit"):
                self.emit(readmitted_event(seat, was_names.get(seat) or name, entry["body"]["key"]))
            elif entry["kind"] == "drop":
                self.emit({"type": "connection", "seat": seat, "state": "dropped",
                           "detail": f"{name} lost the connection. Their seat is held for them."})
            elif entry["kind"] == "rejoin":
                self.emit({"type": "connection", "seat": seat, "state": "connected", "detail": ""})
            elif entry["kind"] == "seat" and entry["body"]["kind"] == "bot":
                self.emit({"type": "connection", "seat": seat, "state": "stand_in",
                           "detail": f"a bot plays for {name} until they come back"})
            elif entry["kind"] == "seat" and entry["body"]["kind"] == "human":
                self.emit({"type": "connection", "seat": seat, "state": "connected", "detail": ""})

    def hint(self) -> None:
        """What a "normal" bot would do in this seat, from our own view: a "hint" event."""
        from net.sessions.events import hint_text
        r = self.replica
        if r is None or r.view is None or r.halted is not None:
            text = "Nothing to decide just now."
        else:
            text = hint_text(r.game, r.view, r.seat, f"{r.table}|hint|{r.seq}")
        self.emit({"type": "hint", "text": text})

    def table_event(self) -> dict:
        r = self.replica
        from net.wire.identity import fingerprint
        seats = []
        for seat in range(r.game.num_players if r.game else 0):
            info = r.seats.get(seat, {"kind": "empty", "key": None, "name": "", "connected": False})
            key = info["key"]
            seats.append({"seat": seat, "name": info["name"], "kind": info["kind"],
                          "fingerprint": fingerprint(key) if isinstance(key, bytes) and len(key) == 32 else "",
                          "level": info.get("level") if info["kind"] == "bot" else None,
                          "connected": bool(info["connected"])})
        settings = dict(r.game.key()) if r.game else {}
        return {"type": "table", "seats": seats, "you": r.seat, "is_host": False,
                "settings": {**settings, "name": self.table_name or self._table_name()},
                "table_options": {"live_scores": bool(r.options.get("live_scores")),
                                  "game_log": bool(r.options.get("game_log"))},
                "started": r.scores is not None}

    def _table_name(self) -> str:
        """The name in the table entry (seq 0), when we joined by address."""
        try:
            return str(self.replica.log[0]["entry"]["body"].get("name") or "")
        except (IndexError, KeyError, AttributeError, TypeError):
            return ""

    def _shadow_state(self):
        hand = self.replica.hand
        if hand is None or "shadow" not in hand or hand["end"] is not None:
            return None
        return hand["shadow"].state

    def state_event(self, events: list) -> dict:
        r = self.replica
        state = self._shadow_state()
        if state is None or self._in_flight is not None:
            # Between hands, or our move is on its way: nothing to decide now.
            return {"type": "state", "view": r.view, "events": list(events),
                    "scores": list(r.scores or []), "hand_number": r.hand_number + 1, "legal": []}
        return state_event(r.game, state, r.seat, events, r.scores or [], r.hand_number + 1,
                           view=r.view)

    def _hand_verified(self, hand: dict) -> None:
        self.verified.append({"hand": hand["hand"], "scores": hand["scores"],
                              "deferred": len(hand["deferred"])})
        path = None
        records = self._dir("records")
        if records is not None and hand.get("record") is not None:
            records.mkdir(parents=True, exist_ok=True)
            path = records / f"{_safe(self.table)}-hand{hand['hand']}.json"
            path.write_text(json.dumps(hand["record"], indent=1))
        self.emit({"type": "hand_over", "result": hand["result"], "scores": hand["scores"],
                   "record_path": str(path) if path else None, "hand": hand["hand"],
                   "breakdown": record_breakdown(hand.get("record"))})
        if hand["winner"] is not None:
            self.emit({"type": "game_over", "winner": hand["winner"], "scores": hand["scores"]})

    # -- this seat's decisions --------------------------------------------------------------------
    def _my_turn(self) -> bool:
        r = self.replica
        if r is None or r.halted is not None or r.seat is None or r.view is None:
            return False
        return self._shadow_state() is not None and r.seat in (r.view.get("to_act") or [])

    def _maybe_act(self) -> None:
        if self.bot is None or self.link is None or self._in_flight is not None \
                or not self._my_turn():
            return
        token = self.replica.seq
        if self._acted == token:
            return
        self._acted = token
        self.call_later(self.bot_delay, self._bot_move, token)

    def _bot_move(self, token: int) -> None:
        r = self.replica
        if self.link is None or r is None or r.seq != token or not self._my_turn():
            return
        try:
            data = self._bot_choice()
            self._send_action(data)
        except (IllegalAction, ReplicaHalted) as exc:
            self.emit({"type": "error", "message": f"the bot's move was refused: {exc}"})
        except Exception as exc:  # noqa: BLE001 - a bot bug must not kill the session
            log.exception("bot failed")
            self.emit({"type": "error", "message": f"the bot failed: {exc!r}"})

    def _bot_choice(self) -> dict:
        r = self.replica
        if isinstance(self.bot, RandomBot) and r.hand.get("me") == r.seat:
            action = self.bot.choose(self._shadow_state(), r.seat)
        elif isinstance(self.bot, RandomBot):
            # Seated mid-hand (re-admitted): the shadow deal does not hold this seat's
            # real cards, so decide from the view the host sent instead.
            action = make_bot("easy", self.identity.public_key).choose(r.game, r.view)
        else:
            action = self.bot.choose(r.game, r.view)
        data = r.game.action_to_json(action)
        data.pop("seat", None)
        return data

    def _signed(self, data: dict) -> dict:
        """The signed action message, checked on our replica first where it can be."""
        r = self.replica
        if r.hand is None or r.hand.get("me") == r.seat or r.halted is not None:
            return r.act(data)
        # Re-admitted mid-hand: the shadow deal was built before this key held the
        # seat and does not know its cards, so the host's check is the live one (and
        # the reveal checks the whole hand as usual).
        game = r.game
        try:
            parsed = game.action_from_json({**data, "seat": r.seat})
        except RecordError as exc:
            raise IllegalAction(str(exc)) from None
        full, public = game.action_to_json(parsed), game.action_to_json(parsed, public=True)
        private = hidden = None
        if public != full:
            nonce = os.urandom(m.NONCE_BYTES)
            hidden = m.hidden_digest(nonce, full)
            private = {"action": full, "nonce": nonce}
        body = m.action_body(r.table, r.hand_number, r.chain.seq, r.chain.head, public, hidden)
        return m.action_message(m.seal(self.identity, m.ACTION_DOMAIN, body), private)

    def act(self, data: dict) -> None:
        """The person's decision (hand-record form, no seat)."""
        r = self.replica
        if r is None or self.link is None:
            self.emit({"type": "error", "message": "not connected to the table right now"})
            return
        if self._in_flight is not None:
            return  # a second click while the first move is on its way: it is that move
        if r.seat is not None and repeats(r.game, self._shadow_state(), r.seat, data):
            return  # a second "Got it" once the first is logged: changes nothing
        try:
            self._send_action(dict(data))
        except (IllegalAction, ReplicaHalted) as exc:
            self.emit({"type": "error", "message": str(exc)})

    def _send_action(self, data: dict) -> None:
        """Sign and send one decision; nothing more is decided until it is settled."""
        self.link.send(self._signed(data))
        self._in_flight = self.replica.seq

    # -- the end -----------------------------------------------------------------------------------
    def summary(self) -> dict:
        r = self.replica
        return {"table": self.table, "seat": r.seat if r else None,
                "hands_verified": len(self.verified), "verified": self.verified,
                "alerts": self.alerts, "head": r.seq if r else -1,
                "scores": list(r.scores) if r and r.scores else None,
                "winner": r.winner if r else None, "reconnects": self.reconnects,
                "ended": self.end, "fatal": self.fatal, "errors": self.errors[-5:],
                "error_count": len(self.errors)}


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


def _safe(text: str | None) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in (text or "table"))[:60]
