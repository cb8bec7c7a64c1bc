"""Test vectors for the private (mental-poker) deal, for implementations written from
docs/protocol.md ("The mental-poker deal").

``python -m net.tools.vectors`` writes them with the others into docs/vectors/; every value
is made by the code the deal runs on (``net.trust.deals.mental``), from fixed identity keys:

* ``mental-secrets.json``: a party's secrets for one deal from its signature σ (the key
  share ``x`` and ``X``, the shuffle seed, the nonce key, a commitment's salt), and how
  a scalar is hashed from framed parts;
* ``mental-cards.json``: every card number's point, and its name in each title;
* ``mental-deal.json``: a whole small deal between two parties (8 cards: three seats of
  two cards and a spare of two), every message in log order with the bytes its party
  signs and the signature, the decks, the cards each party learns, the reveals;
* ``mental-proofs.json``: the deal's proofs worked step by step (a key share's Schnorr
  proof, a batch of decryption shares with its weights, a played card's share, a shown
  hand): transcripts, nonces, challenges, responses;
* ``mental-moves.json``: what the deal adds to the moves and the log: a played card's
  move carrying its proof, a bury's move with its commitment, the log entries;
* ``mental-shuffle-proof.json``: the second party's shuffle in that deal and its proof,
  worked step by step: generators, the permutation commitment, the challenges, the
  chain, the weights, nonces, commitments, the challenge and the responses, and each
  verification equation's two sides.

The deal is no title's (a real deck's messages are the same, only longer); its card
numbers are named as Rook's where a move names one. tests/net/trust/test_mental_vectors.py
recomputes every value from its inputs with nothing but SHA-2, Ed25519, libsecp256k1's
secp256k1 operations (through coincurve) and the canonical encoding.
"""

from __future__ import annotations

import hashlib
import json
import textwrap
import unicodedata
from pathlib import Path
from typing import TypedDict

from engine import canonical, make_game
from engine.deal import shuffled
from net.trust.deals.mental import deck as decks
from net.trust.deals.mental import messages as mm
from net.trust.deals.mental import shuffle_proof as sp
from net.trust.deals.mental.client import DealClient
from net.trust.deals.mental.deck import Ciphertext
from net.trust.deals.mental.flows import Commit, Finish, Give, OpenToAll
from net.trust.deals.mental.group import (ORDER, POINT_BYTES, SCALAR_BYTES, G, Point, Scalar, base_mul,
                                          framed, point_sum)
from net.trust.deals.mental.keys import CONTEXT_DOMAIN, SECRET_DOMAIN, DealContext, PartySecrets
from net.trust.deals.mental.machine import MentalDeal
from net.trust.deals.mental.outputs import Dealt, Opened, Played, Verified
from net.trust.deals.mental.sequencer import MENTAL_DOMAIN
from net.trust.deals.mental.setup import DealSetup, Party
from net.trust.signing import ACTION_DOMAIN, HIDDEN_DOMAIN, hidden_digest, seal, signed_bytes
from net.wire import messages as m

from net.tools.vector_keys import FORMAT, TABLE, identity, key_seed, secret

GROUP_ORDER = ORDER  # n, secp256k1's prime order
HAND, ATTEMPT = 3, 0
HOST, GUEST = "host", "player 1"  # the parties' identities (vectors.identity)


class Layout(TypedDict):
    """The deal's sizes, as ``DealSetup`` takes them by name."""
    num_players: int
    hand_size: int
    spare_size: int
    dealer: int


LAYOUT: Layout = {"num_players": 3, "hand_size": 2, "spare_size": 2, "dealer": 0}
SEATS = {HOST: (0, 2), GUEST: (1,)}  # the host's client plays seat 0 and a computer's seat 2
BURY_LABEL = "bury"
KEY_DOMAIN = b"parlour-mental-share-key/1"
SHUFFLE_DOMAIN = b"parlour-mental-shuffle/1"
NONCE_KEY_DOMAIN = b"parlour-mental-nonce-key/1"
SALT_DOMAIN = b"parlour-mental-salt/1"


def _context() -> DealContext:
    return DealContext(TABLE, HAND, ATTEMPT)


def _setup() -> DealSetup:
    parties = tuple(Party(identity(who).public_key, SEATS[who]) for who in (HOST, GUEST))
    return DealSetup(_context(), parties, **LAYOUT)


def _scalar_case(domain: bytes, parts: list[bytes], note: str) -> dict:
    """A scalar hashed from framed parts (``Scalar.from_hash``), every step shown."""
    preimage = framed(domain, parts)
    return {"note": note, "domain": domain.decode(), "parts": parts, "framed": preimage,
            "sha512": hashlib.sha512(preimage).digest(),
            "scalar": Scalar.from_hash(domain, *parts).raw}


