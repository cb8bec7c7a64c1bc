"""A proof that a shuffle is a shuffle: Terelius–Wikström, made non-interactive.

A party's shuffle (``deck.shuffle``) publishes ``bᵢ = a_π(i) + ρᵢ·(G, K)`` for i = 0…N−1:
its input deck ``a`` permuted and re-encrypted under the joint key ``K``. With it the
party publishes this proof, and every other party checks it before it publishes a single
decryption share: a shuffle that copies, drops, replaces or combines ciphertexts — the
only way a shuffler could ever read a card dealt to someone else — is refused. The
construction is Terelius & Wikström's ("Proofs of Restricted Shuffles", AFRICACRYPT 2010)
as Haenni, Locher, Koenig and Dubuis write it out ("Pseudo-Code Algorithms for Verifiable
Re-Encryption Mix-Nets", FC 2017 workshops), in the additive notation of an elliptic-curve
group and our ciphertexts ``(c₁, c₂) = (r·G, M + r·K)``:

* independent generators ``H, H₀ … H_{N−1}`` (``generators``: hashed to the group, so
  nobody knows a discrete logarithm between any two of them or ``G``);
* a commitment to the permutation, ``c_π(i) = r_π(i)·G + Hᵢ``;
* challenges ``uⱼ`` hashed from the whole statement, and ``u'ᵢ = u_π(i)``;
* a chain of commitments ``Ĉᵢ = r̂ᵢ·G + u'ᵢ·Ĉᵢ₋₁`` from ``Ĉ₋₁ = H``, ending at a
  commitment to ``Πu'ᵢ = Πuⱼ``; its N links are proven as one sum weighted by ``λᵢ``
  hashed from the statement and the chain (as a batch of decryption shares is), which
  the prover, knowing each link as ``αᵢ·G + βᵢ·H``, makes with two multiplications;
* a Σ-protocol with one challenge ``e`` showing knowledge of ``Σrⱼ`` (the committed
  matrix's columns each sum to one), of the chain's randomness, of ``u'`` opening
  ``Σuⱼ·cⱼ``, and of ``Σρᵢu'ᵢ`` with ``Σu'ᵢ·bᵢ = Σuⱼ·aⱼ + (Σρᵢu'ᵢ)·(G, K)``. Together:
  ``c`` commits to a permutation matrix, and the output is the input permuted by it
  and re-encrypted.

The proof sends its commitments ``T`` and responses (``c ‖ Ĉ ‖ T₁ T₂ T₃ T₄ T̂ ‖ s₁ … s₄ ŝ ‖
s'``, ``96·N + 352`` bytes); ``e`` is hashed from them. Each of its six equations is a sum
of ``coefficient·point`` terms that must equal a ``T`` (``_equations``), so a verifier may
check them one by one (``verify``) or several proofs' at once, each equation weighted by a
secret random factor (``BatchCheck``): a point common to several — a generator, a
ciphertext of a deck one proof makes and the next shuffles — is then multiplied once, and
a deck the verifier made itself not at all (``BatchCheck.fold``).
docs/protocol.md ("The shuffle's proof") gives every equation, encoding and hash.

Every point operation is one libsecp256k1 call (``group``); scalars, of which a proof has
thousands, are Python integers modulo n. What the proof needs before the input deck is
known — the permutation commitment and ``T₁ … T₃`` — is ``prepare``'s, made with the
re-encryption pads while the party waits for its turn. Nonces come from the party's
nonce key and the deal, so a restarted client makes the same proof; a party shuffles once
per deal (the same permutation on another input deck would give it away anyway).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import NamedTuple, Sequence

from .deck import Ciphertext, permutation, randomness
from .errors import GroupError
from .group import (G, IDENTITY, ORDER, POINT_BYTES, SCALAR_BYTES, Point, Scalar, base_mul,
                    framed, point_sum)

_GENERATOR = b"parlour-mental-generator/1"
_COMMIT = b"parlour-mental-shuffle-commit/1"  # the permutation commitment's randomness rⱼ
_CHAIN = b"parlour-mental-shuffle-chain/1"  # the chain's randomness r̂ᵢ
_U = b"parlour-mental-shuffle-u/1"  # the challenges uⱼ
_WEIGHT = b"parlour-mental-shuffle-weight/1"  # the chain's weights λᵢ
_CHALLENGE = b"parlour-mental-shuffle/1"  # the challenge e
_NONCE = b"parlour-mental-nonce/1"
_BATCH = b"parlour-mental-shuffle-batch/1"  # a verifier's own weights (never on the wire)
EQUATIONS = ("T1", "T2", "T3", "T4.c1", "T4.c2", "T^")


def proof_bytes(size: int) -> int:
    """A proof's length for a deck of ``size``: c, Ĉ (N points each), six commitments,
    five responses, s' (N)."""
    return 2 * POINT_BYTES * size + 6 * POINT_BYTES + SCALAR_BYTES * (size + 5)


