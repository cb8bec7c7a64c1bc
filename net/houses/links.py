"""The Twisted side of the houses: wormholes, their links, and Parlour's sockets in them.

Everything here runs on the reactor's thread (``reactor``); ``service`` is the asyncio
side that calls in. The pieces:

* ``Claim``: one wormhole — a code claimed on the mailbox (or a fresh one allocated) —
  until it becomes a live ``Link`` (the other side's key came and was confirmed), is
  dead (a ghost: a key but no confirmation within ``GHOST_AFTER`` of the time we were
  awake to hear it, ``awake``; "crowded"; a wrong code) or is closed. Every wormhole is
  dilated from the start (both sides must ask).
* ``Link``: a dilated wormhole. Parlour's connections are its subchannels, all of the
  one subprotocol ``parlour``: the side that opens one first writes the port of the
  server it wants on the far side (two bytes), and from then on the subchannel and a
  local socket pair are spliced together: the other end of the pair is what asyncio
  sees (``transport.open_connection(sock=…)`` on the dialling side, ``Server.adopt`` on
  the other), so Parlour's TLS runs inside, unchanged.
* ``Pair``: the link between two players at a table, found again with codes both
  derive (``pairs``), whoever of them restarted.
* ``Invitation``: a host's code for a seat; ``Hub``: every pair and invitation.

Dilation sets no ``TCP_NODELAY`` on its connections, and Nagle's algorithm then holds a
small write back until the last one is acknowledged, which the other end delays ~40 ms:
a played card's round trip through the relay took ~88 ms. ``_no_delay`` sets it on every
connection Dilation makes — and, since the relay (a server we do not run) keeps Nagle on
for its own writes, acknowledges every read at once (``TCP_QUICKACK``): 2.3 ms (``python
-m net.tools.bench_houses``). Both are small changes worth sending upstream.
"""

from __future__ import annotations

import logging
import socket

import attr
import struct
import time
from collections.abc import Callable
from typing import Protocol
from urllib.parse import urlsplit

from twisted.internet import defer, protocol
from twisted.internet.base import DelayedCall
from twisted.internet.endpoints import HostnameEndpoint

import wormhole
from wormhole import errors as wormhole_errors
from wormhole._dilation import connection as _dilation_connection
from wormhole._dilation import connector as _dilation_connector
from wormhole._dilation import manager as _dilation_manager
from wormhole._hints import parse_hint_argv
from wormhole._status import ConnectedPeer, ReconnectingPeer

from net.constants import PROTOCOL_VERSION
from net.houses import (APPID, DEFAULT_MAILBOX, SETTINGS, CodeError, code_words, house_address,
                         parse_code)
from net.houses.awake import AwakeDeadline
from net.houses.pairs import WINDOW, Book, pair_code, pair_secret, stays
from net.houses.reactor import before_stop, reactor
from net.wire.transport import SERVERS

log = logging.getLogger(__name__)

SUBPROTOCOL = "parlour"
_PORT = struct.Struct(">H")
#: Seconds from the other side's key to its confirmation before a claim is a ghost's,
#: counted in the time this process was awake (``awake.AwakeDeadline``): a live side
#: answers in well under a second, a busy old laptop in a few; a ghost (an app that died
#: holding the code) never does. Taking a live side for a ghost costs a pair another
#: rendezvous, so this is generous.
GHOST_AFTER = 10.0
#: The same for a code a person typed: the host answers it once, and taking a slow host
#: for a ghost would cost the person the code (each allows one try) and tell a wrong code
#: "stopped answering" instead of "did not match". (Under ``use_code``'s own timeout.)
INVITED_GHOST_AFTER = 20.0
#: Seconds without the mailbox's welcome before we say it cannot be reached.
MAILBOX_WITHIN = 6.0
#: Seconds a coming side waits alone at a code before it tries the next one.
LONELY_AFTER = 20.0
#: Seconds between Dilation's pings (its default, 30, takes a minute to see a dead link).
PING_INTERVAL = 5.0
#: Seconds a coming side gives its link to (re)connect before it looks for the other side
#: with a new code (the other side may have restarted: then the old link never comes back).
LINK_PATIENCE = 2.0
#: Seconds from a code's match to Dilation's connection before both sides say what is
#: wrong (a direct connection takes milliseconds, one through the relay about a second).
CONNECT_WITHIN = 8.0
#: Seconds the relay has to take a plain TCP connection from us (the probe that tells
#: "this computer cannot reach the relay" from "the other one cannot").
RELAY_PROBE_WITHIN = 5.0
#: Seconds from that connection to the guest's Parlour proving its key through it before
#: the host stops holding the invitation's link for them.
ARRIVE_WITHIN = 30.0
#: The same for the staying side: shorter, so that its codes are claimed by the time the
#: coming side claims one. (While its link works, neither side claims anything: an app
#: killed then leaves no claim behind to get in its own way.)
STAYER_PATIENCE = 0.5


