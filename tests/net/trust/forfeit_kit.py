"""What the trust tests check of a forfeited hand (a player's proven cheat under the
private deal: the ruling in docs/design.md, "Rulings"), on the in-process tables.

``forfeit_change`` works the forfeit's score change out from the rules text and the
ruling, on the hand's public facts alone — an oracle written apart from the engine's
``forfeit_score``; ``assert_forfeited`` checks a table after a cheat.
"""

from __future__ import annotations

from net.trust.alerts import PLAYER
from net.trust.deals.mental import log as ml

HAND_END = "hand_end"


def forfeited(table) -> bool:
    """The host has ended a hand for a player's proven cheat."""
    return any(e.kind == HAND_END and e.body.get("forfeit") for e in table.host.log)


def forfeit_change(game, view: dict, seat: int) -> list[int]:
    """The score change of a hand ``seat``'s side forfeits: Rook's innocent team counts
    180, Somerset's innocent side 24, the contract scored as bid (made by innocent
    bidders, set for cheating ones); no contract: the innocent side scores what it
    counts. Horseshoes: 13 penalty points to the cheater's side, 0 to the rest."""
    side = game.side_of(seat)
    change = [0] * game.num_sides
    if game.id == "horseshoes":
        change[side] = 13
        return change
    innocent, everything = 1 - side, {"rook": 180, "somerset": 24}[game.id]
    contract = view.get("contract")
    if contract is None:
        change[innocent] = everything
        return change
    bidding = contract["bidder"] % 2
    bid = contract.get("amount", contract.get("bid"))
    if bidding == innocent:  # made: Rook scores the contract, Somerset the 24 points it took
        change[bidding] = bid if game.id == "rook" else everything
    elif game.id == "rook":
        change[bidding], change[innocent] = -bid, everything
    elif view["scoring"] == "doubled":  # set: twice the shortfall; the defenders twice their 24
        change[bidding], change[innocent] = -2 * bid, 2 * everything
    else:  # keep, set: the bid lost; the defenders keep their 24
        change[bidding], change[innocent] = -bid, everything
    return change


def assert_forfeited(table, seat: int, rules: tuple, scores_before: list[int],
                     witnesses=None) -> dict:
    """Every honest replica (``witnesses``: those that must have proven it, by default
    every replica but the cheater's) named ``seat``'s player in an alert that does not
    stop it; the host ended the hand with a ``hand_end`` forfeiting it for that seat's
    side — no restart after the cheat, no state hash — scored as the rules say; and every
    replica holds the same scores. The hand_end's body."""
    honest = [s for s in table.replicas if s != seat] if witnesses is None else witnesses
    for replica_seat in honest:
        named = [a for s, a in table.named if s == replica_seat]
        assert named and all((a.party, a.seat) == (PLAYER, seat) and a.rule in rules for a in named), \
            (replica_seat, named, table.alerts)
        assert table.replicas[replica_seat].halted is None, table.replicas[replica_seat].halted
    log = table.host.log
    [end] = [e for e in log if e.kind == HAND_END and e.body.get("forfeit")]
    opened = max(e.seq for e in log[:end.seq] if e.kind == ml.DEAL)
    assert not [e for e in log[opened:] if e.kind == ml.RESTART and e.body["record"]["reason"] == "cheat"]
    forfeit = end.body["forfeit"]
    assert (forfeit["seat"], end.entry.state_hash) == (seat, None) and forfeit["rule"] in rules, end.body
    game = table.host.game
    side = game.side_of(seat)
    assert end.body["result"]["forfeit"] == {"seat": seat, "side": side, "rule": forfeit["rule"]}
    change = forfeit_change(game, table.host.match.last_hand.public_view(), seat)
    assert end.body["result"]["score"] == change, (end.body, change)
    scores = [s + d for s, d in zip(scores_before, change)]
    assert end.body["scores"] == scores == table.host.match.scores
    for replica in table.replicas.values():
        if replica.halted is None:
            assert replica.scores == scores
    assert [e.kind for e in log[end.seq:]] == [HAND_END, "reveal"]
    return end.body


def assert_the_next_hand_is_dealt_as_usual(table, cheater: int) -> None:
    """The next hand is dealt normally, the cheater dealt in (its own party of the deal),
    and played to its end, verified by every honest replica, with no alert — unless the
    forfeit ended the game, checked as after any hand (Horseshoes' 13 penalty points may
    reach the target): then the cheater's side has not won it."""
    match = table.host.match
    if match.is_over:
        assert match.winner != table.host.game.side_of(cheater)
        assert all(r.winner == match.winner for r in table.replicas.values() if r.halted is None)
        return
    honest = [s for s in table.replicas if s != cheater]
    verified = {s: len(table.verified[s]) for s in honest}
    table.next_hand()
    deal = table.host.deal
    key = table.ids[cheater].public_key
    assert any(p.key == key and p.seats == (cheater,) for p in deal.setup.parties), deal.setup.parties
    table.play_hand()
    assert not table.alerts, table.alerts
    assert table.host.match.last_hand.result().forfeit is None
    assert all(len(table.verified[s]) == verified[s] + 1 for s in honest)
