"""A proven cheat forfeits the hand (``State.forfeit``; the ruling in docs/design.md).

The hand ends where the cheat is proven, is not dealt again, and is scored by the
title's ``forfeit_score``: Rook and Somerset as if the innocent side had taken every
trick and every point (180, 24), any contract standing as bid; Horseshoes with the
cheater's side on the largest penalty a hand gives (13) and everyone else on 0. The
numbers below are worked out from /work/shared/rules/, not read off the engine.
"""

from __future__ import annotations

import json

import pytest

from engine import Match, make_game
from engine.bots.random_bot import RandomBot
from engine.deal import derive_seed
from engine.records import record_from_state, replay
from engine.scoring import breakdown

SEED = derive_seed(bytes(32), "forfeit-test", 0)


def dealt(title, ruleset=None, mode=None, dealer=0):
    return make_game(title, ruleset, mode).deal(SEED, dealer)


def act(state, *actions):
    """Apply hand-record actions (``{"seat": 1, "bid": 12}``) in order."""
    for data in actions:
        state.apply(state.game.action_from_json(data))
    return state


def played_out(state, seed_number=1):
    """The hand played to its end by random bots."""
    bot = RandomBot(derive_seed(SEED, "bots", seed_number))
    while not state.is_over:
        state.apply(bot.choose(state, state.to_act()[0]))
    return state


def scored(state, seat, rule="illegal-action"):
    events = state.forfeit(seat, rule)
    result = state.result()
    assert state.is_over and state.to_act() == () and state.legal_actions(seat) == []
    assert [dict(e) for e in events] == [{"type": "forfeit", "seat": seat, "side": result.forfeit.side,
                                          "rule": rule, "score": list(result.score)}]
    return result


# -- Rook: 180 points to the innocent team; the contract as bid ---------------------------------
def rook_contract_by_seat_1(amount=100):
    """Dealer 0: seat 1 bids, the others pass; team B (seats 1, 3) holds the contract."""
    return act(dealt("rook"), {"seat": 1, "bid": amount}, {"seat": 2, "pass": True},
               {"seat": 3, "pass": True}, {"seat": 0, "pass": True})


def test_rook_a_cheating_bidding_team_is_set_and_the_other_team_scores_180():
    result = scored(rook_contract_by_seat_1(115), 3)
    assert (result.taken, result.made, result.score) == ((180, 0), False, (180, -115))


def test_rook_an_innocent_bidding_team_makes_its_contract_and_the_cheaters_score_0():
    state = act(rook_contract_by_seat_1(115), {"seat": 1, "raise": 140})
    result = scored(state, 2)
    assert (result.taken, result.made, result.score) == ((0, 180), True, (0, 140))


def test_rook_before_the_contract_the_innocent_team_scores_180():
    result = scored(act(dealt("rook"), {"seat": 1, "bid": 100}), 0, "share")
    assert (result.taken, result.made, result.score) == ((0, 180), None, (0, 180))
    result = scored(dealt("rook"), 1, "redeal-claim")  # in the deal itself
    assert (result.taken, result.made, result.score) == ((180, 0), None, (180, 0))


def test_rook_a_hand_played_out_and_then_forfeited_is_scored_as_the_forfeit():
    """Under the private deal a revoke is proven only at the reveal: the score the hand
    made is replaced, and the buried cards stay hidden (the forfeit did not count them)."""
    state = played_out(rook_contract_by_seat_1())
    assert state.public_view()["buried"] is not None  # a hand scored by its rules shows them
    result = scored(state, 1)
    assert (result.taken, result.made, result.score) == ((180, 0), False, (180, -state.contract))
    view = state.public_view()
    assert view["buried"] is None and view["result"]["forfeit"] == {"seat": 1, "side": 1,
                                                                    "rule": "illegal-action"}
    assert state.hidden_from(0) & state.buried == state.buried & ~state.widow  # (the widow was shown)


