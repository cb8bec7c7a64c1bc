"""Whether each table the lobby lists still answers: a small state machine, and its driver.

mDNS alone cannot tell. A host whose process is killed, or whose laptop lid closes,
sends no goodbye, and python-zeroconf's browser keeps a service until its PTR record
expires — never sooner than its ``_DNS_PTR_MIN_TTL`` (1125 s), whatever TTL the advert
asks for (net/discovery.py). A shorter TTL cannot help; asking the host can. So the
lobby checks each table it lists with a TCP connection to the port the table advertises
(the one its host already listens on), closed at once: nothing is signed or sent, and
the host's server takes it for what it is (``net.wire.transport``: a hang-up before
the TLS handshake is a look, not a refusal). A dead host's computer refuses it at once;
a sleeping or vanished one never answers, and the check gives up after ``timeout``.

A row's life (``Answering``, no I/O: it is told the time, the browser's list, and what
each check found, and says which checks are due and what the lobby shows):

* found: listed at once as it is (a new table must appear within ``APPEAR_WITHIN``),
  and checked at once;
* answering: checked again every ``every`` seconds;
* a miss (refused, or no answer in time): checked again after ``again`` seconds; after
  ``misses`` misses in a row the row is **not answering** — shown so (``"answering":
  False``: the app greys it and will not join or watch it) — and checked on as before;
  one answer makes it answering again (a laptop opened again);
* not answering for ``forget_after`` seconds: left out of the list (still checked: it
  comes back if it answers), so a dead table does not stay for zeroconf's twenty minutes.

Two misses, not one, so that one check lost on a busy machine does not grey a live
table; with the defaults a killed host's row is greyed within ``every + again`` seconds
and a little (a refusal is immediate), one whose computer vanished within
``every + again + 2 × timeout``.

``TableChecks`` runs the machine on the lobby's loop: it opens the connections that are
due and reports the list whenever what it shows changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from net.constants import (ANSWER_CHECK_AGAIN, ANSWER_CHECK_EVERY, ANSWER_CHECK_TIMEOUT,
                           ANSWER_FORGET_AFTER, ANSWER_MISSES)
from net.adverts import TableInfo
from net.wire.transport import within

log = logging.getLogger(__name__)


class ListedTable(TableInfo):
    """A table as the lobby lists it: as found (``TableInfo``), and whether its host
    answers at its address now (True until a check says otherwise)."""
    answering: bool


def listed(table: TableInfo, answering: bool = True) -> ListedTable:
    """``table`` as the lobby lists it (unchecked: answering)."""
    return ListedTable(**table, answering=answering)


@dataclass(frozen=True)
class CheckTimings:
    """How often a listed table is checked, and when it is called not answering."""
    every: float = ANSWER_CHECK_EVERY  # between checks of a table that answers
    again: float = ANSWER_CHECK_AGAIN  # after a miss, the next check this soon
    timeout: float = ANSWER_CHECK_TIMEOUT  # a check with no answer by then is a miss
    misses: int = ANSWER_MISSES  # misses in a row that make a table not answering
    forget_after: float = ANSWER_FORGET_AFTER  # not answering this long: off the list


@dataclass(frozen=True)
class Check:
    """A check to make now: does ``address:port`` answer (for the row ``id``)?"""
    id: str
    address: str
    port: int


@dataclass
class _Row:
    address: str
    port: int
    due: float  # when it is next checked
    misses: int = 0  # misses in a row
    silent_since: float | None = None  # since when it has been not answering
    checking: bool = False


class Answering:
    """The rows the browser lists, and whether each one answers (see the module docstring)."""

    def __init__(self, timings: CheckTimings = CheckTimings()):
        self.timings = timings
        self._tables: list[TableInfo] = []
        self._rows: dict[str, _Row] = {}

    def listed(self, tables: Sequence[TableInfo], now: float) -> None:
        """The browser's whole list now: a new row (or one found at another address)
        is checked at once; a row no longer listed is forgotten."""
        self._tables = list(tables)
        rows = {}
        for table in self._tables:
            row = self._rows.get(table["id"])
            if row is None or (row.address, row.port) != (table["address"], table["port"]):
                row = _Row(table["address"], table["port"], due=now)
            rows[table["id"]] = row
        self._rows = rows

    def due(self, now: float) -> list[Check]:
        """The checks to start now (each row one at a time)."""
        out = []
        for id, row in self._rows.items():
            if not row.checking and row.due <= now:
                row.checking = True
                out.append(Check(id, row.address, row.port))
        return out

    def heard(self, check: Check, answered: bool, now: float) -> None:
        """What a check found (ignored if its row has gone or moved meanwhile)."""
        row = self._rows.get(check.id)
        if row is None or (row.address, row.port) != (check.address, check.port):
            return
        row.checking = False
        if answered:
            row.misses, row.silent_since, row.due = 0, None, now + self.timings.every
            return
        row.misses += 1
        row.due = now + self.timings.again
        if row.misses >= self.timings.misses and row.silent_since is None:
            row.silent_since = now

    def check_all_now(self, now: float) -> None:
        """Every row due now (the lobby is shown again after a pause)."""
        for row in self._rows.values():
            row.due = min(row.due, now)

    def shown(self, now: float) -> list[ListedTable]:
        """The list as the lobby shows it, in the browser's order."""
        out = []
        for table in self._tables:
            row = self._rows[table["id"]]
            if row.silent_since is not None and now - row.silent_since >= self.timings.forget_after:
                continue
            out.append(listed(table, answering=row.silent_since is None))
        return out

    def next_change(self) -> float | None:
        """When something is next due: a check, or a silent row leaving the list."""
        times = [row.due for row in self._rows.values() if not row.checking]
        times += [row.silent_since + self.timings.forget_after for row in self._rows.values()
                  if row.silent_since is not None]
        return min(times, default=None)


