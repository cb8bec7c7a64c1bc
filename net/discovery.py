"""Finding tables on the local network: DNS-SD over mDNS (python-zeroconf, async API).

A host advertises one ``_parlour._tcp.local.`` service per table. Its SRV record gives
the port, its A records the addresses, and its TXT record what the lobby shows (the
host's ``TableAdvert``, written and read in net/adverts.py, which needs no zeroconf).

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
from collections.abc import AsyncIterator, Callable, Sequence

from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from net.adverts import TableAdvert, TableInfo, table_info
from net.constants import RECORD_TTL, RESOLVE_TIMEOUT_MS, SERVICE_TYPE
from net.wire.identity import normalize_fingerprint

log = logging.getLogger(__name__)

#: What the app passes as ``interfaces``: every interface zeroconf finds.
DEFAULT_INTERFACES = InterfaceChoice.All
Interfaces = Sequence[str] | InterfaceChoice


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
