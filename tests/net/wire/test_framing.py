"""Framing: round trips, size limits, truncation, garbage, and a fuzzer that may only
ever see ProtocolError."""

import asyncio
import random
import struct

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from net.wire import framing
from net.constants import MAX_DEPTH, MAX_FRAME
from net.wire.framing import ConnectionClosed, ProtocolError, Schemas


def schemas():
    s = Schemas()
    s.message("play", seat=int, card=str, optional={"ace": (str, None)})
    s.message("blob", data=bytes, flag=bool)
    return s


def feed(data: bytes, eof: bool = True) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    if eof:
        reader.feed_eof()
    return reader


def read(data: bytes, s=None, eof=True):
    async def go():
        return await framing.read_frame(feed(data, eof), s or schemas())
    return asyncio.run(go())


def test_round_trip_through_a_stream():
    msgs = [{"type": "play", "seat": 2, "card": "8/8"},
            {"type": "play", "seat": 0, "card": "AS", "ace": "high"},
            {"type": "blob", "data": b"\x00\xff" * 100, "flag": False}]
    stream = b"".join(framing.encode(m) for m in msgs)

    async def go():
        reader = feed(stream)
        got = [await framing.read_frame(reader, schemas()) for _ in msgs]
        with pytest.raises(ConnectionClosed):
            await framing.read_frame(reader, schemas())
        return got
    assert asyncio.run(go()) == msgs


def test_write_frame_writes_header_and_body():
    class Sink:
        data = b""
        def write(self, b): self.data += b
        async def drain(self): pass
    sink = Sink()
    asyncio.run(framing.write_frame(sink, {"type": "error", "reason": "hi"}))
    assert struct.unpack(">I", sink.data[:4])[0] == len(sink.data) - 4
    assert framing.parse(sink.data[4:]) == {"type": "error", "reason": "hi"}


def test_oversize_refused_before_body_is_read():
    # Only the header is there: a reader that tried to read the body would wait for
    # ever (no EOF fed), so getting ProtocolError proves the check comes first.
    header = struct.pack(">I", MAX_FRAME + 1)
    with pytest.raises(ProtocolError, match="limit"):
        read(header, eof=False)
    with pytest.raises(ProtocolError):
        read(struct.pack(">I", 0xFFFFFFFF), eof=False)


def test_oversize_outgoing_refused():
    with pytest.raises(ProtocolError, match="limit"):
        framing.encode({"type": "blob", "data": b"x" * MAX_FRAME, "flag": True})


def test_max_size_frame_accepted():
    msg = {"type": "blob", "data": b"", "flag": True}
    overhead = len(framing.encode(msg)) - 4
    msg["data"] = b"x" * (MAX_FRAME - overhead - 4)  # bin8->bin32 header grows by 4
    frame = framing.encode(msg)
    assert len(frame) - 4 <= MAX_FRAME
    assert read(frame) == msg


@pytest.mark.parametrize("cut", [1, 3, 4, 5, 10])
def test_truncated_frame(cut):
    frame = framing.encode({"type": "play", "seat": 1, "card": "3/8"})
    with pytest.raises(ProtocolError, match="middle|of"):
        read(frame[:cut])


def test_clean_eof_is_not_an_error():
    with pytest.raises(ConnectionClosed):
        read(b"")


@pytest.mark.parametrize("body, why", [
    (b"\xc1", "unreadable"),                                  # reserved byte
    (msgpack.packb([1, 2]), "map"),
    (msgpack.packb({"seat": 1}), "type"),
    (msgpack.packb({1: 2}), "unreadable"),                    # non-string key
    (msgpack.packb({"type": b"\xff\xfe"}, use_bin_type=False), "unreadable"),  # bad UTF-8
    (msgpack.packb({"type": "play", "x": msgpack.ExtType(5, b"hi")}), "ext"),
    (msgpack.packb({"type": "x", "t": msgpack.Timestamp(1)}), "ext"),
    (msgpack.packb({"type": "play", "seat": 1, "card": "a"}) + b"\x00", "unreadable"),  # trailing
    (msgpack.packb({"type": "x", "a": [0] * 5000}), "unreadable"),  # container limit
])
def test_garbage_bodies(body, why):
    with pytest.raises(ProtocolError, match=why):
        framing.parse(body, schemas())


