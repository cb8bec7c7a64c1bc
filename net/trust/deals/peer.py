"""What a peer's replica asks of a hand's deal: the interface both deals implement.

A peer checks each hand under the deal the host opened it with: the seeded deal
(``seeded.peer.SeededPeer``) or the mental-poker deal (``mental.peer.MentalPeer``).
The replica (``net.trust.peer.replica.PeerReplica``) keeps the hand's part in ``deal``
(``NO_DEAL`` between hands) and calls only what ``PeerDeal`` declares; it never asks
which deal it holds. Like every check of the replica, each ``check`` changes nothing: it
raises a ``Violation`` or returns what to do once every check has passed (a commit).

* ``opening(table, entry, message)`` (a class method): the part a hand's first entry
  (``commit``, ``mental-deal``) opens, checked; the replica installs it on commit.
* ``check(entry, message)``: one of the deal's own entries (``KINDS``) or a move.
* ``sends()``: what this seat sends the host after an entry (a contribution, its deal
  messages); ``own_view(seat)``: its view from its own replay, where the host sends none.
* ``act(parsed)`` and ``play_proof``: what a move of this seat carries besides its
  signature (a played card's proof, a bury's commitment), or ``IllegalAction``.
* ``check_public``, ``check_private``, ``live_shadow``: what the host sent with an entry
  that is not the deal's to check itself (``SELF_CHECKED``), against what this seat may see.
* ``on_dropped``, ``rejoined``, ``resynced``: the timing of the deal's deadlines;
  ``waits_for`` and ``restarted_silent``: whom the deal waits for, and why it went on
  without them, for this seat's person.

``PeerTable`` is what a part reads of its replica, when asked — ``deliveries`` among it:
which of this client's deal messages the host had, as its session saw them go — and its
writes are ``close_hand``, when the hand's last entry (``reveal``) is accepted, and
``name``, a player's cheat the table goes on after.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import IllegalAction

from net.trust.alerts import HOST, Violation
from net.trust.deals.rounds import Round
from net.trust.replay.privacy import check_private

if TYPE_CHECKING:
    from net.trust.replay.shadow import CheckedHand
    from net.wire.identity import Identity


@dataclass
class PeerTable:
    """What a hand's deal part reads of its replica."""

    identity: Identity
    table: str
    rng: Callable  # (n) -> n random bytes
    clock: Callable  # () -> float, this peer's own clock
    deadline: float
    slack: float
    game: Callable  # () -> the table's Game
    seats: Callable  # () -> Seats, as the log has them now
    seat: Callable  # () -> the seat this key holds (None: none)
    host_key: Callable  # () -> the host's key now
    host_seat: Callable  # () -> the host's seat
    log: Callable  # () -> HeldLog, every entry accepted
    scores: Callable  # () -> the running scores before this hand
    live: Callable  # () -> whether the message being read came live (not in a sync)
    # () -> the earliest moment (``clock``) the message being read could have come in: a
    # deadline is timed from an entry's ``arrived`` to the ``clock`` its end is read at
    arrived: Callable
    close_hand: Callable  # (scores, winner) -> None: the hand's last entry was accepted
    name: Callable  # (Violation) -> None: a player's proven cheat, named; the table goes on
    deliveries: Callable  # () -> Deliveries: which of this client's deal messages the host had

    @property
    def key(self) -> bytes:
        return self.identity.public_key

    def need(self, ok: bool, entry, detail: str) -> None:
        """A malformed or misplaced entry is the host's doing."""
        if not ok:
            raise Violation(HOST, self.host_seat(), "kind", f"entry {entry.seq}: {detail}")


def check_unchanged(entry, message, public: dict | None, host_seat: int | None) -> None:
    """An entry that changes no state comes with the public view ``public`` (verified), or
    none: else a Violation names the host."""
    if message.public is not None and message.public != public:
        raise Violation(HOST, host_seat, "state-hash",
                        f"entry {entry.seq} ({entry.kind}) changes nothing, yet comes "
                        "with a different public state")


class PeerDeal:
    """One hand's deal as a peer checks it (``NO_DEAL``: none under way)."""

    OPENS: str = ""  # the entry kind that opens a hand under this deal
    PRIVATE: bool = False  # each player's cards are its own client's alone
    KINDS: tuple[str, ...] = ()  # the entry kinds it checks (besides "action")
    SELF_CHECKED: tuple[str, ...] = ("action",)  # kinds whose public and private parts it checks
    round: Round | None = None  # the hand's deal round, as the sessions read it
    hand: CheckedHand | None = None  # the hand in progress

    @classmethod
    def opening(cls, t: PeerTable, entry, message) -> PeerDeal:
        """The part a hand's first entry (``OPENS``) opens, checked (a Violation if not)."""
        raise NotImplementedError

    @property
    def held_by_host(self) -> bool:
        """This seat's cards are the host's client's this hand (a private deal's)."""
        return False

    def check(self, entry, message):
        raise Violation(HOST, None, "kind", f"entry {entry.seq}: a {entry.kind} with no deal under way")

    # -- what this seat sends, sees and signs ----------------------------------------------
    def sends(self) -> list[dict]:
        return []

    def own_view(self, seat: int | None) -> dict | None:
        """This seat's view from its own replay (None: the host's view stands)."""
        return None

    def act(self, parsed, message: dict) -> dict:
        """The move's signed ``message`` with what the deal makes it carry (a bury's
        commitment); may refuse it (``IllegalAction``)."""
        return message

    def play_proof(self, action) -> dict | None:
        return None

    def may_decide(self, seat: int | None) -> None:
        """IllegalAction if ``seat`` may not decide now (no hand being played, or the deal
        says wait: the cards it would decide on are on their way)."""
        hand = self.hand
        if hand is None or not hand.playing:
            raise IllegalAction("you have no hand to play")

    # -- what the host sends with entries the deal does not check itself -----------------------
    def check_public(self, entry, message, public: dict | None, host_seat: int | None) -> None:
        """An entry that changes no state comes with the public view already verified."""
        check_unchanged(entry, message, public, host_seat)

    def check_private(self, game, entry, message, shadow, me: int | None, host_seat: int | None) -> None:
        playing = self.hand is not None and self.hand.playing
        check_private(game.deck if game else None, entry, message, shadow, me, playing, host_seat)

    def live_shadow(self):
        """The shadow of the hand being played, for a view to teach it the spare."""
        hand = self.hand
        return hand.shadow if hand is not None and hand.end is None else None

    def teach(self, shadow) -> None:
        """Take the shadow an entry's view taught (``live.shown_hand``)."""

    # -- the deal's deadlines ---------------------------------------------------------------------
    def on_dropped(self, seat: int) -> None:
        """A drop of ``seat`` was applied."""

    def rejoined(self, seat: int) -> None:
        pass

    def dealt_to_own_client(self, seat: int) -> bool:
        """Whether ``seat``'s cards this hand are its own client's alone (a party of the
        private deal): the host holds none of them, and may send that seat no view."""
        return False

    def waits_for(self, seat: int) -> bool:
        """Whether the hand waits for ``seat``'s player, gone, to come back: their cards
        are locked with their key (the private deal)."""
        return False

    def restarted_silent(self, seq: int) -> bool:
        """Whether the restart logged at ``seq`` dropped a client that was there but did
        not answer the deal in time (not a player gone), as this peer timed it."""
        return False

    def resynced(self) -> None:
        """A catch-up sync begins (a restarted host may have lost what this seat sent)."""


NO_DEAL = PeerDeal()
