"""Watchers: people at the table who do not play — the host's side.

A watcher connects as a player does (TLS with the host's key pinned, its own key proven in
the handshake) and asks in its "join" to watch (``watch: true``). This part decides and
then keeps it:

* **Admission** (``join``): refused, with the reason in words, when the host has turned
  watching off, when the table has as many watchers as the host allows (``WatchPolicy``:
  8 by default), or when the key holds a seat here (it plays: it rejoins its seat). A
  watcher back on a new connection takes its place again (no second place).
* **What it is sent**: "joined" with no seat and ``watch: true``, then the whole log as
  anyone may see it — every entry with its events and the public view after it, nothing
  private (``Archive.public_sync``) — and from then on every entry so (``publish``), on an
  ``Outbox`` of its own: once and in order, a gap filled by a sync, acknowledgements
  kept. Its client checks every entry as a seated player's does; it is one more auditor.
* **Players first**: a new entry goes to the watchers once every player here holds it
  (has acknowledged it: ``players_hold``), or ``PLAYERS_FIRST`` seconds after it was
  logged, whichever comes first — never before the last "end" or a handover. Each entry
  is made, signed and encoded once for all of them (``framing.Framed``): what a watcher
  adds per entry is a write of the same bytes (a watcher acknowledges in its heartbeat,
  every second, not per entry: nothing here needs its position sooner). The host's
  work for its watchers (a message made, written to every watcher's link) is then done
  while the players wait for the next move, not while the host waits for their
  acknowledgements: a player's move takes no longer however many watch.
* **A private deal once it is dealt** (``dealing``): the deal's own entries, from
  ``mental-deal`` until ``mental-dealt``, are held until it is dealt and go together, in
  one sync (or as few as fit a frame): none of the host's work for its watchers falls
  inside the deal, where its own seat shuffles. Anything else logged meanwhile (a drop,
  a restart) takes the deal's entries before it along; the end or a handover takes
  them all. The seeded deal has no such entries.
* **Who watches** (``watchers`` message) goes to every player and every watcher whenever
  it changes, with the host's settings (a player who carries the table on keeps them)
  and whose hands each watcher is shown; the players' standby addresses (``roster``) go
  to each watcher too, so that it can follow the table if its host leaves for good.
* **A shown hand** (``relay``): a seated player's "show" — its hand sealed for one
  watcher (``net.trust.shown``), which this host cannot open — goes to that watcher
  alone, as "shown".
* **What a watcher may send**: only what ``handlers`` takes — table talk ("talk", which
  the host checks and relays as anyone's), none of the game's own. A move, a deal message, a standing or anything else is
  refused, the watcher named to the host's person and sent away (``_refuse``).
* **Back after the end** (``arrived_after_end``): a watcher whose link dropped while the
  table was ending comes back to see how it ended, as a player does (``ending``): what it
  lacks of the log, then the same "end", and it hangs up. Only one this host admitted
  and did not send away; anyone else asking to watch then is refused (``ENDED``).
* **Bounds**: a watcher's link holds at most ``WATCHER_BACKLOG`` messages unsent — one
  that stops reading is dropped, as a silent one is by its heartbeat — and watchers do
  not count among the connections without a seat (``admission``): the cap bounds them.

Sans-I/O but for the links it is handed (anything with ``send``, ``reject``, ``finish``,
``close`` and a ``conn`` with ``peer_name`` and ``ticket``), as ``arrivals`` is. Wired to
the table's ``authority`` (a getter), the host's ``key``, the ``admission`` caps, the
players' links (``players``: the main outbox's), the ``roster``, ``emit``, and ``changed``
(who watches changed: the host's person is told, and its own hand shown again).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Protocol

from net.constants import MAX_WATCHERS, PLAYERS_FIRST, WATCHER_BACKLOG
from net.sessions.clock import Timers
from net.sessions.events import connection_event, watchers_event
from net.sessions.facade import EventCallback, WatchersEvent
from net.sessions.opened import chain_of
from net.sessions.outbox import Outbox, fitting
from net.trust.deals.mental import log as ml
from net.trust.entries import TableBody
from net.trust.host.authority import HostAuthority
from net.trust.shown import MAX_SEALED
from net.wire import messages as m
from net.wire.framing import Framed
from net.wire.identity import clean_name, fingerprint

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WatchPolicy:
    """The host's settings for watchers: whether anyone may watch, and how many at once."""

    open: bool = True
    cap: int = MAX_WATCHERS

    def wire(self) -> dict:
        return {"open": self.open, "cap": self.cap}

    @classmethod
    def from_wire(cls, message: dict) -> "WatchPolicy":
        """The settings a "watchers" message carries (a player keeps them for a takeover)."""
        return cls(bool(message.get("open", True)), max(0, int(message.get("cap", MAX_WATCHERS))))


