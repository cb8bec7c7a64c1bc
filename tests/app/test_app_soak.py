"""Many local hands through the GUI event path (bots in every seat, yours included):
nothing crashes, no error events, every hand ends with a summary."""

from __future__ import annotations

import pytest
from app_driver import TABLE_SEED

SOAK = [({"game": "somerset", "ruleset": "kitty-keep"}, 30),
        ({"game": "rook"}, 20),
        ({"game": "horseshoes", "mode": "three"}, 30)]


@pytest.mark.slow
@pytest.mark.parametrize("settings_,hands_wanted", SOAK, ids=["somerset", "rook", "horseshoes"])
def test_soak_of_local_hands(qtbot, window, settings_, hands_wanted):
    hands, errors, overs = [], [], []
    session = window.start_local(settings_, autoplay=True, table_seed=TABLE_SEED)
    window.bridge.hand_over.connect(hands.append)
    window.bridge.error.connect(errors.append)
    window.bridge.game_over.connect(lambda e: (overs.append(e), window.table.summary.rematch_button.click()))
    session.start_game()
    qtbot.waitUntil(lambda: len(hands) >= hands_wanted or bool(errors), timeout=120000)
    assert errors == []
    assert all(len(e["scores"]) == session.game.num_sides for e in hands)
    assert window.stack.currentWidget() is window.table
