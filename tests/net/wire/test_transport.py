"""Transport over 127.0.0.1: handshake, pinning, client proof, versions, no plaintext."""

import asyncio
import os

import pytest

from net.wire import framing

from net.wire import transport
from net.wire.framing import ConnectionClosed, ProtocolError
from net.wire.identity import Identity, KnownHosts
from net.wire.transport import HandshakeError, PinMismatch, VersionMismatch
from tests.waits import until

LOCAL = "127.0.0.1"


class Host:
    """A host whose handler records guests and echoes ``chat`` messages back."""

    def __init__(self):
        self.guests = []
        self.errors = []

    async def on_connection(self, conn):
        self.guests.append(conn)
        while True:
            try:
                msg = await conn.recv()
            except ConnectionClosed:
                return
            except ProtocolError as exc:
                self.errors.append(str(exc))
                await conn.reject(f"bad message: {exc}")
                return
            await conn.send({"type": "chat", "text": "echo " + msg["text"]})


async def serve(identity, schemas, quick, **kw):
    host = Host()
    server = await transport.start_server(LOCAL, 0, identity, host.on_connection,
                                          schemas=schemas, timeout=quick.handshake_timeout,
                                          **kw)
    return host, server


def test_handshake_and_messages(arun, host_id, guest_id, schemas, quick):
    async def go():
        host, server = await serve(host_id, schemas, quick)
        async with server:
            conn = await transport.open_connection(
                LOCAL, server.port, guest_id, host_id.fingerprint, schemas=schemas)
            assert conn.peer_key == host_id.public_key
            assert conn.peer_fingerprint == host_id.fingerprint
            assert conn.peer_name == "Hostess"
            await conn.send({"type": "chat", "text": "hi"})
            assert await conn.recv() == {"type": "chat", "text": "echo hi"}
            assert await until(lambda: host.guests)
            guest = host.guests[0]
            assert guest.peer_key == guest_id.public_key
            assert guest.peer_fingerprint == guest_id.fingerprint
            assert guest.peer_name == "Guest"
            await conn.close()
    arun(go())


def test_expected_fingerprint_accepts_typed_forms(arun, host_id, guest_id, schemas, quick):
    async def go():
        _, server = await serve(host_id, schemas, quick)
        async with server:
            typed = host_id.fingerprint.replace("-", " ").upper()
            conn = await transport.open_connection(LOCAL, server.port, guest_id, typed,
                                                   schemas=schemas)
            await conn.close()
    arun(go())


def test_pinned_fingerprint_mismatch_refused(arun, host_id, guest_id, schemas, quick):
    other = Identity.generate()

    async def go():
        host, server = await serve(host_id, schemas, quick)
        async with server:
            with pytest.raises(PinMismatch) as err:
                await transport.open_connection(LOCAL, server.port, guest_id,
                                                other.fingerprint, schemas=schemas)
            assert host_id.fingerprint in str(err.value)
            assert other.fingerprint in str(err.value)
            # The guest hung up before proving anything: the host never saw a guest.
            assert await until(lambda: server.refusals)
            assert host.guests == []
    arun(go())


def test_trust_on_first_use(arun, host_id, guest_id, schemas, quick, tmp_path):
    known = KnownHosts(tmp_path)

    async def go():
        _, server = await serve(host_id, schemas, quick)
        async with server:
            address = f"{LOCAL}:{server.port}"
            conn = await transport.open_connection(LOCAL, server.port, guest_id,
                                                   known_hosts=known, schemas=schemas)
            await conn.close()
            assert known.get(address) == host_id.fingerprint
            # A different key at the same address is refused from now on.
            _, impostor = await serve(Identity.generate(), schemas, quick)
            async with impostor:
                known.remember(f"{LOCAL}:{impostor.port}", host_id.fingerprint)
                with pytest.raises(PinMismatch):
                    await transport.open_connection(LOCAL, impostor.port, guest_id,
                                                    known_hosts=known, schemas=schemas)
    arun(go())


async def raw_client(port):
    """A TLS connection with no Parlour handshake done: (reader, writer, hello)."""
    reader, writer = await asyncio.open_connection(LOCAL, port, ssl=transport.client_context())
    hello = await framing.read_frame(reader)
    return reader, writer, hello


async def expect_error_then_eof(reader):
    reply = await framing.read_frame(reader)
    assert reply["type"] == "error"
    with pytest.raises((ConnectionClosed, ProtocolError, ConnectionError)):
        await framing.read_frame(reader)
    return reply["reason"]


