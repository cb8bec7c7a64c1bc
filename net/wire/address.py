"""Reading an address a person typed: ``host:port``, ``192.168.1.20:47311`` or
``[fe80::1]:47311``.

``parse_address`` is what the Join-by-address dialog checks as you type and what the
session is given, so a bad entry is a sentence under the field, never an exception
further down. Standard library only: the lobby imports it before the rest of net.

A player in another house has no address to type: the sessions name them
``house:<their key>/<table>`` (``house_address``), and a server bound to ``HOUSE_BIND``
is one that only connections across houses reach. The names live here, with the other
addresses, so that the wire can tell them apart without knowing how another house is
reached (``net.houses`` does that, above the wire).
"""

from __future__ import annotations

import ipaddress
import re
import socket

EXAMPLE = "192.168.1.20:47311"
MAX_HOST_CHARS = 253  # a DNS name's limit (RFC 1035)
_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


HOUSE_PREFIX = "house:"
#: ``bind`` for a server that only connections across houses reach (it listens on
#: loopback, where nothing else comes: the wormhole's subchannels are handed to it).
HOUSE_BIND = "house"


def house_address(key: bytes, table: str) -> str:
    """How the sessions name the player with ``key`` at ``table``, across houses."""
    return f"{HOUSE_PREFIX}{bytes(key).hex()}/{table}"


def parse_house(address) -> tuple[bytes, str] | None:
    """``(key, table)`` of a house address; None for anything else."""
    if not isinstance(address, str) or not address.startswith(HOUSE_PREFIX):
        return None
    key_hex, sep, table = address[len(HOUSE_PREFIX):].partition("/")
    try:
        key = bytes.fromhex(key_hex)
    except ValueError:
        return None
    if not sep or len(key) != 32 or not table:
        return None
    return key, table


def is_house(address) -> bool:
    return parse_house(address) is not None or address == HOUSE_BIND


class AddressError(ValueError):
    """Not an address we can connect to; the message says what to type instead."""


def parse_address(text: str) -> tuple[str, int]:
    """``(host, port)`` from "host:port" (IPv6 in brackets); AddressError otherwise."""
    text = (text or "").strip()
    if not text:
        raise AddressError(f"Type the address the host's screen shows, e.g. {EXAMPLE}")
    if text.startswith("["):
        host, port = _bracketed(text)
    else:
        host, sep, port = text.rpartition(":")
        if not sep:
            _check_host(text)
            example = f"{text}:47311" if len(text) <= 40 else EXAMPLE
            raise AddressError(f"Add the port after a colon, e.g. {example}")
        if ":" in host:
            raise AddressError("Put an IPv6 address in square brackets, e.g. [fe80::1]:47311")
        _check_host(host)
    return host, _port(port)


def _bracketed(text: str) -> tuple[str, str]:
    inside, sep, rest = text[1:].partition("]")
    if not sep:
        raise AddressError("Close the IPv6 address with ], e.g. [fe80::1]:47311")
    try:
        ipaddress.IPv6Address(inside)
    except ValueError:
        raise AddressError(f"{inside or 'That'} is not an IPv6 address") from None
    if not rest.startswith(":"):
        raise AddressError(f"Add the port after the brackets, e.g. [{inside}]:47311")
    return inside, rest[1:]


def _check_host(host: str) -> None:
    if not host:
        raise AddressError(f"Type the computer's address before the colon, e.g. {EXAMPLE}")
    if re.fullmatch(r"[0-9.]+", host):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise AddressError(f"{host} is not an IPv4 address: four numbers from 0 to 255 "
                               "with dots between, e.g. 192.168.1.20") from None
        return
    labels = host.rstrip(".").split(".")
    if len(host) > MAX_HOST_CHARS or not all(_LABEL.match(label) for label in labels):
        raise AddressError("A computer's name has only letters, digits, hyphens and dots "
                           f"— or type its address, e.g. {EXAMPLE}")


def _port(text: str) -> int:
    if not text:
        raise AddressError(f"Add the port number after the colon, e.g. {EXAMPLE}")
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 65535:
        raise AddressError("The port is a number from 1 to 65535 (the host's screen shows it)")
    return int(text)


def format_address(host: str, port: int) -> str:
    """How a person types ``(host, port)``: IPv6 addresses in brackets. A player across
    houses has no address to type: it is said so."""
    if host.startswith(HOUSE_PREFIX) or host == HOUSE_BIND:
        return "the host's house, across the internet"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def local_address_towards(host: str, port: int = 9) -> str:
    """The address of this computer's interface that reaches ``host``: where the route
    to it leaves from (a UDP "connect" only picks the route; nothing is sent). OSError
    when there is no route (or no such name). A player across houses (a house
    address) is reached through the wormhole: ``HOUSE_BIND``."""
    if is_house(host):
        return HOUSE_BIND
    family, _kind, _proto, _name, where = socket.getaddrinfo(host, port or 9, type=socket.SOCK_DGRAM)[0]
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        probe.connect(where)
        return probe.getsockname()[0]
