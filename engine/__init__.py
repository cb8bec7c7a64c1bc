"""Parlour's rules engine: pure, deterministic, no I/O.

    from engine import make_game
    game = make_game("rook")                  # game.info: what it says about itself
    state = game.deal(seed, dealer=0)
    while not state.is_over:
        seat = state.to_act()[0]
        state.apply(state.legal_actions(seat)[0])
"""

from . import registry
from .actions import Action
from .errors import Contradiction, IllegalAction, RecordError, UnknownTitle
from .info import GameInfo, TitleInfo
from .match import Match
from .registry import Title, make_game, rulesets, title_info, variants
from .state import Game, HandResult, State, Trick

__all__ = ["Action", "Contradiction", "Game", "GameInfo", "HandResult", "IllegalAction", "Match",
           "RecordError", "State", "TITLES", "Title", "TitleInfo", "Trick", "UnknownTitle",
           "make_game", "rulesets", "title_info", "variants"]


def __getattr__(name: str):
    if name == "TITLES":  # the titles load when first asked for (see registry)
        return registry.TITLES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
