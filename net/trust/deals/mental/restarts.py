"""Whether a restart of the mental deal is one the host may log, as every peer checks it.

A ``mental-restart`` entry starts the deal again (``sequencer.restart_problem`` checks
its record: the next attempt, the parties left). Whether the host had a reason is
checked here, on what this peer knows (``Hand``):

* "redeal" (Rook): only after a proven claim, dropping no seat;
* "dropped": only parties awaited in the deal, before the cards are dealt; "void": only
  once they are dealt; either way every dropped seat away (its ``drop`` logged), and not
  sooner than this peer's own clock allows (``RestartWatch``);
* "cheat": only the party this peer itself proves broke a rule — its deal client's own
  verdict, every check of the log that needs no secret run again, or a move the rules
  forbid on the deal every party revealed (``log.Verdict``). A peer that is no party of
  the deal takes the host's word, as it takes its score.

``allowed`` returns the verdict of a "cheat" restart (None otherwise), or raises
``RestartRefused`` saying why the host may not log it.
"""

from __future__ import annotations

from typing import NamedTuple

from engine import IllegalAction

from net.trust.deals.mental.errors import Cheat, MentalError
from net.trust.deals.mental.log import Verdict


class RestartRefused(Exception):
    """A restart the host had no reason to log (the message says why)."""


class RestartWatch:
    """When a peer may accept a restart that drops a party, on its own clock (as
    ``deadline.ShuffleWatch`` times a skip): the host logs each entry before it sends it,
    so the time from receiving an entry live to receiving the restart is at least the
    host's wait less a delivery. "dropped": the deadline since the deal last moved on
    (the last deal entry); "void": the deadline since each dropped seat's ``drop``. An
    entry that came in a catch-up sync cannot be timed, and is not."""

    def __init__(self, deadline: float, slack: float):
        self.deadline, self.slack = deadline, slack
        self.moved: float | None = None  # when the last deal entry came live
        self.drops: dict[int, float | None] = {}  # seat -> when its drop came live

    def deal_moved(self, now: float, live: bool) -> None:
        self.moved = now if live else None

    def dropped(self, seat: int, now: float, live: bool) -> None:
        self.drops[seat] = now if live else None

    def rejoined(self, seat: int) -> None:
        self.drops.pop(seat, None)

    def problem(self, reason: str, seats, now: float) -> str | None:
        least = self.deadline - self.slack
        if reason == "dropped" and self.moved is not None and now - self.moved < least:
            return (f"the host restarted the deal without seats {list(seats)} "
                    f"{now - self.moved:.1f} s after it last moved on; it must wait {self.deadline:g} s")
        for seat in seats:
            at = self.drops.get(seat)
            if reason == "void" and at is not None and now - at < least:
                return (f"the host voided the hand {now - at:.1f} s after seat {seat} dropped; "
                        f"it must wait {self.deadline:g} s")
        return None


class Hand(NamedTuple):
    """What a peer knows of the hand a restart ends."""

    party: object  # its ``PartyHand``
    dealt: bool  # the cards were dealt ("mental-dealt" logged)
    awaited: list  # the parties whose deal messages the deal waits for
    cheat: Verdict | None  # a party its own deal client proved broke a rule
    seats: object  # the table's ``Seats``
    watch: RestartWatch
    now: float


def allowed(body: dict, record: dict, setup, hand: Hand) -> Verdict | None:
    """Check a ``mental-restart`` entry's ``body`` (its ``record`` already the next
    attempt's): the verdict of a "cheat" restart, None for another; RestartRefused."""
    reason, dropped = record["reason"], record["dropped"]
    if reason == "cheat":
        return _cheat(body, dropped, setup, hand)
    if reason == "redeal":
        machine = hand.party.client.machine
        if body.get("seats") != []:
            raise RestartRefused("a redeal drops no seat")
        if machine is not None and machine.redeal is None:
            raise RestartRefused("the host redealt a hand nobody showed a reason to redeal")
        return None
    seats = sorted(s for i in dropped for s in setup.parties[i].seats)
    if body.get("seats") != seats:
        raise RestartRefused(f"the restart names seats {body.get('seats')}, not the dropped parties' {seats}")
    if (reason == "void") != hand.dealt:
        raise RestartRefused(f"a restart for {reason!r} {'after' if hand.dealt else 'before'} "
                             "the cards were dealt")
    if reason == "dropped" and not set(dropped) <= set(hand.awaited):
        raise RestartRefused(f"the host restarted the deal without parties {dropped}, which it "
                             "was not waiting for")
    for i in dropped:
        for seat in setup.parties[i].seats:
            info = hand.seats.get(seat)
            if info is not None and info.connected and info.key == setup.parties[i].key:
                raise RestartRefused(f"the host restarted the deal without seat {seat}, which is still here")
    problem = hand.watch.problem(reason, seats, hand.now)
    if problem:
        raise RestartRefused(problem)
    return None


def _cheat(body: dict, dropped: list, setup, hand: Hand) -> Verdict | None:
    if hand.party.onlooker:
        return None
    verdict = hand.cheat or _rechecked(hand.party) or _revealed(hand.party, hand.dealt, setup)
    if verdict is None:
        raise RestartRefused("the host voided the hand for a cheat the log does not show")
    named = body.get("cheat")
    if not verdict.same(named) or dropped != [verdict.party] \
            or body.get("seats") != list(setup.parties[verdict.party].seats):
        raise RestartRefused(f"the host named {named!r}, but the log shows {verdict.body()!r}")
    return verdict


def _rechecked(party) -> Verdict | None:
    """Every check of the log that needs no secret, now (a batch for another party this
    client had not checked yet): the party it proves broke a rule, if any."""
    machine = party.client.machine
    try:
        machine.recheck()
    except Cheat as exc:
        return Verdict.of(exc)
    except MentalError:
        return Verdict.of(machine.failed)
    return None


def _revealed(party, dealt: bool, setup) -> Verdict | None:
    """A move the rules forbid on the deal every party revealed (a revoke), if any."""
    if party.verified is None or not dealt:
        return None
    try:
        party.final_state()
    except IllegalAction as exc:
        return Verdict.of_move(setup, exc)
    return None
