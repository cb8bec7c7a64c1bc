"""HostAuthority: the host's side of the trust protocol, as a state machine with no I/O.

The host's client is the table's authority. Everything that changes the table goes
through one path::

    validate (signatures, the engine) -> make the signed entry -> persist it -> apply it
    -> one message per seated peer (the entry, the public events, that peer's view)

``persist`` is a callable the session passes in (``store.LogStore.append``); it runs
before anything is sent, so a failed write changes nothing and a restarted host,
replaying what was persisted through the same ``_apply``, is exactly where it was
(``HostAuthority.restore``). A move is the one change validated by applying it: the
engine tries it on the live state (its rules are the check), and the state is put back
if it is refused or its entry cannot be written.

The authority wires single-job parts together: ``moves.admit`` (a player's signed move
checked and parsed once), the hand's deal (``deal``: a ``deals.host.HostDeal`` — the
seeded deal, ``SeededHost``, or the mental-poker deal, ``MentalHost``, chosen as each
hand starts — which logs the hand's own entries, checks and logs its moves, and says
what each seat may see), ``Archive`` (what each seat was sent, to send it again), and
the log's ``Chain``. Nothing here asks which deal a hand has. Every public method returns an ``Out``: messages to send by fingerprint,
peers to disconnect (they sent garbage), and a store error if persisting failed.
Nothing here raises for bad input from the network: a malformed message gets an error
reply and a disconnect, an illegal move gets an error reply to that peer only (naming
the move it refuses by its signature), and the game goes on.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from engine import Game, Match, RecordError, make_game

from net.constants import CONTRIBUTION_DEADLINE, DROP_WAIT, PROTOCOL_VERSION
from net.trust import sent
from net.trust.entries import (DropBody, EntryBody, OptionBody, RejoinBody, SeatBody, StartBody, TableBody, TakeoverBody)
from net.trust.host.archive import Archive
from net.trust.deals.mental.host import MentalHost
from net.trust.deals.rounds import Round
from net.trust.deals.host import HandTable, HostDeal, NoHand
from net.trust.deals.seeded.host import SeededHost
from net.trust.log import Chain
from net.trust.moves import Admitted, Refusal
from net.trust.signing import read_action, sign_action
from net.trust.store import LogStore, RestoreError, StoreError, one_change
from net.trust.values import Seat, Seats, SignedEntry
from net.wire import messages as m
from net.wire.identity import fingerprint


@dataclass
class Out:
    """What one call asks the session to do (the entries are already persisted)."""

    sends: list = field(default_factory=list)  # (fingerprint, message)
    entries: list = field(default_factory=list)  # SignedEntries appended, in order
    disconnect: list = field(default_factory=list)  # fingerprints that sent garbage
    error: str | None = None  # persisting failed: the table stopped before this change

    def discard(self) -> None:
        """Nothing of a change that never reached the disk is sent."""
        self.sends.clear()
        self.entries.clear()
        self.disconnect.clear()

    def to(self, fp: str) -> list[dict]:
        """The messages for one peer (tests)."""
        return [msg for who, msg in self.sends if who == fp]


def refusal(message: dict, reason: str) -> dict:
    """The answer to a peer's message the host refuses: a rejoin's "refused"; else an
    "error" naming, by its signature, the signed message it refuses (a move, a deal
    message), so that the peer's client matches it to what it sent."""
    if message["type"] == m.REJOIN:
        return m.refused_message(reason)
    return m.error_message(reason, refuses=message["signed"]["sig"])


#: The deal a hand is dealt by, by the entry that starts it.
DEALS = {SeededHost.OPENS: SeededHost, MentalHost.OPENS: MentalHost}

__all__ = ["HostAuthority", "Out", "RestoreError"]


