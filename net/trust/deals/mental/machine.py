"""One party's side of a mental-poker deal, as a sans-I/O state machine.

``MentalDeal(setup, me, secrets)`` is the deal as party ``me`` runs it. It does no I/O
and keeps no clock: the session feeds it every deal message in the host's log order —
the party's own included, since a message takes effect only once it is logged — with
``receive(sender, message)``, and calls it when the game reaches a hidden-information
step (``open_to_all``, ``open_to``, ``give``, ``commit``, ``play``, ``claim_redeal``,
``finish``). Each call returns a list of outputs: ``Send`` (a message for the log) and
what the party learned (``Dealt``, ``Opened``, ``Played``, ``Redeal``, ``Verified``), or
``Audit`` when a check failed that only the revealed secrets can settle. A broken rule
raises ``Cheat`` naming the party; after that the machine refuses everything.

The steps (docs/protocol.md, "The mental-poker deal"):

1. ``start``: every party publishes its key share with a Schnorr proof.
2. Parties shuffle in order: each re-encrypts and permutes the previous deck (the
   public starting deck for the first) and proves it (``shuffle_proof``). Re-encryption
   pads, and the part of the proof that needs no deck, are made as soon as the joint
   key is known, so a party's turn costs additions and the rest of its proof. Every
   other party's proof is checked as it comes (``chain.ShuffleChain``), just after this
   party's own shuffle when its turn is next, and the verdict is in at the final deck.
3. On the final deck — every shuffle proven — every party publishes its decryption
   shares for every position dealt to another party's seats, one batch (one proof) per
   recipient. A recipient
   checks its batches at once and decrypts its hands (``Dealt``); batches for others
   are checked before any card from them counts (``catch_up`` does it in idle time).
4. During the hand: spare positions opened to all or to one party, moved to a seat,
   committed (buried, discarded), and cards played, each play proven from a position
   the seat holds.
5. ``finish``: every party reveals its secret; each peer redoes every shuffle (belt and
   braces, and a deal from before the proofs), checks every share, commitment and play,
   and the Rook redeal rule, and outputs the whole deal (``Verified``) for the
   end-of-hand replay.

What the machine holds is what the log has built — key shares and decks (``chain``),
decryption shares, who holds which position, the cards this party knows, commitments,
reveals — and who owes the deal a message once its deck is final (``owed``). It is one
class on purpose: every step reads and writes that state, and the party's secrets are in
the helpers too (its own shares, its commitments' positions), so a record of the log
apart from the machine would be a second object reached through the first at every line.
"""

from __future__ import annotations

import hashlib
import os
from itertools import combinations
from typing import NoReturn

from engine import canonical

from . import deck as decks
from . import messages as mm
from . import shuffle_proof
from .chain import ShuffleChain
from .errors import BadMessage, Cheat, GroupError, MentalError, Refused
from .group import ONE, POINT_BYTES, Point, base_mul
from .keys import PartySecrets
from .outputs import Audit, Dealt, Opened, Played, Redeal, Send, ShareBatch, Verified
from .proofs import prove_dleq, prove_key, verify_dleq
from .setup import DealSetup

__all__ = ["MentalDeal", "Send", "Dealt", "Opened", "Played", "Redeal", "Audit", "Verified"]

_COMMIT = "parlour-mental-commit/1"  # the commitments' domain


