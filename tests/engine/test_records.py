"""Hand records (parlour-hand/1): golden files, round trips, and records that are not.

Golden files live in tests/engine/records/: ``NAME.json`` is a hand-written record and
``NAME.expected.json`` the result worked out by hand from the rules (deals are chosen so
the tricks can be followed by eye). They pin the output format and each title's rules.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine import IllegalAction, RecordError, make_game
from engine.bots.random_bot import RandomBot
from engine.deal import derive_seed
from engine.records import forfeit_of, load_record, record_from_state, replay, result_of

RECORDS = Path(__file__).parent / "records"
GOLDEN = sorted(p for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))
TITLE_VARIANT = {"somerset": ("somerset", "kitty-doubled", None), "rook": ("rook", "rook", None),
                 "horseshoes": ("horseshoes", "horseshoes", "four")}


def random_state(variant, seed_number: int, stop_after: int | None = None):
    """A hand of ``variant`` played by random bots, to the end or for ``stop_after``
    actions."""
    title, ruleset, mode = variant
    game = make_game(title, ruleset, mode)
    seed = derive_seed(bytes(32), "records-test", seed_number)
    state = game.deal(seed, seed_number % game.num_players)
    bot = RandomBot(seed)
    while not state.is_over and (stop_after is None or len(state.history) < stop_after):
        seats = state.to_act()
        state.apply(bot.choose(state, bot.rng.choice(seats)))
    return state


# -- golden files ----------------------------------------------------------------------
def test_there_are_golden_records_for_every_title():
    titles = {json.loads(p.read_text())["game"] for p in GOLDEN}
    assert titles == {"horseshoes", "rook", "somerset"}
    for path in GOLDEN:
        assert path.with_name(path.stem + ".expected.json").exists(), path.name


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_replays_to_its_expected_result(path):
    data = json.loads(path.read_text())
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    assert replay(data) == expected


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_survives_a_save_and_load(path):
    """Loading a golden record, replaying it and saving the state gives the same
    record back (up to the options the engine fills in and trailing illegal actions)."""
    data = json.loads(path.read_text())
    game, state, actions = load_record(data)
    result = replay(data)
    kept = actions if result["error"] is None else actions[:result["error"]["index"]]
    for action in kept:
        state.apply(action)
    forfeit = forfeit_of(game, data)
    if forfeit is not None and result["error"] is None:  # a forfeited hand ends after its actions
        state.forfeit(*forfeit)
    saved = record_from_state(state)
    assert saved["hands"] == data["hands"] and saved["spare"] == data.get("spare", [])
    # Compared as actions: a bury or discard is written in deck order, not as typed.
    assert [game.action_from_json(a) for a in saved["actions"]] == kept
    if result["error"] is None:
        assert replay(saved) == result


# -- round trips -----------------------------------------------------------------------
@pytest.mark.parametrize("seed_number", range(4))
def test_finished_hand_round_trips_through_json(any_variant, seed_number):
    state = random_state(any_variant, seed_number)
    record = json.loads(json.dumps(record_from_state(state)))
    out = replay(record)
    result = state.result()
    assert out["error"] is None
    assert out["taken"] == list(result.taken)
    assert out["made"] == result.made
    assert out["score"] == list(result.score)
    assert len(out["tricks"]) == len(state.tricks)
    assert out == result_of(state)


@pytest.mark.parametrize("seed_number", range(3))
def test_partial_hand_round_trips_with_no_score(any_variant, seed_number):
    full = random_state(any_variant, seed_number)
    cut = len(full.history) // 2 + seed_number
    state = random_state(any_variant, seed_number, stop_after=cut)
    out = replay(json.loads(json.dumps(record_from_state(state))))
    assert out["error"] is None and out["made"] is None and out["score"] is None
    assert out["taken"] == list(state.taken)
    assert [t["winner"] for t in out["tricks"]] == [t.winner for t in state.tricks]


def test_record_from_state_writes_the_deal_and_actions(any_variant):
    state = random_state(any_variant, 7, stop_after=6)
    record = record_from_state(state)
    game = state.game
    assert record["format"] == "parlour-hand/1"
    assert record["game"] == any_variant[0] and record["ruleset"] == any_variant[1]
    assert record.get("mode") == any_variant[2]
    assert record["dealer"] == state.dealer
    assert [len(h) for h in record["hands"]] == [game.hand_size] * game.num_players
    assert len(record["spare"]) == game.spare_size
    assert len(record["actions"]) == len(state.history) == 6
    assert [game.action_from_json(a) for a in record["actions"]] == state.history


def test_illegal_action_stops_the_replay_and_is_reported(any_variant):
    state = random_state(any_variant, 3, stop_after=5)
    bot = RandomBot(3)
    while len(state.to_act()) != 1:  # Rook's "Got it" lets several seats act at once
        state.apply(bot.choose(state, state.to_act()[0]))
    record = record_from_state(state)
    seat = state.to_act()[0]
    other = (seat + 1) % state.game.num_players
    # Another seat acting out of turn, with an action that is legal for the right seat.
    wrong = state.game.action_to_json(state.legal_actions(seat)[0]._replace(seat=other))
    record["actions"] += [wrong, record["actions"][0]]
    out = replay(record)
    assert out["error"]["index"] == len(state.history)
    assert out["error"]["reason"]
    assert out["made"] is None and out["score"] is None
    assert out["taken"] == list(state.taken)


def test_actions_after_the_hand_ended_are_illegal(any_variant):
    state = random_state(any_variant, 11)
    record = record_from_state(state)
    record["actions"].append(record["actions"][-1])
    out = replay(record)
    assert out["error"] == {"index": len(state.history), "reason": out["error"]["reason"]}
    assert out["error"]["reason"]
    assert len(out["tricks"]) == len(state.tricks)
    assert out["score"] is None


# -- records that are not records ------------------------------------------------------
def _base(title: str) -> dict:
    return record_from_state(random_state(TITLE_VARIANT[title], 5, stop_after=8))


def _set(path: tuple, value):
    def mutate(record):
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


def _delete(key):
    return lambda record: record.pop(key)


def _duplicate_card(record):
    record["hands"][1][0] = record["hands"][0][0]


def _extra_card(record):
    record["hands"][2].append(record["hands"][2][0] + "x")


BAD_RECORDS = [
    # (id, mutation, words the message must contain)
    ("wrong-format", _set(("format",), "parlour-hand/2"), "format"),
    ("no-format", _delete("format"), "format"),
    ("unknown-game", _set(("game",), "bridge"), "unknown game"),
    ("game-not-text", _set(("game",), 3), "unknown game"),
    ("unknown-ruleset", _set(("ruleset",), "nonesuch"), "unknown ruleset"),
    ("options-not-object", _set(("options",), ["x"]), "options"),
    ("unknown-option", _set(("options", "no_such_option"), True), "no_such_option"),
    ("float-option", _set(("options", "some_number"), 1.5), "whole number"),
    ("dealer-out-of-range", _set(("dealer",), 9), "dealer"),
    ("dealer-is-bool", _set(("dealer",), True), "dealer"),
    ("dealer-is-text", _set(("dealer",), "0"), "dealer"),
    ("no-dealer", _delete("dealer"), "dealer"),
    ("no-hands", _delete("hands"), "hands"),
    ("hands-not-list", _set(("hands",), "AS KS"), "hands"),
    ("too-few-hands", lambda r: r["hands"].pop(), "hands"),
    ("short-hand", lambda r: r["hands"][1].pop(), "seat 1"),
    ("duplicate-card", _duplicate_card, "twice"),
    ("unknown-card", _set(("hands", 2, 3), "Z9"), "'Z9' is not a card"),
    ("card-not-text", _set(("hands", 0, 0), 7), "not a card"),
    ("extra-card-name", _extra_card, "not a card"),
    ("spare-not-list", _set(("spare",), "x"), "spare"),
    ("no-actions", _delete("actions"), "actions"),
    ("actions-not-list", _set(("actions",), {"seat": 0}), "actions"),
    ("action-not-object", _set(("actions", 2), "pass"), "action 2"),
    ("action-no-seat", lambda r: r["actions"][1].pop("seat"), "action 1"),
    ("action-seat-out-of-range", _set(("actions", 1, "seat"), 7), "seat"),
    ("action-two-kinds", _set(("actions", 0, "pass"), True), "exactly one"),
    ("action-no-kind", _set(("actions", 3), {"seat": 0}), "action 3"),
    ("action-unknown-key", _set(("actions", 0, "paly"), "x"), "paly"),
    ("action-unknown-card", _set(("actions", 4), {"seat": 0, "play": "Q/Q"}), "'Q/Q' is not a card"),
    ("action-float-bid", _set(("actions", 4), {"seat": 0, "bid": 14.0}), "action 4"),
    ("action-pass-false", _set(("actions", 4), {"seat": 0, "pass": False}), "pass: true"),
    ("unknown-top-level-key", _set(("comment",), "hi"), "comment"),
]


@pytest.mark.parametrize("title", sorted(TITLE_VARIANT))
@pytest.mark.parametrize("case_id, mutate, words", BAD_RECORDS, ids=[c[0] for c in BAD_RECORDS])
def test_malformed_record_is_refused_with_a_reason(title, case_id, mutate, words):
    record = _base(title)
    mutate(record)
    with pytest.raises(RecordError) as info:
        replay(record)
    assert words.lower() in str(info.value).lower()


def test_a_record_must_be_an_object():
    for value in (None, [], "parlour-hand/1", 3):
        with pytest.raises(RecordError, match="JSON object"):
            replay(value)


def test_horseshoes_records_need_a_valid_mode():
    record = _base("horseshoes")
    for mode, words in ((None, "mode"), ("five", "mode"), (4, "mode")):
        bad = copy.deepcopy(record)
        if mode is None:
            del bad["mode"]
        else:
            bad["mode"] = mode
        with pytest.raises(RecordError, match=words):
            load_record(bad)


@pytest.mark.parametrize("title", ["somerset", "rook"])
def test_titles_without_modes_refuse_one(title):
    record = _base(title)
    record["mode"] = "four"
    with pytest.raises(RecordError, match="mode"):
        load_record(record)


def test_spare_defaults_to_none_and_ruleset_to_the_default():
    record = _base("horseshoes")
    del record["spare"], record["ruleset"], record["options"]
    game, state, actions = load_record(record)
    assert game.ruleset.id == "horseshoes" and state.spare == () and len(actions) == 8


@pytest.mark.parametrize("title", sorted(TITLE_VARIANT))
def test_wrong_spare_count_is_refused(title):
    record = _base(title)
    # Dropping a spare card, or (no spare in this game) adding an already-dealt one.
    record["spare"] = record["spare"][:-1] if record["spare"] else [record["hands"][0][0]]
    with pytest.raises(RecordError, match="spare"):
        load_record(record)


def test_an_illegal_action_is_a_result_not_a_record_error():
    """The boundary: a well-formed action the rules forbid replays; only unreadable
    ones raise."""
    record = _base("horseshoes")
    record["actions"].insert(0, {"seat": 0, "play": record["hands"][1][0]})
    out = replay(record)
    assert out["error"]["index"] == 0 and out["error"]["reason"]
    _game, state, actions = load_record(record)
    with pytest.raises(IllegalAction):
        state.apply(actions[0])
