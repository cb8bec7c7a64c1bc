"""Who takes part in a deal and where its cards go: the public facts every party shares.

A *party* is one client that holds a key share: each human player's client; the host's
client is one party for its own seat and every computer player's seat (it acts for
them, so their hands are its). ``parties`` is also the shuffle order.

Deck positions are laid out exactly as ``engine.state.Game.deal_cards`` lays out a
shuffled deck: seat ``(dealer + 1 + i) mod players`` gets positions ``i·h … i·h + h − 1``
(h = hand size), and the rest, ``players·h … N − 1``, are the spare (Rook's widow,
Somerset's kitty or widow, Horseshoes' left-over card), in that order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import MentalError
from .keys import DealContext

MAX_PARTIES = 8


@dataclass(frozen=True)
class Party:
    key: bytes  # the client's Ed25519 identity public key (32 bytes)
    seats: tuple[int, ...]  # the seats it plays (its own and, for the host, the bots')


@dataclass(frozen=True)
class DealSetup:
    context: DealContext
    parties: tuple[Party, ...]
    num_players: int
    hand_size: int
    spare_size: int
    dealer: int
    # Rook: a hand that must be redealt (no point card); None where there is no such rule.
    needs_redeal: Callable[[list[int]], bool] | None = field(default=None, compare=False)
    # Every shuffle comes with its proof (``shuffle_proof``), checked before any share is
    # published; False only for a deal a log from before protocol 14 holds (``chain``).
    proven: bool = True

    def __post_init__(self):
        seats = sorted(s for party in self.parties for s in party.seats)
        if seats != list(range(self.num_players)):
            raise MentalError("every seat must belong to exactly one party")
        if not 1 <= len(self.parties) <= MAX_PARTIES or not all(p.seats for p in self.parties):
            raise MentalError(f"a deal has 1 to {MAX_PARTIES} parties, each with a seat")
        if len({p.key for p in self.parties}) != len(self.parties):
            raise MentalError("two parties share an identity key")
        if not 0 <= self.dealer < self.num_players:
            raise MentalError("the dealer must be a seat")

    @classmethod
    def for_game(cls, game, context: DealContext, parties, dealer: int,
                 needs_redeal=None, proven: bool = True) -> "DealSetup":
        """From an ``engine.state.Game``'s public sizes."""
        return cls(context, tuple(parties), game.num_players, game.hand_size,
                   game.spare_size, dealer, needs_redeal, proven)

    @property
    def deck_size(self) -> int:
        return self.num_players * self.hand_size + self.spare_size

    def dealt(self, seat: int) -> range:
        """The deck positions dealt to ``seat``."""
        block = (seat - self.dealer - 1) % self.num_players
        return range(block * self.hand_size, (block + 1) * self.hand_size)

    def spare(self) -> range:
        return range(self.num_players * self.hand_size, self.deck_size)

    def seat_of(self, position: int) -> int | None:
        """The seat ``position`` is dealt to; None for the spare."""
        block = position // self.hand_size
        if block >= self.num_players:
            return None
        return (self.dealer + 1 + block) % self.num_players

    def owner(self, seat: int) -> int:
        for index, party in enumerate(self.parties):
            if seat in party.seats:
                return index
        raise MentalError(f"no party plays seat {seat}")

    def layout(self, cards_by_position: list[int]) -> tuple[list[list[int]], list[int]]:
        """``(hands by seat, spare)`` as ``Game.deal_cards`` returns them."""
        hands = [[cards_by_position[p] for p in self.dealt(s)] for s in range(self.num_players)]
        return hands, [cards_by_position[p] for p in self.spare()]