Probe = Callable[[str, int, float], Awaitable[bool]]


async def answers(address: str, port: int, timeout: float) -> bool:
    """Whether something accepts a TCP connection at ``address:port`` within ``timeout``
    seconds (the connection is closed at once, nothing sent)."""
    try:
        _, writer = await within(timeout, asyncio.open_connection(address, port))
    except (OSError, TimeoutError):
        return False
    writer.close()
    try:
        await within(timeout, writer.wait_closed())
    except (OSError, TimeoutError):
        pass  # it answered; how it hung up is not our business
    return True


class TableChecks:
    """``Answering`` on a running loop: ``listed`` with the browser's list, ``run`` for
    as long as the lobby lives; ``on_change`` gets the shown list whenever it changes.
    ``pause`` stops checking (the app sat down at a table), ``resume`` checks every row
    at once and goes on."""

    def __init__(self, on_change: Callable[[list[ListedTable]], None],
                 timings: CheckTimings = CheckTimings(), probe: Probe = answers):
        self.answering = Answering(timings)
        self._on_change = on_change
        self._probe = probe
        self._wake = asyncio.Event()
        self._paused = False
        self._sent: list[ListedTable] | None = None
        self._checks: set[asyncio.Task] = set()

    @property
    def shown(self) -> list[ListedTable]:
        return self._sent or []

    def listed(self, tables: Sequence[TableInfo]) -> None:
        self.answering.listed(tables, self._now())
        self._report()
        self._wake.set()

    def pause(self) -> None:
        self._paused = True

    def resume(self) -> None:
        if self._paused:
            self._paused = False
            self.answering.check_all_now(self._now())
        self._wake.set()

    async def run(self) -> None:
        try:
            while True:
                self._wake.clear()
                if not self._paused:
                    for check in self.answering.due(self._now()):
                        self._start(check)
                self._report()
                at = None if self._paused else self.answering.next_change()
                wait = None if at is None else max(0.0, at - self._now())
                try:
                    await within(wait, self._wake.wait())
                except TimeoutError:
                    pass
        finally:
            for task in self._checks:
                task.cancel()
            await asyncio.gather(*self._checks, return_exceptions=True)

    def _start(self, check: Check) -> None:
        async def one() -> None:
            try:
                answered = await self._probe(check.address, check.port,
                                             self.answering.timings.timeout)
            except Exception:  # noqa: BLE001 - a check that breaks is a miss, never a crash
                log.exception("checking %s:%s failed", check.address, check.port)
                answered = False
            self.answering.heard(check, answered, self._now())
            self._wake.set()
        task = asyncio.ensure_future(one())
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    def _report(self) -> None:
        shown = self.answering.shown(self._now())
        if shown != self._sent:
            self._sent = shown
            self._on_change(list(shown))

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()
