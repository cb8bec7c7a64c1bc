"""Arrivals: what a host does with each connection's "join", and with a link that ends.

The first frame of every connection is "join" (the peer's key is already known from the
handshake), and it decides what happens:

* the key holds a seat: a **rejoin** — the log after the peer's ``last_seq``; but if
  the key's seat is played on a connection still live (heard within ``live_within``:
  the same identity in a second copy of the app, or on a second computer) the newcomer
  is **refused**, politely and once, and the player at the table goes on — a link that
  truly died has been silent longer than that, and is replaced at once;
* a stand-in bot keeps the key's seat: the seat is **handed back**;
* the key's seat was given to a new key: it is **shown the log** (its replica raises
  the alert on the re-admission entry) and then refused;
* it claims a seat it does not hold: the trust layer **refuses the claim**;
* before the deal, an empty seat: it is **seated**; in game (or a full table): it joins
  the **waiting room**, and the host person is asked whether it may have an away
  player's seat (``readmit`` / ``turn_away``); a headless host with ``readmit_names``
  gives it by name, unasked; a stranger waits at most ``Timings.unseated_wait``.

A link that ends is a **drop** of its seat (logged; a stand-in may take over later),
and a host restarted from its log gives its peers ``restart_grace`` to come back before
logging them as dropped. While a restarted host takes back the entries its disk lost
(``takeback.Takeback``), a returning peer's "join" goes there first, nothing is logged
for a link that ends, and keys holding no seat are asked to come back later.

The connection caps (``admission.Admission``) decide which unseated connections are
kept; this part tells them when a connection is seated or waiting. Sans-I/O: links are
anything with ``send``/``reject``/``finish``/``close`` and a ``conn`` (its ``peer_name``
and caps ``ticket``). It is wired to the table's ``authority`` (a getter: a restore or a
takeback may replace it), the host's ``key``, the ``outbox``, ``stand_ins``, ``takeback``,
``timers`` and ``admission`` (each typed below by what is asked of it), and the calls
``emit``, ``apply`` and ``log_only`` (log a change, and go on or not), ``settled`` (show
the seats), ``refresh`` (seats or links changed: show, advertise, go on) and ``is_open``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from net.trust.entries import TableBody
from net.wire import messages as m
from net.wire.heartbeat import Timings
from net.wire.identity import fingerprint
from net.sessions.clock import Timers
from net.sessions.events import connection_event, readmit_event, readmitted_event
from net.sessions.facade import EventCallback
from net.sessions.opened import chain_of
from net.trust.host.authority import HostAuthority, Out


class Links(Protocol):
    """The outbox, as arrivals use it."""
    links: dict

    def attach(self, fp: str, link, has: int) -> None: ...
    def detach(self, fp: str, link) -> bool: ...
    def drop(self, fp: str, reason: str) -> None: ...
    def holds(self, fp: str) -> bool: ...


class KeepsSeats(Protocol):
    """The stand-ins: bots keeping away players' seats."""
    def arm(self, seat: int) -> None: ...
    def disarm(self, seat: int) -> None: ...
    def hand_back(self, key: bytes) -> int | None: ...
    def release(self, seat: int) -> None: ...
    def away(self, seat: int) -> tuple[bytes, str]: ...
    def readmittable(self, name: str | None = None) -> list[int]: ...


class TakesBack(Protocol):
    """The takeback after a restart: a returning peer's "join" and drop go there first."""
    @property
    def active(self) -> bool: ...

    def joined(self, fp: str, seat: int, last_seq: int) -> None: ...
    def left(self, fp: str) -> None: ...


class Hangs(Protocol):
    """A waiting stranger's link, as the waiting room ends it."""
    def reject(self, reason: str) -> None: ...
    def close(self, reason: str) -> None: ...


class Caps(Protocol):
    """The connection caps: a connection seated, or waiting to be."""
    def seat(self, ticket) -> None: ...
    def wait(self, ticket) -> None: ...


