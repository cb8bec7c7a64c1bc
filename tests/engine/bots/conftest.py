"""Bot tests run the hard and expert levels with a tiny search budget: legality,
determinism and views do not depend on how many deals they sample, and the suite must
stay quick."""

from __future__ import annotations

import pytest

from engine.bots import horseshoes, rook, rook_expert, search, somerset, somerset_expert

SAMPLE_COUNTS = ((rook, "BID_SAMPLES"), (rook, "BURY_SAMPLES"), (somerset, "BID_SAMPLES"),
                 (somerset, "TRUMP_SAMPLES"), (horseshoes, "BID_SAMPLES"),
                 (rook_expert, "BID_SAMPLES"), (rook_expert, "BURY_SAMPLES"),
                 (somerset_expert, "BID_SAMPLES"), (somerset_expert, "TRUMP_SAMPLES"))
POLICIES = (rook, somerset, horseshoes)
EXPERTS = (rook_expert, somerset_expert)


@pytest.fixture(autouse=True)
def small_search_budget(monkeypatch):
    for module in POLICIES:
        monkeypatch.setattr(module, "PLAY_BUDGET", 200)
    for module in EXPERTS:
        monkeypatch.setattr(module, "EXPERT_PLAY_BUDGET", 200)
    monkeypatch.setattr(search, "MIN_SAMPLES", 2)
    for module, name in SAMPLE_COUNTS:
        monkeypatch.setattr(module, name, 3)
