"""HostAuthority: the host's side of the trust protocol, as a state machine with no I/O.

The host's client is the table's authority. Everything that changes the table goes
through one path::

    validate (engine, signatures) -> make the signed entry -> persist it -> apply it
    -> one message per seated peer (the entry, the public events, that peer's view)

``persist`` is a callable the session passes in (``store.LogStore.append``); it runs
before anything is applied or sent, so a failed write changes nothing and a restarted
host, replaying what was persisted through the same ``_apply``, is exactly where it was
(``HostAuthority.restore``).

Every public method returns an ``Out``: messages to send by fingerprint, peers to
disconnect (they sent garbage), and a store error if persisting failed. Nothing here
raises for bad input from the network: a malformed message gets an error reply and a
disconnect, an illegal move gets an error reply to that peer only, and the game goes on.
"""

from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from dataclasses import dataclass, field

from engine import IllegalAction, Match, RecordError, make_game

from net.trust import fairdeal
from net.trust.signing import ACTION_DOMAIN, CONTRIBUTION_DOMAIN, hidden_digest, opens, read_action, sign_action
from net.wire import messages as m
from net.wire.identity import fingerprint
from net.trust.log import Chain
from net.trust.store import StoreError
from net.trust.values import Seat, SignedEntry


@dataclass
class Out:
    """What one call asks the session to do (the entries are already persisted)."""

    sends: list = field(default_factory=list)  # (fingerprint, message)
    entries: list = field(default_factory=list)  # signed entries appended, in order
    disconnect: list = field(default_factory=list)  # fingerprints that sent garbage
    error: str | None = None  # persisting failed: the table stopped before this change

    def to(self, fp: str) -> list[dict]:
        """The messages for one peer (tests)."""
        return [msg for who, msg in self.sends if who == fp]


class Refusal(Exception):
    """A peer's message refused with a reason the peer is told (internal)."""


class RestoreError(Exception):
    """A persisted log that does not replay into the state it claims."""


