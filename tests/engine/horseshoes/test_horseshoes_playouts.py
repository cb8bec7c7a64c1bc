"""Whole hands and games by random bots in every mode and option, plus views, hashes,
the ruleset data, option checks and the JSON form of Horseshoes actions."""

from __future__ import annotations

import itertools

import pytest

from engine import registry
from engine.actions import Action
from engine.bots.random_bot import RandomBot
from engine.cards import cards_of
from engine.deal import derive_seed
from engine.horseshoes import RULESETS, make
from engine.match import Match
from tests.engine.playouts import play_out
from horseshoes_helpers import bid_all, deal, parse_play, play_trick

MODES = ("three", "four", "partners")
COMBOS = [(mode, {"breaking_trump": bt, "leftover": lo})
          for mode, bt, lo in itertools.product(MODES, (False, True), ("dealer", "up", "down"))
          if mode == "three" or lo == "dealer"]




@pytest.mark.parametrize("mode,options", COMBOS,
                         ids=[f"{m}-{o['breaking_trump']}-{o['leftover']}" for m, o in COMBOS])
def test_random_hands_play_thirteen_tricks_and_conserve_the_cards(mode, options):
    game = make(None, mode, options)
    for number in range(8):
        seed = derive_seed(bytes(32), "horseshoes-playout", number)
        state = play_out(game.deal(seed, number % game.num_players), RandomBot(seed))
        assert len(state.tricks) == 13
        played = [card for trick in state.tricks for _, card in trick.cards]
        assert sorted(played + list(state.spare)) == list(range(game.deck.size))
        for trick in state.tricks:
            assert [seat for seat, _ in trick.cards] == [(trick.leader + i) % game.num_players
                                                         for i in range(game.num_players)]
        result = state.result()
        assert sum(state.won) == 13 and sum(result.taken) == 13
        assert result.made is None and len(result.score) == game.num_sides
        bids = state.bids
        if mode == "partners":
            team_bids = [bids[0] + bids[2], bids[1] + bids[3]]
        else:
            team_bids = bids
        misses = [abs(t - b) for t, b in zip(result.taken, team_bids)]
        assert list(result.score) == (misses if any(misses) else [3] * game.num_sides)


def test_hidden_cards_never_appear_in_a_view():
    for mode, options in COMBOS:
        game = make(None, mode, options)
        seed = derive_seed(bytes(32), "horseshoes-views", len(options["leftover"]))

        def check_views(state):
            for seat in range(game.num_players):
                view_text = repr(state.view(seat))
                for card in cards_of(state.hidden_from(seat)):
                    assert repr(game.deck.name(card)) not in view_text, (mode, options, seat)

        state = game.deal(seed, 1)
        check_views(play_out(state, RandomBot(seed), check_views))  # before each action, and at the end


def test_face_down_left_over_is_hidden_until_the_hand_ends():
    game = make(None, "three")
    state = deal(game, {}, dealer=0, spare="AS")
    assert state.view(0)["leftover"] == {"face": None, "card": None}
    assert state.hidden_from(0) & (1 << game.deck.parse("AS"))
    state.apply(Action(0, "leftover", "down"))
    assert state.view(1)["leftover"] == {"face": "down", "card": None}
    while not state.is_over:
        events = state.apply(state.legal_actions()[0])
    assert events[-1] == {"type": "leftover", "seat": 0, "face": "down", "card": "AS"}
    assert state.view(1)["leftover"] == {"face": "down", "card": "AS"}
    assert state.hidden_from(1) == 0


def test_face_up_left_over_is_public_and_announced():
    game = make(None, "three")
    state = deal(game, {}, dealer=2, spare="5D")
    events = state.apply(Action(2, "leftover", "up"))
    assert events == ({"type": "leftover", "seat": 2, "face": "up", "card": "5D"},)
    assert state.public_view()["leftover"] == {"face": "up", "card": "5D"}
    assert state.turn == 0  # the dealer's left bids first
    assert not state.hidden_from(0) & (1 << game.deck.parse("5D"))


def test_public_view_shows_bids_trump_and_tricks_per_seat():
    game = make(None, "partners", {"breaking_trump": True})
    state = deal(game, {2: "KS", 3: "3S", 0: "4S", 1: "5S"}, dealer=0)
    bid_all(state, [1, 2, 3, 4], trump="D")
    play_trick(state, "KS", "3S", "4S", "5S")
    view = state.view(3)
    assert view["bids"] == [1, 2, 3, 4]
    assert view["trump"] == "D"
    assert view["trump_broken"] is False
    assert view["tricks_won"] == [0, 0, 1, 0]
    assert view["taken"] == [1, 0]
    assert view["mode"] == "partners" and view["options"]["breaking_trump"] is True


def test_an_ignored_declaration_hashes_like_none():
    game = make(None, "four")
    with_call = deal(game, {2: "2S", 3: "AH"}, dealer=0, voids={3: "S"})
    without = deal(game, {2: "2S", 3: "AH"}, dealer=0, voids={3: "S"})
    for state, call in ((with_call, "AH:low"), (without, "AH")):
        bid_all(state, [0, 0, 0, 0], trump="NT")
        play_trick(state, "2S", call)
    assert with_call.state_hash() == without.state_hash()