def secrets_vectors() -> dict:
    who = identity(GUEST)
    context = _context()
    sigma = who.sign(context.signed_bytes())
    secrets = PartySecrets.from_signature(sigma)
    seat, label = SEATS[GUEST][0], BURY_LABEL
    salt_label = f"{seat}/{label}"
    return {
        "format": FORMAT, "what": "a party's secrets for one deal, and scalars hashed from framed parts",
        "group_order": str(GROUP_ORDER), "base_point": G.raw,
        "party": {"private_key_seed": key_seed(GUEST), "public_key": who.public_key},
        "context": context.plain(),
        "signed_bytes": context.signed_bytes(), "signed_value": [SECRET_DOMAIN, context.plain()],
        "signature": sigma,
        "share_key": {"domain": KEY_DOMAIN.decode(), "framed": framed(KEY_DOMAIN, [sigma]),
                      "sha512": hashlib.sha512(framed(KEY_DOMAIN, [sigma])).digest(),
                      "x": secrets.x.raw, "X": secrets.key.raw},
        "shuffle_seed": {"preimage": SHUFFLE_DOMAIN + sigma,
                         "value": secrets.shuffle_seed},
        "nonce_key": {"preimage": NONCE_KEY_DOMAIN + sigma, "value": secrets.nonce_key},
        "salt": {"seat": seat, "label": label, "salt_label": salt_label,
                 "preimage": SALT_DOMAIN + secrets.nonce_key + salt_label.encode(),
                 "value": secrets.salt(salt_label),
                 "sha512": hashlib.sha512(SALT_DOMAIN + secrets.nonce_key + salt_label.encode()).digest()},
        "scalars": [
            _scalar_case(b"parlour-mental-reencrypt/1", [secrets.shuffle_seed, (5).to_bytes(2, "big")],
                         "r₅: the re-encryption randomness of output position 5"),
            _scalar_case(b"parlour-mental-batch/1", [bytes(64), (0).to_bytes(4, "big")],
                         "a batch weight ρ₀ from a (here: all-zero) weight seed"),
            _scalar_case(b"x", [], "a domain and no parts"),
            _scalar_case(b"parlour-mental-key-proof/1", [b"", b"\x01" * 3],
                         "an empty part is framed too (its length, 0)"),
        ],
    }


def cards_vectors() -> dict:
    names = {}
    for title, ruleset, mode in (("rook", None, None), ("somerset", None, None),
                                 ("horseshoes", None, "three")):
        game = make_game(title, ruleset, mode)
        names[title] = [game.deck.name(c) for c in range(game.deck.size)]
    size = max(len(v) for v in names.values())
    cards = []
    for n in range(size):
        preimage = b"parlour-card/1" + n.to_bytes(2, "big")
        uniform = hashlib.sha512(preimage).digest()[:32]
        cards.append({"card": n, "uniform": uniform, "point": decks.card_point(n).raw})
    return {"format": FORMAT, "what": "card numbers as points", "domain": "parlour-card/1",
            "names": names, "cards": cards}


# -- the deal -----------------------------------------------------------------------------

class _Deal:
    """The deal run between the two parties' clients, every message logged in order."""

    def __init__(self):
        self.setup = _setup()
        self.ids = [identity(HOST), identity(GUEST)]
        self.clients = [DealClient(who, self.setup) for who in self.ids]
        self.log: list[tuple[int, dict]] = []  # (party, envelope)
        self.learned: list[list] = [[], []]

    def send(self, party: int, envelopes: list[dict]) -> None:
        """Log ``party``'s envelopes, each read by every client in turn (answers too)."""
        queue = [(party, e) for e in envelopes]
        while queue:
            sender, envelope = queue.pop(0)
            self.log.append((sender, envelope))
            for i, client in enumerate(self.clients):
                before = len(client.learned)
                queue += [(i, e) for e in client.logged(sender, envelope)]
                self.learned[i] += client.learned[before:]

    def play(self, seat: int, card: int) -> dict:
        """The owner's proof for ``card``; every client reads it as a logged move carries it."""
        owner = self.setup.owner(seat)
        message = self.clients[owner].play(seat, card)
        for i, client in enumerate(self.clients):
            before = len(client.learned)
            assert client.logged_play(owner, message) == []
            self.learned[i] += client.learned[before:]
        return message

    def known(self, party: int) -> dict[int, int]:
        return dict(self.machine(party).known)

    def machine(self, party: int) -> MentalDeal:
        """``party``'s deal machine: each client here plays a party, so each has one."""
        machine = self.clients[party].machine
        if machine is None:
            raise RuntimeError(f"client {party} is not a party to the deal")
        return machine

    @property
    def final(self) -> list[Ciphertext]:
        """The deck every card is dealt from, as the host's client read it (once every
        party's shuffle is logged)."""
        final = self.machine(0).final
        if final is None:
            raise RuntimeError("the deal's shuffles are not all logged yet")
        return final

    @property
    def joint(self) -> Point:
        """The parties' joint key, as the host's client summed it (once every key is logged)."""
        joint = self.machine(0).joint
        if joint is None:
            raise RuntimeError("the parties' key shares are not all logged yet")
        return joint


