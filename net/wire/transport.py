"""Authenticated, encrypted connections between a host and its guests.

TCP + TLS 1.3. Each side's TLS certificate is self-signed and made from its Parlour
identity key (Ed25519; OpenSSL 3 supports Ed25519 certificates in TLS 1.3), so there is
no certificate authority: the *client pins the host* by checking that the certificate's
public key has the fingerprint it expected — from the mDNS advert, typed by the user, or
remembered from the first join to that address (trust on first use).

The host authenticates the client at the application level, inside the TLS channel:

1. host -> client ``hello``: protocol version, a fresh 32-byte random ``challenge``, name.
2. client -> host ``auth``: protocol version, the client's public key, name, and an
   Ed25519 signature over ``AUTH_CONTEXT || challenge || host public key || client
   public key``.
3. host -> client ``welcome`` (or ``error`` with a reason, then hang-up).

Why this binds the client's proof to *this* host: the host public key in the signed
bytes is the one the client took from the TLS certificate it just pinned, not anything
the host said. TLS 1.3 proves the server holds that key's private half (CertificateVerify
is checked whatever the verify mode), so a machine in the middle either shows its own
key — and the client refuses it, or signs the middle man's key, which the real host
rejects — or relays ciphertext it cannot read. A malicious host cannot replay a guest's
signature to another host either: it names the wrong host key and a used challenge. The
context prefix keeps handshake signatures apart from signatures over game actions.

Versions: the ``hello`` and ``auth`` messages always carry ``protocol`` and are checked
before anything else in them, so future versions can change everything else and still
tell an old peer clearly who needs to update.

Resources: the server accepts plain TCP and starts TLS itself, so that it sees every
connection from its first moment; given an ``admission.Admission`` it bounds the
connections that hold no seat (see there). asyncio's TLS layer reads through a buffer
of ``TLS_READ_BUFFER`` bytes instead of its 256 KiB default, which every connection
would otherwise allocate up front.

Across houses: a house address (``address.house_address``) is reached by the dialler
``net.houses`` gives the wire when it is imported (``reach_houses_with``), and a
connection that came across houses is handed to the server listening on the port it
names (``SERVERS``). The wire knows the names, not the way: it imports nothing above it.

Public API: ``open_connection``, ``start_server``, ``Connection``, ``Server`` and the
``HandshakeError`` family.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import os
import socket
import ssl
import struct
import tempfile
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast

try:  # the kernel's socket queue (``Connection.nothing_buffered``): Unix only
    import fcntl
    import termios
except ImportError:  # pragma: no cover - Windows
    fcntl = termios = None  # type: ignore[assignment]

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.x509.oid import NameOID

from net.wire import framing
from net.wire.address import HOUSE_BIND, house_address, is_house
from net.constants import (
    AUTH_CONTEXT,
    CHALLENGE_BYTES,
    CLOSE_TIMEOUT,
    HANDSHAKE_TIMEOUT,
    PROTOCOL_VERSION,
    TLS_READ_BUFFER,
)
from net.wire.framing import SCHEMAS, ConnectionClosed, ProtocolError, Schemas, message
from net.wire.identity import (
    PUBLIC_KEY_BYTES,
    Identity,
    KnownHosts,
    fingerprint,
    normalize_fingerprint,
    same_fingerprint,
    verify,
)

log = logging.getLogger(__name__)

message("hello", protocol=int, challenge=bytes, name=str)
message("auth", protocol=int, key=bytes, sig=bytes, name=str)
message("welcome", name=str)


class HandshakeError(ConnectionError):
    """The connection could not be set up; the message is meant for the person."""


class PinMismatch(HandshakeError):
    """The host's key is not the one we expected (wrong table, or someone in between)."""


class VersionMismatch(HandshakeError):
    """The two sides speak different protocol versions."""


def version_message(theirs: int, ours: int) -> str:
    """What to tell the person on our side when the table runs ``theirs``."""
    advice = "update Parlour" if theirs > ours else "the host needs to update Parlour"
    return f"this table runs Parlour protocol {theirs}; you have {ours} — {advice}"


