"""The host's side of a mental-poker deal: the one order every party reads its messages in.

The host's client is the deal's *sequencer*, not one of its secrets' keepers: it logs
each party's signed deal message in the order it came and sends the log to every party
(the sender included; a message takes effect only once logged). It holds no more than
its own party's machine knows, and it cannot write a message for another party: each one
is an envelope signed with the party's identity key over ``MENTAL_DOMAIN``, checked
by every client as it reads the log (``client.DealClient``) and by the sequencer before
logging it.

``DealSequencer`` (no I/O, no clock of its own: the session passes ``now``):

* ``submit(key, envelope, now)`` logs a party's message, or raises ``NotLogged`` with a
  reason for the sender (not a party of this deal, a bad signature, a malformed message,
  another deal's, one out of turn or that does not fit the deal: ``misplaced``). An
  exact copy of a logged message (a client that restarted and sent its deterministic
  messages again) is not logged twice.
* ``awaited()`` says whose message the deal is waiting for: a key share not yet
  published, the party whose turn it is to shuffle, the decryption shares of a party
  that has not published them. ``overdue(now)`` gives those that have held the deal up
  for longer than the deadline (``CONTRIBUTION_DEADLINE``, as a dropped contributor
  today), counted from the last message logged. ``holding_up`` adds the parties gone
  (every seat dropped), whom the host waits for longer (``DROP_WAIT``: ``MentalHost``).
* ``restart(dropped)``: the deal starts again, attempt + 1, with fresh secrets for
  every party; the seats of the ``dropped`` parties go to the host's party (the host's
  stand-in plays them, as it does for a dropped player today). It is logged as a
  ``mental-restart`` record, so every client starts its new machine at the same point
  of the log. A Rook redeal (``Redeal``) restarts the same way with nobody dropped.
  ``restart_problem`` is every client's check of such a record: the next attempt, and
  the parties exactly the last ones less the dropped (the host cannot take a seat's
  cards for itself by a restart).

``Progress`` is who has sent what this attempt, from the messages' bodies alone: the
sequencer's ``awaited``, and a replica's check that a party restarted out for being
late was the one awaited.

Parties (``parties_for``): the host's client first (its own seat, its computer
players' and its stand-ins'), then each other human in seat order. The order is the
shuffle order: the host shuffles first, so a guest's late shuffle is the one awaited.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from net.trust.signing import opens

from . import messages as mm
from .errors import BadMessage
from .keys import DealContext
from .setup import DealSetup, Party

MENTAL_DOMAIN = "parlour-mental-message/1"
RESTART = "mental-restart"


class NotLogged(Exception):
    """A message the sequencer refused to log; the reason is for its sender."""


def parties_for(host_key: bytes, seats: dict[int, bytes], away: frozenset = frozenset()) -> tuple:
    """The deal's parties from ``seats`` (seat -> the key that plays it: a bot's is the
    host's): the host's client first, then every other key in seat order. A seat whose
    player is ``away`` is the host's for this deal."""
    host_seats = sorted(s for s, key in seats.items() if key == host_key or s in away)
    others: dict[bytes, list[int]] = {}
    for seat in sorted(seats):
        key = seats[seat]
        if key != host_key and seat not in away:
            others.setdefault(key, []).append(seat)
    parties = [Party(host_key, tuple(host_seats))] if host_seats else []
    return tuple(parties + [Party(key, tuple(s)) for key, s in others.items()])


def without(setup: DealSetup, dropped) -> DealSetup:
    """The next attempt of ``setup``'s deal: every party of ``dropped`` (indices) gone,
    its seats given to the first party (the host's client)."""
    dropped = set(dropped)
    if not dropped:  # a redeal: the same parties
        context = setup.context
        return replace(setup, context=DealContext(context.table, context.hand, context.attempt + 1))
    moved = sorted(s for i in dropped for s in setup.parties[i].seats)
    parties = [p for i, p in enumerate(setup.parties) if i not in dropped]
    if 0 in dropped or not parties:
        raise ValueError("the host's own party cannot drop out of its deal")
    parties[0] = Party(parties[0].key, tuple(sorted(parties[0].seats + tuple(moved))))
    context = setup.context
    return replace(setup, context=DealContext(context.table, context.hand, context.attempt + 1),
                   parties=tuple(parties))


