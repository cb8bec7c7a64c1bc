"""The shuffle's proof (``shuffle_proof``): an honest shuffle always verifies, and nothing
else does — a ciphertext copied, replaced or combined, outputs swapped, a proof made for
another input deck, key or deal, any byte changed, bytes that are not a point."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from net.trust.deals.mental import deck as decks
from net.trust.deals.mental import shuffle_proof as sp
from net.trust.deals.mental.errors import GroupError
from net.trust.deals.mental.group import G, ORDER, POINT_BYTES, SCALAR_BYTES, Point, Scalar, base_mul

SECRET = Scalar.from_hash(b"test", b"joint secret")
KEY = base_mul(SECRET)
CONTEXT = b"a shuffle's transcript"
NONCE_KEY = b"n" * 64
OFF_CURVE = Point(b"\x02" + (5).to_bytes(32, "big"))  # no point of secp256k1 has x = 5


def shuffle(source, seed: bytes, key=KEY, context=CONTEXT):
    """(the output deck, its proof, the prover's preparation) for an honest shuffle."""
    size = len(source)
    prepared = sp.prepare(size, seed, NONCE_KEY, context)
    result = decks.shuffle(source, decks.pads(size, key, seed), seed)
    return result, sp.prove(prepared, key, source, result, context), prepared


def reencrypt(ciphertext, label: bytes = b"r", key=KEY):
    r = Scalar.from_hash(b"test", label)
    return decks.Ciphertext(ciphertext.c1 + base_mul(r), ciphertext.c2 + r * key)


def started(size: int):
    return decks.initial_deck(size, KEY)


def shuffled_once(size: int):
    """A deck one shuffle away from the start: its c₁ are no longer all G."""
    return shuffle(started(size), b"first" * 8)[0]


@pytest.mark.parametrize("size", [1, 2, 5, 57])
@pytest.mark.parametrize("source", [started, shuffled_once], ids=["starting deck", "a shuffled deck"])
def test_an_honest_shuffle_verifies(size, source):
    deck = source(size)
    result, proof, _ = shuffle(deck, b"s" * 32)
    assert len(proof) == sp.proof_bytes(size) == 98 * size + 358
    assert sp.verify(KEY, deck, result, proof, CONTEXT)


def test_a_restarted_prover_makes_the_same_proof():
    deck = shuffled_once(9)
    assert shuffle(deck, b"s" * 32)[1] == shuffle(deck, b"s" * 32)[1]


def test_a_copied_ciphertext_fails():
    deck = shuffled_once(13)
    result, proof, _ = shuffle(deck, b"s" * 32)
    copied = list(result)
    copied[4] = reencrypt(result[9])  # indistinguishable from an honest ciphertext
    assert not sp.verify(KEY, deck, copied, proof, CONTEXT)


def test_a_copying_shuffler_cannot_prove_its_shuffle():
    """A shuffler that copies ciphertext 3 over ciphertext 5 — an "order" that is no
    permutation — and proves with that witness exactly as an honest one would."""
    deck = shuffled_once(13)
    prepared = sp.prepare(13, b"s" * 32, NONCE_KEY, CONTEXT)
    order = list(prepared.order)
    order[order.index(5)] = 3
    pads = decks.pads(13, KEY, b"s" * 32)
    copied = [deck[order[i]].plus(pads[i]) for i in range(13)]
    proof = sp.prove(prepared._replace(order=order), KEY, deck, copied, CONTEXT)
    assert not sp.verify(KEY, deck, copied, proof, CONTEXT)


def test_a_replaced_or_combined_ciphertext_fails():
    deck = shuffled_once(13)
    result, proof, _ = shuffle(deck, b"s" * 32)
    r = Scalar.from_hash(b"test", b"r")
    chosen = decks.Ciphertext(base_mul(r), decks.card_point(0) + r * KEY)  # a card of my choice
    combined = result[1].plus(result[2])  # the sum of two cards: decrypted, it names both
    for forged in (chosen, combined):
        assert not sp.verify(KEY, deck, [forged] + list(result[1:]), proof, CONTEXT)


def test_two_outputs_swapped_fail():
    """The output order is the committed permutation's: another order, even of the same
    ciphertexts, is not what was proven."""
    deck = shuffled_once(13)
    result, proof, _ = shuffle(deck, b"s" * 32)
    swapped = list(result)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not sp.verify(KEY, deck, swapped, proof, CONTEXT)


def test_a_proof_holds_only_for_its_input_key_and_deal():
    deck = shuffled_once(13)
    result, proof, _ = shuffle(deck, b"s" * 32)
    other_key = base_mul(Scalar.from_hash(b"test", b"other"))
    assert not sp.verify(KEY, started(13), result, proof, CONTEXT)  # another input deck
    assert not sp.verify(other_key, deck, result, proof, CONTEXT)
    assert not sp.verify(KEY, deck, result, proof, b"another hand's transcript")
    assert sp.verify(KEY, deck, result, proof, CONTEXT)


def test_bytes_that_are_not_a_point_fail():
    deck = shuffled_once(5)
    result, proof, _ = shuffle(deck, b"s" * 32)
    bad_deck = list(result)
    bad_deck[2] = decks.Ciphertext(OFF_CURVE, result[2].c2)
    assert not sp.verify(KEY, deck, bad_deck, proof, CONTEXT)
    # the first permutation commitment
    assert not sp.verify(KEY, deck, result, OFF_CURVE.raw + proof[POINT_BYTES:], CONTEXT)


@pytest.mark.parametrize("proof", [None, "text", b"", b"\x00" * sp.proof_bytes(5)])
def test_malformed_proofs_fail(proof):
    deck = shuffled_once(5)
    result, _, _ = shuffle(deck, b"s" * 32)
    assert not sp.verify(KEY, deck, result, proof, CONTEXT)


def test_a_scalar_not_reduced_fails():
    """Each response is read as the canonical scalar it must be: one not below n is refused."""
    deck = shuffled_once(5)
    result, proof, _ = shuffle(deck, b"s" * 32)
    at = POINT_BYTES * (2 * 5 + 6)  # the first response, s₁
    # n + 5: only 2^-128 of the scalars s₁ have another 32-byte encoding (s₁ + n), so the
    # refusal is shown on a scalar of its own, with its reason
    unreduced = proof[:at] + (ORDER + 5).to_bytes(SCALAR_BYTES, "big") + proof[at + SCALAR_BYTES:]
    assert not sp.verify(KEY, deck, result, unreduced, CONTEXT)
    with pytest.raises(GroupError, match="reduced"):
        sp.read(KEY, deck, result, unreduced, CONTEXT)


def test_the_generators_are_the_documented_hashes():
    import hashlib
    h = sp.generators(57)
    assert len(h) == 58 and len(set(h) | {G}) == 59
    for k, point in enumerate(h):
        uniform = hashlib.sha512(b"parlour-mental-generator/1" + k.to_bytes(2, "big")).digest()[:32]
        assert point == Point.from_uniform(uniform)
    assert sp.generators(8) == h[:9]  # a smaller deck's are the first ones


# -- properties ------------------------------------------------------------------------

PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(size=st.integers(1, 8), seed=st.binary(min_size=32, max_size=32), start=st.booleans())
def test_any_honest_shuffle_verifies(size, seed, start):
    deck = started(size) if start else shuffle(started(size), seed[::-1])[0]
    result, proof, _ = shuffle(deck, seed)
    assert sp.verify(KEY, deck, result, proof, CONTEXT)


@PROPERTY
@given(size=st.integers(2, 8), seed=st.binary(min_size=32, max_size=32),
       where=st.sampled_from(["deck", "proof"]), at=st.integers(0, 10**6), bit=st.integers(0, 7))
def test_no_tampered_shuffle_verifies(size, seed, where, at, bit):
    """One bit flipped anywhere in the output deck or the proof: never accepted."""
    deck = started(size)
    result, proof, _ = shuffle(deck, seed)
    if where == "deck":
        raw = bytearray(decks.encode_deck(result))
        raw[at % len(raw)] ^= 1 << bit
        tampered = decks.decode_deck(bytes(raw), size, validate=False)
        assert not sp.verify(KEY, deck, tampered, proof, CONTEXT)
    else:
        raw = bytearray(proof)
        raw[at % len(raw)] ^= 1 << bit
        assert not sp.verify(KEY, deck, result, bytes(raw), CONTEXT)


# -- a deal's proofs checked as one batch (BatchCheck), the verifier's own shuffle folded --

BATCH_SIZE = 13
SEEDS = [bytes([65 + t]) * 32 for t in range(4)]  # four shufflers, one after another


def proofs_context(t: int) -> bytes:
    return CONTEXT + bytes([t])


def deal_of_shuffles(size: int = BATCH_SIZE):
    """(the decks, START's first, then each shuffler's output; each shuffler's proof)"""
    chain, proofs = [started(size)], []
    for t, seed in enumerate(SEEDS):
        result, proof, _ = shuffle(chain[-1], seed, context=proofs_context(t))
        chain.append(result)
        proofs.append(proof)
    return chain, proofs


def batch_at(verifier: int, chain, proofs) -> bool:
    """What ``verifier`` (one of the shufflers) concludes of everyone else's proofs: each
    added to one batch, its own deck folded onto the deck it shuffled, the others multiplied."""
    batch = sp.BatchCheck(BATCH_SIZE, KEY, b"the verifier's own secret")
    for t, proof in enumerate(proofs):
        if t != verifier:
            batch.add(sp.read(KEY, chain[t], chain[t + 1], proof, proofs_context(t)), t - 1, t)
    batch.fold(verifier, verifier - 1, decks.permutation(BATCH_SIZE, SEEDS[verifier]),
               [int(r) for r in decks.randomness(BATCH_SIZE, SEEDS[verifier])])
    for t in range(-1, len(proofs)):
        if t != verifier:
            batch.flush(t, chain[t + 1])
    return batch.holds()


@pytest.mark.parametrize("verifier", range(4))
def test_a_deals_honest_proofs_hold_as_one_batch_with_the_verifiers_deck_folded(verifier):
    chain, proofs = deal_of_shuffles()
    assert batch_at(verifier, chain, proofs)


@pytest.mark.parametrize("verifier", range(3))
def test_a_folded_deck_still_binds_the_next_shuffle_to_it(verifier):
    """The shuffler after the verifier shuffles the verifier's deck with one ciphertext
    replaced by a copy of another (the copy attack), with a true proof of *that*: the
    verifier never multiplies its own deck, yet its batch refuses the proof."""
    chain, proofs = deal_of_shuffles()
    after = verifier + 1
    copied = list(chain[after])
    copied[5] = reencrypt(copied[9])
    result, proof, _ = shuffle(copied, SEEDS[after], context=proofs_context(after))
    assert sp.verify(KEY, copied, result, proof, proofs_context(after))  # true of the copy
    chain[after + 1:] = [result]
    for t in range(after + 1, len(SEEDS)):  # the shufflers after it, honest
        result, proofs[t], _ = shuffle(chain[-1], SEEDS[t], context=proofs_context(t))
        chain.append(result)
    proofs[after] = proof
    assert not batch_at(verifier, chain, proofs)


@pytest.mark.parametrize("liar", [0, 2, 3])
@pytest.mark.parametrize("byte", [0, POINT_BYTES * BATCH_SIZE, POINT_BYTES * (2 * BATCH_SIZE + 6) + 40])
def test_one_tampered_proof_among_a_deals_fails_the_batch(liar, byte):
    """One byte changed in one proof (a commitment, a chain link, a response) among the
    three a verifier batches: the batch does not hold."""
    chain, proofs = deal_of_shuffles()
    raw = bytearray(proofs[liar])
    raw[byte] ^= 1
    proofs[liar] = bytes(raw)
    try:
        holds = batch_at(1, chain, proofs)
    except GroupError:  # the changed bytes are not a group element: refused as well
        holds = False
    assert not holds
