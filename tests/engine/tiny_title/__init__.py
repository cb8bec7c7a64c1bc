"""Tiny Tricks: a test-only title, built the way docs/adding-a-game.md says a title is.

Three players, each for themselves, 15 cards (moons, stars and suns, 1 to 5), four
cards each and three left face down. The player left of the dealer names trump (or no
trump) and leads; follow suit; the highest trump wins, else the highest card of the
suit led; a trick is a point; the first to the target (5) with the most points wins.

It lives under tests/ so that it can never be offered to a player, and it is
registered by the test suite (tests/conftest.py) rather than found under engine/. The
engine's generic tests (random hands, views, records, hashing, bots, partial
knowledge) run it with the product titles: any title that follows the recipe must
pass them. tests/app/test_app_new_title.py plays it through a hosted table and guests,
at the table screen.
"""

from __future__ import annotations

from engine.info import TitleInfo, ruleset_info
from engine.registry import Title

from .rules import NAME, RULESET, TinyGame


def make(ruleset_id: str | None = None, mode: str | None = None, options: dict | None = None) -> TinyGame:
    """The Tiny Tricks game; ValueError, naming the choices, for anything unknown."""
    if ruleset_id not in (None, RULESET.id):
        raise ValueError(f"unknown Tiny Tricks ruleset {ruleset_id!r}: choose {RULESET.id}")
    if mode is not None:
        raise ValueError(f"Tiny Tricks has no modes (got {mode!r})")
    return TinyGame(RULESET, None, options)


TITLE = Title(
    info=TitleInfo("tiny", NAME, order=99, rulesets=(ruleset_info(RULESET),)),
    rulesets={RULESET.id: RULESET}, make=make, bots="tests.engine.tiny_title.bots")
