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
