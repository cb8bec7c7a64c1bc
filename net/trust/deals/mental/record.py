"""What one party holds of a mental-poker deal, and the checks that need no new message.

``DealRecord`` is the state ``machine.MentalDeal`` builds from the log — key shares,
published decks, decryption shares, who holds which position, the cards this party
knows — with who owes the deal a message once its deck is final (``owed``: a spare's
shares, the reveals), the helpers every step uses (positions, decryption, proof
contexts, naming a cheat), and the end-of-hand verification: every shuffle redone from the
secrets the parties reveal, every share, commitment and play checked, and the Rook
redeal rule. The machine adds the session's calls and the message handlers.
"""

from __future__ import annotations

import hashlib
import os
from typing import NoReturn

from engine import canonical

from . import deck as decks
from . import messages as mm
from . import shuffle_proof
from .chain import ShuffleChain
from .errors import BadMessage, Cheat, GroupError, MentalError, Refused
from .group import ONE, Point, base_mul
from .keys import PartySecrets
from .outputs import Redeal, ShareBatch, Verified
from .proofs import verify_dleq
from .setup import DealSetup

_COMMIT = "parlour-mental-commit/1"  # the commitments' domain


class DealRecord:
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
        self.chain = ShuffleChain(setup, self._cheat, weights_key, me)
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
                self._blame_deck()  # libsodium refused the deck's point: name its shuffler
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
        share = Point(message["share"])  # its proof's check multiplies it: libsodium checks it
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
