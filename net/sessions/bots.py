"""The bot driver: when each computer player at a table decides.

Every bot a session plays goes through one ``BotDriver``: a host's bot seats, a
stand-in for a dropped player, a local table's computer players, the host's own seat
played headless, and a guest's bot. The driver knows nothing of tables or sockets; it is
given

* ``due()``: the seats whose bot should decide now (empty while nothing is to decide);
* ``position()``: a token for the table's position (the host's log head, the guest's
  replica seq) — a decision made for a position the table has left is not played;
* ``move(seat)``: play that seat's decision now;
* ``pace()``: the pause before a decision (a local table's chosen speed; 0 in tests);
* ``call_later(delay, fn, *args)``: the loop's timer.

``poke()`` after every change schedules each due seat once; when its pause is over the
seat plays if the table is still where it was, and otherwise the driver looks again
(Rook's "Got it" moves the table without a card). Sans-I/O: tests drive it with a fake
clock and record the moves.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)


class BotDriver:
    def __init__(self, call_later: Callable, *, due: Callable[[], list[int]],
                 position: Callable[[], object], move: Callable[[int], None],
                 pace: Callable[[], float] = lambda: 0.0):
        self.call_later = call_later
        self.due = due
        self.position = position
        self.move = move
        self.pace = pace
        self.scheduled: set[int] = set()  # seats whose decision is already on the clock
        self.stopped = False

    def poke(self) -> None:
        """Schedule a decision for every due seat that has none on the clock."""
        if self.stopped:
            return
        for seat in self.due():
            if seat not in self.scheduled:
                self.scheduled.add(seat)
                self.call_later(self.pace(), self._decide, seat, self.position())

    def _decide(self, seat: int, position) -> None:
        self.scheduled.discard(seat)
        if self.stopped:
            return
        if self.position() != position:
            self.poke()  # the table moved on meanwhile: decide afresh
            return
        if seat not in self.due():
            return
        try:
            self.move(seat)
        except Exception:  # noqa: BLE001 - a bot bug must not stop the table (nor be put
            log.exception("seat %s's bot failed", seat)  # on a person's screen: not their move)

    def stop(self) -> None:
        """No more decisions (the table is closing or over)."""
        self.stopped = True