class HouseError(Exception):
    """Something a person should be told (the message is for them). ``details``: what a
    helper would want as well (a server's address), shown apart from the message;
    ``waited``: seconds the protocol's own timer ran before it gave up, if one did."""

    def __init__(self, message: str, details: str = "", waited: float | None = None):
        super().__init__(message)
        self.details, self.waited = details, waited


def mailbox_details() -> str:
    return f"Invitation service: {SETTINGS.mailbox}"


def relay_details() -> str:
    return f"Relay: {SETTINGS.relay}"


#: What a guest is told when its code matched but no connection came (``NotConnected``),
#: by whether this computer is the one that cannot reach the relay.
_NOT_CONNECTED = {
    True: "this computer can't reach the relay that links it to the host's house. Check this "
          "computer's internet connection, or the relay in Settings",
    False: "the host's computer did not connect to this one (perhaps it can't reach the "
           "relay). Ask the host to check their internet connection, then to make a new code",
}


def mailbox_unreachable() -> HouseError:
    """In words, without the service's web address (a ``ws://…/v1`` means nothing to a
    person: it is on the details line); a service of the family's own choosing is named
    by its computer's name."""
    host = urlsplit(SETTINGS.mailbox).hostname if SETTINGS.mailbox != DEFAULT_MAILBOX else None
    where = f" ({host})" if host else ""
    return HouseError(f"can't reach the invitation service{where}. Check this computer's "
                      "internet connection, or the invitation service in Settings", mailbox_details())


# -- who is on the other side of a code ------------------------------------------------------

def hello(fields: dict) -> dict:
    """What this side says inside a code's wormhole (its "versions"): that it is Parlour,
    of which protocol, and ``fields`` (a host's offer, a guest's key)."""
    return {"parlour": {**fields, "protocol": PROTOCOL_VERSION}}


def parlour_said(versions: dict | None) -> dict | None:
    """What the other side of a code said, if it is Parlour (its key among it), else None:
    the official ``wormhole`` tool, say, given Parlour's application id."""
    said = (versions or {}).get("parlour")
    if not isinstance(said, dict):
        return None
    try:
        key = bytes.fromhex(said["key"])
    except (KeyError, TypeError, ValueError):
        return None
    return said if len(key) == 32 else None


def other_version(said: dict) -> bool:
    """Whether a Parlour on the other side speaks another version of the protocol (a
    Parlour that names none is older than this check: the TLS handshake judges it)."""
    return "protocol" in said and said["protocol"] != PROTOCOL_VERSION


# -- TCP_NODELAY on Dilation's connections ------------------------------------------------

def quick_ack(transport) -> None:
    handle = getattr(transport, "getHandle", None)
    if handle is None or not hasattr(socket, "TCP_QUICKACK"):
        return
    try:
        handle().setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
    except (OSError, AttributeError):
        pass


_LIBRARY: dict[str, Callable] = {}  # Dilation's own connectionMade and dataReceived


def quick_connections(on: bool = True) -> None:
    """Dilation's connections with Nagle's algorithm off and every read acknowledged at
    once (``on``), or as the library makes them (``bench_houses --no-nodelay`` compares)."""
    cls = _dilation_connection.DilatedConnectionProtocol
    if not _LIBRARY:
        _LIBRARY.update(made=cls.connectionMade, received=cls.dataReceived)
    made, received = _LIBRARY["made"], _LIBRARY["received"]
    if not on:
        cls.connectionMade, cls.dataReceived = made, received
        return

    def connectionMade(self):  # noqa: N802 - Twisted's name
        try:
            self.transport.setTcpNoDelay(True)
        except Exception:  # noqa: BLE001 - not a TCP transport (tests): nothing to set
            pass
        return made(self)

    def dataReceived(self, data):  # noqa: N802 - Twisted's name
        # Acknowledge at once (Linux resets quick-ack mode by itself, so after every read):
        # a relay that keeps Nagle's algorithm on holds its next segment to us until we
        # acknowledge the last, and a delayed acknowledgement costs ~40 ms each way.
        quick_ack(self.transport)
        return received(self, data)
    cls.connectionMade, cls.dataReceived = connectionMade, dataReceived


quick_connections()

# A Dilation follower whose connection is lost says nothing (it waits for its leader to
# reconnect), so a follower whose leader's app was killed would think it still connected
# until the end of time. Say "reconnecting" for it too: that is what the pairs watch.
def _lost_said() -> None:
    cls = _dilation_manager.Manager
    if getattr(cls, "_parlour_lost_said", False):
        return
    lost = cls.connector_connection_lost

    def connector_connection_lost(self):
        self._maybe_send_status(attr.evolve(self._latest_status,
                                            peer_connection=ReconnectingPeer(self._reactor.seconds())))
        return lost(self)
    cls.connector_connection_lost = connector_connection_lost
    cls._parlour_lost_said = True


_lost_said()

# Dilation tries the direct hints first and holds the relay back this long (its default, 2 s,
# is added to every connection between houses, where the direct hints — addresses on the
# other home network — never answer). A direct connection at home is made in milliseconds.
_dilation_connector.Connector.RELAY_DELAY = 0.5


# -- splicing a subchannel and a local socket ---------------------------------------------

