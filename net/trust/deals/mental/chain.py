"""The public part of a deal, which every reader checks alike: keys, decks, shuffle proofs.

``ShuffleChain`` follows a deal's ``mental-key`` and ``mental-shuffle`` messages in log
order — for a party's machine (``machine.MentalDeal`` holds one) and for a client that is
no party of the deal (an onlooker: ``client.DealClient``) alike — and needs no secret:

* ``key``: a party's key share, its Schnorr proof checked; the joint key once all are in;
* ``shuffle``: a party's deck, in turn; under a proven deal (``DealSetup.proven``) its
  proof is kept for ``check``;
* ``check``: every logged shuffle's proof not checked yet is added to one batched check
  (``shuffle_proof.BatchCheck``: each deck's ciphertexts and the generators multiplied
  once for all the proofs that name them, and this reader's own deck, logged as it made
  it, not at all: folded onto the deck it shuffled), as the shuffles come — a party runs it at once
  when it is not about to shuffle, else just after (its own shuffle reveals nothing, and
  the deal waits for it). Once the deck is final and every other party's proof is in,
  the batch's verdict: if it fails, each proof is checked on its own, in shuffle order,
  and every honest reader names the same shuffler, the first whose proof fails (``Cheat``,
  rule ``shuffle``). A party runs it before it publishes any decryption share.

A proof found valid is remembered for the process (``PROVEN``: the statement and the
proof's bytes, hashed), and not checked again there: a client that restarts in the same
process and reads the log again, or a player that carries the table on and checks its
log as the host, meets the same proofs again (an app runs one client; a test runs the
host and its guests in one process). A proof that fails is never remembered.

A deal logged before shuffles were proven (protocol 13 and earlier: ``proven`` false) has
no proofs to check; its shuffles are checked only at the hand's end, when every party's
seed is revealed (``MentalDeal``'s end-of-hand verification), and a party publishes no decryption share of it.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import NoReturn

from . import deck as decks
from . import shuffle_proof
from .errors import GroupError
from .group import Point
from .proofs import verify_key
from .setup import DealSetup

#: ``cheat(party, rule, detail)``: raises ``Cheat`` naming the party (and remembers it).
Blame = Callable[[int, str, str], NoReturn]
START = -1  # the starting deck's index among the decks (the one party 0 shuffles)


class Proven:
    """The shuffle proofs this process found valid (the most recent ``size``), by the
    SHA-256 of everything the check reads: transcript, joint key, both decks, proof.
    ``forget()`` stops remembering (a benchmark of several parties in one process, each
    checking as it would on its own machine)."""

    def __init__(self, size: int = 512):
        self.size = size
        self._known: OrderedDict[bytes, None] = OrderedDict()

    def forget(self) -> None:
        self.size = 0
        self._known.clear()

    def __contains__(self, key: bytes) -> bool:
        return key in self._known

    def add(self, key: bytes) -> None:
        self._known[key] = None
        self._known.move_to_end(key)
        while len(self._known) > self.size:
            self._known.popitem(last=False)


PROVEN = Proven()


class ShuffleChain:
    def __init__(self, setup: DealSetup, cheat: Blame, secret: bytes, own: int | None = None,
                 own_seed: bytes | None = None):
        """``secret``: this reader's own, for its batch's weights (nobody else may know them
        before the proofs are in); ``own``: the shuffler this reader is (None: an onlooker),
        whose shuffle it does not check if it was logged as it was made; ``own_seed``: that
        shuffle's seed, whose permutation and re-encryption fold its deck into the batch."""
        self.setup = setup
        self.context = setup.context
        self.size = setup.deck_size
        self.parties = len(setup.parties)
        self._cheat = cheat
        self._secret, self._own, self._own_seed = secret, own, own_seed
        self.keys: dict[int, Point] = {}
        self.joint: Point | None = None
        self.decks: list[bytes] = []  # the published decks, in shuffle order
        self._proofs: dict[int, bytes] = {}  # shuffler -> its proof, not in the batch yet
        self._added: dict[int, bytes] = {}  # shuffler -> its proof, in the batch
        self._batch: shuffle_proof.BatchCheck | None = None  # once the joint key is known
        self._flushed: set[int] = set()  # decks whose ciphertexts the batch has multiplied
        self.settled = not setup.proven  # every shuffle's proof checked, the batch's verdict in
        self._made_here = False  # this reader's own shuffle logged as it made it (not checked)
        self._decoded: dict[int, list[decks.Ciphertext]] = {}

    @property
    def complete(self) -> bool:
        """Every party has shuffled: the last deck is final."""
        return len(self.decks) == self.parties

    # -- messages (shape-checked: ``messages.check``) -----------------------------------
    def key(self, sender: int, message: dict) -> bool:
        """A party's key share; True when it completes the joint key."""
        if sender in self.keys:
            if self.keys[sender].raw != message["key"]:
                self._cheat(sender, "key", "it published two different key shares")
            return False
        try:
            key = Point.from_wire(message["key"])
        except GroupError:
            self._cheat(sender, "key", "its key share is not a group element")
        if not verify_key(key, message["proof"], self.context.transcript("key", party=sender)):
            self._cheat(sender, "key", "its key share came without a valid proof of its secret")
        self.keys[sender] = key
        if len(self.keys) < self.parties:
            return False
        self.joint = decks.joint_key(self.keys[i] for i in range(self.parties))
        self._batch = shuffle_proof.BatchCheck(self.size, self.joint, self._secret)
        return True

    def shuffle(self, sender: int, message: dict, made_here: bool = False) -> bool:
        """A party's shuffle, in turn; True if it is new (False: the same one again, from a
        restarted sender). Its proof waits for ``check``, unless this reader made that very
        shuffle (its own, logged as it made it; one whose bytes differ is checked)."""
        if len(self.keys) < self.parties or sender != len(self.decks):
            if sender < len(self.decks) and self.decks[sender] == message["deck"]:
                return False
            self._cheat(sender, "order", "it shuffled out of turn")
        self.decks.append(message["deck"])
        if made_here:
            self._made_here = True
        elif self.setup.proven:
            self._proofs[sender] = message["proof"]
        return True

    # -- the checks -------------------------------------------------------------------------
    def check(self) -> None:
        """Every logged shuffle's proof not checked yet goes into the batch; once the deck
        is final, the verdict: the first shuffler whose proof fails is named."""
        batch = self._batch
        if batch is None or self.settled:
            return
        try:
            for shuffler in sorted(self._proofs):
                proof = self._proofs.pop(shuffler)
                self._added[shuffler] = proof
                if self._memo(shuffler, proof) not in PROVEN:  # (else: nothing of it to add)
                    batch.add(shuffle_proof.read(self._joint(), self.source(shuffler),
                                                 self.deck(shuffler), proof,
                                                 self.proof_context(shuffler)),
                              shuffler - 1, shuffler)
                self._flush(batch)
            if self.complete:
                self._flush(batch)
                self.settled = True
                if not batch.holds():
                    self._name_the_first()
                for shuffler, proof in self._added.items():
                    PROVEN.add(self._memo(shuffler, proof))
        except GroupError:  # a point outside the group, or not even a proof's shape
            self.settled = True
            self._name_the_first()

    def _flush(self, batch: shuffle_proof.BatchCheck) -> None:
        """Multiply each deck no proof still to come names: both the proof that made it
        and the one that shuffled it are in the batch (or are this reader's own, logged as
        it made it, or none). This reader's own deck, logged as it made it, is folded onto
        the deck it shuffled instead (``BatchCheck.fold``): never multiplied."""
        def done(shuffler: int) -> bool:
            return shuffler in self._added or self._is_own_made(shuffler) \
                or not 0 <= shuffler < self.parties
        # the last deck first: this reader's own is folded before the one it shuffled is flushed
        for index in range(len(self.decks) - 1, START - 1, -1):
            if index in self._flushed or not (done(index) and done(index + 1)):
                continue
            seed = self._own_seed
            if self._folds(index) and seed is not None:
                self._flushed.add(index)
                batch.fold(index, index - 1, decks.permutation(self.size, seed),
                           [int(r) for r in decks.randomness(self.size, seed)])
            elif not self._folds(index + 1) or index + 1 in self._flushed:
                self._flushed.add(index)
                batch.flush(index, self.source(0) if index == START else self.deck(index))

    def _is_own_made(self, shuffler: int) -> bool:
        return shuffler == self._own and self._made_here

    def _folds(self, index: int) -> bool:
        """Whether deck ``index`` is this reader's own shuffle, logged as it made it, and
        is folded into the batch rather than multiplied."""
        return self._is_own_made(index) and self._own_seed is not None

    def _name_the_first(self) -> NoReturn:
        """The batch failed: each proof on its own, in shuffle order, names the first."""
        self.check_each()
        raise RuntimeError("the shuffles' batched check failed though each proof holds")  # a bug

    def check_each(self) -> None:
        """Every logged shuffle's proof on its own, now, final deck or not (a client told
        of another's verdict reaches its own): the first that fails names its shuffler."""
        for shuffler in sorted({**self._added, **self._proofs}):
            proof = self._added.get(shuffler, self._proofs.get(shuffler))
            memo = self._memo(shuffler, proof)
            if memo in PROVEN:
                continue
            if not shuffle_proof.verify(self._joint(), self.source(shuffler), self.deck(shuffler),
                                        proof, self.proof_context(shuffler)):
                self._cheat(shuffler, "shuffle", "its shuffle's proof does not check out: its "
                                                 "deck is not the one before it permuted and "
                                                 "re-encrypted (a card copied, replaced or dropped)")
            PROVEN.add(memo)

    def _memo(self, shuffler: int, proof: object) -> bytes:
        """What ``PROVEN`` knows a proof by: everything its check reads, hashed."""
        source = decks.encode_deck(self.source(shuffler)) if shuffler == 0 else self.decks[shuffler - 1]
        parts = [self.proof_context(shuffler), self._joint().raw, source, self.decks[shuffler],
                 proof if isinstance(proof, bytes) else b""]
        return hashlib.sha256(b"".join(len(p).to_bytes(4, "big") + p for p in parts)).digest()

    def proof_context(self, shuffler: int) -> bytes:
        return self.context.transcript("shuffle", party=shuffler)

    # -- the decks ------------------------------------------------------------------------
    def deck(self, index: int) -> list[decks.Ciphertext]:
        """Published deck ``index``, its points not checked here (a proof's check multiplies
        every one of them; see ``deck.decode_deck``)."""
        deck = self._decoded.get(index)
        if deck is None:
            deck = self._decoded[index] = decks.decode_deck(self.decks[index], self.size, validate=False)
        return deck

    def source(self, shuffler: int) -> list[decks.Ciphertext]:
        """The deck ``shuffler`` shuffled: the public starting deck, or the one before."""
        if shuffler == 0:
            start = self._decoded.get(START)
            if start is None:
                start = self._decoded[START] = decks.initial_deck(self.size, self._joint())
            return start
        return self.deck(shuffler - 1)

    def _joint(self) -> Point:
        if self.joint is None:  # a shuffle is taken only once every key share is in
            raise RuntimeError("no deck before the joint key")
        return self.joint
