"""What the host's authority asks of a hand's deal: the interface both deals implement.

A hand is dealt by one of two deals, chosen when it starts: the seeded deal
(``seeded.host.SeededHost``) or the mental-poker deal (``mental.host.MentalHost``). The
authority (``net.trust.host.authority.HostAuthority``) holds the hand's part in ``deal`` and
calls only what ``HostDeal`` declares; it never asks which deal it holds. A part
writes to the log through the one function it is given (``Log``: sign, persist, apply,
publish — the authority's single path), and the authority hands every entry back to
the part that owns its kind (``apply``), live and when a stored log is replayed.

What every part does, by the hand's course:

* ``opening(...)`` (a class method): the entry that starts a hand under this deal
  (``commit`` or ``mental-deal``); the authority builds the part from it (``OPENS``).
* ``take(log, seat, key, message)``: a peer's deal message (a contribution, a
  mental-deal message), logged or refused (``Refusal``).
* ``go_on(log)``: after any change, what the deal logs by itself: the cards dealt, its
  own party's messages, a restart, the hand's end; ``idle(log)``: the same, after checks
  left for when nothing else is happening.
* ``admit``, ``play_proof``, ``log_move``, ``move_problem``: a move checked, proven,
  logged; whether one may be taken now.
* ``dropped(seat)``, ``owes``, ``overdue``, ``due_in``, ``go_on_without``: a player gone,
  and the deal going on without them at its deadline; ``away`` and ``keep_waiting``: a
  player gone whose cards only their own client can open (the private deal), waited
  for a while (``DROP_WAIT``), the host person free to deal again without them once
  the rules allow it, or to keep waiting.
* ``public_view()`` (exact or None, never made up), ``private_view(seat)``,
  ``secret_of(seq)``, ``host_dealt(seat)``: what each party may see.

The hand's bookkeeping both share is here: where a seat's next move must fit
(``binding``: the entry play began at and the seat's last move).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, Protocol

from engine import Game, Match

from net.trust.deals.rounds import Round
from net.trust.entries import EntryBody
from net.trust.moves import Binding, Refusal

if TYPE_CHECKING:
    from net.wire.identity import Identity


class Log(Protocol):
    """The authority's one path for an entry: sign, persist, apply, publish."""

    def __call__(self, body: EntryBody, private: dict | None = None,
                 state_hash: str | None = None, applied: list | None = None) -> None: ...


class Late(NamedTuple):
    """Someone the deal has waited the deadline for (``HostDeal.overdue``)."""

    who: int  # what ``go_on_without`` takes: a seat (seeded), a party (mental)
    seats: tuple[int, ...]  # the seats its player plays
    key: bytes | None  # the client to hang up on if still connected (it did not answer)
    outcome: str  # what the deal does without it: "skipped", "dropped" or "void"


class Away(NamedTuple):
    """A player gone whose cards are locked with their key (``HostDeal.away``): the deal
    waits for them until ``until`` and may go on without them (``late``) from
    ``choice_from`` — both on the host's clock."""

    late: Late  # what the deal goes on without, and how
    until: float  # the deal goes on without them then, unless they are back
    choice_from: float  # the host person may deal again without them from then on


@dataclass
class HandTable:
    """What a hand's deal part reads of its table (the authority's, read when asked)."""

    identity: Identity  # the host's identity: signs its own party's messages
    game: Game
    table: str
    match: Match  # the hand's state is ``match.state``
    seats: Callable  # () -> Seats, as the log has them now
    log: Callable  # () -> every SignedEntry so far
    now: Callable  # () -> float, the host's clock
    deadline: float  # how long the deal waits for a party before going on without it
    dropped_at: dict = field(default_factory=dict)  # seat -> when its drop was logged
    drop_wait: float = 0.0  # how long the private deal waits for a party gone (``DROP_WAIT``)

    @property
    def key(self) -> bytes:
        return self.identity.public_key

    def away(self) -> set[int]:
        return self.seats().away()


