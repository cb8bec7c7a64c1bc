"""PeerReplica: a peer's own copy of the table, checking the host entry by entry (no I/O).

``receive(message)`` takes what the host sent and returns a ``ReplicaOut``: messages to
send back (this seat's contribution to a deal), the entries accepted, hands verified
at their reveal, and integrity alerts. An entry is accepted only if it is

* signed by the host's key, for this table, the next in sequence, linked to the last
  entry's hash (an identical copy of an entry already held is ignored; a different one
  with the same number is a fork);
* allowed now (a commit between hands, a deal after every contribution, …);
* for an action: signed by the key of the seat it is for, made for this table and hand
  after seeing the deal and the player's own previous action (``moves``), and legal as
  far as this seat can tell; and the public state after it hashes to the entry's
  ``state_hash`` (``live``);
* private to this seat in everything sent to it alone (``privacy``).

At the reveal the whole hand is checked again with every card known (``reveal``). The
first failure raises an ``IntegrityAlert`` naming the seat and the rule, and the
replica stops: it refuses that entry and every later one (the session starts a fresh
replica and rejoins from the beginning to resync). It never advances on a forked
history.

Each ``_on_<kind>`` handler checks an entry without changing anything and returns what
to do once every check has passed, so a refused entry leaves the replica as it was. The
checks themselves live in single-job modules: ``shadow`` (the hand replayed on what
this seat knows), ``live``, ``privacy``, ``reveal``, ``deadline`` (a skip timed on this
peer's own clock) and ``fairdeal`` (the commit–reveal round).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace

from engine import IllegalAction, RecordError, make_game
from engine.bots.knowledge import Knowledge

from net.constants import CONTRIBUTION_DEADLINE, CONTRIBUTION_SLACK
from net.trust import fairdeal, takeover
from net.trust.alerts import HOST, IntegrityAlert, Violation
from net.trust.deadline import ShuffleWatch
from net.trust.live import compare, hand_sent, logged_action, shown_hand
from net.trust.log import Chain, HeldLog
from net.trust.moves import Binding, logged_move
from net.trust.privacy import check_private
from net.trust.reveal import verified, verify_hand
from net.trust.shadow import CheckedHand, Shadow, Step
from net.trust.signing import CONTRIBUTION_DOMAIN, opens, read_action, seal, sign_action
from net.trust.values import BOT, Entry, EntryMessage, Seat, Seats
from net.wire import messages as m
from net.wire.identity import fingerprint


@dataclass
class ReplicaOut:
    sends: list = field(default_factory=list)  # messages for the host
    accepted: list = field(default_factory=list)  # EntryMessages applied, in order
    verified: list = field(default_factory=list)  # hands checked at their reveal
    alerts: list = field(default_factory=list)  # IntegrityAlerts (at most one: then halted)
    errors: list = field(default_factory=list)  # the host's error replies, rejected junk


class ReplicaHalted(Exception):
    """The replica stopped at an integrity alert and takes no more actions."""


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
        self.log = HeldLog()  # every entry accepted
        self.halted: IntegrityAlert | None = None
        self.game = None
        self.seats = Seats()
        self.options: dict = {}
        self.scores: list[int] | None = None
        self.hand_number = 0
        self.dealer: int | None = None
        self.winner: int | None = None
        self.round: fairdeal.DealRound | None = None
        self.hand: CheckedHand | None = None  # the hand in progress, from its commitment
        self.view: dict | None = None  # the latest private view the host sent
        self.public: dict | None = None
        self.held: set[int] = set()  # seats this key plays (kept while a bot stands in)
        self.clock = clock  # the contribution deadline is timed on this peer's own clock
        self.shuffles = ShuffleWatch(deadline, slack)
        self.standing: dict | None = None  # this player's signed standing in a takeover
        self._contributed: tuple | None = None  # (hand, commitment) this seat answered
        self._live = False  # the message being read is a live entry, not a catch-up sync
        self._rebuilt: tuple | None = None  # (view, the position rebuilt from it): ``decision_state``

    # -- who am I ------------------------------------------------------------------------
    @property
    def seat(self) -> int | None:
        # A departed host back as a guest was sent nothing private for its own entries.
        return None if self.key == self.host_key else self.seats.held_by(self.key)

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
            self.shuffles.resynced()
            for entry_message in message["entries"]:
                if not self._entry(out, entry_message):
                    break
        else:
            self._entry(out, message)
        if kind != m.SYNC or message["last"]:  # caught up: a round may be waiting for us
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
            held = entry.seq <= self.chain.seq
            problem = (self.log.copy_problem(self.host_key, signed) if held
                       else self.chain.problem(takeover.signer_of(entry, self.host_key), signed))
            if problem:
                raise Violation(HOST, self.host_seat, *problem)
            if held:
                return True  # an identical copy of an entry held: harmless
            commit = getattr(self, "_on_" + entry.kind.replace("-", "_"))(entry, message)
            if entry.kind not in ("deal", "action"):  # those are checked with their shadow
                self._check_public_unchanged(entry, message)
                live, me = self._live_shadow(), self._seat_after(entry)
                shadow = shown_hand(self.game, live, message.view, me, entry.seq, self.host_seat)
                self._check_private(entry, message, shadow, me)
                if shadow is not live:
                    commit = then(commit, lambda: setattr(self, "hand", replace(self.hand, shadow=shadow)))
        except Violation as v:
            self._halt(out, v, signed.wire, entry.seq)
            return False
        except Exception as exc:  # a malformed body the schema could not see: the host's
            self._halt(out, Violation.malformed(self.host_seat, entry, exc), signed.wire, entry.seq)
            return False
        if commit is not None:
            done = commit()
            if done:
                out.verified.append(done)
        self.chain.advance(signed)
        self.log.append(signed)
        if message.public is not None or message.view is not None:
            self.public, self.view = message.public, message.view
        out.accepted.append(message)
        return True

    def _halt(self, out: ReplicaOut, v: Violation, failing: dict, seq: int) -> None:
        """Stop at ``v``: the alert, with the failing entry (or claim) and the log it was
        checked against (this hand's entries, or the last few between hands)."""
        start = self.hand.commit_seq if self.hand is not None else max(0, len(self.log) - 8)
        alert = IntegrityAlert(v.seat, v.party, v.rule, v.detail, self.table, seq,
                               [s.wire for s in self.log[start:]] + [failing])
        self.halted = alert
        out.alerts.append(alert)

    def check_head(self, seq: int, head: bytes) -> ReplicaOut:
        """The host's heartbeat says its log ends at entry ``seq``, whose hash is ``head``
        (``HeldLog.head_problem``)."""
        out = ReplicaOut()
        problem = None if self.halted is not None or self.chain.seq < 0 else self.log.head_problem(seq, head)
        if problem is not None:
            claim = {"type": "hb", "seq": seq, "head": head}  # what the host said (unsigned)
            self._halt(out, Violation(HOST, self.host_seat, *problem), claim, seq)
        return out

    # -- table entries ---------------------------------------------------------------------
    def _on_table(self, entry: Entry, message: EntryMessage):
        body = entry.body
        if body["protocol"] != m.PROTOCOL or body["host_key"] != self.host_key:
            raise Violation(HOST, None, "kind", "the table entry names another protocol or host key")
        g = body["game"]
        game = make_game(g["game"], g["ruleset"], g["mode"], g["options"])
        return lambda: setattr(self, "game", game)

    def _on_seat(self, entry: Entry, message: EntryMessage):
        body = entry.body
        seat, kind, key = body["seat"], body["kind"], body["key"]
        problem = Seat.body_problem(body, self.game.num_players if self.game else 0, self.host_key)
        self._need(problem is None, entry, problem)
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

    def _on_option(self, entry: Entry, message: EntryMessage):
        body = entry.body
        return lambda: self.options.__setitem__(body["name"], body["value"])

    def _on_start(self, entry: Entry, message: EntryMessage):
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

    def _on_drop(self, entry: Entry, message: EntryMessage):
        seat = entry.body["seat"]
        self._need(seat in self.seats, entry, "a drop names no seat")

        def commit():
            self.seats.reconnected(seat, False)
            if self.round is not None:
                self.round.waive(seat)
        return commit

    def _on_rejoin(self, entry: Entry, message: EntryMessage):
        seat = entry.body["seat"]
        self._need(seat in self.seats, entry, "a rejoin names no seat")
        return lambda: self.seats.reconnected(seat, True)

    def _on_takeover(self, entry: Entry, message: EntryMessage):
        return takeover.checked(self, entry)  # a new host from the players (``takeover``)

    def _need(self, ok: bool, entry: Entry, detail: str) -> None:
        if not ok:
            raise Violation(HOST, self.host_seat, "kind", f"entry {entry.seq}: {detail}")

    def _between_hands(self, allow_over: bool = False) -> bool:
        no_hand = self.round is None or self.round.revealed
        return no_hand and (allow_over or self.winner is None)

    # -- the deal ----------------------------------------------------------------------------
    def _on_commit(self, entry: Entry, message: EntryMessage):
        body = entry.body
        self._need(self.scores is not None and self._between_hands(), entry,
                   "a commitment while a hand is being played (or before the game)")
        self._need(body["hand"] == self.hand_number and body["dealer"] == self.dealer, entry,
                   f"expected hand {self.hand_number} dealt by seat {self.dealer}")
        required = sorted(self.seats.players(besides=self.host_key))
        if sorted(body["contributors"]) != required:
            raise Violation(HOST, self.host_seat, "contribution",
                            f"the commitment for hand {body['hand']} asks {body['contributors']} "
                            f"for randomness, not every player {required}")
        self._need(isinstance(body["commitment"], bytes) and len(body["commitment"]) == m.HASH_BYTES,
                   entry, "a commitment is 32 bytes")

        def commit():
            self.round = fairdeal.DealRound(self.table, body["hand"], body["dealer"],
                                            body["commitment"], body["contributors"])
            for seat in self.seats.away() & set(body["contributors"]):
                self.round.waive(seat)
            self.hand = CheckedHand(entry.seq)
            self.shuffles.committed(body["hand"], self._live, self.clock())
        return commit

    def _on_skip(self, entry: Entry, message: EntryMessage):
        """A contributor skipped for missing the deadline: it must have owed one, and
        the skip may not come sooner than this peer's own clock allows (``deadline``)."""
        body, rnd = entry.body, self.round
        self._need(rnd is not None and not rnd.dealt and body["hand"] == rnd.hand, entry,
                   "a skip with no deal waiting")
        seat = body["seat"]
        if seat not in rnd.waiting_for:
            raise Violation(HOST, self.host_seat, "contribution",
                            f"the host skipped seat {seat}, which owed no contribution")
        problem = self.shuffles.skip_problem(rnd.hand, seat, seat == self.seat, self.clock())
        if problem:
            raise Violation(HOST, self.host_seat, "contribution", problem)
        return lambda: rnd.waive(seat)

    def _on_contribution(self, entry: Entry, message: EntryMessage):
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

    def _on_deal(self, entry: Entry, message: EntryMessage):
        body = entry.body
        rnd = self.round
        self._need(rnd is not None and not rnd.dealt and body["hand"] == rnd.hand
                   and body["dealer"] == rnd.dealer, entry, "a deal with no commitment before it")
        if rnd.waiting_for or body["contributors"] != rnd.contributors():
            raise Violation(HOST, self.host_seat, "contribution",
                            f"hand {rnd.hand} was dealt without the randomness of seat(s) "
                            f"{rnd.waiting_for or body['contributors']}")
        me = self.seat
        my_hand = hand_sent(self.game, message.view, self.host_seat) if me is not None else frozenset()
        shadow, deferred = compare(self.game, Shadow(self.game, me, rnd.dealer, my_hand), entry,
                                   message, me, self.host_seat)
        self._check_private(entry, message, shadow, me)
        hand = self.hand

        def commit():
            rnd.dealt = True
            self.hand = hand.with_deal(entry.seq, entry.state_hash, shadow, deferred)
        return commit

    # -- moves -------------------------------------------------------------------------------
    def _on_action(self, entry: Entry, message: EntryMessage):
        hand = self.hand
        self._need(hand is not None and hand.playing and not hand.shadow.state.is_over, entry,
                   "an action while no hand is being played")
        body = logged_move(entry, self.seats, self.host_seat, self.binding(hand, entry))
        action, hidden = logged_action(self.game, body, message.action, hand.me, entry.seq)
        shadow, deferred = compare(self.game, hand.shadow.with_step(action, hidden), entry, message,
                                   hand.me, self.host_seat)
        self._check_private(entry, message, shadow, self.seat)
        step = Step(entry.seq, body, entry.state_hash)
        return lambda: setattr(self, "hand", hand.with_step(step, shadow, deferred))

    def binding(self, hand: CheckedHand, entry: Entry):
        """What a move logged in ``entry`` must be bound to, by seat (``moves.Binding``)."""
        return lambda seat: Binding(self.table, self.hand_number, hand.deal_seq,
                                    hand.last_action(seat), entry.seq, self.log.hash_at)

    # -- what the host sends this seat alone, and entries that change no state ----------------
    def _live_shadow(self) -> Shadow | None:
        hand = self.hand
        return hand.shadow if hand is not None and hand.end is None else None

    def _seat_after(self, entry: Entry) -> int | None:
        """This key's seat once ``entry`` is applied (a seat entry may give or take it)."""
        if entry.kind != "seat":
            return self.seat
        return self.seats.after(entry.body).held_by(self.key)

    def _check_public_unchanged(self, entry: Entry, message: EntryMessage) -> None:
        """An entry that changes no state comes with the public view already verified."""
        public = message.public
        if public is not None and public != self.public:
            raise Violation(HOST, self.host_seat, "state-hash",
                            f"entry {entry.seq} ({entry.kind}) changes nothing, yet comes "
                            "with a different public state")

    def _check_private(self, entry: Entry, message: EntryMessage, shadow: Shadow | None,
                       me: int | None) -> None:
        playing = self.hand is not None and self.hand.playing
        check_private(self.game.deck if self.game else None, entry, message, shadow, me, playing,
                      self.host_seat)

    # -- the end of a hand ---------------------------------------------------------------------
    def _on_hand_end(self, entry: Entry, message: EntryMessage):
        hand, body = self.hand, entry.body
        self._need(hand is not None and hand.playing and hand.shadow.state.is_over
                   and body["hand"] == self.hand_number, entry,
                   "a hand end while the hand is being played")
        return lambda: setattr(self, "hand", hand.ended(body))

    def _on_reveal(self, entry: Entry, message: EntryMessage):
        hand, body = self.hand, entry.body
        self._need(hand is not None and hand.end is not None and not self.round.revealed
                   and body["hand"] == self.round.hand, entry, "a reveal before the hand ended")
        problem = self.round.reveal_problem(body["secret"])
        if problem:
            raise Violation(HOST, self.host_seat, "commitment", problem)
        state = verify_hand(self.game, self.round, hand, body, self.scores, self.host_seat)

        def commit():
            self.round.secret = body["secret"]
            self.round.revealed = True
            self.scores, self.winner = list(hand.end["scores"]), hand.end["winner"]
            self.hand_number += 1
            self.dealer = (self.dealer + 1) % self.game.num_players
            return verified(body, hand, state)
        return commit

    # -- output ------------------------------------------------------------------------------
    def _maybe_contribute(self, out: ReplicaOut) -> None:
        me, rnd = self.seat, self.round
        if self.halted or rnd is None or me is None or me not in rnd.waiting_for:
            return
        token = (rnd.hand, rnd.commitment)
        if self._contributed == token:
            return
        self._contributed = token
        self.shuffles.contributed(rnd.hand, self.clock())
        body = m.contribution_body(self.table, rnd.hand, me, rnd.commitment, self.rng(m.RANDOM_BYTES))
        out.sends.append(m.contribution_message(seal(self.identity, CONTRIBUTION_DOMAIN, body)))

    def act(self, action: dict) -> dict:
        """The signed message for this seat's ``action`` (hand-record form, no seat).

        IllegalAction if the rules forbid it (checked on ``decision_state``: this seat's
        replay, or the host's view of the seat where the replay lacks its cards),
        ReplicaHalted after an alert."""
        if self.halted is not None:
            raise ReplicaHalted(str(self.halted))
        me, hand = self.seat, self.hand
        if me is None or hand is None or not hand.playing:
            raise IllegalAction("you have no hand to play")
        try:
            parsed = read_action(self.game, action, me)
        except RecordError as exc:
            raise IllegalAction(str(exc)) from None
        state = self.decision_state()
        if state is not None:
            state.clone().apply(parsed)  # IllegalAction goes to the caller
        return sign_action(self.identity, self.game, parsed, table=self.table,
                           hand=self.hand_number, seen=self.chain.seq, head=self.chain.head,
                           rng=self.rng, mental=self._play_proof(parsed)).message()

    def _play_proof(self, action) -> dict | None:
        return None  # a played card's proof, under the mental deal (``MentalReplica``)

    # -- what this seat decides on --------------------------------------------------------------
    def holds_own_cards(self) -> bool:
        """Whether the replay of the hand in progress holds this seat's real cards: it was
        dealt them as this seat. It does not for a key seated in the middle of the hand
        (re-admitted), a seat whose secret move a stand-in made while its player was away
        (``Shadow.with_step``), nor, under the mental deal, a hand this client is no party
        of (``MentalReplica``: its player away at the deal, or restarted out of it) — their
        replay holds made-up cards for the seat, whose cards the host knows."""
        hand = self.hand
        return hand is not None and hand.dealt and self.seat is not None and hand.me == self.seat

    def decision_state(self):
        """The hand in progress as this seat decides on it — what it is offered (legal moves,
        why the other cards are refused), what its move is checked on before it is sent,
        what a bot in its seat chooses from: the replay when it holds this seat's real cards
        (``holds_own_cards``); else the position rebuilt from the view the host sent, as a
        bot rebuilds it (``Knowledge``: exact for this seat's own choices). None between
        hands, or while no view of this seat's has come."""
        hand = self.hand
        if hand is None or not hand.playing:
            return None
        if self.seat is None or self.holds_own_cards():
            return hand.shadow.state  # (no seat: nothing to decide, the public replay)
        view = self.view
        if view is None or view.get("seat") != self.seat:
            return None
        if self._rebuilt is None or self._rebuilt[0] is not view:
            self._rebuilt = (view, Knowledge(self.game, view).state)
        return self._rebuilt[1]

    def rejoin_message(self) -> dict:
        return m.rejoin_message(self.seat if self.seat is not None else 0, self.chain.seq)

    def tail(self, after: int) -> list[dict]:
        """A restarted host asks for the entries it lost (``net.trust.recovery``): the
        "tail" messages of every entry held after ``after``."""
        return m.tail_messages([signed.wire for signed in self.log[max(after + 1, 0):]])

    @classmethod
    def restore(cls, identity, host_key: bytes, table: str, messages, rng=os.urandom, **timing) -> "PeerReplica":
        """A replica rebuilt from the entry messages it accepted (``ReplicaOut.accepted``);
        ``timing``: its ``deadline`` and ``slack``, if not the default ones."""
        replica = cls(identity, host_key, table, rng, **timing)
        for message in messages:
            replica.receive(message.wire)
        return replica


def then(commit, after):
    """``commit`` (or nothing), then ``after()``; what ``commit`` returned."""
    def both():
        done = commit() if commit is not None else None
        after()
        return done
    return both
