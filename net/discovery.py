"""Finding tables on the local network: DNS-SD over mDNS (python-zeroconf, async API).

A host advertises one ``_parlour._tcp.local.`` service per table. Its SRV record gives
the port, its A records the addresses, and its TXT record what the lobby shows (keys in
net/constants.py)::

    protocol=1 game=somerset ruleset=kitty-doubled mode=four table=Friday night
    host=Ada fp=3f9a-07c2-b1d4-e608 seats=2 state=lobby

``TableAdvertiser`` registers, updates and withdraws that service; ``TableBrowser``
keeps the live list of tables (as ``TableInfo`` dicts, the lobby's rows) and reports the
whole list whenever a table appears, changes or vanishes — through a callback, an async
iterator, or both.

Both take a required ``interfaces`` argument, passed to zeroconf: tests pin it to the
addresses of the private namespaces they build; the app passes ``DEFAULT_INTERFACES``.

Speed: a new table must show up in other lobbies within ``APPEAR_WITHIN`` (1.5 s).
RFC 6762 probing alone (a random 150–250 ms wait and three probes 500 ms apart) would
eat most of that, so the advertiser skips it (zeroconf's ``cooperating_responders``).
That is safe because our instance names are unique by construction: they embed the
host's key fingerprint and port, so two different tables cannot claim the same name.
Records carry a two-minute TTL (not zeroconf's default 75 minutes). That does not
bound how long a host that vanished without a goodbye stays listed: zeroconf's browser
keeps a PTR record at least 1125 s whatever its TTL. The lobby asks the host instead
(net/sessions/answering.py).

The TXT record is unauthenticated, like everything on mDNS: it says which fingerprint
to *expect*, and transport pins the host's key to it when joining; people can compare
the fingerprint aloud. Malformed adverts from other software are ignored.
"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import logging
import re
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from net.constants import (
    MAX_TXT_VALUE_BYTES,
    PROTOCOL_VERSION,
    RECORD_TTL,
    RESOLVE_TIMEOUT_MS,
    SERVICE_TYPE,
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

log = logging.getLogger(__name__)

#: What the app passes as ``interfaces``: every interface zeroconf finds.
DEFAULT_INTERFACES = InterfaceChoice.All
Interfaces = Sequence[str] | InterfaceChoice

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


def _own_addresses(interfaces: Interfaces) -> list[str]:
    """Addresses to put in our A records: the pinned interfaces, or every non-loopback
    IPv4 address when advertising on all of them."""
    if not isinstance(interfaces, InterfaceChoice):
        return [i for i in interfaces if isinstance(i, str)]
    import ifaddr  # zeroconf's own dependency, used for the same purpose there
    # (an IPv4 address is a str to ifaddr; an IPv6 one a tuple: ``IP.is_IPv4`` says the same)
    found = [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
             if isinstance(ip.ip, str) and not ipaddress.ip_address(ip.ip).is_loopback]
    return found or ["127.0.0.1"]


# -- advertising ----------------------------------------------------------------------

class TableAdvertiser:
    """Announces one table; ``update`` re-announces changed TXT, ``stop`` says goodbye."""

    def __init__(self, advert: TableAdvert, *, interfaces: Interfaces,
                 addresses: Sequence[str] | None = None,
                 zeroconf: AsyncZeroconf | None = None):
        self.advert = advert
        self._interfaces = interfaces
        self._addresses = list(addresses) if addresses else _own_addresses(interfaces)
        self._zc = zeroconf
        self._owns_zc = zeroconf is None
        self._info: AsyncServiceInfo | None = None

    def _service_info(self) -> AsyncServiceInfo:
        compact = normalize_fingerprint(self.advert.fingerprint).replace("-", "")
        return AsyncServiceInfo(
            SERVICE_TYPE, f"{self.advert.instance_name()}.{SERVICE_TYPE}",
            port=self.advert.port, properties=self.advert.txt(),
            server=f"parlour-{compact}.local.", host_ttl=RECORD_TTL, other_ttl=RECORD_TTL,
            parsed_addresses=self._addresses)

    @property
    def service_name(self) -> str | None:
        return self._info.name if self._info else None

    async def start(self) -> None:
        if self._zc is None:
            self._zc = AsyncZeroconf(interfaces=self._interfaces)
        self._info = self._service_info()
        # No probing: instance names are unique by construction (see module docstring).
        await self._zc.async_register_service(self._info, cooperating_responders=True)

    async def update(self, **changes) -> None:
        """Change advert fields (``open_seats=1``, ``in_game=True``) and re-announce."""
        self.advert = dataclasses.replace(self.advert, **changes)
        if self._info is None or self._zc is None:  # not started (or stopped): nothing out
            return
        info = self._service_info()
        if info.name != self._info.name:  # renamed table: a new service, properly
            await self._zc.async_unregister_service(self._info)
            self._info = info
            await self._zc.async_register_service(info, cooperating_responders=True)
            return
        self._info = info
        await self._zc.async_update_service(info)

    async def stop(self) -> None:
        """Withdraw the advert (goodbye packets) and close zeroconf if we opened it."""
        if self._info is not None and self._zc is not None:
            done = await self._zc.async_unregister_service(self._info)
            await done  # the goodbye packets are on the wire
            self._info = None
        if self._owns_zc and self._zc is not None:
            await self._zc.async_close()
            self._zc = None

    async def __aenter__(self) -> "TableAdvertiser":
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()


# -- browsing -------------------------------------------------------------------------

TablesCallback = Callable[[list[TableInfo]], None]


class TableBrowser:
    """The live list of tables on the network, as TableInfo dicts sorted by name."""

    def __init__(self, *, interfaces: Interfaces, on_change: TablesCallback | None = None,
                 zeroconf: AsyncZeroconf | None = None):
        self._interfaces = interfaces
        self._on_change = on_change
        self._zc = zeroconf
        self._owns_zc = zeroconf is None
        self._browser: AsyncServiceBrowser | None = None
        self._tables: dict[str, TableInfo] = {}
        self._present: set[str] = set()
        self._resolving: set[asyncio.Task] = set()
        self._changed = asyncio.Event()
        self._version = 0

    @property
    def tables(self) -> list[TableInfo]:
        return sorted(self._tables.values(), key=lambda t: (t["name"].lower(), t["id"]))

    async def start(self) -> None:
        if self._zc is None:
            self._zc = AsyncZeroconf(interfaces=self._interfaces)
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, SERVICE_TYPE,
                                            handlers=[self._on_service])

    def _on_service(self, zeroconf, service_type: str, name: str,
                    state_change: ServiceStateChange) -> None:
        # Called on the event loop; must not block, so resolution runs as a task.
        if state_change is ServiceStateChange.Removed:
            self._present.discard(name)
            if self._tables.pop(name, None) is not None:
                self._notify()
            return
        self._present.add(name)
        task = asyncio.ensure_future(self._resolve(name))
        self._resolving.add(task)
        task.add_done_callback(self._resolving.discard)

    async def _resolve(self, name: str) -> None:
        if self._zc is None:  # stopped before this ran
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        # Usually answered from the cache: announcements carry SRV, TXT and A together.
        if not await info.async_request(self._zc.zeroconf, RESOLVE_TIMEOUT_MS):
            log.debug("could not resolve %s", name)
            return
        if name not in self._present:  # it went away while we were asking
            return
        addresses = (info.parsed_addresses(IPVersion.V4Only)
                     or info.parsed_addresses(IPVersion.All))
        try:
            table = table_info(name, info.properties or {}, addresses, info.port or 0)
        except ValueError as exc:
            log.debug("ignoring %s", exc)
            return
        if self._tables.get(name) != table:
            self._tables[name] = table
            self._notify()

    def _notify(self) -> None:
        self._version += 1
        self._changed.set()
        self._changed = asyncio.Event()
        if self._on_change is not None:
            try:
                self._on_change(self.tables)
            except Exception:  # noqa: BLE001 - a UI bug must not stop discovery
                log.exception("table list callback failed")

    async def updates(self) -> AsyncIterator[list[TableInfo]]:
        """The current list now, then the whole list again after every change (rapid
        changes may be folded into one)."""
        seen = -1
        while True:
            if seen != self._version:
                seen = self._version
                yield self.tables
            else:
                await self._changed.wait()

    async def stop(self) -> None:
        for task in list(self._resolving):
            task.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if self._owns_zc and self._zc is not None:
            await self._zc.async_close()
            self._zc = None

    async def __aenter__(self) -> "TableBrowser":
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()
