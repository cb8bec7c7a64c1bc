"""A guest seat's decisions: the person's, through ``act``, or a bot's (headless).

Nothing is decided on a past position: after each join, not until the replica holds
the log up to the head the host announced ("joined": a restarted app is sent its whole
log, its own earlier turns in it). One decision at a time: once a move is sent, nothing
more is decided or offered until the host logs it or refuses it (a Rook "Got it" sent
while someone else's is logged must not go twice). A refusal is matched to the move it
answers by the signature it names (``messages.error_message``): only a refusal of the
move in flight reaches the person — anything else the host complains about (an earlier
move of ours, refused after this one went) is logged. A bot decides through the same
``bots.BotDriver`` as every other bot, from the seat's own view.

Each move is checked on our replica and signed there (``PeerReplica.act``: net/trust's one
signing path, with the replica's injected randomness).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from engine import IllegalAction
from engine.bots import Bot, make_bot
from engine.bots.random_bot import RandomBot

from net.sessions.bots import BotDriver
from net.sessions.events import error_event
from net.sessions.facade import EventCallback, StateEvent
from net.trust.entries import ActionEntryBody, DealBody, HandEndBody, MentalDealtBody, StartBody
from net.trust.moves import repeats
from net.trust.peer.replica import PeerReplica, ReplicaHalted
from net.trust.values import EntryMessage

if TYPE_CHECKING:
    from net.wire.heartbeat import Link

log = logging.getLogger(__name__)

#: What the person is told when they move before their app has caught up with the table.
CATCHING_UP = "catching up with the table: wait a moment"


class Sent(NamedTuple):
    """Our move on its way: the log position it was decided at and its signature (what
    the host's entry logging it, or its refusal of it, names)."""

    seen: int
    sig: bytes


class GuestPlayer:
    """Wired by the ``GuestCore`` to what it uses: the guest's ``key`` (its bot's seed), its
    ``replica`` and ``link`` (getters: a rejoin makes new ones; no link while away),
    ``emit``, ``call_later``, and the calls ``caught_up`` (the log has come), ``noted`` (keep
    an error the host reported) and ``offer`` (the "state" event that offers the decision
    again)."""

    def __init__(self, key: bytes, replica: Callable[[], PeerReplica | None],
                 link: Callable[[], Link | None], *, emit: EventCallback, call_later: Callable,
                 caught_up: Callable[[], bool], noted: Callable[[str], None],
                 offer: Callable[[], StateEvent], bot_level: str | None = None,
                 bot_delay: float = 0.0):
        self._replica, self._link, self._emit = replica, link, emit
        self._caught_up, self._noted, self._offer = caught_up, noted, offer
        self.bot: Bot | RandomBot | None = make_bot(bot_level, key) if bot_level else None
        self.in_flight: Sent | None = None  # our move, until the host logs or refuses it
        self.failed_at: int | None = None  # where the bot's move failed: not tried again there
        self.driver = BotDriver(call_later, due=self._due, position=lambda: self._deciding.seq,
                                move=self._bot_move, pace=lambda: bot_delay)

    @property
    def _deciding(self) -> PeerReplica:
        """The replica a decision is made on. Nothing is decided before the guest holds
        one (``act`` and ``my_turn`` look first), and it never goes: a rejoin or a
        takeover only puts another in its place."""
        replica = self._replica()
        assert replica is not None, "a decision is considered only once there is a replica"
        return replica

    # -- the person -----------------------------------------------------------------------------
    def act(self, data: dict) -> None:
        """The person's decision (hand-record form, no seat)."""
        r = self._replica()
        if r is None or self._link() is None:
            self._emit(error_event("not connected to the table right now"))
            return
        if self.in_flight is not None:
            return  # a second click while the first move is on its way: it is that move
        if not self._caught_up():
            self._emit(error_event(CATCHING_UP))  # (nothing is offered meanwhile)
            return
        if r.seat is not None and repeats(r.game, r.decision_state(), r.seat, data):
            return  # a second "Got it" once the first is logged: changes nothing
        try:
            self.send(dict(data))
        except (IllegalAction, ReplicaHalted) as exc:
            self._emit(error_event(str(exc)))

    def send(self, data: dict) -> None:
        """Sign and send one decision; nothing more is decided until it is settled."""
        replica, link = self._deciding, self._link()
        assert link is not None, "act and the bot's turn send only while linked (they look first)"
        message = replica.act(data)
        link.send(message)
        self.in_flight = Sent(replica.seq, message["signed"]["sig"])

    # -- the host's answers ------------------------------------------------------------------------
    def reconnected(self) -> None:
        """A new link: a move sent on the old one may never have arrived (if it was
        logged, the sync shows it); decide afresh."""
        self.in_flight = None
        self.failed_at = None

    def refused(self, reason: str, refuses: bytes | None = None) -> None:
        """An error from the host (or junk our replica rejected); ``refuses``: the
        signature of the message of ours it refuses. Only a refusal of this seat's move
        in flight is the person's business; anything else is logged."""
        self._noted(reason)
        if self.in_flight is None or refuses != self.in_flight.sig:
            log.warning("the host reported a problem that was not about our move: %s", reason)
            return
        self.in_flight = None  # our move was refused: decide again
        self._emit(error_event(reason))
        replica = self._replica()
        if replica is not None and replica.scores is not None:
            self._emit(self._offer())  # the decision is offered again

    def settle(self, accepted: list[EntryMessage]) -> None:
        """Our move in flight is settled once the host logs it (the entry holds the move
        we signed), or the hand moves on."""
        if self.in_flight is None:
            return
        for a in accepted:
            body = a.entry.content
            if isinstance(body, (DealBody, MentalDealtBody, HandEndBody, StartBody)) or (
                    isinstance(body, ActionEntryBody) and body.signed["sig"] == self.in_flight.sig):
                self.in_flight = None
                return

    # -- a bot in this seat -------------------------------------------------------------------------
    def poke(self) -> None:
        if self.bot is not None:
            self.driver.poke()

    def my_turn(self) -> bool:
        r = self._replica()
        if r is None or r.stopped is not None or r.seat is None or r.view is None:
            return False
        return r.decision_state() is not None and r.seat in (r.view.get("to_act") or [])

    def _due(self) -> list[int]:
        ready = self.bot is not None and self._link() is not None and self.in_flight is None \
            and self._caught_up()
        r = self._replica()
        if r is None or r.seat is None or not ready or not self.my_turn() or self.failed_at == r.seq:
            return []
        return [r.seat]

    def _bot_move(self, _seat: int) -> None:
        bot = self.bot
        if bot is None:  # (only a bot's seat is ever due: ``_due``)
            return
        self.failed_at = self._deciding.seq  # cleared below once the move is sent
        try:
            self.send(self._bot_choice(bot))
            self.failed_at = None
        except (IllegalAction, ReplicaHalted) as exc:
            self._emit(error_event(f"the bot's move was refused: {exc}"))
        except Exception as exc:  # noqa: BLE001 - a bot bug must not kill the session
            log.exception("bot failed")
            self._emit(error_event(f"the bot failed: {exc!r}"))

    def _bot_choice(self, bot: Bot | RandomBot) -> dict:
        r = self._deciding
        game = r.game
        assert game is not None, "a seat is due to decide only in a game"
        if isinstance(bot, RandomBot):
            action = bot.choose(r.decision_state(), r.seat)
        else:
            action = bot.choose(game, r.view)
        data = game.action_to_json(action)
        data.pop("seat", None)
        return data
