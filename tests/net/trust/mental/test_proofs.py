"""Schnorr and (batched) Chaum–Pedersen proofs: they check out, and only in their place."""

import pytest

from net.trust.deals.mental.group import G, Point, Scalar, base_mul
from net.trust.deals.mental.proofs import prove_dleq, prove_key, verify_dleq, verify_key

X_SECRET = Scalar.from_hash(b"test", b"x")
X = base_mul(X_SECRET)
BASES = [base_mul(Scalar.from_hash(b"test", bytes([i]))) for i in range(6)]
SHARES = [X_SECRET * c for c in BASES]


def test_key_proof_checks_only_for_its_key_and_context():
    proof = prove_key(X_SECRET, X, b"ctx", b"nonce key")
    assert verify_key(X, proof, b"ctx")
    assert not verify_key(X, proof, b"other ctx")
    assert not verify_key(base_mul(Scalar.from_hash(b"test", b"y")), proof, b"ctx")
    assert not verify_key(X, proof[:32] + bytes(32), b"ctx")
    assert not verify_key(X, b"short", b"ctx")


def test_a_rogue_key_has_no_proof():
    """X' = Y − X (chosen to cancel an honest X) has no known secret, so a proof made
    with any secret the attacker does know fails."""
    y = Scalar.from_hash(b"test", b"y")
    rogue = base_mul(y) - X
    assert not verify_key(rogue, prove_key(y, rogue, b"ctx", b"k"), b"ctx")


@pytest.mark.parametrize("n", [1, 2, 6])
def test_dleq_batches_check_out(n):
    proof = prove_dleq(X_SECRET, X, BASES[:n], SHARES[:n], b"ctx", b"k")
    assert verify_dleq(X, BASES[:n], SHARES[:n], proof, b"ctx")
    assert not verify_dleq(X, BASES[:n], SHARES[:n], proof, b"ctx2")


@pytest.mark.parametrize("wrong", range(6))
def test_one_wrong_share_in_a_batch_fails_it(wrong):
    shares = list(SHARES)
    shares[wrong] = shares[wrong] + G
    proof = prove_dleq(X_SECRET, X, BASES, SHARES, b"ctx", b"k")
    assert not verify_dleq(X, BASES, shares, proof, b"ctx")


def test_two_errors_that_cancel_in_a_plain_sum_still_fail():
    shares = list(SHARES)
    shares[0], shares[1] = shares[0] + G, shares[1] - G
    # a dishonest prover knows x, so it can prove for the sum the weights give
    proof = prove_dleq(X_SECRET, X, BASES, shares, b"ctx", b"k")
    assert not verify_dleq(X, BASES, shares, proof, b"ctx")


def test_shares_under_another_secret_fail():
    other = Scalar.from_hash(b"test", b"other")
    shares = [other * c for c in BASES]
    proof = prove_dleq(other, X, BASES, shares, b"ctx", b"k")
    assert not verify_dleq(X, BASES, shares, proof, b"ctx")


def test_proofs_are_deterministic():
    assert prove_dleq(X_SECRET, X, BASES, SHARES, b"c", b"k") == \
        prove_dleq(X_SECRET, X, BASES, SHARES, b"c", b"k")
    assert prove_key(X_SECRET, X, b"c", b"k") != prove_key(X_SECRET, X, b"c", b"k2")


def test_mismatched_lengths_and_nothing_fail():
    proof = prove_dleq(X_SECRET, X, BASES, SHARES, b"ctx", b"k")
    assert not verify_dleq(X, BASES, SHARES[:-1], proof, b"ctx")
    assert not verify_dleq(X, [], [], proof, b"ctx")
    assert not verify_dleq(X, BASES, SHARES, "nope", b"ctx")
    assert isinstance(X, Point)
