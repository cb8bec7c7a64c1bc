"""A hand a player's proven cheat forfeits, as the window shows it (issue 27, item 3).

The alert that names the player says, in plain words, what their computer did and that
their side forfeits the hand, and that the game goes on; the game log keeps the line;
the hand summary says it again over the forfeit's scores and arithmetic. The events are
the sessions' own (``net.sessions.events``: ``named_event``, ``hand_over_events``) over
an engine hand really forfeited (``State.forfeit``); tests/net/sessions/test_mental_session.py
drives the sessions that send them.
"""

from __future__ import annotations

from fit_scenes import LONG_NAMES, settle, sit_at

from net.sessions.events import hand_breakdown, hand_over_events, named_event, state_event
from net.trust.log import result_dict

CHEATER = 2  # your partner, at Rook (seats 0 and 2 are Team A)
NAME = LONG_NAMES[CHEATER]


def forfeited_at(window, settings: dict, until, cheater: int, rule: str):
    """The table at ``until``, then ``cheater``'s proven cheat as a session reports it: the
    alert naming the player, the hand forfeited, its summary."""
    bridge, game, state = sit_at(window, settings, until)
    detail = f"entry 40: seat {cheater}: you must follow Red (seen once every card was revealed) " \
             "— that player's side forfeits the hand; it is not dealt again"
    bridge.deliver(named_event({"type": "alert", "seat": cheater, "rule": rule, "detail": detail,
                                "evidence_path": "/tmp/evidence/alert-40.json"}, forfeits=True))
    settle()
    before = [0] * game.num_sides
    state.forfeit(cheater, rule)
    result = state.result()
    bridge.deliver(state_event(game, state, 0, [], before, 3))
    for event in hand_over_events(result_dict(result), list(result.score), 3, None, hand_breakdown(state)):
        bridge.deliver(event)
    settle()
    window.table.release_hold()
    settle()
    return window.table, state


def test_a_revoke_forfeits_the_hand_and_every_part_of_the_table_says_so(qtbot, window):
    table, state = forfeited_at(window, {"game": "rook"}, lambda s: s.phase == "play" and s.trick,
                                CHEATER, "illegal-action")
    said = (f"{NAME}'s computer played a card it was not allowed to (a revoke): {NAME}'s team "
            "forfeits the hand.")
    # the alert: a cheat the game goes on after, in words — not a table that stopped
    assert table.banner.text.text() == f"\u26a0 {said} The game goes on."
    assert "Integrity alert" not in table.banner.text.text()
    assert "seen once every card was revealed" in table.banner.details.text()
    assert f"Hand 3 forfeited: {said}" in table.log_list.lines()
    # the summary: whose cheat, why, and the forfeit's scores
    summary = table.summary.summary
    assert table.summary.isVisible()
    assert summary.headline.text() == f"{said} It is not dealt again; it is scored as the rules say " \
                                      "for a forfeit."
    bidder, contract = state.bidder_and_contract()
    arithmetic = summary.arithmetic.text()
    if bidder % 2 == 0:  # Team A bid, and cheated: set
        assert f"Bid {contract}, took 0: forfeit — the bidding team cheated and is set" in arithmetic
        assert state.result().score == (-contract, 180)
    else:
        assert f"Bid {contract}, took 180: forfeit by the other team — the bidding team makes" in arithmetic
        assert state.result().score == (0, contract)
    cells = [summary.table.itemAt(i).widget().text() for i in range(summary.table.count())]
    assert "180" in cells and not summary.hidden_cards.isVisible()  # nothing hidden is shown


def test_alone_at_horseshoes_the_player_forfeits_and_takes_the_largest_penalty(qtbot, window):
    table, state = forfeited_at(window, {"game": "horseshoes", "mode": "three"},
                                lambda s: s.phase == "play", 1, "false-alarm")
    name = LONG_NAMES[1]
    said = f"{name}'s computer raised a false alarm about the deal: {name} forfeits the hand."
    assert table.banner.text.text() == f"\u26a0 {said} The game goes on."
    assert table.summary.summary.headline.text().startswith(said)
    assert state.result().score == (0, 13, 0)
    assert "forfeit — the largest penalty a hand can give" in table.summary.summary.arithmetic.text()
