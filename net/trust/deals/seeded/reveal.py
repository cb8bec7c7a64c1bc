"""The reveal, as a peer checks it: the whole hand again, with every card known.

When a hand ends the host reveals its secret and every secret move. A peer then checks
what it could not before: the commitment is opened by the secret (``DealRound``), the
seed re-deals this seat's hand exactly as it was sent and the deal entry's state; each
secret move matches the digest its player signed and its public form; every move is
legal on the real deal (a revoke, a card not held) and makes its entry's signed state
hash; and the hand's result, the running scores and the winner are what the replay
gives. ``verify_hand`` returns the replayed hand, or raises a Violation naming the
first fault.

Pure functions: the game, the round, the checked hand and the reveal in.
"""

from __future__ import annotations

from engine import IllegalAction, RecordError
from engine.records import record_from_state

from net.trust.deals.seeded import fairdeal
from net.trust.alerts import HOST, PLAYER, Violation
from net.trust.entries import RevealBody
from net.trust.log import result_dict
from net.trust.replay.shadow import CheckedHand, Step
from net.trust.signing import hidden_digest


def verify_hand(game, rnd: fairdeal.DealRound, hand: CheckedHand, reveal: RevealBody,
                scores: list[int], host_seat: int | None):
    """Replay the hand with every card known (``scores``: the running scores before it);
    the final state, or a Violation naming the first fault."""
    if reveal.secret is None:
        raise Violation(HOST, host_seat, "commitment", "the reveal does not give the hand's secret")
    state = game.deal(fairdeal.seed(rnd.table, rnd.hand, reveal.secret, rnd.contributions),
                      rnd.dealer)
    if hand.me is not None and frozenset(state.dealt[hand.me]) != hand.my_hand:
        raise Violation(HOST, host_seat, "deal", "the hand I was dealt is not the one the "
                        "commitment and the contributions give")
    if state.state_hash() != hand.deal_hash:
        raise Violation(HOST, host_seat, "deal", "the deal entry's state is not the deal the seed gives")
    known = hand.dealt_shadow.known_spare
    if known and not known <= frozenset(state.spare):
        raise Violation(HOST, host_seat, "deal", "the spare cards I was given are not the ones dealt")
    secrets = revealed_actions(game, reveal, hand.steps, host_seat)
    for step in hand.steps:
        full = secrets.get(step.seq, step.body.action)
        seat = full.get("seat")
        try:
            state.apply(game.action_from_json(full))
        except (IllegalAction, RecordError) as exc:
            raise Violation(PLAYER, seat, "illegal-action",
                            f"entry {step.seq}: seat {seat}: {exc} (the host accepted it)") from None
        if state.state_hash() != step.state_hash:
            raise Violation(HOST, host_seat, "state-hash",
                            f"entry {step.seq}: the signed state hash is not the replayed state's")
    result = state.result()
    end = hand.end
    assert end is not None  # verified at the reveal, once the hand ended
    scores = [s + d for s, d in zip(scores, result.score)] if result else []  # none: refused below
    if result is None or end.result != result_dict(result) or end.scores != scores \
            or end.winner != game.match_winner(scores, result):
        raise Violation(HOST, host_seat, "score", f"hand {rnd.hand}: the host's result {end.result} "
                        f"and scores {end.scores} are not what the replay gives")
    return state


def revealed_actions(game, reveal: RevealBody, steps: tuple[Step, ...], host_seat: int | None) -> dict:
    """Secret moves by seq, each checked against the digest its player signed."""
    hidden = {step.seq: step.body for step in steps if step.body.hidden is not None}
    out = {}
    items = reveal.hidden
    if not isinstance(items, list):
        raise Violation(HOST, host_seat, "hidden-action", "the reveal lists no secret actions")
    for item in items:
        seq = item.get("seq") if isinstance(item, dict) else None
        if seq not in hidden or seq in out:
            raise Violation(HOST, host_seat, "hidden-action", f"the reveal names entry {seq}, "
                            "which holds no secret action")
        body = hidden[seq]
        action, nonce = item.get("action"), item.get("nonce")
        if not isinstance(nonce, bytes) or not isinstance(action, dict) \
                or hidden_digest(nonce, action) != body.hidden:
            raise Violation(HOST, host_seat, "hidden-action",
                            f"entry {seq}: the revealed action is not the one its player signed")
        try:
            public = game.action_to_json(game.action_from_json(action), public=True)
        except (RecordError, TypeError, ValueError):
            public = None
        if public != body.action:
            raise Violation(HOST, host_seat, "hidden-action",
                            f"entry {seq}: the revealed action does not match its public form")
        out[seq] = action
    missing = sorted(set(hidden) - set(out))
    if missing:
        raise Violation(HOST, host_seat, "hidden-action", f"the reveal leaves out entries {missing}")
    return out


def verified(reveal: RevealBody, hand: CheckedHand, state) -> dict:
    """What a peer reports of a hand verified at its reveal (``ReplicaOut.verified``):
    the result, the scores, the record of the hand, the entries it deferred to now."""
    end = hand.end
    assert end is not None  # verified at the reveal, once the hand ended
    return {"hand": reveal.hand, "result": end.result, "scores": list(end.scores),
            "winner": end.winner, "record": record_from_state(state),
            "deferred": list(hand.deferred)}