@lru_cache(maxsize=None)
def generators(size: int) -> tuple[Point, ...]:
    """``(H, H₀, …, H_{size−1})``: ``Pₖ = from_uniform(SHA-512(domain ‖ k)[:32])`` for
    k = 0…size (k as 2 bytes, big-endian), as card points are made under another domain."""
    points = tuple(Point.from_uniform(hashlib.sha512(_GENERATOR + k.to_bytes(2, "big")).digest()[:32])
                   for k in range(size + 1))
    if len(set(points) | {G}) != size + 2:  # never: checked once per deck size
        raise GroupError("two generators coincide")
    return points


def hashed(domain: bytes, *parts: bytes) -> int:
    """``H(domain; parts)``: SHA-512 of the framed parts, big-endian, modulo n."""
    return int.from_bytes(hashlib.sha512(framed(domain, parts)).digest(), "big") % ORDER


# -- the prover -------------------------------------------------------------------------------

class Prepared(NamedTuple):
    """A shuffler's part of the proof that needs no deck: its witness and first commitments."""

    order: list[int]  # π
    reencryption: list[int]  # ρᵢ
    commit_r: list[int]  # rⱼ
    chain_r: list[int]  # r̂ᵢ
    nonces: list[int]  # ω₁ … ω₄, ω̂, then ω'₀ … ω'_{N−1}
    commitments: list[Point]  # cⱼ
    t1: Point
    t2: Point
    t3: Point


def commit_randomness(size: int, seed: bytes) -> list[int]:
    return [hashed(_COMMIT, seed, j.to_bytes(2, "big")) for j in range(size)]


def chain_randomness(size: int, seed: bytes) -> list[int]:
    return [hashed(_CHAIN, seed, i.to_bytes(2, "big")) for i in range(size)]


def nonces(size: int, nonce_key: bytes, context: bytes) -> list[int]:
    """ω₁ … ω₄, ω̂, ω'ᵢ: ``H(nonce; nonce key, domain, ctx, k)`` for k = 0…N+4."""
    return [hashed(_NONCE, nonce_key, _CHALLENGE, context, k.to_bytes(2, "big"))
            for k in range(size + 5)]


def prepare(size: int, seed: bytes, nonce_key: bytes, context: bytes) -> Prepared:
    """Everything of the proof that needs neither the joint key nor the input deck."""
    h = generators(size)[1:]
    order = permutation(size, seed)
    commit_r = commit_randomness(size, seed)
    omega = nonces(size, nonce_key, context)
    commitments: list[Point] = [G] * size
    for i, j in enumerate(order):
        commitments[j] = _base(commit_r[j]) + h[i]
    t3 = _base(omega[2]) + _combination(omega[5:], h)
    return Prepared(order, [int(r) for r in randomness(size, seed)], commit_r,
                    chain_randomness(size, seed), omega, commitments, _base(omega[0]),
                    _base(omega[1]), t3)


