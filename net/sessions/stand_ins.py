"""Stand-ins: a bot that plays a dropped player's seat until they come back.

A player whose link drops keeps their seat; the table waits. After ``after`` seconds (a
host option; None: never by itself) or when the host person says so, a bot takes the
seat at the level the host chose (``level_now``; the wait starts at the drop in game, or
as the game starts for a player already away) — logged as a seat entry, so every replica sees it — and the seat is
handed back, logged again, the moment the player's key returns. Meanwhile the seat is
still *theirs*: a stranger asking to be re-admitted is offered it under their name.

Under the mental-poker deal a bot of the host's can play only cards the host's client
holds: a seat dealt to its player's own client waits (``deferred``) until the deal is
restarted without it (``net.sessions.deal_watch``), and then the bot plays the cards
the host's client now holds for it — the host learns that hand, as it learns its own. There the host holds an
away player's cards, and the promise that nobody waits for ever is the private deal's:
without a host option, a player gone whose cards the host's computer holds (after a void
or a takeover, or away at the deal) is waited for the private deal's own drop wait
(``held_wait``), counted down on every seat, and then a bot plays for them — as the hand
would have gone on without them had their computer still held their cards.

``StandIns`` holds who a standing-in bot is keeping each seat for; it is wired to the
table's ``authority`` (a getter: a restore may replace it), the host's ``key``, the
``timers``, and three calls — ``emit`` (tell the host's seat), ``apply`` (log a change
and go on) and ``forget_bot`` (a seat's bot is no longer needed) — so tests drive it with
recording ones.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.bots import ALL_LEVELS
from net.sessions.clock import Timers
from net.sessions.events import held_event, stand_in_event
from net.sessions.facade import EventCallback
from net.trust.host.authority import HostAuthority, Out


class StandIns:
    def __init__(self, authority: Callable[[], HostAuthority], key: bytes, timers: Timers, *,
                 emit: EventCallback, apply: Callable[[Out], None],
                 forget_bot: Callable[[int], None], after: float | None, level: str | None = None,
                 held_wait: float | None = None):
        self._authority, self.key, self.timers = authority, key, timers
        self._emit, self._apply, self._forget_bot = emit, apply, forget_bot
        self.after, self.held_wait = after, held_wait
        self.level = level  # the level the host chose for stand-ins (None: not said)
        self.held: dict[int, tuple[bytes, str]] = {}  # seat -> (player's key, name)
        self.deferred: set[int] = set()  # seats whose cards are their player's client's now

    def __contains__(self, seat: int) -> bool:
        return seat in self.held

    def __iter__(self):
        return iter(sorted(self.held))

    def level_now(self) -> str:
        """The level a stand-in plays at: the one the host chose (``level``: the host
        option, or the computer level picked as the game started); else the strongest
        of the computer players seated at this table, as its log says — so a table
        restored or carried on by another player keeps to it; else "normal"."""
        if self.level in ALL_LEVELS:
            return self.level
        seated = [info.level for info in self._authority().seats.values()
                  if info.kind == "bot" and info.level in ALL_LEVELS]
        return max(seated, key=ALL_LEVELS.index, default="normal")

    def arm(self, seat: int) -> None:
        """A player dropped in game: a bot takes over after the wait, unless they return —
        the host option's, or, without one, the held wait where the host's computer holds
        their cards under the private deal (told to the host's seat: a countdown)."""
        if self._authority().match is None:
            return
        if self.after is not None:
            self.timers.later(("stand-in", seat), self.after, self.stand_in, seat, True)
        elif self.held_wait is not None and self._holds_away(seat):
            self.timers.later(("stand-in", seat), self.held_wait, self.stand_in, seat, True)
            self._emit(held_event(self._authority().seats[seat].name, seat, self.held_wait))

    def _holds_away(self, seat: int) -> bool:
        """Whether ``seat``'s player is away and the host's computer holds their cards
        under the private deal — the one wait nothing else times."""
        auth = self._authority()
        info = auth.seats.get(seat)
        return auth.deal.PRIVATE and info is not None and info.kind == "human" \
            and not info.connected and info.key != self.key and auth.deal.host_dealt(seat)

    def game_started(self) -> None:
        """The game has just started: a player already away (dropped before the first
        deal) gets a stand-in after the wait too, as one who drops in game — else the
        table would wait for them however long."""
        seats, host = self._authority().seats, self.key
        for seat, info in sorted(seats.items()):
            if info.kind == "human" and not info.connected and info.key != host:
                self.arm(seat)

    def disarm(self, seat: int) -> None:
        self.timers.cancel(("stand-in", seat))

    def stand_in(self, seat: int, bot: bool) -> None:
        """Let a bot play a dropped seat now (True), or keep waiting (False: a held wait
        starts again)."""
        self.disarm(seat)
        info = self._authority().seats.get(seat)
        self.deferred.discard(seat)
        if not bot:
            if self.after is None:
                self.arm(seat)
            return
        if info is None or info.kind != "human" or info.connected or info.key == self.key:
            return
        if not self._authority().deal.host_dealt(seat):
            self.deferred.add(seat)  # under the mental deal: its cards are not the host's yet
            return
        self.held[seat] = (info.key, info.name)
        out = self._authority().seat(seat, "bot", name=f"{info.name} (bot)", level=self.level_now())
        self._emit(stand_in_event(seat, info.name))
        self._apply(out)

    def resume(self) -> None:
        """The deal was restarted without some players: stand in where it waited to."""
        for seat in sorted(self.deferred):
            self.stand_in(seat, True)

    def time_held(self) -> None:
        """Any change on the table: a player away whose cards the host's computer holds
        now and who is not timed yet — restarted out of the deal while still away, or
        away at a deal (after a takeover, say) — is waited for the held wait."""
        if self.after is not None or self.held_wait is None:
            return
        for seat in sorted(self._authority().seats):
            if ("stand-in", seat) not in self.timers and self._holds_away(seat):
                self.arm(seat)

    def hand_back(self, key: bytes) -> int | None:
        """A returning player whose seat a bot was keeping: give it back; their seat."""
        for seat, (held_key, held_name) in list(self.held.items()):
            if held_key == key:
                self.release(seat)
                self._apply(self._authority().seat(seat, "human", key, held_name))
                return seat
        return None

    def release(self, seat: int) -> None:
        """The seat is no longer kept for its player (given back, or to a new key)."""
        self.held.pop(seat, None)
        self._forget_bot(seat)

    def away(self, seat: int) -> tuple[bytes, str]:
        """(key, name) of the player whose seat this is, even while a bot stands in."""
        if seat in self.held:
            return self.held[seat]
        info = self._authority().seats[seat]
        return info.key, info.name

    def readmittable(self, name: str | None = None) -> list[int]:
        """Seats a new key could be given — a player away (dropped, or played by a
        stand-in bot) — those of a player called ``name`` first."""
        seats = self._authority().seats
        away = [s for s, i in sorted(seats.items()) if i.kind == "human"
                and not i.connected and i.key != self.key] + sorted(self.held)
        return sorted(away, key=lambda s: self.away(s)[1] != name)
