"""The fast paths of State: what they rely on, and that they give what the plain code
would.

* CPython 3.11 keeps an instance's attributes in a fast per-class layout only while the
  class has at most 29 attribute names; past that, every attribute read and write in
  every title's play path gets slower (about a tenth of a random hand's time). So each
  title's State must stay within 29 (derive the rest with properties).
* legal_actions lists plays from per-byte tables: the same Actions, in card order, as
  a walk over the legal mask.
* apply reuses the legal mask legal_actions computed, but only for the hand it was
  computed for: bots set hands directly when they imagine a deal.
* ``turn``, when set, is the one seat to act, so a seat equal to it needs no to_act().
"""

from __future__ import annotations

import random

from engine import IllegalAction, make_game
from engine.bench import BENCH_SEED, play_random_hand
from engine.cards import cards_of
from engine.deal import derive_seed
from engine.state import plays_for, plays_in

FAST_LAYOUT_MAX = 29


def test_every_state_keeps_within_the_fast_attribute_layout(any_variant):
    game = make_game(*any_variant)
    state = play_random_hand(game, derive_seed(BENCH_SEED, "layout", 0), 0, random.Random(3))
    assert state.is_over
    assert len(state.__dict__) <= FAST_LAYOUT_MAX, sorted(state.__dict__)


def test_plays_in_lists_the_cards_of_a_mask_lowest_first(any_variant):
    game = make_game(*any_variant)
    plays = plays_for(game.deck, game.num_players)
    rng = random.Random(7)
    for _ in range(300):
        seat = rng.randrange(game.num_players)
        mask = sum(1 << c for c in rng.sample(range(game.deck.size), rng.randrange(0, 14)))
        expected = [plays.actions[seat][c] for c in cards_of(mask)]
        assert plays_in(plays.lists[seat], mask) == expected
    full = game.deck.full_mask
    assert [a.value for a in plays_in(plays.lists[0], full)] == list(range(game.deck.size))


def _mid_trick(variant, seed_number: int):
    """A state in play with a card led, and the next seat holding that suit."""
    game = make_game(*variant)
    rng = random.Random(seed_number)
    state = game.deal(derive_seed(BENCH_SEED, "memo", seed_number), 0)
    while not state.is_over:
        seat = state.to_act()[0]
        if state.phase == "play" and state.trick:
            legal = state.legal_play_mask(seat)
            if legal != state.hands[seat]:
                return state, seat
        if state.phase in state.SAMPLED_PHASES:
            state.apply(state.sample_action(seat, rng))
        else:
            state.apply(rng.choice(state.legal_actions(seat)))
    return None, None


def test_apply_checks_against_the_hand_held_now_not_a_listed_one(any_variant):
    for n in range(20):
        state, seat = _mid_trick(any_variant, n)
        if state is not None:
            break
    assert state is not None
    following = state.legal_play_mask(seat)
    off_suit = cards_of(state.hands[seat] & ~following)[0]
    fresh = state.clone()
    # List the plays of a hand with no card of the suit led (so anything goes), then
    # give the seat its real hand back, as a bot imagining a deal would.
    real = state.hands[seat]
    state.hands[seat] = real & ~following
    assert off_suit in [a.value for a in state.legal_actions(seat)]
    state.hands[seat] = real
    play = state.play_action(seat, off_suit)
    try:
        fresh.apply(play)
    except IllegalAction as exc:
        expected = str(exc)
    else:
        raise AssertionError("an off-suit card was accepted while holding the suit led")
    try:
        state.apply(play)
    except IllegalAction as exc:
        assert str(exc) == expected
    else:
        raise AssertionError("apply trusted the plays listed for another hand")


def test_turn_when_set_is_the_one_seat_to_act(any_variant):
    """legal_actions and apply take a seat equal to ``turn`` as one that may act
    without asking to_act."""
    game = make_game(*any_variant)
    for n in range(5):
        rng = random.Random(n)
        state = game.deal(derive_seed(BENCH_SEED, "turn", n), n % game.num_players)
        while not state.is_over:
            seats = state.to_act()
            assert state.turn is None or seats == (state.turn,), (state.phase, state.turn, seats)
            seat = rng.choice(seats)
            if state.phase in state.SAMPLED_PHASES:
                state.apply(state.sample_action(seat, rng))
            else:
                state.apply(rng.choice(state.legal_actions(seat)))
        assert state.turn is None and state.to_act() == ()


def test_a_clone_plays_on_from_the_listed_plays(any_variant):
    state, seat = _mid_trick(any_variant, 1)
    assert state is not None
    legal = state.legal_actions(seat)
    copy = state.clone()
    for action in legal:
        branch = copy.clone()
        branch.apply(action)
        assert branch.hands[seat] == state.hands[seat] & ~(1 << action.value)
    illegal = cards_of(state.hands[seat] & ~state.legal_play_mask(seat))
    for card in illegal:
        try:
            copy.clone().apply(state.play_action(seat, card))
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"card {card} was accepted though not listed")


def test_the_kept_history_encoding_hashes_as_the_whole_view(any_variant):
    """state_hash splices in the history's encoding kept from earlier calls: it must
    be canonical.digest(public_view()) at every step, for clones too, and when the
    history is replaced behind its back."""
    from engine import canonical

    game = make_game(*any_variant)
    rng = random.Random(11)
    state = game.deal(derive_seed(BENCH_SEED, "hash", 0), 1)
    branches = []
    while not state.is_over:
        assert state.public_encoding() == canonical.encode(state.public_view())
        assert state.state_hash() == canonical.digest(state.public_view())
        if rng.random() < 0.2:
            branches.append(state.clone())
        seat = state.to_act()[0]
        if state.phase in state.SAMPLED_PHASES:
            state.apply(state.sample_action(seat, rng))
        else:
            state.apply(rng.choice(state.legal_actions(seat)))
    assert state.state_hash() == canonical.digest(state.public_view())
    for branch in branches:
        assert branch.state_hash() == canonical.digest(branch.public_view())
        branch.history = branch.history[:-1]  # not a real state any more, but hashable
        assert branch.state_hash() == canonical.digest(branch.public_view())
        if branch.tricks:
            branch.tricks = branch.tricks[:-1] + [branch.tricks[0]]
            assert branch.state_hash() == canonical.digest(branch.public_view())


def test_horseshoes_lists_plays_in_card_order_with_both_ace_calls():
    """Its plays come from the tables, with each ace that must be declared put in its
    place twice (high, then low): the order a walk over the cards gives."""
    for mode in ("three", "four", "partners"):
        game = make_game("horseshoes", "horseshoes", mode)
        rng = random.Random(5)
        for n in range(10):
            state = game.deal(derive_seed(BENCH_SEED, "aces", n), n % game.num_players)
            while not state.is_over:
                seat = state.to_act()[0]
                legal = state.legal_actions(seat)
                if state.phase == "play":
                    expected = []
                    for card in cards_of(state.legal_play_mask(seat)):
                        if state._declared_aces >> card & 1:
                            expected += game.ace_actions[seat][card]
                        else:
                            expected.append(state.play_action(seat, card))
                    assert legal == expected
                assert state.legal_actions() == legal  # the seat to act, by default
                state.apply(rng.choice(legal))