class Arrivals:
    def __init__(self, authority: Callable[[], HostAuthority], key: bytes, outbox: Links,
                 stand_ins: KeepsSeats, takeback: TakesBack, timers: Timers, admission: Caps, *,
                 emit: EventCallback, apply: Callable[[Out], None],
                 log_only: Callable[[Out], None], settled: Callable[[], None],
                 refresh: Callable[[], None], is_open: Callable[[], bool],
                 unseated_wait: float, restart_grace: float,
                 readmit_names: bool = False, live_within: float = Timings().live):
        self._authority, self.key, self.outbox = authority, key, outbox
        self.stand_ins, self.takeback, self.timers, self.admission = stand_ins, takeback, timers, admission
        self._emit, self._apply, self._log_only = emit, apply, log_only
        self._settled, self._refresh, self._is_open = settled, refresh, is_open
        self.unseated_wait = unseated_wait
        self.restart_grace = restart_grace
        self.live_within = live_within  # a seat's link heard within this long is in use
        self.readmit_names = readmit_names
        self.waiting: dict[str, tuple[bytes, str, Hangs]] = {}  # fp -> (key, name, link)
        self.keys: dict[str, bytes] = {}  # fingerprint -> key of everyone seated here

    # -- a "join" ---------------------------------------------------------------------------
    def join(self, fp: str, key: bytes, name: str, link, join: dict) -> None:
        auth = self._authority()
        seat = auth.seat_of(fp)
        if seat is not None and self._played_elsewhere(fp):
            self._refuse_second(fp, seat, link)
            return
        if seat is None:
            seat = self.stand_ins.hand_back(key)
        taken = auth.taken_from(key) if seat is None else None
        if taken is not None:
            self._show_taken(fp, key, link, join, *taken)
            return
        if seat is None and self.takeback.active:
            link.reject("the table is getting its log back after its host restarted; "
                        "try again in a moment")
            return
        if seat is None and join.get("seat") is not None and join["last_seq"] >= 0:
            self._refuse_claim(fp, link, join)  # the trust layer says why
            return
        if seat is None:
            seat = self._new_seat(fp, key, name, link, join)
            if seat is None:
                return
        self._register(fp, key, link, seat, join["last_seq"])

    def _register(self, fp: str, key: bytes, link, seat: int, last_seq: int) -> None:
        self.keys[fp] = key
        self.waiting.pop(fp, None)
        self.timers.cancel(("waiting", fp))
        if link.conn.ticket is not None:
            self.admission.seat(link.conn.ticket)  # a player: never dropped for room
        self.timers.cancel(("absent", seat))
        self.stand_ins.disarm(seat)
        has = min(last_seq, chain_of(self._authority()).seq)
        self.outbox.attach(fp, link, has)
        link.send(self.joined_message(seat))
        if self.takeback.active:  # it may hold entries the host lost: asked first
            self.takeback.joined(fp, seat, last_seq)
        else:
            self._log_only(self._authority().rejoin(fp, seat, has))
        self._emit(connection_event(seat, "connected", f"{link.conn.peer_name} ({fp})"))
        self._refresh()

    def _played_elsewhere(self, fp: str) -> bool:
        """Whether ``fp``'s seat is played on a link that is still live."""
        old = self.outbox.links.get(fp)
        return old is not None and old.heard_within(self.live_within)

    def _refuse_second(self, fp: str, seat: int, link) -> None:
        """A second live connection for one seat (one identity, two copies of the app):
        the newcomer is told why, and the player already at the table goes on."""
        link.send(m.refused_message(m.SEAT_IN_USE))
        link.finish()
        self._emit(connection_event(seat, "refused", f"{link.conn.peer_name} ({fp}) asked for "
                                         f"seat {seat}, which that key plays on a live connection "
                                         "already: turned away"))

    def joined_message(self, seat: int) -> dict:
        """What a player taking (or back in) ``seat`` is told first."""
        auth = self._authority()
        joined: dict = {"type": "joined", "table": auth.table, "seat": seat, "head": chain_of(auth).seq}
        origin = auth.log[0].entry.body_as(TableBody).host_key
        if origin != self.key:  # a table carried on (succession): who opened it
            joined["origin"] = origin
        return joined

    def _refuse_claim(self, fp: str, link, join: dict) -> None:
        out = self._authority().rejoin(fp, join["seat"], join["last_seq"])
        for who, msg in out.sends:
            if who == fp:
                link.send(msg)
        link.finish()
        self._emit(connection_event(join["seat"], "refused",
                                         f"{link.conn.peer_name} ({fp}) claimed seat "
                                         f"{join['seat']}, which another key holds"))

    def _new_seat(self, fp: str, key: bytes, name: str, link, join: dict) -> int | None:
        auth = self._authority()
        if auth.match is None:
            empty = [s for s, i in sorted(auth.seats.items()) if i.kind == "empty"]
            if empty:
                seat = join["seat"] if join.get("seat") in empty else empty[0]
                self._log_only(auth.seat(seat, "human", key, name))
                return seat
        if self.readmit_names:  # headless only (HostSession refuses it): unasked, by name
            stand_ins = self.stand_ins
            seat = next((s for s in stand_ins.readmittable(name) if stand_ins.away(s)[1] == name),
                        None)
            if seat is not None:
                self._give_seat(seat, key, name)
                return seat
        if auth.match is None:
            link.reject("the table is full")
            return None
        self._wait(fp, key, name, link)
        return None

    # -- the waiting room: a new key asks for an away player's seat -------------------------------
    def _wait(self, fp: str, key: bytes, name: str, link) -> None:
        self.waiting[fp] = (key, name, link)
        if link.conn.ticket is not None:
            self.admission.wait(link.conn.ticket)
        wait = self.unseated_wait
        self.timers.later(("waiting", fp), wait, self._send_away, fp, link,
                                f"the host gave you no seat within {wait:g} s")
        self._emit(connection_event(None, "waiting", f"{name} ({fp}) asks to be re-admitted"))
        self._settled()
        self._offer_seat(fp)

    def waiting_list(self) -> list[dict]:
        return [{"fingerprint": fp, "name": w[1]} for fp, w in self.waiting.items()]

    def _offer_seat(self, fp: str) -> None:
        """Ask the host person (the app's dialog) whether a waiting stranger may have an
        away player's seat; nothing is given without a yes (``readmit``)."""
        if fp not in self.waiting:
            return
        _, name, _ = self.waiting[fp]
        stand_ins = self.stand_ins
        seats = stand_ins.readmittable(name)
        if seats:
            old_key, old_name = stand_ins.away(seats[0])
            self._emit(readmit_event(seats[0], old_name, fingerprint(old_key), fp, name))

    def _give_seat(self, seat: int, key: bytes, name: str) -> None:
        """Re-admit: ``seat`` goes to ``key``, logged as a seat entry with ``readmit``."""
        _, old_name = self.stand_ins.away(seat)
        self.stand_ins.release(seat)
        old = self._authority().seats[seat]
        if old.kind == "human" and old.key is not None:
            self.outbox.drop(fingerprint(old.key), "the seat was given to another key")
        self._log_only(self._authority().readmit(seat, key, name))
        self._emit(readmitted_event(seat, old_name, key))

    def readmit(self, seat: int, fp: str) -> bool:
        """The host person's yes: give ``seat`` to the waiting player ``fp`` (a lost key)."""
        if fp not in self.waiting or seat not in self._authority().seats:
            return False
        key, name, link = self.waiting.pop(fp)
        self.timers.cancel(("waiting", fp))
        self._give_seat(seat, key, name)
        self._register(fp, key, link, seat, -1)
        return True

    def turn_away(self, fp: str) -> None:
        """The host person's no: the waiting player ``fp`` gets no seat."""
        waiting = self.waiting.get(fp)
        if waiting is not None:
            self._send_away(fp, waiting[2], "the host did not give you a seat")

    def _send_away(self, fp: str, link: Hangs, reason: str) -> None:
        if self.waiting.get(fp, (None, None, None))[2] is link:
            del self.waiting[fp]
            link.reject(reason)
            self._settled()

    def _show_taken(self, fp: str, key: bytes, link, join: dict, seat: int, seq: int) -> None:
        """A key whose seat was given to a new key is back. It is not simply refused: it
        is shown the log, so that its own replica raises the alert on the re-admission
        entry and keeps the evidence, and then told why it has no seat."""
        auth = self._authority()
        head = chain_of(auth).seq
        mine = join.get("seat") == seat and join["last_seq"] <= head
        link.send({"type": "joined", "table": auth.table, "seat": None, "head": head})
        for msg in auth.sync(seat, join["last_seq"] if mine else -1, key=key):
            link.send(msg)
        link.send(m.refused_message(f"seat {seat} was given to a new key at entry {seq}; ask "
                                    "the host why"))
        link.finish()
        self._emit(connection_event(seat, "refused", f"{link.conn.peer_name} ({fp}) came "
                                         f"back for seat {seat}, which was given to a new key "
                                         f"at entry {seq}, and was shown the log"))

    # -- links that end ------------------------------------------------------------------------
    def ended(self, fp: str, link, reason: str) -> None:
        if self.waiting.get(fp, (None, None, None))[2] is link:
            del self.waiting[fp]
        if not self.outbox.detach(fp, link):
            return  # replaced, refused or never seated
        if self.takeback.active:  # not logged now: the restart grace decides
            self.takeback.left(fp)
            return
        seat = self._authority().seat_of(fp)
        if seat is None or not self._is_open():
            return  # peers leaving a finished table are not drops
        self._emit(connection_event(seat, "dropped", reason))
        self._drop(seat)
        for waiting in list(self.waiting):  # a stranger may be the player who dropped
            self._offer_seat(waiting)

    def _drop(self, seat: int) -> None:
        auth = self._authority()
        if auth.seats[seat].connected:
            self._apply(auth.drop(seat))
        self.stand_ins.arm(seat)

    def after_restart(self, grace: float | None = None) -> None:
        """Peers of a restarted host are all away: give them time (``grace``, by default
        the restart grace) before logging drops."""
        auth = self._authority()
        grace = self.restart_grace if grace is None else grace
        for seat in auth.peers():
            if auth.seats[seat].connected:
                self.timers.later(("absent", seat), grace, self._absent, seat)
            else:
                self.stand_ins.arm(seat)

    def _absent(self, seat: int) -> None:
        fp = self._authority().peers().get(seat)
        if fp is None or self.outbox.holds(fp) or not self._is_open():
            return
        self._emit(connection_event(seat, "dropped",
                                         "did not come back after the host restarted"))
        self._drop(seat)

    def close_all(self, reason: str) -> None:
        for _key, _name, link in list(self.waiting.values()):
            link.close(reason)