class HostAuthority:
    def __init__(self, identity, rng=os.urandom, persist=None):
        self.identity = identity
        self.key = identity.public_key
        self.rng = rng
        self.persist = persist or (lambda signed_entry, private: None)
        self.table: str | None = None
        self.chain: Chain | None = None
        self.game = None
        self.name = ""
        self.seats: dict[int, Seat] = {}
        self.options: dict[str, bool] = {}
        self.match: Match | None = None
        self.game_number = 0
        self.round: fairdeal.DealRound | None = None
        self.hidden: list[dict] = []  # this hand's secret actions, revealed at its end
        self.last_action: dict[int, int] = {}  # seat -> seq of its last action this hand
        self.deal_seq: int | None = None
        self.log: list[dict] = []  # every signed entry
        self.published: list[tuple[dict, list]] = []  # (signed entry, events) by seq
        self.privates: dict[int, dict[int, dict]] = {}  # seq -> seat -> private part
        self.publics: dict[int, dict | None] = {}  # seq -> public view after the entry
        self._restoring = False

    # -- the table ---------------------------------------------------------------------
    def open_table(self, table: str, settings: dict, name: str = "") -> Out:
        """The table entry (seq 0): protocol, host key, rules in force."""
        game = make_game(settings["game"], settings.get("ruleset"), settings.get("mode"),
                         settings.get("options"))
        self.chain = Chain(table)
        body = {"protocol": m.PROTOCOL, "host_key": self.key, "game": game.key(), "name": name}
        return self._run(lambda out: self._append(out, "table", body))

    def seat(self, seat: int, kind: str, key: bytes | None = None, name: str = "",
             level: str | None = None, readmit: bool = False) -> Out:
        """Put a human (by key), a bot (the host's) or nobody in ``seat``.

        ``readmit`` marks the host's decision to give a seat to a new key (the player
        lost theirs): it is logged in the chain for everyone to see."""
        if kind == "bot":
            key = self.key
        body = {"seat": seat, "kind": kind, "key": key, "name": name, "level": level,
                "readmit": readmit}
        return self._run(lambda out: self._append(out, "seat", body))

    def readmit(self, seat: int, key: bytes, name: str = "") -> Out:
        return self.seat(seat, "human", key, name, readmit=True)

    def set_option(self, name: str, value: bool) -> Out:
        return self._run(lambda out: self._append(out, "option", {"name": name, "value": value}))

    def start_game(self, dealer: int | None = None) -> Out:
        """A new game (scores to zero) and its first hand's commitment."""
        if dealer is None:
            dealer = self.game.first_dealer(hashlib.sha256(self.table.encode()).digest())

        def run(out):
            self._append(out, "start", {"game_number": self.game_number + 1, "dealer": dealer})
            self._commit(out)
        return self._run(run)

    def next_hand(self) -> Out:
        """Commit to the next hand's secret (after the last hand's reveal)."""
        if self.match is None or self.match.state is not None or self.match.is_over \
                or (self.round is not None and not self.round.revealed):
            return Out(error="there is no hand to deal now")
        return self._run(self._commit)

    def skip(self, seat: int) -> Out:
        """``seat``'s contribution did not come by the deadline: log it, deal without it."""
        rnd = self.round
        if rnd is None or rnd.dealt or seat not in rnd.waiting_for:
            return Out(error=f"seat {seat} owes no contribution now")

        def run(out):
            self._append(out, "skip", {"hand": rnd.hand, "seat": seat})
            self._deal_if_ready(out)
        return self._run(run)

    def drop(self, seat: int) -> Out:
        """The session lost ``seat``'s peer: log it (the deal may go on without it)."""
        def run(out):
            self._append(out, "drop", {"seat": seat})
            self._deal_if_ready(out)
        return self._run(run)

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
                    self._peer_action(out, fp, message)
                elif message["type"] == m.CONTRIBUTION:
                    self._contribution(out, fp, message["signed"])
                else:
                    self._rejoin(out, fp, message["seat"], message["last_seq"])
            except Refusal as exc:
                reply = m.refused_message if message["type"] == m.REJOIN else m.error_message
                out.sends.append((fp, reply(str(exc))))
        return out

    def act_local(self, seat: int, action: dict) -> Out:
        """A move by the host's own seat or one of its bots, signed with the host key."""
        out = Out()
        with self._one_write(out):
            try:
                if seat not in self.seats or self.seats[seat].key != self.key:
                    raise Refusal(f"seat {seat} is not the host's")
                if self._repeat(seat, action):
                    return out  # a second "Got it": accepted, nothing to log
                signed, private = self._sign_action(seat, action)
                self._take_action(out, seat, signed, private)
            except Refusal as exc:
                out.error = str(exc)
        return out

    def rejoin(self, fp: str, seat: int, last_seq: int) -> Out:
        return self.receive(fp, m.rejoin_message(seat, last_seq))

    # -- what the host's own UI reads ----------------------------------------------------
    @property
    def state(self):
        return self.match.state if self.match else None

    def view(self, seat: int) -> dict | None:
        return self.state.view(seat) if self.state is not None else None

    def seat_of(self, fp: str) -> int | None:
        for seat, info in self.seats.items():
            if info.is_player and fingerprint(info.key) == fp:
                return seat
        return None

    def taken_from(self, key: bytes) -> tuple[int, int] | None:
        """(seat, seq) if the host re-admitted a seat whose player had ``key`` to another
        key at entry ``seq``, and ``key`` holds no seat since."""
        last_player: dict[int, bytes] = {}  # seat -> its last human key (through stand-ins)
        taken = None
        for signed in self.log:
            if signed.kind != "seat":
                continue
            body = signed.body
            if body["kind"] == "human":
                if body["readmit"] and last_player.get(body["seat"]) == key != body["key"]:
                    taken = (body["seat"], signed.seq)
                elif body["key"] == key:
                    taken = None
                last_player[body["seat"]] = body["key"]
            elif body["kind"] == "empty":
                last_player.pop(body["seat"], None)
        return taken

    def peers(self) -> dict[int, str]:
        """Seat -> fingerprint of every seated human other than the host."""
        return {s: fingerprint(i.key) for s, i in sorted(self.seats.items())
                if i.is_player and i.key != self.key}

    # -- restart --------------------------------------------------------------------------
    @classmethod
    def restore(cls, identity, records, rng=os.urandom, persist=None) -> "HostAuthority":
        """A host rebuilt from its persisted ``(signed entry, private)`` records by
        running each through the same ``_apply`` that made it. RestoreError if the
        records are not a chain this identity signed or do not replay to their hashes."""
        host = cls(identity, rng, persist)
        host._restoring = True
        for signed, private in records:
            if host.chain is None:
                host.chain = Chain(signed.entry.table)
            problem = host.chain.problem(host.key, signed)
            if problem:
                raise RestoreError(f"stored entry {signed.seq}: {problem[1]}")
            events = host._apply(signed, private)
            host._publish(Out(), signed, events)  # what each seat was sent, for rejoins
        host._restoring = False
        return host

    # -- the one path every change takes ---------------------------------------------------
    def _run(self, fn) -> Out:
        out = Out()
        with self._one_write(out):
            fn(out)
        return out

    @contextmanager
    def _one_write(self, out: Out):
        """Every change goes through here. With a store that batches, all the entries the
        change makes are written in one transaction before anything is sent (one fsync
        for the last card, the hand's end and the reveal, not three). A failed write
        leaves nothing sent and the host back at what the log holds."""
        batch = getattr(self.persist, "batch", None)
        try:
            if batch is None:
                yield
            else:
                with batch():
                    yield
        except StoreError as exc:
            if batch is not None:  # applied here, but never on disk nor seen: undo it
                out.sends.clear()
                out.entries.clear()
                out.disconnect.clear()
                self._reload_from_log()
            out.error = str(exc)

    def _reload_from_log(self) -> None:
        """Memory back to the durable log after a batch that could not be written (its
        entries were applied here, but nobody saw them and the log never held them)."""
        restored = type(self).restore(self.identity, self.persist.load().records,
                                      self.rng, self.persist)
        self.__dict__.update(restored.__dict__)

    def _append(self, out: Out, kind: str, body: dict, private: dict | None = None,
                state_hash: str | None = None) -> None:
        signed = self.chain.make(self.identity, kind, body, state_hash)
        self.persist(signed, private)  # StoreError here: nothing applied, nothing sent
        events = self._apply(signed, private)
        out.entries.append(signed)
        self._publish(out, signed, events)

    def _apply(self, signed: SignedEntry, private: dict | None) -> list:
        """Apply one entry to the host's state; the same code replays a stored log."""
        entry = signed.entry
        kind, body, seq = entry.kind, entry.body, entry.seq
        events = getattr(self, "_apply_" + kind)(body, private or {}, seq)
        if self._restoring and entry.state_hash is not None \
                and entry.state_hash != self.state.state_hash():
            raise RestoreError(f"entry {seq} does not replay to its state hash")
        self.chain.advance(signed)
        self.log.append(signed)
        self.published.append((signed, events))
        return events

    def _apply_table(self, body, private, seq):
        if body["host_key"] != self.key:
            raise RestoreError("this log was written by another host key")
        g = body["game"]
        self.table = self.chain.table
        self.game = make_game(g["game"], g["ruleset"], g["mode"], g["options"])
        self.name = body["name"]
        return []

    def _apply_seat(self, body, private, seq):
        self.seats[body["seat"]] = Seat.from_body(body)
        return []

    def _apply_option(self, body, private, seq):
        self.options[body["name"]] = body["value"]
        return []

    def _apply_start(self, body, private, seq):
        self.game_number = body["game_number"]
        self.match = Match(self.game, bytes(32), dealer=body["dealer"])
        self.round = None
        return []

    def _apply_commit(self, body, private, seq):
        self.round = fairdeal.DealRound(self.table, body["hand"], body["dealer"],
                                        body["commitment"], body["contributors"],
                                        secret=private.get("secret"))
        self.hidden, self.last_action, self.deal_seq = [], {}, None
        for seat in body["contributors"]:
            if not self.seats[seat].connected:
                self.round.waive(seat)
        return []

    def _apply_contribution(self, body, private, seq):
        signed = body["signed"]["body"]
        self.round.add(signed["seat"], signed["random"])
        return []

    def _apply_skip(self, body, private, seq):
        self.round.waive(body["seat"])
        return []

    def _apply_deal(self, body, private, seq):
        self.round.dealt = True
        self.deal_seq = seq
        state = self.match.start_hand(self.round.seed())
        return list(getattr(state, "deal_events", ()))

    def _apply_action(self, body, private, seq):
        action = self.game.action_from_json(private["action"])
        events = self.state.apply(action)
        self.last_action[action.seat] = seq
        if body["signed"]["body"]["hidden"] is not None:
            self.hidden.append({"seq": seq, "action": private["action"], "nonce": private["nonce"]})
        return events

    def _apply_hand_end(self, body, private, seq):
        self.match.finish_hand()
        return []

    def _apply_reveal(self, body, private, seq):
        self.round.revealed = True
        return []

    def _apply_drop(self, body, private, seq):
        self.seats[body["seat"]] = self.seats[body["seat"]].with_connection(False)
        if self.round is not None:
            self.round.waive(body["seat"])
        return []

    def _apply_rejoin(self, body, private, seq):
        self.seats[body["seat"]] = self.seats[body["seat"]].with_connection(True)
        return []

    def _publish(self, out: Out, signed: SignedEntry, events: list) -> None:
        """One message per seated peer: the entry, the events, and its private part."""
        seq = signed.seq
        public = self.state.public_view() if self.state is not None else None
        self.publics[seq] = public
        privates = self.privates.setdefault(seq, {})
        actor_action = self._hidden_action_of(signed)
        for seat, fp in self.peers().items():
            private = {"view": self.view(seat), "action": None}
            if actor_action is not None and actor_action["seat"] == seat:
                private["action"] = actor_action
            privates[seat] = private
            out.sends.append((fp, m.entry_message(signed.wire, events, public, **private)))

    def _hidden_action_of(self, signed: SignedEntry) -> dict | None:
        if signed.kind != "action" or not self.hidden or self.hidden[-1]["seq"] != signed.seq:
            return None
        return self.hidden[-1]["action"]

    # -- the deal ----------------------------------------------------------------------------
    def _commit(self, out: Out) -> None:
        hand = self.match.hand_number
        secret = self.rng(32)
        required = [s for s in self.peers()]
        body = {"hand": hand, "dealer": self.match.dealer,
                "commitment": fairdeal.commitment(self.table, hand, secret), "contributors": required}
        self._append(out, "commit", body, private={"secret": secret})
        self._deal_if_ready(out)

    def _contribution(self, out: Out, fp: str, signed: dict) -> None:
        seat = self.seat_of(fp)
        if seat is None:
            raise Refusal("you are not seated at this table")
        if not opens(self.seats[seat].key, CONTRIBUTION_DOMAIN, signed):
            raise Refusal("the contribution is not signed by your key")
        body = signed["body"]
        if body["seat"] != seat:
            raise Refusal(f"you sit in seat {seat}, not {body['seat']}")
        if self.round is None:
            raise Refusal("no deal is waiting for randomness")
        problem = self.round.contribution_problem(body)
        if problem:
            raise Refusal(problem)
        self._append(out, "contribution", {"seat": seat, "signed": signed})
        self._deal_if_ready(out)

    def _deal_if_ready(self, out: Out) -> None:
        if self.round is None or not self.round.ready:
            return
        seed = self.round.seed()
        preview = self.game.deal(seed, self.round.dealer)
        body = {"hand": self.round.hand, "dealer": self.round.dealer,
                "contributors": self.round.contributors()}
        self._append(out, "deal", body, state_hash=preview.state_hash())

    # -- actions ------------------------------------------------------------------------------
    def _sign_action(self, seat: int, action: dict) -> tuple[dict, dict | None]:
        """The host's own signed action (its seat or a bot's), as a peer would send it."""
        if self.state is None:
            raise Refusal("no hand is being played")
        try:
            parsed = read_action(self.game, action, seat)
        except RecordError as exc:
            raise Refusal(str(exc)) from None
        message = sign_action(self.identity, self.game, parsed, table=self.table,
                              hand=self.match.hand_number, seen=self.chain.seq,
                              head=self.chain.head, rng=self.rng)
        return message["signed"], message["private"]

    def _peer_action(self, out: Out, fp: str, message: dict) -> None:
        seat = self.seat_of(fp)
        if seat is None:
            raise Refusal("you are not seated at this table")
        signed = message["signed"]
        if signed["body"]["hidden"] is None and self._repeat(seat, signed["body"]["action"]) \
                and opens(self.seats[seat].key, ACTION_DOMAIN, signed):
            return  # a second "Got it" (sent before the first was logged): changes nothing
        self._take_action(out, seat, signed, message["private"])

    def _repeat(self, seat: int, action: dict) -> bool:
        return repeats(self.game, self.state, seat, action)

    def _take_action(self, out: Out, seat: int, signed: dict, private: dict | None) -> None:
        full = self._check_action(seat, signed, private)
        preview = self.state.clone()
        try:
            preview.apply(self.game.action_from_json(full))
        except IllegalAction as exc:
            raise Refusal(exc.reason) from None
        self._append(out, "action", {"signed": signed},
                     private={"action": full, "nonce": (private or {}).get("nonce")},
                     state_hash=preview.state_hash())
        if self.state.is_over:
            self._end_hand(out)

    def _check_action(self, seat: int, signed: dict, private: dict | None) -> dict:
        """The full action JSON of a signed action from ``seat``, or Refusal saying why not."""
        if not opens(self.seats[seat].key, ACTION_DOMAIN, signed):
            raise Refusal("the action is not signed by your key")
        body = signed["body"]
        if self.state is None or self.state.is_over:
            raise Refusal("no hand is being played")
        problem = action_body_problem(body, seat, self.table, self.match.hand_number,
                                      self.deal_seq, self.last_action.get(seat),
                                      self.chain.seq + 1, self._hash_at)
        if problem:
            raise Refusal(problem[1])
        public = body["action"]
        if body["hidden"] is None:
            full = public
        else:
            if private is None:
                raise Refusal("a secret action needs its private part")
            full = private["action"]
            if hidden_digest(private["nonce"], full) != body["hidden"]:
                raise Refusal("the secret action does not match what you signed")
        try:
            parsed = self.game.action_from_json(full)
        except RecordError as exc:
            raise Refusal(str(exc)) from None
        if self.game.action_to_json(parsed) != full or \
                self.game.action_to_json(parsed, public=True) != public:
            raise Refusal("write the action in its canonical form")
        if (body["hidden"] is None) != (public == full):
            raise Refusal("only a secret action (a discard, a bury) is sent hidden")
        return full

    def _hash_at(self, seq: int) -> bytes | None:
        return self.log[seq].hash if 0 <= seq < len(self.log) else None

    def _end_hand(self, out: Out) -> None:
        """Bank the score, then reveal the secret and every hidden action."""
        result = self.state.result()
        scores = [s + d for s, d in zip(self.match.scores, result.score)]
        winner = self.game.match_winner(scores, result)
        body = {"hand": self.match.hand_number, "result": result_dict(result), "scores": scores,
                "winner": winner}
        self._append(out, "hand_end", body)
        reveal = {"hand": self.round.hand, "secret": self.round.secret, "hidden": list(self.hidden)}
        self._append(out, "reveal", reveal)

    # -- rejoin ---------------------------------------------------------------------------------
    def _rejoin(self, out: Out, fp: str, seat: int, last_seq: int) -> None:
        info = self.seats.get(seat)
        if info is None or not info.is_player:
            raise Refusal(f"seat {seat} is not a player's seat")
        if fingerprint(info.key) != fp:
            raise Refusal(f"seat {seat} belongs to another player's key; ask the host to "
                          "re-admit you if you lost yours")
        if last_seq > self.chain.seq:
            raise Refusal(f"this table's log ends at entry {self.chain.seq}, not {last_seq}")
        if not info.connected:
            logged = Out()
            self._append(logged, "rejoin", {"seat": seat})
            # Everyone else gets the entry now; the returning peer gets it in its sync.
            out.entries += logged.entries
            out.sends += [(who, msg) for who, msg in logged.sends if who != fp]
        out.sends.extend((fp, msg) for msg in self.sync(seat, last_seq))

    def sync(self, seat: int, last_seq: int, key: bytes | None = None) -> list[dict]:
        """The log after ``last_seq`` as ``seat``'s player (``key``, by default the one
        seated there now) should have received it, in chunks: with the seat's private part
        only for entries from when that key held it (a key given the seat later,
        re-admitted, never sees its predecessor's, nor the reverse)."""
        key = self.seats[seat].key if key is None else key
        holder = None
        msgs = []
        for signed, events in self.published:
            seq, body = signed.seq, signed.body
            if signed.kind == "seat" and body["seat"] == seat:
                holder = body["key"] if body["kind"] == "human" else None
            if seq <= last_seq:
                continue
            private = {"view": None, "action": None}
            if holder == key:
                private = self.privates.get(seq, {}).get(seat, private)
            msgs.append(m.entry_message(signed.wire, events, self.publics.get(seq), **private))
        chunks = [msgs[i:i + m.SYNC_CHUNK] for i in range(0, len(msgs), m.SYNC_CHUNK)] or [[]]
        return [m.sync_message(c, last=i == len(chunks) - 1) for i, c in enumerate(chunks)]