# -- Somerset: 24 points to the innocent side; the ruleset's scoring of the bid ------------------
def somerset_bid_by_seat_1(ruleset, bid=12):
    """Dealer 0: seat 1 bids, the three others pass; side 1 (seats 1, 3) bid ``bid``."""
    return act(dealt("somerset", ruleset), {"seat": 1, "bid": bid}, {"seat": 2, "pass": True},
               {"seat": 3, "pass": True}, {"seat": 0, "pass": True})


@pytest.mark.parametrize("ruleset, cheater, score", [
    # doubled, set: the bidders lose 2 × (14 − 0), the defenders bank 2 × 24
    ("kitty-doubled", 3, (48, -28)), ("widow-doubled", 1, (48, -28)),
    # doubled, made: the bidders score all 24 they took, the defenders nothing
    ("kitty-doubled", 0, (0, 24)), ("widow-doubled", 2, (0, 24)),
    # keep, set: the bidders lose their bid, the defenders keep their 24
    ("kitty-keep", 1, (24, -14)), ("widow-keep", 3, (24, -14)),
    # keep, made: both keep what they took (24 and 0)
    ("kitty-keep", 2, (0, 24)), ("widow-keep", 0, (0, 24)),
])
def test_somerset_the_rulesets_own_scoring_applies_to_the_bid(ruleset, cheater, score):
    result = scored(somerset_bid_by_seat_1(ruleset, 14), cheater)
    cheaters = cheater % 2
    assert result.taken == ((0, 24) if cheaters == 0 else (24, 0))
    assert (result.made, result.score) == (cheaters == 0, score)


@pytest.mark.parametrize("ruleset", ["kitty-doubled", "kitty-keep", "widow-doubled", "widow-keep"])
def test_somerset_before_the_auction_ends_the_innocent_side_scores_its_24(ruleset):
    """With no contract nobody is set, so nothing is doubled: the innocent side scores the
    24 points it is counted as taking, under either scoring; a bid standing is no contract."""
    state = act(dealt("somerset", ruleset), {"seat": 1, "bid": 15})
    result = scored(state, 1)
    assert (result.taken, result.made, result.score) == ((24, 0), None, (24, 0))


def test_somerset_a_forfeit_never_lets_the_cheaters_go_out():
    """The game's end is checked as after any hand; only the innocent side can gain."""
    game = make_game("somerset", "kitty-doubled")
    match = Match(game, SEED, dealer=0)
    match.scores = [60, 60]
    state = match.start_hand()
    act(state, {"seat": 1, "bid": 12}, {"seat": 2, "pass": True}, {"seat": 3, "pass": True},
        {"seat": 0, "pass": True})
    state.forfeit(1, "illegal-action")
    match.finish_hand()
    assert match.scores == [108, 36] and match.winner == 0


# -- Horseshoes: the cheater's side on 13, everyone else on 0 -------------------------------------
@pytest.mark.parametrize("mode, cheater, score", [
    ("three", 2, (0, 0, 13)), ("four", 1, (0, 13, 0, 0)), ("partners", 3, (0, 13)),
])
def test_horseshoes_the_cheater_scores_13_and_the_others_0_before_any_bid(mode, cheater, score):
    state = dealt("horseshoes", "horseshoes", mode)
    if state.phase == "leftover":
        act(state, {"seat": state.dealer, "leftover": "down"})
    result = scored(state, cheater)
    assert (result.made, result.score) == (None, score)


@pytest.mark.parametrize("mode, cheater, score", [
    ("three", 0, (13, 0, 0)), ("four", 3, (0, 0, 0, 13)), ("partners", 2, (13, 0)),
])
def test_horseshoes_with_every_bid_in_everyone_exact_does_not_apply(mode, cheater, score):
    """Bids that every side meets exactly (nothing taken yet, every bid 0) would score 3
    each at the hand's end; a forfeit scores 13 and 0s, whatever the bids."""
    state = dealt("horseshoes", "horseshoes", mode)
    if state.phase == "leftover":
        act(state, {"seat": state.dealer, "leftover": "up"})
    while state.phase == "bidding":
        seat = state.to_act()[0]
        act(state, {"seat": seat, "bid": 0, **({"trump": "NT"} if not state.bids or
                                                all(b is None for b in state.bids) else {})})
    assert state.phase == "play"
    result = scored(state, cheater)
    assert result.score == score and result.taken == (0,) * len(score)