def test_declared_ace_is_public_in_the_action_log():
    game = make(None, "four")
    state = deal(game, {2: "AS"}, dealer=0)
    bid_all(state, [0, 0, 0, 0], trump="NT")
    events = state.apply(parse_play(game, 2, "AS:high"))
    assert events == ({"type": "play", "seat": 2, "card": "AS", "ace": "high"},)
    assert state.view(0)["actions"][-1] == {"seat": 2, "play": "AS", "ace": "high"}


def test_legal_actions_list_both_declarations_of_a_led_ace():
    game = make(None, "four")
    state = deal(game, {2: "AS AH 2C"}, dealer=0)
    bid_all(state, [0, 0, 0, 0], trump="NT")
    acts = state.legal_actions(2)
    aces = [a for a in acts if game.deck.name(a.value) in ("AS", "AH")]
    assert sorted((game.deck.name(a.value), a.extra) for a in aces) == [
        ("AH", "high"), ("AH", "low"), ("AS", "high"), ("AS", "low")]
    assert len(acts) == 13 + 2
    assert state.legal_actions(3) == []


def test_actions_round_trip_through_hand_record_json():
    game = make(None, "three")
    for action in (Action(1, "bid", 4, "NT"), Action(2, "bid", 0), Action(0, "leftover", "down"),
                   parse_play(game, 1, "AS:low"), parse_play(game, 1, "TD")):
        assert game.action_from_json(game.action_to_json(action)) == action


def test_clone_is_independent():
    game = make(None, "four")
    state = deal(game, {}, dealer=0)
    bid_all(state, [1, 1, 1, 1], trump="S")
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.trick == [] and len(state.history) == 4 and copy.history != state.history
    assert copy.hands != state.hands


@pytest.mark.parametrize("mode", MODES)
def test_matches_end_with_the_unique_lowest_score_past_the_target(mode):
    game = make(None, mode, {"target": 10})
    for number in range(2):
        table_seed = derive_seed(bytes(32), "horseshoes-match", number)
        match = Match(game, table_seed)
        bot = RandomBot(table_seed)
        dealers = []
        while not match.is_over:
            dealers.append(match.dealer)
            play_out(match.start_hand(), bot)
            match.finish_hand()
        scores = match.scores
        assert max(scores) >= 10
        assert scores.count(min(scores)) == 1 and scores[match.winner] == min(scores)
        assert scores == [sum(r.score[side] for r in match.results) for side in range(game.num_sides)]
        assert all((b - a) % game.num_players == 1 for a, b in zip(dealers, dealers[1:]))


# -- making games and the ruleset data --------------------------------------------------
def test_default_mode_is_four():
    game = make(None, None)
    assert game.mode == "four" and game.num_players == 4 and game.spare_size == 0
    assert not game.partnerships and game.num_sides == 4
    assert registry.make_game("horseshoes").mode == "four"


def test_modes_and_decks():
    three, partners = make(None, "three"), make(None, "partners")
    assert (three.num_players, three.deck.size, three.spare_size) == (3, 40, 1)
    assert "JS" not in three.deck.names and "TS" in three.deck.names
    assert (partners.num_players, partners.deck.size, partners.num_sides) == (4, 52, 2)
    assert partners.side_of(2) == 0 and partners.side_of(3) == 1
    assert {(t, r, m) for t, r, m in registry.variants() if t == "horseshoes"} == {
        ("horseshoes", "horseshoes", m) for m in MODES}


def test_unknown_mode_names_the_modes():
    with pytest.raises(ValueError, match="three, four, partners"):
        make(None, "five")


def test_unknown_ruleset():
    with pytest.raises(ValueError, match="horseshoes"):
        make("oh-hell", "four")


@pytest.mark.parametrize("options", [
    {"target": 4}, {"target": 101}, {"target": 13.0}, {"target": True},
    {"breaking_trump": 1}, {"breaking_trump": "yes"}, {"leftover": "sideways"}, {"hook": True},
])
def test_bad_options_are_refused(options):
    with pytest.raises(ValueError):
        make(None, "four", options)


def test_options_have_defaults():
    assert make(None, "three").options == {"breaking_trump": False, "leftover": "dealer",
                                           "target": 13}
    assert make(None, "four", {"target": 100}).options["target"] == 100


def test_ruleset_data_lists_rules_with_sources_and_rulings():
    ruleset = RULESETS["horseshoes"]
    assert ruleset.modes == MODES and ruleset.default
    assert all(rule.source for rule in ruleset.rules)
    rulings = [rule.text for rule in ruleset.rules if rule.ruling]
    assert any("without seeing" in text for text in rulings)
    assert any("per team" in text for text in rulings)
    assert any("another hand" in text for text in rulings)
    assert [o.id for o in ruleset.options] == ["breaking_trump", "leftover", "target"]
