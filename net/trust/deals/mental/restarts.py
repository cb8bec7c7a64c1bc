"""Whether a restart of the mental deal is one the host may log, as every peer checks it.

A ``mental-restart`` entry starts the deal again (``sequencer.restart_problem`` checks
its record: the next attempt, the parties left). Whether the host had a reason is
checked here, on what this peer knows (``EndedHand``):

* "redeal" (Rook): only after a proven claim, dropping no seat;
* "dropped": only before the cards are dealt; "void": only once they are dealt; either
  way every dropped seat away (its ``drop`` logged), and each dropped party having held
  the deal up for the contribution deadline on this peer's own clock (``RestartWatch``:
  gone that long, or owing a message while the deal did not move for that long);
* "cheat" (a log written before protocol 8, read in a catch-up sync, its table entry
  saying no later protocol — ``MentalPeer`` names the host for any other: a player's
  proven cheat now forfeits the hand, ``forfeits``): only the party this peer itself proves
  broke a rule (``forfeits.proven``). A peer that is no party of the deal takes the
  host's word, as it takes its score.

``allowed`` returns the verdict of a "cheat" restart (None otherwise), or raises
``RestartRefused`` saying why the host may not log it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from net.trust.deals.mental import forfeits
from net.trust.deals.mental.log import Verdict
from net.trust.entries import MentalRestartBody
from net.trust.values import Seats

if TYPE_CHECKING:
    from net.trust.deals.mental.hand import PartyHand


class RestartRefused(Exception):
    """A restart the host had no reason to log (the message says why)."""


class RestartWatch:
    """When a peer may accept a restart that drops parties, on its own clock (as
    ``deadline.ShuffleWatch`` times a skip): the host logs each entry before it sends it,
    so the time from the earliest moment an entry could have come in live (its
    ``arrived``: the last time this peer's link found nothing waiting to be read before
    it, ``heartbeat.Link``) to the moment the restart is read is at least the host's
    wait less the entry's delivery. Timed so, a peer starved of CPU, which reads the
    drop and the restart in one go, never finds the host's wait shorter than it was;
    only its own starvation gives a host that cuts it short any leeway.

    The floor, the same before the cards are dealt ("dropped") and after ("void"): each
    dropped party has held the deal up for the contribution deadline (less the slack) —

    * *gone*: every seat of it dropped at least that long ago. The host waits longer for
      a player gone (``DROP_WAIT``: their cards are locked with their key, and they may
      come back to the same hand), but that wait is the host person's to shorten ("Deal
      again without Dad") or lengthen ("Keep waiting"): the rules allow no less than the
      deadline, which is all a peer can hold the host to; or
    * *silent*: awaited by the deal (a key share, shuffle or shares before the deal, a
      spare's shares or its reveal after it: what this peer sees it owe) while the deal
      did not move on (no deal entry, no move) for that long. The host logs the silent
      client's ``drop`` just before the restart, so its drop is not what is timed.

    An entry that came in a catch-up sync cannot be timed, and is not."""

    def __init__(self, deadline: float, slack: float):
        self.deadline, self.slack = deadline, slack
        self.moved: float | None = None  # when the last entry of the hand came live (its ``arrived``)
        self.drops: dict[int, float | None] = {}  # seat -> when its drop came live (its ``arrived``)
        self.silenced: set[int] = set()  # restarts (their seq) that dropped a client there but silent

    def deal_moved(self, arrived: float, live: bool) -> None:
        self.moved = arrived if live else None

    def dropped(self, seat: int, arrived: float, live: bool) -> None:
        self.drops[seat] = arrived if live else None

    def rejoined(self, seat: int) -> None:
        self.drops.pop(seat, None)

    def problem(self, reason: str, parties: dict, awaited, now: float) -> str | None:
        """Why a restart for ``reason`` without ``parties`` (party -> its seats), read at
        ``now``, comes sooner than the floor allows, or None. ``awaited``: the parties
        this peer sees the deal wait for (None: it cannot tell, being no party of the deal)."""
        least = self.deadline - self.slack
        for party, seats in sorted(parties.items()):
            away = self._away_for(seats, now)
            if away >= least:
                continue
            idle = now - self.moved if self.moved is not None else float("inf")
            waited_for = awaited is None or party in awaited
            if waited_for and idle >= least:
                continue
            seats = list(seats)
            if not waited_for and reason == "dropped":
                return (f"the host restarted the deal without seats {seats} {away:.1f} s after "
                        f"they dropped, which it was not waiting for; it must wait {self.deadline:g} s")
            if not waited_for:
                return (f"the host voided the hand {away:.1f} s after seats {seats} dropped; "
                        f"it must wait {self.deadline:g} s")
            verb = "voided the hand" if reason == "void" else "restarted the deal"
            return (f"the host {verb} without seats {seats} {idle:.1f} s after it last moved on "
                    f"and {away:.1f} s after they dropped; it must wait {self.deadline:g} s")
        return None

    def silent(self, record: dict, setup, now: float) -> bool:
        """Whether a restart ``record`` of ``setup``'s deal (one ``problem`` allows) drops a
        party that had not been away for the deadline: a client there, but silent."""
        least = self.deadline - self.slack
        return record["reason"] in ("dropped", "void") and any(
            self._away_for(setup.parties[i].seats, now) < least for i in record["dropped"])

    def _away_for(self, seats, now: float) -> float:
        """How long every one of ``seats`` has been away, as far as this peer can time it
        (forever for a drop it could not time)."""
        times = [self.drops.get(seat) for seat in seats]
        timed = [at for at in times if at is not None]
        if len(timed) < len(times):
            return float("inf")
        return now - max(timed)


def locked_away(setup, seats, seat: int) -> bool:
    """Whether ``seat``'s cards are locked with the key of a party other than the host's
    whose every seat is away (its player gone: the hand waits for them)."""
    party = next((i for i, p in enumerate(setup.parties) if seat in p.seats), 0)
    return party != 0 and all(not seats[s].connected for s in setup.parties[party].seats)


class EndedHand(NamedTuple):
    """What a peer knows of the hand a restart ends."""

    party: PartyHand
    dealt: bool  # the cards were dealt ("mental-dealt" logged)
    awaited: list | None  # the parties whose deal messages the deal waits for (None: unknown)
    cheat: Verdict | None  # a party its own deal client proved broke a rule
    seats: Seats  # the table's
    watch: RestartWatch
    now: float


def allowed(body: MentalRestartBody, record: dict, setup, hand: EndedHand) -> Verdict | None:
    """Check a ``mental-restart`` entry's ``body`` (its ``record`` already the next
    attempt's): the verdict of a "cheat" restart, None for another; RestartRefused."""
    reason, dropped = record["reason"], record["dropped"]
    if reason == "cheat":
        return _cheat(body, dropped, setup, hand)
    if reason == "redeal":
        machine = hand.party.client.machine
        if body.seats != []:
            raise RestartRefused("a redeal drops no seat")
        if machine is not None and machine.redeal is None:
            raise RestartRefused("the host redealt a hand nobody showed a reason to redeal")
        return None
    seats = sorted(s for i in dropped for s in setup.parties[i].seats)
    if body.seats != seats:
        raise RestartRefused(f"the restart names seats {body.seats}, not the dropped parties' {seats}")
    if (reason == "void") != hand.dealt:
        raise RestartRefused(f"a restart for {reason!r} {'after' if hand.dealt else 'before'} "
                             "the cards were dealt")
    for i in dropped:
        for seat in setup.parties[i].seats:
            info = hand.seats.get(seat)
            if info is not None and info.connected and info.key == setup.parties[i].key:
                raise RestartRefused(f"the host restarted the deal without seat {seat}, which is still here")
    problem = hand.watch.problem(reason, {i: setup.parties[i].seats for i in dropped},
                                 hand.awaited, hand.now)
    if problem:
        raise RestartRefused(problem)
    return None


def _cheat(body: MentalRestartBody, dropped: list, setup, hand: EndedHand) -> Verdict | None:
    if hand.party.onlooker:
        return None
    verdict = forfeits.proven(hand.party, hand.cheat, hand.dealt)
    if verdict is None:
        raise RestartRefused("the host voided the hand for a cheat the log does not show")
    named = body.cheat
    if not verdict.same(named) or dropped != [verdict.party] \
            or body.seats != list(setup.parties[verdict.party].seats):
        raise RestartRefused(f"the host named {named!r}, but the log shows {verdict.body()!r}")
    return verdict

