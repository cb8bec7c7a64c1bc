"""Whereabouts: a host that lost most of its players looks whether they carried the
table on without it.

A host whose network was down for a while (a lid closed and opened again, the Wi-Fi
back) — or that a split network left with a minority of its players — may find that
the others carried the table on: most of its players did, which it cannot be
(``takeover.majority``). It cannot know while it cannot reach them. So while most of
the table's persons are away, it asks their standbys (the roster: ``succession``) every
``Timings.takeover_retry`` where the table is now ("where", on the standby protocol). A
player whose log holds a takeover of this host answers "follow" with where the table is
carried on, and its proof: the takeover entry. The host believes it only once it has
checked that entry itself against its own log (``takeover.audit``): signed by the key
that plays the seat it names, the standings of a majority of this table's persons each
signed by its seat's key, extending an entry of this log, naming this host as the one
that went — and no standing in it saying less than its player's own signed moves here
show, nor a scored hand thrown away. At a table of two persons, which cannot be carried
on without the host's own handover, nothing is believed. Anything less is not believed:
it is logged, and saved as evidence. Believed, the host tells its person — "Dad is
carrying the table on …; join Dad's table from the lobby" (a fatal "error": the app goes
back to its lobby, which offers the carried-on table, and this copy is not offered to
resume) — marks its table done and closes it. Until then its person sees the players
away, as after any drop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from net.sessions.roster import Roster
from net.sessions.standby import ask_where
from net.trust import takeover
from net.trust.alerts import PLAYER, EvidenceError, IntegrityAlert, save_evidence
from net.trust.entries import TakeoverBody
from net.trust.host.authority import HostAuthority
from net.trust.values import SignedEntry
from net.wire import messages as m
from net.wire.heartbeat import Timings

log = logging.getLogger(__name__)


class Whereabouts:
    """Wired by the ``HostCore`` to what it uses: the host's ``identity`` and ``timings``,
    the ``roster`` (the players' standby addresses), ``watched`` (the table's authority
    while it is open for players with a match under way, else None), ``connected`` (is
    this key's player here), ``carried_on`` (say this to the person and close the
    copy) and ``evidence`` (where an answer not believed is kept)."""

    def __init__(self, identity, timings: Timings, roster: Roster, *,
                 watched: Callable[[], HostAuthority | None],
                 connected: Callable[[bytes], bool],
                 carried_on: Callable[[str], Awaitable[None]],
                 evidence: Path | None = None):
        self.identity, self.timings, self.roster = identity, timings, roster
        self._watched, self._connected, self._close = watched, connected, carried_on
        self.evidence = evidence
        self._task: asyncio.Task | None = None
        self.disbelieved: list[IntegrityAlert] = []  # answers not believed, and why

    def watch(self) -> None:
        """Players came or went: start looking if most of them are away."""
        if self._task is None and self._minority():
            self._task = asyncio.ensure_future(self._look())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _minority(self) -> bool:
        """Whether fewer than a majority of the table's persons are here (the host too)."""
        auth = self._watched()
        if auth is None:
            return False
        here = sum(1 for info in auth.seats.values() if info.is_player and self._connected(info.key))
        return here < takeover.majority(auth.seats)

    async def _look(self) -> None:
        try:
            while self._minority():
                await asyncio.sleep(self.timings.takeover_retry)
                if not self._minority():
                    break
                found = await self._ask_everyone()
                if found is not None:
                    asyncio.ensure_future(self._carried_on(found))  # (not one of its tasks: it stops them)
                    return
        finally:
            self._task = None

    async def _ask_everyone(self) -> dict | None:
        """The first answer, of the players away, that proves where the table went."""
        auth = self._watched()
        table = auth.table if auth is not None else None
        if auth is None or table is None:  # (a match under way: its table entry is there)
            return None
        seats = auth.seats
        away = [(seat, address, port) for seat, (address, port) in sorted(self.roster.standby.items())
                if seat in seats and seats[seat].is_player and not self._connected(seats[seat].key)]
        answers = await asyncio.gather(*(self._ask(table, seats[seat].key, address, port)
                                         for seat, address, port in away))
        for (seat, _address, _port), answer in zip(away, answers):
            if answer is not None and self._believed(auth, seat, answer):
                return answer
        return None

    async def _ask(self, table: str, key: bytes, address: str, port: int) -> dict | None:
        """Where this player says the table is carried on (a "follow"), or None."""
        return await ask_where(self.identity, table, key, address, port, self.timings.connect)

    def _believed(self, auth: HostAuthority, seat: int, answer: dict) -> bool:
        """Whether ``answer`` (the player in ``seat``'s "follow") proves that this table was
        carried on without this host (``proof_problem``); if not, it is logged, and kept
        as evidence with whatever the proof shows of someone's lie."""
        problem, named = proof_problem(auth, answer)
        if problem is None:
            return True
        log.warning("not believed: seat %s says the table is carried on, but %s", seat, problem)
        alerts = named or [IntegrityAlert(seat, PLAYER, "takeover",
                                          f"seat {seat} answered that the table is carried on "
                                          f"without this host, but {problem}", auth.table or "",
                                          None, [answer])]
        self.disbelieved += alerts
        for alert in alerts:
            if self.evidence is not None:
                try:
                    save_evidence(alert, self.evidence)
                except EvidenceError as exc:
                    log.warning("%s", exc)
        return False

    async def _carried_on(self, where: dict) -> None:
        """The others carried the table on without us: say so, and close this copy."""
        auth = self._watched()
        if auth is None:
            return
        seat = SignedEntry.from_wire(where["took"]).entry.body_as(TakeoverBody).seat
        info = auth.seats.get(seat)
        who = info.name if info is not None and info.name else "Another player"
        log.info("the table is carried on by seat %s at %s:%s", seat, where["address"],
                 where["port"])
        await self._close(f"{who} is carrying the table on: this computer could not reach "
                          f"the others for a while, and most of them carried on without it. "
                          f"Join {who}'s table from the lobby to play on.")


def proof_problem(auth: HostAuthority, answer: dict) -> tuple[str | None, list[IntegrityAlert]]:
    """Why the departed host (``auth``: its own table, its whole log) does not believe a
    "follow" ``answer`` — that its table was carried on without it — or None; and the
    players its proof shows lying. At a table of two persons nothing is believed: it is
    carried on only by a handover, and this host handed nothing over."""
    took = answer.get("took")
    if not isinstance(took, dict) or not m.is_signed_entry(took):
        return "the answer carries no takeover entry", []
    signed = SignedEntry.from_wire(took)
    # The seats of the entry the takeover extends: this host may have logged on alone since
    # (its hold on a silent player ran out, a computer took the seat), heard by nobody.
    seats = takeover.seats_at(auth.log, signed.entry.seq - 1)
    if takeover.persons(seats) <= 2:
        return "a table of two is never carried on without its host's handover", []
    holder = takeover.Holder(auth.table or "", seats, auth.key, seats.held_by(auth.key),
                             auth.chain.seq if auth.chain is not None else -1, auth.archive.hash_at)
    audit = takeover.audit(holder, auth.log, signed, behind=False)
    return audit.refusal, audit.named