class _Stream(Protocol):
    """What a splice's end uses of its transport: a Dilation subchannel's, or the
    reactor's end of a local socket pair — both write, take the other end as their
    producer, and close."""

    def write(self, data: bytes) -> None: ...

    def registerProducer(self, producer: object, streaming: bool) -> None: ...  # noqa: N802

    def loseConnection(self) -> None: ...  # noqa: N802


class _Socket(_Stream, Protocol):
    """The reactor's end of a local socket pair, which may also be cut at once."""

    def abortConnection(self) -> None: ...  # noqa: N802


class _Splice(protocol.Protocol):
    """One end of a splice: what it reads goes out of the other end."""

    def __init__(self):
        self.other: _Splice | None = None
        self.held: list[bytes] = []

    @property
    def stream(self) -> _Stream:
        """Our connection (Twisted's ``transport``): an end is joined, written to and
        closed only once it is connected."""
        assert self.transport is not None, "an end is used once it is connected"
        return self.transport

    def join(self, other: "_Splice") -> None:
        self.other, other.other = other, self
        for end, far in ((self, other), (other, self)):
            held, end.held = end.held, []
            for data in held:
                far.stream.write(data)
        self.stream.registerProducer(other.transport, True)
        other.stream.registerProducer(self.transport, True)

    def dataReceived(self, data: bytes) -> None:  # noqa: N802
        if self.other is None:
            self.held.append(data)
            self.holding()
        else:
            self.other.stream.write(data)

    def holding(self) -> None:
        """Data came before the other end was joined (it is in ``held``)."""

    def connectionLost(self, reason=None) -> None:  # noqa: N802
        if self.other is not None and self.other.transport is not None:
            self.other.stream.loseConnection()


class _LocalEnd(_Splice):
    """Our end of a local socket pair (asyncio has the other)."""

    @property
    def socket(self) -> _Socket:
        assert self.transport is not None, "an end is used once it is connected"
        return self.transport


def _local_pair() -> tuple[socket.socket, _LocalEnd]:
    """A socket pair: asyncio's end, and our end adopted by the reactor."""
    theirs, ours = socket.socketpair()
    theirs.setblocking(False)
    end = _LocalEnd()
    reactor.adoptStreamConnection(ours.fileno(), socket.AF_UNIX, _Once(end))
    ours.close()  # the reactor holds its own copy
    return theirs, end


class _Once(protocol.Factory):
    def __init__(self, proto):
        self.proto = proto

    def buildProtocol(self, addr):  # noqa: N802
        return self.proto


class _Inbound(_Splice):
    """A subchannel the other side opened: its first two bytes say which server (one of
    ``me``'s); the local end it is spliced to is given to ``keep`` and the server is told
    it came from ``source()``."""

    def __init__(self, me: bytes, keep, source):
        super().__init__()
        self.me, self.keep, self.source = me, keep, source
        self.asked = False  # the server's port has been read

    def holding(self) -> None:
        head = b"".join(self.held)
        if self.asked or len(head) < _PORT.size:
            return
        self.asked = True
        (port,), rest = _PORT.unpack(head[:_PORT.size]), head[_PORT.size:]
        self.held = [rest] if rest else []
        server = SERVERS.get(port)
        if server is None or server.identity.public_key != self.me:
            log.info("a connection across houses asked for port %s: nothing of ours there", port)
            self.stream.loseConnection()
            return
        theirs, end = _local_pair()
        self.keep(end)
        self.join(end)
        server.adopt_threadsafe(theirs, self.source())


class _Inbounds(protocol.Factory):
    """The subchannels the other side opens through a link: each an ``_Inbound`` (what it
    is given, each one's)."""

    def __init__(self, me: bytes, keep, source):
        self.me, self.keep, self.source = me, keep, source

    def buildProtocol(self, addr):  # noqa: N802
        return _Inbound(self.me, self.keep, self.source)


class _Outbound(_Splice):
    def connectionMade(self):  # noqa: N802
        self.made = True


# -- one wormhole -------------------------------------------------------------------------

