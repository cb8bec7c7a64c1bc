"""engine.info: what each title says about itself, checked against how it plays.

The description is data the app and the network will read instead of switching on a
title's id, so it must be plain (it travels in views) and true to the rules: every
decision a hand asks for is described, every trump named, the target is where the game
really ends, the sides cover every seat, and every card of the deck is described in
deck order. A name the engine does not know fails loudly.
"""

from __future__ import annotations

import random

import msgpack
import pytest

from engine import Action, UnknownTitle, canonical, make_game, rulesets, title_info
from engine.bench import BENCH_SEED
from engine.deal import derive_seed
from engine.info import GameInfo, TitleInfo, from_plain, to_plain
from engine.registry import TITLES, title
from engine.state import HandResult


def test_every_title_describes_itself_as_plain_data():
    assert TITLES == ("somerset", "rook", "horseshoes")
    for title_id in TITLES:
        info = title_info(title_id)
        plain = to_plain(info)
        assert msgpack.unpackb(canonical.encode(plain), raw=False) == canonical.canonical(plain)
        assert info.id == title_id and info.name
        assert [r.id for r in info.rulesets] == list(rulesets(title_id))
        assert sum(r.default for r in info.rulesets) == 1
        for ruleset in info.rulesets:
            for option in ruleset.options:
                assert option.default in [c.value for c in option.choices]
                assert set(option.modes) <= {m.id for m in info.modes}
        if info.modes:
            assert info.default_mode in [m.id for m in info.modes]
        assert title(title_id).bots


def test_every_game_describes_itself_as_plain_data(any_variant):
    game = make_game(*any_variant)
    info = game.info
    plain = to_plain(info)
    canonical.encode(plain)  # no floats, nothing but plain values
    assert (info.title, info.ruleset, info.mode) == any_variant
    assert info.players == game.num_players and info.hand_size == game.hand_size
    assert info.options == game.options
    assert [c.name for c in info.deck.cards] == list(game.deck.names)
    assert [c.points for c in info.deck.cards] == list(game.deck.points_of)
    assert all(c.words and c.label and c.ink.startswith("#") for c in info.deck.cards)
    assert {c.suit for c in info.deck.cards} <= set(info.deck.suit_order)
    seats = sorted(s for side in info.sides for s in side.seats)
    assert seats == list(range(game.num_players))
    assert len(info.sides) == game.num_sides
    for seat in range(game.num_players):
        assert seat in info.sides[game.side_of(seat)].seats
    assert game.info is info  # made once per game
    assert game.describe(Action(1, "pass")) == "Seat 1: pass"  # the log sentence is still there


def _played(variant, hands: int = 6):
    """Random hands of ``variant``: (state, [(phase, action)]) each."""
    game = make_game(*variant)
    rng = random.Random(3)
    for number in range(hands):
        state = game.deal(derive_seed(BENCH_SEED, "info", number), number % game.num_players)
        steps = []
        while not state.is_over:
            seat = state.to_act()[0]
            action = (state.sample_action(seat, rng) if state.phase in state.SAMPLED_PHASES
                      else rng.choice(state.legal_actions(seat)))
            steps.append((state.phase, action))
            state.apply(action)
        yield state, steps


def test_every_decision_and_trump_a_hand_asks_for_is_described(any_variant):
    game = make_game(*any_variant)
    described = {(d.phase, d.kind): d for d in game.info.decisions}
    trumps = {t.id for t in game.info.trumps}
    for state, steps in _played(any_variant):
        for phase, action in steps:
            assert (phase, action.kind) in described, (phase, action)
            decision = described[phase, action.kind]
            if decision.cards:
                assert len(action.value) == decision.cards
            if action.kind in ("bury", "trump", "bid") and decision.choices:
                named = action.value if action.kind == "trump" else action.extra
                if named is not None:
                    assert named in decision.choices and named in trumps
            if action.kind in ("leftover",) or (action.kind == "play" and action.extra):
                assert (action.value if action.kind == "leftover" else action.extra) in decision.choices
        if state.result().made is not None:
            assert game.info.contract


def test_taken_adds_up_to_what_the_info_says(any_variant):
    game = make_game(*any_variant)
    for state, _ in _played(any_variant, hands=3):
        if not state.result().thrown_in:
            assert sum(state.result().taken) == game.info.taken_per_hand


def test_the_target_is_where_the_game_ends(any_variant):
    game = make_game(*any_variant)
    info = game.info
    result = HandResult((), (0,) * game.num_sides, None, (0,) * game.num_sides)
    below = [0] * game.num_sides
    below[0] = info.target - 1
    assert game.match_winner(below, result) is None
    reached = [info.target] + list(range(1, game.num_sides))  # no shared lowest score
    winner = game.match_winner(reached, result)
    assert winner is not None
    assert (winner != 0) == info.lower_wins  # the high side wins, or the low one


def test_an_unknown_title_fails_loudly():
    for call in (lambda: make_game("euchre"), lambda: title_info("euchre"),
                 lambda: rulesets("euchre"), lambda: title(None)):
        with pytest.raises(UnknownTitle, match="unknown game") as info:
            call()
        assert set(TITLES) <= set(info.value.known)
    assert isinstance(UnknownTitle("x", ()), ValueError)  # callers catching ValueError still do


def test_card_and_trump_lookups_name_what_is_missing():
    info = make_game("rook").info
    assert info.card("R14").words == "Red 14" and info.trump_name("G") == "Green"
    with pytest.raises(KeyError, match="'AS' is not a card of Rook"):
        info.card("AS")
    with pytest.raises(KeyError, match="'NT' is not a trump of Rook"):
        info.trump_name("NT")


def test_a_title_kept_outside_engine_is_known_but_not_offered():
    """The test-only title (registered by tests/conftest.py) plays like any other but
    is never listed among the titles a host is offered."""
    from engine import registry

    assert "tiny" not in TITLES and make_game("tiny").info.name == "Tiny Tricks"
    with pytest.raises(ValueError, match="already a title"):
        registry.register(title("rook"))
    tiny = title("tiny")
    registry.unregister("tiny")
    try:
        with pytest.raises(UnknownTitle):
            make_game("tiny")
    finally:
        registry.register(tiny)


def test_a_plain_description_reads_back_as_it_was(any_variant):
    """A view carries ``to_plain(game.info)``; its reader gets the same GameInfo back."""
    info = make_game(*any_variant).info
    plain = msgpack.unpackb(msgpack.packb(to_plain(info), use_bin_type=True), raw=False)  # as sent
    assert from_plain(GameInfo, plain) == info
    title_plain = to_plain(title_info(any_variant[0]))
    assert from_plain(TitleInfo, title_plain) == title_info(any_variant[0])


def test_a_description_of_another_shape_is_refused_by_name():
    plain = to_plain(make_game("rook").info)
    del plain["deck"]["suit_order"]
    with pytest.raises(ValueError, match="suit_order"):
        from_plain(GameInfo, plain)
    with pytest.raises(ValueError, match="sides must be a list"):
        from_plain(GameInfo, {**to_plain(make_game("rook").info), "sides": 2})
