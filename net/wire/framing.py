"""Frames on the wire: a 4-byte big-endian length, then a msgpack map.

Every frame body decodes to a dict with a string ``type``; every type has a schema
(required and optional keys with their types) and anything else is refused with a
``ProtocolError`` whose message a person can read. The decoder is strict on purpose —
peers are other people's computers:

* the length is checked against ``MAX_FRAME`` *before* the body is read, so a peer
  cannot make us allocate or wait for a huge buffer;
* msgpack runs with ``raw=False`` (strings must be UTF-8), ``strict_map_key`` (map keys
  are strings), no extension types (including msgpack's timestamp), and container limits;
* after decoding, the value must be plain data only (None, bool, int, float, str,
  bytes, list, dict) nested at most ``MAX_DEPTH`` levels.

Decoding never raises anything but ``ProtocolError`` (a hypothesis test throws random
bytes at it to keep that true). ``ConnectionClosed`` means the peer closed between
frames, which is not an error.

Other modules declare their message types with ``message("type", key=type, …)``; a
field may also carry a deeper check (``Field``), which the receiver that reads inside
the message asks for (``Schemas.check(msg, deep=True)``): the trust protocol's messages
are declared once, in ``net/wire/messages.py``, for the frame layer and for the trust
code alike.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import msgpack

from net.constants import LENGTH_BYTES, MAX_ARRAY_LEN, MAX_DEPTH, MAX_FRAME, MAX_MAP_LEN

_LENGTH = struct.Struct(">I")
assert _LENGTH.size == LENGTH_BYTES


class ProtocolError(Exception):
    """A peer sent something that is not a valid Parlour message (message says what)."""


class ConnectionClosed(EOFError):
    """The peer closed the connection cleanly between two frames."""


# -- bytes <-> values -----------------------------------------------------------------

def encode(msg: Mapping[str, Any]) -> bytes:
    """A whole frame (header and body) for ``msg``. Raises ProtocolError if it is too big."""
    body = msgpack.packb(msg, use_bin_type=True)
    if len(body) > MAX_FRAME:
        raise ProtocolError(f"message of {len(body)} bytes is over the {MAX_FRAME}-byte limit")
    return _LENGTH.pack(len(body)) + body


class Framed(dict):
    """A message to be written to many links alike (an entry to every watcher): its frame
    is encoded once, at the first link's write, and the same bytes go to every other.

    A read-only dict (a change after the first write would not reach the bytes): copy it
    (``{**framed, ...}``) to change it, which gives a plain dict, encoded on its own."""

    __slots__ = ("_frame",)

    def __init__(self, msg: Mapping[str, Any]):
        super().__init__(msg)
        self._frame: bytes | None = None

    def frame(self) -> bytes:
        """The whole frame (``encode``), made the first time only."""
        if self._frame is None:
            self._frame = encode(self)
        return self._frame

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a Framed message is read-only: copy it ({**msg}) to change it")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _read_only
    __ior__ = _read_only


def frame_of(msg: Mapping[str, Any]) -> bytes:
    """The frame for ``msg``: made once for a ``Framed`` message, else encoded now."""
    return msg.frame() if isinstance(msg, Framed) else encode(msg)


def frame_length(header: bytes) -> int:
    """The body length announced by a 4-byte header; ProtocolError if over the limit."""
    (length,) = _LENGTH.unpack(header)
    if length > MAX_FRAME:
        raise ProtocolError(
            f"peer announced a {length}-byte message; the limit is {MAX_FRAME} bytes")
    return length


def _no_ext(code: int, data: bytes) -> Any:
    raise ProtocolError(f"msgpack extension type {code} is not allowed")


def decode(body: bytes) -> dict:
    """The message dict in a frame body (plain values only, not yet schema-checked)."""
    try:
        value = msgpack.unpackb(
            body, raw=False, strict_map_key=True, use_list=True, ext_hook=_no_ext,
            max_str_len=MAX_FRAME, max_bin_len=MAX_FRAME, max_ext_len=0,
            max_array_len=MAX_ARRAY_LEN, max_map_len=MAX_MAP_LEN)
    except ProtocolError:
        raise
    except Exception as exc:  # msgpack raises a zoo of types; all mean "garbage"
        raise ProtocolError(f"unreadable message ({type(exc).__name__}: {exc})") from None
    _check_plain(value)
    if not isinstance(value, dict):
        raise ProtocolError(f"a message must be a map, not {_kind(value)}")
    if not isinstance(value.get("type"), str):
        raise ProtocolError("a message needs a string 'type'")
    return value


_PLAIN = (type(None), bool, int, float, str, bytes)
_PLAIN_TYPES = frozenset(_PLAIN)


def _check_plain(value: Any) -> None:
    """Refuse anything but plain nested data (iteratively: no recursion to exhaust).

    Every entry message carries two whole views, so this runs over hundreds of values
    per message: it goes level by level, opening every container of a level in one
    pass, and looks each value's exact type up first (msgpack makes exact types), so a
    scalar costs one set look-up rather than a tuple pushed on a stack."""
    level, depth = [value], 0
    while level:
        inner: list = []
        for item in level:
            kind = type(item)
            if kind in _PLAIN_TYPES:
                continue
            if kind is not list and kind is not dict:
                if isinstance(item, _PLAIN):
                    continue
                if not isinstance(item, (list, dict)):
                    raise ProtocolError(f"{_kind(item)} values are not allowed in messages")
            if depth >= MAX_DEPTH:
                raise ProtocolError(f"message nested deeper than {MAX_DEPTH} levels")
            inner.extend(item.values() if isinstance(item, dict) else item)
        level, depth = inner, depth + 1


def _kind(value: Any) -> str:
    return {type(None): "nil", bool: "a boolean", int: "an integer", float: "a number",
            str: "a string", bytes: "bytes", list: "a list", dict: "a map"}.get(
                type(value), type(value).__name__)


# -- schemas --------------------------------------------------------------------------

#: A field's type: one of these Python types, or a tuple of them (``(int, None)``).
FieldType = type | None | tuple


class Field(NamedTuple):
    """A field of ``types`` whose value must also pass ``deep`` (a predicate on the whole
    value, e.g. a signed entry's inner fields), checked only when asked for."""

    types: FieldType
    deep: Callable[[Any], bool]


class Schemas:
    """Message types and their fields. ``SCHEMAS`` is the one the protocol uses; tests
    and tools may make their own."""

    def __init__(self) -> None:
        self._types: dict[str, tuple[dict[str, Field | FieldType], dict[str, Field | FieldType]]] = {}

    def message(self, type_: str, optional: Mapping[str, Field | FieldType] | None = None,
                **required: Field | FieldType) -> None:
        """Declare message ``type_`` with ``required`` and ``optional`` keys -> types."""
        self._types[type_] = (dict(required), dict(optional or {}))

    def copy(self) -> "Schemas":
        """An independent registry with the same types (to extend in tests or tools)."""
        other = Schemas()
        other._types = dict(self._types)
        return other

    def include(self, other: "Schemas", exclude: tuple[str, ...] = ()) -> None:
        """Declare here every type of ``other`` but those in ``exclude``."""
        for type_, fields in other.types().items():
            if type_ not in exclude:
                self._types[type_] = fields

    def types(self) -> dict:
        """Type -> (required, optional) fields (a copy)."""
        return dict(self._types)

    def __contains__(self, type_: str) -> bool:
        return type_ in self._types

    def check(self, msg: Any, deep: bool = False) -> dict:
        """``msg`` itself if it matches its type's schema, else ProtocolError. ``deep``
        also runs each field's deeper check (``Field.deep``)."""
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ProtocolError("a message must be a map with a string 'type'")
        kind = msg["type"]
        if kind not in self._types:
            raise ProtocolError(f"unknown message type {kind[:40]!r}")
        required, optional = self._types[kind]
        for key, want in required.items():
            if key not in msg:
                raise ProtocolError(f"'{kind}' message is missing '{key}'")
            _check_field(kind, key, msg[key], want, deep)
        for key, value in msg.items():
            if key == "type" or key in required:
                continue
            if key not in optional:
                raise ProtocolError(f"'{kind}' message has unexpected key {str(key)[:40]!r}")
            _check_field(kind, key, value, optional[key], deep)
        return msg


def _check_field(kind: str, key: str, value: Any, want: Field | FieldType, deep: bool) -> None:
    if isinstance(want, Field):
        _check_type(kind, key, value, want.types)
        if deep and not _passes(want.deep, value):
            raise ProtocolError(f"{kind} message: bad field {key!r}")
    else:
        _check_type(kind, key, value, want)


def _passes(deep: Callable[[Any], bool], value: Any) -> bool:
    try:
        return bool(deep(value))
    except (TypeError, ValueError, KeyError, RecursionError):  # an odd value is a bad one
        return False


def _check_type(kind: str, key: str, value: Any, want: FieldType) -> None:
    wants = want if isinstance(want, tuple) else (want,)
    for w in wants:
        if w is None and value is None:
            return
        # bool is an int subclass in Python but not on the wire: keep them apart.
        if w is int and isinstance(value, bool):
            continue
        if w is not None and isinstance(value, w):
            return
    names = " or ".join("nil" if w is None else w.__name__ for w in wants)
    raise ProtocolError(f"'{kind}' message: '{key}' should be {names}, not {_kind(value)}")


SCHEMAS = Schemas()
message = SCHEMAS.message

#: Sent by either side to refuse something, saying why (shown to the person); the
#: same shape as the trust protocol's error (net/wire/messages.py).
message("error", reason=str)


def parse(body: bytes, schemas: Schemas = SCHEMAS) -> dict:
    """decode + schema check: the one call a receiver makes."""
    return schemas.check(decode(body))


# -- asyncio streams ------------------------------------------------------------------

async def read_frame(reader: asyncio.StreamReader, schemas: Schemas | None = SCHEMAS) -> dict:
    """Read one frame; schema-check it unless ``schemas`` is None (then only decode).

    Raises ConnectionClosed at a clean end of stream, ProtocolError for anything else
    that is not a whole valid frame (including a stream that stops mid-frame).
    """
    try:
        header = await reader.readexactly(LENGTH_BYTES)
    except asyncio.IncompleteReadError as exc:
        if not exc.partial:
            raise ConnectionClosed("peer closed the connection") from None
        raise ProtocolError("connection closed in the middle of a frame header") from None
    length = frame_length(header)
    try:
        body = await reader.readexactly(length)
    except asyncio.IncompleteReadError as exc:
        raise ProtocolError(
            f"connection closed after {len(exc.partial)} of {length} message bytes") from None
    value = decode(body)
    return value if schemas is None else schemas.check(value)


async def write_frame(writer: asyncio.StreamWriter, msg: Mapping[str, Any]) -> None:
    """Write one frame and wait until the transport has taken it."""
    writer.write(encode(msg))
    await writer.drain()