def prove(prepared: Prepared, key: Point, source: Sequence[Ciphertext],
          result: Sequence[Ciphertext], context: bytes) -> bytes:
    """The proof that ``result`` is ``source`` shuffled with ``prepared``'s permutation and
    re-encryption randomness under ``key``."""
    size = len(source)
    h = generators(size)[0]
    order, rho, omega = prepared.order, prepared.reencryption, prepared.nonces
    hat_omega, prime_omega = omega[4], omega[5:]
    seed = statement_digest(context, key, source, result, prepared.commitments)
    u = challenges(seed, size)
    u_prime = [u[order[i]] for i in range(size)]
    # The chain: Ĉᵢ = r̂ᵢ·G + u'ᵢ·Ĉᵢ₋₁ is αᵢ·G + βᵢ·H, each link's representation known here
    alpha, beta, chain = [0], [1], []  # Ĉ₋₁ = H
    for i in range(size):
        alpha.append((prepared.chain_r[i] + u_prime[i] * alpha[-1]) % ORDER)
        beta.append(u_prime[i] * beta[-1] % ORDER)
        chain.append(_base(alpha[-1]) + _mul(beta[-1], h))
    weights = chain_weights(seed, chain)
    # T̂ = ω̂·G + Σλᵢω'ᵢ·Ĉᵢ₋₁, from the links' representations: two multiplications
    linked = [weights[i] * prime_omega[i] for i in range(size)]
    hat_t = _base(hat_omega + _dot(linked, alpha)) + _mul(_dot(linked, beta), h)
    # T₄ = Σω'ᵢ·bᵢ − ω₄·(G, K), from the input: bᵢ = a_π(i) + ρᵢ·(G, K)
    shift = _dot(prime_omega, rho) - omega[3]
    permuted = [source[order[i]] for i in range(size)]
    t4 = Ciphertext(_c1_combination(prime_omega, permuted) + _base(shift),
                    _combination(prime_omega, [c.c2 for c in permuted]) + _mul(shift, key))
    commitments = (prepared.t1, prepared.t2, prepared.t3, t4.c1, t4.c2, hat_t)
    e = challenge(seed, chain, commitments)
    v = [1] * size  # vᵢ = Π_{k>i} u'ₖ
    for i in range(size - 2, -1, -1):
        v[i] = v[i + 1] * u_prime[i + 1] % ORDER
    responses = [omega[0] + e * sum(prepared.commit_r), omega[1] + e * _dot(prepared.chain_r, v),
                 omega[2] + e * _dot(prepared.commit_r, u), omega[3] + e * _dot(rho, u_prime),
                 hat_omega + e * _dot(weights, prepared.chain_r)]
    responses += [prime_omega[i] + e * u_prime[i] for i in range(size)]
    return b"".join([*(c.raw for c in prepared.commitments), *(c.raw for c in chain),
                     *(t.raw for t in commitments), *(encode_scalar(s) for s in responses)])


# -- the statement and its hashes ---------------------------------------------------------

def statement_digest(context: bytes, key: Point, source, result, commitments) -> bytes:
    """``SHA-512(framed(u-domain; ctx, K, a, b, c))``, each list's encodings concatenated."""
    return hashlib.sha512(framed(_U, [context, key.raw, b"".join(c.raw for c in source),
                                      b"".join(c.raw for c in result),
                                      b"".join(c.raw for c in commitments)])).digest()


def challenges(seed: bytes, size: int) -> list[int]:
    """``uⱼ = H(u-domain; statement digest, j as 4 bytes)``."""
    return [hashed(_U, seed, j.to_bytes(4, "big")) for j in range(size)]


def chain_weights(seed: bytes, chain) -> list[int]:
    """``λᵢ = H(weight-domain; SHA-512(framed(weight-domain; statement digest, Ĉ)), i)``."""
    digest = hashlib.sha512(framed(_WEIGHT, [seed, b"".join(c.raw for c in chain)])).digest()
    return [hashed(_WEIGHT, digest, i.to_bytes(4, "big")) for i in range(len(chain))]


def challenge(seed: bytes, chain, commitments) -> int:
    """``e = H(challenge-domain; statement digest, Ĉ, T₁, T₂, T₃, T₄.c₁, T₄.c₂, T̂)``."""
    return hashed(_CHALLENGE, seed, b"".join(c.raw for c in chain), *(t.raw for t in commitments))


