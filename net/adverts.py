"""What a table says about itself on the local network, and what the lobby lists.

A host's advert (``TableAdvert``) travels as the TXT record of its mDNS service (keys in
net/constants.py; ``net.discovery`` registers and browses the services)::

    protocol=1 game=somerset ruleset=kitty-doubled mode=four table=Friday night
    host=Ada fp=3f9a-07c2-b1d4-e608 seats=2 state=lobby

and a table found is one ``TableInfo``, a row of the lobby. Pure: no sockets and no
zeroconf, so the sessions and the lobby read a table without loading the mDNS stack
(a headless host or a guest that joins by address or code never needs it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from net.constants import (
    MAX_TXT_VALUE_BYTES,
    PROTOCOL_VERSION,
    STATE_IN_GAME,
    STATE_LOBBY,
    TXT_FINGERPRINT,
    TXT_GAME,
    TXT_HOST,
    TXT_MODE,
    TXT_PROTOCOL,
    TXT_RULESET,
    TXT_SEATS,
    TXT_STATE,
    TXT_TABLE,
    TXT_TABLE_ID,
    TXT_WATCH,
)
from net.wire.identity import normalize_fingerprint

_TOKEN = re.compile(r"[a-z0-9][a-z0-9_\-]{0,31}")  # game / ruleset / mode identifiers
_TABLE_ID = re.compile(r"[0-9a-f][0-9a-f\-]{0,63}")  # a table id as the host makes it
MAX_SEATS = 8

#: A TXT record's strings: as ``TableAdvert.txt()`` writes them, or as zeroconf reads them.
TxtProperties = Mapping[str, str | None] | Mapping[bytes, bytes | None]



class TableInfo(TypedDict):
    """A table found on the network, as the lobby's ``tables`` event carries it
    (``net.sessions.facade``): the advert's fields (``TableAdvert``, one key each, made by
    ``TableAdvert.found``) plus where it was found (``id``: the browser's name for the
    service; ``address``). ``tests/net/test_discovery.py`` holds the two to one another."""
    id: str
    name: str
    game: str
    ruleset: str
    mode: str
    host: str
    fingerprint: str
    open_seats: int
    in_game: bool
    address: str
    port: int
    protocol: int
    table: str  # the table's id ("" from an older advert): the same after a takeover
    watchable: bool  # people may watch it now (watching on, room for one more)


@dataclass(frozen=True)
class TableAdvert:
    """What a host says about its table: written as a TXT record by ``txt()`` and read
    back by ``from_txt`` (the port travels in the SRV record beside it)."""

    name: str
    game: str
    ruleset: str
    mode: str
    host: str
    fingerprint: str
    port: int
    open_seats: int
    in_game: bool = False
    protocol: int = PROTOCOL_VERSION
    table_id: str = ""  # the log's table id (a takeover's new host advertises the same)
    watchable: bool = False  # people may watch it now (its host allows it, and there is room)

    def txt(self) -> dict[str, str]:
        return {
            TXT_PROTOCOL: str(self.protocol),
            TXT_GAME: self.game,
            TXT_RULESET: self.ruleset,
            TXT_MODE: self.mode,
            TXT_TABLE: _cut(self.name, MAX_TXT_VALUE_BYTES),
            TXT_HOST: _cut(self.host, MAX_TXT_VALUE_BYTES),
            TXT_FINGERPRINT: normalize_fingerprint(self.fingerprint),
            TXT_SEATS: str(self.open_seats),
            TXT_STATE: STATE_IN_GAME if self.in_game else STATE_LOBBY,
            **({TXT_TABLE_ID: self.table_id} if self.table_id else {}),
            TXT_WATCH: "1" if self.watchable else "0",
        }

    @classmethod
    def from_txt(cls, properties: TxtProperties, port: int) -> TableAdvert:
        """The advert a TXT record says (the inverse of ``txt()``; keys and values as str,
        or as the bytes zeroconf gives), with ``port`` from its SRV record. ValueError,
        saying what is wrong, for an advert that is not a Parlour table's.

        Lenient where an older or odder host may differ and the table is still usable:
        no ``mode`` is "", an unreadable table id is "" (the table shown, not known across
        a takeover), no ``watch`` is not watchable; name and host are cut to length."""
        txt = {_decoded(k): _text(v) for k, v in properties.items() if k is not None}
        try:
            protocol, seats = int(_field(txt, TXT_PROTOCOL)), int(_field(txt, TXT_SEATS))
            fingerprint = normalize_fingerprint(_field(txt, TXT_FINGERPRINT))
            game, ruleset = _field(txt, TXT_GAME), _field(txt, TXT_RULESET)
            mode = _field(txt, TXT_MODE) if TXT_MODE in txt else ""
            state = _field(txt, TXT_STATE)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(repr(exc)) from None
        if not (0 <= seats <= MAX_SEATS and protocol > 0 and state in (STATE_LOBBY, STATE_IN_GAME)
                and all(_TOKEN.fullmatch(t) for t in (game, ruleset))
                and (mode == "" or _TOKEN.fullmatch(mode))):
            raise ValueError(f"out of bounds: protocol={protocol} seats={seats} "
                             f"state={state!r} game={game!r} ruleset={ruleset!r} mode={mode!r}")
        table_id = txt.get(TXT_TABLE_ID) or ""
        return cls(name=_cut(txt.get(TXT_TABLE) or "", MAX_TXT_VALUE_BYTES),
                   game=game, ruleset=ruleset, mode=mode,
                   host=_cut(txt.get(TXT_HOST) or "", MAX_TXT_VALUE_BYTES),
                   fingerprint=fingerprint, port=port, open_seats=seats,
                   in_game=state == STATE_IN_GAME, protocol=protocol,
                   table_id=table_id if _TABLE_ID.fullmatch(table_id) else "",
                   watchable=txt.get(TXT_WATCH) == "1")

    def found(self, service: str, address: str) -> TableInfo:
        """This advert as the lobby lists it: found as ``service`` at ``address``."""
        return {"id": service, "name": self.name, "game": self.game, "ruleset": self.ruleset,
                "mode": self.mode, "host": self.host, "fingerprint": self.fingerprint,
                "open_seats": self.open_seats, "in_game": self.in_game, "address": address,
                "port": self.port, "protocol": self.protocol, "table": self.table_id,
                "watchable": self.watchable}

    def instance_name(self) -> str:
        """``Friday night [3f9a07c2b1d4e608-4567]``: readable in any mDNS browser, and
        unique per host key and port (which is what lets us skip probing)."""
        label = re.sub(r"[.\\\x00-\x1f\x7f]", " ", self.name).strip() or "Parlour table"
        compact = normalize_fingerprint(self.fingerprint).replace("-", "")
        return f"{_cut(label, 30)} [{compact}-{self.port}]"


def _cut(text: str, max_bytes: int) -> str:
    """``text`` shortened to at most ``max_bytes`` of UTF-8, never mid-character."""
    return text.encode()[:max_bytes].decode("utf-8", "ignore")


def table_info(name: str, properties: TxtProperties, addresses: list[str], port: int) -> TableInfo:
    """The TableInfo for the service ``name`` resolved to this TXT record, addresses and
    port; ValueError if the advert is malformed or gives no address."""
    if not addresses:
        raise ValueError(f"malformed Parlour advert {name!r}: no address")
    try:
        advert = TableAdvert.from_txt(properties, port)
    except ValueError as exc:
        raise ValueError(f"malformed Parlour advert {name!r}: {exc}") from None
    return advert.found(name, addresses[0])


def _field(txt: dict[str, str | None], key: str) -> str:
    """A field the advert must give with a value: KeyError when it is missing, or named
    without one (a TXT string ``game`` with no ``=``, which zeroconf reads as None)."""
    value = txt[key]
    if value is None:
        raise KeyError(f"{key} without a value")
    return value


def _decoded(value: str | bytes) -> str:
    return value if isinstance(value, str) else value.decode("utf-8", "replace")


def _text(value: str | bytes | None) -> str | None:
    return None if value is None else _decoded(value)
