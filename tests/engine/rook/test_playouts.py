"""Whole hands and whole games by random legal play, what each seat may see, and the
ruleset as data."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.bots.random_bot import RandomBot
from engine.deal import derive_seed
from engine.match import Match
from engine.records import record_from_state, replay
from engine.registry import make_game, rulesets
from engine.rook import RULESETS, make
from engine.rook.rules import POINTS
from rook_helpers import DECK, GAME, names

TABLE = b"rook-playouts".ljust(32, b".")


def random_hand(number: int, watch=None):
    """Deal hand ``number`` and play it with a random bot; ``watch(state)`` after each action."""
    state = GAME.deal(derive_seed(TABLE, "hand", number), number % 4)
    bot = RandomBot(number)
    while not state.is_over:
        seats = state.to_act()
        seat = seats[0] if len(seats) == 1 else bot.rng.choice(seats)
        state.apply(bot.choose(state, seat))
        if watch:
            watch(state)
    return state


@pytest.mark.parametrize("number", range(120))
def test_random_hands_conserve_180_points_over_13_tricks(number):
    state = random_hand(number)
    result = state.result()
    assert len(result.tricks) == 13
    assert all(len(t.cards) == 4 for t in result.tricks)
    assert sum(result.taken) == 180
    bidding = state.bidder % 2
    assert result.made == (result.taken[bidding] >= state.contract)
    assert result.score[bidding] == (state.contract if result.made else -state.contract)
    assert result.score[1 - bidding] == result.taken[1 - bidding]
    played = [c for t in result.tricks for _, c in t.cards]
    assert len(set(played)) == 52 and not set(played) & set(_cards(state.buried))


def _cards(mask: int) -> list[int]:
    return [c for c in range(DECK.size) if mask >> c & 1]


def test_the_same_seed_and_actions_give_the_same_states():
    first, second = random_hand(7), random_hand(7)
    assert first.history == second.history
    assert first.state_hash() == second.state_hash()
    assert first.result() == second.result()


def test_a_clone_does_not_share_play_with_its_original():
    state = GAME.deal(derive_seed(TABLE, "hand", 1), 0)
    copy = state.clone()
    bot = RandomBot(3)
    while not copy.is_over:
        copy.apply(bot.choose(copy, copy.to_act()[0]))
    assert state.phase == "bidding" and not state.history
    assert sum(h.bit_count() for h in state.hands) == 52


@pytest.mark.parametrize("number", range(6))
def test_a_replayed_record_of_a_random_hand_gives_the_same_result(number):
    state = random_hand(number)
    out = replay(record_from_state(state))
    result = state.result()
    assert out["error"] is None
    assert (out["taken"], out["made"], out["score"]) == (list(result.taken), result.made, list(result.score))


class QuietBidder(RandomBot):
    """Random play, but always passes and keeps: fully random bidders overbid and sink
    both scores for ever, so the game would never reach 500."""

    def choose(self, state, seat):
        if state.phase == "bidding":
            return Action(seat, "pass")
        if state.phase == "raise":
            return Action(seat, "raise", None)
        return super().choose(state, seat)


@pytest.mark.parametrize("number", range(3))
def test_a_match_is_played_to_500(number):
    match = Match(GAME, derive_seed(TABLE, "match", number))
    bot = QuietBidder(number)
    dealers = []
    while not match.is_over and len(match.results) < 100:
        state = match.start_hand()
        dealers.append(state.dealer)
        while not state.is_over:
            seats = state.to_act()
            state.apply(bot.choose(state, seats[0] if len(seats) == 1 else bot.rng.choice(seats)))
        match.finish_hand()
        assert match.scores == [sum(r.score[side] for r in match.results) for side in (0, 1)]
    winner = match.winner
    assert winner is not None
    assert match.scores[winner] >= 500 and match.scores[winner] > match.scores[1 - winner]
    running = [0, 0]
    for result in match.results[:-1]:  # no earlier hand decided the game
        running = [a + b for a, b in zip(running, result.score)]
        assert GAME.match_winner(running, result) is None
    assert all((b - a) % 4 == 1 for a, b in zip(dealers, dealers[1:]))  # the deal passes left
    with pytest.raises(RuntimeError):
        match.start_hand()


def view_strings(value) -> set[str]:
    """Every string anywhere inside a view (card names are whole strings)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(view_strings(v) for v in value.values()), set())
    if isinstance(value, (list, tuple)):
        return set().union(*(view_strings(v) for v in value), set())
    return set()