class HostAuthority:
    """``mental_deal``: deal privately (the mental-poker deal) at a table of two humans or
    more; ``clock``, ``deadline`` and ``drop_wait``: when a deal goes on without a player
    it waits for (a client that does not answer; a player gone from the private deal)."""

    def __init__(self, identity, rng=os.urandom, persist=None, mental_deal: bool = False,
                 clock=time.monotonic, deadline: float = CONTRIBUTION_DEADLINE,
                 drop_wait: float = DROP_WAIT, rebuild=None):
        self.identity = identity
        # How this host is rebuilt from its durable log after a write that failed: by
        # ``restore``, or (a table this player carried on) ``successor.restore``.
        self._rebuild = rebuild
        self.key = identity.public_key
        self.rng = rng
        self.persist: Callable[[SignedEntry, dict | None], None] = \
            persist or (lambda signed_entry, private: None)
        self.mental_deal = mental_deal
        self.clock, self.deadline, self.drop_wait = clock, deadline, drop_wait
        self.table: str | None = None
        self.chain: Chain | None = None
        self.game: Game | None = None
        self.name = ""
        self.seats = Seats()
        self.options: dict[str, bool] = {}
        self.match: Match | None = None
        self.game_number = 0
        self.deal: HostDeal = NoHand()  # the hand's deal part (the last hand's, between hands)
        self.archive = Archive(identity)
        self.dropped_at: dict[int, float] = {}  # seat -> when its drop was logged (this clock)
        self.seen: dict[int, dict] = {}  # a successor's: what it was sent for entries it took
        self._restoring = False

    # -- what the table's first entries set, read only after them ------------------------
    @property
    def _log_chain(self) -> Chain:
        """The log's chain: made by ``open_table`` (or ``restore``, from the first record)
        before any entry is made, checked or applied."""
        if self.chain is None:
            raise RuntimeError("no table is open here: it has no log yet")
        return self.chain

    @property
    def _rules(self) -> Game:
        """The game the table entry (the log's first) names."""
        if self.game is None:
            raise RuntimeError("no table is open here: it has no game yet")
        return self.game

    @property
    def _table_id(self) -> str:
        """The table the table entry opened."""
        if self.table is None:
            raise RuntimeError("no table is open here")
        return self.table

    @property
    def _match(self) -> Match:
        """The match the start entry began: a hand is dealt and played only after it."""
        if self.match is None:
            raise RuntimeError("no game has started at this table")
        return self.match

    # -- the table ---------------------------------------------------------------------
    def open_table(self, table: str, settings: dict, name: str = "") -> Out:
        """The table entry (seq 0): protocol, host key, rules in force, and the Parlour
        protocol that opened it (what its log is read by: ``TableBody.version``)."""
        game = make_game(settings["game"], settings.get("ruleset"), settings.get("mode"),
                         settings.get("options"))
        self.chain = Chain(table)
        body = TableBody(m.PROTOCOL, self.key, game.key(), name, PROTOCOL_VERSION)
        return self._run(lambda out: self._append(out, body))

    def seat(self, seat: int, kind: str, key: bytes | None = None, name: str = "",
             level: str | None = None, readmit: bool = False) -> Out:
        """Put a human (by key), a bot (the host's) or nobody in ``seat``.

        ``readmit`` marks the host's decision to give a seat to a new key (the player
        lost theirs): it is logged in the chain for everyone to see."""
        if kind == "bot":
            key = self.key
        body = SeatBody(seat, kind, key, name, level, readmit)
        return self._run(lambda out: self._append(out, body))

    def readmit(self, seat: int, key: bytes, name: str = "") -> Out:
        return self.seat(seat, "human", key, name, readmit=True)

    def set_option(self, name: str, value: bool) -> Out:
        return self._run(lambda out: self._append(out, OptionBody(name, value)))

    def start_game(self, dealer: int | None = None) -> Out:
        """A new game (scores to zero) and its first hand's commitment."""
        if dealer is None:
            dealer = self._rules.first_dealer(hashlib.sha256(self._table_id.encode()).digest())

        def run(out):
            self._append(out, StartBody(self.game_number + 1, dealer))
            self._commit(out)
        return self._run(run)

    def next_hand(self) -> Out:
        """Start the next hand's deal (after the last hand's end)."""
        if self.match is None or self.match.state is not None or self.match.is_over \
                or not self.deal.between_hands():
            return Out(error="there is no hand to deal now")
        return self._run(self._commit)

    def restart_without(self, late: list[int]) -> Out:
        """The deal goes on without the ``late`` it waited the deadline for (``overdue``):
        seats skipped (the seeded deal), parties restarted out (the mental deal)."""
        out = Out()
        with self._one_write(out):
            try:
                self.deal.go_on_without(self._logger(out), late)
                self.deal.go_on(self._logger(out))
            except Refusal as exc:
                out.error = str(exc)
        return out

    def drop(self, seat: int) -> Out:
        """The session lost ``seat``'s peer: log it (the deal may go on without it)."""
        def run(out):
            self._append(out, DropBody(seat))
            self.deal.go_on(self._logger(out))
        return self._run(run)

    def idle(self) -> Out:
        """What the hand's deal does when nothing else is happening (``HostDeal.idle``)."""
        return self._run(lambda out: self.deal.idle(self._logger(out)))

    def take_over(self, body: TakeoverBody) -> Out:
        """Log the takeover entry that makes this host the table's (``successor``)."""
        return self._run(lambda out: self._append(out, body))

    # -- input from peers ---------------------------------------------------------------
    def receive(self, fp: str, message) -> Out:
        """A message from the peer whose key has fingerprint ``fp`` (the transport
        authenticated it)."""
        out = Out()
        try:
            message = m.check(message, m.PEER_TO_HOST)
        except m.ProtocolError as exc:
            out.sends.append((fp, m.error_message(str(exc))))
            out.disconnect.append(fp)
            return out
        with self._one_write(out):
            try:
                if message["type"] == m.ACTION:
                    self._take_action(out, self._seat_of_sender(fp), message)
                elif message["type"] in (m.CONTRIBUTION, m.MENTAL):
                    self._deal_message(out, self._seat_of_sender(fp), message)
                else:
                    self._rejoin(out, fp, message["seat"], message["last_seq"])
            except Refusal as exc:
                out.sends.append((fp, refusal(message, str(exc))))
        return out

    def act_local(self, seat: int, decision: dict) -> Out:
        """A move by the host's own seat or one of its bots (hand-record form, no seat),
        signed with the host key."""
        out = Out()
        with self._one_write(out):
            try:
                self._own_move(out, seat, decision)
            except Refusal as exc:
                out.error = str(exc)
        return out

    def rejoin(self, fp: str, seat: int, last_seq: int) -> Out:
        return self.receive(fp, m.rejoin_message(seat, last_seq))

    # -- what the host's own UI reads ----------------------------------------------------
    @property
    def state(self):
        return self.match.state if self.match else None

    @property
    def round(self) -> Round | None:
        """This hand's deal round (``fairdeal.DealRound``, ``MentalRound``), or None."""
        return self.deal.round

    @property
    def log(self) -> list[SignedEntry]:
        return self.archive.log

    def private_view(self, seat: int) -> dict | None:
        """What ``seat``'s view adds to the public one (sent to that seat alone)."""
        return self.deal.private_view(seat)

    def seat_of(self, fp: str) -> int | None:
        return self.seats.of_fingerprint(fp)

    def taken_from(self, key: bytes) -> tuple[int, int] | None:
        """(seat, seq) if the host re-admitted a seat whose player had ``key`` to another
        key at entry ``seq``, and ``key`` holds no seat since."""
        return self.archive.taken_from(key)

    def peers(self) -> dict[int, str]:
        """Seat -> fingerprint of every seated human other than the host."""
        return {seat: fingerprint(key) for seat, key in self.seats.players(besides=self.key).items()}

    def sync(self, seat: int, last_seq: int, key: bytes | None = None) -> list[dict]:
        """The log after ``last_seq`` as ``seat``'s player (``key``, by default the one
        seated there now) should have received it, in chunks (``Archive.sync``)."""
        return self.archive.sync(seat, last_seq, self.seats[seat].key if key is None else key)

    # -- restart --------------------------------------------------------------------------
    @classmethod
    def restore(cls, identity, records, rng=os.urandom, persist=None, **options) -> "HostAuthority":
        """A host (made with ``options``) rebuilt from its persisted ``(SignedEntry, private)``
        records by running each through the same ``_apply`` that made it. RestoreError if
        the records are not a chain this identity signed or do not replay to their hashes.
        A table this identity carried on after its host left (its log opens with that
        host's entries) is rebuilt by ``successor.restore``, which reads either log."""
        host = cls(identity, rng, persist, **options)
        for signed, private in records:
            if host.chain is None:
                host.chain = Chain(signed.entry.table)
            host.replay(signed, private, "stored")
        return host

    def adopt(self, signed: SignedEntry, private: dict | None) -> None:
        """Take back an entry this host signed, sent and lost from its disk, as a peer
        gave it back (``recovery``): replayed as ``restore`` replays, then written."""
        self.replay(signed, private, "given-back")
        self.persist(signed, private)

    def replay(self, signed: SignedEntry, private: dict | None, what: str) -> None:
        """Apply an entry this host made before, every state hash checked (RestoreError)."""
        problem = self._log_chain.problem(self.key, signed)
        if problem:
            raise RestoreError(f"{what} entry {signed.seq}: {problem[1]}")
        self._restoring = True
        try:
            events = self._apply(signed, private)
        finally:
            self._restoring = False
        self._publish(None, signed, events)  # what each seat was sent, for rejoins

    # -- the one path every change takes ---------------------------------------------------
    def _run(self, fn) -> Out:
        out = Out()
        with self._one_write(out):
            fn(out)
        return out

    @contextmanager
    def _one_write(self, out: Out):
        """Every change goes through here: all the entries it makes are written as one
        transaction (``store.one_change``) before anything is sent. A failed write leaves
        nothing sent and the host back at what the log holds."""
        try:
            with one_change(self.persist, undo=lambda: self._undo(out)):
                yield
        except StoreError as exc:
            out.error = str(exc)

    def _undo(self, out: Out) -> None:
        """Back to the durable log after a change that could not be written (its entries
        were applied here, but nobody saw them and the log never held them)."""
        out.discard()
        rebuild = self._rebuild or type(self).restore
        store = self.persist
        assert isinstance(store, LogStore)  # only a store batches; only a batch is undone
        restored = rebuild(self.identity, store.load().records, self.rng,
                                      self.persist, mental_deal=self.mental_deal,
                                      clock=self.clock, deadline=self.deadline,
                                      drop_wait=self.drop_wait)
        self.__dict__.update(restored.__dict__)

    def _append(self, out: Out, body: EntryBody, private: dict | None = None,
                state_hash: str | None = None, applied: list | None = None) -> None:
        """Sign, persist, apply and publish the next entry. ``applied``: the events of a
        move the state has already taken (the deal's ``log_move``)."""
        signed = self._log_chain.make(self.identity, body, state_hash)
        self.persist(signed, private)  # StoreError here: nothing applied, nothing sent
        events = self._apply(signed, private, applied)
        out.entries.append(signed)
        self._publish(out, signed, events)

    def _logger(self, out: Out):
        """The one path, as the deal part is given it (``deals.host.Log``)."""
        return lambda body, private=None, state_hash=None, applied=None: \
            self._append(out, body, private, state_hash, applied)

    def _apply(self, signed: SignedEntry, private: dict | None, applied: list | None = None) -> list:
        """Apply one entry to the host's state; the same code replays a stored log."""
        entry, private = signed.entry, private or {}
        if entry.kind in DEALS:
            self.deal = DEALS[entry.kind](self._hand_table(), entry, private)
            self.mental_deal = self.mental_deal or self.deal.PRIVATE  # a restored host goes on so
            events = []
        elif entry.kind == "action" or entry.kind in self.deal.KINDS:
            events = self.deal.apply(entry, private, applied, self._restoring)
        else:
            events = self._TABLE_APPLIES[type(entry.content)](self, entry.content)
        if self._restoring and entry.state_hash is not None and self.state is not None \
                and entry.state_hash != self.state.state_hash():
            raise RestoreError(f"entry {entry.seq} does not replay to its state hash")
        self._log_chain.advance(signed)
        self.archive.record(signed, events)
        return events

    def _hand_table(self) -> HandTable:
        """What a hand's deal part reads of this table."""
        return HandTable(self.identity, self._rules, self._table_id, self._match, lambda: self.seats,
                         lambda: self.archive.log, self.clock, self.deadline, self.dropped_at,
                         self.drop_wait)

    def _apply_table(self, body: TableBody) -> list:
        if body.host_key != self.key:
            raise RestoreError("this log was written by another host key")
        g = body.game
        self.table = self._log_chain.table
        self.game = make_game(g["game"], g["ruleset"], g["mode"], g["options"])
        self.name = body.name
        return []

    def _apply_seat(self, body: SeatBody) -> list:
        self.seats[body.seat] = Seat.from_body(body)
        return []

    def _apply_option(self, body: OptionBody) -> list:
        self.options[body.name] = body.value
        return []

    def _apply_start(self, body: StartBody) -> list:
        self.game_number = body.game_number
        self.match = Match(self._rules, bytes(32), dealer=body.dealer)
        self.deal = NoHand()
        return []

    def _apply_drop(self, body: DropBody) -> list:
        self.seats.reconnected(body.seat, False)
        self.dropped_at[body.seat] = self.clock()
        self.deal.dropped(body.seat)
        return []

    def _apply_rejoin(self, body: RejoinBody) -> list:
        self.seats.reconnected(body.seat, True)
        self.dropped_at.pop(body.seat, None)
        return []

    def _apply_takeover(self, body: TakeoverBody) -> list:
        """This host took the table over (``takeover``; ``successor`` builds it)."""
        self.seats = self.seats.after_takeover(body.departed, body.host_key)
        return []

    #: The table's own entries, by their body's class (a hand's go to its deal part).
    _TABLE_APPLIES: dict[type[EntryBody], Callable[..., list]] = {
        TableBody: _apply_table, SeatBody: _apply_seat, OptionBody: _apply_option,
        StartBody: _apply_start, DropBody: _apply_drop, RejoinBody: _apply_rejoin,
        TakeoverBody: _apply_takeover}

    def _publish(self, out: Out | None, signed: SignedEntry, events: list) -> None:
        """One message per seated peer: the entry, the events, and its private part,
        signed for that seat as sent live (``sent``). ``out`` None: an entry replayed,
        what each seat was sent only recorded (for its rejoin)."""
        public = self.deal.public_view()
        entry = signed.entry
        if entry.kind == "action" and entry.state_hash is not None and public is not None:
            digest: str | None = entry.state_hash  # a move's public view is the one it signs
        else:
            digest = self.deal.public_digest()
        secret = self.deal.secret_of(signed.seq) if signed.kind == "action" else None
        privates = {}
        for seat, fp in self.peers().items():
            private = {"view": self.private_view(seat), "action": None}
            if secret is not None and secret["seat"] == seat:
                private["action"] = secret
            privates[seat] = private
            if out is not None:
                message = m.entry_message(signed.wire, events, public, **private)
                out.sends.append((fp, sent.signed(self.identity, message, signed.hash, seat,
                                                  self.seats[seat].key, True, digest)))
        self.archive.published(signed.seq, public, privates, digest)

    # -- the deal ----------------------------------------------------------------------------
    def _commit(self, out: Out) -> None:
        """The hand's opening entry, by the deal it gets: the mental-poker deal at a table
        of two humans or more when the host deals privately, else the seeded deal."""
        log = self._logger(out)
        if self.mental_deal and self.peers():
            log(*MentalHost.opening(self._hand_table()))
        else:
            log(*SeededHost.opening(self._hand_table(), self.rng, list(self.peers())))
        self.deal.go_on(log)

    def _deal_message(self, out: Out, seat: int, message: dict) -> None:
        """A peer's message to the deal (a contribution, a mental-deal message)."""
        log = self._logger(out)
        self.deal.take(log, seat, self.seats[seat].key, message)
        self.deal.go_on(log)

    # -- moves ---------------------------------------------------------------------------------
    def _seat_of_sender(self, fp: str) -> int:
        seat = self.seat_of(fp)
        if seat is None:
            raise Refusal("you are not seated at this table")
        return seat

    def _own_move(self, out: Out, seat: int, decision: dict) -> None:
        """The host's own seat or a bot's: parsed once, signed as a peer would sign it
        (nothing to check but the rules: the host made the signature and the binding)."""
        if seat not in self.seats or self.seats[seat].key != self.key:
            raise Refusal(f"seat {seat} is not the host's")
        if self.state is None or self.state.is_over:
            raise Refusal("no hand is being played")
        try:
            action = read_action(self._rules, decision, seat)
        except RecordError as exc:
            raise Refusal(str(exc)) from None
        if decision.get("seat", seat) == seat and self.state.repeats(action):
            return  # a second "Got it": accepted, nothing to log
        proof = self.deal.play_proof(action)
        chain = self._log_chain
        move = sign_action(self.identity, self._rules, action, table=self._table_id,
                           hand=self._match.hand_number, seen=chain.seq, head=chain.head,
                           rng=self.rng, mental=proof)
        self._log_move(out, move.signed, Admitted(action, move.forms.full, move.nonce, proof))

    def _take_action(self, out: Out, seat: int, message: dict) -> None:
        """A peer's signed move (with the deal messages it carries: a bury's commitment):
        checked, then logged (a harmless repeat is not)."""
        signed = message["signed"]
        if self.deal.voids(signed):
            return  # made on a deal since restarted: its player decides again
        admitted = self._check_action(seat, signed, message["private"])
        if admitted is not None:
            self._log_move(out, signed, admitted, message.get("mental") or [])

    def _check_action(self, seat: int, signed: dict, private: dict | None) -> Admitted | None:
        key = self.seats[seat].key
        binding = self.deal.binding(seat, self._log_chain.seq + 1, self.archive.hash_at)
        return self.deal.admit(seat, key, signed, private, binding)

    def _log_move(self, out: Out, signed: dict, move: Admitted, carried: Sequence[dict] = ()) -> None:
        """The deal checks and logs the move (the rules are the last check; nothing is
        logged if it is refused), then goes on (the hand's end)."""
        log = self._logger(out)
        self.deal.log_move(log, signed, move, list(carried))
        self.deal.go_on(log)

    # -- rejoin ---------------------------------------------------------------------------------
    def _rejoin(self, out: Out, fp: str, seat: int, last_seq: int) -> None:
        problem = self.seats.rejoin_problem(seat, fp)
        if problem:
            raise Refusal(problem)
        head = self._log_chain.seq
        if last_seq > head:
            raise Refusal(f"this table's log ends at entry {head}, not {last_seq}")
        if not self.seats[seat].connected:
            logged = Out()
            self._append(logged, RejoinBody(seat))
            # Everyone else gets the entry now; the returning peer gets it in its sync.
            out.entries += logged.entries
            out.sends += [(who, msg) for who, msg in logged.sends if who != fp]
        out.sends.extend((fp, msg) for msg in self.sync(seat, last_seq))