def repeats(game, state, seat: int, action: dict) -> bool:
    """``action`` (hand-record JSON) repeats one of ``seat``'s that the rules say changes
    nothing the second time (Rook's "Got it"): accepted without an entry or a refusal."""
    if state is None or state.is_over or action.get("seat", seat) != seat:
        return False
    try:
        parsed = game.action_from_json({**action, "seat": seat})
    except RecordError:
        return False
    return state.repeats(parsed)


def result_dict(result) -> dict:
    return {"taken": list(result.taken), "made": result.made, "score": list(result.score),
            "thrown_in": result.thrown_in}


def action_body_problem(body: dict, seat: int, table: str, hand: int, deal_seq: int | None,
                        last_action: int | None, next_seq: int, hash_at) -> tuple[str, str] | None:
    """Why a signed action body may not be logged as entry ``next_seq``: (rule, reason),
    or None.

    Shared by the host (before it logs) and every replica (when it checks): the action
    must be for this table and hand, by its signer's seat, and must have seen the deal,
    the player's own previous action and nothing from the future — so an old signed
    action cannot be replayed, nor a player's actions reordered. A player who saw an
    entry this log does not have yet (``sequence``) or a different one (``fork``) was
    shown another history than this one."""
    if body["table"] != table:
        return "action-binding", "the action is for another table"
    if body["hand"] != hand:
        return "action-binding", f"the action is for hand {body['hand']}, this is hand {hand}"
    if body["action"].get("seat") != seat:
        return "action-binding", f"you sit in seat {seat}, not {body['action'].get('seat')}"
    seen = body["seen"]
    if seen >= next_seq:
        return "sequence", f"the action claims to have seen entry {seen}, which does not exist yet"
    if deal_seq is None or seen < deal_seq:
        return "action-binding", "the action was made before this hand was dealt"
    if last_action is not None and seen < last_action:
        return "action-binding", "the action is older than your last one (a replay)"
    if hash_at(seen) != body["head"]:
        return "fork", f"the action saw a different entry {seen} (the histories differ)"
    return None
