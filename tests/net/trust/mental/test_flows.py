"""The engine's hidden-information moments, as the deal steps every client takes
(``net.trust.deals.mental.flows``); whole hands through them are in test_machine.py."""

from engine import Action
from engine.registry import title
from net.trust.deals.mental import flows


def game(name, ruleset, mode=None, options=None):
    return title(name).make(ruleset, mode, options)


def dealt(g, dealer=0):
    return g.deal(bytes(32), dealer)


def test_a_spare_face_up_from_the_deal_is_opened_to_all_at_once():
    for g in (game("somerset", "widow-keep"),
              game("horseshoes", "horseshoes", "three", {"leftover": "up"})):
        assert flows.at_deal(g, dealt(g)) == [flows.OpenToAll()]
    for g in (game("somerset", "kitty-keep"), game("rook", "rook"),
              game("horseshoes", "horseshoes", "three", {"leftover": "down"}),
              game("horseshoes", "horseshoes", "three", {"leftover": "dealer"}),
              game("horseshoes", "horseshoes", "four")):
        assert flows.at_deal(g, dealt(g)) == []


def test_the_dealer_turning_the_left_over_card_up_opens_it():
    g = game("horseshoes", "horseshoes", "three", {"leftover": "dealer"})
    up, down = dealt(g), dealt(g)
    events = up.apply(Action(0, "leftover", "up"))
    assert flows.after(g, up, events, opened=False) == [flows.OpenToAll()]
    assert flows.after(g, up, [], opened=True) == []
    events = down.apply(Action(0, "leftover", "down"))
    assert flows.after(g, down, events, opened=False) == []


def test_events_that_move_the_spare():
    g = game("rook", "rook")
    state = dealt(g)
    assert flows.after(g, state, [{"type": "take_widow", "seat": 2}], True) == [flows.Give(2)]
    assert flows.after(g, state, [{"type": "kitty_taken", "seat": 1}], True) == [flows.OpenTo(1)]
    assert flows.after(g, state, [{"type": "hand_over", "score": [0, 0]}], True) == [flows.Finish()]
    assert flows.after(g, state, [{"type": "thrown_in"}], True) == [flows.Finish()]


def test_a_players_own_step():
    assert flows.by_player(Action(1, "play", 7)) == flows.PlayCard(1, 7)
    assert flows.by_player(Action(1, "bury", (3, 4, 5, 6, 8), "G")) == \
        flows.Commit(1, "bury", (3, 4, 5, 6, 8))
    assert flows.by_player(Action(1, "discard", (3, 4))) == flows.Commit(1, "discard", (3, 4))
    assert flows.by_player(Action(1, "pass", None)) is None