class Claim:
    """One wormhole, from its code to a live link or its end. ``on_live(claim)``,
    ``on_dead(claim, why)`` ("ghost", "crowded", "wrong", "closed", "unreachable")."""

    def __init__(self, code: str | None, versions: dict, on_live, on_dead, on_code=None,
                 ghost_after: float = GHOST_AFTER):
        self.on_live, self.on_dead, self.on_code = on_live, on_dead, on_code
        self.code = code
        self.ghost_after = ghost_after
        self.ghost_deadline: AwakeDeadline | None = None  # from the other side's key on
        self.state = "claiming"  # -> "keyed" -> "live" | "dead" | "closed"
        self.their_versions: dict | None = None
        self.welcomed = False
        self.peer_connected = False
        self.status_listeners: list = []
        self._timers: list = []
        self.w = wormhole.create(APPID, SETTINGS.mailbox, reactor, versions=versions,
                                 dilation=True, stderr=_Quiet())
        self.dilated = self.w.dilate(transit_relay_location=SETTINGS.relay,
                                     on_status_update=self._dilation_status,
                                     ping_interval=PING_INTERVAL)
        if code is None:
            self.w.allocate_code(2)
        else:
            self.w.set_code(code)
        self.w.get_code().addCallbacks(self._got_code, lambda f: None)
        self.w.get_welcome().addCallbacks(self._welcomed, lambda f: None)
        self.w.get_unverified_key().addCallbacks(self._keyed, lambda f: None)
        self.w.get_versions().addCallbacks(self._live, self._failed)
        self._later(MAILBOX_WITHIN, self._check_welcome)

    def _later(self, delay, fn):
        self._timers = [t for t in self._timers if t.active()]  # (the ghost's ticks add up)
        self._timers.append(reactor.callLater(delay, fn))

    def _got_code(self, code):
        self.code = code
        if self.on_code is not None:
            self.on_code(self, code)

    def _welcomed(self, _welcome):
        self.welcomed = True

    def _check_welcome(self):
        if not self.welcomed and self.state == "claiming":
            self._die("unreachable")

    def _keyed(self, _key):
        if self.state == "claiming":
            self.state = "keyed"
            self.ghost_deadline = AwakeDeadline(self.ghost_after, reactor.seconds())
            self._later(self.ghost_deadline.step, self._check_ghost)

    def _check_ghost(self):
        if self.state != "keyed" or self.ghost_deadline is None:
            return
        if self.ghost_deadline.tick(reactor.seconds()):
            self._die("ghost")
        else:
            self._later(self.ghost_deadline.step, self._check_ghost)

    def _live(self, versions):
        if self.state not in ("claiming", "keyed"):
            return
        self.state = "live"
        self.their_versions = versions or {}
        self._cancel_timers()
        self.on_live(self)

    def _failed(self, failure):
        why = "closed"
        if failure.check(wormhole_errors.WrongPasswordError):
            why = "wrong"
        elif failure.check(wormhole_errors.ServerError) and "crowded" in str(failure.value):
            why = "crowded"
        elif failure.check(wormhole_errors.LonelyError, wormhole_errors.WormholeClosed):
            why = "closed"
        elif self.state == "claiming" and not self.welcomed:
            why = "unreachable"
        if self.state in ("claiming", "keyed"):
            self._die(why)

    def _die(self, why: str) -> None:
        self.state = "dead"
        self._cancel_timers()
        self._close()
        self.on_dead(self, why)

    def _dilation_status(self, status) -> None:
        self.peer_connected = isinstance(status.peer_connection, ConnectedPeer)
        for listener in list(self.status_listeners):
            listener(self)

    def _cancel_timers(self):
        for timer in self._timers:
            if timer.active():
                timer.cancel()
        self._timers = []

    def close(self) -> defer.Deferred:
        if self.state in ("claiming", "keyed"):
            self.state = "closed"
        self._cancel_timers()
        return self._close()

    def _close(self) -> defer.Deferred:
        d = self.w.close()
        d.addErrback(lambda f: None)  # lonely, scary: closed either way
        return d


class _Quiet:
    """Where the library's own chatter (it prints to stderr) goes: the log."""

    def write(self, text):
        if text.strip():
            log.debug("wormhole: %s", text.strip())

    def flush(self):
        pass


# -- after a code matched ---------------------------------------------------------------

class NotConnected(Exception):
    """Dilation did not connect within ``CONNECT_WITHIN`` of a code's match.
    ``relay_here``: this computer cannot reach the relay (else, as far as it can tell, the
    other one cannot); ``waited``: seconds by the reactor's clock."""

    def __init__(self, relay_here: bool, waited: float):
        super().__init__("relay unreachable here" if relay_here else "no connection from the other side")
        self.relay_here, self.waited = relay_here, waited


class _HangUp(_Splice):
    """A connection that hangs up as soon as it is made (the relay's probe)."""

    def connectionMade(self) -> None:  # noqa: N802 - Twisted's name
        self.stream.loseConnection()


def probe_relay(within: float) -> defer.Deferred:
    """Whether this computer reaches the relay: a TCP connection to it, closed at once
    (the relay drops a connection that asks for nothing), within ``within`` seconds."""
    hint = parse_hint_argv(SETTINGS.relay, stderr=_Quiet())
    if hint is None:
        return defer.succeed(False)
    endpoint = HostnameEndpoint(reactor, hint.hostname, hint.port, timeout=within)
    # (``_Once`` provides Twisted's IProtocolFactory, which mypy sees only with the
    # mypy-zope plugin: see ``reactor.reactor``.)
    d = endpoint.connect(_Once(_HangUp()))  # type: ignore[arg-type]
    deadline = reactor.callLater(within + 1.0, d.cancel)  # (the endpoint's timeout is per address)

    def answered(reached: bool) -> bool:
        if deadline.active():
            deadline.cancel()
        return reached
    d.addCallbacks(lambda _proto: True, lambda _failure: False)
    d.addCallback(answered)
    return d


