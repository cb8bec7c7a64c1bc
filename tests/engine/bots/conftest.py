"""Bot tests run the hard level with a tiny search budget: legality, determinism and
views do not depend on how many deals it samples, and the suite must stay quick."""

from __future__ import annotations

import pytest

from engine.bots import horseshoes, rook, search, somerset

SAMPLE_COUNTS = ((rook, "BID_SAMPLES"), (rook, "BURY_SAMPLES"), (somerset, "BID_SAMPLES"),
                 (somerset, "TRUMP_SAMPLES"), (horseshoes, "BID_SAMPLES"))
POLICIES = (rook, somerset, horseshoes)


@pytest.fixture(autouse=True)
def small_search_budget(monkeypatch):
    for module in POLICIES:
        monkeypatch.setattr(module, "PLAY_BUDGET", 200)
    monkeypatch.setattr(search, "MIN_SAMPLES", 2)
    for module, name in SAMPLE_COUNTS:
        monkeypatch.setattr(module, name, 3)