def test_deep_nesting_refused():
    value = "x"
    for _ in range(MAX_DEPTH + 2):
        value = [value]
    with pytest.raises(ProtocolError):
        framing.decode(msgpack.packb({"type": "x", "v": value}))


def nested(lists: int, inner=None) -> dict:
    """A message whose "v" is ``lists`` lists deep (the message map itself is depth 0)."""
    value = inner if inner is not None else "x"
    for _ in range(lists):
        value = [value]
    return {"type": "x", "v": value}


def test_nesting_limit_is_exact():
    deepest = nested(MAX_DEPTH - 1)  # its innermost list at depth MAX_DEPTH - 1
    assert framing.decode(msgpack.packb(deepest)) == deepest
    with pytest.raises(ProtocolError, match="deeper"):
        framing.decode(msgpack.packb(nested(MAX_DEPTH)))
    with pytest.raises(ProtocolError, match="deeper"):  # a map counts as a level too
        framing.decode(msgpack.packb(nested(MAX_DEPTH - 1, {"k": 1})))


@pytest.mark.parametrize("msg, why", [
    ({"type": "nope"}, "unknown message type 'nope'"),
    ({"type": "play", "card": "8/8"}, "'play' message is missing 'seat'"),
    ({"type": "play", "seat": "2", "card": "8/8"}, "'seat' should be int, not a string"),
    ({"type": "play", "seat": True, "card": "8/8"}, "'seat' should be int, not a boolean"),
    ({"type": "play", "seat": 1, "card": "8/8", "cheat": 1}, "unexpected key 'cheat'"),
    ({"type": "play", "seat": 1, "card": "8/8", "ace": 3}, "'ace' should be str or nil"),
])
def test_schema_messages_are_readable(msg, why):
    with pytest.raises(ProtocolError) as err:
        schemas().check(msg)
    assert why in str(err.value)


def test_optional_field_may_be_nil():
    msg = {"type": "play", "seat": 1, "card": "8/8", "ace": None}
    assert schemas().check(msg) is msg


# -- fuzzing --------------------------------------------------------------------------

plain = st.recursive(
    st.none() | st.booleans() | st.integers(-2**64, 2**64) | st.floats()
    | st.text(max_size=20) | st.binary(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.text(max_size=8) | st.integers(), inner, max_size=5),
    max_leaves=12)
message_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "blob", "error", "zzz"])},
    optional={"seat": plain, "card": plain, "ace": plain, "data": plain, "flag": plain,
              "reason": plain, "extra": plain})


def must_be_protocol_error_or_ok(body: bytes):
    try:
        msg = framing.parse(body, schemas())
    except ProtocolError:
        return
    assert isinstance(msg, dict) and isinstance(msg["type"], str)


def fuzz(n):
    """Hypothesis' search, ``n`` examples: seconds of CPU each, so in the slow tier
    (``make test``; ``make check`` keeps the cheap volume test below)."""
    search = settings(max_examples=n, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])
    return lambda test: pytest.mark.slow(search(test))


def test_many_random_byte_strings():
    # Cheap and deterministic volume on top of hypothesis' cleverer search below.
    rng = random.Random(1234)
    for _ in range(20000):
        body = rng.randbytes(rng.randrange(0, 64))
        if rng.random() < 0.5:  # often start like a map, to get past the first byte
            body = bytes([0x80 | rng.randrange(16)]) + body
        must_be_protocol_error_or_ok(body)


@fuzz(2000)
@given(st.binary(max_size=300))
def test_fuzz_random_bytes(body):
    must_be_protocol_error_or_ok(body)


@fuzz(500)
@given(st.one_of(plain, message_like))
def test_fuzz_random_msgpack_values(value):
    try:
        body = msgpack.packb(value, use_bin_type=True)
    except (OverflowError, ValueError):  # ints msgpack cannot encode
        return
    must_be_protocol_error_or_ok(body)


@fuzz(300)
@given(message_like, st.integers(0, 40), st.binary(min_size=1, max_size=4))
def test_fuzz_corrupted_valid_frames(value, pos, junk):
    try:
        frame = framing.encode(value)
    except (OverflowError, ValueError):
        return
    pos = min(pos, len(frame) - 1)
    mangled = frame[:pos] + junk + frame[pos + len(junk):]
    try:  # what read_frame does, minus the event loop (kept out for speed)
        length = framing.frame_length(mangled[:4])
        must_be_protocol_error_or_ok(mangled[4:4 + length])
    except ProtocolError:
        pass