@pytest.mark.parametrize("forge", ["random", "other_host", "other_challenge", "other_key"])
def test_wrong_client_signature_refused(arun, host_id, guest_id, schemas, quick, forge):
    async def go():
        host, server = await serve(host_id, schemas, quick)
        async with server:
            reader, writer, hello = await raw_client(server.port)
            challenge, host_key, key = hello["challenge"], host_id.public_key, guest_id.public_key
            signer = guest_id
            if forge == "other_host":   # a proof made for some other table
                host_key = Identity.generate().public_key
            elif forge == "other_challenge":  # a replayed proof
                challenge = os.urandom(32)
            elif forge == "other_key":  # claiming someone else's key
                signer = Identity.generate()
            sig = signer.sign(transport.auth_payload(challenge, host_key, key))
            if forge == "random":
                sig = os.urandom(64)
            await framing.write_frame(writer, {"type": "auth", "protocol": hello["protocol"],
                                               "key": key, "sig": sig, "name": "Mallory"})
            assert "signature" in await expect_error_then_eof(reader)
            writer.close()
            assert host.guests == []
            assert "signature" in server.refusals[-1]
            # The host goes on: an honest guest still gets in.
            conn = await transport.open_connection(LOCAL, server.port, guest_id,
                                                   host_id.fingerprint, schemas=schemas)
            await conn.close()
    arun(go())


def test_version_mismatch_message_for_guest(arun, host_id, guest_id, schemas, quick):
    async def go():
        host, server = await serve(host_id, schemas, quick, protocol=2)
        async with server:
            with pytest.raises(VersionMismatch) as err:
                await transport.open_connection(LOCAL, server.port, guest_id,
                                                host_id.fingerprint, protocol=1,
                                                schemas=schemas)
            assert str(err.value) == \
                "this table runs Parlour protocol 2; you have 1 — update Parlour"
            assert await until(lambda: server.refusals)
            assert "protocol 1" in server.refusals[-1]
            assert host.guests == []
    arun(go())


def test_a_flood_of_refused_connections_keeps_only_the_latest_reasons(arun, host_id, guest_id,
                                                                      schemas, quick):
    """Every refusal is counted, but only the last ``REFUSALS_KEPT`` reasons are kept: a
    flood of bad connections does not grow the host's memory for ever."""
    flood = transport.REFUSALS_KEPT + 40

    async def go():
        host, server = await serve(host_id, schemas, quick, protocol=1)
        async with server:
            for i in range(flood):  # each with its own (wrong) protocol: its own reason
                with pytest.raises(VersionMismatch):
                    await transport.open_connection(LOCAL, server.port, guest_id,
                                                    host_id.fingerprint, protocol=100 + i,
                                                    schemas=schemas)
            await until(lambda: server.refused == flood,
                        what=lambda: f"{flood} refusals counted: {server.refused}")
            assert len(server.refusals) == transport.REFUSALS_KEPT
            assert server.refusals[-1].endswith(f"protocol {100 + flood - 1}")  # the latest kept
            assert server.refusals[0].endswith(f"protocol {100 + flood - transport.REFUSALS_KEPT}")
            assert host.guests == []
            conn = await transport.open_connection(LOCAL, server.port, guest_id,  # (still serving)
                                                   host_id.fingerprint, protocol=1, schemas=schemas)
            await conn.close()
    arun(go())


def test_version_mismatch_newer_guest(arun, host_id, guest_id, schemas, quick):
    async def go():
        _, server = await serve(host_id, schemas, quick, protocol=1)
        async with server:
            with pytest.raises(VersionMismatch, match="the host needs to update"):
                await transport.open_connection(LOCAL, server.port, guest_id,
                                                protocol=2, schemas=schemas)
    arun(go())


def test_host_checks_version_too(arun, host_id, guest_id, schemas, quick):
    # A guest that skips its own check still gets told, by the host.
    async def go():
        _, server = await serve(host_id, schemas, quick, protocol=1)
        async with server:
            reader, writer, hello = await raw_client(server.port)
            sig = guest_id.sign(transport.auth_payload(
                hello["challenge"], host_id.public_key, guest_id.public_key))
            await framing.write_frame(writer, {"type": "auth", "protocol": 7, "key":
                                               guest_id.public_key, "sig": sig, "name": "x"})
            message = await expect_error_then_eof(reader)
            assert message == "this table runs Parlour protocol 1; you have 7 — " \
                              "the host needs to update Parlour"
            writer.close()
    arun(go())


@pytest.mark.parametrize("junk", [b"\x00\x00\x00\x03abc", b"\xff\xff\xff\xff",
                                  framing.encode({"type": "auth", "protocol": 1})])
