"""Bots decide from a seat's view alone, and the same view and seed give the same choice.

* A view round-tripped through JSON (a plain dict, nothing else reachable) is enough.
* The engine's own view and hidden-card methods are never called by a bot.
* Two deals that differ only in cards the seat cannot see (same own hand, same public
  history) give the same choice at every level.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine import make_game
from engine.bots import make_bot
from engine.bots.knowledge import Knowledge
from engine.cards import cards_of
from engine.deal import derive_seed

from .helpers import play_hand

LEVELS = ("easy", "normal", "hard", "expert")


def _decision_points(variant, seeds=range(3), lineup=("normal",)):
    """(game, state) at several moments of seeded hands: every phase before play and
    a few moments inside it."""
    title, ruleset, mode = variant
    game = make_game(title, ruleset, mode)
    for seed in seeds:
        moments = []

        def stop(state, moments=moments):
            if len(moments) < 12 and (state.phase != "play" or len(state.history) % 7 == 0):
                moments.append(state.clone())
            return False

        play_hand(variant, seed, lineup, stop)
        for state in moments:
            yield game, state


@pytest.mark.costly_per_variant
def test_a_plain_json_view_is_enough_and_the_same_view_and_seed_give_the_same_choice(any_variant):
    """At every level: a fresh bot's choice from the view round-tripped through JSON is
    legal; another bot of the same seed, after explaining a copy of the view (explaining
    works, and decides just as choosing does: earlier calls change nothing), makes the
    same choice from the (state, seat) form (which passes the view)."""
    for game, state in _decision_points(any_variant, seeds=range(2)):
        seat = state.to_act()[0]
        view = state.view(seat)
        plain = json.loads(json.dumps(view))
        for level in LEVELS:
            first = make_bot(level, b"seed").choose(game, plain)
            state.check(first)
            other = make_bot(level, b"seed")
            assert other.explain(game, copy.deepcopy(view))
            assert other.choose(state, seat) == first


@pytest.mark.costly_per_variant
def test_bots_never_ask_the_engine_for_hidden_state(any_variant, monkeypatch):
    points = list(_decision_points(any_variant, seeds=range(1)))
    views = [(game, state.view(state.to_act()[0])) for game, state in points]

    def forbidden(*args, **kwargs):
        raise AssertionError("a bot asked the engine for more than its view")

    for name in ("view", "public_view", "hidden_from"):
        for cls in type(points[0][1]).__mro__:
            if name in vars(cls):
                monkeypatch.setattr(cls, name, forbidden)
    for game, view in views:
        for level in LEVELS:
            make_bot(level, 3).choose(game, view)


# -- same view, different hidden cards ------------------------------------------------
def _other_deal(game, state, seat: int, rng):
    """A State with the same view for ``seat`` but the unseen cards placed anew.

    Only for moments where every spare card is public or untouched (no bury or kitty
    discard yet), so the deal is each seat's current hand plus what it played."""
    view = state.view(seat)
    world = Knowledge(game, view).determinize(rng)
    played = [0] * game.num_players
    for trick in state.tricks:
        for s, card in trick.cards:
            played[s] |= 1 << card
    for s, card in state.trick:
        played[s] |= 1 << card
    hands = [cards_of(world.hands[s] | played[s]) for s in range(game.num_players)]
    spare = list(world.spare)
    other = game.new_hand(hands, spare, state.dealer)
    for action in state.history:
        other.apply(action)
    return other


def _simple_moments(variant):
    """Moments where the deal is recoverable from hands and plays alone."""
    title = variant[0]
    for game, state in _decision_points(variant, seeds=range(3)):
        if title == "rook" and state.phase not in ("bidding", "raise"):
            continue  # the widow joins a hand: past that, the deal needs the bury too
        if title == "somerset" and game.kitty and state.phase != "bidding":
            continue
        yield game, state


@pytest.mark.costly_per_variant
def test_hidden_cards_do_not_change_the_choice(any_variant):
    rng = random.Random(5)
    checked = 0
    for game, state in _simple_moments(any_variant):
        seat = state.to_act()[0]
        other = _other_deal(game, state, seat, rng)
        hidden = [s for s in range(game.num_players) if s != seat]
        if all(other.hands[s] == state.hands[s] for s in hidden):
            continue  # the sample happened to be the true deal: nothing to compare
        assert other.view(seat) == state.view(seat)
        for level in LEVELS:
            bot = make_bot(level, 11)
            assert bot.choose(other, seat) == bot.choose(state, seat)
        checked += 1
    assert checked >= 3


def test_legal_actions_from_the_view_are_exact(any_variant):
    """What the rebuilt state offers the seat is what the real state offers."""
    for game, state in _decision_points(any_variant, seeds=range(2)):
        for seat in state.to_act():
            if state.phase in ("bury", "kitty"):
                continue
            rebuilt = Knowledge(game, state.view(seat)).state
            assert rebuilt.legal_actions(seat) == state.legal_actions(seat)


@pytest.mark.parametrize("seed", range(4))
def test_sampled_deals_fit_what_was_seen(any_variant, seed):
    """Sampled deals keep the seat's hand and every hand size, and never give a seat a
    card it has shown it lacks; the truth is never excluded."""
    title, ruleset, mode = any_variant
    game = make_game(title, ruleset, mode)
    rng = random.Random(seed)

    def stop(state):
        return state.phase == "play" and len(state.tricks) >= 4 + seed

    state = play_hand(any_variant, 40 + seed, ("normal",), stop)
    for seat in range(game.num_players):
        know = Knowledge(game, state.view(seat))
        for other in range(game.num_players):
            if other != seat:
                assert not state.hands[other] & know.excluded[other]
        world = know.determinize(rng)
        assert world.hands[seat] == state.hands[seat]
        for other in range(game.num_players):
            assert world.hands[other].bit_count() == state.hands[other].bit_count()
            if other != seat:
                assert not world.hands[other] & know.excluded[other]