# -- the verifier ---------------------------------------------------------------------------

#: A point an equation names: ("G",), ("K",), ("H", k) the k-th generator, ("in", j, 1|2)
#: and ("out", i, 1|2) a ciphertext's c₁ or c₂, or a point of the proof itself.
Ref = tuple


class Statement(NamedTuple):
    """One shuffle's claim and proof, read: the challenges recomputed, the equations built."""

    size: int
    commitments: list[Point]  # cⱼ
    chain: list[Point]  # Ĉᵢ
    ts: tuple[Point, ...]  # T₁ T₂ T₃ T₄.c₁ T₄.c₂ T̂
    equations: list[dict[Ref, int]]  # each equation's terms: point -> coefficient
    seed: bytes


def read(key: Point, source: Sequence[Ciphertext], result: Sequence[Ciphertext],
         proof: object, context: bytes) -> Statement:
    """The proof of ``result`` as a shuffle of ``source``, read and its equations built;
    GroupError if it is not even a proof's shape (its points are checked where multiplied)."""
    size = len(source)
    if len(result) != size or not isinstance(proof, bytes) or len(proof) != proof_bytes(size):
        raise GroupError("not a shuffle proof of this deck's size")
    points = [Point(proof[i:i + POINT_BYTES]) for i in range(0, POINT_BYTES * (2 * size + 6), POINT_BYTES)]
    scalars = [int(Scalar.from_wire(proof[i:i + SCALAR_BYTES]))
               for i in range(POINT_BYTES * (2 * size + 6), len(proof), SCALAR_BYTES)]
    commitments, chain, ts = points[:size], points[size:2 * size], tuple(points[2 * size:])
    seed = statement_digest(context, key, source, result, commitments)
    e = challenge(seed, chain, ts)
    return Statement(size, commitments, chain, ts,
                     _equations(size, seed, e, chain, scalars, source), seed)


def _equations(size: int, seed: bytes, e: int, chain, scalars: list[int], source) -> list[dict]:
    """The six equations (``EQUATIONS``), each ``Σ coefficient·point = T``."""
    s1, s2, s3, s4, hat_s = scalars[:5]
    prime_s = scalars[5:]
    u = challenges(seed, size)
    weights = chain_weights(seed, chain)
    eu = [-e * uj % ORDER for uj in u]  # −e·uⱼ: each input's and each commitment's
    product = 1
    for uj in u:
        product = product * uj % ORDER
    column_sums: dict[Ref, int] = {("G",): s1}  # (1): s₁·G − e·Σcⱼ + e·ΣHᵢ
    column_sums.update({("c", j): -e for j in range(size)})
    column_sums.update({("H", k): e for k in range(1, size + 1)})
    chain_end: dict[Ref, int] = {("G",): s2, ("chat", size - 1): -e, ("H", 0): e * product}
    opening: dict[Ref, int] = {("G",): s3}  # (3): s₃·G + Σs'ᵢ·Hᵢ − e·Σuⱼ·cⱼ
    opening.update({("H", i + 1): prime_s[i] for i in range(size)})
    opening.update({("c", j): eu[j] for j in range(size)})
    reencrypted: list[dict[Ref, int]] = []  # (4), c₁ then c₂: Σs'ᵢ·bᵢ − e·Σuⱼ·aⱼ − s₄·(G, K)
    for component, base in ((1, ("G",)), (2, ("K",))):
        terms: dict[Ref, int] = {base: -s4}
        terms.update({("out", i, component): prime_s[i] for i in range(size)})
        terms.update({("in", j, component): eu[j] for j in range(size)})
        reencrypted.append(terms)
    # (5): ŝ·G + Σλᵢs'ᵢ·Ĉᵢ₋₁ − e·Σλᵢ·Ĉᵢ, each link once (Ĉ₋₁ = H)
    links: dict[Ref, int] = {("G",): hat_s, ("H", 0): weights[0] * prime_s[0]}
    for i in range(size):
        following = weights[i + 1] * prime_s[i + 1] if i + 1 < size else 0
        links[("chat", i)] = following - e * weights[i]
    if all(c.c1 == G for c in source):  # the starting deck: every c₁ is G
        reencrypted[0][("G",)] += sum(eu)
        for j in range(size):
            del reencrypted[0][("in", j, 1)]
    return [column_sums, chain_end, opening, *reencrypted, links]