class Connecting:
    """A code just matched: ``done`` fires once Dilation connects, or fails with
    ``NotConnected`` after ``CONNECT_WITHIN`` seconds — saying, from a probe of the relay
    begun at the match, whose computer cannot reach it. Both sides of a code watch: each
    tells its own person within seconds, instead of waiting on a connection that will
    never come (Dilation itself keeps trying for ever)."""

    def __init__(self, claim: Claim):
        self.claim = claim
        self.started = reactor.seconds()
        self.done: defer.Deferred[None] = defer.Deferred()
        self._relay = probe_relay(RELAY_PROBE_WITHIN)
        self._timer = reactor.callLater(CONNECT_WITHIN, self._late)
        claim.status_listeners.append(self._status)
        self._status(claim)

    def _status(self, claim: Claim) -> None:
        if claim.peer_connected and not self.done.called:
            self.stop()
            self.done.callback(None)

    def stop(self) -> None:
        """Watch no more (``done`` does not fire if it has not)."""
        if self._timer.active():
            self._timer.cancel()
        if self._status in self.claim.status_listeners:
            self.claim.status_listeners.remove(self._status)

    def _late(self) -> None:
        if not self.done.called:
            self._relay.addCallback(self._give_up)

    def _give_up(self, relay_reachable: bool) -> None:
        if self.done.called or self.claim.peer_connected:
            return
        self.stop()
        waited = reactor.seconds() - self.started
        log.info("no connection %.1f s after code %s matched (the relay %s from here)",
                 waited, self.claim.code, "answers" if relay_reachable else "does not answer")
        self.done.errback(NotConnected(not relay_reachable, waited))


# -- a live link -------------------------------------------------------------------------

class Link:
    """A dilated wormhole carrying Parlour's connections, both ways."""

    def __init__(self, claim: Claim, me, table: str, them: bytes | None = None):
        self.claim = claim
        self.me = me
        self.table = table
        self.them = them  # None until a connection through it proves who is there
        self.closed = False
        self.ends: set[_LocalEnd] = set()  # the local ends of the connections it carries
        self.down_since: float | None = time.monotonic()  # not connected since (None: connected)
        claim.status_listeners.append(self._status)
        claim.dilated.listener_for(SUBPROTOCOL).listen(
            _Inbounds(self.me.public_key, self.ends.add, self.house_source))

    def _status(self, claim) -> None:
        log.debug("link %s: peer %s", self.table, "connected" if claim.peer_connected else "away")
        if claim.peer_connected:
            self.down_since = None
        elif self.down_since is None:
            self.down_since = time.monotonic()

    @property
    def healthy(self) -> bool:
        return not self.closed and self.claim.peer_connected

    def down_for(self) -> float:
        """Seconds this link has not been connected (0 while it is)."""
        if self.closed:
            return float("inf")
        return 0.0 if self.down_since is None else time.monotonic() - self.down_since

    def house_source(self) -> dict:
        """What the server on this side is told of a connection that came through us:
        the table, and who to tell once the connection proves whose it is."""
        def arrived(key: bytes) -> None:
            reactor.callFromThread(HUB.arrived, self, key)
        return {"table": self.table, "arrived": arrived}

    def open(self, port: int) -> defer.Deferred:
        """A subchannel to the server at ``port`` on the far side: asyncio's socket."""
        end = _Outbound()
        factory = _Once(end)
        d = self.claim.dilated.connector_for(SUBPROTOCOL).connect(factory)

        def connected(_proto):
            end.stream.write(_PORT.pack(port))
            theirs, local = _local_pair()
            self.ends.add(local)
            end.join(local)
            return theirs
        d.addCallback(connected)
        return d

    def close(self) -> defer.Deferred:
        """Close the wormhole, and at once every connection it carries: a player who
        came back on a new link must not find its old connection still holding its seat
        (Dilation keeps a subchannel open across its reconnections)."""
        self.closed = True
        for end in self.ends:
            if end.transport is not None:
                end.socket.abortConnection()
        self.ends.clear()
        return self.claim.close()


# -- two players at a table --------------------------------------------------------------