class HostDeal:
    """One hand's deal on the host. Subclasses set ``OPENS`` and ``KINDS`` and fill in
    the hooks; the bookkeeping of moves is shared."""

    OPENS: str = ""  # the entry kind that starts a hand under this deal
    PRIVATE: bool = False  # each player's cards are its own client's alone
    KINDS: tuple[str, ...] = ()  # the entry kinds it applies (besides "action")
    round: Round | None  # the hand's deal round, as the sessions read it

    def __init__(self, table: HandTable, hand: int, dealer: int):
        self.table = table
        self.hand, self.dealer = hand, dealer
        self.deal_seq: int | None = None  # the entry play began at ("deal", "mental-dealt")
        self.last_action: dict[int, int] = {}  # seat -> its last move's entry this hand

    @property
    def match(self):
        return self.table.match

    @property
    def state(self):
        return self.match.state

    def binding(self, seat: int, next_seq: int, hash_at: Callable[[int], bytes | None]) -> Binding:
        """Where ``seat``'s next move must fit in the log."""
        return Binding(self.table.table, self.hand, self.deal_seq, self.last_action.get(seat),
                       next_seq, hash_at)

    # -- hooks: the hand's course -------------------------------------------------------
    def apply(self, entry, private: dict, applied: list | None, restoring: bool) -> list:
        """Apply one of this deal's entries (``KINDS``, or an "action"); its events."""
        raise NotImplementedError

    def take(self, log: Log, seat: int, key: bytes, message: dict) -> None:
        raise NotImplementedError

    def go_on(self, log: Log) -> None:
        raise NotImplementedError

    def between_hands(self) -> bool:
        """The hand is over and closed (its last entry logged): a new one may start."""
        raise NotImplementedError

    def idle_due(self) -> bool:
        """Whether ``idle`` has work to do."""
        return False

    def idle(self, log: Log) -> None:
        """Work the deal leaves for when nothing else is happening (checks that would
        delay a change's messages), and what it then logs."""

    # -- hooks: moves ----------------------------------------------------------------------
    def voids(self, signed: dict) -> bool:
        """A move made on a deal since restarted: dropped quietly (its player decides again)."""
        return False

    def admit(self, seat: int, key: bytes, signed: dict, private: dict | None, binding: Binding):
        raise NotImplementedError

    def play_proof(self, action) -> dict | None:
        """The proof the host's own party's card carries (None: no proof in this deal)."""
        return None

    def log_move(self, log: Log, signed: dict, move, carried: list) -> None:
        raise NotImplementedError

    def move_problem(self, seat: int) -> str | None:
        """Why no move of ``seat`` may be taken now (None: it may)."""
        return None

    # -- hooks: players gone ---------------------------------------------------------------
    def dropped(self, seat: int) -> None:
        """``seat``'s player dropped (its ``drop`` entry applied)."""

    def awaited(self) -> list[int]:
        """The seats whose players' clients the deal is waiting for now."""
        return []

    def overdue(self) -> list[Late]:
        """Those the deal has waited the deadline for: it goes on without them."""
        return []

    def due_in(self) -> float | None:
        """Seconds until ``overdue`` may next name someone (None: nobody is waited for)."""
        return None

    def go_on_without(self, log: Log, late: list[int]) -> None:
        """The deal goes on without ``late`` (``Late.who``)."""
        raise Refusal("nothing is waited for")

    def away(self) -> list[Away]:
        """The players gone whose cards only their own client can open, waited for."""
        return []

    def keep_waiting(self, seats) -> None:
        """The host person keeps waiting for the players of ``seats``: their wait starts again."""

    # -- hooks: what each party may see ------------------------------------------------------
    def exact(self) -> bool:
        """Whether the hand's state is exact in its public view (a deal that replays on
        partial knowledge may hold made-up cards there for a moment)."""
        return True

    def public_view(self) -> dict | None:
        """The public view after the last entry: exact, or None — never made up."""
        state = self.state
        return state.public_view() if state is not None and self.exact() else None

    def public_digest(self) -> str | None:
        """``public_view``'s state hash (the state's own, from its cached encoding)."""
        state = self.state
        return state.state_hash() if state is not None and self.exact() else None

    def private_view(self, seat: int) -> dict | None:
        return None

    def secret_of(self, seq: int) -> dict | None:
        """The full form of the secret move entry ``seq`` logged, for its player alone."""
        return None

    def host_dealt(self, seat: int) -> bool:
        """Whether the host's client holds ``seat``'s cards (a bot of its may play it)."""
        return True


class NoHand(HostDeal):
    """The deal part before a game's first hand: nothing dealt, nothing awaited."""

    round = None

    def __init__(self) -> None:
        # No table: nothing here reads one (``state`` is None, ``binding`` refuses a move).
        self.hand, self.dealer = 0, 0
        self.deal_seq, self.last_action = None, {}

    @property
    def state(self):
        return None

    def apply(self, entry, private, applied, restoring) -> list:
        raise ValueError(f"entry {entry.seq} ({entry.kind}) comes with no hand under way")

    def take(self, log, seat, key, message) -> None:
        if message["type"] == "contribution":
            raise Refusal("no deal is waiting for randomness")
        # a restarted client sends its old deal messages again: done with

    def go_on(self, log) -> None:
        pass

    def between_hands(self) -> bool:
        return True

    def binding(self, seat, next_seq, hash_at) -> Binding:
        raise Refusal("no hand is being played")  # a move has no place to fit

    def admit(self, seat, key, signed, private, binding):
        raise Refusal("no hand is being played")