def test_garbage_handshake_refused(arun, host_id, guest_id, schemas, quick, junk):
    async def go():
        host, server = await serve(host_id, schemas, quick)
        async with server:
            reader, writer, _ = await raw_client(server.port)
            writer.write(junk)
            await writer.drain()
            with pytest.raises((ConnectionClosed, ProtocolError, ConnectionError)):
                while True:  # whatever the host says, it ends by hanging up
                    await framing.read_frame(reader)
            writer.close()
            assert host.guests == []
            conn = await transport.open_connection(LOCAL, server.port, guest_id,
                                                   host_id.fingerprint, schemas=schemas)
            await conn.close()
    arun(go())


def test_garbage_after_handshake_gets_error(arun, host_id, guest_id, schemas, quick):
    async def go():
        host, server = await serve(host_id, schemas, quick)
        async with server:
            conn = await transport.open_connection(LOCAL, server.port, guest_id,
                                                   host_id.fingerprint, schemas=schemas)
            await conn.send({"type": "cheat", "cards": ["8/8"]})
            reply = await conn.recv()
            assert reply == {"type": "error",
                             "reason": "bad message: unknown message type 'cheat'"}
            with pytest.raises(ConnectionClosed):
                await conn.recv()
            assert host.errors == ["unknown message type 'cheat'"]
    arun(go())


def test_server_close_drops_guests(arun, host_id, guest_id, schemas, quick):
    async def go():
        _, server = await serve(host_id, schemas, quick)
        conn = await transport.open_connection(LOCAL, server.port, guest_id,
                                               host_id.fingerprint, schemas=schemas)
        server.close()
        await server.wait_closed()
        with pytest.raises(ConnectionClosed):
            await conn.recv()
        with pytest.raises(OSError):
            await transport.open_connection(LOCAL, server.port, guest_id, schemas=schemas)
    arun(go())


# -- nothing readable on the wire -----------------------------------------------------

