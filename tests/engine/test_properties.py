"""Properties every title must have, checked on random deals and random legal play.

For every variant in ``engine.registry.variants()``, over hypothesis-chosen deal seeds
and bot seeds, at every step of the hand:

* every card is in exactly one place (a hand, a trick, or the spare/kitty/buried);
* every legal action applies, and a sample of others (wrong seat, cards not held, the
  wrong kind of action, random bids) is refused with IllegalAction and a reason, with
  the state unchanged;
* no view contains the name of a card that seat may not see;

and per hand: it ends, the points total what the rules say, and the same deal with the
same actions gives the same state hash (directly, and through a hand record).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import IllegalAction, make_game
from engine.actions import KINDS, Action
from engine.bots.random_bot import RandomBot
from engine.cards import cards_of
from engine.records import load_record, record_from_state
from tests.engine.playouts import play_out

MAX_LEGAL_CHECKED = 12  # a Rook bury has 34,272 legal choices: check a sample

seeds = st.binary(min_size=32, max_size=32)
bot_seeds = st.integers(min_value=0, max_value=2**32 - 1)


def new_hand(variant, seed: bytes):
    title, ruleset, mode = variant
    game = make_game(title, ruleset, mode)
    return game.deal(seed, seed[0] % game.num_players)


def acting_seat(state, rng: random.Random) -> int:
    seats = state.to_act()
    return seats[0] if len(seats) == 1 else rng.choice(seats)




# -- conservation ----------------------------------------------------------------------
def last_set_aside(state) -> tuple:
    """The cards of the latest bury or discard (they leave the hands face down)."""
    for action in reversed(state.history):
        if action.kind in ("bury", "discard"):
            return action.value
    return ()


def check_cards_conserved(state) -> None:
    deck = state.deck
    held = 0
    for seat, hand in enumerate(state.hands):
        assert not held & hand, f"seat {seat} holds a card another seat holds"
        held |= hand
        allowed = deck.mask(state.dealt[seat]) | deck.mask(state.spare)
        assert not hand & ~allowed, f"seat {seat} holds a card it was never dealt"
    played_list = [c for t in state.tricks for _s, c in t.cards] + [c for _s, c in state.trick]
    played = deck.mask(played_list)
    assert len(played_list) == played.bit_count(), "a card was played twice"
    assert not played & held, "a played card is still in a hand"
    assert len(state.trick) < state.n
    elsewhere = deck.full_mask & ~(held | played)
    set_aside = last_set_aside(state)
    if set_aside:
        assert elsewhere == deck.mask(set_aside), "the buried/discarded cards went astray"
    else:  # the spare lies apart, or the bidder has just picked it up
        assert elsewhere in (deck.mask(state.spare), 0), "the spare cards went astray"


@given(seed=seeds, bot_seed=bot_seeds)
def test_hand_ends_with_cards_conserved_and_points_totalled(any_variant, seed, bot_seed):
    state = new_hand(any_variant, seed)
    play_out(state, RandomBot(bot_seed), check_cards_conserved)
    check_cards_conserved(state)
    result = state.result()
    assert result is not None and state.to_act() == ()
    assert len(result.score) == state.game.num_sides
    if not result.thrown_in:
        assert sum(result.taken) == state.game.info.taken_per_hand
        assert len(state.tricks) == state.game.hand_size


# -- legal and illegal actions ---------------------------------------------------------
def legal_kinds(state, seat: int, legal: list[Action], rng: random.Random) -> set[str]:
    kinds = {a.kind for a in legal}
    sampler = getattr(state, "sample_action", None)
    sampled = sampler(seat, rng) if sampler else None
    if sampled is not None:
        kinds.add(sampled.kind)
    return kinds


def value_for(kind: str, state, seat: int, rng: random.Random):
    """A plausible value for an action of ``kind`` by ``seat``."""
    held = cards_of(state.hands[seat]) or [0]
    if kind == "play":
        return rng.choice(held), None
    if kind in ("bury", "discard"):
        size = 5 if kind == "bury" else 2
        return tuple(sorted(rng.sample(held, min(size, len(held))))), None
    if kind in ("bid", "raise"):
        return rng.randrange(0, 200), None
    if kind == "trump":
        return "NT", None
    if kind == "leftover":
        return "up", None
    return None, None


def illegal_candidates(state, seat: int, legal: list[Action],
                       rng: random.Random) -> list[Action]:
    """A few actions that must be refused now, whatever the title: another seat acting,
    a card not held, a kind of action that is not asked for, a random bid."""
    out = []
    some_legal = rng.choice(legal) if legal else Action(seat, "pass")
    others = [s for s in range(state.n + 1) if s not in state.to_act()]  # n: no such seat
    out.append(some_legal._replace(seat=rng.choice(others)))
    not_held = cards_of(state.deck.full_mask & ~state.hands[seat])
    out.append(Action(seat, "play", rng.choice(not_held)))
    wrong_kinds = sorted(set(KINDS) - legal_kinds(state, seat, legal, rng))
    for kind in rng.sample(wrong_kinds, min(2, len(wrong_kinds))):
        value, extra = value_for(kind, state, seat, rng)
        out.append(Action(seat, kind, value, extra))
    shapes = [a for a in legal if a.kind in ("bid", "raise")]
    if shapes:
        bid = rng.choice(shapes)._replace(value=rng.randrange(-5, 200))
        if bid not in shapes:
            out.append(bid)
    return out


def check_refused(state, action: Action, before_hash: str | None = None) -> None:
    """``action`` raises IllegalAction with a reason and changes nothing (neither the
    public state nor the actor's own view)."""
    before_hash = before_hash or state.state_hash()
    before_view = state.view(action.seat) if 0 <= action.seat < state.n else None
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert info.value.reason and str(info.value), f"{action} refused without a reason"
    assert state.state_hash() == before_hash, f"refusing {action} changed the state"
    if before_view is not None:
        assert state.view(action.seat) == before_view, f"refusing {action} changed its view"


def check_actions(state, rng: random.Random) -> None:
    seat = acting_seat(state, rng)
    legal = state.legal_actions(seat)  # a Rook bury lists 34,272: compute it once
    before = state.state_hash()
    for action in rng.sample(legal, min(MAX_LEGAL_CHECKED, len(legal))):
        state.clone().apply(action)
    assert state.state_hash() == before, "applying to a clone changed the original"
    for action in illegal_candidates(state, seat, legal, rng):
        check_refused(state, action, before)


@given(seed=seeds, bot_seed=bot_seeds)
def test_legal_actions_apply_and_others_are_refused(any_variant, seed, bot_seed):
    state = new_hand(any_variant, seed)
    rng = random.Random(bot_seed)
    play_out(state, RandomBot(bot_seed), lambda s: check_actions(s, rng))
    for action in [Action(0, "play", 0), Action(0, "pass"), Action(1, "ack")]:
        check_refused(state, action)  # nothing is legal once the hand is over


# -- views -----------------------------------------------------------------------------
def strings_in(value) -> set[str]:
    """Every string in ``value`` (dict keys included, at any depth) and every word of
    each. A loop over a stack, not nested generators: it reads every view of every
    step of every hand, and was most of this file's CPU."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
            found.update(item.split())
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def check_views_hide(state) -> None:
    name = state.deck.name
    hidden_from_anyone = 0
    for seat in range(state.n):
        hidden = state.hidden_from(seat)
        hidden_from_anyone |= hidden
        secret = {name(c) for c in cards_of(hidden)}
        leaked = secret.intersection(strings_in(state.view(seat)))
        assert not leaked, f"seat {seat}'s view shows {sorted(leaked)} in phase {state.phase}"
        assert not hidden & state.hands[seat], f"seat {seat} may not see its own hand?"
    secret = {name(c) for c in cards_of(hidden_from_anyone)}
    leaked = secret.intersection(strings_in(state.public_view()))
    assert not leaked, f"the public view shows {sorted(leaked)} in phase {state.phase}"


@given(seed=seeds, bot_seed=bot_seeds)
def test_views_never_show_hidden_cards(any_variant, seed, bot_seed):
    state = new_hand(any_variant, seed)
    assert hasattr(state, "hidden_from"), f"{any_variant[0]} says nothing of what each seat may not see"
    play_out(state, RandomBot(bot_seed), check_views_hide)
    check_views_hide(state)


@given(seed=seeds, bot_seed=bot_seeds)
def test_a_view_made_from_the_public_view_is_the_view(any_variant, seed, bot_seed):
    """``view(seat, public)`` (the host makes the public view once for every seat) gives
    what ``view(seat)`` gives, and leaves the public view as it was."""
    def same_views(state):
        public = state.public_view()
        for seat in range(state.n):
            assert state.view(seat, public) == state.view(seat)
        assert public == state.public_view()
    state = new_hand(any_variant, seed)
    play_out(state, RandomBot(bot_seed), same_views)
    same_views(state)


# -- determinism -----------------------------------------------------------------------
@given(seed=seeds, bot_seed=bot_seeds, cut=st.integers(min_value=0, max_value=100))
def test_replaying_the_record_reproduces_the_state(any_variant, seed, bot_seed, cut):
    state = new_hand(any_variant, seed)
    play_out(state, RandomBot(bot_seed))
    for stop in (len(state.history), min(cut, len(state.history))):
        partial = new_hand(any_variant, seed)
        for action in state.history[:stop]:
            partial.apply(action)
        _game, replayed, actions = load_record(record_from_state(partial))
        for action in actions:
            replayed.apply(action)
        assert replayed.state_hash() == partial.state_hash()
        assert [replayed.view(s) for s in range(partial.n)] == \
               [partial.view(s) for s in range(partial.n)]
        assert replayed.result() == partial.result()


@given(seed=seeds, bot_seed=bot_seeds)
def test_same_seed_and_actions_give_the_same_hashes(any_variant, seed, bot_seed):
    first_hashes = []
    first = new_hand(any_variant, seed)
    play_out(first, RandomBot(bot_seed), lambda s: first_hashes.append(s.state_hash()))
    second = new_hand(any_variant, seed)
    assert second.dealt == first.dealt and second.spare == first.spare
    second_hashes = []
    for action in first.history:
        second_hashes.append(second.state_hash())
        second.apply(action)
    assert second_hashes == first_hashes
    assert second.state_hash() == first.state_hash()
    assert len(set(first_hashes)) == len(first_hashes), "two different steps hashed alike"


@given(seed_a=seeds, seed_b=seeds)
def test_different_seeds_deal_differently(any_variant, seed_a, seed_b):
    a, b = new_hand(any_variant, seed_a), new_hand(any_variant, seed_b)
    if seed_a != seed_b:
        assert (a.dealt, a.spare) != (b.dealt, b.spare)
