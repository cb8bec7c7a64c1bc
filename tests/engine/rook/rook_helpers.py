"""Helpers for the Rook tests: build a deal from card names and walk a hand to a phase.

``deal_with`` places the cards a test cares about and fills the rest of the deck around
them, keeping seats void in the colours the test says; the widow gets the Rook (unless
placed) and the leftovers, so a bidder who buries the widow plays exactly its dealt
13 cards.
"""

from __future__ import annotations

from engine.actions import Action
from engine.rook import DECK, make
from engine.rook.rules import RookState

GAME = make()


def cards(*names: str) -> list[int]:
    return [DECK.parse(n) for n in names]


def names(mask_or_cards) -> set[str]:
    if isinstance(mask_or_cards, int):
        return {DECK.name(c) for c in range(DECK.size) if mask_or_cards >> c & 1}
    return {DECK.name(c) for c in mask_or_cards}


def deal_with(fixed: dict[int, list[str]] | None = None, widow: list[str] = (),
              voids: dict[int, str] | None = None, dealer: int = 3) -> RookState:
    """A hand from an explicit deal: ``fixed`` cards per seat, ``widow`` cards, and the
    rest of the deck spread so that ``voids[seat]`` colours never reach that seat."""
    fixed = fixed or {}
    voids = voids or {}
    hands = [cards(*fixed.get(s, [])) for s in range(4)]
    spare = cards(*widow)
    placed = set(spare).union(*map(set, hands))
    rook = DECK.parse("ROOK")
    if rook not in placed:
        spare.append(rook)
        placed.add(rook)
    for card in range(DECK.size):
        if card in placed:
            continue
        colour = DECK.suit_of[card]
        seat = next((s for s in range(4) if len(hands[s]) < 13 and colour not in voids.get(s, "")), None)
        if seat is not None:
            hands[seat].append(card)
        elif len(spare) < 5:
            spare.append(card)
        else:
            raise AssertionError(f"cannot place {DECK.name(card)} with voids {voids}")
    return GAME.new_hand(hands, spare, dealer)


def auction(state: RookState, bidder: int, amount: int = 100) -> None:
    """Everyone else passes and ``bidder`` bids ``amount`` when its turn comes."""
    while state.phase == "bidding":
        seat = state.to_act()[0]
        if seat == bidder and state.high_bid is None:
            state.apply(Action(seat, "bid", amount))
        else:
            state.apply(Action(seat, "pass"))


def to_bury(state: RookState, bidder: int = 0, amount: int = 100) -> RookState:
    auction(state, bidder, amount)
    if state.phase == "raise":
        state.apply(Action(bidder, "raise", None))
    for seat in state.to_act():
        state.apply(Action(seat, "ack"))
    assert state.phase == "bury"
    return state


def to_play(state: RookState, trump: str = "G", bidder: int = 0, amount: int = 100,
            bury: list[str] | None = None) -> RookState:
    """Bid, keep, acknowledge, and bury (by default the widow) naming ``trump``."""
    to_bury(state, bidder, amount)
    buried = tuple(sorted(cards(*bury))) if bury else tuple(sorted(state.spare))
    state.apply(Action(bidder, "bury", buried, trump))
    assert state.phase == "play"
    return state


def play(state: RookState, *card_names: str) -> None:
    """Play the named cards in turn order."""
    for name in card_names:
        state.apply(Action(state.to_act()[0], "play", DECK.parse(name)))




def legal_names(state: RookState, seat: int | None = None) -> set[str]:
    return {DECK.name(a.value) for a in state.legal_actions(seat)}
