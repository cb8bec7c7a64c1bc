"""PeerReplica: a peer's own copy of the table, checking the host entry by entry (no I/O).

``receive(message)`` takes what the host sent and returns a ``ReplicaOut``: messages to
send back (this seat's contribution to a deal), the entries accepted, hands verified
at their reveal, and integrity alerts. An entry is accepted only if it is

* signed by the host's key, for this table, the next in sequence, linked to the last
  entry's hash (an identical copy of an entry already held is ignored; a different one
  with the same number is a fork);
* allowed now (a commit between hands, a deal after every contribution, …);
* for an action: signed by the key of the seat it is for, made for this table and hand
  after seeing the deal and the player's own previous action, and legal as far as this
  seat can tell; and the public state after it hashes to the entry's ``state_hash``.

The first failure raises an ``IntegrityAlert`` naming the seat and the rule, and the
replica stops: it refuses that entry and every later one (the session starts a fresh
replica and rejoins from the beginning to resync). It never advances on a forked
history.

**What a seat can check live, and what waits for the reveal.** A peer does not know the
other hands, so it plays the hand on a *shadow deal*: its own hand as dealt, every card
the others have played placed in their hands, the rest filled in; other seats' plays
are checked against public knowledge only (whose turn, the phase, a card not already
played and not in this seat's hand), and their secret actions (a Rook bury) are filled
with cards they have not played. Public fields that depend on hidden cards (a widow, the
buried points) may then differ from the host's public view, which comes with the entry
and must hash to the signed ``state_hash``; such a difference is *deferred*, while a
difference in the fields that follow from public actions alone (``CORE``) is an alert.
At the reveal everything is checked with every card known: the commitment, the seed,
the deal against the hand this seat was sent, each secret action against its signed
digest, every action's legality (a revoke, a card not held), every entry's state hash,
and the hand's score.

**Privacy, live.** What the host sends this seat alone — its private view, a secret
move echoed back, the events — may name only this seat's own cards (as dealt, and the
spare once it took it) and what the verified public view shows; the private view's
``seat`` must be this seat, and another seat's secret move must never arrive. Anything
else is a ``privacy`` alert naming the host, on the entry that carried it. The public
view itself must be the one the signed state hash names (or, with an entry that changes
no state, the one already verified), so nothing can hide in it either.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from engine import Action, Contradiction, IllegalAction, RecordError, canonical, make_game
from engine.cards import cards_of
from engine.partial import PartialHand

from net.trust import fairdeal
from net.wire import messages as m
from net.trust.alerts import HOST, PLAYER, IntegrityAlert
from net.constants import CONTRIBUTION_DEADLINE, CONTRIBUTION_SLACK
from net.trust.log import result_dict
from net.trust.moves import ActionBody, Binding, action_body_problem
from net.wire.identity import fingerprint
from net.trust.log import Chain
from net.trust.values import BOT, EntryMessage, Seat, Seats, SignedEntry
from net.trust.signing import (ACTION_DOMAIN, CONTRIBUTION_DOMAIN, hidden_digest, opens, read_action,
                               seal, sign_action)

# Public-view fields that follow from the public actions alone: any difference there is
# the host's lie, not a hidden card.
CORE = ("game", "ruleset", "mode", "options", "dealer", "phase", "to_act", "prompt",
        "cards_left", "actions", "tricks", "trick", "leader")


class Violation(Exception):
    """A failed check (internal): becomes an IntegrityAlert."""

    def __init__(self, party: str, seat: int | None, rule: str, detail: str):
        super().__init__(detail)
        self.party, self.seat, self.rule, self.detail = party, seat, rule, detail


@dataclass
class ReplicaOut:
    sends: list = field(default_factory=list)  # messages for the host
    accepted: list = field(default_factory=list)  # EntryMessages applied, in order
    verified: list = field(default_factory=list)  # hands checked at their reveal
    alerts: list = field(default_factory=list)  # IntegrityAlerts (at most one: then halted)
    errors: list = field(default_factory=list)  # the host's error replies, rejected junk


class ReplicaHalted(Exception):
    """The replica stopped at an integrity alert and takes no more actions."""


# -- the shadow deal ---------------------------------------------------------------------
class Shadow:
    """One hand replayed on a deal consistent with what seat ``me`` knows: the engine's
    replay of a seat's partial knowledge (``engine.partial.PartialHand``: the others'
    plays accepted whatever they held, since on a shadow deal their holdings are made
    up, and checked at the reveal), with what it finds impossible turned into
    Violations, and the checks only this seat can make on the others' plays.

    Immutable in use: ``with_step`` returns a new Shadow, so a refused entry leaves the
    old one untouched."""

    def __init__(self, game, me: int | None, dealer: int, my_hand: frozenset,
                 known_spare: frozenset = frozenset(), steps: tuple = (), hand=None):
        self.game, self.me, self.dealer = game, me, dealer
        self.my_hand, self.known_spare = my_hand, known_spare
        self.steps = steps  # ((Action, hidden), …): hidden = value unknown to me
        self.hand = hand if hand is not None else _replayed(
            lambda: PartialHand(game, me, dealer, my_hand, sorted(known_spare), steps))

    @property
    def state(self):
        return self.hand.state

    def with_step(self, action, hidden: bool) -> "Shadow":
        steps = self.steps + ((action, hidden),)
        if action.kind == "play" and action.seat != self.me:
            self._check_play(action)
        hand = _replayed(lambda: self.hand.step(action, hidden))
        return Shadow(self.game, self.me, self.dealer, self.my_hand, self.known_spare, steps, hand)

    def _check_play(self, action) -> None:
        card, seat, name = action.value, action.seat, self.game.deck.name
        if not isinstance(card, int) or not 0 <= card < self.game.deck.size:
            raise Violation(PLAYER, seat, "illegal-action", f"seat {seat} played no card")
        if card in self.my_hand or card in self.known_spare:
            raise Violation(PLAYER, seat, "illegal-action",
                            f"seat {seat} played {name(card)}, which was dealt to me (the host accepted it)")
        if any(a.kind == "play" and a.value == card for a, _ in self.steps):
            raise Violation(PLAYER, seat, "illegal-action",
                            f"seat {seat} played {name(card)}, which was already played (the host accepted it)")

    def learn_spare(self, cards: frozenset) -> "Shadow":
        return Shadow(self.game, self.me, self.dealer, self.my_hand, self.known_spare | cards,
                      self.steps)


def _replayed(replay):
    """``replay()``, with the engine's objections as Violations: a step the rules refuse
    was the player's (the host accepted it); an impossible play names its player, and a
    play no deal fits at all is the host's."""
    try:
        return replay()
    except Contradiction as exc:
        raise Violation(PLAYER if exc.seat is not None else HOST, exc.seat, "illegal-action",
                        exc.reason) from None
    except IllegalAction as exc:
        raise Violation(PLAYER, exc.seat, "illegal-action",
                        f"seat {exc.seat}: {exc.reason} (the host accepted it)") from None


