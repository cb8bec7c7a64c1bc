"""A watcher's own client: the hands players show it, and the table followed after its
host leaves for good.

A watcher is a ``GuestCore`` whose "join" asks to watch (``watch=True``): its replica is a
key that holds no seat, checking every entry as a seated player's does, and it shows the
public view. Two parts here are a watcher's alone:

* ``ShownHands``: the hands players show this watcher ("Show my cards to…"). Each
  "shown" the host relays is opened with this watcher's key and the key the log seats
  there (``net.trust.shown.unseal``: a box the host made up, or one for another seat,
  table or watcher, does not open and is only logged); the latest position per seat
  counts. ``coach`` is the hand shown at the bottom of the table: the one shown last, of
  those still shown. ``coach_view`` joins it to the public view — the cards since
  played out of it — so the watcher sees the hand, the legal moves and the Hint, as its
  player does; it can never play them (``GuestCore.act`` says so).
* ``Following``: a watcher has no seat, so it neither offers a standing nor counts
  towards a takeover's majority, and never hosts. When its host's link ends, it waits as
  a player does (``Timings.takeover_after``), then asks the players' standbys (the host
  sent it the ``roster``) "where" the table is, every ``takeover_gather``, until one
  answers "follow" with a takeover entry; it reads that entry against its whole log
  (``takeover.audit``, as a player does before it follows), rolls its log back to the
  entry the takeover extends, pins the new host's key and rejoins it as a watcher. A host
  that hands the table over (a "handover") is followed at once. A player answers "where"
  only to a key it knows watches the table (the host's "watchers" list) or its departed
  host (``succession``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from engine.bots.knowledge import Knowledge
from net.sessions.events import shown_event
from net.sessions.facade import EventCallback, ShownEvent
from net.sessions.standby import ask_where
from net.trust import takeover
from net.trust.entries import EntryError, TakeoverBody
from net.trust.peer.replica import PeerReplica
from net.trust.shown import ShownError, ShownHand, unseal
from net.trust.values import EntryMessage, SignedEntry, card_names
from net.wire import messages as m
from net.wire.heartbeat import Timings

log = logging.getLogger(__name__)


class ShownHands:
    """The hands shown to this watcher (``identity``), by seat."""

    def __init__(self, identity):
        self.identity = identity
        self.hands: dict[int, tuple[bytes, ShownHand]] = {}  # seat -> (its player's key, hand)
        self.order: list[int] = []  # seats, in the order they began showing
        self.refused: list[str] = []  # boxes that did not open, and why

    def receive(self, replica: PeerReplica | None, message: dict) -> ShownEvent | None:
        """A "shown" the host relayed: opened, kept; the event to tell (None: nothing new)."""
        seat = message["seat"]
        info = replica.seats.get(seat) if replica is not None else None
        if replica is None or info is None or info.kind != "human" or info.key is None:
            self.refused.append(f"a hand shown from seat {seat}, where no player sits")
            return None
        try:
            hand = unseal(self.identity, info.key, message["sealed"], table=replica.table, seat=seat)
        except ShownError as exc:
            log.warning("a hand shown from seat %s did not open: %s", seat, exc)
            self.refused.append(f"seat {seat}: {exc}")
            return None
        last = self.hands.get(seat)
        if last is not None and last[0] == info.key and hand.seq < last[1].seq:
            return None  # an older box relayed again: the later one stands
        was = last is not None
        if hand.view is None:
            self.hands.pop(seat, None)
            if seat in self.order:
                self.order.remove(seat)
            return shown_event(seat, info.name, False) if was else None
        self.hands[seat] = (info.key, hand)
        if seat not in self.order:
            self.order.append(seat)
        return None if was else shown_event(seat, info.name, True)

    def coach(self, replica: PeerReplica) -> ShownHand | None:
        """The hand shown at the bottom of the table: the one shown last, of those whose
        seat its player still plays."""
        for seat in reversed(self.order):
            key, hand = self.hands[seat]
            info = replica.seats.get(seat)
            if info is not None and info.key == key:
                return hand
        return None

    def coach_view(self, replica: PeerReplica) -> tuple[dict, object] | None:
        """The shown hand over the public view now — its cards played since taken out —
        and the position rebuilt from it (None if it does not fit the view: a box still on
        its way after the hand moved on); None without a hand shown, or between hands."""
        hand = self.coach(replica)
        public, game = replica.public, replica.game
        if hand is None or not public or game is None or hand.hand != replica.hand_number \
                or public.get("phase") == "done":
            return None
        shown = hand.view
        assert shown is not None  # (a hand no longer shown is not kept: ``receive``)
        played = card_names(game.deck, [public.get("tricks"), public.get("trick")])
        view = {**public, **shown, "hand": [c for c in shown["hand"] if game.deck.parse(c) not in played]}
        try:
            state = Knowledge(game, view).state
        except Exception:  # noqa: BLE001 - a box behind the table: shown, nothing to decide on it
            state = None
        return view, state


class Following:
    """A watcher's way to the table when its host is gone for good (see the module's
    docstring). Wired by its ``GuestCore``: the ``identity`` and ``timings``, getters for
    its ``replica`` and whether it is ``joined``, and the calls ``emit``, ``rolled_back``
    (take this replica, rolled back to that entry) and ``follow`` (pin this key, go to
    that address and port)."""

    port = None  # a watcher has no standby: it never carries the table on
    host = None
    pending = False

    def __init__(self, identity, timings: Timings, *, replica: Callable[[], PeerReplica | None],
                 joined: Callable[[], bool], emit: EventCallback,
                 rolled_back: Callable[[PeerReplica, int], None],
                 follow: Callable[[bytes, str, int], None], rng: Callable[[int], bytes]):
        self.identity, self.timings, self.rng = identity, timings, rng
        self._replica, self._joined, self._emit = replica, joined, emit
        self._rolled_back, self._follow_to = rolled_back, follow
        self.accepted: list[EntryMessage] = []  # every entry the replica accepted (to roll back)
        self.roster: dict[int, tuple[str, int]] = {}
        self.heir: tuple[int, str, int] | None = None  # a handover's heir: asked at once
        self.following: tuple[int, str, int, SignedEntry] | None = None
        self._task: asyncio.Task | None = None

    # -- what the guest tells it ----------------------------------------------------------------
    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        self.host_back()

    async def leave(self, farewell: str | None = None) -> None:
        self.host_back()

    async def carried_on(self) -> None:
        pass

    async def settled(self) -> None:
        pass

    def kept(self, accepted: list[EntryMessage]) -> None:
        self.accepted += accepted

    def on_roster(self, message: dict) -> None:
        self.roster = {seat: (address, port) for seat, address, port in message["peers"]
                       if address is not None}

    def on_handover(self, message: dict) -> None:
        """The host is leaving and hands the table over: ask the heir at once."""
        seat = message["signed"]["body"]["seat"]
        if message.get("address") and message.get("port"):
            self.heir = (seat, message["address"], message["port"])
        self._look(after=0.0)

    def host_silent(self, silent: bool = False) -> None:
        """The link to the host ended: look for the table after the wait a player waits."""
        self._look(after=self.timings.takeover_after(silent))

    def host_back(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def unreachable(self) -> None:
        pass


    # -- looking --------------------------------------------------------------------------------
    def _look(self, after: float) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._search(after))

    async def _search(self, after: float) -> None:
        await asyncio.sleep(after)
        told = False
        while not self._joined():
            replica = self._replica()
            if replica is not None and replica.table is not None:
                if not told:
                    self._emit({"type": "takeover", "stage": "searching", "departed": "",
                                "successor": "", "abandoned": None, "reason": None, "you": False,
                                "departed_seat": replica.host_seat,
                                "text": "The host's computer has stopped answering: looking for "
                                        "the player who carries the table on…"})
                    told = True
                if await self._ask_around(replica):
                    return
            await asyncio.sleep(self.timings.takeover_gather)

    async def _ask_around(self, replica: PeerReplica) -> bool:
        """Every player's standby, the heir first: whether one told us where to go (and we
        went)."""
        places = dict(self.roster)
        if self.heir is not None:
            places[self.heir[0]] = self.heir[1:]
        order = sorted(places, key=lambda seat: (self.heir is None or seat != self.heir[0], seat))
        for seat in order:
            info = replica.seats.get(seat)
            if info is None or info.key is None or info.key == replica.host_key:
                continue
            address, port = places[seat]
            answer = await self._ask(replica.table, info.key, address, port)
            if answer is not None and self._go(replica, answer):
                return True
        return False

    async def _ask(self, table: str, key: bytes, address: str, port: int) -> dict | None:
        """Where this player says the table is carried on (a "follow"), or None."""
        return await ask_where(self.identity, table, key, address, port, self.timings.connect)

    def _go(self, replica: PeerReplica, answer: dict) -> bool:
        """Follow where ``answer`` says the table is carried on, once its takeover entry
        checks out against our whole log (``takeover.audit``); whether we go."""
        took = SignedEntry.from_wire(answer["took"]) if m.is_signed_entry(answer["took"]) else None
        if took is None:
            return False
        audit = takeover.audit(takeover.Holder.of(replica), replica.log, took)
        try:
            by = took.entry.body_as(TakeoverBody).seat
        except (EntryError, TypeError):
            by = None
        if audit.refusal is not None or by is None or by != answer["seat"]:
            log.warning("not following seat %s's takeover: %s", answer["seat"],
                        audit.refusal or f"it is seat {by}'s")
            return False
        rolled = self._roll_back(replica, took.seq - 1)
        key = rolled.seats[by].key
        self.following = (by, answer["address"], answer["port"], took)
        names = {s: i.name for s, i in rolled.seats.items()}
        self._emit({"type": "takeover", "stage": "following",
                    "departed": names.get(rolled.host_seat, ""), "successor": names.get(by, ""),
                    "abandoned": None, "reason": None, "you": False,
                    "departed_seat": rolled.host_seat,
                    "text": f"{names.get(by) or 'A player'} carries the table on: watching there"})
        self._follow_to(key, answer["address"], answer["port"])
        return True

    def _roll_back(self, replica: PeerReplica, seq: int) -> PeerReplica:
        rolled, self.accepted = replica.rolled_back(self.accepted, seq)
        if rolled is not replica:
            self._rolled_back(rolled, seq)
        return rolled
