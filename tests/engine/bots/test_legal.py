"""Every level chooses only legal actions, in every variant, over many seeded hands
(including seats of different levels at one table), and answers every decision."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from .helpers import play_hand

LINEUPS = (("easy",), ("normal",), ("hard", "easy", "normal", "normal"), ("normal", "hard"),
           ("expert", "hard"), ("expert", "normal", "easy", "expert"))


@pytest.mark.costly_per_variant
@settings(max_examples=6)
@given(seed=st.integers(min_value=0, max_value=10_000), lineup=st.sampled_from(LINEUPS))
def test_bots_only_play_legal_actions(any_variant, seed, lineup):
    state = play_hand(any_variant, seed, lineup)
    assert state.is_over
    assert state.result() is not None


@pytest.mark.costly_per_variant
def test_every_level_finishes_a_hand_of_every_variant(any_variant):
    for number, lineup in enumerate((("easy",), ("normal",), ("hard",), ("expert",))):
        assert play_hand(any_variant, 100 + number, lineup).is_over