class WatcherLink(Protocol):
    """A watcher's link, as this part uses it (``heartbeat.Link``)."""
    max_backlog: int | None

    @property
    def closed(self) -> bool: ...

    def send(self, msg: dict) -> None: ...
    def reject(self, reason: str) -> None: ...
    def finish(self) -> None: ...
    def close(self, reason: str) -> None: ...


@dataclass(frozen=True)
class Watcher:
    """One watcher here: its key's fingerprint, its key, its name, its link."""

    fp: str
    key: bytes
    name: str
    link: WatcherLink


#: What a watcher is told when it is refused, removed, or the host stops watching.
CLOSED = "The host has turned watching off at this table."
FULL = "This table already has {cap} watchers, as many as its host allows."
SEATED = "You have a seat at this table: rejoin it to play (a player cannot watch too)."
REMOVED = "The host asked you to stop watching."
NO_PLAY = "You are watching this table: watchers {what}, so your {kind!r} was refused."
ENDED = "This table has ended: there is no game left to watch."

#: What a refused message was, in words (the rest: "send that").
WHAT = {"action": "do not play", "contribution": "take no part in the deal",
        "mental": "take no part in the deal", "standing": "do not carry the table on",
        "show": "have no hand to show", "tail": "hold no log for the host"}


def _send_away(link: WatcherLink, reason: str) -> None:
    """A watcher sent away: "refused" (not an "error", which a client takes for a dropped
    link it may come back on), then the link ends."""
    link.send(m.refused_message(reason))
    link.finish()


#: The timer under which entries held for the players first wait (``Timers`` key).
HELD = ("watchers", "players first")

#: A private deal's own entries: from its start (or restart) until it is dealt, its
#: players' shuffles and shares (``net.trust.deals.mental.log``).
DEAL_OPENS = {ml.DEAL, ml.RESTART}
DEAL_OWN = {ml.DEAL, ml.MESSAGE}


def dealing(log, seq: int) -> bool:
    """Whether entry ``seq`` of ``log`` is one of a private deal's own (``mental-deal``,
    a ``mental`` deal message) before it is dealt — the watchers see those once it is:
    ``mental-dealt``. A restart is told as it comes (so is a ``mental`` entry of a hand
    being played: a reveal, a move's proof); the seeded deal has none of these."""
    if log[seq].kind not in DEAL_OWN:
        return False
    for before in range(seq, -1, -1):  # (back to the deal's start: a few dozen entries)
        kind = log[before].kind
        if kind in DEAL_OPENS:
            return True
        if kind == ml.DEALT:
            return False
    return False


def _runs(seqs: list[int], batched: Callable[[int], bool]) -> list[tuple[list[int], bool]]:
    """``seqs`` in order, cut into runs alike under ``batched``: [(run, batched), …]."""
    runs: list[tuple[list[int], bool]] = []
    for seq in seqs:
        if runs and runs[-1][1] == batched(seq):
            runs[-1][0].append(seq)
        else:
            runs.append(([seq], batched(seq)))
    return runs