def verify(key: Point, source: Sequence[Ciphertext], result: Sequence[Ciphertext],
           proof: object, context: bytes) -> bool:
    """Whether ``proof`` shows ``result`` to be a shuffle of ``source`` under ``key``: every
    equation checked on its own. Every point of both decks and of the proof is multiplied
    (or added and the sum multiplied), so libsecp256k1 refuses one that is not a point."""
    try:
        statement = read(key, source, result, proof, context)
        point = _resolver(statement, key, source, result)
        for terms, t in zip(statement.equations, statement.ts):
            resolved: dict[Point, int] = {}
            for ref, coefficient in terms.items():
                resolved[point(ref)] = (resolved.get(point(ref), 0) + coefficient) % ORDER
            if _evaluate(resolved) != t:
                return False
        return True
    except GroupError:
        return False


def _resolver(statement: Statement, key: Point, source, result):
    h = generators(statement.size)

    def point(ref) -> Point:
        name = ref[0]
        if name == "G":
            return G
        if name == "K":
            return key
        if name == "H":
            return h[ref[1]]
        if name == "c":
            return statement.commitments[ref[1]]
        if name == "chat":
            return statement.chain[ref[1]]
        deck = source if name == "in" else result
        return deck[ref[1]].c1 if ref[2] == 1 else deck[ref[1]].c2
    return point


class BatchCheck:
    """Several shuffles' proofs of one deal, checked as one equation: each proof's six
    equations weighted by factors only this verifier knows (hashed from its own secret), so
    that a false one makes the sum miss zero but with probability about 1/n. Each proof's
    own points are multiplied as it is added; a point shared — a generator, the joint key,
    a deck's ciphertext that one shuffle makes and the next shuffles — gathers its
    coefficients and is multiplied once (``flush``). ``holds`` says whether everything
    added sums to zero; if not, ``verify`` on each finds which."""

    def __init__(self, size: int, key: Point, secret: bytes):
        self.size, self.key, self.secret = size, key, secret
        self.pending: dict[Ref, int] = {}  # shared points' coefficients, not multiplied yet
        self._parts: list[Point] = []  # what is multiplied so far, added up by holds

    def add(self, statement: Statement, source_ref, result_ref) -> None:
        """A read proof whose input deck is ``source_ref`` and output ``result_ref`` (how
        the caller names those decks: a deck gathers its coefficients under its name)."""
        own: dict[Point, int] = {}
        for k, (terms, t) in enumerate(zip(statement.equations, statement.ts)):
            mu = hashed(_BATCH, self.secret, statement.seed, k.to_bytes(1, "big"))
            own[t] = (own.get(t, 0) - mu) % ORDER
            for ref, coefficient in terms.items():
                name = ref[0]
                if name == "c":
                    point = statement.commitments[ref[1]]
                    own[point] = (own.get(point, 0) + mu * coefficient) % ORDER
                elif name == "chat":
                    point = statement.chain[ref[1]]
                    own[point] = (own.get(point, 0) + mu * coefficient) % ORDER
                else:
                    if name in ("in", "out"):
                        ref = (source_ref if name == "in" else result_ref, *ref[1:])
                    self.pending[ref] = (self.pending.get(ref, 0) + mu * coefficient) % ORDER
        self._add(_evaluate(own))

    def flush(self, deck_ref, deck: Sequence[Ciphertext]) -> None:
        """Multiply ``deck``'s ciphertexts, once every proof that names it is added."""
        terms: dict[Point, int] = {}
        for i, ciphertext in enumerate(deck):
            for component, point in ((1, ciphertext.c1), (2, ciphertext.c2)):
                coefficient = self.pending.pop((deck_ref, i, component), None)
                if coefficient:
                    terms[point] = (terms.get(point, 0) + coefficient) % ORDER
        if terms:
            self._add(_evaluate(terms))

    def fold(self, deck_ref, source_ref, order: Sequence[int], reencryption: Sequence[int]) -> None:
        """The verifier's own shuffle: ``deck_ref`` is ``source_ref`` permuted by ``order`` and
        re-encrypted with ``reencryption`` (``outᵢ = in_π(i) + ρᵢ·(G, K)``), which this verifier
        made itself, so each coefficient gathered on ``outᵢ`` moves to ``in_π(i)`` and, times
        ``ρᵢ``, to ``G`` and ``K``: the sum is the same point, and this deck is never multiplied.
        Call it once every proof that names ``deck_ref`` is added, before ``source_ref`` is
        flushed."""
        pending = self.pending
        for i, (j, rho) in enumerate(zip(order, reencryption)):
            for component, base in ((1, ("G",)), (2, ("K",))):
                coefficient = pending.pop((deck_ref, i, component), None)
                if coefficient:
                    moved = (source_ref, j, component)
                    pending[moved] = (pending.get(moved, 0) + coefficient) % ORDER
                    pending[base] = (pending.get(base, 0) + coefficient * rho) % ORDER

    def holds(self) -> bool:
        """Whether everything added sums to zero (the decks flushed first)."""
        h = generators(self.size)
        terms: dict[Point, int] = {}
        for ref, coefficient in self.pending.items():
            name = ref[0]
            point = G if name == "G" else self.key if name == "K" else h[ref[1]] if name == "H" else None
            if point is None:
                raise ValueError(f"deck {ref[0]!r} was never flushed")  # a caller's slip
            terms[point] = (terms.get(point, 0) + coefficient) % ORDER
        self.pending = {}
        if terms:
            self._add(_evaluate(terms))
        return point_sum(self._parts) is IDENTITY

    def _add(self, point: Point | None) -> None:
        if point is not None:
            self._parts.append(point)


