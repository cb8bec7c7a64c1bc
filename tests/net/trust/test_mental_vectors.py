"""docs/vectors/mental-*.json: the private deal's worked examples hold.

Each vector is recomputed from its own inputs the way an implementation written from
docs/protocol.md would: with SHA-2, Ed25519, libsecp256k1's secp256k1 operations (through
coincurve) and the canonical encoding — none of net/trust/mental's code — and the message
schemas the receivers apply. The first test pins the files to what the code makes, so
the code and these checks can never disagree unnoticed.
"""

import hashlib
import json
from functools import lru_cache

import pytest
from coincurve import PublicKey
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine import canonical, make_game
from engine.deal import shuffled
from net.tools import mental_vectors, vectors
from net.trust.deals.mental import messages as deal_messages
from net.wire import messages as m
from net.wire.identity import Identity, verify

FILES = ["mental-secrets.json", "mental-cards.json", "mental-deal.json", "mental-proofs.json",
         "mental-moves.json", "mental-shuffle-proof.json"]
L = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141  # n, secp256k1's order
G = bytes.fromhex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")
POINT = 33  # a point's compressed encoding
MESSAGE_DOMAIN = "parlour-mental-message/1"


@lru_cache(maxsize=None)
def load(name):
    return vectors.from_json(json.loads((vectors.DIR / name).read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def built():
    return mental_vectors.build()


@pytest.mark.parametrize("name", FILES)
def test_the_files_are_what_the_code_makes(name):
    """Regenerate with ``python -m net.tools.vectors`` when the protocol changes on purpose."""
    assert (vectors.DIR / name).read_text(encoding="utf-8") == vectors.dumps(built()[name])


def test_the_protocol_prints_the_worked_example_the_files_hold():
    text = mental_vectors.DOC.read_text(encoding="utf-8")
    assert mental_vectors.doc_block(text) == mental_vectors.markdown(built())


# -- the group, from the protocol's description alone ----------------------------------------

def framed(domain: bytes, parts) -> bytes:
    return len(domain).to_bytes(2, "big") + domain + b"".join(
        len(p).to_bytes(4, "big") + p for p in parts)


def hashed(domain: bytes, *parts: bytes) -> int:
    """A scalar: SHA-512 of the framed parts, read big-endian, reduced mod n."""
    return int.from_bytes(hashlib.sha512(framed(domain, parts)).digest(), "big") % L


def enc(n: int) -> bytes:
    return (n % L).to_bytes(32, "big")


def base(n: int) -> bytes:
    return PublicKey.from_valid_secret(enc(n)).format()


def mul(n: int, point: bytes) -> bytes:
    return PublicKey(point).multiply(enc(n)).format()


def add(*points: bytes) -> bytes:
    return PublicKey.combine_keys([PublicKey(p) for p in points]).format()


def sub(p: bytes, q: bytes) -> bytes:
    return add(p, bytes([q[0] ^ 1]) + q[1:])  # −Q: Q's x, the other y (02 <-> 03)


def is_point(raw: bytes) -> bool:
    try:
        return len(raw) == POINT and PublicKey(raw).format() == raw
    except ValueError:
        return False


def hash_to_point(uniform: bytes) -> bytes:
    """Try-and-increment: the first k (one byte) for which 02 ‖ SHA-256(domain ‖ uniform ‖ k)
    is a point."""
    for k in range(256):
        candidate = b"\x02" + hashlib.sha256(b"parlour-secp256k1-point/1" + uniform + bytes([k])).digest()
        if is_point(candidate):
            return candidate
    raise AssertionError("no point in 256 tries")


def card_point(n: int) -> bytes:
    return hash_to_point(hashlib.sha512(b"parlour-card/1" + n.to_bytes(2, "big")).digest()[:32])


def transcript(context: dict, purpose: str, **fields) -> bytes:
    return canonical.encode(["parlour-mental/1", context, purpose, fields])


def split(proof: bytes) -> tuple[int, int]:
    e, z = int.from_bytes(proof[:32], "big"), int.from_bytes(proof[32:], "big")
    assert len(proof) == 64 and e < L and z < L  # both scalars canonical
    return e, z


def key_proof_holds(key: bytes, proof: bytes, context: bytes) -> bool:
    e, z = split(proof)
    t = sub(base(z), mul(e, key))
    return hashed(b"parlour-mental-key-proof/1", context, G, key, t) == e


def composite(key: bytes, bases: list, shares: list, context: bytes):
    """(C, D): the pair itself for one share; Σρᵢ·Cᵢ, Σρᵢ·Dᵢ for several."""
    if len(bases) == 1:
        return bases[0], shares[0], None
    seed = hashlib.sha512(framed(b"parlour-mental-batch/1",
                                 [context, key, b"".join(bases), b"".join(shares)])).digest()
    weights = [hashed(b"parlour-mental-batch/1", seed, i.to_bytes(4, "big")) for i in range(len(bases))]
    return (add(*(mul(w, c) for w, c in zip(weights, bases))),
            add(*(mul(w, d) for w, d in zip(weights, shares))), weights)


def dleq_holds(key: bytes, bases: list, shares: list, proof: bytes, context: bytes) -> bool:
    e, z = split(proof)
    c, d, _ = composite(key, bases, shares, context)
    t1, t2 = sub(base(z), mul(e, key)), sub(mul(z, c), mul(e, d))
    return hashed(b"parlour-mental-dleq/1", context, G, key, c, d, t1, t2) == e


def points(raw: bytes) -> list[bytes]:
    return [raw[i:i + POINT] for i in range(0, len(raw), POINT)]


def concat(deck) -> bytes:
    """A deck's or a list's encodings, concatenated (a ciphertext: c₁ ‖ c₂)."""
    return b"".join(c["c1"] + c["c2"] if isinstance(c, dict) else c for c in deck)


def generator(k: int) -> bytes:
    return hash_to_point(hashlib.sha512(b"parlour-mental-generator/1" + k.to_bytes(2, "big")).digest()[:32])


def total(terms) -> bytes:
    """Σ coefficient·point over ``(coefficient, point)`` pairs, G's with the base table."""
    return add(*(base(c) if p == G else mul(c, p) for c, p in terms))


def shuffle_proof_holds(key: bytes, a: list, b: list, proof: bytes, context: bytes) -> bool:
    """The shuffle's proof checked equation by equation, as docs/protocol.md writes it."""
    n = len(a)
    assert len(proof) == 98 * n + 358
    c, chain = points(proof[:POINT * n]), points(proof[POINT * n:2 * POINT * n])
    t1, t2, t3, t4c1, t4c2, t_hat = points(proof[2 * POINT * n:2 * POINT * n + 6 * POINT])
    responses = proof[2 * POINT * n + 6 * POINT:]
    scalars = [int.from_bytes(responses[i:i + 32], "big") for i in range(0, len(responses), 32)]
    assert all(x < L for x in scalars)  # each canonical
    s1, s2, s3, s4, s_hat, *s_prime = scalars
    h = [generator(k) for k in range(n + 1)]
    s = hashlib.sha512(framed(b"parlour-mental-shuffle-u/1", [context, key, concat(a), concat(b), concat(c)])).digest()
    u = [hashed(b"parlour-mental-shuffle-u/1", s, j.to_bytes(4, "big")) for j in range(n)]
    d = hashlib.sha512(framed(b"parlour-mental-shuffle-weight/1", [s, concat(chain)])).digest()
    lam = [hashed(b"parlour-mental-shuffle-weight/1", d, i.to_bytes(4, "big")) for i in range(n)]
    e = hashed(b"parlour-mental-shuffle/1", s, concat(chain), t1, t2, t3, t4c1, t4c2, t_hat)
    product = 1
    for uj in u:
        product = product * uj % L
    links = [h[0]] + chain  # Ĉ₋₁ = H, Ĉ₀ … Ĉ_{N−1}
    return all([
        total([(s1, G), (-e, add(*c)), (e, add(*h[1:]))]) == t1,
        total([(s2, G), (-e, sub(chain[-1], mul(product, h[0])))]) == t2,
        total([(s3, G)] + [(s_prime[i], h[i + 1]) for i in range(n)]
              + [(-e * u[j], c[j]) for j in range(n)]) == t3,
        total([(s_prime[i], b[i]["c1"]) for i in range(n)] + [(-e * u[j], a[j]["c1"]) for j in range(n)]
              + [(-s4, G)]) == t4c1,
        total([(s_prime[i], b[i]["c2"]) for i in range(n)] + [(-e * u[j], a[j]["c2"]) for j in range(n)]
              + [(-s4, key)]) == t4c2,
        total([(s_hat, G)] + [(lam[i] * s_prime[i], links[i]) for i in range(n)]
              + [(-e * lam[i], chain[i]) for i in range(n)]) == t_hat])


def party_identity(seed: bytes) -> Identity:
    return Identity(Ed25519PrivateKey.from_private_bytes(seed))


# -- the vectors --------------------------------------------------------------------------------

def test_a_partys_secrets_come_from_its_signature():
    v = load("mental-secrets.json")
    assert int(v["group_order"]) == L and v["base_point"] == G == base(1)
    me = party_identity(v["party"]["private_key_seed"])
    assert me.public_key == v["party"]["public_key"]
    assert canonical.encode(["parlour-mental-secret/1", v["context"]]) == v["signed_bytes"]
    sigma = me.sign(v["signed_bytes"])  # Ed25519 is deterministic: the same σ every time
    assert sigma == v["signature"] and verify(me.public_key, sigma, v["signed_bytes"])
    share = v["share_key"]
    assert framed(share["domain"].encode(), [sigma]) == share["framed"]
    assert hashlib.sha512(share["framed"]).digest() == share["sha512"]
    x = hashed(b"parlour-mental-share-key/1", sigma)
    assert enc(x) == share["x"] and base(x) == share["X"]
    assert v["shuffle_seed"]["value"] == hashlib.sha512(b"parlour-mental-shuffle/1" + sigma).digest()[:32]
    nonce_key = hashlib.sha512(b"parlour-mental-nonce-key/1" + sigma).digest()
    assert v["nonce_key"]["value"] == nonce_key
    salt = v["salt"]
    assert salt["salt_label"] == f"{salt['seat']}/{salt['label']}"
    assert salt["value"] == hashlib.sha512(b"parlour-mental-salt/1" + nonce_key
                                           + salt["salt_label"].encode()).digest()[:32]


def test_scalars_are_hashed_from_framed_parts():
    for case in load("mental-secrets.json")["scalars"]:
        domain = case["domain"].encode()
        assert framed(domain, case["parts"]) == case["framed"], case["note"]
        assert hashlib.sha512(case["framed"]).digest() == case["sha512"]
        assert enc(hashed(domain, *case["parts"])) == case["scalar"], case["note"]


def test_card_numbers_as_points_and_names():
    v = load("mental-cards.json")
    assert [c["card"] for c in v["cards"]] == list(range(57))
    for c in v["cards"]:
        uniform = hashlib.sha512(v["domain"].encode() + c["card"].to_bytes(2, "big")).digest()[:32]
        assert c["uniform"] == uniform and c["point"] == card_point(c["card"])
        assert is_point(c["point"])
    for title, names in v["names"].items():
        game = make_game(title, None, "three" if title == "horseshoes" else None)
        assert names == [game.deck.name(n) for n in range(game.deck.size)]


class Deal:
    """mental-deal.json read as an outside implementation reads a deal."""

    def __init__(self):
        self.v = load("mental-deal.json")
        self.context = self.v["context"]
        self.size = self.v["layout"]["deck_size"]
        self.parties = self.v["parties"]
        self.x = [hashed(b"parlour-mental-share-key/1", p["signature"]) for p in self.parties]
        self.final = self.v["shuffles"][-1]["deck"]

    def bodies(self, kind: str, party: int | None = None) -> list[dict]:
        return [msg["body"] for msg in self.v["messages"]
                if msg["body"]["type"] == kind and party in (None, msg["party"])]


def test_the_parties_and_the_layout():
    deal = Deal()
    layout = deal.v["layout"]
    n, h, dealer = layout["num_players"], layout["hand_size"], layout["dealer"]
    assert deal.size == n * h + layout["spare_size"]
    for i in range(n):  # seat (dealer + 1 + i) mod n gets positions i·h … i·h + h − 1
        assert layout["dealt"][(dealer + 1 + i) % n] == list(range(i * h, (i + 1) * h))
    assert layout["spare"] == list(range(n * h, deal.size))
    for p, x in zip(deal.parties, deal.x):
        me = party_identity(p["private_key_seed"])
        assert me.public_key == p["key"]
        assert me.sign(canonical.encode(["parlour-mental-secret/1", deal.context])) == p["signature"]
        assert enc(x) == p["x"] and base(x) == p["X"]
        assert p["shuffle_seed"] == hashlib.sha512(b"parlour-mental-shuffle/1" + p["signature"]).digest()[:32]
    assert deal.v["joint_key"] == add(*(p["X"] for p in deal.parties))


def test_the_starting_deck_and_every_shuffle():
    deal = Deal()
    key = deal.v["joint_key"]
    deck = [{"c1": G, "c2": add(card_point(c), key)} for c in range(deal.size)]
    assert deal.v["initial_deck"] == deck
    shuffles = deal.bodies("mental-shuffle")
    for t, s in enumerate(deal.v["shuffles"]):
        seed = deal.parties[t]["shuffle_seed"]
        assert s["party"] == t
        assert s["permutation_seed"] == hashlib.sha256(b"parlour-mental-permutation/1" + seed).digest()
        order = shuffled(deal.size, s["permutation_seed"])
        assert s["permutation"] == order
        r = [hashed(b"parlour-mental-reencrypt/1", seed, i.to_bytes(2, "big")) for i in range(deal.size)]
        assert s["randomness"] == [enc(ri) for ri in r]
        deck = [{"c1": add(deck[order[i]]["c1"], base(r[i])), "c2": add(deck[order[i]]["c2"], mul(r[i], key))}
                for i in range(deal.size)]
        assert s["deck"] == deck
        assert shuffles[t]["deck"] == b"".join(c["c1"] + c["c2"] for c in deck)


def test_every_shuffle_carries_its_proof():
    deal = Deal()
    key = deal.v["joint_key"]
    deck = [{"c1": G, "c2": add(card_point(c), key)} for c in range(deal.size)]
    for t, (s, body) in enumerate(zip(deal.v["shuffles"], deal.bodies("mental-shuffle"))):
        context = transcript(deal.context, "shuffle", party=t)
        assert shuffle_proof_holds(key, deck, s["deck"], body["proof"], context)
        assert not shuffle_proof_holds(key, deck, s["deck"], body["proof"],
                                       transcript(deal.context, "shuffle", party=1 - t))
        deck = s["deck"]


def test_a_shuffles_proof_step_by_step():
    v, deal = load("mental-shuffle-proof.json"), Deal()
    n, key, t = v["deck_size"], v["joint_key"], v["party"]
    assert (n, key) == (deal.size, deal.v["joint_key"])
    seed, nonce_key = deal.parties[t]["shuffle_seed"], deal.parties[t]["nonce_key"]
    context = transcript(deal.context, "shuffle", party=t)
    assert v["transcript"]["bytes"] == context == canonical.encode(v["transcript"]["value"])
    for g in v["generators"]:
        uniform = hashlib.sha512(b"parlour-mental-generator/1" + g["k"].to_bytes(2, "big")).digest()[:32]
        assert (g["uniform"], g["point"]) == (uniform, generator(g["k"]))
    h = [generator(k) for k in range(n + 1)]
    a, b = deal.v["shuffles"][t - 1]["deck"], deal.v["shuffles"][t]["deck"]
    order = deal.v["shuffles"][t]["permutation"]
    rho = [int.from_bytes(r, "big") for r in deal.v["shuffles"][t]["randomness"]]
    assert (v["input"], v["output"], v["permutation"]) == (a, b, order)
    assert v["reencryption"] == [enc(x) for x in rho]
    # the prover, from its witness
    r = [hashed(b"parlour-mental-shuffle-commit/1", seed, j.to_bytes(2, "big")) for j in range(n)]
    c = [b""] * n
    for i, j in enumerate(order):
        c[j] = add(base(r[j]), h[i + 1])
    assert (v["commit_randomness"], v["commitments"]) == ([enc(x) for x in r], c)
    s = hashlib.sha512(framed(b"parlour-mental-shuffle-u/1", [context, key, concat(a), concat(b), concat(c)])).digest()
    u = [hashed(b"parlour-mental-shuffle-u/1", s, j.to_bytes(4, "big")) for j in range(n)]
    u_prime = [u[order[i]] for i in range(n)]
    assert (v["statement_digest"], v["u"], v["u_prime"]) == (s, [enc(x) for x in u], [enc(x) for x in u_prime])
    r_hat = [hashed(b"parlour-mental-shuffle-chain/1", seed, i.to_bytes(2, "big")) for i in range(n)]
    chain, previous = [], h[0]
    for i in range(n):
        previous = add(base(r_hat[i]), mul(u_prime[i], previous))
        chain.append(previous)
    assert (v["chain_randomness"], v["chain"]) == ([enc(x) for x in r_hat], chain)
    d = hashlib.sha512(framed(b"parlour-mental-shuffle-weight/1", [s, concat(chain)])).digest()
    lam = [hashed(b"parlour-mental-shuffle-weight/1", d, i.to_bytes(4, "big")) for i in range(n)]
    assert (v["weight_digest"], v["weights"]) == (d, [enc(x) for x in lam])
    w = [hashed(b"parlour-mental-nonce/1", nonce_key, b"parlour-mental-shuffle/1", context, k.to_bytes(2, "big"))
         for k in range(n + 5)]
    assert v["nonces"] == [enc(x) for x in w]
    w1, w2, w3, w4, w_hat, *w_prime = w
    links = [h[0]] + chain[:-1]  # Ĉ₋₁ … Ĉ_{N−2}
    ts = {"T1": base(w1), "T2": base(w2),
          "T3": total([(w3, G)] + [(w_prime[i], h[i + 1]) for i in range(n)]),
          "T4.c1": total([(w_prime[i], b[i]["c1"]) for i in range(n)] + [(-w4, G)]),
          "T4.c2": total([(w_prime[i], b[i]["c2"]) for i in range(n)] + [(-w4, key)]),
          "T_hat": total([(w_hat, G)] + [(lam[i] * w_prime[i], links[i]) for i in range(n)])}
    assert v["commitments_t"] == ts
    e = hashed(b"parlour-mental-shuffle/1", s, concat(chain), *ts.values())
    assert v["challenge"] == enc(e)
    vs = [1] * n  # vᵢ = Π_{k>i} u'ₖ
    for i in range(n - 2, -1, -1):
        vs[i] = vs[i + 1] * u_prime[i + 1] % L
    responses = {"s1": w1 + e * sum(r), "s2": w2 + e * sum(x * y for x, y in zip(r_hat, vs)),
                 "s3": w3 + e * sum(x * y for x, y in zip(r, u)),
                 "s4": w4 + e * sum(x * y for x, y in zip(rho, u_prime)),
                 "s_hat": w_hat + e * sum(x * y for x, y in zip(lam, r_hat))}
    s_prime = [w_prime[i] + e * u_prime[i] for i in range(n)]
    assert v["responses"] == {**{k: enc(x) for k, x in responses.items()}, "s_prime": [enc(x) for x in s_prime]}
    assert v["proof"] == b"".join([*c, *chain, *ts.values(), *(enc(x) for x in responses.values()),
                                   *(enc(x) for x in s_prime)])
    # the verifier, from the proof alone
    assert shuffle_proof_holds(key, a, b, v["proof"], context)
    copied = [dict(x) for x in b]
    copied[0] = dict(copied[1])
    assert not shuffle_proof_holds(key, a, copied, v["proof"], context)


def test_every_message_is_signed_by_its_party_and_well_formed():
    deal = Deal()
    for msg in deal.v["messages"]:
        body, party = msg["body"], msg["party"]
        assert canonical.encode([MESSAGE_DOMAIN, body]) == msg["signed_bytes"]
        assert verify(deal.parties[party]["key"], msg["sig"], msg["signed_bytes"])
        assert deal_messages.check(body, party, deal.size) == body
        assert (body["hand"], body["attempt"]) == (deal.context["hand"], deal.context["attempt"])
    kinds = [(msg["party"], msg["body"]["type"]) for msg in deal.v["messages"]]
    assert kinds == [(0, "mental-key"), (1, "mental-key"), (0, "mental-shuffle"), (1, "mental-shuffle"),
                     (0, "mental-shares"), (1, "mental-shares"), (0, "mental-shares"),
                     (1, "mental-shares"), (1, "mental-commit"), (0, "mental-reveal"),
                     (1, "mental-reveal")]


def test_the_key_shares_and_their_proofs():
    deal = Deal()
    for party, p in enumerate(deal.parties):
        [body] = deal.bodies("mental-key", party)
        assert body["key"] == p["X"]
        assert key_proof_holds(body["key"], body["proof"], transcript(deal.context, "key", party=party))
        assert not key_proof_holds(body["key"], body["proof"], transcript(deal.context, "key", party=1 - party))


def test_the_share_batches_and_what_each_party_decrypts():
    deal = Deal()
    layout = deal.v["layout"]
    for prover, party in enumerate(deal.parties):
        for body in deal.bodies("mental-shares", prover):
            for batch in body["batches"]:
                positions, to = batch["positions"], batch["to"]
                if to is None:  # to everyone: spare positions only
                    assert set(positions) <= set(layout["spare"])
                else:  # to one party: the positions dealt to its seats
                    assert positions == sorted(p for s in deal.parties[to]["seats"] for p in layout["dealt"][s])
                c1 = [deal.final[p]["c1"] for p in positions]
                assert points(batch["shares"]) == [mul(deal.x[prover], c) for c in c1]
                context = transcript(deal.context, "shares", prover=prover, to=to, positions=positions)
                assert dleq_holds(party["X"], c1, points(batch["shares"]), batch["proof"], context)
                wrong = transcript(deal.context, "shares", prover=prover, to=prover, positions=positions)
                assert not dleq_holds(party["X"], c1, points(batch["shares"]), batch["proof"], wrong)
    cards = {}
    for item in deal.v["positions"]:
        p = item["position"]
        ciphertext = deal.final[p]
        assert item["shares"] == [mul(x, ciphertext["c1"]) for x in deal.x]
        point = ciphertext["c2"]
        for share in item["shares"]:
            point = sub(point, share)
        assert item["point"] == point == card_point(item["card"])
        cards[p] = item["card"]
    assert sorted(cards.values()) == list(range(deal.size))  # every card once
    hands = [[cards[p] for p in positions] for positions in layout["dealt"]]
    spare = [cards[p] for p in layout["spare"]]
    for party, learned in enumerate(deal.v["learned"]):
        told = [item["hand"] for item in learned if "hand" in item]
        assert [h["seat"] for h in told] == list(deal.parties[party]["seats"])
        assert all(h["cards"] == hands[h["seat"]] for h in told)
        assert {"opened": {"positions": layout["spare"], "cards": spare, "public": True}} in learned
        assert learned[-1] == {"verified": {"hands": hands, "spare": spare}}
        played = [item["played"] for item in learned if "played" in item]
        assert [(p["seat"], p["card"]) for p in played] == [(p["seat"], p["card"]) for p in deal.v["plays"]]
        assert all(cards[p["position"]] == p["card"] for p in played)


def test_the_played_cards_and_the_shown_hand():
    deal = Deal()
    spare = set(deal.v["layout"]["spare"])
    owner = {s: i for i, p in enumerate(deal.parties) for s in p["seats"]}
    cards = {item["position"]: item["card"] for item in deal.v["positions"]}
    for play in deal.v["plays"]:
        msg, party = play["message"], owner[play["seat"]]
        assert deal_messages.check(msg, party, deal.size) == msg
        position = msg["position"]
        assert msg["seat"] == play["seat"] and cards[position] == play["card"]
        if position in spare:  # face up already: no share, no proof
            assert msg["share"] is None and msg["proof"] is None
            continue
        c1 = deal.final[position]["c1"]
        assert msg["share"] == mul(deal.x[party], c1)
        context = transcript(deal.context, "play", party=party, seat=play["seat"], position=position)
        assert dleq_holds(deal.parties[party]["X"], [c1], [msg["share"]], msg["proof"], context)
    show = deal.v["show"]["body"]
    seat, party = show["seat"], owner[show["seat"]]
    assert deal_messages.check(show, party, deal.size) == show
    assert show["positions"] == deal.v["layout"]["dealt"][seat]
    c1 = [deal.final[p]["c1"] for p in show["positions"]]
    context = transcript(deal.context, "show", party=party, seat=seat, positions=show["positions"])
    assert dleq_holds(deal.parties[party]["X"], c1, points(show["shares"]), show["proof"], context)


def test_the_reveals_open_the_commitments():
    deal = Deal()
    [commit] = deal.bodies("mental-commit")
    for party, p in enumerate(deal.parties):
        [reveal] = deal.bodies("mental-reveal", party)
        assert reveal["reason"] == "end" and reveal["secret"] == p["signature"]
        for opening in reveal["openings"]:
            seat, label = opening["seat"], opening["label"]
            assert seat in p["seats"] and (seat, label, len(opening["positions"])) == \
                (commit["seat"], commit["label"], commit["count"])
            nonce_key = hashlib.sha512(b"parlour-mental-nonce-key/1" + reveal["secret"]).digest()
            salt = hashlib.sha512(b"parlour-mental-salt/1" + nonce_key + f"{seat}/{label}".encode()).digest()[:32]
            digest = hashlib.sha256(canonical.encode(["parlour-mental-commit/1", deal.context, seat, label,
                                                      opening["positions"], salt])).digest()
            assert digest == commit["digest"]
    cards = {item["position"]: item["card"] for item in deal.v["positions"]}
    [opening] = deal.bodies("mental-reveal", 1)[0]["openings"]
    assert sorted(cards[p] for p in opening["positions"]) == deal.v["bury"]["cards"]


def test_the_proofs_step_by_step():
    v, deal = load("mental-proofs.json"), Deal()
    key = v["key"]
    x = deal.x[key["party"]]
    nonce_key = deal.parties[key["party"]]["nonce_key"]
    assert key["transcript"]["bytes"] == canonical.encode(key["transcript"]["value"]) \
        == transcript(deal.context, "key", party=key["party"])
    context = key["transcript"]["bytes"]
    w = hashed(b"parlour-mental-nonce/1", nonce_key, b"parlour-mental-key-proof/1", context, key["X"])
    e = hashed(b"parlour-mental-key-proof/1", context, G, key["X"], base(w))
    assert (key["nonce"], key["t"], key["challenge"]) == (enc(w), base(w), enc(e))
    assert key["response"] == enc(w + e * x) and key["proof"] == enc(e) + enc(w + e * x)
    assert sub(base(w + e * x), mul(e, key["X"])) == key["t"]  # the verifier's t
    for name, fields in (("shares", ("prover", "to", "positions")), ("play", ("party", "seat", "position")),
                         ("show", ("party", "seat", "positions"))):
        step = v[name]
        prover = step["prover" if name == "shares" else "party"]
        x, nonce_key = deal.x[prover], deal.parties[prover]["nonce_key"]
        context = transcript(deal.context, name, **{f: step[f] for f in fields})
        assert step["transcript"]["bytes"] == context == canonical.encode(step["transcript"]["value"])
        assert step["shares"] == [mul(x, c) for c in step["bases"]]
        c, d, weights = composite(step["X"], step["bases"], step["shares"], context)
        if weights is not None:
            seed_input = framed(b"parlour-mental-batch/1", [context, step["X"], b"".join(step["bases"]),
                                                            b"".join(step["shares"])])
            assert step["weight_seed_input"] == seed_input
            assert step["weight_seed"] == hashlib.sha512(seed_input).digest()
            assert step["weights"] == [enc(r) for r in weights]
        assert (step["C"], step["D"]) == (c, d) and d == mul(x, c)
        w = hashed(b"parlour-mental-nonce/1", nonce_key, b"parlour-mental-dleq/1", context, step["X"], c, d)
        t1, t2 = base(w), mul(w, c)
        e = hashed(b"parlour-mental-dleq/1", context, G, step["X"], c, d, t1, t2)
        assert (step["nonce"], step["t1"], step["t2"], step["challenge"]) == (enc(w), t1, t2, enc(e))
        assert step["response"] == enc(w + e * x) and step["proof"] == enc(e) + enc(w + e * x)
        assert dleq_holds(step["X"], step["bases"], step["shares"], step["proof"], context)


def test_the_moves_and_the_log_entries():
    v, deal = load("mental-moves.json"), Deal()
    player = party_identity(v["player"]["private_key_seed"])
    assert player.public_key == v["player"]["public_key"] == deal.parties[1]["key"]
    assert v["mental_deal_entry"]["parties"] == [{"key": p["key"], "seats": p["seats"]} for p in deal.parties]
    commitment = v["commitment"]
    assert canonical.encode(commitment["value"]) == commitment["encoding"]
    assert hashlib.sha256(commitment["encoding"]).digest() == commitment["digest"]
    [commit] = deal.bodies("mental-commit")
    assert commit["digest"] == commitment["digest"]
    bury = v["bury"]
    assert hashlib.sha256(bury["hidden_preimage"]).digest() == bury["body"]["hidden"]
    assert bury["hidden_preimage"] == b"parlour-hidden/1" + bury["nonce"] + canonical.encode(bury["full"])
    assert bury["body"]["action"] == {**bury["full"], "bury": None}
    assert bury["full"]["bury"] == [make_game("rook").deck.name(c) for c in commitment["cards"]]
    moves = [bury] + v["plays"]
    for move in moves:
        assert canonical.encode(["parlour-action/1", move["body"]]) == move["signed_bytes"]
        assert move["message"]["signed"] == {"body": move["body"], "sig": move["sig"]}
        assert verify(player.public_key, move["sig"], move["signed_bytes"])
        assert m.check(move["message"], (m.ACTION,)) == move["message"]
        assert move["message"]["private"] is None  # the cards stay with their player
    [commit_envelope] = bury["message"]["mental"]
    assert verify(player.public_key, commit_envelope["sig"], canonical.encode([MESSAGE_DOMAIN, commit]))
    assert bury["entries"] == [{"kind": "mental", "body": {"party": 1, "signed": commit_envelope}},
                               {"kind": "action", "body": {"signed": bury["message"]["signed"]}}]
    plays = [p for p in deal.v["plays"] if p["seat"] == 1]
    for move, play in zip(v["plays"], plays, strict=True):
        assert move["body"]["mental"] == play["message"] and move["body"]["hidden"] is None
        assert move["message"]["mental"] == []