def auth_payload(challenge: bytes, host_key: bytes, client_key: bytes) -> bytes:
    """The exact bytes a client signs to prove its key to this host, this time."""
    return AUTH_CONTEXT + challenge + host_key + client_key


# -- connections ----------------------------------------------------------------------

class Connection:
    """One authenticated TLS connection to a peer, carrying schema-checked messages."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 peer_key: bytes, peer_name: str, schemas: Schemas = SCHEMAS):
        self._reader = reader
        self._writer = writer
        self._schemas = schemas
        self._send_lock = asyncio.Lock()
        self.peer_key = peer_key
        self.peer_name = peer_name
        self.peer_fingerprint = fingerprint(peer_key)
        self.address: tuple = writer.get_extra_info("peername") or ()
        self.ticket = None  # the server's admission ticket while it holds no seat

    def __repr__(self) -> str:
        return f"<Connection {self.peer_name!r} {self.peer_fingerprint} {self.address}>"

    @property
    def closed(self) -> bool:
        return self._writer.is_closing()

    async def send(self, msg: dict) -> None:
        """Send one message. Raises ConnectionClosed if the connection is gone."""
        await self._write(framing.frame_of(msg))

    def send_now(self, msg: dict) -> bool:
        """Write ``msg`` at once, without waiting, if nothing is waiting to be written
        before it (no send under way, the transport's buffer empty): True. Else False,
        and nothing is written (``send`` it instead). ConnectionClosed as ``send``."""
        if self._send_lock.locked() or self._writer.is_closing() \
                or self._writer.transport.get_write_buffer_size():
            return False
        data = framing.frame_of(msg)  # (a Framed message: the bytes made once for all links)
        try:
            self._writer.write(data)
        except (ConnectionError, ssl.SSLError) as exc:
            raise ConnectionClosed(f"connection lost: {exc}") from None
        return True

    async def send_raw(self, data: bytes) -> None:
        """Send bytes as they are, not a framed message (fault-injection tests only)."""
        await self._write(data)

    async def _write(self, data: bytes) -> None:
        async with self._send_lock:
            if self._writer.is_closing():
                raise ConnectionClosed("connection is closed")
            try:
                self._writer.write(data)
                await self._writer.drain()
            except (ConnectionError, ssl.SSLError) as exc:
                raise ConnectionClosed(f"connection lost: {exc}") from None

    def nothing_buffered(self) -> bool:
        """Whether nothing the peer sent is waiting on this machine to be read: not in
        the stream's buffer, nor the TLS layer's (held back or undecrypted), nor the
        kernel's queue for the socket. Read the clock *before* asking: a True then means
        that any frame read later came in after that reading (``heartbeat.Link.arrived``).

        False whenever it cannot tell: a connection across houses (its socket is one end
        of a local pair, and what waits in the wormhole before the pair is not seen
        here), a closed one, a platform without ``FIONREAD``."""
        # asyncio keeps the stream's buffer private (a test holds this to be True on a
        # quiet connection, so a Python that renames it is caught there)
        if getattr(self._reader, "_buffer", True):
            return False
        transport = cast(asyncio.Transport, self._writer.transport)
        if transport is None or transport.is_closing() or not transport.is_reading():
            return False  # (a paused TLS layer holds records back)
        tls = transport.get_extra_info("ssl_object")
        if tls is not None and tls.pending():
            return False
        undecrypted = getattr(transport, "get_read_buffer_size", None)
        if undecrypted is not None and undecrypted():
            return False
        sock = transport.get_extra_info("socket")
        if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
            return False
        return _kernel_queue(sock.fileno()) == 0

    async def recv(self) -> dict:
        """The next message. ConnectionClosed at the end; ProtocolError for garbage (the
        caller usually answers that with ``reject``)."""
        try:
            return await framing.read_frame(self._reader, self._schemas)
        except (ConnectionError, ssl.SSLError) as exc:
            raise ConnectionClosed(f"connection lost: {exc}") from None

    def __aiter__(self):
        return self

    async def __anext__(self) -> dict:
        try:
            return await self.recv()
        except ConnectionClosed:
            raise StopAsyncIteration from None

    async def reject(self, reason: str) -> None:
        """Tell the peer why, then hang up (e.g. after a ProtocolError)."""
        try:
            await within(CLOSE_TIMEOUT, self.send({"type": "error", "reason": reason}))
        except (ConnectionClosed, TimeoutError, ProtocolError):
            pass
        await self.close()

    async def close(self) -> None:
        await _close_writer(self._writer)


def _kernel_queue(fd: int) -> int | None:
    """How many bytes the kernel holds for socket ``fd``, not yet read (None: unknown)."""
    if _FIONREAD is None:
        return None
    try:
        answer = fcntl.ioctl(fd, _FIONREAD, b"\0" * _QUEUED.size)
    except OSError:  # closed meanwhile
        return None
    return _QUEUED.unpack(answer)[0]


_QUEUED = struct.Struct("i")
_FIONREAD: int | None = getattr(termios, "FIONREAD", None) if termios is not None else None


def this_task() -> asyncio.Task:
    """The task running the caller: there is one in every coroutine the loop runs, which
    is where this is called from (``asyncio.current_task`` also answers outside one)."""
    task = asyncio.current_task()
    assert task is not None, "called outside a task"
    return task


async def within(seconds: float | None, awaitable):
    """``await awaitable``, for at most ``seconds`` (None: no limit), else TimeoutError.

    Not ``asyncio.wait_for``: on Python 3.11 a cancellation that arrives just as the
    awaited thing finishes is lost there (the result is returned instead), so whoever
    cancelled — a lobby stopping mid-check, a guest told to stop — waits in vain.
    ``asyncio.timeout`` lets every cancellation through."""
    async with asyncio.timeout(seconds):
        return await awaitable


async def _close_writer(writer: asyncio.StreamWriter) -> None:
    """Close politely, within ``CLOSE_TIMEOUT``; a failure aborts the connection. A
    cancellation of the closing task aborts it too, and goes on to whoever cancelled
    (it is theirs to see)."""
    writer.close()
    try:
        # A polite TLS close waits for the peer's close_notify; don't wait forever.
        await within(CLOSE_TIMEOUT, writer.wait_closed())
    except asyncio.CancelledError:
        writer.transport.abort()
        if this_task().cancelling():
            raise
        # Not ours: asyncio's TLS transport cancels its close waiter when the peer
        # hangs up first. The connection is closed, which is all that was asked.
    except Exception:  # noqa: BLE001 - closing is best effort
        writer.transport.abort()


# -- certificates & TLS contexts ------------------------------------------------------

_cert_cache: dict[bytes, bytes] = {}


def certificate_pem(identity: Identity) -> bytes:
    """A self-signed X.509 certificate for the identity key (PEM), cached per key.

    Nothing checks its names or dates — the key is what gets pinned — so it is made
    valid from 2000 to 9999 to be immune to wrong clocks.
    """
    key = identity.public_key
    if key not in _cert_cache:
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Parlour " + identity.fingerprint)])
        cert = (x509.CertificateBuilder()
                .subject_name(name).issuer_name(name)
                .public_key(identity.private_key.public_key())
                .serial_number(int.from_bytes(key[:16], "big") >> 1 or 1)
                .not_valid_before(datetime.datetime(2000, 1, 1))
                .not_valid_after(datetime.datetime(9999, 12, 31))
                .sign(identity.private_key, None))
        _cert_cache[key] = cert.public_bytes(serialization.Encoding.PEM)
    return _cert_cache[key]


def server_context(identity: Identity) -> ssl.SSLContext:
    """TLS 1.3-only server context presenting the identity's certificate."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    # ssl only loads certificates from files: write one to a private temporary directory
    # (mode 0700, file 0600) and delete it as soon as it is loaded.
    with tempfile.TemporaryDirectory(prefix="parlour-tls-") as tmp:
        path = Path(tmp) / "cert.pem"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(certificate_pem(identity) + identity.private_pem())
        ctx.load_cert_chain(path)
    return ctx


def _small_tls_buffers() -> None:
    """asyncio's SSLProtocol allocates ``max_size`` bytes (256 KiB) per connection up
    front and reads that much at a time; a TLS record is at most 16 KiB, so a smaller
    read costs nothing and bounds an idle connection's memory (constants.TLS_READ_BUFFER).
    A class attribute of the stdlib's TLS layer: left alone where it does not exist."""
    from asyncio import sslproto
    if getattr(sslproto.SSLProtocol, "max_size", 0) > TLS_READ_BUFFER:
        sslproto.SSLProtocol.max_size = TLS_READ_BUFFER


def client_context() -> ssl.SSLContext:
    """TLS 1.3-only client context. Chain and hostname checks are off on purpose: there
    is no CA, and the host's key is pinned by fingerprint right after the handshake."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def peer_certificate_key(writer: asyncio.StreamWriter) -> bytes:
    """Raw Ed25519 public key from the peer's TLS certificate."""
    ssl_object = writer.get_extra_info("ssl_object")
    der = ssl_object.getpeercert(binary_form=True) if ssl_object else None
    if not der:
        raise HandshakeError("the host presented no certificate")
    key = x509.load_der_x509_certificate(der).public_key()
    if not isinstance(key, Ed25519PublicKey):
        raise HandshakeError("the host's certificate is not a Parlour (Ed25519) key")
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


# -- client ---------------------------------------------------------------------------

async def open_connection(host: str, port: int, identity: Identity,
                          expect_fingerprint: str | None = None, *,
                          known_hosts: KnownHosts | None = None,
                          protocol: int = PROTOCOL_VERSION,
                          schemas: Schemas = SCHEMAS,
                          timeout: float = HANDSHAKE_TIMEOUT) -> Connection:
    """Connect to a host, pin its key, prove ours; raise HandshakeError (with a message
    for the person) or OSError when that fails.

    The expected fingerprint is ``expect_fingerprint`` if given, else what
    ``known_hosts`` remembers for ``host:port``; with neither, any key is accepted (and
    remembered in ``known_hosts`` when given) and the caller shows
    ``peer_fingerprint`` so people can compare it.
    """
    _small_tls_buffers()
    reader, writer = await within(timeout, _open(host, port, identity))
    try:
        return await within(timeout, _client_handshake(reader, writer, identity, f"{host}:{port}",
                                                       expect_fingerprint, known_hosts, protocol,
                                                       schemas))
    except BaseException as exc:
        await _close_writer(writer)
        if isinstance(exc, TimeoutError):
            raise HandshakeError("the host did not finish the handshake in time") from None
        if isinstance(exc, (ProtocolError, ConnectionClosed)):
            raise HandshakeError(f"the handshake failed: {exc}") from None
        raise


#: Every Parlour server in this process, by port, that a connection across houses may
#: be handed to (``Server`` registers itself; the far side names the port).
SERVERS: dict[int, "Server"] = {}

#: How a house address is reached: ``(identity, address, port) -> connected socket``,
#: given by ``net.houses`` when it is imported (None: nothing here can reach a house).
HouseDialler = Callable[[Identity, str, int], Awaitable[socket.socket]]
_house_dialler: HouseDialler | None = None


def reach_houses_with(dial: HouseDialler) -> None:
    """From now on, reach a house address with ``dial`` (``net.houses`` calls this)."""
    global _house_dialler
    _house_dialler = dial


async def _open(host: str, port: int, identity: Identity):
    """TCP to ``host:port`` — or, for a house address, a connection through the
    wormhole to that player (the dialler ``net.houses`` gave) — with TLS started on it."""
    if not is_house(host):
        return await asyncio.open_connection(host, port, ssl=client_context())
    if _house_dialler is None:
        raise HandshakeError("this program cannot reach a player in another house")
    sock = await _house_dialler(identity, host, port)
    return await asyncio.open_connection(sock=sock, ssl=client_context(), server_hostname="")


async def _client_handshake(reader, writer, identity: Identity, address: str,
                            expect: str | None, known_hosts: KnownHosts | None,
                            protocol: int, schemas: Schemas) -> Connection:
    host_key = peer_certificate_key(writer)
    _check_pin(address, fingerprint(host_key), expect, known_hosts)
    hello = await _first_message(reader, "hello")
    if hello["protocol"] != protocol:
        reason = version_message(hello["protocol"], protocol)
        await _send_error(writer, f"this guest runs Parlour protocol {protocol}")
        raise VersionMismatch(reason)
    schemas.check(hello)
    if len(hello["challenge"]) != CHALLENGE_BYTES:
        raise HandshakeError("the host sent a malformed challenge")
    sig = identity.sign(auth_payload(hello["challenge"], host_key, identity.public_key))
    await framing.write_frame(writer, {"type": "auth", "protocol": protocol,
                                       "key": identity.public_key, "sig": sig,
                                       "name": identity.name})
    reply = await framing.read_frame(reader, schemas)
    if reply["type"] == "error":
        raise HandshakeError(f"the host refused: {reply['reason']}")
    if reply["type"] != "welcome":
        raise HandshakeError(f"the host sent '{reply['type']}' instead of a welcome")
    return Connection(reader, writer, host_key, hello["name"], schemas)


def _check_pin(address: str, seen: str, expect: str | None,
               known_hosts: KnownHosts | None) -> None:
    wanted = expect or (known_hosts.get(address) if known_hosts else None)
    if wanted is not None and not same_fingerprint(wanted, seen):
        raise PinMismatch(
            f"the table at {address} has key {seen}, but {_safe(wanted)} was expected — "
            "it may be a different computer, or someone may be in between. Compare the "
            "fingerprint with the host before trusting it.")
    if known_hosts is not None:
        known_hosts.remember(address, seen)


def _short(exc: BaseException) -> str:
    return str(exc)[:200] or type(exc).__name__


def _safe(fp: str) -> str:
    try:
        return normalize_fingerprint(fp)
    except ValueError:
        return repr(fp[:40])


async def _first_message(reader: asyncio.StreamReader, expected: str) -> dict:
    """The peer's first message, with its version checkable before its schema."""
    msg = await framing.read_frame(reader, schemas=None)
    if msg["type"] == "error":
        raise HandshakeError(f"the peer refused: {str(msg.get('reason'))[:300]}")
    if msg["type"] != expected or not isinstance(msg.get("protocol"), int) \
            or isinstance(msg.get("protocol"), bool):
        raise HandshakeError(f"the peer did not start with a Parlour '{expected}'")
    return msg


async def _send_error(writer: asyncio.StreamWriter, reason: str) -> None:
    try:
        await within(CLOSE_TIMEOUT, framing.write_frame(writer, {"type": "error", "reason": reason}))
    except Exception:  # noqa: BLE001 - best effort before hang-up (a cancellation goes on)
        pass


# -- server ---------------------------------------------------------------------------

OnConnection = Callable[[Connection], Awaitable[Any]]


async def _start_tls(writer: asyncio.StreamWriter, context: ssl.SSLContext,
                     timeout: float) -> None:
    """The server side of the TLS handshake on an accepted TCP connection."""
    raw = writer.transport
    try:
        await writer.start_tls(context, ssl_handshake_timeout=timeout)
    except AttributeError:
        if writer.transport is not None:
            raise
    except ConnectionResetError as exc:
        raise LookedIn("hung up before the TLS handshake was done") from exc
    if writer.transport is None:
        # The peer hung up (or was dropped for room) just as the handshake finished:
        # asyncio then has no transport to hand back, and trips over that. Keep the
        # writer on the (closed) socket so it is closed and collected like any other.
        raw.abort()
        writer._transport = raw  # noqa: SLF001 - asyncio's own field, restored
        raise ConnectionClosed("the connection ended during the TLS handshake")


class LookedIn(ConnectionError):
    """The peer hung up before the TLS handshake was done: most likely a lobby checking
    that the table answers (net/sessions/answering.py connects and closes at once), so
    not a refusal to log or count."""


class _UntilTls(asyncio.StreamReaderProtocol):
    """A plain TCP connection that reads nothing until TLS takes it over: a byte read
    before ``start_tls`` would be lost to the TLS handshake."""

    def connection_made(self, transport) -> None:
        transport.pause_reading()
        super().connection_made(transport)


#: How many reasons for refused handshakes a server keeps, the most recent: a flood of bad
#: connections must not grow a host's memory for ever (``Server.refused`` counts them all).
REFUSALS_KEPT = 64


class Server:
    """A listening host. Each authenticated guest is handed to ``on_connection``; the
    connection is closed when that coroutine returns. Failed handshakes are logged and
    dropped without disturbing anyone else (one hung up before TLS — a lobby's check
    that the table answers — is a look: debug log only, not in ``refusals``). With an ``admission``, every accepted
    connection gets a ticket from it at once (``Connection.ticket``), given back when
    the connection ends; the host marks it seated or waiting."""

    def __init__(self, identity: Identity, on_connection: OnConnection, *,
                 protocol: int, schemas: Schemas, timeout: float, admission=None):
        self.identity = identity
        self._on_connection = on_connection
        self._protocol = protocol
        self._schemas = schemas
        self._timeout = timeout
        self._admission = admission
        self._context = server_context(identity)
        self._server: asyncio.Server | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._port = 0
        self._closing = False
        self._tasks: dict[asyncio.Task, asyncio.StreamWriter] = {}
        #: Reasons for the last ``REFUSALS_KEPT`` refused handshakes, most recent last (for
        #: logs and tests), and how many were refused in all.
        self.refusals: deque[str] = deque(maxlen=REFUSALS_KEPT)
        self.refused = 0

    @property
    def port(self) -> int:
        return self._port

    @property
    def sockets(self) -> tuple:
        return self._server.sockets if self._server is not None else ()

    @property
    def _listening_loop(self) -> asyncio.AbstractEventLoop:
        """The loop the server listens on: ``start_server`` starts it before handing
        the server out, so it is there for anyone who holds one."""
        assert self._loop is not None, "a Server is made listening by start_server"
        return self._loop

    async def _start(self, host: str | None, port: int) -> None:
        loop = self._loop = asyncio.get_running_loop()
        if host == HOUSE_BIND:
            host = "127.0.0.1"  # only connections across houses are handed to it

        def accepted() -> _UntilTls:
            return _UntilTls(asyncio.StreamReader(loop=loop), self._handle, loop=loop)
        self._server = await loop.create_server(accepted, host, port)
        self._port = self._server.sockets[0].getsockname()[1]
        SERVERS[self._port] = self

    def adopt_threadsafe(self, sock, house: dict) -> None:
        """Serve a connection that came across houses (a socket whose far end is a
        wormhole's subchannel), from any thread. ``house``: its table, and whom to tell
        whose key it proved (``net.houses.links``)."""
        loop = self._listening_loop

        def adopt():
            if self._closing:
                sock.close()
                return

            def accepted() -> _UntilTls:
                return _UntilTls(asyncio.StreamReader(loop=loop),
                                 lambda r, w: self._handle(r, w, house), loop=loop)
            asyncio.ensure_future(loop.connect_accepted_socket(accepted, sock))
        try:
            loop.call_soon_threadsafe(adopt)
        except RuntimeError:  # the loop has closed
            sock.close()

    async def _handle(self, reader: asyncio.StreamReader,
                      writer: asyncio.StreamWriter, house: dict | None = None) -> None:
        task = this_task()
        self._tasks[task] = writer
        ticket = None
        if self._admission is not None:
            peer = writer.get_extra_info("peername") or ("?",)
            source = f"house:{house['table']}" if house is not None else str(peer[0])
            ticket = self._admission.arrive(source, lambda why: writer.transport.abort())
        try:
            await self._serve(reader, writer, ticket, house)
        except asyncio.CancelledError:
            if not self._closing:
                raise
            # Cancelled by close(): a normal end for this handler, not an error to log.
        finally:
            del self._tasks[task]
            if ticket is not None:
                self._admission.leave(ticket)

    async def _serve(self, reader: asyncio.StreamReader,
                     writer: asyncio.StreamWriter, ticket, house: dict | None = None) -> None:
        try:
            conn = await within(self._timeout, self._handshake(reader, writer))
        except LookedIn as exc:
            log.debug("%s %s", writer.get_extra_info("peername"), exc)
            await _close_writer(writer)
            return
        except (HandshakeError, ProtocolError, ConnectionClosed, OSError, ssl.SSLError,
                TimeoutError) as exc:
            self._refuse(writer, exc)
            await _close_writer(writer)
            return
        conn.ticket = ticket
        if house is not None:
            # Where this player is, for the roster and the logs: across houses, by key.
            conn.address = (house_address(conn.peer_key, house["table"]), 0)
            house["arrived"](conn.peer_key)
        try:
            await self._on_connection(conn)
        except Exception:  # noqa: BLE001 - one guest's failure must not stop the host
            log.exception("connection handler failed for %r", conn)
        finally:
            await conn.close()

    def _refuse(self, writer: asyncio.StreamWriter, exc: BaseException) -> None:
        reason = str(exc) or type(exc).__name__
        self.refusals.append(reason)  # (the oldest kept falls out)
        self.refused += 1
        log.info("refused %s: %s", writer.get_extra_info("peername"), reason)

    async def _handshake(self, reader, writer) -> Connection:
        await _start_tls(writer, self._context, self._timeout)
        challenge = os.urandom(CHALLENGE_BYTES)
        await framing.write_frame(writer, {"type": "hello", "protocol": self._protocol,
                                           "challenge": challenge,
                                           "name": self.identity.name})
        try:
            auth = await _first_message(reader, "auth")
        except (HandshakeError, ProtocolError) as exc:
            # Say why before hanging up, whatever was wrong (a protocol that is not a
            # number, a message that is not "auth"): an old or foreign client learns
            # which protocol this table speaks.
            await _send_error(writer, f"this table runs Parlour protocol {self._protocol} and "
                                      f"expects an 'auth' message with a whole-number "
                                      f"'protocol' first ({_short(exc)})")
            raise
        if auth["protocol"] != self._protocol:
            await _send_error(writer, version_message(self._protocol, auth["protocol"]))
            raise VersionMismatch(version_message(auth["protocol"], self._protocol))
        try:
            self._schemas.check(auth)
        except ProtocolError as exc:
            await _send_error(writer, f"your 'auth' message is malformed ({_short(exc)})")
            raise
        key = auth["key"]
        payload = auth_payload(challenge, self.identity.public_key, key)
        if len(key) != PUBLIC_KEY_BYTES or not verify(key, auth["sig"], payload):
            await _send_error(writer, "your identity signature did not check out")
            raise HandshakeError("client signature did not verify")
        await framing.write_frame(writer, {"type": "welcome", "name": self.identity.name})
        return Connection(reader, writer, key, auth["name"], self._schemas)

    def close(self) -> None:
        """Stop listening and drop every connection."""
        self._closing = True
        if SERVERS.get(self._port) is self:
            del SERVERS[self._port]
        if self._server is not None:
            self._server.close()
        for writer in self._tasks.values():
            # Aborting the socket ends each handler's recv() with ConnectionClosed.
            writer.transport.abort()

    async def wait_closed(self) -> None:
        """Wait for handlers to finish; those that ignore the hang-up are cancelled."""
        if self._tasks:
            _, stuck = await asyncio.wait(list(self._tasks), timeout=CLOSE_TIMEOUT)
            for task in stuck:
                task.cancel()
            if stuck:
                await asyncio.wait(stuck)
        if self._server is not None:
            await self._server.wait_closed()

    async def __aenter__(self) -> "Server":
        return self

    async def __aexit__(self, *exc) -> None:
        self.close()
        await self.wait_closed()


async def start_server(host: str | None, port: int, identity: Identity,
                       on_connection: OnConnection, *,
                       protocol: int = PROTOCOL_VERSION, schemas: Schemas = SCHEMAS,
                       timeout: float = HANDSHAKE_TIMEOUT, admission=None) -> Server:
    """Listen on ``host:port`` (port 0 = any free port, see ``Server.port``);
    ``host`` ``HOUSE_BIND``: only for connections across houses (``net.houses``)."""
    _small_tls_buffers()
    server = Server(identity, on_connection, protocol=protocol, schemas=schemas,
                    timeout=timeout, admission=admission)
    await server._start(host, port)
    return server
