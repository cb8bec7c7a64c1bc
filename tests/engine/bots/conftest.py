"""Bot tests run the hard level with a tiny search budget: legality, determinism and
views do not depend on how many deals it samples, and the suite must stay quick."""

from __future__ import annotations

import pytest

from engine.bots import search


@pytest.fixture(autouse=True)
def small_search_budget(monkeypatch):
    monkeypatch.setattr(search, "PLAY_BUDGET", {k: 200 for k in search.PLAY_BUDGET})
    monkeypatch.setattr(search, "MIN_SAMPLES", 2)
