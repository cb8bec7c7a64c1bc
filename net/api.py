"""The network layer's public face: what the desktop app may use of ``net/``, in one place.

The app sees sessions (commands in, events out: ``net.sessions.facade``), the real
network they run on (``NETWORK``: host, join, the lobby's directory), games against the
computer (``LocalSession``, their saved slots), the events' shapes (``EVENTS`` and the
builders the screenshots use), the address a person types, the identity that makes a
computer one player, and the one setting the host dialog shows. Everything else under
``net/`` is the layer's own and may change without the app noticing
(tests/architecture/test_layers.py holds the app to this door).

Each name is imported when first asked for, from the module that defines it, so that
``import net.api`` costs nothing at start-up: the lobby opens before the network layer
(asyncio, TLS, zeroconf) is loaded.
"""

from __future__ import annotations

import importlib

# name -> the module that defines it ("module:attr" where it is named otherwise there)
_WHERE = {
    # sessions and the network they run on
    "NETWORK": "net.sessions.network",
    "LocalSession": "net.sessions.local",
    "discard_local": "net.sessions.local",
    "unfinished_local": "net.sessions.local",
    # events: their shapes, and the builders the app's screenshots feed it with
    "EVENTS": "net.sessions.facade",
    "hand_breakdown": "net.sessions.events",
    "state_event": "net.sessions.events",
    "takeover_event": "net.sessions.events",
    # what a person types, and who they are
    "EXAMPLE": "net.wire.address",
    "AddressError": "net.wire.address",
    "format_address": "net.wire.address",
    "parse_address": "net.wire.address",
    "IdentityError": "net.wire.identity",
    "data_dir": "net.wire.identity",
    "load_identity": "net.wire.identity",
    # settings the app shows
    "PRIVATE_DEAL": "net.constants",
    "MAX_WATCHERS": "net.constants",  # how many may watch at once, unless the host says
    # table talk: the longest message, the quick reactions
    "TALK_MAX_CHARS": "net.constants",
    "TALK_REACTIONS": "net.constants",
    # play across houses: a code a person reads out, the invitation service and relay
    "CodeError": "net.houses",
    "CodeWords": "net.houses",
    "code_words": "net.houses",
    "parse_code": "net.houses",
    "WordUnfinished": "net.houses",
    "is_house": "net.houses",
    "configure_houses": "net.houses:configure",
    "DEFAULT_MAILBOX": "net.houses",
    "DEFAULT_RELAY": "net.houses",
    "check_mailbox": "net.houses",
    "check_relay": "net.houses",
    # ``parlour host`` and ``parlour join``: a table without a window
    "command_line": "net.cli:main",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"net.api has no {name!r} (the app's door lists: {', '.join(__all__)})")
    module, _, attr = _WHERE[name].partition(":")
    value = getattr(importlib.import_module(module), attr or name)
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return __all__
