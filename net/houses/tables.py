"""The houses as the sessions use them: a host's invitations, a guest's code, and the
ways back a table keeps for its far players. Light to import: the Twisted side
(``service``) is imported only when a code or a house address is used.

* ``HostHouses`` (``HostCore.houses``): ``invite(seat)`` makes a code for a seat (and
  ``invite_watcher()`` one for a watcher: the guest's app then joins to watch) and
  reports it as an "invite" event (``{"seat", "code", "state", "message"}``, the state
  "waiting", then "joining" and "used"; or "burnt" when someone typed it wrong — each
  code allows one try — or "spent" when it was used but nobody came through it, or
  "failed"; ``message`` says what happened in words, ``details`` a server's address);
  a host restarted from its log claims again the ways back for the far guests it had
  (its ``houses.json``); at the end the table's links close.
* ``GuestHouses`` (``GuestCore.houses``): the code a person typed becomes the host's
  house address, its key pinned from what the host said inside the wormhole; a guest
  across houses sees every other player of the roster at their house address (it
  cannot reach the host's home network); when the host is gone, the guest keeps
  finding the players it may need for a takeover.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING

from net.houses import house_address, is_house, parse_house
from net.houses.pairs import Book

if TYPE_CHECKING:
    from net.trust.host.authority import HostAuthority
    from net.trust.peer.replica import PeerReplica

log = logging.getLogger(__name__)

#: How a table's houses tell the person something (the sessions' ``emit``): an event dict.
Emit = Callable[[dict], None]


def invite_event(seat: int | None, state: str, code: str = "", message: str = "", details: str = "",
                 waited: float | None = None) -> dict:
    """An "invite" event; ``seat`` None: a code for a watcher (``watch``)."""
    event: dict[str, object] = {"type": "invite", "seat": seat, "state": state, "code": code, "message": message}
    if seat is None:
        event["watch"] = True
    if details:
        event["details"] = details
    if waited is not None:
        event["waited"] = waited
    return event


class HostHouses:
    """A host's invitations and ways back (``HostCore.houses``). Wired to the host's
    ``identity``, its ``state_dir`` (where the ways back are kept), whether the table is on
    the network (``listen``), and the calls ``authority`` (the table's, a getter),
    ``serving`` (the port it listens on, None while it does not), ``emit`` and ``spawn``
    (run a coroutine on the table's loop)."""

    def __init__(self, identity, state_dir: Path, *, listen: bool,
                 authority: Callable[[], HostAuthority | None],
                 serving: Callable[[], int | None], emit: Emit,
                 spawn: Callable[[Coroutine], None]):
        self.identity, self.state_dir, self.listen = identity, state_dir, listen
        self._authority, self._serving, self._emit, self._spawn = authority, serving, emit, spawn
        self.used = False  # a code was made here, or a far guest was restored

    def _table(self) -> tuple[str, str]:
        """The table's id and name: the host made or restored its table before it
        listens (``HostCore.start``), which is before anything here is asked of it."""
        auth = self._authority()
        assert auth is not None and auth.table is not None, "the host holds its table first"
        return auth.table, auth.name

    async def start(self) -> None:
        """Back from a crash: the far guests it had get their ways back."""
        table, _name = self._table()
        if not self.listen or not Book(self.state_dir).staying(table):
            return
        from net.houses import service
        self.used = True
        await service.restore(self.identity, table, self.state_dir)

    async def stop(self) -> None:
        if self.used:
            from net.houses import service
            await service.forget(self.identity, self._table()[0])

    def invite_watcher(self) -> None:
        """A code for someone to watch the table (one at a time, as a seat's: a new code
        makes the last unused one stop working); "invite" events with ``watch``."""
        self.invite(None)

    def invite(self, seat: int | None) -> None:
        """A code for ``seat`` (None: a watcher's) — an "invite" event when it is ready;
        another for what becomes of it."""
        if not self.listen or self._serving() is None:
            self._emit(invite_event(seat, "failed", message="this table is not on the network"))
            return
        self.used = True
        self._spawn(self._invite(seat))

    async def _invite(self, seat: int | None) -> None:
        loop = asyncio.get_running_loop()
        (table, name), identity, emit = self._table(), self.identity, self._emit
        offer = {"key": identity.public_key.hex(), "table": table, "port": self._serving(),
                 "seat": seat, "name": name, "host": identity.name}
        if seat is None:
            offer["watch"] = True  # its holder watches: the guest's app joins as a watcher

        def happened(event: dict) -> None:  # on the reactor's thread
            message, details = _what_happened(event)
            loop.call_soon_threadsafe(emit, invite_event(seat, event["state"], event.get("code", ""),
                                                         message, details, event.get("waited")))
        try:
            from net.houses import service
            code = await service.invite(identity, table, seat, offer, self.state_dir, happened)
        except Exception as exc:  # noqa: BLE001 - HouseError, or a bug: told, the table goes on
            log.warning("no invitation: %s (%s)", exc, getattr(exc, "details", ""),
                        exc_info=not _for_people(exc))
            emit(invite_event(seat, "failed", message=_message(exc), details=getattr(exc, "details", "")))
            return
        emit(invite_event(seat, "waiting", code))


#: What the host is told when a code was used but nobody came through it ("spent"), by
#: ``why`` (``net.houses.links.Invitation``).
SPENT = {
    "stranger": "Something that is not Parlour used that code, so nobody has joined, and "
                "the code no longer works.",
    "version": "They typed the code, but their Parlour is a different version from yours. "
               "Both of you need the same version of Parlour.",
    "relay-there": "They typed the code, but their computer did not connect to this one "
                   "(perhaps it can't reach the relay). Ask them to check their internet "
                   "connection.",
    "relay-here": "They typed the code, but this computer can't reach the relay that links "
                  "it to their house. Check this computer's internet connection, or the "
                  "relay in Settings.",
    "no-show": "They typed the code and their computer connected, but their Parlour never "
               "came to the table.",
}


def _what_happened(event: dict) -> tuple[str, str]:
    """What to tell the host of an invitation's news, and the details line (if any)."""
    state, why = event["state"], event.get("why", "")
    if state == "burnt":
        return ("Someone typed a wrong code, so that code no longer works (each code "
                "allows one try). Make a new one.", "")
    if state == "spent":
        from net.houses.links import relay_details
        return (SPENT.get(why, "That code was used, but nobody has joined."),
                relay_details() if why.startswith("relay") else "")
    if state == "failed":
        return "The invitation stopped working. Make a new code.", ""
    return "", ""


def _for_people(exc: BaseException) -> bool:
    from net.houses.links import HouseError
    return isinstance(exc, HouseError)


def _message(exc: BaseException) -> str:
    text = str(exc) if _for_people(exc) else "something went wrong inside Parlour (the details are in its log)"
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


class GuestHouses:
    """A guest's code, its host across houses, and its far fellow players. Wired to the
    guest's ``identity`` and ``state_dir`` (None: none), and the calls ``address`` (where it
    looks for its host now), ``replica`` (its copy of the table, None before the first join)
    and ``table`` (the table it joined, None before)."""

    def __init__(self, identity, state_dir: Path | None, *, address: Callable[[], str | None],
                 replica: Callable[[], PeerReplica | None], table: Callable[[], str | None],
                 code: str | None = None):
        self.identity, self.state_dir = identity, state_dir
        self._address, self._replica, self._table_joined = address, replica, table
        self.code = code
        self.wanted: set[str] = set()

    @property
    def across(self) -> bool:
        """Whether this guest reaches its host across houses."""
        return is_house(self._address())

    def keep_count(self) -> None:
        """A guest at a table across houses keeps its codes' count in its state directory
        (a restarted app then never claims a code it left open)."""
        where = parse_house(self._address())
        if where is not None and self.state_dir is not None:
            from net.houses import service
            service.keep_count(self.identity, where[1], self.state_dir)

    async def use_code(self, timeout: float) -> dict:
        """Meet the host whose code was typed; where the table is (``address``, ``port``,
        the host's ``key``, perhaps the table's ``name`` and the ``seat`` offered), for the
        guest to go there. HouseError (for the person) when that fails."""
        from net.houses import service
        assert self.code is not None, "the guest uses a code only when one was typed"
        found = await service.use_code(self.identity, self.code, self.state_dir, timeout)
        self.code = None
        return found

    def roster(self, message: dict) -> dict:
        """The roster as this guest can use it: across houses, every player by their house
        address (the addresses the host sees are on its own home network)."""
        peers = [[seat, self._reachable(seat, address), port]
                 for seat, address, port in message["peers"]]
        return {**message, "peers": peers}

    def heir(self, message: dict) -> dict:
        """The host's handover as this guest can use it: across houses, the heir at its
        house address (the host names it by its address on the host's home network)."""
        seat = message["signed"]["body"]["seat"]
        return {**message, "address": self._reachable(seat, message.get("address"))}

    def _reachable(self, seat: int, address: str | None) -> str | None:
        """Where this guest reaches the player in ``seat`` whom the host saw at
        ``address``: there, or — this guest across houses — at that player's house address."""
        replica = self._replica()
        if not self.across or replica is None or is_house(address):
            return address
        info = replica.seats.get(seat)
        if info is None or info.key is None:
            return address
        return house_address(info.key, replica.table)

    def host_gone(self, roster: dict) -> None:
        """The link to the host ended: keep finding the other players this guest can only
        reach across houses, should the table be carried on (``roster``: seat ->
        (address, port), as the succession keeps it)."""
        replica = self._replica()
        if replica is None or replica.table is None:
            return
        me = self.identity.public_key
        for seat, key in replica.seats.players(besides=replica.host_key).items():
            if key == me:
                continue
            address = roster.get(seat, (None,))[0]
            if self.across or is_house(address):
                target = house_address(key, replica.table)
                if target not in self.wanted:
                    self.wanted.add(target)
                    from net.houses import service
                    service.want(self.identity, target, self.state_dir)

    async def stop(self) -> None:
        """The guest stops: its table's links close (a table it carried on is over too)."""
        table = self._table()
        if table is not None and (self.across or self.wanted):
            from net.houses import service
            await service.forget(self.identity, table)

    def _table(self) -> str | None:
        where = parse_house(self._address())
        if where is not None:
            return where[1]
        return self._table_joined()
