"""Shared helpers for the bot tests: play hands with bots, cheap search budgets."""

from __future__ import annotations

from engine import make_game
from engine.bots import make_bot
from engine.deal import derive_seed

MAX_ACTIONS = 2000


def play_hand(variant, seed_number: int, levels, stop=None):
    """Deal a hand of ``variant`` and let bots of ``levels`` (one per seat, cycled)
    play it, checking every choice against the engine. ``stop(state)`` ends early.
    Returns the state."""
    title, ruleset, mode = variant
    game = make_game(title, ruleset, mode)
    seed = derive_seed(bytes(32), "bot-tests", seed_number)
    state = game.deal(seed, seed_number % game.num_players)
    bots = [make_bot(levels[s % len(levels)], seed_number * 10 + s) for s in range(game.num_players)]
    for _ in range(MAX_ACTIONS):
        if state.is_over or (stop and stop(state)):
            return state
        seat = state.to_act()[-1]  # the last waiting seat: Rook's "Got it" in any order
        action = bots[seat].choose(game, state.view(seat))
        if state.phase not in ("bury", "kitty"):
            assert action in state.legal_actions(seat), (state.phase, action)
        state.apply(action)  # IllegalAction here would fail the test
    raise AssertionError("the hand did not end")


SOMERSET_HANDS = {  # dealer 1 (seat 2 speaks first); the kitty 0/2 0/4
    2: "8/8 6/8 5/8 4/8 3/8 0/12 0/10 1/10 2/10 0/6 1/6 2/6",
    3: "1/12 2/12 2/8 0/0 3/4 4/4 10/10 9/10 8/10 7/10 6/6 2/2",
    0: "12/12 7/8 1/8 3/6 4/6 5/6 2/4 1/4 1/2 3/10 4/10 5/10",
    1: "3/12 4/12 5/12 6/12 7/12 8/12 9/12 10/12 11/12 0/8 S/S 6/10",
}


def somerset_position(said=()):
    """The constructed Somerset deal (``SOMERSET_HANDS``) after the actions ``said``
    (hand-record form); the game and the state."""
    game = make_game("somerset")
    deck = game.deck
    dealt = [[deck.parse(name) for name in SOMERSET_HANDS[seat].split()] for seat in range(4)]
    state = game.new_hand(dealt, [deck.parse("0/2"), deck.parse("0/4")], 1)
    for data in said:
        state.apply(game.action_from_json(data))
    return game, state