# -- arithmetic ---------------------------------------------------------------------------------

def encode_scalar(n: int) -> bytes:
    """``n`` modulo the group's order, as the proof writes a scalar (32 bytes, big-endian)."""
    return (n % ORDER).to_bytes(SCALAR_BYTES, "big")


def _base(n: int) -> Point:
    return base_mul(Scalar(encode_scalar(n)))


def _mul(n: int, point: Point) -> Point:
    return Scalar(encode_scalar(n)) * point


def _combination(scalars: Sequence[int], points: Sequence[Point]) -> Point:
    """``Σ sᵢ·Pᵢ``: one variable-base multiplication for each point."""
    return point_sum(_mul(s, p) for s, p in zip(scalars, points))


def _c1_combination(scalars: Sequence[int], deck: Sequence[Ciphertext]) -> Point:
    """``Σ sᵢ·c₁ᵢ``; ``(Σ sᵢ)·G`` with one fixed-base multiplication when every ``c₁`` is
    ``G`` (the starting deck)."""
    if all(c.c1 == G for c in deck):
        return _base(sum(scalars))
    return _combination(scalars, [c.c1 for c in deck])


def _evaluate(terms: dict[Point, int]) -> Point | None:
    """``Σ coefficient·point`` (None if nothing is left): ``G``'s term with libsecp256k1's
    fixed-base table, the points that share a coefficient added first and multiplied once
    (a proof's ``e·Σcⱼ``), every other point multiplied once."""
    by_coefficient: dict[int, list[Point]] = {}
    for point, coefficient in terms.items():
        if coefficient % ORDER:
            by_coefficient.setdefault(coefficient % ORDER, []).append(point)
    parts = []
    for coefficient, points in by_coefficient.items():
        others = [p for p in points if p != G]
        if len(others) < len(points):
            parts.append(_base(coefficient))
        if others:
            parts.append(_mul(coefficient, point_sum(others)))
    return point_sum(parts) if parts else None


def _dot(a: Sequence[int], b: Sequence[int]) -> int:
    return sum(x * y for x, y in zip(a, b)) % ORDER
