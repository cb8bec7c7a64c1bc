"""Finding a table on the local network by mDNS, and again after the host moved.

A guest that was given no address looks for the table it was asked for (``TableFinder.find``:
by its host's key once known, else by the table's name), telling the person what the
lobby would list meanwhile (a "tables" event); after a dropped link it asks where the same
host key advertises the table now (``where``: a host restarted on another port).

mDNS keeps a killed host's advert for many minutes (``net.sessions.answering``), so a
table found is taken only once its host answers the lobby's check (a TCP connection,
closed at once); one that does not is passed over — listed as not answering — and
checked again ``ANSWER_CHECK_AGAIN`` seconds later.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from net.constants import ANSWER_CHECK_AGAIN, ANSWER_CHECK_TIMEOUT
from net.sessions.answering import answers, listed
from net.sessions.events import tables_event
from net.sessions.facade import EventCallback, TableInfo
from net.wire.identity import same_fingerprint

if TYPE_CHECKING:
    from net.discovery import TableBrowser


class NotFound(Exception):
    """No table answering the description appeared in time (the words are for people)."""


class TableFinder:
    def __init__(self, interfaces, table_name: str | None, within: float, emit: EventCallback,
                 probe=answers):
        self.interfaces, self.table_name, self.within = interfaces, table_name, within
        self.emit = emit
        self.probe = probe  # (address, port, timeout) -> whether the host answers
        self.browser: TableBrowser | None = None
        self.tables: list[TableInfo] = []
        self.silent: dict[tuple[str, str, int], float] = {}  # not answering: until when passed over

    async def find(self, fingerprint: str | None) -> TableInfo:
        """The table to join, its host answering (NotFound after ``within`` seconds)."""
        from net.discovery import TableBrowser  # (zeroconf only when a table is looked for)
        browser = self.browser = TableBrowser(interfaces=self.interfaces, on_change=self._on_tables)
        await browser.start()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.within
        while True:
            heard = [t for t in self.tables if self.silent.get(_where(t), 0.0) <= loop.time()]
            table = pick_table(heard, fingerprint, self.table_name)
            if table is not None:
                if await self.probe(table["address"], table["port"], ANSWER_CHECK_TIMEOUT):
                    self.silent.pop(_where(table), None)
                    return table
                self.silent[_where(table)] = loop.time() + ANSWER_CHECK_AGAIN
                self._on_tables(self.tables)  # (now listed as not answering)
            elif loop.time() > deadline:
                raise NotFound(f"no table named {self.table_name!r} was found" if self.table_name
                               else "no table was found on the network")
            else:
                await asyncio.sleep(0.02)

    def where(self, fingerprint: str | None) -> TableInfo | None:
        """Where the table is advertised now, if it was looked for by mDNS."""
        return pick_table(self.tables, fingerprint, self.table_name) if self.browser is not None else None

    def _on_tables(self, tables: list[TableInfo]) -> None:
        self.tables = tables
        self.emit(tables_event([listed(t, answering=_where(t) not in self.silent) for t in tables]))

    async def stop(self) -> None:
        if self.browser is not None:
            await self.browser.stop()
            self.browser = None


def _where(table: TableInfo) -> tuple[str, str, int]:
    """A table's advert: its id where it says it is (a host restarted elsewhere is new)."""
    return table["id"], table["address"], table["port"]


def pick_table(tables: list[TableInfo], fingerprint: str | None, name: str | None) -> TableInfo | None:
    """The table found by mDNS that is ours: by its host's key once known, else by name
    (None: any)."""
    for table in tables:
        if fingerprint is not None:
            if same_fingerprint(table["fingerprint"], fingerprint):
                return table
        elif name is None or table["name"] == name:
            return table
    return None
