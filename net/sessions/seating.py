"""Seating: who sits where before the first deal.

Before the deal the host person arranges the table: a bot of some level, nobody, or a
joined player in each seat, and their own seat anywhere. Every change is a seat entry in
the table's log. Moving one occupant to an occupied seat is a swap, logged in an order
that never shows one key in two seats (``swap_steps``). Once the game has started the
seats are the log's to change (drops, stand-ins, re-admission), not this part's.

``Seating`` is wired to the table's ``authority`` (a getter: a restore may replace it),
the host's ``key`` and ``fingerprint``, and a few calls: ``you`` (the host person's seat
now), ``connected`` (is this key's player here), ``apply`` and ``log_only`` (log a change,
and go on or not), ``emit``, ``settled`` (show the seats as they are) and ``reseated``
(seats were swapped) — so tests drive it with recording ones.
"""

from __future__ import annotations

from collections.abc import Callable

from net.sessions.events import error_event
from net.sessions.facade import EventCallback
from net.sessions.opened import game_of
from net.trust.host.authority import HostAuthority, Out
from net.trust.values import NOBODY, Seat

#: A new table's seat entry: (seat, kind, key, name, bot level).
FirstSeat = tuple[int, str, bytes | None, str, str | None]


def bot_name(seat: int) -> str:
    return f"Bot {seat + 1}"


def swap_steps(first: Seat, second: Seat, a: int, b: int) -> list[tuple[int, Seat]]:
    """The seat entries that exchange seats ``a`` (holding ``first``) and ``b``
    (holding ``second``), in an order that never shows one key in two seats."""
    if first.kind == "human" and second.kind == "human":
        return [(a, NOBODY), (b, first), (a, second)]
    if first.kind == "human":
        return [(a, second), (b, first)]
    return [(b, first), (a, second)]


class Seating:
    def __init__(self, authority: Callable[[], HostAuthority], key: bytes, fingerprint: str, *,
                 you: Callable[[], int | None], connected: Callable[[bytes | None], bool],
                 emit: EventCallback, apply: Callable[[Out], None],
                 log_only: Callable[[Out], None], settled: Callable[[], None],
                 reseated: Callable[[], None], bot_levels: dict[int, str] | None = None):
        self._authority, self.key, self.fingerprint = authority, key, fingerprint
        self._you, self._connected, self._emit = you, connected, emit
        self._apply, self._log_only, self._settled, self._reseated = apply, log_only, settled, reseated
        self.bot_levels = dict(bot_levels or {})  # seat -> level, for the bots seated here

    def first_seats(self, players: int, host_name: str) -> list[FirstSeat]:
        """A new table's seats, as (seat, kind, key, name, level): the host person's own
        (``you``), a bot where one was chosen, nobody elsewhere."""
        seats: list[FirstSeat] = []
        for seat in range(players):
            if seat == self._you():
                seats.append((seat, "human", self.key, host_name, None))
            elif seat in self.bot_levels:
                seats.append((seat, "bot", None, bot_name(seat), self.bot_levels[seat]))
            else:
                seats.append((seat, "empty", None, "", None))
        return seats

    def all_taken(self) -> bool:
        """Every seat has a bot, the host, or a player who is here."""
        seats = self._authority().seats
        return len(seats) == game_of(self._authority()).num_players and all(
            i.kind == "bot" or (i.kind == "human" and self._connected(i.key)
                                and (i.key == self.key or i.connected))
            for i in seats.values())

    def fill(self) -> None:
        """The first deal: every empty seat gets a bot (at the level chosen for it)."""
        auth = self._authority()
        for seat, info in sorted(auth.seats.items()):
            if info.kind == "empty":
                self._log_only(auth.seat(seat, "bot", name=bot_name(seat),
                                              level=self.bot_levels.get(seat, "normal")))

    def set_seat(self, seat: int, kind: str, level: str | None = None) -> None:
        """A bot of ``level``, or nobody, in ``seat`` (before the first deal)."""
        auth = self._authority()
        if auth.match is not None or seat not in auth.seats or kind not in ("bot", "empty"):
            return
        info = auth.seats[seat]
        you = self._you()
        if info.kind == "human" and (seat == you or self._connected(info.key)):
            self._emit(error_event("You are sitting there: sit somewhere else first"
                                        if seat == you else
                                        f"{info.name} is sitting there: move them to "
                                        "another seat first"))
            self._settled()  # the setup screen shows the seat as it still is
            return
        if kind == "bot":
            self.bot_levels[seat] = level or "normal"
        else:
            self.bot_levels.pop(seat, None)
        self._apply(auth.seat(seat, kind, name=bot_name(seat) if kind == "bot" else "",
                                   level=(level or "normal") if kind == "bot" else None))

    def sit(self, seat: int) -> None:
        """The host moves to ``seat``, swapping with whoever is there."""
        you, auth = self._you(), self._authority()
        if you is None or auth.match is not None or seat == you or seat not in auth.seats:
            return
        self.swap(you, seat)

    def move_player(self, seat: int, player: str) -> None:
        """The joined player ``player`` (a fingerprint) to ``seat``, swapping."""
        auth = self._authority()
        if seat not in auth.seats:
            return
        if player == self.fingerprint:
            self.sit(seat)
            return
        source = auth.seat_of(player)
        if source is None:
            self._emit(error_event("that player is no longer at the table"))
            self._settled()
            return
        if source != seat:
            self.swap(source, seat)

    def swap(self, a: int, b: int) -> None:
        """Exchange the occupants of seats ``a`` and ``b``."""
        auth = self._authority()
        for seat, info in swap_steps(auth.seats[a], auth.seats[b], a, b):
            if info.kind == "bot":
                out = auth.seat(seat, "bot", name=bot_name(seat), level=info.level)
            elif info.kind == "human":
                out = auth.seat(seat, "human", info.key, info.name)
            else:
                out = auth.seat(seat, "empty")
            self._log_only(out)
            if out.error:
                break
        self.bot_levels = {s: i.level or "normal" for s, i in auth.seats.items()
                           if i.kind == "bot"}
        self._reseated()
