"""A party's secrets for a deal come from its identity key, the table, hand and attempt."""

import pytest

from net.trust.deals.mental.errors import MentalError
from net.trust.deals.mental.group import base_mul
from net.trust.deals.mental.keys import DealContext, PartySecrets
from net.wire.identity import Identity, load_identity

CONTEXT = DealContext("3f9a07c2b1d4e608-0a1b2c3d", hand=4, attempt=0)


def test_a_restarted_client_derives_the_same_secrets(tmp_path):
    first = PartySecrets.derive(load_identity(tmp_path), CONTEXT)
    again = PartySecrets.derive(load_identity(tmp_path), CONTEXT)  # the key, read afresh
    assert (again.signature, again.x, again.key, again.shuffle_seed, again.nonce_key) == \
        (first.signature, first.x, first.key, first.shuffle_seed, first.nonce_key)
    assert first.key == base_mul(first.x)


@pytest.mark.parametrize("other", [DealContext(CONTEXT.table, 5, 0), DealContext(CONTEXT.table, 4, 1),
                                   DealContext("another-table", 4, 0)])
def test_every_deal_has_its_own_secrets(other):
    me = Identity.generate()
    a, b = PartySecrets.derive(me, CONTEXT), PartySecrets.derive(me, other)
    assert a.x != b.x and a.shuffle_seed != b.shuffle_seed and a.nonce_key != b.nonce_key


def test_a_revealed_secret_is_checked_against_the_identity_key():
    me, someone = Identity.generate(), Identity.generate()
    mine = PartySecrets.derive(me, CONTEXT)
    assert PartySecrets.revealed(me.public_key, CONTEXT, mine.signature).x == mine.x
    with pytest.raises(MentalError, match="not this party's"):
        PartySecrets.revealed(someone.public_key, CONTEXT, mine.signature)
    with pytest.raises(MentalError):
        PartySecrets.revealed(me.public_key, CONTEXT.next_attempt(), mine.signature)
    with pytest.raises(MentalError):
        PartySecrets.revealed(me.public_key, CONTEXT, b"short")


def test_the_signed_bytes_are_domain_separated():
    signed = CONTEXT.signed_bytes()
    assert b"parlour-mental-secret/1" in signed
    assert CONTEXT.transcript("key", party=0) != CONTEXT.transcript("key", party=1)
    assert CONTEXT.transcript("play", party=0) != CONTEXT.transcript("key", party=0)