#: Why a deal starts again: a party gone during the deal; after it (the hand voided); a
#: Rook redeal; a party proven to have broken a rule (the hand voided, its seats the host's).
REASONS = ("dropped", "void", "redeal", "cheat")


def restart_problem(setup: DealSetup, record: object) -> str | None:
    """Why ``record`` is not a restart of ``setup``'s deal the host may log, or None: it
    must be the next attempt of this hand, drop no one for a redeal and someone (never the
    host's party) otherwise, and give the dropped parties' seats to the host's party."""
    context = setup.context
    if not isinstance(record, dict) or record.get("type") != RESTART \
            or record.get("hand") != context.hand or record.get("attempt") != context.attempt + 1:
        return "the host logged an unsigned record that is not this deal's next attempt"
    dropped, reason = record.get("dropped"), record.get("reason")
    if reason not in REASONS or not isinstance(dropped, list) \
            or not all(isinstance(i, int) and 0 < i < len(setup.parties) for i in dropped) \
            or dropped != sorted(set(dropped)) or (reason == "redeal") != (not dropped):
        return f"the host logged a restart ({reason!r}) that drops parties {dropped!r}"
    if record != restart_record(without(setup, dropped), reason, dropped):
        return "the host's restart gives the seats to other parties than those left"
    return None


def restart_record(setup: DealSetup, reason: str, dropped=()) -> dict:
    """The log's record of a restart: the new attempt and who plays which seats."""
    return {"type": RESTART, "hand": setup.context.hand, "attempt": setup.context.attempt,
            "reason": reason, "dropped": sorted(dropped),
            "parties": [{"key": p.key, "seats": list(p.seats)} for p in setup.parties]}


class Progress:
    """Who has sent what in one attempt of the deal (message bodies, in log order)."""

    def __init__(self, parties: int):
        self.parties = parties
        self.keys: set[int] = set()
        self.shuffles = 0
        self.shared: set[int] = set()

    def follow(self, party: int, body: dict) -> None:
        kind = body["type"]
        if kind == mm.KEY:
            self.keys.add(party)
        elif kind == mm.SHUFFLE:
            self.shuffles += 1
        elif kind == mm.SHARES and self.shuffles == self.parties:
            self.shared.add(party)

    def problem(self, party: int, body: dict) -> str | None:
        """Why ``party``'s message cannot come now (one its sender is told, before it is
        logged): a second key share, a shuffle out of turn, shares before the deck is final.
        Logged, any of these would be proof of a broken rule against its sender."""
        kind = body["type"]
        if kind == mm.KEY and party in self.keys:
            return "you have already published your key share for this deal"
        if kind == mm.SHUFFLE and (len(self.keys) < self.parties or party != self.shuffles):
            return "it is not your turn to shuffle"
        if kind == mm.SHARES and self.shuffles < self.parties:
            return "the deck is not final yet: no decryption share can come"
        return None

    def awaited(self) -> list[int]:
        """A key share not yet published; else the party whose turn it is to shuffle;
        else the parties whose decryption shares are missing."""
        parties = range(self.parties)
        if len(self.keys) < self.parties:
            return [i for i in parties if i not in self.keys]
        if self.shuffles < self.parties:
            return [self.shuffles]
        return [i for i in parties if i not in self.shared and self.parties > 1]


def misplaced(setup, progress: Progress, party: int, body: dict) -> str | None:
    """Why ``party``'s well-formed message does not fit this deal (one its sender is told,
    before it is logged): a hand shown before the deck is final, or not the positions
    dealt to its seat; shares for a party that is not another of this deal. Every party's
    deal client refuses it as malformed (``BadMessage``), which names nobody: logged, it
    would be the host's doing, and its own party's deal would stop there, the table
    waiting for ever."""
    kind = body["type"]
    if kind == mm.SHOW and progress.shuffles < progress.parties:
        return "the deck is not final yet: no hand can be shown"
    if kind == mm.SHOW and body["positions"] != list(setup.dealt(body["seat"])):
        return "a shown hand is every position dealt to its seat"
    if kind == mm.SHARES:
        for batch in body["batches"]:
            to = batch["to"]
            if to is not None and not (0 <= to < progress.parties and to != party):
                return f"shares for party {to}, which is not another party of this deal"
    return None


