"""MentalAuthority: the host's authority on partial knowledge, under the mental-poker deal.

``HostAuthority`` deals from a seed and keeps the whole hand. With ``mental_deal`` on,
a hand at a table with two humans or more is dealt instead by the players' clients
(``net.trust.mental``): the host's client is the deal's sequencer (it logs every
party's signed deal message in one order, ``mental_log``) and one party of it — its own
seat, its computer players' and an away player's — and it replays the hand on what
that party knows (``mental.hand.PartyHand``). So, unlike ``HostAuthority``:

* its state is the ``PartyHand``'s: the public view exact, the other humans' hands
  made up; it sends each peer no private view (a peer takes its hand from its own
  deal client), and publishes only events that name no made-up card;
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
* a party gone past the contribution deadline (``overdue``: awaited in the deal since
  it last moved on, or dropped since the deadline once the cards are dealt) is
  restarted out of it (``restart_without``: "dropped", or "void" — the hand so far void,
  the scores unchanged); its seats are the host's party's for that hand, played by a
  stand-in or by the player back, from the view the host then sends it (``view``).

A table with one human (a game against the computer, or every guest away at the deal)
keeps the seeded deal: then this is ``HostAuthority`` exactly.
"""

from __future__ import annotations

import time

from engine import Contradiction, IllegalAction
from engine.partial import public_step

from net.constants import CONTRIBUTION_DEADLINE
from net.trust import mental_log as ml
from net.trust.authority import HostAuthority, Out, RestoreError
from net.trust.host_hand import HostHand
from net.trust.mental.client import DealClient
from net.trust.mental.errors import BadMessage, MentalError
from net.trust.mental.hand import MoveRefused, PartyHand
from net.trust.mental.outputs import Redeal
from net.trust.mental.sequencer import DealSequencer, NotLogged, parties_for
from net.trust.moves import ActionBody, Admitted, Refusal, action_body_problem, admit
from net.trust.signing import ACTION_DOMAIN, opens
from net.wire import messages as m


class HostDeal:
    """This hand's mental deal on the host: the sequencer and the host's own party."""

    def __init__(self, game, identity, setup, deadline: float, now: float):
        self.sequencer = DealSequencer(setup, deadline, now)
        # The others' share batches are not checked as they come (inside the deal they
        # would cost it ~25 ms on the host's critical path) but at the hand's first move.
        self.party = PartyHand(game, DealClient(identity, setup), check_ahead=False)
        self.dealt = False  # "mental-dealt" logged
        self.redeals = 0  # the Rook redeals claimed (``Redeal``) and acted on
        self.cheat: MentalError | None = None  # a party's broken deal message, as logged
        self.checked: int | None = None  # the attempt whose batches were checked ahead
        self.restarted_at = -1  # the seq of its last "mental-restart" entry

    @property
    def setup(self):
        return self.party.setup

    def check_ahead(self) -> None:
        """The others' share batches checked once an attempt's cards are dealt, at the
        first move (while the table bids, so that no card waits for them; one logged
        later is checked at the first card it serves). A bad one stops this deal
        (``cheat``): every guest named its party as it was logged."""
        if not self.dealt or self.checked == self.party.attempt or self.cheat is not None:
            return
        self.checked = self.party.attempt
        try:
            self.party.client.catch_up()
        except MentalError as exc:
            self.cheat = exc

    def voids(self, message: dict) -> bool:
        """Whether an action message was made on this hand's deal before its last restart
        (a Rook redeal, a party restarted out of it): what it was decided on is void, and
        its player's client, reading the restart, decides again."""
        signed = message.get("signed")
        body = signed.get("body") if isinstance(signed, dict) else None
        return isinstance(body, dict) and body.get("hand") == self.setup.context.hand \
            and isinstance(body.get("seen"), int) and body["seen"] < self.restarted_at