class Watchers:
    def __init__(self, authority: Callable[[], HostAuthority], key: bytes, admission, *,
                 players: Callable[[], Iterable], roster, emit: EventCallback,
                 players_hold: Callable[[int], bool] = lambda seq: True,
                 timers: Timers | None = None, policy: WatchPolicy | None = None, tamper=None,
                 changed: Callable[[], None] = lambda: None):
        self._authority, self.key, self.admission = authority, key, admission
        self._players, self.roster, self._emit = players, roster, emit
        self._players_hold = players_hold  # seq -> whether every player here has acknowledged it
        self._timers = timers or Timers()
        self._held: list[int] = []  # entries logged, not yet sent to the watchers (players first)
        self._dealing: set[int] = set()  # of those, a private deal's own, before it is dealt
        self._changed = changed  # who watches changed: the host's person is told, and shown to
        self.policy = policy or WatchPolicy()
        self.outbox = Outbox(self._sync_for, tamper)  # the watchers' own: entries once, in order
        self.here: dict[str, Watcher] = {}  # fingerprint -> watcher, in order of arrival
        # who watched here and was not sent away: let back after the end to see it
        self.watched: set[str] = set()
        self.ending: dict | None = None  # the "end" the watchers were told (``end``)
        self.shown: dict[int, set[bytes]] = {}  # seat -> the watchers its player shows its hand to
        # What a watcher may send besides heartbeats, by type (the host adds table talk's):
        # fn(watcher, message).
        self.handlers: dict[str, Callable[[Watcher, dict], None]] = {}

    # -- who is here ---------------------------------------------------------------------------
    def holds(self, fp: str, link=None) -> bool:
        """Whether ``fp`` watches here (on ``link``, when given)."""
        watcher = self.here.get(fp)
        return watcher is not None and (link is None or watcher.link is link)

    def links(self) -> list:
        return [w.link for w in self.here.values()]

    def keys(self) -> set[bytes]:
        return {w.key for w in self.here.values()}

    def names(self) -> list[tuple[bytes, str]]:
        """Each watcher's key and name (who may talk: ``talk.speakers``)."""
        return [(w.key, w.name) for w in self.here.values()]

    def room(self) -> bool:
        """Whether one more may watch now (the lobby's *Watch*)."""
        return self.policy.open and len(self.here) < self.policy.cap

    # -- arriving -------------------------------------------------------------------------------
    def join(self, fp: str, key: bytes, name: str, link, join: dict) -> bool:
        """A connection's "join" that asks to watch: admitted (True) or refused, saying why."""
        refusal = self._refusal(fp, key)
        if refusal is not None:
            link.reject(refusal)
            self._emit(connection_event(None, "refused", f"{clean_name(name)} ({fp}) asked to "
                                        f"watch: {refusal}"))
            return False
        self._admit(fp, key, name, link, join)
        return True

    def arrived_after_end(self, fp: str, key: bytes, name: str, link, join: dict) -> bool:
        """A "join" that asks to watch once the table has ended: a watcher that watched it
        here (its link dropped while the table was ending) is let back to see how it ended
        — what it lacks of the log, then the "end" the others were told — as a player is
        (``ending``); anyone else is refused, told the table has ended (a "refused": the
        same answer would come again). Whether it was let back."""
        refusal = ENDED if self.ending is None or fp not in self.watched \
            else self._refusal(fp, key)
        if refusal is not None:
            _send_away(link, refusal)
            self._emit(connection_event(None, "refused", f"{clean_name(name)} ({fp}) asked to "
                                        f"watch: {refusal}"))
            return False
        self._admit(fp, key, name, link, join)
        link.send(self.ending)
        return True

    def _admit(self, fp: str, key: bytes, name: str, link, join: dict) -> None:
        """``fp`` watches here now: sent "joined" and what it lacks of the log."""
        old = self.here.pop(fp, None)
        if old is not None and old.link is not link:
            old.link.close("replaced by a new connection from the same key")
        if link.conn.ticket is not None:
            self.admission.seat(link.conn.ticket)  # bounded by the cap now, not the waiting room's
        link.max_backlog = WATCHER_BACKLOG
        self.here[fp] = Watcher(fp, key, clean_name(name), link)
        self.watched.add(fp)
        auth = self._authority()
        held = join.get("table") == auth.table and join.get("last_seq", -1) >= 0
        has = min(join["last_seq"], chain_of(auth).seq) if held else -1
        self.outbox.attach(fp, link, has)
        link.send(self.joined_message())
        for sync in auth.archive.public_sync(has):
            self.outbox.send(fp, sync)
        self.roster.tell(link)
        self.tell_everyone()

    def _refusal(self, fp: str, key: bytes) -> str | None:
        if not self.policy.open:
            return CLOSED
        auth = self._authority()
        if key == self.key or auth.seats.held_by(key) is not None:
            return SEATED
        if fp not in self.here and len(self.here) >= self.policy.cap:
            return FULL.format(cap=self.policy.cap)
        return None

    def joined_message(self) -> dict:
        auth = self._authority()
        joined: dict = {"type": "joined", "table": auth.table, "seat": None,
                        "head": chain_of(auth).seq, "watch": True}
        origin = auth.log[0].entry.body_as(TableBody).host_key
        if origin != self.key:  # a table carried on: who opened it
            joined["origin"] = origin
        return joined

    # -- leaving ---------------------------------------------------------------------------------
    def ended(self, fp: str, link) -> bool:
        """``link`` ended: True if it was a watcher's (the others are told it left)."""
        if not self.holds(fp, link):
            return False
        del self.here[fp]
        self.outbox.detach(fp, link)
        self.tell_everyone()
        return True

    def remove(self, fp: str, reason: str = REMOVED) -> bool:
        """The host person sends a watcher away (or the host's settings do)."""
        watcher = self.here.pop(fp, None)
        if watcher is None:
            return False
        self.watched.discard(fp)
        self.outbox.detach(fp, watcher.link)
        _send_away(watcher.link, reason)
        self.tell_everyone()
        return True

    def set_policy(self, policy: WatchPolicy) -> None:
        """The host person's settings: watching off sends every watcher away; a lower cap,
        the latest to come."""
        self.policy = replace(policy, cap=max(0, policy.cap))
        if not self.policy.open:
            for fp in list(self.here):
                self.remove(fp, CLOSED)
        while len(self.here) > self.policy.cap:
            self.remove(list(self.here)[-1], FULL.format(cap=self.policy.cap))
        self.tell_everyone()

    def close_all(self, reason: str) -> None:
        for watcher in list(self.here.values()):
            watcher.link.close(reason)

    def end(self, message: dict) -> None:
        """The table ended ("end"): each watcher is told. It hangs up once it holds the
        last entry; the host waits for that, bounded (``all_told``), as it waits for its
        players' acknowledgements — closing first could reset the connection before the
        watcher had read the end. One whose link drops meanwhile is told as it comes back
        (``arrived_after_end``)."""
        self.release()
        self.ending = message
        message = Framed(message)  # (encoded once for them all)
        for watcher in list(self.here.values()):
            watcher.link.send(message)

    def all_told(self) -> bool:
        """Whether every watcher told the table ended has hung up."""
        return all(w.link.closed for w in self.here.values())

    # -- what they are sent ---------------------------------------------------------------------
    def publish(self, entries) -> None:
        """Entries just logged: each goes to every watcher, as anyone may see it, once every
        player holds it (``players_verified``) or ``PLAYERS_FIRST`` seconds from now — but
        a private deal's own entries only once it is dealt (``dealing``)."""
        if not self.here:
            return
        log = self._authority().archive.log
        for signed in entries:
            self._held.append(signed.seq)
            if dealing(log, signed.seq):
                self._dealing.add(signed.seq)
        self.players_verified()
        if self._held and HELD not in self._timers:
            self._timers.later(HELD, PLAYERS_FIRST, self._time_up)

    def players_verified(self) -> None:
        """A player acknowledged entries: those every player now holds go to the watchers
        (but a deal still being dealt)."""
        ready = 0
        while ready < len(self._held) and self._players_hold(self._held[ready]):
            ready += 1
        self._send_held(self._past_the_deal(ready))
        if not self._held:
            self._timers.cancel(HELD)

    def _time_up(self) -> None:
        """``PLAYERS_FIRST`` is up: what is held goes, every player holding it or not (but
        a deal still being dealt)."""
        self._send_held(self._past_the_deal(len(self._held)))

    def _past_the_deal(self, ready: int) -> int:
        """How many of the first ``ready`` held entries may go: up to the last that is not
        one of a deal's own entries still being dealt (those after it wait for the deal's
        end — ``mental-dealt`` — or for anything else the table logs meanwhile)."""
        while ready and self._held[ready - 1] in self._dealing:
            ready -= 1
        return ready

    def release(self) -> None:
        """Every entry held goes to the watchers now, a deal's too (the table ends or is
        handed over: nothing may come after those)."""
        self._timers.cancel(HELD)
        self._send_held(len(self._held))

    def _send_held(self, count: int) -> None:
        seqs, self._held = self._held[:count], self._held[count:]
        self._send_entries(seqs)

    def _send_entries(self, seqs: list[int]) -> None:
        """Each entry made, signed and encoded once for every watcher (``Framed``): per
        watcher, only the write of the same bytes. A deal's own entries, held until it was
        dealt, go together as a catch-up (``Archive.catch_up``, in syncs that each fit a
        frame): a write or two per watcher for the whole deal."""
        if not seqs:
            return
        dealt = {seq for seq in seqs if seq in self._dealing}
        self._dealing.difference_update(dealt)
        if not self.here:
            return
        archive = self._authority().archive
        for run, batched in _runs(seqs, lambda seq: seq in dealt):
            messages = fitting([archive.catch_up(seq) for seq in run], last=True) if batched \
                else [Framed(archive.public_message(seq)) for seq in run]
            for message in messages:
                for fp in list(self.here):
                    self.outbox.send(fp, message)

    def broadcast(self, message: dict) -> None:
        """A message for every watcher (a host's handover), after every entry."""
        self.release()
        message = Framed(message)  # (encoded once for them all)
        for watcher in self.here.values():
            watcher.link.send(message)

    def _sync_for(self, fp: str, after: int) -> list[dict]:
        return self._authority().archive.public_sync(after)

    def message(self) -> dict:
        """Who watches, whose hands each is shown, and the host's settings."""
        shown = {w.key: sorted(s for s, keys in self.shown.items() if w.key in keys)
                 for w in self.here.values()}
        return {"type": "watchers", **self.policy.wire(),
                "watchers": [{"key": w.key, "name": w.name, "shown": shown[w.key]}
                             for w in self.here.values()]}

    def tell_everyone(self) -> None:
        """Every player and every watcher hears who watches now; then the host (``changed``)."""
        message = Framed(self.message())  # (encoded once for them all)
        for link in [*self._players(), *self.links()]:
            link.send(message)
        self._changed()

    def tell(self, link) -> None:
        """One player's link (a player who has just joined) hears who watches."""
        link.send(self.message())

    def event(self, showing: Iterable[bytes] = ()) -> WatchersEvent:
        """The host's person's "watchers" event (``showing``: whom its own hand is shown)."""
        return watchers_event(self.message(), you_watch=False, showing=showing,
                              you=fingerprint(self.key))

    # -- what they send -------------------------------------------------------------------------
    def receive(self, fp: str, link, message: dict) -> None:
        """A message from a watcher (its heartbeats never come here): what ``handlers``
        take, or it is refused and the watcher named and sent away."""
        watcher = self.here.get(fp)
        if watcher is None or watcher.link is not link:
            return
        handler = self.handlers.get(message["type"])
        if handler is not None:
            handler(watcher, message)
            return
        self._refuse(watcher, message["type"])

    def _refuse(self, watcher: Watcher, kind: str) -> None:
        what = WHAT.get(kind, "send no such message")
        log.warning("watcher %s (%s) sent %r: refused and sent away", watcher.name, watcher.fp, kind)
        self._emit(connection_event(None, "refused", f"{watcher.name} ({watcher.fp}), a watcher, "
                                    f"sent {kind!r}: watchers {what} — refused and sent away"))
        self.here.pop(watcher.fp, None)
        self.watched.discard(watcher.fp)
        self.outbox.detach(watcher.fp, watcher.link)
        _send_away(watcher.link, NO_PLAY.format(what=what, kind=kind))
        self.tell_everyone()

    # -- shown hands ----------------------------------------------------------------------------
    def relay(self, seat: int, message: dict) -> str | None:
        """A seated player's "show" (its hand sealed for one watcher): to that watcher
        alone; why not (None: relayed)."""
        to, sealed = message["to"], message["sealed"]
        watcher = next((w for w in self.here.values() if w.key == to), None)
        if watcher is None:
            self._showing(seat, to, False)
            return "that watcher is not here now"
        if len(sealed) > MAX_SEALED:
            return f"a shown hand is at most {MAX_SEALED} bytes"
        watcher.link.send({"type": "shown", "seat": seat, "sealed": sealed})
        self._showing(seat, to, bool(message["on"]))
        return None

    def send_shown(self, seat: int, to: bytes, sealed: bytes, on: bool) -> None:
        """The host's own seat shows its hand (made here: ``showing.ShowingHand``)."""
        self.relay(seat, {"to": to, "sealed": sealed, "on": on})

    def _showing(self, seat: int, to: bytes, on: bool) -> None:
        keys = self.shown.setdefault(seat, set())
        if (to in keys) != on:
            (keys.add if on else keys.discard)(to)
            self.tell_everyone()
