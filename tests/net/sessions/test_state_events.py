"""The facade's "state" event: legal lists, templates for combinatorial choices, reasons,
and how the hand was dealt."""

import pytest

from engine import make_game
from engine.bots.random_bot import RandomBot
from engine.deal import derive_seed
from engine.info import GameInfo, from_plain
from net.sessions.events import legal_for, state_event
from tests.net.session_kit import PATIENT, Table

SEED = derive_seed(b"\x07" * 32, "state-events")


def play_until(state, phase: str, bot=None):
    bot = bot or RandomBot(3)
    while state.phase != phase:
        seat = state.to_act()[0]
        state.apply(bot.choose(state, seat))
    return state


def test_rook_bury_is_one_template_not_every_combination():
    game = make_game("rook")
    state = play_until(game.deal(SEED, 0), "bury")
    bidder = state.to_act()[0]
    assert legal_for(game, state, bidder) == [{"bury": 5, "trump": ["B", "R", "G", "Y"]}]
    assert legal_for(game, state, (bidder + 1) % 4) == []


def test_reasons_name_every_held_card_that_may_not_be_played():
    game = make_game("horseshoes", mode="four")
    state = play_until(game.deal(SEED, 0), "play")
    bot = RandomBot(5)
    while True:  # to the first position where the player holds cards they may not play
        seat = state.to_act()[0]
        if state.hands[seat] != state.legal_play_mask(seat):
            break
        state.apply(bot.choose(state, seat))
    event = state_event(game, state, seat, [], [0] * 4, 1)
    legal = {d["play"] for d in event["legal"]}
    held = set(event["view"]["hand"])
    assert event["reasons"] and set(event["reasons"]) == held - legal
    assert all(reason.startswith("you must follow") for reason in event["reasons"].values())


def test_a_watcher_gets_the_public_view_and_nothing_to_do():
    game = make_game("somerset")
    state = game.deal(SEED, 0)
    event = state_event(game, state, None, [], [0, 0], 1)
    assert event["view"] == state.public_view() and event["legal"] == []
    assert "reasons" not in event


def test_somerset_kitty_discard_is_one_template():
    game = make_game("somerset", "kitty-doubled")
    state = play_until(game.deal(SEED, 0), "kitty")
    assert legal_for(game, state, state.to_act()[0]) == [{"discard": 2}]


def test_every_state_event_carries_what_the_title_says_about_itself(any_variant):
    """The app reads names, sides, deck and decisions from ``info``, never the id."""
    game = make_game(*any_variant)
    state = game.deal(SEED, 0)
    event = state_event(game, state, 0, [], [0] * game.num_sides, 1)
    assert from_plain(GameInfo, event["info"]) == game.info
    assert state_event(game, state, None, [], [0] * game.num_sides, 1)["info"] is event["info"]  # made once


@pytest.mark.parametrize("mental", [False, True], ids=["seeded", "private"])
def test_every_seat_is_told_how_the_hand_was_dealt(arun, tmp_path, mental):
    """Issue 20, item 5: the table shows the private deal; the "state" event carries it
    (the host's from its authority, a guest's from its own replica)."""
    async def main():
        table = Table(tmp_path, game="rook", hands=1, guests=2, bots=1, timings=PATIENT,
                      host_kw={"mental_deal": mental})
        await table.start()
        try:
            await table.finish(timeout=90)
        finally:
            await table.close()
        return table

    table = arun(main(), timeout=120)
    expected = "private" if mental else "seeded"
    for events in [table.host_events, *table.guest_events.values()]:
        in_hand = [e for e in events if e["type"] == "state" and e["view"].get("hand")]
        assert in_hand and {e.get("deal") for e in in_hand} == {expected}
