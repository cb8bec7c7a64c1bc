"""Somerset (Double Somerset): four rulesets of the 50-card bidding and trick-taking game.

    from engine.somerset import make
    game = make("widow-keep")          # make(None) gives the default, "kitty-doubled"
    state = game.deal(seed, dealer=0)

``RULESETS`` lists the rulesets (the default first); the rules live in ``rules.py``, the
rulesets' data, with the source of every rule, in ``rulesets.py``, and how the cards
read and look in ``names.py``. ``TITLE`` makes it one of the engine's titles.
"""

from __future__ import annotations

from ..info import TitleInfo, ruleset_info
from ..registry import Title
from .names import NAME
from .rules import DECK, TRUMPS, SomersetGame, SomersetState
from .rulesets import DEFAULT_RULESET, RULESETS

__all__ = ["DECK", "RULESETS", "TITLE", "TRUMPS", "SomersetGame", "SomersetState", "make"]


def make(ruleset: str | None = None, mode: str | None = None,
         options: dict | None = None) -> SomersetGame:
    """The Somerset game for a ruleset id (default: kitty-doubled); ValueError, naming
    the choices, for an unknown ruleset or any mode (Somerset has none)."""
    ruleset_id = DEFAULT_RULESET if ruleset is None else ruleset
    if ruleset_id not in RULESETS:
        raise ValueError(f"unknown Somerset ruleset {ruleset_id!r}: choose one of "
                         f"{', '.join(RULESETS)}")
    if mode is not None:
        raise ValueError(f"Somerset has no modes (got {mode!r})")
    return SomersetGame(RULESETS[ruleset_id], None, options)


TITLE = Title(
    info=TitleInfo("somerset", NAME, order=1,
                   rulesets=tuple(ruleset_info(rs) for rs in RULESETS.values())),
    rulesets=RULESETS, make=make, bots="engine.bots.somerset",
    expert_bots="engine.bots.somerset_expert")