def test_horseshoes_three_a_forfeited_hand_keeps_its_face_down_card_hidden():
    state = dealt("horseshoes", "horseshoes", "three")
    act(state, {"seat": state.dealer, "leftover": "down"})
    played_out(state)
    assert state.public_view()["leftover"]["card"] is not None  # shown at a hand's end
    scored(state, 1)
    assert state.public_view()["leftover"]["card"] is None


# -- every title ----------------------------------------------------------------------------------
def test_only_the_first_proven_cheat_decides_and_a_seat_must_be_one(any_variant):
    state = make_game(*any_variant).deal(SEED, 0)
    with pytest.raises(ValueError):
        state.forfeit(state.game.num_players, "share")
    with pytest.raises(ValueError):
        state.forfeit(True, "share")
    first = scored(state, 1, "share")
    with pytest.raises(ValueError):
        state.forfeit(0, "illegal-action")
    assert state.result() == first


def test_a_forfeit_is_banked_and_the_next_hand_is_dealt_as_usual(any_variant):
    """The match goes on: the score banked, the deal passes left, the next hand dealt
    normally (the cheater dealt in)."""
    game = make_game(*any_variant)
    match = Match(game, SEED, dealer=0)
    state = match.start_hand()
    if state.phase == "leftover":
        act(state, {"seat": state.dealer, "leftover": "up"})
    state.forfeit(1, "illegal-action")
    result = match.finish_hand()
    assert match.scores == list(result.score) and result.forfeit.seat == 1
    assert (match.hand_number, match.dealer) == (1, 1)
    if match.is_over:  # the game's end checked as after any hand (Horseshoes: 13 reaches the target)
        assert match.winner != result.forfeit.side
        return
    nxt = match.start_hand()
    assert not nxt.is_over and nxt.hands[1] and nxt.to_act()


def test_the_breakdown_of_a_forfeit_names_it_and_shows_no_card(any_variant):
    state = played_out(make_game(*any_variant).deal(SEED, 0))
    state.forfeit(0, "illegal-action")
    out = breakdown(state)
    assert out["forfeit"] == {"seat": 0, "side": 0, "rule": "illegal-action"} and out["cards"] == []
    assert sum(t["points"] for t in out["terms"] if t["side"] == 0) == state.result().score[0]
    assert all("forfeit" in t["words"] or t["words"] for t in out["terms"])


def test_a_forfeited_hand_round_trips_through_its_record(any_variant):
    """The record says the hand was forfeited, and replays to the same result."""
    state = make_game(*any_variant).deal(SEED, 1)
    bot = RandomBot(derive_seed(SEED, "round-trip"))
    for _ in range(9):
        state.apply(bot.choose(state, state.to_act()[0]))
    state.forfeit(2, "not-held")
    record = json.loads(json.dumps(record_from_state(state)))
    assert record["forfeit"] == {"seat": 2, "rule": "not-held"}
    out = replay(record)
    result = state.result()
    assert out["forfeit"] == {"seat": 2, "side": result.forfeit.side, "rule": "not-held"}
    assert (out["taken"], out["made"], out["score"], out["error"]) == \
        (list(result.taken), result.made, list(result.score), None)


def test_a_hand_not_forfeited_has_no_forfeit_in_its_view_record_or_replay(any_variant):
    """Every other hand reads, hashes and replays exactly as before."""
    state = played_out(make_game(*any_variant).deal(SEED, 2))
    assert "forfeit" not in state.public_view()["result"]
    record = record_from_state(state)
    assert "forfeit" not in record and "forfeit" not in replay(record)