class DealSequencer:
    def __init__(self, setup: DealSetup, deadline: float, now: float):
        self.deadline = deadline
        self.log: list[tuple[int | None, dict]] = []  # (party, envelope); None: a restart
        self._begin(setup, now)

    def _begin(self, setup: DealSetup, now: float) -> None:
        self.setup = setup
        self._index = {p.key: i for i, p in enumerate(setup.parties)}
        self._seen: set[bytes] = set()  # the signatures logged this attempt
        self.progress = Progress(len(setup.parties))
        self.since = now  # the last time the deal moved on

    # -- the log -----------------------------------------------------------------------
    def submit(self, key: bytes, envelope: object, now: float) -> int | None:
        """Log ``envelope`` from the client with identity ``key``: its index in the log,
        or None for a copy of a message already logged. NotLogged says why not."""
        party = self._index.get(key)
        if party is None:
            raise NotLogged("you are not a party of this deal")
        if not isinstance(envelope, dict) or set(envelope) != {"body", "sig"} \
                or not opens(key, MENTAL_DOMAIN, envelope):
            raise NotLogged("a deal message must be signed by your key")
        try:
            body = mm.check(envelope["body"], party, self.setup.deck_size, self.setup.proven)
        except BadMessage as exc:
            raise NotLogged(str(exc)) from None
        context = self.setup.context
        if (body["hand"], body["attempt"]) != (context.hand, context.attempt):
            raise NotLogged(f"the deal now is hand {context.hand}, attempt {context.attempt}")
        if envelope["sig"] in self._seen:
            return None
        problem = self.progress.problem(party, body) or misplaced(self.setup, self.progress, party, body)
        if problem:
            raise NotLogged(problem)
        self._seen.add(envelope["sig"])
        self.progress.follow(party, body)
        self.since = now
        self.log.append((party, envelope))
        return len(self.log) - 1

    def restart(self, reason: str, now: float, dropped=()) -> dict:
        """Start the deal again, next attempt, without the ``dropped`` parties; the
        restart record, logged."""
        setup = without(self.setup, dropped)
        record = restart_record(setup, reason, dropped)
        self.log.append((None, record))
        self._begin(setup, now)
        return record

    def since_index(self, index: int) -> list[tuple[int | None, dict]]:
        """The log from ``index`` on (a client that rejoins reads it all again)."""
        return self.log[index:]

    # -- who is awaited --------------------------------------------------------------------
    def awaited(self) -> list[int]:
        return self.progress.awaited()

    def overdue(self, now: float) -> list[int]:
        """The awaited parties once the deal has waited ``deadline`` for them."""
        return self.awaited() if now - self.since >= self.deadline else []


class Holding(NamedTuple):
    """A party the deal is held up by (``holding_up``)."""

    since: float  # when it began to hold the deal up (the host's clock)
    gone: bool  # every seat of it away (dropped, not back); else connected but silent


def holding_up(parties, seats, dropped_at: dict, awaited: dict[int, float],
               now: float) -> dict[int, Holding]:
    """party -> how it holds the deal up, the host's party excepted: gone — every seat of
    it away, since the last of their drops (before the cards are dealt or after: its
    cards are locked with its key) —, or connected and ``awaited`` (party -> since when:
    a message it owes the deal), since then."""
    held = {}
    for i in range(1, len(parties)):
        if all(not seats[s].connected for s in parties[i].seats):
            held[i] = Holding(max(dropped_at.get(s, now) for s in parties[i].seats), True)
        elif i in awaited:
            held[i] = Holding(awaited[i], False)
    return held