def _run() -> tuple[_Deal, dict]:
    """The deal: keys, shuffles, the deal's shares, the spare opened to all and given to
    seat 1 (as Rook's widow is), seat 1's bury, every card played, the reveals; with the
    cards buried and each play's ``mental-play`` message."""
    deal = _Deal()
    for party, client in enumerate(deal.clients):
        deal.send(party, client.start())
    for party, client in enumerate(deal.clients):
        deal.send(party, client.step(OpenToAll()))
    for client in deal.clients:
        client.step(Give(1))
    cards = {s: [deal.known(deal.setup.owner(s))[p] for p in deal.setup.dealt(s)] for s in (0, 1, 2)}
    spare = [deal.known(1)[p] for p in deal.setup.spare()]
    bury = (cards[1][0], spare[0])  # a card dealt to seat 1 and one it took from the spare
    deal.send(1, deal.clients[1].step(Commit(1, BURY_LABEL, bury)))
    plays = {}
    for seat, card in ((1, cards[1][1]), (2, cards[2][0]), (0, cards[0][0]),
                       (1, spare[1]), (2, cards[2][1]), (0, cards[0][1])):
        plays[(seat, card)] = deal.play(seat, card)
    for party, client in enumerate(deal.clients):
        deal.send(party, client.step(Finish()))
    return deal, {"bury": bury, "plays": plays}


