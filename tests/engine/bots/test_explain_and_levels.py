"""Hints and levels: ``explain`` gives one non-empty sentence for every kind of
decision; ``make_bot`` knows every level, "random" included, in both call styles."""

from __future__ import annotations

import pytest

from engine import make_game
from engine.bots import ALL_LEVELS, RandomBot, make_bot
from engine.bots.base import Bot

from .helpers import play_hand


@pytest.mark.costly_per_variant
def test_explain_is_one_sentence_for_every_decision(any_variant):
    title, ruleset, mode = any_variant
    game = make_game(title, ruleset, mode)
    phases = set()

    def stop(state):
        seat = state.to_act()[0]
        view = state.view(seat)
        for level in ("easy", "normal", "hard", "expert"):
            hint = make_bot(level, 1).explain(game, view)
            assert isinstance(hint, str) and hint.strip(), (state.phase, level)
            assert "\n" not in hint
            assert len(hint) < 200
        phases.add(state.phase)
        return False

    play_hand(any_variant, 9, ("normal",), stop)
    assert "play" in phases and len(phases) >= 2


def test_a_hint_names_the_card_it_suggests():
    game = make_game("rook")
    seen = 0

    def stop(state):
        nonlocal seen
        if state.phase == "play":
            seat = state.to_act()[0]
            bot = make_bot("normal", 2)
            view = state.view(seat)
            card = game.deck.name(bot.choose(game, view).value)
            assert card in bot.explain(game, view)
            seen += 1
        return seen >= 10

    play_hand(("rook", "rook", None), 4, ("normal",), stop)
    assert seen == 10


def test_make_bot_levels():
    assert ALL_LEVELS == ("random", "easy", "normal", "hard", "expert")
    assert isinstance(make_bot("random", b"x"), RandomBot)
    for level in ("easy", "normal", "hard", "expert"):
        assert make_bot(level, 1).level == level
    assert make_bot(None, 1).level == "normal"
    with pytest.raises(ValueError):
        make_bot("grandmaster", 1)


def test_random_bot_still_plays_from_a_state_or_a_view():
    game = make_game("somerset")
    state = game.deal(bytes(32), 0)
    seat = state.to_act()[0]
    action = RandomBot(3).choose(state, seat)
    assert action in state.legal_actions(seat)
    from_view = RandomBot(3).choose(game, state.view(seat))
    assert from_view in state.legal_actions(seat)


def test_a_bot_refuses_a_view_with_nothing_to_decide():
    game = make_game("horseshoes", None, "four")
    state = game.deal(bytes(32), 0)
    idle = next(s for s in range(4) if s not in state.to_act())
    with pytest.raises(ValueError):
        Bot("normal", 1).choose(game, state.view(idle))
