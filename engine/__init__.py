"""Parlour's rules engine: pure, deterministic, no I/O.

    from engine import make_game
    game = make_game("rook")
    state = game.deal(seed, dealer=0)
    while not state.is_over:
        seat = state.to_act()[0]
        state.apply(state.legal_actions(seat)[0])
"""

from .actions import Action
from .errors import Contradiction, IllegalAction, RecordError, UnknownTitle
from .match import Match
from .registry import TITLES, make_game, rulesets, variants
from .state import Game, HandResult, State, Trick

__all__ = ["Action", "Contradiction", "Game", "HandResult", "IllegalAction", "Match", "RecordError",
           "State", "TITLES", "Trick", "UnknownTitle", "make_game", "rulesets", "variants"]
