"""The mental-poker deal on the host: the sequencer of the deal and one party of it.

A hand at a table of two humans or more, when the host deals privately, is dealt by the
players' clients (``net.trust.deals.mental``): the host's client is the deal's sequencer
(it logs every party's signed deal message in one order, ``log``) and one party of it —
its own seat, its computer players' and an away player's — and it replays the hand on
what that party knows (``hand.PartyHand``). So, unlike the seeded deal (``SeededHost``):

* its state is the ``PartyHand``'s: the public view exact (or, while the spare is being
  turned up, absent: ``public_view``), the other humans' hands made up; it sends each
  peer no private view (a peer takes its hand from its own deal client), and publishes
  only events that name no made-up card;
* a played card carries its proof inside the move its player signs (the action body's
  ``mental``): the host checks a peer's once before logging (``PartyHand.check_play``)
  and logs the move only if the proof opens the card it names (``MoveRefused``) and the
  rules, as far as the host can see, allow it; a proof that breaks a rule of the deal,
  or that only an audit settles, is logged alone as evidence (a ``mental`` entry with
  the signed move, ``played``) and the move is not taken. Its own party's plays carry
  the proof it made. A secret move's commitment is logged before the move, which comes
  without its cards;
* the hand ends once every party revealed its secret and the deal verified
  (``Verified``): the score is the hand replayed on the verified deal, every buried
  or discarded card opened from its commitment;
* a party that holds the deal up (``_holding_up``) is restarted out of it at its due
  time (``overdue``, ``go_on_without``: "dropped", or "void" once the cards are dealt —
  the hand so far void, the scores unchanged): a client connected but silent — owing
  a key share, shuffle or shares before the deal, a spare's shares or its reveal after
  it — at the contribution deadline after the hand last moved on; a party gone (every
  seat dropped) after the drop wait (``DROP_WAIT``), for its cards are locked with its
  key and its client may come back to the same hand (``away``; the host person may
  deal again without it once it has been away for the deadline, the floor every peer
  checks, or keep waiting: ``keep_waiting``; all of it ``waits.Waits``). Its seats are
  then the host's party's for that hand, played by a stand-in or by the player back,
  from the view the host then sends it (``private_view``);
* a party proven to have broken a rule — a deal message its own checks refuse (a wrong
  share, a duplicated card, a false redeal claim, a false alarm), or, once every secret
  is revealed, a move the rules forbid on the verified deal (a revoke nobody could see
  live) — forfeits the hand for its side (``forfeits``): the hand ends there, is not
  dealt again, and is scored by the engine's forfeit, logged as its ``hand_end`` with the
  verdict (``Verdict``) and no state hash, then its ``reveal``. Every other party reaches
  the same verdict from the log and checks the scores; the table goes on to the next
  hand, the cheater dealt in.
"""

from __future__ import annotations

from engine import Contradiction, IllegalAction
from engine.partial import public_step

from net.trust.deals.mental import forfeits
from net.trust.deals.mental import log as ml
from net.trust.deals.mental.client import DealClient
from net.trust.deals.mental.group import GROUP_NAME
from net.trust.deals.mental.errors import BadMessage, MentalError
from net.trust.deals.mental.hand import SECRET, MoveRefused, PartyHand
from net.trust.deals.mental.log import Verdict
from net.trust.deals.mental.outputs import Redeal
from net.trust.deals.mental.sequencer import DealSequencer, NotLogged, holding_up, parties_for
from net.trust.deals.mental.waits import Waits
from net.trust.deals.host import Away, HandTable, HostDeal, Late
from net.trust.deals.seeded.host import HAND_END, REVEAL, hand_end_body
from net.trust.entries import (ActionEntryBody, DropBody, HandEndBody, MentalBody, MentalDealBody,
                               MentalDealtBody, MentalRestartBody, RevealBody)
from net.trust.moves import Refusal, admit, admit_sealed
from net.trust.store import OlderDealError, RestoreError
from net.wire import messages as m