class Pair:
    """The link between ``me`` and ``them`` at ``table``, found again by derived codes
    whenever it is wanted and does not work (``pairs`` has the rules)."""

    def __init__(self, me, them: bytes, table: str, book: Book, tell):
        """``tell(me, event)``: say something to the person (the hub's listeners)."""
        self.me, self.them, self.table, self.book, self.tell = me, bytes(them), table, book, tell
        self.secret = pair_secret(me, them, table)
        self.stayer = stays(me.public_key, them)
        self.link: Link | None = None
        self.claims: dict[int, Claim] = {}
        self.dead: set[int] = set()
        self.wanted = 0
        self.waiting: list[defer.Deferred[Link]] = []
        self.comer_at: int | None = None
        self._lonely: DelayedCall | None = None
        self._retend: DelayedCall | None = None

    def __repr__(self):
        return f"<Pair {self.me.fingerprint}->{self.them.hex()[:8]} {'stays' if self.stayer else 'comes'}>"

    # -- wanting ----------------------------------------------------------------------
    def want(self) -> None:
        self.wanted += 1
        self.tend()

    def unwant(self) -> None:
        self.wanted = max(0, self.wanted - 1)
        self.tend()

    def adopt(self, link: Link) -> None:
        """A link made another way (an invitation's) is this pair's from now on."""
        link.them = self.them
        self._use(link)

    def tend(self) -> None:
        """Hold the claims this side should hold now, and no others."""
        if not self.wanted:
            for k in list(self.claims):
                self._drop(k)
            return
        patience = STAYER_PATIENCE if self.stayer else LINK_PATIENCE
        if self.link is not None and self.link.down_for() < patience:
            want = []
            if not self.link.healthy:  # look again once its patience is out
                self._tend_in(patience - self.link.down_for() + 0.05)
        elif self.stayer:
            want = self._window()
        else:
            want = [self._comer_code()]
        for k in list(self.claims):
            if k not in want:
                self._drop(k)
        for k in want:
            if k not in self.claims:
                self._claim(k)

    def _tend_in(self, delay: float) -> None:
        if self._retend is None or not self._retend.active():
            self._retend = reactor.callLater(delay, self.tend)

    def _window(self) -> list[int]:
        k = self.book.start(self.table, self.them)
        codes: list[int] = []
        while len(codes) < WINDOW:
            if k not in self.dead:
                codes.append(k)
            k += 1
        return codes

    def _comer_code(self) -> int:
        start = self.book.start(self.table, self.them)
        if self.comer_at is None or self.comer_at < start:
            self.comer_at = start
        while self.comer_at in self.dead:
            self.comer_at += 1
        return self.comer_at

    def _claim(self, k: int) -> None:
        log.debug("%r: claims code %d", self, k)
        self.book.claiming(self.table, self.them, k)
        versions = {"parlour": {"pair": True}}
        self.claims[k] = Claim(pair_code(self.secret, k), versions,
                               lambda c, k=k: self._live(k, c), lambda c, why, k=k: self._dead(k, c, why))
        if not self.stayer:
            self._arm_lonely(k)

    def _arm_lonely(self, k: int) -> None:
        if self._lonely is not None and self._lonely.active():
            self._lonely.cancel()

        def lonely():
            claim = self.claims.get(k)
            if claim is not None and claim.state == "claiming" and not self.stayer:
                # Nobody came: perhaps the other side's window moved past; look one up
                # (and back down again, within a few codes of the start).
                start = self.book.start(self.table, self.them)
                self.comer_at = k + 1 if k + 1 < start + 2 * WINDOW else start
                self.tend()
        self._lonely = reactor.callLater(LONELY_AFTER, lonely)

    def _drop(self, k: int) -> None:
        claim = self.claims.pop(k)
        d = claim.close()
        d.addBoth(lambda _: self.book.closed(self.table, self.them, k))

    def _live(self, k: int, claim: Claim) -> None:
        log.debug("%r: met at code %d", self, k)
        self.claims.pop(k, None)
        self.book.closed(self.table, self.them, k)
        self.book.met(self.table, self.them, k)
        self.comer_at = None
        self._use(Link(claim, self.me, self.table, self.them))

    def _use(self, link: Link) -> None:
        old, self.link = self.link, link
        if old is not None and old is not link:
            old.close()
        link.claim.status_listeners.append(lambda _c: self._link_status(link))
        self.tend()
        self._release(link)

    def _link_status(self, link: Link) -> None:
        # A coming side's dial waits for a link that works: the one it has, once Dilation
        # connects it (a code's link is live at the key exchange, before it connects).
        if link is self.link and link.healthy:
            self._release(link)
        self.tend()

    def _release(self, link: Link) -> None:
        waiting, self.waiting = self.waiting, []
        for d in waiting:
            d.callback(link)

    def _dead(self, k: int, claim: Claim, why: str) -> None:
        if self.claims.get(k) is not claim:
            return
        del self.claims[k]
        self.book.closed(self.table, self.them, k)
        if why in ("ghost", "crowded", "wrong"):
            self.dead.add(k)
        if why == "unreachable":
            self.tell(self.me, {"problem": str(mailbox_unreachable())})
        log.info("%r: code %d %s", self, k, why)
        reactor.callLater(1.0 if why in ("unreachable", "closed") else 0, self.tend)

    # -- using it ----------------------------------------------------------------------
    def wait_link(self) -> defer.Deferred:
        """The link, once there is one that works (or may: a new one is claimed)."""
        if self.link is not None and not self.link.closed and (self.link.healthy or self.stayer):
            return defer.succeed(self.link)
        d: defer.Deferred[Link] = defer.Deferred()
        self.waiting.append(d)
        self.tend()
        return d

    def close(self) -> defer.Deferred:
        self.wanted = 0
        closing = [self._close_claim(k) for k in list(self.claims)]
        if self.link is not None:
            closing.append(self.link.close())
            self.link = None
        for d in self.waiting:
            d.errback(HouseError("the table across houses was closed"))
        self.waiting = []
        return defer.DeferredList(closing)

    def _close_claim(self, k: int) -> defer.Deferred:
        claim = self.claims.pop(k)
        d = claim.close()
        d.addBoth(lambda _: self.book.closed(self.table, self.them, k))
        return d