@pytest.mark.parametrize("number", range(4))
def test_no_view_shows_a_card_hidden_from_its_seat(number):
    def watch(state):
        for seat in range(4):
            hidden = names(state.hidden_from(seat))
            assert not hidden & view_strings(state.view(seat)), (state.phase, seat)
    random_hand(number, watch)


def test_hidden_cards_follow_the_hand():
    state = GAME.deal(derive_seed(TABLE, "hand", 11), 0)
    widow = set(state.spare)
    assert {c for c in _cards(state.hidden_from(0))} >= widow  # face down
    assert state.public_view()["widow"] is None
    bot = RandomBot(5)
    while state.phase != "play":
        seats = state.to_act()
        state.apply(bot.choose(state, seats[0]))
    bidder = state.bidder
    other = (bidder + 1) % 4
    assert state.public_view()["widow"] == [DECK.name(c) for c in sorted(widow)]
    assert state.hidden_from(other) & state.buried == state.buried & ~DECK.mask(widow)
    assert state.hidden_from(bidder) & state.buried == 0
    assert state.public_view()["buried"] is None
    assert state.view(other)["buried"] is None
    assert set(state.view(bidder)["buried"]) == names(state.buried)
    assert state.public_view()["trump"] == state.trump
    while not state.is_over:
        state.apply(bot.choose(state, state.to_act()[0]))
    assert set(state.public_view()["buried"]) == names(state.buried)
    assert all(state.hidden_from(s) == 0 for s in range(4))


def test_the_public_view_records_the_auction_raise_widow_and_acks():
    state = GAME.deal(derive_seed(TABLE, "hand", 2), 3)
    state.apply(Action(0, "bid", 100))
    state.apply(Action(1, "bid", 110))
    for seat in (2, 3, 0):
        state.apply(Action(seat, "pass"))
    state.apply(Action(1, "raise", 130))
    state.apply(Action(2, "ack"))
    view = state.public_view()
    assert view["bids"] == [[0, 100], [1, 110]]
    assert view["passed"] == [0, 2, 3]
    assert view["contract"] == {"bidder": 1, "amount": 130, "stuck": False}
    assert view["raise"] == {"from": 110, "to": 130}
    assert view["acks"] == [2] and view["to_act"] == [0, 1, 3]
    assert len(view["widow"]) == 5


def test_legal_buries_enumerate_every_choice_once():
    state = GAME.deal(derive_seed(TABLE, "hand", 3), 0)
    bot = RandomBot(2)
    while state.phase != "bury":
        state.apply(bot.choose(state, state.to_act()[0]))
    buries = state.legal_actions(state.bidder)
    assert len(buries) == len(set(buries)) == 8568 * 4
    assert all(len(a.value) == 5 and list(a.value) == sorted(a.value) for a in buries[:50])
    held = state.hands[state.bidder]
    assert all(DECK.mask(a.value) & held == DECK.mask(a.value) for a in buries[::997])
    state.check(buries[-1])
    sampled = state.sample_action(state.bidder, bot.rng)
    assert sampled in set(buries)
    assert state.sample_action((state.bidder + 1) % 4, bot.rng) is None


def test_points_total_180_and_ranks_run_1_14_down_to_2():
    assert sum(POINTS) == 180 and DECK.size == 57
    assert DECK.points_of[DECK.parse("ROOK")] == 20
    red = sorted((c for c in range(DECK.size) if DECK.suit_of[c] == "R"), key=lambda c: -DECK.rank_of[c])
    assert [DECK.name(c) for c in red[:3]] == ["R1", "R14", "R13"] and DECK.name(red[-1]) == "R2"


def test_the_ruleset_is_data_with_a_source_for_every_rule():
    ruleset = RULESETS["rook"]
    assert rulesets("rook") is RULESETS and ruleset.default
    assert all(rule.source and rule.text for rule in ruleset.rules)
    rulings = {rule.topic for rule in ruleset.rules if rule.ruling}
    assert {"Redeal", "The Rook", "Must trump", "Scoring"} <= rulings
    assert ruleset.options == ()
    table = {opt["id"]: opt for opt in ruleset.extra["table_options"]}
    assert set(table) == {"live_scores", "game_log"}
    assert all(not opt["default"] and opt["help"] for opt in table.values())


def test_make_accepts_only_the_rook_ruleset_and_no_mode():
    assert make_game("rook").key() == {"game": "rook", "ruleset": "rook", "mode": None, "options": {}}
    with pytest.raises(ValueError, match="choose one of rook"):
        make("kentucky")
    with pytest.raises(ValueError, match="no modes"):
        make(None, "four")
    with pytest.raises(ValueError, match="unknown option"):
        make(None, None, {"live_scores": True})  # display-only: not an engine option
