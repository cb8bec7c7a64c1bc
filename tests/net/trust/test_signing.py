"""Signing in the trust protocol: bound to the signer's key and to its domain, over bytes
that do not depend on key order; a secret action's digest is salted; every signer makes
an action the same way."""

import random

from engine import make_game
from net.trust.signing import (ACTION_DOMAIN, ENTRY_DOMAIN, action_forms, hidden_digest, opens,
                               read_action, seal, sign_action, signed_bytes)
from net.wire import messages as m
from net.wire.identity import Identity

ALICE = Identity.generate("Alice")
MALLORY = Identity.generate("Mallory")


def test_signatures_open_only_with_the_signers_key_and_domain():
    env = seal(ALICE, ACTION_DOMAIN, {"x": 1})
    assert opens(ALICE.public_key, ACTION_DOMAIN, env)
    assert not opens(MALLORY.public_key, ACTION_DOMAIN, env)
    assert not opens(ALICE.public_key, ENTRY_DOMAIN, env)  # no cross-use
    assert not opens(ALICE.public_key, ACTION_DOMAIN, {"body": {"x": 2}, "sig": env["sig"]})
    assert not opens(ALICE.public_key, ACTION_DOMAIN, {"body": {"x": 1.5}, "sig": env["sig"]})


def test_the_signed_bytes_do_not_depend_on_key_order():
    assert signed_bytes("d", {"a": 1, "b": 2}) == signed_bytes("d", {"b": 2, "a": 1})


def test_a_hidden_action_digest_is_salted():
    action = {"seat": 0, "discard": ["0/2", "1/4"]}
    assert hidden_digest(bytes(16), action) != hidden_digest(bytes([1]) + bytes(15), action)
    assert hidden_digest(bytes(16), action) == hidden_digest(bytes(16), dict(action))


def test_a_public_action_is_signed_as_it_is_and_sent_without_a_private_part():
    game = make_game("rook")
    action = read_action(game, {"pass": True}, 2)
    msg = sign_action(ALICE, game, action, table="t", hand=1, seen=7, head=bytes(32),
                      rng=random.Random(1).randbytes).message()
    body = msg["signed"]["body"]
    assert m.check(msg) is msg and msg["private"] is None
    assert body == {"table": "t", "hand": 1, "seen": 7, "head": bytes(32),
                    "action": {"seat": 2, "pass": True}, "hidden": None}
    assert opens(ALICE.public_key, ACTION_DOMAIN, msg["signed"])


def test_a_secret_action_is_signed_in_its_public_form_with_the_salted_digest_of_its_full_form():
    game = make_game("rook")
    bury = read_action(game, {"bury": ["Y7", "B2", "B3", "R2", "G5"], "trump": "G"}, 1)
    forms = action_forms(game, bury)
    assert forms.secret and forms.public == {"seat": 1, "bury": None, "trump": "G"}
    assert forms.full["bury"] == ["B2", "B3", "R2", "G5", "Y7"]  # deck order, as chosen or not
    msg = sign_action(ALICE, game, bury, table="t", hand=0, seen=3, head=bytes(32),
                      rng=lambda n: bytes(range(n))).message()
    assert msg["private"] == {"action": forms.full, "nonce": bytes(range(16))}
    assert msg["signed"]["body"]["action"] == forms.public
    assert msg["signed"]["body"]["hidden"] == hidden_digest(bytes(range(16)), forms.full)
