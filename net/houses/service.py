"""What the sessions ask of the houses, from their own asyncio loops.

Each call crosses to the reactor's thread (``reactor.run``) and back; nothing here
blocks a session's loop. ``HouseError``'s message is written for the person.

* a host: ``invite`` (a code for a seat: the first words of the invitation; what then
  happens to it comes through ``on_event``), ``restore`` (back from a crash: ways back
  for its far guests), ``forget`` (the table is over here);
* a guest: ``use_code`` (the host's key, table and port, once the code matched), and
  ``dial`` — what ``transport.open_connection`` does with a house address;
* anyone at a table: ``want`` (keep finding this player: a takeover may need them).
"""

from __future__ import annotations

import asyncio
import socket

from net.houses import parse_house, reactor
from net.houses.links import HUB, HouseError

__all__ = ["HouseError", "dial", "forget", "invite", "restore", "use_code", "want", "listen"]


async def invite(identity, table: str, seat: int | None, offer: dict, directory, on_event) -> str:
    """A fresh code for ``seat`` at ``table`` (None: a watcher's). ``offer``: what the guest's app is told
    once the code matches (the host's key, the table, its port, the seat, names);
    ``on_event(dict)`` is called (on the reactor's thread) when the code is used or burnt."""
    return await reactor.run(HUB.invite, identity, table, seat, offer, directory, on_event)


async def use_code(identity, code: str, directory=None, timeout: float = 30.0) -> dict:
    """Meet the host whose code this is: ``{"key", "table", "port", "seat", "name",
    "host", "address"}`` (``address`` is the host's house address)."""
    return await reactor.run(HUB.use_code, identity, code, directory, timeout)


async def dial(identity, address: str, port: int) -> socket.socket:
    """A connected socket to the server at ``port`` of the player at house ``address``
    (found again by derived codes if need be: this may take a while; cancel it with a
    timeout, the search goes on for the next attempt)."""
    where = parse_house(address)
    if where is None:
        raise HouseError(f"{address!r} is not a house address")
    them, table = where
    return await reactor.run(HUB.dial, identity, them, table, port)


def keep_count(identity, table: str, directory) -> None:
    """Count ``identity``'s codes at ``table`` in ``directory`` (``pairs.Book``)."""
    reactor.call(HUB.book, identity, table, directory)


def want(identity, address: str, directory=None) -> None:
    """Keep a way to the player at house ``address`` (its codes claimed as the rules say)."""
    where = parse_house(address)
    if where is not None:
        reactor.call(HUB.want, identity, where[0], where[1], directory)


async def restore(identity, table: str, directory) -> int:
    """A host back from a crash: claim the ways back for every far guest it had."""
    return await reactor.run(HUB.restore, identity, table, directory)


async def forget(identity, table: str) -> None:
    """Close every link and invitation of ``table`` here."""
    try:
        await asyncio.wait_for(reactor.run(HUB.forget, identity, table), 3.0)
    except (TimeoutError, asyncio.TimeoutError):
        pass


def listen(identity, callback) -> None:
    """``callback(event)`` for problems the houses meet (on the reactor's thread)."""
    def add():
        HUB.listeners.setdefault(identity.public_key, []).append(callback)
    reactor.call(add)