# -- a host's code for a seat ------------------------------------------------------------

class Invitation:
    """A code a host reads out; it works once. ``events`` gets what becomes of it:
    "joining" (it matched, and Parlour is on the other side: connecting), "used" (their
    Parlour connected through it and proved its key), "burnt" (a wrong try), "spent" —
    used, but nobody came through it: ``why`` "stranger" (something that is not Parlour,
    such as the ``wormhole`` tool given Parlour's application id), "version" (another
    version of Parlour), "relay-here" / "relay-there" (no connection: this computer, or
    the other, cannot reach the relay; ``waited``), "no-show" (connected, but no Parlour
    came through) — or "failed" (``why``). The link a code makes is the invitation's until
    the guest arrives on it (it is their pair's from then on), and is closed with it
    otherwise: nothing of a spent or abandoned code stays open."""

    def __init__(self, me, table: str, offer: dict, book: Book, events):
        self.me, self.table, self.book, self.events = me, table, book, events
        self.code_ready: defer.Deferred[str] = defer.Deferred()
        self.link: Link | None = None
        self.connecting: Connecting | None = None
        self._no_show: DelayedCall | None = None
        self.claim = Claim(None, hello(offer), self._live, self._dead, self._code)

    def _code(self, _claim, code):
        if not self.code_ready.called:
            self.code_ready.callback(code)

    def _live(self, claim: Claim) -> None:
        said = parlour_said(claim.their_versions)
        if said is None or other_version(said):
            why = "stranger" if said is None else "version"
            log.info("invitation %s: used by %s", claim.code,
                     "something that is not Parlour" if said is None else "another version of Parlour")
            claim.close()
            self.events({"state": "spent", "code": claim.code, "why": why})
            return
        self.link = Link(claim, self.me, self.table)
        self.events({"state": "joining", "code": claim.code})
        self.connecting = Connecting(claim)
        self.connecting.done.addCallbacks(self._connected, self._not_connected)

    def _connected(self, _none) -> None:
        self._no_show = reactor.callLater(ARRIVE_WITHIN, self._spend, "no-show", None)

    def _not_connected(self, failure) -> None:
        gone = failure.value
        self._spend("relay-here" if gone.relay_here else "relay-there", gone.waited)

    def _spend(self, why: str, waited: float | None) -> None:
        link = self.link
        if link is None or link.them is not None:  # closed, or the guest is in after all
            return
        self.link = None
        link.close()
        event: dict[str, object] = {"state": "spent", "code": link.claim.code, "why": why}
        if waited is not None:
            event["waited"] = round(waited, 2)
        self.events(event)

    def arrived(self, link: Link) -> None:
        """A connection through ``link`` proved its key: if the link is this code's, the
        guest is in."""
        if link is self.link:
            self._stop_watching()
            self.events({"state": "used", "code": link.claim.code})

    def _stop_watching(self) -> None:
        if self.connecting is not None:
            self.connecting.stop()
        if self._no_show is not None and self._no_show.active():
            self._no_show.cancel()

    def _dead(self, claim: Claim, why: str) -> None:
        if why == "unreachable" and not self.code_ready.called:
            self.code_ready.errback(mailbox_unreachable())
            return
        if why == "wrong":
            self.events({"state": "burnt", "code": claim.code})
        elif why != "closed":
            self.events({"state": "failed", "code": claim.code, "why": why})

    def close(self) -> defer.Deferred:
        self._stop_watching()
        link = self.link
        if link is None:
            return self.claim.close()
        if link.them is None:  # nobody arrived on it: ours to close
            self.link = None
            return link.close()
        return defer.succeed(None)  # the link is the guest's pair's now


# -- everything ---------------------------------------------------------------------------