class RecordingProxy:
    """A loopback TCP relay that keeps every byte it forwards, both ways."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.seen = bytearray()

    async def start(self):
        self.server = await asyncio.start_server(self._relay, LOCAL, 0)
        return self.server.sockets[0].getsockname()[1]

    async def _relay(self, client_r, client_w):
        server_r, server_w = await asyncio.open_connection(LOCAL, self.target_port)

        async def pipe(r, w):
            try:
                while data := await r.read(65536):
                    self.seen += data
                    w.write(data)
                    await w.drain()
            except ConnectionError:
                pass
            finally:
                w.close()
        await asyncio.gather(pipe(client_r, server_w), pipe(server_r, client_w))


def test_no_plaintext_on_the_wire(arun, host_id, guest_id, schemas, quick):
    marker = "SECRET-HAND-8/8-S/S-0/2-Marker"

    async def go():
        _, server = await serve(host_id, schemas, quick)
        async with server:
            proxy = RecordingProxy(server.port)
            port = await proxy.start()
            conn = await transport.open_connection(LOCAL, port, guest_id,
                                                   host_id.fingerprint, schemas=schemas)
            await conn.send({"type": "chat", "text": marker})
            assert await conn.recv() == {"type": "chat", "text": "echo " + marker}
            await conn.close()
            proxy.server.close()
        return bytes(proxy.seen)
    seen = arun(go())
    assert len(seen) > 1000  # the proxy really carried the conversation
    assert b"\x17\x03\x03" in seen  # TLS application-data records
    for secret in (marker.encode(), b"Guest", b"Hostess", b"chat", b"echo"):
        assert secret not in seen
    assert guest_id.public_key not in seen  # the guest's key travels encrypted too


@pytest.mark.parametrize("first", [b"\x00\x00\x00\x02\x93\x01",           # not a map
                                   framing.encode({"type": "welcome", "name": "x"}),
                                   framing.encode({"type": "hello", "protocol": 1,
                                                   "challenge": b"short", "name": "x"}),
                                   b""])                                  # just hangs up
def test_guest_survives_a_host_that_is_not_parlour(arun, host_id, guest_id, schemas, first):
    async def bogus(reader, writer):
        writer.write(first)
        await writer.drain()
        writer.close()

    async def go():
        server = await asyncio.start_server(bogus, LOCAL, 0,
                                            ssl=transport.server_context(host_id))
        async with server:
            port = server.sockets[0].getsockname()[1]
            with pytest.raises(HandshakeError):
                await transport.open_connection(LOCAL, port, guest_id, schemas=schemas)
    arun(go())


def test_guest_gives_up_on_a_silent_host(arun, host_id, guest_id, schemas):
    async def silent(reader, writer):
        await reader.read()  # never says hello

    async def go():
        server = await asyncio.start_server(silent, LOCAL, 0,
                                            ssl=transport.server_context(host_id))
        async with server:
            port = server.sockets[0].getsockname()[1]
            with pytest.raises(HandshakeError, match="in time"):
                await transport.open_connection(LOCAL, port, guest_id, schemas=schemas,
                                                timeout=0.3)
    arun(go())


def test_host_drops_a_silent_guest(arun, host_id, guest_id, schemas):
    async def go():
        host = Host()
        server = await transport.start_server(LOCAL, 0, host_id, host.on_connection,
                                              schemas=schemas, timeout=0.3)
        async with server:
            reader, writer, _ = await raw_client(server.port)  # and then says nothing
            with pytest.raises((ConnectionClosed, ProtocolError, ConnectionError)):
                await framing.read_frame(reader)
            writer.close()
            assert server.refusals and host.guests == []
    arun(go())


@pytest.mark.parametrize("auth", [{"type": "auth", "protocol": "1", "key": b"k", "sig": b"s",
                                   "name": "x"},
                                  {"type": "auth", "protocol": 1.0},
                                  {"type": "join", "name": "x", "last_seq": -1}])
def test_a_first_message_the_host_cannot_read_gets_an_explanation(arun, host_id, schemas, quick,
                                                                   auth):
    """Not just a hang-up: even a client that sends no whole-number protocol (or not even
    an 'auth') learns which protocol the table speaks."""
    async def go():
        _, server = await serve(host_id, schemas, quick, protocol=1)
        async with server:
            reader, writer, _ = await raw_client(server.port)
            await framing.write_frame(writer, auth)
            message = await expect_error_then_eof(reader)
            writer.close()
            return message
    message = arun(go())
    assert message.startswith("this table runs Parlour protocol 1 and expects an 'auth'")


def fake_writer(wait_closed, aborted: list):
    """A StreamWriter stand-in for closing: ``wait_closed`` as given, aborts recorded."""
    import types
    return types.SimpleNamespace(close=lambda: None, wait_closed=wait_closed,
                                 transport=types.SimpleNamespace(abort=lambda: aborted.append(True)))


def test_a_close_that_is_cancelled_aborts_the_connection_and_lets_the_cancellation_through():
    """Closing waits for the peer's TLS close_notify; cancelled meanwhile (the lobby
    stopping mid-check), the connection is aborted and the cancellation is not lost."""
    aborted = []

    async def never():
        await asyncio.Event().wait()  # the peer never answers

    async def main():
        closing = asyncio.ensure_future(transport._close_writer(fake_writer(never, aborted)))
        await asyncio.sleep(0.01)
        closing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await closing
        assert closing.cancelled()

    asyncio.run(main())
    assert aborted == [True]


def test_within_never_loses_a_cancellation_that_arrives_as_the_wait_ends():
    """asyncio.wait_for on Python 3.11 returns the result instead (the lobby then waited
    5 s to stop); ``within`` lets the cancellation through."""
    async def trial():
        inner = asyncio.get_running_loop().create_future()

        async def waiter():
            await transport.within(5, inner)
            return "went on"
        task = asyncio.ensure_future(waiter())
        await asyncio.sleep(0)
        inner.set_result(1)
        task.cancel()  # the same turn of the loop as the result
        try:
            return await task
        except asyncio.CancelledError:
            return "cancelled"

    assert asyncio.run(trial()) == "cancelled"

    async def late():
        await transport.within(0.01, asyncio.Event().wait())
    with pytest.raises(TimeoutError):
        asyncio.run(late())


def test_a_close_whose_tls_waiter_is_cancelled_by_asyncio_is_simply_closed():
    """asyncio's TLS transport cancels its close waiter when the peer hangs up first:
    that CancelledError is not the closing task's, so the close just ends (aborted)."""
    aborted = []

    async def hung_up():
        waiter = asyncio.get_running_loop().create_future()
        waiter.cancel()
        await waiter

    asyncio.run(transport._close_writer(fake_writer(hung_up, aborted)))  # raises nothing
    assert aborted == [True]


# -- across houses: the wire names house addresses, the sessions give it the way --------
def test_the_sessions_give_the_wire_its_way_to_another_house():
    import net.sessions  # noqa: F401 - importing the sessions wires the houses in
    assert transport._house_dialler is not None
    assert transport._house_dialler.__module__ == "net.sessions"


def test_a_house_address_without_the_houses_is_a_clear_refusal(arun, guest_id, monkeypatch):
    from net.wire.address import house_address
    monkeypatch.setattr(transport, "_house_dialler", None)
    with pytest.raises(HandshakeError, match="cannot reach a player in another house"):
        arun(transport.open_connection(house_address(bytes(32), "t"), 1, guest_id, None))