class MentalHost(HostDeal):
    OPENS = ml.DEAL
    PRIVATE = True
    KINDS = (ml.DEAL, ml.MESSAGE, ml.RESTART, ml.DEALT, HAND_END, REVEAL)
    round: ml.MentalRound

    @staticmethod
    def opening(table: HandTable) -> tuple[MentalDealBody, None]:
        """The ``mental-deal`` entry: the parties (the host's client first), at an attempt
        no deal of this table used for this hand number."""
        seats = {s: info.key for s, info in table.seats().items()
                 if info.key is not None and info.kind in ("human", "bot")}
        parties = parties_for(table.key, seats, frozenset(table.away()))
        hand = table.match.hand_number
        body = ml.deal_body(hand, table.match.dealer, parties, ml.fresh_attempt(table.log(), hand))
        return body, None

    def __init__(self, table: HandTable, entry, private: dict):
        body = entry.body_as(MentalDealBody)
        if body.group != GROUP_NAME:  # only ever in a log an older Parlour wrote
            raise OlderDealError(body.hand + 1, body.group)
        super().__init__(table, body.hand, body.dealer)
        setup = ml.setup_for(table.game, table.table, body)
        self.sequencer = DealSequencer(setup, table.deadline, table.now())
        # The others' share batches are not checked as they come (inside the deal they
        # would cost it ~25 ms on the host's critical path) but at the hand's first move.
        self.party = PartyHand(table.game, DealClient(table.identity, setup), check_ahead=False)
        self.round = ml.MentalRound(body.hand, body.dealer)
        self.dealt = False  # "mental-dealt" logged
        # The Rook redeal restarts in the log, counted as they are applied (live or
        # replayed by a restored host): a claim learned (``Redeal``) beyond them is new.
        self.redeals = 0
        self.cheat: MentalError | None = None  # a party's broken deal message, as logged
        self.checked: int | None = None  # the attempt whose batches were checked ahead
        self.restarted_at = -1  # the seq of its last "mental-restart" entry
        self.waits = Waits(table)  # until when the deal waits for whom
        # The host's own party's messages not logged yet (a restored host's replay makes
        # them again: the sequencer logs none twice).
        self.unlogged: list[dict] = self.party.client.start()

    @property
    def setup(self):
        return self.party.setup

    # -- the log ----------------------------------------------------------------------------
    def apply(self, entry, private: dict, applied: list | None, restoring: bool) -> list:
        body = entry.content
        if isinstance(body, (MentalBody, MentalRestartBody, MentalDealtBody, ActionEntryBody)):
            self.waits.moved_on()
        if isinstance(body, MentalBody):
            self._apply_message(body, restoring)
        elif isinstance(body, MentalRestartBody):
            self._apply_restart(entry.seq, body, restoring)
        elif isinstance(body, MentalDealtBody):
            self.dealt = self.round.dealt = True
            self.deal_seq = entry.seq
            self.match.state = self.party.state
        elif isinstance(body, ActionEntryBody):
            return self._apply_move(entry.seq, body, private, applied)
        elif isinstance(body, HandEndBody):
            if restoring:  # scored, as it was live, on the verified deal (or forfeited)
                self.match.state = self._restored_end(entry.seq, body, entry.state_hash)
            self.match.finish_hand()
        elif isinstance(body, RevealBody):
            self.round.revealed = True
        return []

    def _restored_end(self, seq: int, body: HandEndBody, state_hash: str | None):
        """The hand a stored ``hand_end`` scored, replayed: on the verified deal, or, for a
        forfeit, ended as ``forfeits`` ends it (RestoreError if it is not the same)."""
        if body.forfeit is None:
            final = self.party.final_state()
            if final is None or final.state_hash() != state_hash:
                raise RestoreError(f"entry {seq} does not replay to its state hash")
            return final
        final = forfeits.forfeited_hand(self.party, Verdict.of_body(body.forfeit))
        if hand_end_body(self.table.game, self.match, final, body.forfeit) != body:
            raise RestoreError(f"entry {seq}: the forfeited hand does not replay to its scores")
        return final

    def _apply_message(self, body: MentalBody, restoring: bool) -> None:
        party, played, signed = self.party, body.played, body.signed
        if played is not None:  # a played card's proof that its move could not be logged with
            step = lambda: party.logged_play(body.party, played["body"]["mental"])  # noqa: E731
        else:
            assert signed is not None  # one of the two (``MentalBody.problem``)
            if restoring:
                self.sequencer.submit(self.setup.parties[body.party].key, signed, self.table.now())
            step = lambda: party.logged(body.party, signed)  # noqa: E731
        if self.cheat is None:
            try:
                self.unlogged += step()
            except MentalError as exc:  # logged as sent: every client names the party too
                self.cheat = exc
        if self.dealt and self.state is not None and not self.state.is_over:
            self.match.state = party.state  # the spare learned: the replay again

    def _apply_restart(self, seq: int, body: MentalRestartBody, restoring: bool) -> None:
        record = body.record
        if restoring:
            self.sequencer.restart(record["reason"], self.table.now(), record["dropped"])
        self.unlogged += self.party.logged(None, record)
        if record["reason"] == "redeal":
            self.redeals += 1
        self.dealt = self.round.dealt = False
        self.deal_seq, self.last_action, self.restarted_at = None, {}, seq
        self.cheat, self.checked = None, None
        self.match.state = None

    def _apply_move(self, seq: int, logged: ActionEntryBody, private: dict,
                    applied: list | None) -> list:
        body = logged.move
        events = applied
        if events is None:  # a restored log: the move again on the host's party
            data = (private or {}).get("action") or body.action
            action, _ = public_step(self.table.game, data)
            self.unlogged += self.party.move(action, body.mental, self.setup.owner(body.seat))
            self.match.state = self.party.state
            events = []
        self.last_action[body.seat] = seq
        return events

    def take(self, log, seat: int, key: bytes, message: dict) -> None:
        if message["type"] != m.MENTAL:
            raise Refusal("this hand is dealt privately: it asks for no contribution")
        if _stale(self.setup, message["signed"]) or self.hand_ended():
            return  # a restarted client's old messages, or a forfeited hand's: done with
        self._log_messages(log, key, [message["signed"]])

    def go_on(self, log) -> None:
        if self.hand_ended():
            self.unlogged = []  # (a forfeited hand: what its own party had left to say)
            return
        self._log_messages(log, self.table.key, [])

    def idle_due(self) -> bool:
        return self.dealt and self.checked != self.party.attempt and self.cheat is None \
            and not self.hand_ended()

    def idle(self, log) -> None:
        """Once the cards are dealt, the others' share batches are checked (a bad one is a
        cheat, and the deal starts again without its party): the session runs this just
        after a change is sent, so that no player's screen waits for it."""
        self._check_ahead()
        self._moved_on(log)

    def _log_messages(self, log, key: bytes, envelopes) -> None:
        """Log deal messages from the party with ``key`` (and what the host's own party sends
        in answer, or had to send already: a kitty opened to the only guest waits on nobody
        else's message); then go on: play, or the hand's end."""
        own = self.table.key
        # (a restored host's replay may have left answers of an earlier attempt: done with)
        queue = [(own, e) for e in self._take_unlogged() if not _stale(self.setup, e)]
        queue += [(key, e) for e in envelopes]
        while queue:
            sender, envelope = queue.pop(0)
            try:
                index = self.sequencer.submit(sender, envelope, self.table.now())
            except NotLogged as exc:
                raise Refusal(f"the deal message was not logged: {exc}") from None
            if index is not None:
                party, _ = self.sequencer.log[index]
                assert party is not None  # a message's place in the log (a restart's has none)
                log(MentalBody(party, signed=envelope))
            queue += [(own, e) for e in self._take_unlogged()]
        self._moved_on(log)

    def _take_unlogged(self) -> list[dict]:
        sends, self.unlogged = self.unlogged, []
        return sends

    def _moved_on(self, log) -> None:
        if self.hand_ended():
            return
        if self.checked == self.party.attempt:  # (each batch logged since: checked now)
            self._check_ahead()
        if self.cheat is not None:
            verdict = Verdict.of(self.cheat)
            if verdict is not None and verdict.party != 0:
                self._forfeit(log, verdict)
            return
        redeals = sum(isinstance(o, Redeal) for o in self.party.client.learned)
        state = self.state
        if redeals > self.redeals and not (state is not None and state.is_over):
            # A hand the rules redeal (Rook: no point card), claimed and proven by its
            # player: the deal again, next attempt (what was bid on the old one is void).
            record = self.sequencer.restart("redeal", self.table.now())
            log(MentalRestartBody(record, []))
            self._log_messages(log, self.table.key, [])
            return
        if not self.dealt and ml.ready_to_play(self.table.game, self.party, self.sequencer.awaited()):
            log(MentalDealtBody(self.hand, self.dealer),
                state_hash=self.party.state.state_hash())
        elif self.dealt and state is not None and state.is_over and self.party.verified is not None:
            try:
                final = self.party.final_state()
            except IllegalAction as exc:  # what nobody could see live: a revoke, say
                self._forfeit(log, Verdict.of_move(self.setup, exc))
                return
            self._end(log, final)

    def _forfeit(self, log, verdict: Verdict) -> None:
        """The hand ends here, forfeited by the cheat's side and scored so (``forfeits``):
        its ``hand_end`` names the verdict and signs no state hash; then its ``reveal``."""
        final = forfeits.forfeited_hand(self.party, verdict)
        self.match.state = final
        self.unlogged = []
        log(hand_end_body(self.table.game, self.match, forfeit=verdict.body()))
        log(RevealBody(self.hand))

    def _end(self, log, final) -> None:
        self.match.state = final
        log(hand_end_body(self.table.game, self.match), state_hash=final.state_hash())
        log(RevealBody(self.hand))

    def between_hands(self) -> bool:
        return self.round.revealed

    # -- moves ---------------------------------------------------------------------------------
    def voids(self, signed: dict) -> bool:
        """Whether a move was made on this hand's deal before its last restart (a Rook
        redeal, a party restarted out of it): what it was decided on is void, and its
        player's client, reading the restart, decides again."""
        body = signed.get("body") if isinstance(signed, dict) else None
        return isinstance(body, dict) and body.get("hand") == self.setup.context.hand \
            and isinstance(body.get("seen"), int) and body["seen"] < self.restarted_at

    def admit(self, seat, key, signed, private, binding):
        game = self.table.game
        if private is not None and self._host_dealt_player(seat):
            return admit(game, self.state, key, seat, signed, private, binding)
        if signed["body"].get("hidden") is None:  # a played card's proof is checked on logging
            return admit(game, self.state, key, seat, signed, private, binding, proofs=True)
        return admit_sealed(game, self.state, key, seat, signed, binding)

    def move_problem(self, seat: int) -> str | None:
        """Why no move may be taken now under the mental deal (the cards not dealt, the
        spare on its way, an audit under way)."""
        if self.state is None:
            return None
        if not self.dealt or self.cheat is not None:
            return "the cards are not dealt yet"
        if ml.spare_pending(self.party):
            return "the spare is being turned up: wait a moment"
        if ml.auditing(self.party):
            return "the deal is being audited: a card was seen twice"
        if self.setup.owner(seat) == 0 and ml.spare_coming(self.party, seat):
            return "the kitty is on its way: wait a moment"
        return None

    def _may_move(self, seat: int) -> None:
        problem = self.move_problem(seat)
        if problem:
            raise Refusal(problem)

    def play_proof(self, action) -> dict | None:
        """The proof of a card the host's party plays, signed with its move."""
        if action.kind != "play":
            return None
        self._may_move(action.seat)
        try:
            return self.party.own_play(action)
        except MentalError as exc:
            raise Refusal(str(exc)) from None

    def log_move(self, log, signed: dict, move, carried: list) -> None:
        action = move.action
        self._check_ahead()
        self._may_move(action.seat)
        play = move.proof
        party = self.setup.owner(action.seat)  # the party that holds the seat's cards
        key = self.table.seats()[action.seat].key
        if play is None:
            # A deal step logged before the move (below: the host's party's, or a secret
            # move's commitment) stays in the deal whatever becomes of the move, so the
            # rules judge the move first: else a card refused by them would stand as the
            # seat's next card proven, and no other card of that seat be taken again.
            try:
                self.party.check(action)
            except (IllegalAction, Contradiction) as exc:
                raise Refusal(exc.reason) from None
        if play is not None:
            if action.kind != "play" or self.setup.parties[party].key != key:
                raise Refusal("only a played card carries a deal proof, signed by the client "
                              "that holds it")
            if party != 0 and not self._play_checked(log, signed, play, party, action):
                raise Refusal("your card was not taken: its proof is logged for every client "
                              "to judge")
        elif party == 0:
            # The host's party holds the seat's cards (its player was away at the deal and
            # is back, or a secret move of its own): it logs its step before the move.
            try:
                sends = self.party.own_move(action)
            except MentalError as exc:  # a seat of the host's party played a card it lacks
                raise Refusal(str(exc)) from None
            self._log_messages(log, self.table.key, sends)
        elif action.kind == "play":
            raise Refusal("a card played under the mental deal carries its proof")
        elif carried:
            self._log_messages(log, key, carried)
        if action.kind in SECRET and not self.party.sealed(action):
            raise Refusal(f"a {action.kind} comes with its commitment (its cards, sealed in the deal)")
        try:
            sends = self.party.move(action, play, party)
        except MoveRefused as exc:
            raise Refusal(exc.detail) from None
        except (IllegalAction, Contradiction) as exc:
            raise Refusal(exc.reason) from None
        self.unlogged += sends
        state = self.match.state = self.party.state
        private = {"action": move.full, "nonce": move.nonce} if party == 0 and move.nonce else None
        events = ml.public_events(self.table.game.deck, self.party.replayed.events, self.public_view())
        log(ActionEntryBody.of(signed, move.body), private=private,
            state_hash=state.state_hash() if ml.signs_state(self.party) else None, applied=events)

    def _check_ahead(self) -> None:
        """The others' share batches checked once an attempt's cards are dealt, at the
        first move or in idle time (while the table bids, so that no card waits for
        them); from then on each one as it is logged (a spare's shares mid-hand: cheap),
        before anything else is: every guest checks each batch as it is logged, and
        would name a host that logged a move on a deal it proved broken. A bad one stops
        this deal (``cheat``): every guest named its party as it was logged."""
        if not self.dealt or self.cheat is not None:
            return
        self.checked = self.party.attempt
        try:
            self.party.client.catch_up()
        except MentalError as exc:
            self.cheat = exc

    def _play_checked(self, log, signed: dict, play: dict, party: int, action) -> bool:
        """A peer's played card checked before its move is logged: True if its proof opens
        the card the move names. A proof that opens another card, or is malformed, is
        refused (nothing logged); one that breaks a rule of the deal (a wrong share, a
        position the seat does not hold), or that only an audit can settle, is logged
        alone — the signed move as it came, in a ``mental`` entry — so that every client
        reaches the same verdict, and False."""
        try:
            if self.party.check_play(party, play, action):
                return True
        except MoveRefused as exc:
            raise Refusal(exc.detail) from None
        except BadMessage as exc:
            raise Refusal(str(exc)) from None
        except MentalError:
            pass  # a Cheat: its machine names the party when the entry is applied
        log(MentalBody(party, played=signed))
        self._log_messages(log, self.table.key, [])  # the host's reveal, for an audit
        return False

    # -- a party gone: waited for (``waits.Waits``), then the deal restarted or the hand voided --
    def awaited(self) -> list[int]:
        return self.waits.awaited(self._holding_up(), self.setup.parties)

    def overdue(self) -> list[Late]:
        return self.waits.overdue(self._holding_up(), self.setup.parties, self.dealt)

    def due_in(self) -> float | None:
        return self.waits.due_in(self._holding_up(), self.setup.parties)

    def away(self) -> list[Away]:
        return self.waits.away(self._holding_up(), self.setup.parties, self.dealt)

    def keep_waiting(self, seats) -> None:
        self.waits.keep_waiting(self._holding_up(), self.setup.parties, seats)

    def _holding_up(self) -> dict:
        """party -> how it holds the deal up (``sequencer.Holding``), the host's excepted:
        before the cards are dealt, the parties the sequencer awaits; after, those that owe
        a message (a spare's shares, a reveal); and any whose every seat is away."""
        if self.cheat is not None or self.hand_ended():
            return {}
        if self.dealt:
            awaited = {i: self.waits.moved for i in self.party.owed() or ()}
        else:
            awaited = {i: self.sequencer.since for i in self.sequencer.awaited()}
        return holding_up(self.setup.parties, self.table.seats(), self.table.dropped_at, awaited,
                          self.table.now())

    def hand_ended(self) -> bool:
        """No hand under way: this one ended (``hand_end`` logged; a forfeit may end it
        before its cards are dealt)."""
        return self.round.revealed or (self.state is None and self.dealt)

    def go_on_without(self, log, late: list[int]) -> None:
        """The deal again without the ``late`` parties (``overdue``), their seats the host's:
        a ``drop`` for each seat still connected (a client that did not answer in time is
        treated as gone), then ``mental-restart`` — "dropped" before the cards were dealt,
        "void" after (the hand so far is void; the scores stay)."""
        seats = self.table.seats()
        for party in late:
            for seat in self.setup.parties[party].seats:
                if seats[seat].connected:
                    log(DropBody(seat))
        reason = "void" if self.dealt else "dropped"
        dropped = sorted(s for i in late for s in self.setup.parties[i].seats)
        record = self.sequencer.restart(reason, self.table.now(), sorted(late))
        log(MentalRestartBody(record, dropped))
        self._log_messages(log, self.table.key, [])

    # -- what each party may see -----------------------------------------------------------------
    def exact(self) -> bool:
        """Not while the spare is being turned up: the replay holds made-up cards there
        until every share is logged."""
        return not ml.spare_pending(self.party)

    def private_view(self, seat: int) -> dict | None:
        if self.state is None or not self.exact():  # the spare on its way: a view would be
            return None  # this seat's part alone, over a public one nobody knows yet
        if self.move_problem(seat) is not None:
            # the kitty on its way to the cards the host's party holds for the seat: the
            # view would hold made-up cards, and its player would decide on them; its client
            # keeps showing the last one, with nothing to decide, until the next
            return None
        if self.party.partial is not None and self._host_dealt_player(seat):
            # its player was away at the deal or restarted out of it: its cards are the
            # host's party's this hand, and the player, back, plays them from this view
            return self.party.state.private_view(seat)
        return None  # a peer's hand is its own deal client's, and the host has none

    def _host_dealt_player(self, seat: int) -> bool:
        info = self.table.seats().get(seat)
        return info is not None and info.kind == "human" and info.key != self.table.key \
            and seat in self.setup.parties[0].seats

    def host_dealt(self, seat: int) -> bool:
        """Whether ``seat``'s cards are the host's party's in this deal (its own, its bots',
        and those of players away at the deal or restarted out of it), or the hand is over:
        only then may a bot of the host's play it."""
        return self.hand_ended() or seat in self.setup.parties[0].seats


def _stale(setup, envelope: dict) -> bool:
    """A deal message of an earlier hand or attempt than the deal under way."""
    body = envelope.get("body") if isinstance(envelope, dict) else None
    context = setup.context
    return isinstance(body, dict) and isinstance(body.get("hand"), int) \
        and isinstance(body.get("attempt"), int) \
        and (body["hand"], body["attempt"]) < (context.hand, context.attempt)
