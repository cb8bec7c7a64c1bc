"""Helpers for Somerset tests: explicit deals from a few named cards, and getting a hand
to the play phase with a chosen bidder, bid and trump.

(The module name is unique on purpose: tests/ has no __init__.py files, so pytest puts
this directory on sys.path and a generic name like "helpers" could clash.)
"""

from __future__ import annotations

from engine.actions import Action
from engine.somerset import make
from engine.somerset.rules import DECK, ROVER, SS

SPECIALS = (ROVER, SS)


def cards(*names: str) -> list[int]:
    return [DECK.parse(n) for n in names]


def names(mask_or_cards) -> set[str]:
    if isinstance(mask_or_cards, int):
        return {DECK.name(c) for c in range(DECK.size) if mask_or_cards >> c & 1}
    return {DECK.name(c) for c in mask_or_cards}


def explicit_deal(held: dict[int, list[str]], spare: list[str] = (),
                  voids: dict[int, tuple] | None = None) -> tuple[list[list[int]], list[int]]:
    """Hands holding the named cards, topped up to 12 with the lowest free cards, never
    from a suit in ``voids[seat]`` (printed suits, or "S" for the S/S). Unnamed 0/0 and
    S/S go to the spare first, so they never turn up where a test did not put them."""
    voids = voids or {}
    hands = [cards(*held.get(seat, ())) for seat in range(4)]
    spare_cards = cards(*spare)
    used = {c for hand in hands for c in hand} | set(spare_cards)
    pool = [c for c in range(DECK.size) if c not in used]
    pool.sort(key=lambda c: c in SPECIALS)  # the specials last: spare first, hands last
    while len(spare_cards) < 2:
        spare_cards.append(pool.pop())
    for seat in sorted(range(4), key=lambda s: -len(voids.get(s, ()))):
        hand, avoid = hands[seat], voids.get(seat, ())
        for card in [c for c in pool if DECK.suit_of[c] not in avoid][:12 - len(hand)]:
            hand.append(card)
            pool.remove(card)
        assert len(hand) == 12, f"cannot top up seat {seat} under its voids"
    return hands, spare_cards


def bid_and_pass(state, bidder: int, amount: int) -> None:
    """Everyone passes except ``bidder``, who bids ``amount`` on their first turn."""
    while state.phase == "bidding":
        seat = state.turn
        state.apply(Action(seat, "bid", amount) if seat == bidder and state.high_bid is None
                    else Action(seat, "pass"))


def to_play(ruleset: str, held: dict[int, list[str]], trump: str, bidder: int = 0,
            bid: int = 12, spare: list[str] = (), voids: dict | None = None):
    """A hand in the play phase: ``bidder`` (dealt first, so the dealer is on their
    right) won at ``bid`` and, in kitty rulesets, discarded the kitty unchanged."""
    game = make(ruleset)
    hands, spare_cards = explicit_deal(held, spare, voids)
    state = game.new_hand(hands, spare_cards, dealer=(bidder - 1) % 4)
    bid_and_pass(state, bidder, bid)
    if state.phase == "kitty":
        state.apply(Action(bidder, "discard", tuple(sorted(spare_cards))))
    state.apply(Action(bidder, "trump", trump))
    return state


def play(state, *card_names: str) -> list[dict]:
    """Play the named cards in turn order; return all the events."""
    events = []
    for name in card_names:
        events += state.apply(Action(state.turn, "play", DECK.parse(name)))
    return events


def legal_names(state, seat: int | None = None) -> set[str]:
    seat = state.turn if seat is None else seat
    return {DECK.name(a.value) for a in state.legal_actions(seat)}


def play_lowest(state) -> None:
    """Finish the hand, every seat playing its lowest-numbered legal card."""
    while not state.is_over:
        state.apply(state.legal_actions()[0])