class Hub:
    """Every pair and invitation in this process, and the books they count in."""

    def __init__(self):
        self.pairs: dict[tuple[bytes, bytes, str], Pair] = {}
        self.books: dict[tuple[bytes, str], Book] = {}
        self.invitations: dict[tuple[bytes, str, int | None], Invitation] = {}
        self.listeners: dict[bytes, list] = {}

    def book(self, me, table: str, directory=None) -> Book:
        key = (me.public_key, table)
        if key not in self.books or (directory is not None and self.books[key].path is None):
            self.books[key] = Book(directory)
        return self.books[key]

    def pair(self, me, them: bytes, table: str) -> Pair:
        key = (me.public_key, bytes(them), table)
        if key not in self.pairs:
            self.pairs[key] = Pair(me, them, table, self.book(me, table), self.tell)
        return self.pairs[key]

    def tell(self, me, event: dict) -> None:
        for listener in self.listeners.get(me.public_key, []):
            listener(event)

    # -- the host ------------------------------------------------------------------------
    def invite(self, me, table: str, seat: int | None, offer: dict, directory, events) -> defer.Deferred:
        """A fresh code for ``seat`` (None: a watcher's; the one before it, unused, stops
        working)."""
        book = self.book(me, table, directory)
        old = self.invitations.pop((me.public_key, table, seat), None)
        if old is not None:
            old.close()
        invitation = Invitation(me, table, offer, book, events)
        self.invitations[(me.public_key, table, seat)] = invitation
        return invitation.code_ready

    def arrived(self, link: Link, them: bytes) -> None:
        """A connection through ``link`` proved it is ``them``'s: keep a way back for them."""
        if link.them is None:
            pair = self.pair(link.me, them, link.table)
            pair.book.set_stay(link.table, them, True)
            pair.adopt(link)
            pair.want()
            for invitation in list(self.invitations.values()):
                invitation.arrived(link)

    def stay(self, me, them: bytes, table: str, directory) -> None:
        """Keep a way back for ``them`` (a host restarted: its far guests)."""
        self.book(me, table, directory)
        pair = self.pair(me, them, table)
        pair.book.set_stay(table, them, True)
        pair.want()

    def restore(self, me, table: str, directory) -> int:
        book = self.book(me, table, directory)
        staying = book.staying(table)
        for them in staying:
            if not self.pair(me, them, table).wanted:
                self.pair(me, them, table).want()
        return len(staying)

    # -- the guest -----------------------------------------------------------------------
    def use_code(self, me, code: str, directory, timeout: float) -> defer.Deferred:
        """The host a person's code leads to, once Dilation connects the two: what the
        host said of its table. HouseError (for the person) otherwise — a word that is not
        a code word is refused before anything is dialled (the code allows one try)."""
        try:
            code = parse_code(code, code_words())
        except CodeError as exc:
            return defer.fail(HouseError(str(exc)))
        result: defer.Deferred[dict] = defer.Deferred()

        def live(claim: Claim):
            if timer.active():
                timer.cancel()
            said = parlour_said(claim.their_versions)
            try:
                assert said is not None
                them, table, port = bytes.fromhex(said["key"]), str(said["table"]), int(said["port"])
            except (AssertionError, KeyError, ValueError, TypeError):
                claim.close()
                result.errback(HouseError("that code belongs to something other than a Parlour table"))
                return
            if other_version(said):
                claim.close()
                result.errback(HouseError("the host's Parlour is a different version from yours. "
                                          "Both of you need the same version of Parlour"))
                return
            link = Link(claim, me, table, them)

            def connected(_none):
                self.book(me, table, directory)
                pair = self.pair(me, them, table)
                pair.adopt(link)
                pair.want()
                result.callback({"key": them, "table": table, "port": port,
                                 "seat": said.get("seat"), "name": said.get("name", ""),
                                 "host": said.get("host", ""), "address": house_address(them, table),
                                 "watch": said.get("watch") is True})

            def not_connected(failure):
                gone = failure.value
                link.close()
                result.errback(HouseError(_NOT_CONNECTED[gone.relay_here], relay_details(), gone.waited))
            Connecting(claim).done.addCallbacks(connected, not_connected)

        def dead(claim: Claim, why: str):
            if timer.active():
                timer.cancel()
            if result.called:
                return
            if why == "unreachable":
                result.errback(mailbox_unreachable())
                return
            messages = {
                "wrong": "that code did not match the host's. Check it with the host; they "
                         "will need to make a new one (each code allows one try)",
                "crowded": "that code is already in use. Ask the host for a new one",
                "ghost": "the host's invitation stopped answering. Ask the host for a new code",
            }
            result.errback(HouseError(messages.get(why, "the invitation ended before you joined")))

        claim = Claim(code, hello({"key": me.public_key.hex()}), live, dead,
                      ghost_after=INVITED_GHOST_AFTER)

        def too_late():
            if not result.called:
                claim.close()
                result.errback(HouseError(
                    "nobody is waiting with that code: check it with the host (their "
                    "invitation may have been closed, or a new code made since)")
                    if claim.welcomed else mailbox_unreachable())
        timer = reactor.callLater(timeout, too_late)
        return result

    def dial(self, me, them: bytes, table: str, port: int) -> defer.Deferred:
        """A socket to the server at ``port`` of ``them`` at ``table``."""
        pair = self.pair(me, them, table)
        if not pair.wanted:
            pair.want()
        d = pair.wait_link()
        d.addCallback(lambda link: link.open(port))
        return d

    def want(self, me, them: bytes, table: str, directory=None) -> None:
        self.book(me, table, directory)
        self.pair(me, them, table).want()

    # -- the end -------------------------------------------------------------------------
    def forget(self, me, table: str) -> defer.Deferred:
        """The table ended here (or we left it): close its pairs and invitations."""
        closing = []
        for pair in [k for k in self.pairs if k[0] == me.public_key and k[2] == table]:
            closing.append(self.pairs.pop(pair).close())
        for invitation in [k for k in self.invitations if k[0] == me.public_key and k[1] == table]:
            closing.append(self.invitations.pop(invitation).close())
        return defer.DeferredList(closing)

    def close_all(self) -> defer.Deferred:
        closing = [p.close() for p in self.pairs.values()]
        closing += [i.close() for i in self.invitations.values()]
        self.pairs.clear()
        self.invitations.clear()
        return defer.DeferredList(closing)


HUB = Hub()
before_stop(HUB.close_all)  # its wormholes closed before the reactor stops