# -- the replica -----------------------------------------------------------------------------
class PeerReplica:
    def __init__(self, identity, host_key: bytes, table: str, rng=os.urandom,
                 deadline: float = CONTRIBUTION_DEADLINE, slack: float = CONTRIBUTION_SLACK,
                 clock=time.monotonic):
        self.identity = identity
        self.key = identity.public_key
        self.host_key = host_key
        self.table = table
        self.rng = rng
        self.chain = Chain(table)
        self.log: list[dict] = []
        self.halted: IntegrityAlert | None = None
        self.game = None
        self.seats = Seats()
        self.options: dict = {}
        self.scores: list[int] | None = None
        self.hand_number = 0
        self.dealer: int | None = None
        self.winner: int | None = None
        self.round: fairdeal.DealRound | None = None
        self.hand: dict | None = None  # this hand's checking state (see _on_deal)
        self.view: dict | None = None  # the latest private view the host sent
        self.public: dict | None = None
        self._contributed: tuple | None = None
        self.held: set[int] = set()  # seats this key plays (kept while a bot stands in)
        # The contribution deadline, checked on this peer's own clock (see _on_skip).
        self.deadline, self.slack, self.clock = deadline, slack, clock
        self._live = False  # the message being read is a live entry, not a catch-up sync
        self._commit_seen: tuple | None = None  # (hand, when its commit arrived live)
        self._contributed_at: tuple | None = None  # (hand, when this seat's shuffle went out)

    # -- who am I ------------------------------------------------------------------------
    @property
    def seat(self) -> int | None:
        return self.seats.held_by(self.key)

    @property
    def host_seat(self) -> int | None:
        return self.seats.held_by(self.host_key)

    @property
    def seq(self) -> int:
        return self.chain.seq

    # -- input ---------------------------------------------------------------------------
    def receive(self, message) -> ReplicaOut:
        out = ReplicaOut()
        try:
            message = m.check(message, m.HOST_TO_PEER)
        except m.ProtocolError as exc:
            out.errors.append(f"rejected a message from the host: {exc}")
            return out
        kind = message["type"]
        if kind in (m.ERROR, m.REFUSED):
            out.errors.append(message["reason"])
            return out
        self._live = kind == m.ENTRY
        if kind == m.SYNC:
            self._contributed = None  # a restarted host may have lost it: offer again
            self._contributed_at = None
            for entry_message in message["entries"]:
                if not self._entry(out, entry_message):
                    break
        else:
            self._entry(out, message)
        self._maybe_contribute(out)
        return out

    def _entry(self, out: ReplicaOut, wire: dict) -> bool:
        """Check and apply one entry message; False once halted."""
        if self.halted is not None:
            out.errors.append("this replica stopped at an integrity alert")
            return False
        message = EntryMessage.from_wire(wire)
        signed, entry = message.signed, message.entry
        try:
            if entry.seq <= self.chain.seq:
                return self._old(signed)
            problem = self.chain.problem(self.host_key, signed)
            if problem:
                raise Violation(HOST, self.host_seat, *problem)
            commit = getattr(self, "_on_" + entry.kind)(entry, message)
            if entry.kind not in ("deal", "action"):  # those are checked with their shadow
                self._check_public_unchanged(entry, message)
                self._check_private(entry, message, self._live_shadow(), self._seat_after(entry))
        except Violation as v:
            self._halt(out, v, signed.wire, entry.seq)
            return False
        except Exception as exc:  # a malformed body the schema could not see: the host's
            self._halt(out, Violation(HOST, self.host_seat, "kind",
                                      f"entry {entry.seq} ({entry.kind}) is malformed: "
                                      f"{type(exc).__name__}: {exc}"), signed.wire, entry.seq)
            return False
        if commit is not None:
            verified = commit()
            if verified:
                out.verified.append(verified)
        self.chain.advance(signed)
        self.log.append(signed)
        if message.public is not None or message.view is not None:
            self.public, self.view = message.public, message.view
        out.accepted.append(message)
        return True

    def _old(self, signed: SignedEntry) -> bool:
        """An entry we already hold: an identical copy is harmless; anything else forks."""
        seq = signed.seq
        if self.log[seq].hash == signed.hash:
            return True
        if not signed.signed_by(self.host_key):
            raise Violation(HOST, self.host_seat, "host-signature",
                            f"entry {seq} is not signed by the host's key")
        raise Violation(HOST, self.host_seat, "fork",
                        f"the host signed two different entries numbered {seq}")

    def _halt(self, out: ReplicaOut, v: Violation, failing: dict, seq: int) -> None:
        """Stop at ``v``: the alert, with the failing entry (or claim) and the log it was
        checked against (this hand's entries, or the last few between hands)."""
        start = self.hand["commit_seq"] if self.hand else max(0, len(self.log) - 8)
        alert = IntegrityAlert(v.seat, v.party, v.rule, v.detail, self.table, seq,
                               [s.wire for s in self.log[start:]] + [failing])
        self.halted = alert
        out.alerts.append(alert)

    def check_head(self, seq: int, head: bytes) -> ReplicaOut:
        """The host's heartbeat says its log ends at entry ``seq``, whose hash is ``head``.

        The host sends every entry before the heartbeat that counts it, on the same
        ordered link, so an honest host never claims an entry this replica was not sent
        (``sequence``: one was withheld) nor a different one (``fork``: other peers are
        shown another history)."""
        out = ReplicaOut()
        if self.halted is not None or self.chain.seq < 0:
            return out
        if seq > self.chain.seq:
            v = Violation(HOST, self.host_seat, "sequence",
                          f"the host's log reaches entry {seq}, but it sent me entries only up "
                          f"to {self.chain.seq}: it is withholding entries")
        elif seq >= 0 and self._hash_at(seq) != head:
            v = Violation(HOST, self.host_seat, "fork",
                          f"the host's entry {seq} is not the one it sent me: it shows "
                          "someone a different history")
        else:
            return out
        claim = {"type": "hb", "seq": seq, "head": head}  # what the host said (unsigned)
        self._halt(out, v, claim, seq)
        return out

    # -- table entries ---------------------------------------------------------------------
    def _on_table(self, entry, message):
        body = entry.body
        if body["protocol"] != m.PROTOCOL or body["host_key"] != self.host_key:
            raise Violation(HOST, None, "kind", "the table entry names another protocol or host key")
        g = body["game"]
        game = make_game(g["game"], g["ruleset"], g["mode"], g["options"])
        return lambda: setattr(self, "game", game)

    def _on_seat(self, entry, message):
        body = entry.body
        seat, kind, key = body["seat"], body["kind"], body["key"]
        self._need(self.game is not None and isinstance(seat, int)
                   and 0 <= seat < self.game.num_players and kind in ("human", "bot", "empty"),
                   entry, "a seat entry names no seat")
        self._need(kind != "bot" or key == self.host_key, entry, "a bot must play with the host's key")
        self._need(kind != "human" or (isinstance(key, bytes) and len(key) == m.KEY_BYTES),
                   entry, "a player's seat needs a key")
        if body.get("readmit") and kind == "human" and key != self.key and seat in self.held:
            raise Violation(HOST, self.host_seat, "readmit",
                            f"entry {entry.seq} gave my seat {seat} to a new key "
                            f"({fingerprint(key)}), but I never lost mine")
        info = Seat.from_body(body)

        def commit():
            self.seats[seat] = info
            if info.held_by(self.key):
                self.held.add(seat)
            elif kind != BOT:  # a stand-in bot keeps the seat for its player
                self.held.discard(seat)
        return commit

    def _on_option(self, entry, message):
        body = entry.body
        return lambda: self.options.__setitem__(body["name"], body["value"])

    def _on_start(self, entry, message):
        dealer = entry.body["dealer"]
        self._need(self.game is not None and self._between_hands(allow_over=True), entry,
                   "a game may start only between hands")
        self._need(isinstance(dealer, int) and 0 <= dealer < self.game.num_players, entry,
                   "the dealer is not a seat")

        def commit():
            self.scores = self.game.initial_scores()
            self.hand_number, self.dealer, self.winner = 0, dealer, None
            self.round, self.hand = None, None
        return commit

    def _on_drop(self, entry, message):
        seat = entry.body["seat"]
        self._need(seat in self.seats, entry, "a drop names no seat")

        def commit():
            self.seats.reconnected(seat, False)
            if self.round is not None:
                self.round.waive(seat)
        return commit

    def _on_rejoin(self, entry, message):
        seat = entry.body["seat"]
        self._need(seat in self.seats, entry, "a rejoin names no seat")
        return lambda: self.seats.reconnected(seat, True)

    def _need(self, ok: bool, entry: dict, detail: str) -> None:
        if not ok:
            raise Violation(HOST, self.host_seat, "kind", f"entry {entry.seq}: {detail}")

    def _between_hands(self, allow_over: bool = False) -> bool:
        no_hand = self.round is None or self.round.revealed
        return no_hand and (allow_over or self.winner is None)

    # -- the deal ----------------------------------------------------------------------------
    def _required(self) -> list[int]:
        return sorted(self.seats.players(besides=self.host_key))

    def _on_commit(self, entry, message):
        body = entry.body
        self._need(self.scores is not None and self._between_hands(), entry,
                   "a commitment while a hand is being played (or before the game)")
        self._need(body["hand"] == self.hand_number and body["dealer"] == self.dealer, entry,
                   f"expected hand {self.hand_number} dealt by seat {self.dealer}")
        if sorted(body["contributors"]) != self._required():
            raise Violation(HOST, self.host_seat, "contribution",
                            f"the commitment for hand {body['hand']} asks {body['contributors']} "
                            f"for randomness, not every player {self._required()}")
        self._need(isinstance(body["commitment"], bytes) and len(body["commitment"]) == m.HASH_BYTES,
                   entry, "a commitment is 32 bytes")

        def commit():
            self.round = fairdeal.DealRound(self.table, body["hand"], body["dealer"],
                                            body["commitment"], body["contributors"])
            for seat in body["contributors"]:
                if not self.seats[seat].connected:
                    self.round.waive(seat)
            self.hand = {"commit_seq": entry.seq}
            self._commit_seen = (body["hand"], self.clock()) if self._live else None
        return commit

    def _on_skip(self, entry, message):
        """A contributor skipped for missing the deadline. Clocks are not compared across
        machines: this peer measures from when the commitment reached it live (the host
        saw it earlier, never later) to when the skip arrives, and a skip sooner than the
        deadline less the slack is the host's. The skipped seat itself also knows whether
        it sent its shuffle in time on a link that stayed up."""
        body, rnd = entry.body, self.round
        self._need(rnd is not None and not rnd.dealt and body["hand"] == rnd.hand, entry,
                   "a skip with no deal waiting")
        seat = body["seat"]
        if seat not in rnd.waiting_for:
            raise Violation(HOST, self.host_seat, "contribution",
                            f"the host skipped seat {seat}, which owed no contribution")
        least = self.deadline - self.slack
        if self._commit_seen is not None and self._commit_seen[0] == rnd.hand:
            waited = self.clock() - self._commit_seen[1]
            if waited < least:
                raise Violation(HOST, self.host_seat, "contribution",
                                f"the host skipped seat {seat}'s shuffle {waited:.1f} s after the "
                                f"commitment; it must wait {self.deadline:g} s")
            sent = self._contributed_at
            if seat == self.seat and sent is not None and sent[0] == rnd.hand \
                    and sent[1] - self._commit_seen[1] < least:
                raise Violation(HOST, self.host_seat, "contribution",
                                f"the host skipped my shuffle, which I sent "
                                f"{sent[1] - self._commit_seen[1]:.1f} s after the commitment")
        return lambda: rnd.waive(seat)

    def _on_contribution(self, entry, message):
        body = entry.body
        self._need(self.round is not None and not self.round.dealt, entry,
                   "a contribution with no deal waiting")
        signed = body["signed"]
        self._need(m.is_contribution_envelope(signed), entry, "a malformed contribution")
        seat = signed["body"]["seat"]
        self._need(body["seat"] == seat and seat in self.seats, entry,
                   "the contribution is filed under another seat")
        if not opens(self.seats[seat].key, CONTRIBUTION_DOMAIN, signed):
            raise Violation(HOST, self.host_seat, "contribution",
                            f"seat {seat}'s contribution is not signed by its key")
        problem = self.round.contribution_problem(signed["body"])
        if problem:
            raise Violation(HOST, self.host_seat, "contribution", problem)
        return lambda: self.round.add(seat, signed["body"]["random"])

    def _on_deal(self, entry, message):
        body = entry.body
        rnd = self.round
        self._need(rnd is not None and not rnd.dealt and body["hand"] == rnd.hand
                   and body["dealer"] == rnd.dealer, entry, "a deal with no commitment before it")
        if rnd.waiting_for or body["contributors"] != rnd.contributors():
            raise Violation(HOST, self.host_seat, "contribution",
                            f"hand {rnd.hand} was dealt without the randomness of seat(s) "
                            f"{rnd.waiting_for or body['contributors']}")
        me = self.seat
        view = message.view
        my_hand = frozenset()
        if me is not None:
            if view is None or not isinstance(view.get("hand"), list):
                raise Violation(HOST, self.host_seat, "private-view", "no hand was sent with the deal")
            try:
                my_hand = frozenset(self.game.deck.parse(c) for c in view["hand"])
            except RecordError as exc:
                raise Violation(HOST, self.host_seat, "private-view", f"the hand sent: {exc}") from None
            if len(my_hand) != len(view["hand"]):
                raise Violation(HOST, self.host_seat, "private-view", "the hand sent repeats a card")
        shadow = Shadow(self.game, me, rnd.dealer, my_hand)
        shadow, deferred = self._compare(shadow, entry, message, me)
        self._check_private(entry, message, shadow, me)

        def commit():
            rnd.dealt = True
            self.hand.update({"deal_seq": entry.seq, "deal_hash": entry.state_hash, "me": me,
                              "my_hand": my_hand, "shadow": shadow, "steps": [],
                              "last_action": {}, "deferred": deferred, "end": None})
        return commit

    # -- actions ---------------------------------------------------------------------------
    def _on_action(self, entry, message):
        hand = self.hand
        self._need(hand is not None and "shadow" in hand and hand["end"] is None
                   and not hand["shadow"].state.is_over, entry, "an action while no hand is being played")
        signed = entry.body["signed"]
        self._need(m.is_action_envelope(signed), entry, "a malformed signed action")
        body = signed["body"]
        seat = body["action"]["seat"]
        self._need(seat in self.seats, entry, f"an action for seat {seat}, which nobody holds")
        if not opens(self.seats[seat].key, ACTION_DOMAIN, signed):
            raise Violation(HOST, self.host_seat, "player-signature",
                            f"entry {entry.seq}: the action for seat {seat} is not signed by its key")
        problem = action_body_problem(ActionBody.from_wire(body), seat, Binding(
            self.table, self.hand_number, hand["deal_seq"], hand["last_action"].get(seat), entry.seq,
            self._hash_at))
        if problem:
            raise Violation(HOST, self.host_seat, problem[0], f"entry {entry.seq}: {problem[1]}")
        action, hidden = self._parse_action(body, message, seat, entry)
        shadow = hand["shadow"].with_step(action, hidden)
        shadow, deferred = self._compare(shadow, entry, message, hand["me"])
        self._check_private(entry, message, shadow, self.seat)

        def commit():
            hand["shadow"] = shadow
            hand["last_action"][seat] = entry.seq
            hand["steps"].append({"seq": entry.seq, "body": body, "state_hash": entry.state_hash})
            hand["deferred"] += deferred
        return commit

    def _parse_action(self, body, message, seat, entry):
        """The Action to shadow-play, and whether its value is hidden from this seat."""
        public = body["action"]
        game = self.game
        try:
            if body["hidden"] is None:
                action = game.action_from_json(public)
                if game.action_to_json(action, public=True) != public or game.action_to_json(action) != public:
                    raise RecordError("not in canonical public form")
                return action, False
            mine = message.action
            if seat == self.hand["me"] and mine is not None:
                action = game.action_from_json(mine)
                if game.action_to_json(action, public=True) == public:
                    return action, False
            # Public form of a secret action: its cards are None ({"bury": null, "trump": "G"}).
            kind = next(k for k, v in public.items() if v is None)
            if kind not in ("bury", "discard"):
                raise ValueError("only a discard or a bury is secret")
            return Action(seat, kind, None, public.get("trump")), True
        except (RecordError, StopIteration, TypeError, ValueError) as exc:
            raise Violation(PLAYER, seat, "illegal-action",
                            f"entry {entry.seq}: seat {seat}'s action {public!r} cannot be read ({exc})") from None

    def _hash_at(self, seq: int) -> bytes | None:
        return self.log[seq].hash if 0 <= seq < len(self.log) else None

    def _compare(self, shadow: Shadow, entry: dict, message: dict, me: int | None):
        """Check the shadow against the host's signed state hash, the public view it sent
        and this seat's own hand; returns (shadow, deferred seqs)."""
        view = message.view
        if me is not None and view is not None and not shadow.state.is_over:
            shadow = self._check_hand(shadow, view, entry)
        claimed = entry.state_hash
        if claimed is None:
            raise Violation(HOST, self.host_seat, "state-hash", f"entry {entry.seq} has no state hash")
        if shadow.state.state_hash() == claimed:  # the cached encoding: cheap per entry
            if message.public is not None and message.public != shadow.state.public_view():
                raise Violation(HOST, self.host_seat, "state-hash",
                                f"entry {entry.seq}: the public state sent is not the one its "
                                "signed state hash names")
            return shadow, []
        mine = shadow.state.public_view()
        public = message.public
        if public is None:
            return shadow, [entry.seq]
        if canonical.digest(public) != claimed:
            raise Violation(HOST, self.host_seat, "state-hash",
                            f"entry {entry.seq}: the public state sent does not match the signed state hash")
        wrong = [k for k in CORE if mine.get(k) != public.get(k)]
        if wrong:
            raise Violation(HOST, self.host_seat, "state-hash",
                            f"entry {entry.seq}: the host's public state differs from the "
                            f"replayed one in {', '.join(wrong)}")
        return shadow, [entry.seq]

    # -- privacy: what the host sends this seat alone must be this seat's ------------------
    def _live_shadow(self) -> Shadow | None:
        hand = self.hand
        return hand.get("shadow") if hand is not None and hand.get("end") is None else None

    def _seat_after(self, entry: dict) -> int | None:
        """This key's seat once ``entry`` is applied (a seat entry may give or take it)."""
        body = entry.body
        if entry.kind != "seat":
            return self.seat
        return self.seats.after(body).held_by(self.key)

    def _check_public_unchanged(self, entry: dict, message: dict) -> None:
        """An entry that changes no state comes with the public view already verified."""
        public = message.public
        if public is not None and public != self.public:
            raise Violation(HOST, self.host_seat, "state-hash",
                            f"entry {entry.seq} ({entry.kind}) changes nothing, yet comes "
                            "with a different public state")

    def _check_private(self, entry: dict, message: dict, shadow: Shadow | None,
                       me: int | None) -> None:
        """Everything the host sent this seat alone — the private view, a secret move, the
        events — must name no card but this seat's own (its hand as dealt, and the spare
        when it took it) and those every seat may see (the public view). A host that shows
        a peer another seat's cards is named at once."""
        seq, view, action = entry.seq, message.view, message.action
        if action is not None and not self._is_my_secret(entry, me):
            raise self._leak(seq, "another seat's secret move")
        own = self._own_cards(shadow, me)
        if view is not None:
            if me is None or view.get("seat") != me:
                raise self._leak(seq, f"the private view of seat {view.get('seat')}")
            public = message.public or {}
            for key, value in view.items():
                if key != "seat" and (key == "hand" or public.get(key, object()) != value) \
                        and own is not None and not self._only_own(value, own):
                    raise self._leak(seq, f"cards that are not mine as '{key}'")
        if action is not None and own is not None and not self._only_own(
                [v for k, v in action.items() if k in ("bury", "discard")], own):
            raise self._leak(seq, "cards that are not mine in my secret move")
        shown = self._card_names(message.events)
        if shown:
            public_cards = self._card_names(message.public)
            foreign = sorted(shown - public_cards - (own or set()))
            if foreign:
                raise self._leak(seq, "in its events, cards nobody has shown: " +
                                 ", ".join(self.game.deck.name(c) for c in foreign))

    def _leak(self, seq: int, what: str) -> Violation:
        return Violation(HOST, self.host_seat, "privacy", f"entry {seq}: the host sent me {what}")

    def _is_my_secret(self, entry: dict, me: int | None) -> bool:
        """Whether ``entry`` is this seat's own secret move (the host sends it back)."""
        if entry.kind != "action" or me is None:
            return False
        body = entry.body["signed"]["body"]
        return body["action"].get("seat") == me and body["hidden"] is not None

    def _own_cards(self, shadow: Shadow | None, me: int | None) -> set[int] | None:
        """Card numbers this seat may see privately: its dealt hand and the spare it
        learned by taking it. None when that cannot be told: seated in the middle of a
        hand (re-admitted), it was not dealt the hand the shadow knows."""
        if shadow is None:
            dealt = self.hand is not None and "shadow" in self.hand and self.hand["end"] is None
            return None if dealt else set()
        if shadow.me != me:
            return None
        return set(shadow.my_hand) | set(shadow.known_spare)

    def _only_own(self, value, own: set[int]) -> bool:
        """``value`` is nothing, or cards (nested lists of names) all in ``own``."""
        if value is None:
            return True
        if isinstance(value, list):
            return all(self._only_own(v, own) for v in value)
        if isinstance(value, str):
            try:
                return self.game.deck.parse(value) in own
            except RecordError:
                return False
        return False

    def _card_names(self, value) -> set[int]:
        """Every card a plain value names (any string that is a card's name)."""
        found, stack = set(), [value]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                try:
                    found.add(self.game.deck.parse(item))
                except RecordError:
                    pass
            elif isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
        return found

    def _check_hand(self, shadow: Shadow, view: dict, entry: dict) -> Shadow:
        """This seat's hand as the host sees it must be the shadow's; cards it gained
        that nobody could see (a kitty, a widow) teach the shadow the spare."""
        me, deck = shadow.me, self.game.deck
        try:
            theirs = frozenset(deck.parse(c) for c in view.get("hand") or [])
        except RecordError:
            theirs = None
        ours = frozenset(cards_of(shadow.state.hands[me]))
        if theirs == ours:
            return shadow
        if theirs is not None:
            # Cards I hold that I was not dealt can only have come from the spare.
            spare = theirs - shadow.my_hand
            seen = {a.value for a, _ in shadow.steps if a.kind == "play"}
            if spare and spare != shadow.known_spare and not spare & seen and \
                    len(spare | shadow.known_spare) <= self.game.spare_size:
                better = shadow.learn_spare(spare)
                if frozenset(cards_of(better.state.hands[me])) == theirs:
                    return better
        raise Violation(HOST, self.host_seat, "private-view",
                        f"entry {entry.seq}: the hand the host says I hold is not the one the "
                        "deal and the play give")

    # -- the end of a hand ---------------------------------------------------------------------
    def _on_hand_end(self, entry, message):
        hand, body = self.hand, entry.body
        self._need(hand is not None and "shadow" in hand and hand["end"] is None
                   and hand["shadow"].state.is_over and body["hand"] == self.hand_number, entry,
                   "a hand end while the hand is being played")
        return lambda: hand.__setitem__("end", body)

    def _on_reveal(self, entry, message):
        hand, body = self.hand, entry.body
        self._need(hand is not None and hand.get("end") is not None and not self.round.revealed
                   and body["hand"] == self.round.hand, entry, "a reveal before the hand ended")
        problem = self.round.reveal_problem(body["secret"])
        if problem:
            raise Violation(HOST, self.host_seat, "commitment", problem)
        state = self._verify_hand(body)
        end = hand["end"]

        def commit():
            self.round.secret = body["secret"]
            self.round.revealed = True
            self.scores, self.winner = list(end["scores"]), end["winner"]
            self.hand_number += 1
            self.dealer = (self.dealer + 1) % self.game.num_players
            return {"hand": body["hand"], "result": end["result"], "scores": list(end["scores"]),
                    "winner": end["winner"], "record": _record(state),
                    "deferred": list(hand["deferred"])}
        return commit

    def _verify_hand(self, reveal: dict):
        """Replay the hand with every card known; a Violation names the first fault."""
        hand, game, rnd = self.hand, self.game, self.round
        host = self.host_seat
        state = game.deal(fairdeal.seed(self.table, rnd.hand, reveal["secret"], rnd.contributions),
                          rnd.dealer)
        if hand["me"] is not None and frozenset(state.dealt[hand["me"]]) != hand["my_hand"]:
            raise Violation(HOST, host, "deal", "the hand I was dealt is not the one the "
                            "commitment and the contributions give")
        if state.state_hash() != hand["deal_hash"]:
            raise Violation(HOST, host, "deal", "the deal entry's state is not the deal the seed gives")
        known = hand["shadow"].known_spare
        if known and not known <= frozenset(state.spare):
            raise Violation(HOST, host, "deal", "the spare cards I was given are not the ones dealt")
        secrets = self._revealed_actions(reveal, hand["steps"])
        for step in hand["steps"]:
            full = secrets.get(step["seq"], step["body"]["action"])
            seat = full.get("seat")
            try:
                state.apply(game.action_from_json(full))
            except (IllegalAction, RecordError) as exc:
                raise Violation(PLAYER, seat, "illegal-action",
                                f"entry {step['seq']}: seat {seat}: {exc} (the host accepted it)") from None
            if state.state_hash() != step["state_hash"]:
                raise Violation(HOST, host, "state-hash",
                                f"entry {step['seq']}: the signed state hash is not the replayed state's")
        result = state.result()
        end = hand["end"]
        scores = [s + d for s, d in zip(self.scores, result.score)] if result else None
        if result is None or end["result"] != result_dict(result) or end["scores"] != scores \
                or end["winner"] != game.match_winner(scores, result):
            raise Violation(HOST, host, "score", f"hand {rnd.hand}: the host's result {end['result']} "
                            f"and scores {end['scores']} are not what the replay gives")
        return state

    def _revealed_actions(self, reveal: dict, steps: list) -> dict:
        """Secret actions by seq, each checked against the digest its player signed."""
        host = self.host_seat
        hidden = {s["seq"]: s for s in steps if s["body"]["hidden"] is not None}
        out = {}
        items = reveal.get("hidden")
        if not isinstance(items, list):
            raise Violation(HOST, host, "hidden-action", "the reveal lists no secret actions")
        for item in items:
            seq = item.get("seq") if isinstance(item, dict) else None
            if seq not in hidden or seq in out:
                raise Violation(HOST, host, "hidden-action", f"the reveal names entry {seq}, "
                                "which holds no secret action")
            body = hidden[seq]["body"]
            action, nonce = item.get("action"), item.get("nonce")
            if not isinstance(nonce, bytes) or not isinstance(action, dict) \
                    or hidden_digest(nonce, action) != body["hidden"]:
                raise Violation(HOST, host, "hidden-action",
                                f"entry {seq}: the revealed action is not the one its player signed")
            try:
                public = self.game.action_to_json(self.game.action_from_json(action), public=True)
            except (RecordError, TypeError, ValueError):
                public = None
            if public != body["action"]:
                raise Violation(HOST, host, "hidden-action",
                                f"entry {seq}: the revealed action does not match its public form")
            out[seq] = action
        missing = sorted(set(hidden) - set(out))
        if missing:
            raise Violation(HOST, host, "hidden-action", f"the reveal leaves out entries {missing}")
        return out

    # -- output ------------------------------------------------------------------------------
    def _maybe_contribute(self, out: ReplicaOut) -> None:
        me, rnd = self.seat, self.round
        if self.halted or rnd is None or me is None or me not in rnd.waiting_for:
            return
        token = (rnd.hand, rnd.commitment)
        if self._contributed == token:
            return
        self._contributed = token
        self._contributed_at = (rnd.hand, self.clock())
        body = m.contribution_body(self.table, rnd.hand, me, rnd.commitment, self.rng(m.RANDOM_BYTES))
        out.sends.append(m.contribution_message(seal(self.identity, CONTRIBUTION_DOMAIN, body)))

    def act(self, action: dict) -> dict:
        """The signed message for this seat's ``action`` (hand-record form, no seat).

        IllegalAction if the rules forbid it (checked on this seat's own replica where
        it can be), ReplicaHalted after an alert."""
        if self.halted is not None:
            raise ReplicaHalted(str(self.halted))
        me, hand = self.seat, self.hand
        if me is None or hand is None or "shadow" not in hand or hand["end"] is not None:
            raise IllegalAction("you have no hand to play")
        try:
            parsed = read_action(self.game, action, me)
        except RecordError as exc:
            raise IllegalAction(str(exc)) from None
        if hand["me"] == me:
            hand["shadow"].state.clone().apply(parsed)  # IllegalAction goes to the caller
        # Else this key was seated in the middle of the hand (re-admitted): the shadow
        # deal was built before it held the seat and does not know its cards, so the
        # host's check is the live one (and the reveal checks the whole hand as usual).
        return sign_action(self.identity, self.game, parsed, table=self.table,
                           hand=self.hand_number, seen=self.chain.seq, head=self.chain.head,
                           rng=self.rng).message()

    def rejoin_message(self) -> dict:
        return m.rejoin_message(self.seat if self.seat is not None else 0, self.chain.seq)

    @classmethod
    def restore(cls, identity, host_key: bytes, table: str, messages, rng=os.urandom) -> "PeerReplica":
        """A replica rebuilt from the entry messages it accepted (``ReplicaOut.accepted``)."""
        replica = cls(identity, host_key, table, rng)
        for message in messages:
            replica.receive(message.wire)
        return replica


def _record(state) -> dict | None:
    """The verified hand as a ``parlour-hand/1`` record (for saving and export)."""
    try:
        from engine.records import record_from_state
    except ImportError:  # pragma: no cover - records landed with the engine
        return None
    return record_from_state(state)