class MentalAuthority(HostAuthority):
    def __init__(self, identity, rng=None, persist=None, mental_deal: bool = False,
                 clock=time.monotonic, deadline: float = CONTRIBUTION_DEADLINE):
        if rng is None:
            super().__init__(identity, persist=persist)
        else:
            super().__init__(identity, rng, persist)
        self.mental_deal = mental_deal
        self.clock = clock
        self.deadline = deadline
        self.deal: HostDeal | None = None
        self._sends: list[dict] = []  # the host party's envelopes not logged yet
        self._carried: list[dict] = []  # the deal messages a peer's action came with
        self.dropped_at: dict[int, float] = {}  # seat -> when its drop was logged (this clock)

    @property
    def mental(self) -> bool:
        """Whether the hand in progress (or being dealt) is under the mental deal."""
        return self.deal is not None

    # -- the deal -----------------------------------------------------------------------
    def _commit(self, out: Out) -> None:
        if not (self.mental_deal and self.peers()):
            self.deal = None
            return super()._commit(out)
        seats = {s: info.key for s, info in self.seats.items()
                 if info.key is not None and info.kind in ("human", "bot")}
        parties = parties_for(self.key, seats, frozenset(self.seats.away()))
        hand = self.match.hand_number
        body = ml.deal_body(hand, self.match.dealer, parties, ml.fresh_attempt(self.log, hand))
        self._append(out, ml.DEAL, body)
        self._log_deal(out, self.key, self.deal.party.client.start())

    def _deal_if_ready(self, out: Out) -> None:
        if self.deal is None:  # the mental deal starts play with "mental-dealt" instead
            super()._deal_if_ready(out)

    def _apply_mental_deal(self, entry, private: dict) -> list:
        self.mental_deal = True  # a restored host goes on dealing this way
        setup = ml.setup_for(self.game, self.table, entry.body)
        self.deal = HostDeal(self.game, self.identity, setup, self.deadline, self.clock())
        self.hand = HostHand()
        self.hand.round = ml.MentalRound(entry.body["hand"], entry.body["dealer"])
        self._sends = []
        return []

    def _apply_mental(self, entry, private: dict) -> list:
        deal, body = self.deal, entry.body
        if ml.PLAYED in body:  # a played card's proof that its move could not be logged with
            step = lambda: deal.party.logged_play(body["party"], body[ml.PLAYED]["body"]["mental"])  # noqa: E731
        else:
            if self._restoring:
                deal.sequencer.submit(deal.setup.parties[body["party"]].key, body["signed"], self.clock())
            step = lambda: deal.party.logged(body["party"], body["signed"])  # noqa: E731
        if deal.cheat is None:
            try:
                self._sends += step()
            except MentalError as exc:  # logged as sent: every client names the party too
                deal.cheat = exc
        if deal.dealt and self.match.state is not None and not self.match.state.is_over:
            self.match.state = deal.party.state  # the spare learned: the replay again
        return []

    def _apply(self, signed, private, applied=None) -> list:
        if not (self._restoring and signed.kind == "hand_end" and self.deal is not None):
            return super()._apply(signed, private, applied)
        # A stored hand_end: scored, as it was live, on the verified deal (every party's
        # reveal is replayed by now), its state hash that hand's — not the replay's.
        final = self.deal.party.final_state()
        if final is None or final.state_hash() != signed.entry.state_hash:
            raise RestoreError(f"entry {signed.seq} does not replay to its state hash")
        self.match.state = final
        self._restoring = False  # checked above: the hand is banked and gone after it
        try:
            return super()._apply(signed, private, applied)
        finally:
            self._restoring = True

    def _undo(self, out: Out) -> None:
        settings = self.mental_deal, self.clock, self.deadline  # not in the log: kept
        super()._undo(out)
        self.mental_deal, self.clock, self.deadline = settings

    def _apply_drop(self, entry, private: dict) -> list:
        self.dropped_at[entry.body["seat"]] = self.clock()
        return super()._apply_drop(entry, private)

    def _apply_rejoin(self, entry, private: dict) -> list:
        self.dropped_at.pop(entry.body["seat"], None)
        return super()._apply_rejoin(entry, private)

    # -- a party gone: the deal restarted, or the hand voided, at the deadline ------------------
    def host_dealt(self, seat: int) -> bool:
        """Whether ``seat``'s cards are the host's party's in the deal under way (its own,
        its bots', and those of players away at the deal or restarted out of it), or no
        deal is under way: only then may a bot of the host's play it."""
        return self.deal is None or self.match is None or self._hand_ended() \
            or seat in self.deal.setup.parties[0].seats

    def _gone(self, party: int) -> bool:
        """Every seat of the deal's ``party`` is away (dropped, not back)."""
        return all(not self.seats[s].connected for s in self.deal.setup.parties[party].seats)

    def overdue(self) -> list[int]:
        """The parties (indices) the deal has waited the deadline for: before the cards are
        dealt, those awaited since the deal last moved on; after, those gone since their
        drop. The host restarts the deal (``restart_without``) without them."""
        now = self.clock()
        return [i for i, since in self._holding_up().items() if now - since >= self.deadline]

    def due_in(self) -> float | None:
        """Seconds until ``overdue`` may next name a party (None: nobody holds it up)."""
        held = self._holding_up()
        return max(0.0, min(held.values()) + self.deadline - self.clock()) if held else None

    def _holding_up(self) -> dict[int, float]:
        """party -> since when (this clock) it has held the deal up, the host's excepted."""
        deal = self.deal
        if deal is None or deal.cheat is not None or self.match is None or self._hand_ended():
            return {}
        if not deal.dealt:
            return {i: deal.sequencer.since for i in deal.sequencer.awaited() if i != 0}
        parties = deal.setup.parties
        return {i: max(self.dropped_at.get(s, self.clock()) for s in parties[i].seats)
                for i in range(1, len(parties)) if self._gone(i)}

    def _hand_ended(self) -> bool:
        """No hand under way: none dealt yet, or this one ended (``hand_end`` logged)."""
        rnd = self.hand.round
        return rnd is None or rnd.revealed or (self.match.state is None and self.deal.dealt)

    def restart_without(self, parties) -> Out:
        """The deal again without ``parties`` (``overdue``), their seats the host's: a
        ``drop`` for each seat still connected (a client that did not answer in time is
        treated as gone), then ``mental-restart`` — "dropped" before the cards were dealt,
        "void" after (the hand so far is void; the scores stay)."""
        def run(out):
            deal = self.deal
            for party in parties:
                for seat in deal.setup.parties[party].seats:
                    if self.seats[seat].connected:
                        self._append(out, "drop", {"seat": seat})
            reason = "void" if deal.dealt else "dropped"
            seats = sorted(s for i in parties for s in deal.setup.parties[i].seats)
            record = deal.sequencer.restart(reason, self.clock(), sorted(parties))
            self._append(out, ml.RESTART, {"record": record, "seats": seats})
            self._log_deal(out, self.key, [])
        return self._run(run)

    def _apply_mental_restart(self, entry, private: dict) -> list:
        deal = self.deal
        if self._restoring:
            deal.sequencer.restart(entry.body["record"]["reason"], self.clock(),
                                   entry.body["record"]["dropped"])
        self._sends += deal.party.logged(None, entry.body["record"])
        deal.dealt = self.hand.round.dealt = False
        self.hand.deal_seq, self.hand.last_action, deal.restarted_at = None, {}, entry.seq
        self.match.state = None
        return []

    def _apply_mental_dealt(self, entry, private: dict) -> list:
        self.deal.dealt = True
        self.hand.round.dealt = True
        self.hand.deal_seq = entry.seq
        self.match.state = self.deal.party.state
        return []

    def _log_deal(self, out: Out, key: bytes, envelopes) -> None:
        """Log deal messages from the party with ``key`` (and what the host's own party sends
        in answer, or had to send already: a kitty opened to the only guest waits on nobody
        else's message); then go on: play, or the hand's end."""
        deal = self.deal
        # (a restored host's replay may have left answers of an earlier attempt: done with)
        queue = [(self.key, e) for e in self._sends if not _stale(deal.setup, e)]
        queue += [(key, e) for e in envelopes]
        self._sends = []
        while queue:
            sender, envelope = queue.pop(0)
            try:
                index = deal.sequencer.submit(sender, envelope, self.clock())
            except NotLogged as exc:
                raise Refusal(f"the deal message was not logged: {exc}") from None
            if index is not None:
                party, _ = deal.sequencer.log[index]
                self._append(out, ml.MESSAGE, {"party": party, "signed": envelope})
            queue += [(self.key, e) for e in self._sends]
            self._sends = []
        self._deal_moved_on(out)

    def _deal_moved_on(self, out: Out) -> None:
        deal = self.deal
        if deal.cheat is not None:
            return
        redeals = sum(isinstance(o, Redeal) for o in deal.party.client.learned)
        if redeals > deal.redeals and not (self.state is not None and self.state.is_over):
            # A hand the rules redeal (Rook: no point card), claimed and proven by its
            # player: the deal again, next attempt (what was bid on the old one is void).
            deal.redeals = redeals
            record = deal.sequencer.restart("redeal", self.clock())
            self._append(out, ml.RESTART, {"record": record, "seats": []})
            self._log_deal(out, self.key, [])
            return
        if not deal.dealt and ml.ready_to_play(self.game, deal.party, deal.sequencer.awaited()):
            self._append(out, ml.DEALT, {"hand": self.match.hand_number, "dealer": self.match.dealer},
                         state_hash=deal.party.state.state_hash())
        elif deal.dealt and self.state is not None and self.state.is_over \
                and deal.party.verified is not None and self.match.state is not None:
            self._end_hand(out)

    def receive_deal(self, fp: str, envelope: dict) -> Out:
        """A peer's deal message (``{"type": "mental"}``): logged, or refused with a reason."""
        out = Out()
        with self._one_write(out):
            try:
                seat = self._seat_of_sender(fp)
                if self.deal is None or _stale(self.deal.setup, envelope):
                    return out  # a restarted client sends its old messages again: done with
                self._log_deal(out, self.seats[seat].key, [envelope])
            except Refusal as exc:
                out.sends.append((fp, m.error_message(str(exc))))
        return out

    def receive(self, fp: str, message) -> Out:
        if isinstance(message, dict) and message.get("type") == m.MENTAL:
            try:
                message = m.check(message, (m.MENTAL,))
            except m.ProtocolError as exc:
                return Out(sends=[(fp, m.error_message(str(exc)))], disconnect=[fp])
            return self.receive_deal(fp, message["signed"])
        if isinstance(message, dict) and message.get("type") == m.ACTION:
            if self.deal is not None and self.deal.voids(message):
                return Out()  # dropped quietly, as a deal message of an earlier attempt is
            message = dict(message)
            self._carried = list(message.pop("mental", None) or ())
        try:
            return super().receive(fp, message)
        finally:
            self._carried = []

    # -- what a peer is sent -----------------------------------------------------------------
    def private_view(self, seat: int) -> dict | None:
        if self.deal is None or self.state is None:  # no hand under way (the last one's cards are gone)
            return super().private_view(seat)
        if self.deal.party.partial is not None and self._host_dealt_player(seat):
            # its player was away at the deal or restarted out of it: its cards are the
            # host's party's this hand, and the player, back, plays them from this view
            return self.deal.party.state.private_view(seat)
        return None  # a peer's hand is its own deal client's, and the host has none

    def _host_dealt_player(self, seat: int) -> bool:
        info = self.seats.get(seat)
        return info is not None and info.kind == "human" and info.key != self.key \
            and seat in self.deal.setup.parties[0].seats

    # -- moves ----------------------------------------------------------------------------------
    def _check_action(self, seat: int, signed: dict, private: dict | None) -> Admitted | None:
        if self.deal is None or (private is not None and self._host_dealt_player(seat)):
            return super()._check_action(seat, signed, private)
        binding = self.hand.binding(self.table, self.match.hand_number, seat, self.chain.seq + 1,
                                    self.archive.hash_at)
        if signed["body"].get("hidden") is None:  # a played card's proof is checked on logging
            return admit(self.game, self.state, self.seats[seat].key, seat, signed, private,
                         binding, proofs=True)
        # A secret move under the mental deal: its cards stay with its player (committed in
        # the deal, opened at the reveal); the host logs the signed public form.
        body = ActionBody.from_wire(signed["body"])
        if not opens(self.seats[seat].key, ACTION_DOMAIN, signed):
            raise Refusal("the action is not signed by your key")
        if self.state is None or self.state.is_over:
            raise Refusal("no hand is being played")
        problem = action_body_problem(body, seat, binding)
        if problem:
            raise Refusal(problem[1])
        action, hidden = _public_action(self.game, body.action)
        if not hidden:
            raise Refusal("only a secret action (a discard, a bury) is sent hidden")
        return Admitted(action, body.action, None)

    def _may_move(self, seat: int) -> None:
        """Refusal if no move may be taken now under the mental deal (the cards not dealt,
        the spare on its way, an audit under way)."""
        deal = self.deal
        if not deal.dealt or deal.cheat is not None:
            raise Refusal("the cards are not dealt yet")
        if ml.spare_pending(deal.party):
            raise Refusal("the spare is being turned up: wait a moment")
        if ml.auditing(deal.party):
            raise Refusal("the deal is being audited: a card was seen twice")
        if deal.setup.owner(seat) == 0 and ml.spare_coming(deal.party, seat):
            raise Refusal("the kitty is on its way: wait a moment")

    def may_move(self, seat: int) -> bool:
        """Whether a move of ``seat`` may be taken now: a bot of the host's waits, unrefused."""
        if self.deal is None or self.state is None:
            return True
        try:
            self._may_move(seat)
        except Refusal:
            return False
        return True

    def _play_proof(self, action) -> dict | None:
        """The proof of a card the host's party plays, signed with its move."""
        if self.deal is None or action.kind != "play":
            return None
        self._may_move(action.seat)
        try:
            return self.deal.party.own_play(action)
        except MentalError as exc:
            raise Refusal(str(exc)) from None

    def _log_move(self, out: Out, signed: dict, move: Admitted) -> None:
        deal = self.deal
        if deal is None:
            return super()._log_move(out, signed, move)
        action = move.action
        deal.check_ahead()
        self._may_move(action.seat)
        play = ActionBody.from_wire(signed["body"]).mental
        party = deal.setup.owner(action.seat)  # the party that holds the seat's cards
        if play is None:
            # A deal step logged before the move (below: the host's party's, or a secret
            # move's commitment) stays in the deal whatever becomes of the move, so the
            # rules judge the move first: else a card refused by them would stand as the
            # seat's next card proven, and no other card of that seat be taken again.
            try:
                deal.party.check(action)
            except (IllegalAction, Contradiction) as exc:
                raise Refusal(exc.reason) from None
        if play is not None:
            if action.kind != "play" or deal.setup.parties[party].key != self.seats[action.seat].key:
                raise Refusal("only a played card carries a deal proof, signed by the client "
                              "that holds it")
            if party != 0 and not self._play_checked(out, signed, play, party, action):
                raise Refusal("your card was not taken: its proof is logged for every client "
                              "to judge")
        elif party == 0:
            # The host's party holds the seat's cards (its player was away at the deal and
            # is back, or a secret move of its own): it logs its step before the move.
            try:
                sends = deal.party.own_move(action)
            except MentalError as exc:  # a seat of the host's party played a card it lacks
                raise Refusal(str(exc)) from None
            self._log_deal(out, self.key, sends)
        elif action.kind == "play":
            raise Refusal("a card played under the mental deal carries its proof")
        elif self._carried:
            self._log_deal(out, self.seats[action.seat].key, self._carried)
            self._carried = []
        try:
            sends = deal.party.move(action, play, party)
        except MoveRefused as exc:
            raise Refusal(exc.detail) from None
        except (IllegalAction, Contradiction) as exc:
            raise Refusal(exc.reason) from None
        self._sends += sends
        state = self.match.state = deal.party.state
        private = {"action": move.full, "nonce": move.nonce} if party == 0 and move.nonce else None
        events = ml.public_events(self.game.deck, deal.party.partial.events, state.public_view())
        self._append(out, "action", {"signed": signed}, private=private,
                     state_hash=state.state_hash() if ml.signs_state(deal.party) else None,
                     applied=events)
        self._log_deal(out, self.key, [])

    def _play_checked(self, out: Out, signed: dict, play: dict, party: int, action) -> bool:
        """A peer's played card checked before its move is logged: True if its proof opens
        the card the move names. A proof that opens another card, or is malformed, is
        refused (nothing logged); one that breaks a rule of the deal (a wrong share, a
        position the seat does not hold), or that only an audit can settle, is logged
        alone — the signed move as it came, in a ``mental`` entry — so that every client
        reaches the same verdict, and False."""
        deal = self.deal
        try:
            if deal.party.check_play(party, play, action):
                return True
        except MoveRefused as exc:
            raise Refusal(exc.detail) from None
        except BadMessage as exc:
            raise Refusal(str(exc)) from None
        except MentalError:
            pass  # a Cheat: its machine names the party when the entry is applied
        self._append(out, ml.MESSAGE, {"party": party, ml.PLAYED: signed})
        self._log_deal(out, self.key, [])  # the host's reveal, for an audit
        return False

    def _apply_action(self, entry, private: dict, applied: list | None) -> list:
        if self.deal is None:
            return super()._apply_action(entry, private, applied)
        body = ActionBody.logged_in(entry)
        events = applied
        if events is None:  # a restored log: the move again on the host's party
            data = (private or {}).get("action") or body.action
            action, _ = _public_action(self.game, data)
            party = self.deal.setup.owner(body.seat)
            self._sends += self.deal.party.move(action, body.mental, party)
            self.match.state = self.deal.party.state
            events = []
        self.hand.last_action[body.seat] = entry.seq
        return events

    def _end_hand(self, out: Out) -> None:
        deal = self.deal
        if deal is None:
            return super()._end_hand(out)
        final = deal.party.final_state()
        self.match.state = final
        self._append(out, "hand_end", HostHand.hand_end_body(self.game, self.match),
                     state_hash=final.state_hash())
        self._append(out, "reveal", {"hand": deal.setup.context.hand})


def _stale(setup, envelope: dict) -> bool:
    """A deal message of an earlier hand or attempt than the deal under way."""
    body = envelope.get("body") if isinstance(envelope, dict) else None
    context = setup.context
    return isinstance(body, dict) and isinstance(body.get("hand"), int) \
        and isinstance(body.get("attempt"), int) \
        and (body["hand"], body["attempt"]) < (context.hand, context.attempt)


def _public_action(game, data: dict):
    """(Action, hidden) from a move's public form: a secret move's cards are None."""
    return public_step(game, data)
