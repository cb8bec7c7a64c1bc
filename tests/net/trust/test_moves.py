"""moves.admit on its own: a player's signed move checked in order, parsed once, refused
with the reason the player is told, or let through as a harmless repeat."""

import random

import pytest

from engine import make_game
from engine.bots.random_bot import RandomBot
from net.trust.moves import ActionBody, Admitted, Binding, Refusal, admit, repeats
from net.trust.signing import ACTION_DOMAIN, hidden_digest, read_action, seal, sign_action
from net.wire import messages as m
from tests.net.trust_table import identity

PLAYER, OTHER = identity("peer1"), identity("mallory")
HASHES = {seq: bytes([seq]) * 32 for seq in range(12)}  # entry hashes of a made-up log


def binding(**change) -> Binding:
    values = {"table": "t", "hand": 0, "deal_seq": 5, "last_action": None, "next_seq": 12,
              "hash_at": HASHES.get}
    return Binding(**{**values, **change})


def rook_at(phase: str, seed: int = 3):
    game = make_game("rook")
    state, bot = game.deal(bytes(32), 0), RandomBot(seed)
    while state.phase != phase:
        state.apply(bot.choose(state, state.to_act()[0]))
    return game, state


def signed_by(signer, game, action, seen=11, table="t", hand=0):
    return sign_action(signer, game, action, table=table, hand=hand, seen=seen, head=HASHES[seen],
                       rng=random.Random(1).randbytes)


def test_an_honest_move_is_admitted_parsed_once():
    game, state = rook_at("bidding")
    seat = state.to_act()[0]
    passes = read_action(game, {"pass": True}, seat)
    move = signed_by(PLAYER, game, passes)
    parses = []
    real = game.action_from_json
    game.action_from_json = lambda data: parses.append(data) or real(data)
    admitted = admit(game, state, PLAYER.public_key, seat, move.signed, move.private, binding())
    assert admitted == Admitted(passes, {"seat": seat, "pass": True}, body=ActionBody.from_wire(move.signed["body"]))
    assert len(parses) == 1


@pytest.mark.parametrize("change, reason", [
    ({"signer": OTHER}, "not signed by your key"),
    ({"table": "elsewhere"}, "another table"),
    ({"hand": 1}, "for hand 1, this is hand 0"),
    ({"seen": 4}, "before this hand was dealt"),
    ({"seen": 11, "binding": {"next_seq": 11}}, "does not exist yet"),
    ({"seen": 7, "binding": {"last_action": 8}}, "older than your last one"),
    ({"binding": {"hash_at": lambda seq: bytes(32)}}, "saw a different entry"),
])
def test_a_move_out_of_place_is_refused_with_its_reason(change, reason):
    game, state = rook_at("bidding")
    seat = state.to_act()[0]
    move = signed_by(change.get("signer", PLAYER), game, read_action(game, {"pass": True}, seat),
                     seen=change.get("seen", 11), table=change.get("table", "t"),
                     hand=change.get("hand", 0))
    with pytest.raises(Refusal, match=reason):
        admit(game, state, PLAYER.public_key, seat, move.signed, move.private,
              binding(**change.get("binding", {})))


def test_a_secret_move_must_come_with_the_full_form_it_signed():
    game, state = rook_at("bury")
    seat = state.to_act()[0]
    bury = RandomBot(1).choose(state, seat)
    move = signed_by(PLAYER, game, bury)
    admitted = admit(game, state, PLAYER.public_key, seat, move.signed, move.private, binding())
    assert admitted.action == bury and admitted.nonce == move.nonce and admitted.full == move.forms.full
    with pytest.raises(Refusal, match="needs its private part"):
        admit(game, state, PLAYER.public_key, seat, move.signed, None, binding())
    other = {**move.private, "nonce": bytes(16)}
    with pytest.raises(Refusal, match="does not match what you signed"):
        admit(game, state, PLAYER.public_key, seat, move.signed, other, binding())


def test_only_the_canonical_spelling_is_admitted():
    game, state = rook_at("bury")
    seat = state.to_act()[0]
    full = game.action_to_json(RandomBot(1).choose(state, seat))
    full["bury"] = list(reversed(full["bury"]))  # the same cards, not in deck order
    nonce = bytes(16)
    body = m.action_body("t", 0, 11, HASHES[11], {**full, "bury": None}, hidden_digest(nonce, full))
    signed = seal(PLAYER, ACTION_DOMAIN, body)
    with pytest.raises(Refusal, match="canonical form"):
        admit(game, state, PLAYER.public_key, seat, signed, {"action": full, "nonce": nonce}, binding())


def test_a_second_got_it_is_none_and_a_forged_one_still_refused():
    game, state = rook_at("widow")
    seat = state.to_act()[0]
    ack = read_action(game, {"ack": True}, seat)
    state.apply(ack)
    assert repeats(game, state, seat, {"ack": True}) and not repeats(game, state, seat, {"pass": True})
    again = signed_by(PLAYER, game, ack, seen=3)  # made before the first was logged: stale
    assert admit(game, state, PLAYER.public_key, seat, again.signed, None, binding()) is None
    forged = signed_by(OTHER, game, ack)
    with pytest.raises(Refusal, match="not signed by your key"):
        admit(game, state, PLAYER.public_key, seat, forged.signed, None, binding())
