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

Each check returns what to do once every check has passed, so a refused entry leaves the
replica as it was. The table's own entries (seats, options, a game's start, drops,
rejoins, a takeover) are checked here; a hand's are its deal's (``deal``: a
``deals.peer.PeerDeal`` — the seeded deal's ``SeededPeer`` or the mental deal's
``MentalPeer`` — opened by the hand's first entry, ``NO_DEAL`` between hands), which
checks them with single-job modules: ``shadow`` (the hand replayed on what this seat
knows), ``live``, ``privacy``, and the deal's own round, deadlines and reveal.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import Game, IllegalAction, RecordError, make_game
from engine.bots.knowledge import Knowledge

from net.constants import CONTRIBUTION_DEADLINE, CONTRIBUTION_SLACK
from net.trust import takeover
from net.trust.alerts import HOST, IntegrityAlert, Violation
from net.trust.failures import OwnError
from net.trust.deals.mental.peer import MentalPeer
from net.trust.deals.rounds import Round
from net.trust.deals.peer import NO_DEAL, PeerDeal, PeerTable
from net.trust.deals.seeded.peer import SeededPeer
from net.trust.entries import (DropBody, EntryBody, EntryError, HandBody, OptionBody, RejoinBody, SeatBody,
                               StartBody, TableBody, TakeoverBody)
from net.trust.peer import testimony
from net.trust.peer.deliveries import Deliveries
from net.trust.replay.live import shown_hand
from net.trust.reports import Report
from net.trust.log import Chain, HeldLog
from net.trust.signing import read_action, sign_action
from net.trust.values import BOT, Entry, EntryMessage, Seat, Seats
from net.wire import messages as m
from net.wire.identity import fingerprint

#: The deal a hand is dealt by, by the entry that opens it.
DEALS = {SeededPeer.OPENS: SeededPeer, MentalPeer.OPENS: MentalPeer}


@dataclass
class ReplicaOut:
    sends: list = field(default_factory=list)  # messages for the host
    accepted: list = field(default_factory=list)  # EntryMessages applied, in order
    verified: list = field(default_factory=list)  # hands checked at their reveal
    alerts: list = field(default_factory=list)  # IntegrityAlerts (at most one: then halted)
    named: list = field(default_factory=list)  # IntegrityAlerts naming a player; the table goes on
    errors: list = field(default_factory=list)  # the host's error replies, rejected junk
    refuses: bytes | None = None  # the signature of our message the host's error refuses
    failed: list = field(default_factory=list)  # this client's own error (at most one: then stopped)
    reported: list = field(default_factory=list)  # another player's report, not checked here

    def then(self, later: "ReplicaOut") -> "ReplicaOut":
        """This and ``later``, as one (what was accepted, verified, named, raised)."""
        return ReplicaOut(self.sends + later.sends, self.accepted + later.accepted,
                          self.verified + later.verified, self.alerts + later.alerts,
                          self.named + later.named, self.errors + later.errors,
                          failed=self.failed + later.failed, reported=self.reported + later.reported)


class ReplicaHalted(Exception):
    """The replica stopped (an integrity alert, or its own error) and takes no more actions."""


__all__ = ["PeerReplica", "ReplicaHalted", "ReplicaOut"]


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
        self.failed: OwnError | None = None  # an exception in this client's own checks
        self.game: Game | None = None
        self.seats = Seats()
        self.options: dict = {}
        self.scores: list[int] | None = None
        self.hand_number = 0
        self.dealer: int | None = None
        self.winner: int | None = None
        self.deal: PeerDeal = NO_DEAL  # the hand's deal (the last hand's, between hands)
        self.deals = DEALS  # the part each opening entry makes (a test's client may bend one)
        self.view: dict | None = None  # this seat's latest view (the host's, or its deal's own)
        # The hand has moved on since ``view`` came, with no view of this seat's since:
        # it is what was shown, with nothing to decide (``to_act`` empty), not a position.
        self.view_behind = False
        self.public: dict | None = None
        self.held: set[int] = set()  # seats this key plays (kept while a bot stands in)
        self.clock = clock  # the deal's deadlines are timed on this peer's own clock
        self.deadline, self.slack = deadline, slack
        self.standing: dict | None = None  # this player's signed standing in a takeover
        self.deliveries = Deliveries()  # which of our deal messages the host had (the session's)
        self._live = False  # the message being read is a live entry, not a catch-up sync
        self._arrived = 0.0  # the earliest moment (``clock``) the message being read came in
        self._named: list[Violation] = []  # players' cheats named by the entry being applied
        self._table = PeerTable(identity, table, lambda n: self.rng(n), lambda: self.clock(),
                                deadline, slack, lambda: self.game,
                                lambda: self.seats, lambda: self.seat, lambda: self.host_key,
                                lambda: self.host_seat, lambda: self.log, lambda: self.scores,
                                lambda: self._live, lambda: self._arrived, self._close_hand,
                                self._named.append, lambda: self.deliveries)
        self._rebuilt: tuple | None = None  # (view, the position rebuilt from it): ``decision_state``

    # -- who am I ------------------------------------------------------------------------
    @property
    def seat(self) -> int | None:
        # A departed host back as a guest was sent nothing private for its own entries.
        return None if self.key == self.host_key else self.seats.held_by(self.key)

    @property
    def stopped(self) -> IntegrityAlert | OwnError | None:
        """Why this replica takes nothing more: an integrity alert naming whoever broke a
        rule, or an exception in its own checks (a bug here); None while it goes on."""
        return self.halted or self.failed

    @property
    def host_seat(self) -> int | None:
        return self.seats.held_by(self.host_key)

    @property
    def seq(self) -> int:
        return self.chain.seq

    @property
    def _rules(self) -> Game:
        """The game the table entry (the log's first) names: every later entry is of it."""
        if self.game is None:
            raise RuntimeError("no table entry yet: no game")
        return self.game

    @property
    def round(self) -> Round | None:
        """This hand's deal round (``fairdeal.DealRound``, ``MentalRound``), or None."""
        return self.deal.round

    @property
    def hand(self):
        """The hand in progress (``shadow.CheckedHand``), or None between hands."""
        return self.deal.hand

    # -- input ---------------------------------------------------------------------------
    def receive(self, message, arrived: float | None = None) -> ReplicaOut:
        """Check and apply one message from the host. ``arrived``: the earliest moment,
        on ``clock``, it could have come in (``heartbeat.Link.arrived``), from which
        the deal's deadlines time it; None: when it is read here."""
        out = ReplicaOut()
        try:
            message = m.check(message, m.HOST_TO_PEER)
        except m.ProtocolError as exc:
            out.errors.append(f"rejected a message from the host: {exc}")
            return out
        kind = message["type"]
        if kind in (m.ERROR, m.REFUSED):
            out.errors.append(message["reason"])
            out.refuses = message.get("refuses")
            return out
        self._live = kind == m.ENTRY
        self._arrived = self.clock() if arrived is None else arrived
        if kind == m.SYNC:
            self.deal.resynced()
            for entry_message in message["entries"]:
                if not self._entry(out, entry_message):
                    break
        else:
            self._entry(out, message)
        if self.stopped is None and (kind != m.SYNC or message["last"]):
            out.sends += self.deal.sends()  # caught up: the deal may be waiting for us
        view = self.deal.own_view(self.seat)
        if view is not None:
            self.view, self.view_behind = view, False
        return out

    def _entry(self, out: ReplicaOut, wire: dict) -> bool:
        """Check and apply one entry message; False once stopped."""
        if self.stopped is not None:
            out.errors.append(f"this replica stopped: {self.stopped}")
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
            commit = self._check(entry, message)
            deal = self.deal
            if entry.kind not in deal.SELF_CHECKED:  # what the host sent with it, checked here
                deal.check_public(entry, message, self.public, self.host_seat)
                live, me = deal.live_shadow(), self._seat_after(entry)
                shadow = shown_hand(self.game, live, message.view, me, entry.seq, self.host_seat)
                deal.check_private(self.game, entry, message, shadow, me, self.host_seat)
                if shadow is not live:
                    commit = then(commit, lambda: deal.teach(shadow))
        except Violation as v:
            self._halt(out, v, signed.wire, entry.seq, self._as_sent(message, entry))
            return False
        except Exception as exc:  # noqa: BLE001 - no rule says this: our own check broke
            self._fail(out, exc, "checking", message)
            return False
        start = self._evidence_start()  # the hand as it was checked, for a cheat it names
        try:
            done = commit() if commit is not None else None
        except Exception as exc:  # noqa: BLE001 - half applied: this replica cannot go on
            self._fail(out, exc, "applying", message)
            return False
        if done:
            out.verified.append(done)
        for named in self._named:
            out.named.append(self._alert(named, signed.wire, entry.seq, start))
        self._named.clear()
        self.chain.advance(signed)
        self.log.append(signed)
        self._shown(message)
        out.accepted.append(message)
        return True

    def _shown(self, message: EntryMessage) -> None:
        """What the host showed with an accepted entry: the public view and this seat's.
        An entry of the hand with none of this seat's, when one came before (the host
        shows no view that would hold made-up cards — the spare or the kitty on its way
        — nor one while the seat may not move): the last view stays on screen, but the
        hand has left it, and nothing is decided on it until the next one (under the
        mental deal a party's own replay shows its view: ``receive``)."""
        if message.public is not None:
            self.public = message.public
        if message.own is not None:
            self.view, self.view_behind = message.view, False
        elif self.view is not None and self.hand is not None and self.hand.playing:
            self.view, self.view_behind = dict(self.view, to_act=[]), True
        elif message.public is not None:
            self.view = None

    def _halt(self, out: ReplicaOut, v: Violation, failing: dict, seq: int,
              sent: dict | None = None) -> None:
        """Stop at ``v`` (``sent``: what the host sent this seat with the failing entry)."""
        alert = self._alert(v, failing, seq)
        alert.sent = sent
        self.halted = alert
        out.alerts.append(alert)

    def _fail(self, out: ReplicaOut, exc: Exception, doing: str, message: EntryMessage) -> None:
        """Stop at an exception in this client's own checks: a bug here, which accuses
        nobody (``failures``)."""
        entry = message.entry
        failure = OwnError.caught(exc, self.table, entry.seq, f"{doing} entry {entry.seq} ({entry.kind})",
                                  [s.wire for s in self.log[self._evidence_start():]] + [message.wire])
        self.failed = failure
        out.failed.append(failure)

    def _as_sent(self, message: EntryMessage, entry: Entry) -> dict:
        """``message`` as this seat was sent it: the seat the host sent it to (this key's
        once the entry is applied), the key, and whether it came live — what the host's
        signature over it (``sent``) covers."""
        try:
            seat = self._seat_after(entry)
        except EntryError:  # a body that fits no kind (the alert says so): the seat as it was
            seat = self.seat
        return {"seat": seat, "key": self.key, "live": self._live, "message": message.wire}

    def _alert(self, v: Violation, failing: dict, seq: int, start: int | None = None) -> IntegrityAlert:
        """The alert for ``v``, with the failing entry (or claim) and the log it was
        checked against (this hand's entries, or the last few between hands)."""
        start = self._evidence_start() if start is None else start
        return IntegrityAlert(v.seat, v.party, v.rule, v.detail, self.table, seq,
                              [s.wire for s in self.log[start:]] + [failing] + v.signed)

    def _evidence_start(self) -> int:
        return self.hand.commit_seq if self.hand is not None else max(0, len(self.log) - 8)

    def _check(self, entry: Entry, message: EntryMessage):
        """Check one entry (nothing changes); what to do once every check has passed."""
        kind, body = entry.kind, entry.content
        if kind in self.deals and isinstance(body, HandBody):
            self._need(self.scores is not None and self._between_hands(), entry,
                       "a deal while a hand is being played (or before the game)")
            self._need(body.hand == self.hand_number and body.dealer == self.dealer,
                       entry, f"expected hand {self.hand_number} dealt by seat {self.dealer}")
            deal = self.deals[kind].opening(self._table, entry, message)
            return lambda: setattr(self, "deal", deal)
        if kind == "action" or kind in self.deal.KINDS:
            return self.deal.check(entry, message)
        check = self._TABLE_CHECKS.get(type(body))
        if check is None:  # a hand's entry with no such deal under way
            raise Violation(HOST, self.host_seat, "kind",
                            f"entry {entry.seq}: a {kind} entry with no such deal under way")
        return check(self, body, entry)

    def _close_hand(self, scores: list[int], winner) -> None:
        """The hand's last entry was accepted: its scores banked, the next hand's number
        and dealer (its deal stays, closed, until the next hand opens)."""
        self.scores, self.winner = scores, winner
        self.hand_number += 1
        if self.dealer is None:
            raise RuntimeError("a hand closed before its game started")  # (which sets the dealer)
        self.dealer = (self.dealer + 1) % self._rules.num_players

    def forget_hand(self) -> None:
        """A hand abandoned (a takeover): its deal and what was shown of it are forgotten."""
        self.deal, self.public, self.view, self.view_behind = NO_DEAL, None, None, False

    def weigh(self, report: Report) -> ReplicaOut:
        """Another player's report (``testimony``): a claim checked here stops this replica as
        its own finding would (``alerts``); one it cannot check is told as that player's
        word (``reported``), and this replica goes on. A report that proves nothing, or
        comes once this replica has stopped, changes nothing."""
        out = ReplicaOut()
        finding = testimony.weigh(self, report) if self.stopped is None else None
        if finding is not None and finding.confirmed:
            self.halted = finding.alert
            out.alerts.append(finding.alert)
        elif finding is not None:
            out.reported.append(finding.alert)
        return out

    def check_head(self, seq: int, head: bytes) -> ReplicaOut:
        """The host's heartbeat says its log ends at entry ``seq``, whose hash is ``head``
        (``HeldLog.head_problem``)."""
        out = ReplicaOut()
        problem = None if self.stopped is not None or self.chain.seq < 0 else self.log.head_problem(seq, head)
        if problem is not None:
            claim = {"type": "hb", "seq": seq, "head": head}  # what the host said (unsigned)
            self._halt(out, Violation(HOST, self.host_seat, *problem), claim, seq)
        return out

    # -- table entries ---------------------------------------------------------------------
    def _on_table(self, body: TableBody, entry: Entry):
        if body.protocol != m.PROTOCOL or body.host_key != self.host_key:
            raise Violation(HOST, None, "kind", "the table entry names another protocol or host key")
        g = body.game
        game = make_game(g["game"], g["ruleset"], g["mode"], g["options"])
        return lambda: setattr(self, "game", game)

    def _on_seat(self, body: SeatBody, entry: Entry):
        seat, kind, key = body.seat, body.kind, body.key
        problem = Seat.body_problem(body, self.game.num_players if self.game else 0, self.host_key)
        self._need(problem is None, entry, problem or "")
        if body.readmit and kind == "human" and key is not None and key != self.key \
                and seat in self.held:
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

    def _on_option(self, body: OptionBody, entry: Entry):
        return lambda: self.options.__setitem__(body.name, body.value)

    def _on_start(self, body: StartBody, entry: Entry):
        dealer = body.dealer
        self._need(self.game is not None and self._between_hands(allow_over=True), entry,
                   "a game may start only between hands")
        self._need(isinstance(dealer, int) and 0 <= dealer < self._rules.num_players, entry,
                   "the dealer is not a seat")

        def commit():
            self.scores = self._rules.initial_scores()
            self.hand_number, self.dealer, self.winner = 0, dealer, None
            self.deal = NO_DEAL
        return commit

    def _on_drop(self, body: DropBody, entry: Entry):
        seat = body.seat
        self._need(seat in self.seats, entry, "a drop names no seat")
        if self._live and self.seats[seat].held_by(self.key):
            # The host closes a link before it logs its drop, and sends the entry to the
            # seat only once it is back, in its catch-up: my own drop on a link still up
            # is a false one (it would give my seat to a stand-in, and under the private
            # deal my cards to the host's client).
            raise Violation(HOST, self.host_seat, "drop", f"entry {entry.seq}: the host logged "
                            f"my seat {seat} as dropped while my link to it is up")
        deal = self.deal

        def commit():
            self.seats.reconnected(seat, False)
            deal.on_dropped(seat)
        return commit

    def _on_rejoin(self, body: RejoinBody, entry: Entry):
        seat = body.seat
        self._need(seat in self.seats, entry, "a rejoin names no seat")
        deal = self.deal

        def commit():
            self.seats.reconnected(seat, True)
            deal.rejoined(seat)
        return commit

    def _on_takeover(self, body: TakeoverBody, entry: Entry):
        # a new host from the players (``takeover``); a player it shows understated its
        # standing is named, and the table goes on
        return takeover.checked(self, body, entry, name=self._named.append)

    #: The table's own entries, by their body's class: each one's check.
    _TABLE_CHECKS: dict[type[EntryBody], Callable] = {
        TableBody: _on_table, SeatBody: _on_seat, OptionBody: _on_option, StartBody: _on_start,
        DropBody: _on_drop, RejoinBody: _on_rejoin, TakeoverBody: _on_takeover}

    def _need(self, ok: bool, entry: Entry, detail: str) -> None:
        if not ok:
            raise Violation(HOST, self.host_seat, "kind", f"entry {entry.seq}: {detail}")

    def _between_hands(self, allow_over: bool = False) -> bool:
        no_hand = self.round is None or self.round.revealed
        return no_hand and (allow_over or self.winner is None)

    # -- what the host sends this seat alone --------------------------------------------------
    def _seat_after(self, entry: Entry) -> int | None:
        """This key's seat once ``entry`` is applied (a seat entry may give or take it)."""
        body = entry.content
        if not isinstance(body, SeatBody):
            return self.seat
        return self.seats.after(body).held_by(self.key)

    # -- output ------------------------------------------------------------------------------
    def act(self, action: dict) -> dict:
        """The signed message for this seat's ``action`` (hand-record form, no seat), with
        what its deal makes it carry (a played card's proof, a bury's commitment).

        IllegalAction if the rules forbid it (checked on ``decision_state``: this seat's
        replay, or the host's view of the seat where the replay lacks its cards),
        ReplicaHalted after an alert."""
        if self.stopped is not None:
            raise ReplicaHalted(str(self.stopped))
        me = self.seat
        if me is None:
            raise IllegalAction("you have no hand to play")
        self.deal.may_decide(me)  # IllegalAction: no hand, or not now
        try:
            parsed = read_action(self.game, action, me)
        except RecordError as exc:
            raise IllegalAction(str(exc)) from None
        state = self.decision_state()
        if state is None and self.view_behind:
            raise IllegalAction("the table has moved on: wait a moment for it", me)
        if state is not None:
            state.clone().apply(parsed)  # IllegalAction goes to the caller
        message = sign_action(self.identity, self.game, parsed, table=self.table,
                              hand=self.hand_number, seen=self.chain.seq, head=self.chain.head,
                              rng=self.rng, mental=self.deal.play_proof(parsed)).message()
        return self.deal.act(parsed, message)

    # -- what this seat decides on --------------------------------------------------------------
    def holds_own_cards(self) -> bool:
        """Whether the replay of the hand in progress holds this seat's real cards: it was
        dealt them as this seat. It does not for a key seated in the middle of the hand
        (re-admitted), a seat whose secret move a stand-in made while its player was away
        (``Shadow.with_step``), nor, under the mental deal, a hand this client is no party
        of (``MentalPeer``: its player away at the deal, or restarted out of it) — their
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
        if view is None or view.get("seat") != self.seat or "phase" not in view:
            return None  # (no whole view of this seat's yet)
        if self.view_behind:
            return None  # (the hand has moved on since: wait for the host's next view)
        if self._rebuilt is None or self._rebuilt[0] is not view:
            self._rebuilt = (view, Knowledge(self.game, view).state)
        return self._rebuilt[1]

    def rejoin_message(self) -> dict:
        return m.rejoin_message(self.seat if self.seat is not None else 0, self.chain.seq)

    def tail(self, after: int) -> list[dict]:
        """A restarted host asks for the entries it lost (``net.trust.host.recovery``): the
        "tail" messages of every entry held after ``after``."""
        return m.tail_messages([signed.wire for signed in self.log[max(after + 1, 0):]])

    @classmethod
    def restore(cls, identity, host_key: bytes, table: str, messages, rng=os.urandom,
                **timing) -> "PeerReplica":
        """A replica rebuilt from the entry messages it accepted (``ReplicaOut.accepted``),
        read as a catch-up (as a sync from the host is: nothing in them was live here, so
        no deadline is timed on them); ``timing``: its ``deadline`` and ``slack``, if not
        the default ones."""
        replica = cls(identity, host_key, table, rng, **timing)
        replica.replay(messages)
        return replica

    def rolled_back(self, accepted: list[EntryMessage], seq: int) -> tuple["PeerReplica", list[EntryMessage]]:
        """This copy of the log rolled back to entry ``seq`` (the one a takeover extends, as
        a follower or a watcher finds it), and the entry messages it keeps: rebuilt from
        ``accepted`` (those it accepted) up to there, under the table's first host's key
        and as this one was made (its key, randomness and deadlines; its standing kept) —
        or itself and ``accepted`` as they are when it holds nothing past ``seq``."""
        original = self.log[0].entry.body_as(TableBody).host_key

        def restore(messages: list[EntryMessage]) -> PeerReplica:
            return PeerReplica.restore(self.identity, original, self.table, messages, self.rng,
                                       deadline=self.deadline, slack=self.slack)
        rolled = takeover.rolled_back(self, accepted, seq, restore)
        if rolled is self:
            return self, accepted
        return rolled, [msg for msg in accepted if msg.entry.seq <= seq]

    def replay(self, messages) -> ReplicaOut:
        """Accept entry messages kept from before (a disk copy, a roll-back), as the first
        part of a sync; what it came to (the replica stops at the first that fails)."""
        out = ReplicaOut()
        for message in messages:  # (never the "last" of a sync: what the deal has to say
            # once caught up is said when the host's sync ends, as after any catch-up)
            out = out.then(self.receive(m.sync_message([message.wire], last=False)))
            if self.stopped is not None:
                break
        return out


def then(commit, after):
    """``commit`` (or nothing), then ``after()``; what ``commit`` returned."""
    def both():
        done = commit() if commit is not None else None
        after()
        return done
    return both
