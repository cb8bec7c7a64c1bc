"""Bot tests run the hard level with a tiny search budget: legality, determinism and
views do not depend on how many deals it samples, and the suite must stay quick."""

from __future__ import annotations

import pytest

from engine.bots import horseshoes, rook, search, somerset

SAMPLE_COUNTS = ((rook, "BID_SAMPLES"), (rook, "BURY_SAMPLES"), (somerset, "BID_SAMPLES"),
                 (somerset, "TRUMP_SAMPLES"), (horseshoes, "BID_SAMPLES"))


@pytest.fixture(autouse=True)
def small_search_budget(monkeypatch):
    monkeypatch.setattr(search, "PLAY_BUDGET", {k: 200 for k in search.PLAY_BUDGET})
    monkeypatch.setattr(search, "MIN_SAMPLES", 2)
    for module, name in SAMPLE_COUNTS:
        monkeypatch.setattr(module, name, 3)
