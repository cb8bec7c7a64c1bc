"""Test helpers for Horseshoes: explicit deals, scripted hands, and playing them.

Cards are written by name ("AS", "TD"); an ace that needs a declaration is written
"AS:high" or "AS:low". A *scripted hand* is dealt from the tricks it should produce:
every trick but the last is four (three) cards of one suit, the intended winner holding
the highest, and the last trick is the aces, led by the previous trick's winner. Such a
deal is legal to play through whatever the trump, so scoring tests can choose exactly
who takes how many tricks.
"""

from __future__ import annotations

from engine.actions import Action
from engine.horseshoes import make
from engine.horseshoes.rules import SUITS

PLAIN_RANKS = {"three": "23456789T", "four": "23456789TJQK", "partners": "23456789TJQK"}


def parse_play(game, seat: int, text: str) -> Action:
    """ "AS:high" → the play of AS declared high; "7H" → a plain play."""
    name, _, call = text.partition(":")
    return Action(seat, "play", game.deck.parse(name), call or None)


def cards(game, names: str) -> list[int]:
    return [game.deck.parse(n) for n in names.split()]


def deal(game, hands: dict[int, str], dealer: int = 0, spare: str = "",
         voids: dict[int, str] | None = None):
    """A hand from partial hands (seat → card names); the rest of the deck is handed
    out in deck order to whoever still needs cards and is not void (``voids``: seat →
    suit letters) in the card's suit."""
    voids = voids or {}
    held = {seat: cards(game, hands.get(seat, "")) for seat in range(game.num_players)}
    spare_cards = cards(game, spare)
    used = {c for hand in held.values() for c in hand} | set(spare_cards)
    for card in range(game.deck.size):
        if card in used:
            continue
        suit = game.deck.name(card)[1]
        taker = next((s for s in range(game.num_players)
                      if len(held[s]) < game.hand_size and suit not in voids.get(s, "")), None)
        if taker is None:
            spare_cards.append(card)  # only in three, where one card is left over
        else:
            held[taker].append(card)
    return game.new_hand([held[s] for s in range(game.num_players)], spare_cards, dealer)


def bid_all(state, bids: list[int], trump: str = "NT") -> None:
    """Everyone bids (``bids`` by seat), the first bidder naming ``trump``."""
    seat = state.first_bidder
    for i in range(state.n):
        state.apply(Action(seat, "bid", bids[seat], trump if i == 0 else None))
        seat = (seat + 1) % state.n


def play_trick(state, *plays: str) -> list[dict]:
    """Play one trick: the cards in play order, starting with the seat to lead."""
    events = []
    for text in plays:
        events += state.apply(parse_play(state.game, state.turn, text))
    return events


def finish_trick(state) -> None:
    """Complete the current trick: each remaining seat plays its first legal action."""
    while state.trick:
        state.apply(state.legal_actions(state.turn)[0])


def scripted_tricks(mode: str, dealer: int, winners: list[int]) -> list[tuple[int, list[str]]]:
    """(leader, cards in play order) for each of 13 tricks, so that trick k is won by
    ``winners[k]``. The last trick is the aces, led (high) by the twelfth winner."""
    n = 3 if mode == "three" else 4
    assert len(winners) == 13 and winners[12] == winners[11], "the aces' leader takes the last trick"
    ranks = PLAIN_RANKS[mode]
    leader = (dealer + 2) % n
    tricks = []
    for k in range(12):
        suit, block = SUITS[k // 3], k % 3
        trick_ranks = ranks[block * n:(block + 1) * n]  # ascending
        others = iter(trick_ranks[:-1])
        by_seat = {seat: (trick_ranks[-1] if seat == winners[k] else next(others)) + suit
                   for seat in range(n)}
        tricks.append((leader, [by_seat[(leader + i) % n] for i in range(n)]))
        leader = winners[k]
    tricks.append((leader, ["AS:high", "AH", "AD", "AC"][:n]))
    return tricks


def scripted_hand(mode: str, winners: list[int], dealer: int = 0, options: dict | None = None):
    """(state, tricks): a fresh hand whose deal lets ``scripted_tricks`` be played."""
    game = make(None, mode, options)
    tricks = scripted_tricks(mode, dealer, winners)
    held: list[list[int]] = [[] for _ in range(game.num_players)]
    for leader, plays in tricks:
        for i, text in enumerate(plays):
            held[(leader + i) % game.num_players].append(game.deck.parse(text.partition(":")[0]))
    spare = [game.deck.parse("AC")] if mode == "three" else []
    return game.new_hand(held, spare, dealer), tricks


def play_script(state, tricks) -> None:
    for leader, plays in tricks:
        assert state.turn == leader
        play_trick(state, *plays)