def _deck(raw: bytes) -> list[dict]:
    return [{"c1": c.c1.raw, "c2": c.c2.raw} for c in decks.decode_deck(raw, len(raw) // decks.CIPHERTEXT_BYTES, False)]


def _secrets(deal: _Deal, party: int) -> PartySecrets:
    return deal.machine(party).secrets


def _party(deal: _Deal, party: int) -> dict:
    label = (HOST, GUEST)[party]
    s = _secrets(deal, party)
    return {"party": party, "private_key_seed": key_seed(label), "key": deal.ids[party].public_key,
            "seats": list(deal.setup.parties[party].seats), "signature": s.signature,
            "x": s.x.raw, "X": s.key.raw, "shuffle_seed": s.shuffle_seed, "nonce_key": s.nonce_key}


def _shuffles(deal: _Deal) -> list[dict]:
    out = []
    for party, raw in enumerate(deal.machine(0).chain.decks):
        seed = _secrets(deal, party).shuffle_seed
        permutation_seed = hashlib.sha256(b"parlour-mental-permutation/1" + seed).digest()
        out.append({"party": party, "permutation_seed": permutation_seed,
                    "permutation": shuffled(deal.setup.deck_size, permutation_seed),
                    "randomness": [r.raw for r in decks.randomness(deal.setup.deck_size, seed)],
                    "deck": _deck(raw)})
    return out


def _positions(deal: _Deal) -> list[dict]:
    """Every final position decrypted: each party's share ``xⱼ·c₁``, and ``c₂ − Σ`` the card."""
    final = deal.final
    lookup = decks.card_lookup(deal.setup.deck_size)
    out = []
    for p, ciphertext in enumerate(final):
        shares = [_secrets(deal, j).x * ciphertext.c1 for j in range(len(deal.clients))]
        point = decks.decrypt(ciphertext, shares)
        out.append({"position": p, "seat": deal.setup.seat_of(p),
                    "shares": [s.raw for s in shares], "point": point.raw, "card": lookup[point]})
    return out


def _learned(deal: _Deal, party: int) -> list[dict]:
    out = []
    for item in deal.learned[party]:
        if isinstance(item, Dealt):
            out.append({"hand": {"seat": item.seat, "positions": list(item.positions),
                                 "cards": list(item.cards)}})
        elif isinstance(item, Opened):
            out.append({"opened": {"positions": list(item.positions), "cards": list(item.cards),
                                   "public": item.public}})
        elif isinstance(item, Played):
            out.append({"played": {"seat": item.seat, "position": item.position, "card": item.card}})
        elif isinstance(item, Verified):
            out.append({"verified": {"hands": [list(h) for h in item.hands],
                                     "spare": list(item.spare)}})
    return out


def _message(party: int, envelope: dict) -> dict:
    return {"party": party, "body": envelope["body"],
            "signed_bytes": signed_bytes(MENTAL_DOMAIN, envelope["body"]), "sig": envelope["sig"]}


def deal_vectors(deal: _Deal, run: dict) -> dict:
    setup = deal.setup
    [show] = deal.machine(0).claim_redeal(2)
    return {
        "format": FORMAT, "what": "a whole deal between two parties, message by message",
        "note": "no title's deal: 3 seats of 2 cards and a spare of 2, card numbers 0–7",
        "context": _context().plain(), "domain": MENTAL_DOMAIN,
        "layout": {**LAYOUT, "deck_size": setup.deck_size,
                   "dealt": [list(setup.dealt(s)) for s in range(setup.num_players)],
                   "spare": list(setup.spare())},
        "parties": [_party(deal, i) for i in range(len(deal.clients))],
        "joint_key": deal.joint.raw,
        "initial_deck": _deck(decks.encode_deck(decks.initial_deck(setup.deck_size, deal.joint))),
        "shuffles": _shuffles(deal),
        "messages": [_message(party, envelope) for party, envelope in deal.log],
        "plays": [{"seat": seat, "card": card, "message": message}
                  for (seat, card), message in run["plays"].items()],
        "bury": {"seat": 1, "label": BURY_LABEL, "cards": sorted(run["bury"])},
        "positions": _positions(deal),
        "learned": [_learned(deal, i) for i in range(len(deal.clients))],
        "show": {"note": "seat 2's hand shown as a Rook redeal claim would show it (not logged here)",
                 "body": show.message},
    }


# -- the proofs, step by step ----------------------------------------------------------------

_KEY_PROOF = b"parlour-mental-key-proof/1"
_DLEQ = b"parlour-mental-dleq/1"
_WEIGHTS = b"parlour-mental-batch/1"
_NONCE = b"parlour-mental-nonce/1"


def _transcript(purpose: str, **fields) -> dict:
    value = [CONTEXT_DOMAIN, _context().plain(), purpose, fields]
    encoded = canonical.encode(value)
    assert encoded == _context().transcript(purpose, **fields)
    return {"value": value, "bytes": encoded}


def _key_proof(secrets: PartySecrets, party: int, proof: bytes) -> dict:
    transcript = _transcript("key", party=party)
    context, x, key = transcript["bytes"], secrets.x, secrets.key
    w = Scalar.from_hash(_NONCE, secrets.nonce_key, _KEY_PROOF, context, key.raw)
    t = base_mul(w)
    e = Scalar.from_hash(_KEY_PROOF, context, G.raw, key.raw, t.raw)
    z = w + e * x
    assert e.raw + z.raw == proof
    return {"party": party, "X": key.raw, "transcript": transcript, "nonce": w.raw, "t": t.raw,
            "challenge": e.raw, "response": z.raw, "proof": proof}


def _dleq(secrets: PartySecrets, bases: list[Point], shares: list[Point], transcript: dict,
          proof: bytes) -> dict:
    context, x, key = transcript["bytes"], secrets.x, secrets.key
    steps = {"X": key.raw, "transcript": transcript, "bases": [b.raw for b in bases],
             "shares": [s.raw for s in shares]}
    if len(bases) == 1:
        c, d = bases[0], shares[0]
    else:
        seed_input = framed(_WEIGHTS, [context, key.raw, b"".join(b.raw for b in bases),
                                       b"".join(s.raw for s in shares)])
        seed = hashlib.sha512(seed_input).digest()
        weights = [Scalar.from_hash(_WEIGHTS, seed, i.to_bytes(4, "big")) for i in range(len(bases))]
        c = point_sum(w * b for w, b in zip(weights, bases))
        d = point_sum(w * s for w, s in zip(weights, shares))
        assert d == x * c
        steps.update(weight_seed_input=seed_input, weight_seed=seed,
                     weights=[w.raw for w in weights])
    w = Scalar.from_hash(_NONCE, secrets.nonce_key, _DLEQ, context, key.raw, c.raw, d.raw)
    t1, t2 = base_mul(w), w * c
    e = Scalar.from_hash(_DLEQ, context, G.raw, key.raw, c.raw, d.raw, t1.raw, t2.raw)
    z = w + e * x
    assert e.raw + z.raw == proof
    return {**steps, "C": c.raw, "D": d.raw, "nonce": w.raw, "t1": t1.raw, "t2": t2.raw,
            "challenge": e.raw, "response": z.raw, "proof": proof}


def _points(raw: bytes) -> list[Point]:
    return [Point(raw[i:i + POINT_BYTES]) for i in range(0, len(raw), POINT_BYTES)]


def proofs_vectors(deal: _Deal, run: dict) -> dict:
    final = deal.final
    bodies = [(party, envelope["body"]) for party, envelope in deal.log]
    key1 = next(b for p, b in bodies if p == 1 and b["type"] == mm.KEY)
    shares1 = next(b for p, b in bodies if p == 1 and b["type"] == mm.SHARES)
    [batch] = shares1["batches"]
    seat, card = 1, next(c for (s, c), msg in run["plays"].items() if s == 1 and msg["share"])
    play = run["plays"][(seat, card)]
    [show] = deal.machine(0).claim_redeal(2)
    show = show.message
    c1 = lambda positions: [final[p].c1 for p in positions]  # noqa: E731
    return {
        "format": FORMAT, "what": "the deal's proofs, step by step (from mental-deal.json)",
        "key": _key_proof(_secrets(deal, 1), 1, key1["proof"]),
        "shares": {"prover": 1, "to": batch["to"], "positions": batch["positions"],
                   **_dleq(_secrets(deal, 1), c1(batch["positions"]), _points(batch["shares"]),
                           _transcript("shares", prover=1, to=batch["to"],
                                       positions=batch["positions"]), batch["proof"])},
        "play": {"party": 1, "seat": seat, "position": play["position"],
                 **_dleq(_secrets(deal, 1), c1([play["position"]]), _points(play["share"]),
                         _transcript("play", party=1, seat=seat, position=play["position"]),
                         play["proof"])},
        "show": {"party": 0, "seat": show["seat"], "positions": show["positions"],
                 **_dleq(_secrets(deal, 0), c1(show["positions"]), _points(show["shares"]),
                         _transcript("show", party=0, seat=show["seat"],
                                     positions=show["positions"]), show["proof"])},
    }


# -- the moves and the log entries -----------------------------------------------------------

SEEN = 20  # the last entry the player holds when it moves (a made-up log)


def _head(seq: int) -> bytes:
    """The hash of entry ``seq`` of the made-up log the moves are bound to."""
    return secret(f"the hash of entry {seq}")


def _rook_names(cards) -> list[str]:
    game = make_game("rook")
    return [game.deck.name(c) for c in sorted(cards)]


def _move(player, public: dict, hidden: bytes | None, mental: dict | None, seen: int,
          envelopes: list[dict]) -> dict:
    """A move as its player signs it, and the "action" message that carries it."""
    body = m.action_body(TABLE, HAND, seen, _head(seen), public, hidden, mental)
    signed = seal(player, ACTION_DOMAIN, body)
    return {"body": body, "signed_bytes": signed_bytes(ACTION_DOMAIN, body), "sig": signed["sig"],
            "message": m.action_message(signed) | {"mental": envelopes}}


def moves_vectors(deal: _Deal, run: dict) -> dict:
    player = deal.ids[1]
    bodies = [(party, envelope) for party, envelope in deal.log]
    commit = next(e for p, e in bodies if e["body"]["type"] == mm.COMMIT)
    reveal = next(e for p, e in bodies if p == 1 and e["body"]["type"] == mm.REVEAL)
    [opening] = reveal["body"]["openings"]
    secrets = _secrets(deal, 1)
    salt = secrets.salt(f"1/{BURY_LABEL}")
    commit_value = ["parlour-mental-commit/1", _context().plain(), 1, BURY_LABEL,
                    opening["positions"], salt]
    assert hashlib.sha256(canonical.encode(commit_value)).digest() == commit["body"]["digest"]
    full = {"seat": 1, "bury": _rook_names(run["bury"]), "trump": "G"}
    public = {"seat": 1, "bury": None, "trump": "G"}
    nonce = secret("bury nonce", m.NONCE_BYTES)
    bury = _move(player, public, hidden_digest(nonce, full), None, SEEN, [commit])
    own = [(card, message) for (seat, card), message in run["plays"].items() if seat == 1]
    plays = [_move(player, {"seat": 1, "play": _rook_names([card])[0]}, None, message,
                   SEEN + 2 + i, []) for i, (card, message) in enumerate(own)]
    return {
        "format": FORMAT, "what": "the moves and log entries of the private deal (mental-deal.json's)",
        "player": {"private_key_seed": key_seed(GUEST), "public_key": player.public_key},
        "mental_deal_entry": {"hand": HAND, "dealer": LAYOUT["dealer"],
                              "parties": [{"key": p.key, "seats": list(p.seats)}
                                          for p in deal.setup.parties]},
        "commitment": {"value": commit_value, "encoding": canonical.encode(commit_value),
                       "digest": commit["body"]["digest"], "salt": salt,
                       "opening": opening, "cards": sorted(run["bury"])},
        "bury": {"full": full, "nonce": nonce,
                 "hidden_preimage": HIDDEN_DOMAIN + nonce + canonical.encode(full), **bury,
                 "entries": [{"kind": "mental", "body": {"party": 1, "signed": commit}},
                             {"kind": "action", "body": {"signed": bury["message"]["signed"]}}]},
        "plays": plays,
    }


# -- the shuffle's proof, step by step ----------------------------------------------------------

def _hex_list(values) -> list:
    return [v.raw if isinstance(v, (Point, Scalar)) else sp.encode_scalar(v) for v in values]


def shuffle_proof_vectors(deal: _Deal) -> dict:
    """Party 1's shuffle (of party 0's deck) and its proof, every intermediate value."""
    shuffler, size, key = 1, deal.setup.deck_size, deal.joint
    secrets = _secrets(deal, shuffler)
    decks_raw = deal.machine(0).chain.decks
    source = decks.decode_deck(decks_raw[shuffler - 1], size, validate=True)
    result = decks.decode_deck(decks_raw[shuffler], size, validate=True)
    [proof] = [e["body"]["proof"] for p, e in deal.log if p == shuffler and e["body"]["type"] == mm.SHUFFLE]
    transcript = _transcript("shuffle", party=shuffler)
    context = transcript["bytes"]
    prepared = sp.prepare(size, secrets.shuffle_seed, secrets.nonce_key, context)
    assert sp.prove(prepared, key, source, result, context) == proof
    generators = sp.generators(size)
    order = prepared.order
    seed = sp.statement_digest(context, key, source, result, prepared.commitments)
    u = sp.challenges(seed, size)
    u_prime = [u[order[i]] for i in range(size)]
    statement = sp.read(key, source, result, proof, context)
    chain = statement.chain
    weights = sp.chain_weights(seed, chain)
    weight_digest = hashlib.sha512(framed(b"parlour-mental-shuffle-weight/1",
                                          [seed, b"".join(c.raw for c in chain)])).digest()
    ts = dict(zip(("T1", "T2", "T3", "T4.c1", "T4.c2", "T_hat"), statement.ts))
    e = sp.challenge(seed, chain, statement.ts)
    width = POINT_BYTES * (2 * size + 6)
    responses = [proof[i:i + SCALAR_BYTES] for i in range(width, len(proof), SCALAR_BYTES)]
    assert sp.verify(key, source, result, proof, context)
    return {
        "format": FORMAT, "what": "party 1's shuffle in mental-deal.json and its proof, step by step",
        "party": shuffler, "deck_size": size, "joint_key": key.raw, "transcript": transcript,
        "generators": [{"k": k, "uniform": hashlib.sha512(b"parlour-mental-generator/1"
                                                          + k.to_bytes(2, "big")).digest()[:32],
                        "point": point.raw} for k, point in enumerate(generators)],
        "input": _deck(decks_raw[shuffler - 1]), "output": _deck(decks_raw[shuffler]),
        "permutation": order, "reencryption": _hex_list(prepared.reencryption),
        "commit_randomness": _hex_list(prepared.commit_r), "commitments": _hex_list(prepared.commitments),
        "statement_digest": seed, "u": _hex_list(u), "u_prime": _hex_list(u_prime),
        "chain_randomness": _hex_list(prepared.chain_r), "chain": _hex_list(chain),
        "weight_digest": weight_digest, "weights": _hex_list(weights),
        "nonces": _hex_list(prepared.nonces), "commitments_t": {k: v.raw for k, v in ts.items()},
        "challenge": sp.encode_scalar(e),
        "responses": {"s1": responses[0], "s2": responses[1], "s3": responses[2], "s4": responses[3],
                      "s_hat": responses[4], "s_prime": responses[5:]},
        "proof": proof,
    }


def build() -> dict[str, dict]:
    """Every mental-deal vector file's contents (plain values, bytes as bytes)."""
    deal, run = _run()
    return {"mental-secrets.json": secrets_vectors(), "mental-cards.json": cards_vectors(),
            "mental-deal.json": deal_vectors(deal, run), "mental-proofs.json": proofs_vectors(deal, run),
            "mental-moves.json": moves_vectors(deal, run),
            "mental-shuffle-proof.json": shuffle_proof_vectors(deal)}


# -- the worked example printed in docs/protocol.md --------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
BEGIN = "<!-- mental vectors: made by `python -m net.tools.vectors`, checked by tests/net/trust/test_mental_vectors.py -->"
END = "<!-- end of mental vectors -->"


def _hex(raw: bytes) -> str:
    return raw.hex()


def _value(value) -> str:
    """A plain value written as JSON, bytes as their hex."""
    return json.dumps(vectors_json(value), ensure_ascii=False, separators=(", ", ": "))


def vectors_json(value):
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {k: vectors_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [vectors_json(v) for v in value]
    return value


def _prose(text: str) -> list[str]:
    return textwrap.wrap(text, 90, break_on_hyphens=False) + [""]


def _lines(pairs) -> list[str]:
    width = max(_width(name) for name, _ in pairs)
    return ["```"] + [f"{name}{' ' * (width - _width(name))}  {value}" for name, value in pairs] + ["```"]


def _width(text: str) -> int:
    """Columns ``text`` takes (a combining accent, as in r̂, takes none)."""
    return sum(not unicodedata.combining(ch) for ch in text)


def _framed(domain: str, parts: list[bytes]) -> str:
    """framed(…) with a space between its fields."""
    fields = [len(domain).to_bytes(2, "big").hex(), domain.encode().hex()]
    for part in parts:
        fields += [len(part).to_bytes(4, "big").hex(), part.hex()]
    return " ".join(f for f in fields if f)


def _secrets_text(v: dict) -> list[str]:
    salt = v["salt"]
    cases = v["scalars"]
    return [
        *_prose("**A party's secrets** (`mental-secrets.json`): the Ed25519 seed (private key, "
                "RFC 8032) of party \"player 1\", the deal, the bytes it signs, σ, and what σ "
                "gives:"),
        *_lines([("seed", _hex(v["party"]["private_key_seed"])),
                 ("public key", _hex(v["party"]["public_key"])),
                 ("deal", _value(v["context"])),
                 ("signed bytes", _hex(v["signed_bytes"])),
                 ("σ", _hex(v["signature"])),
                 ("framed", _framed(v["share_key"]["domain"], [v["signature"]])),
                 ("x", _hex(v["share_key"]["x"])),
                 ("X = x·G", _hex(v["share_key"]["X"])),
                 ("shuffle seed", _hex(v["shuffle_seed"]["value"])),
                 ("nonce key", _hex(v["nonce_key"]["value"])),
                 (f"salt {salt['salt_label']}", _hex(salt["value"]))]), "",
        *_prose("`framed` is `H`'s input for `x`: the domain's length and the domain "
                "(`parlour-mental-share-key/1`), σ's length and σ. Two more scalars hashed from "
                "framed parts, the re-encryption randomness `r₅` of this party's shuffle and a "
                "batch weight from an all-zero weight seed:"),
        *_lines([(name, f"{_framed(case['domain'], case['parts'])} → {_hex(case['scalar'])}")
                 for name, case in (("r5", cases[0]), ("ρ0", cases[1]))]), ""]


def _cards_text(v: dict) -> list[str]:
    names = v["names"]
    titles = list(names)  # in the vectors' order
    rows = ["| card | " + " | ".join(t.capitalize() for t in titles) + " | point |",
            "|---" * (len(titles) + 2) + "|"]
    for card in v["cards"][:8]:
        n = card["card"]
        shown = " | ".join(f"`{names[t][n]}`" for t in titles)
        rows.append(f"| {n} | {shown} | `{_hex(card['point'])}` |")
    return [*_prose("**Cards** (`mental-cards.json` has all 57): the first eight, those of the "
                    "deal below."), *rows, ""]


def _deal_text(v: dict) -> list[str]:
    layout = v["layout"]
    dealt = ", ".join(f"seat {s}: {p[0]}–{p[-1]}" for s, p in enumerate(layout["dealt"]))
    pairs = [(f"party {p['party']}", f"seats {p['seats']}, key {_hex(p['key'])}")
             for p in v["parties"]]
    pairs += [(f"X{p['party']}", _hex(p["X"])) for p in v["parties"]]
    pairs += [("K = X0 + X1", _hex(v["joint_key"])), ("positions", f"{dealt}; spare "
              f"{layout['spare'][0]}–{layout['spare'][-1]} (dealer {layout['dealer']})")]
    cards = ", ".join(f"{p['position']}→{p['card']}" for p in v["positions"])
    rows = ["| # | party | message | signed bytes | sig |", "|---|---|---|---|---|"]
    for i, msg in enumerate(v["messages"]):
        rows.append(f"| {i} | {msg['party']} | {_summary(msg['body'])} | "
                    f"{len(msg['signed_bytes'])} | `{_hex(msg['sig'])[:16]}…` |")
    return [*_prose("**A deal** (`mental-deal.json`): two parties, the host's client (seats 0 "
                    "and 2) and player 1's (seat 1); three seats of two cards and a spare of two "
                    "(8 cards: no title's deal); the spare opened to everyone and given to seat "
                    "1, which buries two cards; every card played; the reveals."),
            *_lines(pairs), "",
            *_prose("The log, in order (the plays travel inside the moves: `mental-moves.json`; "
                    "the JSON file has every message whole, its signed bytes and signature, and "
                    "each shuffle's permutation, randomness and deck):"),
            *rows, "", *_prose(f"The final deck decrypts to (position→card): {cards}.")]


def _summary(body: dict) -> str:
    kind = body["type"]
    if kind == mm.SHARES:
        batches = "; ".join(f"to {'nil' if b['to'] is None else b['to']}: {b['positions']}"
                            for b in body["batches"])
        return f"`{kind}` ({batches})"
    if kind == mm.COMMIT:
        return f"`{kind}` (seat {body['seat']}, `{body['label']}`, {body['count']})"
    if kind == mm.REVEAL:
        openings = "; ".join(f"seat {o['seat']} `{o['label']}` {o['positions']}"
                             for o in body["openings"]) or "none"
        return f"`{kind}` (`{body['reason']}`, openings: {openings})"
    return f"`{kind}`"


def _proof_pairs(step: dict) -> list[tuple[str, str]]:
    names = {"C": "C", "D": "D", "nonce": "w", "t1": "T1", "t2": "T2", "challenge": "e",
             "response": "z"}
    return [(label, _hex(step[key])) for key, label in names.items()]


def _proofs_text(v: dict) -> list[str]:
    key, shares, play = v["key"], v["shares"], v["play"]
    return [
        *_prose("**Proofs** (`mental-proofs.json`, from that deal; the show proof there too). "
                "Party 1's key proof:"),
        *_lines([("ctx", _hex(key["transcript"]["bytes"])), ("w", _hex(key["nonce"])),
                 ("T = w·G", _hex(key["t"])), ("e", _hex(key["challenge"])),
                 ("z", _hex(key["response"]))]), "",
        *_prose(f"`ctx` is `canonical({_value(key['transcript']['value'])})`. Party 1's batch "
                f"to party 0 (positions {shares['positions']}), with its weights:"),
        *_lines([("ctx", _value(shares["transcript"]["value"])),
                 ("weight seed", _hex(shares["weight_seed"])),
                 *[(f"ρ{i}", _hex(w)) for i, w in enumerate(shares["weights"])],
                 *_proof_pairs(shares)]), "",
        *_prose(f"Party 1's proof for the card seat 1 played from position {play['position']} "
                "(one share: `C` is the position's `c₁`, `D` the share):"),
        *_lines([("ctx", _value(play["transcript"]["value"])), *_proof_pairs(play)]), ""]


def _shuffle_proof_text(v: dict) -> list[str]:
    r = v["responses"]
    return [
        *_prose("**A shuffle's proof** (`mental-shuffle-proof.json`: every value of party 1's "
                "proof in that deal, N = 8; \"The shuffle's proof\", below). Its transcript, the "
                "first generators, the permutation π (`bᵢ = a_π(i) + ρᵢ·(G, K)`), and the first "
                "of each list:"),
        *_lines([("ctx", _value(v["transcript"]["value"])),
                 ("H = P0", _hex(v["generators"][0]["point"])),
                 ("H0 = P1", _hex(v["generators"][1]["point"])),
                 ("π", str(v["permutation"])),
                 ("r0", _hex(v["commit_randomness"][0])),
                 ("c0", _hex(v["commitments"][0])),
                 ("s (digest)", _hex(v["statement_digest"])),
                 ("u0", _hex(v["u"][0])),
                 ("r̂0", _hex(v["chain_randomness"][0])),
                 ("Ĉ0", _hex(v["chain"][0])),
                 ("λ0", _hex(v["weights"][0])),
                 ("w1", _hex(v["nonces"][0])),
                 *[(name.replace("T_hat", "T̂"), _hex(point)) for name, point in v["commitments_t"].items()],
                 ("e", _hex(v["challenge"])),
                 ("s1", _hex(r["s1"])), ("ŝ", _hex(r["s_hat"])), ("s'0", _hex(r["s_prime"][0]))]), ""]


def _moves_text(v: dict) -> list[str]:
    commitment, bury, play = v["commitment"], v["bury"], v["plays"][0]
    return [
        *_prose("**The bury and a played card** (`mental-moves.json`). Seat 1 buries the cards "
                f"at positions {commitment['opening']['positions']} (cards "
                f"{commitment['cards']}):"),
        *_lines([("commitment", _value(commitment["value"])),
                 ("encoded", _hex(commitment["encoding"])),
                 ("digest", _hex(commitment["digest"])),
                 ("full action", _value(bury["full"])),
                 ("nonce", _hex(bury["nonce"])),
                 ("hidden", _hex(bury["body"]["hidden"]))]), "",
        *_prose("and sends `{\"type\": \"action\", \"signed\": {\"body\": …, \"sig\": …}, "
                "\"private\": null, \"mental\": [its mental-commit envelope]}` with the body"),
        "```", _value(bury["body"]), "```", "",
        *_prose("A card played carries its proof in the body it signs (`\"private\": null, "
                "\"mental\": []` in the message):"),
        "```", _value(play["body"]), "```", ""]


def markdown(built: dict[str, dict]) -> str:
    """The worked example docs/protocol.md prints, between ``BEGIN`` and ``END``."""
    lines = [BEGIN, "",
             *_prose("Bytes are written in hex: a scalar as its 32-byte big-endian encoding, a "
                     "point as its 33-byte compressed encoding; in a value written as JSON a hex string "
                     "stands for bytes (msgpack `bin`)."),
             *_secrets_text(built["mental-secrets.json"]),
             *_cards_text(built["mental-cards.json"]), *_deal_text(built["mental-deal.json"]),
             *_proofs_text(built["mental-proofs.json"]),
             *_shuffle_proof_text(built["mental-shuffle-proof.json"]),
             *_moves_text(built["mental-moves.json"]), END]
    return "\n".join(lines) + "\n"


def doc_block(text: str) -> str:
    """The worked example as ``text`` (docs/protocol.md) holds it."""
    start, end = text.index(BEGIN), text.index(END) + len(END) + 1
    return text[start:end]


def write_doc(built: dict[str, dict], path: Path = DOC) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(doc_block(text), markdown(built)), encoding="utf-8")