class MentalDeal:
    """Party ``me``'s side of the deal (``witness.Witness``: an onlooker's, no party)."""

    def __init__(self, setup: DealSetup, me: int, secrets: PartySecrets):
        self.setup = setup
        self.me = me
        self.secrets = secrets
        self.context = setup.context
        self.size = setup.deck_size
        self.parties = len(setup.parties)
        # the key shares, the joint key and the decks, each shuffle's proof checked
        # (a witness, no party, has no secrets: its batch's weights are drawn at random)
        weights_key = secrets.nonce_key if secrets is not None else os.urandom(32)
        self.chain = ShuffleChain(setup, self._cheat, weights_key, me,
                                  secrets.shuffle_seed if secrets is not None else None)
        self._pads: list[decks.Ciphertext] | None = None  # made once the joint key is known
        self._prepared: shuffle_proof.Prepared | None = None  # (with the pads)
        self._made_shuffle: dict | None = None  # this party's shuffle as it made it
        self.final: list[decks.Ciphertext] | None = None
        self.shares: list[dict[int, Point]] = [{} for _ in range(self.size)]
        self.audience: dict[int, int | None] = {}  # spare position -> party, or None: all
        self.asked: dict[int, int | None] = {}  # the same, as the hand's steps opened it
        self._unchecked: list[ShareBatch] = []  # others' batches, checked before they count
        self.holdings = {seat: set(setup.dealt(seat)) for seat in range(setup.num_players)}
        self.known: dict[int, int] = {}  # position -> card, as this party knows it
        self.public: dict[int, int] = {}  # position -> card, opened to everyone
        self.played: dict[int, tuple[int, int]] = {}  # position -> (seat, card)
        self.commitments: dict[tuple[int, str], tuple[int, bytes]] = {}
        self._my_commits: dict[tuple[int, str], tuple[int, ...]] = {}
        self._own_share: dict[int, Point] = {}
        self._partial: dict[int, Point] = {}  # others' dealt positions, see _partial_for
        # (party, seat, position, share, proof) of the play proofs made here or checked once
        # -> the card the proof opens (None until it is worked out)
        self._proven_plays: dict[tuple, int | None] = {}
        self._made_batches: set[tuple] = set()  # (to, positions, shares, proof) made here
        self._hand_told = False
        self.redeal: Redeal | None = None
        self.reveals: dict[int, dict] = {}
        self.auditor: int | None = None  # the first party to ask for an audit
        self.failed: MentalError | None = None
        self.done: Verified | None = None
        self._sent_key = self._sent_shuffle = self._sent_shares = self._revealed = False

    @property
    def keys(self) -> dict[int, Point]:
        return self.chain.keys

    @property
    def joint(self) -> Point | None:
        return self.chain.joint

    # -- who owes a message ------------------------------------------------------------
    def owed(self) -> list[int]:
        """The parties whose messages this deal waits for once its deck is final: the
        shares of a spare the hand's steps opened (``open_to_all``: every party's;
        ``open_to``: every party's but the one it goes to), and, once the hand is over or
        an audit was asked for, every party's reveal. (The deal's own messages before
        then — key shares, shuffles, the deal's share batches — are ``sequencer.Progress``'s.)"""
        if self.final is None or self.done is not None or self.failed is not None:
            return []
        owing = {i for p, audience in self.asked.items() for i in range(self.parties)
                 if i != audience and i not in self.shares[p]}
        if self._revealed or self.reveals:
            owing.update(i for i in range(self.parties) if i not in self.reveals)
        return sorted(owing)

    # -- calls from the session -----------------------------------------------------------
    def start(self) -> list:
        """This party's key share and its proof (publish once; again after a restart)."""
        self._usable()
        self._sent_key = True
        proof = prove_key(self.secrets.x, self.secrets.key,
                          self.context.transcript("key", party=self.me), self.secrets.nonce_key)
        return [Send(self._message(mm.KEY, key=self.secrets.key.raw, proof=proof))]

    def open_to_all(self, positions) -> list:
        """Turn spare ``positions`` face up (Rook's widow, Somerset's open widow,
        Horseshoes' left-over card turned up): every party publishes its shares."""
        positions = self._spare_positions(positions, None)
        if not self.setup.proven or all(self.me in self.shares[p] for p in positions):
            return []
        return [Send(self._message(mm.SHARES, batches=[self._batch(positions, None)]))]

    def open_to(self, positions, seat: int) -> list:
        """Give spare ``positions`` to ``seat``, whose party alone learns them (Somerset's
        kitty to the bidder): every other party publishes its shares for that party."""
        owner = self.setup.owner(seat)
        positions = self._spare_positions(positions, owner)
        self.holdings[seat].update(positions)
        if owner == self.me or not self.setup.proven \
                or all(self.me in self.shares[p] for p in positions):
            return []
        return [Send(self._message(mm.SHARES, batches=[self._batch(positions, owner)]))]

    def give(self, positions, seat: int) -> None:
        """Face-up spare ``positions`` go to ``seat``'s hand (Rook's widow to the bidder)."""
        self._usable()
        for p in positions:
            if p not in self.public:
                raise Refused(f"position {p} is not face up; use open_to to give it privately")
        self.holdings[seat].update(positions)

    def commit(self, seat: int, label: str, cards) -> list:
        """Commit to ``cards`` of ``seat`` leaving its hand face down (``"bury"``,
        ``"discard"``), opened at the end of the hand."""
        self._usable()
        self._own(seat)
        positions = tuple(sorted(self._position_of(seat, card) for card in cards))
        if (seat, label) in self.commitments:
            raise Refused(f"seat {seat} has already committed a {label}")
        # Made here but not logged: it went with its move on a link that was cut before
        # the host had them (the log after the rejoin would show them), so the seat
        # decides again and commits anew.
        self._my_commits[(seat, label)] = positions
        return [Send(self._message(mm.COMMIT, seat=seat, label=label, count=len(positions),
                                   digest=self._commit_digest(self.secrets, seat, label, positions)))]

    def play(self, seat: int, card: int) -> list:
        """Play ``card`` from ``seat``'s hand: its position, and this party's decryption
        share for it with a proof (none for a card that is face up already)."""
        self._usable()
        self._own(seat)
        position = self._position_of(seat, card)
        if position in self.public:
            share = proof = None
        else:
            share_point = self._my_share(position)
            share = share_point.raw
            proof = prove_dleq(self.secrets.x, self.secrets.key, [self._deck[position].c1],
                               [share_point], self._play_context(seat, position),
                               self.secrets.nonce_key)
            self._proven_plays[(self.me, seat, position, share, proof)] = card  # made here
        return [Send(self._message(mm.PLAY, seat=seat, position=position, share=share, proof=proof))]

    def claim_redeal(self, seat: int) -> list:
        """Show ``seat``'s whole hand (Rook: no point card), proving the redeal."""
        self._usable()
        self._own(seat)
        positions = list(self.setup.dealt(seat))
        shares = [self._my_share(p) for p in positions]
        proof = prove_dleq(self.secrets.x, self.secrets.key, [self._deck[p].c1 for p in positions],
                           shares, self._show_context(seat, positions), self.secrets.nonce_key)
        return [Send(self._message(mm.SHOW, seat=seat, positions=positions,
                                   shares=b"".join(s.raw for s in shares), proof=proof))]

    def finish(self) -> list:
        """The hand is over: reveal this party's secret and its commitments' contents."""
        self._usable()
        return self._reveal("end")

    def audit(self, why: str) -> list:
        """Ask every party to reveal now (what this machine does itself on a card it cannot
        explain; asked for with no such card, it is a false alarm, which the audit names)."""
        self._usable()
        return self._reveal("audit", why)

    def catch_up(self) -> None:
        """Check every share batch not checked yet (run in idle time, e.g. while bidding,
        so that the first card each seat plays costs no more than the others), and every
        shuffle's proof not checked yet."""
        self.chain.check()
        self._check_batches(None)
        for seat, positions in self.holdings.items():
            owner = self.setup.owner(seat)
            if owner != self.me:
                for p in positions:
                    if p not in self.public and len(self.shares[p]) == self.parties - 1:
                        self._partial_for(p, owner)

    def recheck(self) -> None:
        """Every check that needs no secret, now: every published deck's points, every
        shuffle's proof (each on its own, final deck or not) and every share batch. A client runs it when another party reports a cheat, to reach the
        same verdict from the log alone (raises ``Cheat`` naming the same party)."""
        self._usable()
        self._blame_deck()
        self.chain.check_each()
        self.catch_up()

    # -- messages -------------------------------------------------------------------------
    def receive(self, sender: int, message: object) -> list:
        """A logged deal message from party ``sender`` (authenticated by the session)."""
        message = self._checked(sender, message)
        handler = {mm.KEY: self._on_key, mm.SHUFFLE: self._on_shuffle, mm.SHARES: self._on_shares,
                   mm.PLAY: self._on_play, mm.SHOW: self._on_show, mm.COMMIT: self._on_commit,
                   mm.REVEAL: self._on_reveal}[message["type"]]
        return self._guarded(sender, lambda: handler(sender, message))

    def check_play(self, sender: int, message: object) -> int | None:
        """Party ``sender``'s played card proof (a ``mental-play`` message), checked before
        the move that carries it is logged, and nothing recorded: the card it opens, or
        None if only an audit can settle it (the point is no card of this deck, or one
        seen twice). A broken rule raises ``Cheat`` naming the sender. When the same
        message is then logged (``receive``), its proof is not checked again."""
        message = self._checked(sender, message)
        if message["type"] != mm.PLAY:
            raise BadMessage("a move carries only a played card's proof", sender)
        return self._guarded(sender, lambda: self._open_play(sender, message)[2])

    def _checked(self, sender: int, message: object) -> dict:
        self._usable()
        if not isinstance(sender, int) or not 0 <= sender < self.parties:
            raise MentalError(f"no party {sender!r} in this deal")
        message = mm.check(message, sender, self.size, self.setup.proven)
        if (message["hand"], message["attempt"]) != (self.context.hand, self.context.attempt):
            raise BadMessage("a message for another deal", sender)
        return message

    def _guarded(self, sender: int, step):
        try:
            return step()
        except Cheat as cheat:
            self.failed = cheat
            raise
        except GroupError:
            # bytes that are no point were refused: a deck's (its shuffler is named) or the sender's
            self._blame_deck()
            self._cheat(sender, "malformed", "its message holds bytes that are not a group element")

    def _on_key(self, sender: int, message: dict) -> list:
        if not self.chain.key(sender, message):
            return []
        # The joint key: every multiplication of this party's shuffle, and the part of its
        # proof that needs no deck, can be made now, before its turn comes.
        joint = self.chain.joint
        assert joint is not None  # (the key shares are all in)
        self._pads = self._own_pads(joint)
        if self._pads is not None and self.setup.proven:
            self._prepared = shuffle_proof.prepare(self.size, self.secrets.shuffle_seed,
                                                   self.secrets.nonce_key,
                                                   self.chain.proof_context(self.me))
        return self._shuffle_if_my_turn()

    def _own_pads(self, joint: Point) -> list[decks.Ciphertext] | None:
        """This party's re-encryption pads for its shuffle, made once the joint key is known."""
        return decks.pads(self.size, joint, self.secrets.shuffle_seed)

    def _on_shuffle(self, sender: int, message: dict) -> list:
        made_here = sender == self.me and message == self._made_shuffle
        if not self.chain.shuffle(sender, message, made_here):
            return []  # the same shuffle again (a restarted sender)
        if not self.chain.complete:
            out = self._shuffle_if_my_turn()
            if not out:  # (a party about to shuffle checks the last proof just after)
                self.chain.check()
            return out
        self.chain.check()  # every shuffle proven before any share is published
        self.final = self.chain.deck(len(self.chain.decks) - 1)
        out = self._deal_shares()
        return out + self._progress()

    def _on_shares(self, sender: int, message: dict) -> list:
        if self.final is None:
            self._cheat(sender, "order", "it published decryption shares before the deck was final")
        batches = []
        for raw in message["batches"]:
            batch = self._read_batch(sender, raw)
            if batch is not None:
                batches.append(batch)
        for batch in batches:
            if self._made_here(batch):
                pass  # this party's own batch, as it made it: nothing to check
            elif batch.to is None or batch.to == self.me:
                self._check_batch(batch)
            else:
                self._unchecked.append(batch)
            for p, share in zip(batch.positions, batch.shares):
                self.shares[p][sender] = share
        return self._progress()

    def _on_commit(self, sender: int, message: dict) -> list:
        seat, label = message["seat"], message["label"]
        self._sender_plays(sender, seat)
        if (seat, label) in self.commitments:
            if self.commitments[(seat, label)] != (message["count"], message["digest"]):
                self._cheat(sender, "commitment", f"seat {seat} committed two different {label}s")
            return []
        if message["count"] > len(self._live(seat)):
            self._cheat(sender, "commitment", f"seat {seat} committed more cards than it holds")
        self.commitments[(seat, label)] = (message["count"], message["digest"])
        if sender == self.me and (seat, label) not in self._my_commits:
            self._recover_commit(seat, label, message["count"], message["digest"])
        return []

    def _recover_commit(self, seat: int, label: str, count: int, digest: bytes) -> None:
        """A client restarted after its bury or discard reads its commitment in the log but
        not which cards: they are the ``count`` it held whose salted digest this is (a few
        thousand hashes at most: Rook's 5 of 18)."""
        for positions in combinations(sorted(self._live(seat)), count):
            if self._commit_digest(self.secrets, seat, label, positions) == digest:
                self._my_commits[(seat, label)] = positions
                return

    def has_commitment(self, seat: int, label: str) -> bool:
        """Whether ``seat``'s ``label`` (a bury, a discard) has a commitment logged."""
        return (seat, label) in self.commitments

    def committed(self, seat: int, label: str) -> tuple[int, ...] | None:
        """The cards this party committed as ``seat``'s ``label`` (None: not its own)."""
        positions = self._my_commits.get((seat, label))
        return None if positions is None else tuple(self.known[p] for p in positions)

    def _on_play(self, sender: int, message: dict) -> list:
        seat, position, card = self._open_play(sender, message)
        if card is None:
            return self._reveal("audit", f"position {position} played by seat {seat} is not "
                                         "a card of this deck, or a card already seen")
        self.played[position] = (seat, card)
        self.known[position] = card
        return [Played(seat, position, card)]

    def _on_show(self, sender: int, message: dict) -> list:
        seat = message["seat"]
        self._sender_plays(sender, seat)
        positions = message["positions"]
        if positions != list(self.setup.dealt(seat)) or self.final is None:
            raise BadMessage("a shown hand must be every position dealt to the seat", sender)
        shares = [Point(message["shares"][i:i + POINT_BYTES])
                  for i in range(0, len(message["shares"]), POINT_BYTES)]
        if not verify_dleq(self.keys[sender], [self._deck[p].c1 for p in positions], shares,
                           message["proof"], self._show_context(seat, positions)):
            self._blame_deck()
            self._cheat(sender, "share", f"the shares showing seat {seat}'s hand do not check out")
        self._check_batches(set(positions))
        cards = []
        for p, share in zip(positions, shares):
            others = [s for party, s in self.shares[p].items() if party != sender]
            card = self._card(decks.decrypt(self._deck[p], others + [share]))
            if card is None or len(others) != self.parties - 1:
                return self._reveal("audit", f"seat {seat}'s shown hand is not cards of this deck")
            cards.append(card)
        rule = self.setup.needs_redeal
        if rule is None or not rule(cards):
            self._cheat(sender, "redeal-claim", f"seat {seat} claimed a redeal, but its hand "
                                                f"does not call for one (cards {sorted(cards)})")
        self.redeal = Redeal(seat, tuple(cards))
        return [self.redeal]

    def _on_reveal(self, sender: int, message: dict) -> list:
        if sender in self.reveals:
            return []
        if message["reason"] == "audit" and self.auditor is None:
            self.auditor = sender
        self.reveals[sender] = message
        # An audit asks everyone to reveal; answering one is not asking for one.
        out = self._reveal("end") if message["reason"] == "audit" else []
        if len(self.reveals) == self.parties:
            return out + [self._verify_everything()]
        return out

    # -- the deal's steps -----------------------------------------------------------------
    def _shuffle_if_my_turn(self) -> list:
        if len(self.chain.decks) != self.me or self._sent_shuffle or self._pads is None \
                or self.joint is None:  # (the pads come with the joint key)
            return []
        source = self.chain.source(self.me)
        self._sent_shuffle = True
        shuffled = decks.shuffle(source, self._pads, self.secrets.shuffle_seed)
        fields = {"deck": decks.encode_deck(shuffled)}
        if self._prepared is not None:
            fields["proof"] = shuffle_proof.prove(self._prepared, self.joint, source, shuffled,
                                                  self.chain.proof_context(self.me))
        self._made_shuffle = self._message(mm.SHUFFLE, **fields)
        return [Send(self._made_shuffle)]

    def _deal_shares(self) -> list:
        """A batch of this party's shares for every other party's dealt positions."""
        if self._sent_shares or not self.setup.proven:
            return []
        self._sent_shares = True
        batches = []
        for party_index, party in enumerate(self.setup.parties):
            if party_index != self.me:
                positions = sorted(p for seat in party.seats for p in self.setup.dealt(seat))
                batches.append(self._batch(positions, party_index))
        return [Send(self._message(mm.SHARES, batches=batches))] if batches else []

    def _batch(self, positions, to: int | None) -> dict:
        shares = [self._my_share(p) for p in positions]
        proof = prove_dleq(self.secrets.x, self.secrets.key, [self._deck[p].c1 for p in positions],
                           shares, self._batch_context(self.me, to, positions),
                           self.secrets.nonce_key)
        raw = b"".join(s.raw for s in shares)
        self._made_batches.add((to, tuple(positions), raw, proof))
        return {"to": to, "positions": list(positions), "shares": raw, "proof": proof}

    def _made_here(self, batch: ShareBatch) -> bool:
        return batch.prover == self.me and (batch.to, batch.positions, b"".join(
            s.raw for s in batch.shares), batch.proof) in self._made_batches

    def _read_batch(self, sender: int, raw: dict) -> ShareBatch | None:
        to, positions = raw["to"], tuple(raw["positions"])
        if to is not None and not (0 <= to < self.parties and to != sender):
            raise BadMessage(f"shares for party {to}", sender)
        for p in positions:
            dealt_to = self.setup.seat_of(p)  # None: a spare position
            if dealt_to is None:
                if self.audience.setdefault(p, to) != to:
                    self._cheat(sender, "share", f"spare position {p} was opened to two audiences")
            elif to is None or self.setup.owner(dealt_to) != to:
                self._cheat(sender, "share", f"it published a share of position {p} for a party "
                                             "that was not dealt it")
        if all(sender in self.shares[p] for p in positions):
            return None  # published again after a restart: the first one counts
        if any(sender in self.shares[p] for p in positions):
            self._cheat(sender, "share", "it published a share for one position twice")
        raw_shares = raw["shares"]
        # not checked here: the proof's check multiplies every share, and parsing refuses
        # bytes that are no point then
        shares = tuple(Point(raw_shares[i:i + POINT_BYTES])
                       for i in range(0, len(raw_shares), POINT_BYTES))
        return ShareBatch(sender, to, positions, shares, raw["proof"])

    def _progress(self) -> list:
        """What this party can decrypt now: its hands once, opened spare cards. (A
        ``witness.Witness``, no party, has no hands: it learns what is opened to all.)"""
        out: list[Dealt | Opened] = []
        mine = [p for i, party in enumerate(self.setup.parties) if i == self.me
                for seat in party.seats for p in self.setup.dealt(seat)]
        if self.me is not None and not self._hand_told and self.final is not None and \
                all(len(self.shares[p]) == self.parties - 1 for p in mine):
            self._hand_told = True
            for p in mine:
                card = self._decrypt_for_me(p)
                if card is None or self._seen(card, p):
                    return self._reveal("audit", f"deck position {p} dealt to this party does "
                                                 "not decrypt to a card of this deck, or to one seen twice")
                self.known[p] = card
            for seat in self.setup.parties[self.me].seats:
                positions = tuple(self.setup.dealt(seat))
                out.append(Dealt(seat, positions, tuple(self.known[p] for p in positions)))
        opened: dict[bool, list[tuple[int, int]]] = {True: [], False: []}
        for p, audience in sorted(self.audience.items()):
            if p in self.known:
                continue
            if audience is None and len(self.shares[p]) == self.parties:
                card = self._card(decks.decrypt(self._deck[p], self.shares[p].values()))
                public = True
            elif audience is not None and audience == self.me and len(self.shares[p]) == self.parties - 1:
                card, public = self._decrypt_for_me(p), False
            else:
                continue
            if card is None or self._seen(card, p):
                return out + self._reveal("audit", f"spare position {p} does not decrypt to a "
                                                   "card of this deck, or to one seen twice")
            self.known[p] = card
            if public:
                self.public[p] = card
            opened[public].append((p, card))
        for public, pairs in opened.items():
            if pairs:
                out.append(Opened(tuple(p for p, _ in pairs), tuple(c for _, c in pairs), public))
        return out

    def _reveal(self, reason: str, why: str = "") -> list:
        if self._revealed:
            return []
        self._revealed = True
        openings = [{"seat": seat, "label": label, "positions": list(positions)}
                    for (seat, label), positions in sorted(self._my_commits.items())]
        out = [Audit(why)] if reason == "audit" and why else []
        return out + [Send(self._message(mm.REVEAL, reason=reason, secret=self.secrets.signature,
                                         openings=openings))]

    # -- helpers --------------------------------------------------------------------------
    @property
    def _deck(self) -> list[decks.Ciphertext]:
        """The final deck, that every share, play and shown hand is of: the steps that read
        it come after the last shuffle (a message that jumps ahead is named before)."""
        if self.final is None:
            raise Refused("the deck is not dealt yet")
        return self.final

    def _message(self, kind: str, **fields) -> dict:
        return mm.make(kind, self.context.hand, self.context.attempt, **fields)

    def _usable(self) -> None:
        if self.failed is not None:
            raise self.failed

    def _own(self, seat: int) -> None:
        if seat not in self.setup.parties[self.me].seats:
            raise Refused(f"seat {seat} is not played by this client")

    def _sender_plays(self, sender: int, seat: int) -> None:
        if not 0 <= seat < self.setup.num_players or seat not in self.setup.parties[sender].seats:
            self._cheat(sender, "not-held", f"it acted for seat {seat}, which it does not play")

    def _spare_positions(self, positions, audience) -> tuple[int, ...]:
        self._usable()
        if self.final is None:
            raise Refused("the deck is not dealt yet")
        positions = tuple(sorted(positions))
        spare = set(self.setup.spare())
        for p in positions:
            if p not in spare or self.audience.get(p, audience) != audience:
                raise Refused(f"deck position {p} is not a spare position that may be opened so")
        self.asked.update((p, audience) for p in positions)
        return positions

    def _live(self, seat: int) -> set[int]:
        return self.holdings[seat] - set(self.played)

    def _position_of(self, seat: int, card: int) -> int:
        committed = {p for positions in self._my_commits.values() for p in positions}
        for p in sorted(self._live(seat) - committed):
            if self.known.get(p) == card:
                return p
        raise Refused(f"seat {seat} does not hold card {card}")

    def _my_share(self, position: int) -> Point:
        share = self._own_share.get(position)
        if share is None:
            try:
                share = self._own_share[position] = self.secrets.x * self._deck[position].c1
            except GroupError:
                self._blame_deck()  # the deck's bytes are no point: name its shuffler
                raise
        return share

    def _decrypt_for_me(self, position: int) -> int | None:
        shares = [s for party, s in self.shares[position].items() if party != self.me]
        return self._card(decks.decrypt(self._deck[position], shares + [self._my_share(position)]))

    def _card(self, point: Point) -> int | None:
        return decks.card_lookup(self.size).get(point)

    def _seen(self, card: int, position: int) -> bool:
        return any(c == card and p != position for p, c in self.known.items())

    def _blame_deck(self) -> None:
        """Name the first shuffler whose published deck holds a point outside the group
        (re-encrypting such a point keeps it outside); return if every deck is good."""
        for t, raw in enumerate(self.chain.decks):
            try:
                decks.decode_deck(raw, self.size, validate=True)
            except GroupError:
                self._cheat(t, "shuffle", "its deck holds a point outside the group")

    def _partial_for(self, position: int, reader: int) -> Point:
        """``c₂`` less every share but ``reader``'s: the reader's share then opens it."""
        partial = self._partial.get(position)
        if partial is None:
            others = [s for party, s in self.shares[position].items() if party != reader]
            partial = self._partial[position] = decks.decrypt(self._deck[position], others)
        return partial

    def _open_play(self, sender: int, message: dict) -> tuple[int, int, int | None]:
        """(seat, position, the card the play opens, or None: not a card of this deck, or
        one seen twice), every rule checked and nothing recorded. A proof is checked, and
        its card decrypted, once: not at all if this party made it (``play``), not again
        once ``check_play`` passed it."""
        seat, position = message["seat"], message["position"]
        if self.final is None:  # no key nor deck to check it against: not a crash here
            self._cheat(sender, "order", "it played a card before the deck was final")
        self._sender_plays(sender, seat)
        if position not in self.holdings[seat]:
            dealt_to = self.setup.seat_of(position)
            where = "the spare" if dealt_to is None else f"seat {dealt_to}"
            self._cheat(sender, "not-held", f"seat {seat} played from deck position {position}, "
                                            f"which belongs to {where}, not to it")
        if position in self.played:
            self._cheat(sender, "played-twice", f"seat {seat} played deck position {position} again")
        if position in self.public:
            if message["share"] is not None:
                raise BadMessage("a face-up card is played without a share", sender)
            return seat, position, self.public[position]
        if message["share"] is None:
            self._cheat(sender, "share", f"seat {seat} played a face-down card without its share")
        share = Point(message["share"])  # its proof's check multiplies it, which parses it
        proven = (sender, seat, position, message["share"], message["proof"])
        if proven not in self._proven_plays:
            if not verify_dleq(self.keys[sender], [self._deck[position].c1], [share],
                               message["proof"], self._play_context(seat, position)):
                self._blame_deck()
                self._cheat(sender, "share", f"the decryption share of the card seat {seat} "
                                             f"played (position {position}) does not check out")
            self._proven_plays[proven] = None
        self._check_batches({position})
        if len(self.shares[position]) != self.parties - 1 or sender in self.shares[position]:
            self._cheat(sender, "not-held", f"seat {seat} played position {position}, "
                                            "which was never opened to it")
        card = self._proven_plays[proven]
        if card is None:
            card = self._proven_plays[proven] = self._card(self._partial_for(position, sender) - share)
        if card is None or self._seen(card, position):
            return seat, position, None
        return seat, position, card

    def _check_batch(self, batch: ShareBatch) -> None:
        ok = verify_dleq(self.keys[batch.prover], [self._deck[p].c1 for p in batch.positions],
                         batch.shares, batch.proof,
                         self._batch_context(batch.prover, batch.to, batch.positions))
        if not ok:
            self._blame_deck()
            to = "everyone" if batch.to is None else f"party {batch.to}"
            self._cheat(batch.prover, "share", f"its decryption shares for {to} (positions "
                                               f"{list(batch.positions)}) do not check out")

    def _check_batches(self, positions: set[int] | None) -> None:
        keep = []
        for batch in self._unchecked:
            if positions is None or positions.intersection(batch.positions):
                self._check_batch(batch)
            else:
                keep.append(batch)
        self._unchecked = keep

    def _commit_digest(self, secrets: PartySecrets, seat: int, label: str, positions) -> bytes:
        salt = secrets.salt(f"{seat}/{label}")
        return hashlib.sha256(canonical.encode(
            [_COMMIT, self.context.plain(), seat, label, list(positions), salt])).digest()

    def _batch_context(self, prover: int, to: int | None, positions) -> bytes:
        return self.context.transcript("shares", prover=prover, to=to, positions=list(positions))

    def _play_context(self, seat: int, position: int) -> bytes:
        return self.context.transcript("play", party=self.setup.owner(seat), seat=seat,
                                       position=position)

    def _show_context(self, seat: int, positions) -> bytes:
        return self.context.transcript("show", party=self.setup.owner(seat), seat=seat,
                                       positions=list(positions))

    def _cheat(self, party: int, rule: str, detail: str) -> NoReturn:
        cheat = Cheat(party, tuple(self.setup.parties[party].seats), rule, detail)
        self.failed = cheat
        raise cheat

    # -- the end-of-hand verification -----------------------------------------------------
    def _verify_everything(self) -> Verified:
        secrets = self._revealed_secrets()
        cards = self._replay_shuffles(secrets)
        if cards is not None:
            self._check_shares_directly(secrets)
            for position, (seat, card) in self.played.items():
                if cards[position] != card:  # cannot happen once shuffles and shares check
                    self._cheat(self.setup.owner(seat), "not-held",
                                f"seat {seat} played a card it was not dealt")
            self._check_openings(secrets)
            self._check_redeal_rule(cards)
        if self.auditor is not None:
            self._cheat(self.auditor, "false-alarm", "it asked for an audit, and every shuffle, "
                                                     "share and play checks out")
        if cards is None:
            raise MentalError("the deal was audited before its deck was complete; nobody "
                              "broke a rule that can be shown")
        hands, spare = self.setup.layout(cards)
        self.done = Verified(tuple(map(tuple, hands)), tuple(spare))
        return self.done

    def _revealed_secrets(self) -> list[PartySecrets]:
        secrets = []
        for i, party in enumerate(self.setup.parties):
            try:
                revealed = PartySecrets.revealed(party.key, self.context, self.reveals[i]["secret"])
            except MentalError as exc:
                self._cheat(i, "reveal", str(exc))
            if i in self.keys and revealed.key != self.keys[i]:
                self._cheat(i, "reveal", "its revealed secret does not give the key share it published")
            secrets.append(revealed)
        return secrets

    def _replay_shuffles(self, secrets: list[PartySecrets]) -> list[int] | None:
        """Every published shuffle redone from its party's seed; the card at each final
        position (None if the deck was never completed). The joint secret is known now,
        so every multiplication is a fixed-base one (``deck.pads``); the randomness each
        final ciphertext has accumulated (``c₁ = aₚ·G``) is kept for the share check."""
        if self.joint is None:
            return None
        joint_secret = secrets[0].x
        for revealed in secrets[1:]:
            joint_secret = joint_secret + revealed.x
        source = decks.initial_deck(self.size, self.joint)
        order = list(range(self.size))
        accumulated = [ONE] * self.size
        for t, published in enumerate(self.chain.decks):
            seed = secrets[t].shuffle_seed
            expected = decks.shuffle(source, decks.pads(self.size, self.joint, seed, joint_secret), seed)
            if decks.encode_deck(expected) != published:
                self._cheat(t, "shuffle", "its shuffle is not the permutation and re-encryption "
                                          "its seed gives: it duplicated, dropped or substituted cards")
            permutation = decks.permutation(self.size, seed)
            randomness = decks.randomness(self.size, seed)
            order = [order[permutation[i]] for i in range(self.size)]
            accumulated = [accumulated[permutation[i]] + randomness[i] for i in range(self.size)]
            source = expected
        self._accumulated = accumulated
        return order if len(self.chain.decks) == self.parties else None

    def _check_shares_directly(self, secrets: list[PartySecrets]) -> None:
        """Shares never checked by proof, recomputed from the revealed keys: ``xⱼ·c₁`` is
        ``(xⱼ·aₚ)·G`` once the replay has shown ``c₁ = aₚ·G``."""
        for batch in self._unchecked:
            x = secrets[batch.prover].x
            for p, share in zip(batch.positions, batch.shares):
                if base_mul(x * self._accumulated[p]) != share:
                    self._cheat(batch.prover, "share", f"its decryption share for position {p} is wrong")
        self._unchecked = []

    def _check_openings(self, secrets: list[PartySecrets]) -> None:
        opened = {}
        for i, reveal in self.reveals.items():
            for opening in reveal["openings"]:
                key = (opening["seat"], opening["label"])
                self._sender_plays(i, key[0])
                opened[key] = (i, tuple(opening["positions"]))
        for (seat, label), (count, digest) in self.commitments.items():
            owner = self.setup.owner(seat)
            if (seat, label) not in opened:
                self._cheat(owner, "commitment", f"seat {seat} never opened its {label}")
            _, positions = opened[(seat, label)]
            if self._commit_digest(secrets[owner], seat, label, positions) != digest \
                    or len(positions) != count:
                self._cheat(owner, "commitment", f"seat {seat}'s {label} does not open its commitment")
            if not set(positions) <= self.holdings[seat] or set(positions) & set(self.played):
                self._cheat(owner, "commitment", f"seat {seat} {label} cards it did not hold, "
                                                 "or played one of them")

    def _check_redeal_rule(self, cards: list[int]) -> None:
        rule = self.setup.needs_redeal
        if rule is None or self.redeal is not None:
            return
        for seat in range(self.setup.num_players):
            hand = [cards[p] for p in self.setup.dealt(seat)]
            if rule(hand):
                self._cheat(self.setup.owner(seat), "redeal-missed",
                            f"seat {seat} kept a hand that had to be redealt")
