"""Events: apply returns a tuple of read-only dicts, the common ones shared by every
hand, that encode, copy and compare like the plain dicts they stand for."""

from __future__ import annotations

import copy
import json
import pickle
import random

import msgpack
import pytest

from engine import canonical, make_game
from engine.bench import BENCH_SEED
from engine.deal import derive_seed
from engine.events import Event


def test_an_event_refuses_every_change():
    event = Event({"type": "pass", "seat": 1})
    changes = [lambda e: e.__setitem__("seat", 2), lambda e: e.__delitem__("seat"),
               lambda e: e.update(seat=2), lambda e: e.pop("seat"), lambda e: e.popitem(),
               lambda e: e.setdefault("bid", 100), lambda e: e.clear()]
    for change in changes:
        with pytest.raises(TypeError, match="read-only"):
            change(event)
    with pytest.raises(TypeError, match="read-only"):
        event |= {"seat": 2}
    assert event == {"type": "pass", "seat": 1}


def test_an_event_encodes_copies_and_compares_as_its_plain_dict():
    event = Event({"type": "widow", "cards": ["B1", "ROOK"]})
    plain = {"type": "widow", "cards": ["B1", "ROOK"]}
    assert event == plain and list(event) == list(plain)
    assert json.dumps(event) == json.dumps(plain)
    assert msgpack.packb(event) == msgpack.packb(plain)
    assert canonical.encode(event) == canonical.encode(plain)
    for copied in (copy.copy(event), copy.deepcopy(event), pickle.loads(pickle.dumps(event))):
        assert type(copied) is Event and copied == plain
    changeable = dict(event)
    changeable["seat"] = 0
    assert type(changeable) is dict and "seat" not in event


def test_apply_returns_a_tuple_of_events_and_plays_share_theirs(any_variant):
    """Every apply of a random hand gives read-only events; the same card played by the
    same seat gives the very same event in another hand."""
    game = make_game(*any_variant)
    seen: dict[tuple, Event] = {}
    for number in range(3):
        rng = random.Random(number)
        state = game.deal(derive_seed(BENCH_SEED, "events", number), number % game.num_players)
        while not state.is_over:
            seat = state.to_act()[0]
            if state.phase in state.SAMPLED_PHASES:
                action = state.sample_action(seat, rng)
            else:
                action = rng.choice(state.legal_actions(seat))
            events = state.apply(action)
            assert type(events) is tuple and events
            assert all(type(e) is Event for e in events), events
            if action.kind == "play":
                play = events[0]
                assert play["type"] == "play" and play["seat"] == seat
                assert seen.setdefault((seat, play["card"], play.get("ace")), play) is play
    assert seen
