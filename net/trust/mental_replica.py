"""MentalReplica: a peer's replica that also follows the mental-poker deal.

A ``PeerReplica`` that reads the deal's entries (``mental_log``) as well as the fair
deal's: the host decides which deal a hand gets, and this replica checks either. Under
the mental deal it is one party of the deal (``mental.hand.PartyHand``: its own
``DealClient``, with secrets derived from this identity key, so a restarted guest reads
the log again and goes on):

* ``mental-deal``: the parties must be the table's — the host's client holds its own
  seat, its computer players' and only the seats of players away at the deal — else a
  ``deal`` Violation names the host;
* ``mental``: each message goes to the deal client, which checks its party's signature
  (else the host forged it) and its proofs (else a ``Cheat`` names the party: a
  duplicated card in a shuffle, a wrong decryption share, …); what the client sends in
  answer goes to the host as ``{"type": "mental"}`` messages;
* ``mental-dealt`` and each ``action``: the hand replayed on what this seat knows must
  make the signed state hash; a played card's proof, signed inside its move, is checked
  (a card from another seat's position is named at once) and the card must be the one
  it opened; a ``mental`` entry with a ``played`` move is such a proof the host logged
  alone (it broke a rule, or only an audit settles it), checked as the move would be;
* ``mental-restart``: the next attempt with exactly the parties left
  (``sequencer.restart_problem``), a redeal only after a proven claim, a party dropped
  only if awaited (before play) or gone (after), its seats away, and not sooner than the
  deadline on this peer's own clock (``mental_log.RestartWatch``); a move this replay
  refuses while the deal is audited waits for the audit's verdict, which names the cheat;
* a hand this client is no party of (its player away at the deal, or restarted out of
  it): the public moves only (``PartyHand.onlooker``); its seat's view is the host's,
  and the hand is not reported verified;
* ``hand_end``: only once every party revealed (``Verified``: the shuffles and every
  share checked), the hand replayed on the verified deal with every bury and discard
  opened — a revoke nobody could see live named then — must give the host's result,
  scores and state hash.

This seat's hand comes from its deal client, never from the host: the host sends no
private view under the mental deal (``privacy``), and ``view`` is this replica's own.
"""

from __future__ import annotations

from dataclasses import replace

from engine import Contradiction, IllegalAction, RecordError
from engine.partial import public_step

from net.trust import mental_log as ml
from net.trust.alerts import HOST, PLAYER, Violation
from net.trust.log import result_dict
from net.trust.mental.client import DealClient, Forged
from net.trust.mental.errors import Cheat, MentalError
from net.trust.mental.hand import MoveRefused, PartyHand
from net.trust.mental.sequencer import Progress, parties_for, restart_problem
from net.trust.moves import ActionBody, logged_move
from net.trust.replica import PeerReplica, ReplicaHalted
from net.trust.reveal import verified
from net.trust.shadow import CheckedHand, Shadow, Step
from net.trust.signing import read_action
from net.wire import messages as m


class MentalReplica(PeerReplica):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.deal: PartyHand | None = None  # this hand's party, under the mental deal
        self._sends: list[dict] = []  # deal messages for the host
        self._final = None  # the hand on the verified deal, from hand_end to the reveal
        self._progress: Progress | None = None  # who has sent what in this attempt
        self._held: Violation | None = None  # a move refused during an audit (``_unless_audited``)
        self.restarts = ml.RestartWatch(self.shuffles.deadline, self.shuffles.slack)

    @property
    def mental(self) -> bool:
        return self.deal is not None

    def receive(self, message):
        out = super().receive(message)
        if self.halted is None:
            out.sends += [{"type": m.MENTAL, "signed": e} for e in self._sends]
        self._sends = []
        self._own_view()
        return out

    def _own_view(self) -> None:
        """This seat's view from its own replay (the host sends none under the mental deal)."""
        hand = self.hand
        if self.deal is not None and self.deal.onlooker:
            return  # this seat's cards are the host's this hand: its view is the host's
        if self.deal is not None and hand is not None and hand.playing and self.seat is not None:
            if hand.shadow.hand is not self.deal.partial:  # the spare learned since the move
                self.hand = replace(hand, shadow=self._shadow())
            self.view = self.deal.state.view(self.seat)
            if ml.spare_pending(self.deal) or ml.spare_coming(self.deal, self.seat):
                self.view["to_act"] = []  # nothing to decide until the spare is up

    # -- the deal --------------------------------------------------------------------------
    def _on_mental_deal(self, entry, message):
        body = entry.body
        self._need(self.scores is not None and self._between_hands(), entry,
                   "a deal while a hand is being played (or before the game)")
        self._need(body["hand"] == self.hand_number and body["dealer"] == self.dealer, entry,
                   f"expected hand {self.hand_number} dealt by seat {self.dealer}")
        seats = {s: i.key for s, i in self.seats.items() if i.key is not None}
        fair = ml.parties_body(parties_for(self.host_key, seats, frozenset(self.seats.away())))
        if body["parties"] != fair:
            raise Violation(HOST, self.host_seat, "deal",
                            f"the deal for hand {body['hand']} gives the seats to other "
                            "parties than the table's players")
        if body.get("attempt", 0) != ml.fresh_attempt(self.log, body["hand"]):
            raise Violation(HOST, self.host_seat, "deal",
                            f"the deal for hand {body['hand']} reuses the secrets of an earlier "
                            "deal at this table (its attempt is not a fresh one)")
        setup = ml.setup_for(self.game, self.table, body)
        # A departed host back as a guest reads the deals it made as the host as an
        # onlooker (as under the seeded deal): it signed them, and its own secret moves'
        # cards are in its host log, not here.
        me = _NO_PARTY if setup.parties[0].key == self.key else self.identity
        party = PartyHand(self.game, DealClient(me, setup))

        def commit():
            self.deal, self._final, self._held = party, None, None
            self._progress = Progress(len(setup.parties))
            self.restarts.deal_moved(self.clock(), self._live)
            self.round = ml.MentalRound(body["hand"], body["dealer"])
            self.hand = CheckedHand(entry.seq)
            self._sends += party.client.start()
        return commit

    def _on_mental(self, entry, message):
        party = entry.body["party"]
        self._need(self.deal is not None and isinstance(party, int)
                   and 0 <= party < len(self.deal.setup.parties), entry, "a deal message with no deal")
        deal = self.deal
        if ml.PLAYED in entry.body:
            return self._on_played_alone(entry, party)
        signed = entry.body["signed"]
        sends = self._deal_step(lambda: deal.logged(party, signed), entry)  # (its batches checked)
        if self._held is not None and deal.verified is not None:
            raise self._held  # the audit found no cheat: the move was wrong after all

        def commit():
            self._progress.follow(party, signed["body"])
            self.restarts.deal_moved(self.clock(), self._live)
            self._sends.extend(sends)
        return commit

    def _on_played_alone(self, entry, party: int):
        """A played card's proof the host logged without its move (it breaks a rule of the
        deal, or only an audit settles it): the move as its player signed and bound it."""
        hand = self.hand
        self._need(hand is not None and hand.playing and not hand.shadow.state.is_over, entry,
                   "a played card while no hand is being played")
        signed = entry.body[ml.PLAYED]
        body = logged_move(entry, self.seats, self.host_seat, self.binding(hand, entry), signed)
        self._need(body.mental is not None and "play" in body.action
                   and self.deal.setup.parties[party].key == self.seats[body.seat].key, entry,
                   "a played card's proof that is not its party's")
        sends = self._deal_step(lambda: self.deal.logged_play(party, body.mental), entry)
        return lambda: self._sends.extend(sends)

    def _on_mental_restart(self, entry, message):
        self._need(self.deal is not None and self.hand.end is None, entry, "a restart with no deal")
        record, setup = entry.body["record"], self.deal.setup
        problem = restart_problem(setup, record)
        if problem:
            raise Violation(HOST, self.host_seat, "deal", f"entry {entry.seq}: {problem}")
        self._restart_allowed(entry, record, setup)
        sends = self._deal_step(lambda: self.deal.logged(None, record), entry)

        def commit():  # the deal again; whatever was bid on the last one is void
            self._progress = Progress(len(record["parties"]))
            self.restarts.deal_moved(self.clock(), self._live)
            self.round.dealt = False
            self.hand = CheckedHand(entry.seq)
            self._sends.extend(sends)
        return commit

    def _restart_allowed(self, entry, record: dict, setup) -> None:
        """A restart drops only parties the deal waited the deadline for: a redeal only
        after a proven claim; "dropped" only parties awaited, before play; "void" only once
        the cards are dealt; every dropped seat away (its ``drop`` logged), and not sooner
        than this peer's clock allows (``RestartWatch``). Else a ``deal`` alert names the host."""
        reason, dropped = record["reason"], record["dropped"]
        machine = self.deal.client.machine

        def refuse(why: str):
            raise Violation(HOST, self.host_seat, "deal", f"entry {entry.seq}: {why}")
        if reason == "redeal":
            if entry.body.get("seats") != []:
                refuse("a redeal drops no seat")
            if machine is not None and machine.redeal is None:
                refuse("the host redealt a hand nobody showed a reason to redeal")
            return
        seats = sorted(s for i in dropped for s in setup.parties[i].seats)
        if entry.body.get("seats") != seats:
            refuse(f"the restart names seats {entry.body.get('seats')}, not the dropped parties' {seats}")
        if (reason == "void") != self.hand.dealt:
            refuse(f"a restart for {reason!r} {'after' if self.hand.dealt else 'before'} the cards were dealt")
        if reason == "dropped" and not set(dropped) <= set(self._progress.awaited()):
            refuse(f"the host restarted the deal without parties {dropped}, which it was not waiting for")
        for i in dropped:
            for seat in setup.parties[i].seats:
                info = self.seats.get(seat)
                if info is not None and info.connected and info.key == setup.parties[i].key:
                    refuse(f"the host restarted the deal without seat {seat}, which is still here")
        problem = self.restarts.problem(reason, seats, self.clock())
        if problem:
            refuse(problem)

    def _on_takeover(self, entry, message):
        follow = super()._on_takeover(entry, message)

        def both():  # a hand abandoned at the takeover: its deal is forgotten with it
            follow()
            if entry.body["abandoned"] is not None:
                self.deal, self._final, self._held, self._progress = None, None, None, None
        return both

    def _on_drop(self, entry, message):
        if entry.body["seat"] == self.seat and self._live and self.deal is not None:
            # the host closes a link before it logs its drop: my own drop reaching me on a
            # link still up is a false one (under the mental deal it would hand the host
            # my seat's cards at the deadline)
            raise Violation(HOST, self.host_seat, "deal", f"entry {entry.seq}: the host logged my "
                            "seat as dropped while my link to it is up")
        commit = super()._on_drop(entry, message)

        def both():
            self.restarts.dropped(entry.body["seat"], self.clock(), self._live)
            return commit()
        return both

    def _on_rejoin(self, entry, message):
        commit = super()._on_rejoin(entry, message)

        def both():
            self.restarts.rejoined(entry.body["seat"])
            return commit()
        return both

    def _deal_step(self, step, entry) -> list[dict]:
        """A step of this seat's deal client; what it proves wrong, as a Violation."""
        try:
            return step()
        except MentalError as exc:
            raise self._deal_violation(exc, entry) from None

    def _deal_violation(self, exc: MentalError, entry) -> Violation:
        """Who the deal client's error blames: a party's proven cheat names its player;
        anything else (a forged or malformed message) the host, which logged it."""
        if isinstance(exc, Cheat):
            seats = exc.seats or (None,)
            return Violation(PLAYER, seats[0], "deal", f"entry {entry.seq}: {exc}")
        return Violation(HOST, self.host_seat, "deal", f"entry {entry.seq}: {exc}")

    def _on_mental_dealt(self, entry, message):
        deal = self.deal
        self._need(deal is not None and not self.hand.dealt and deal.partial is not None, entry,
                   "play begins before the cards are dealt")
        self._same_hash(entry, deal.state)
        shadow = self._shadow()

        def commit():
            self.round.dealt = True
            self.hand = self.hand.with_deal(entry.seq, entry.state_hash, shadow, [])
        return commit

    def _shadow(self) -> Shadow:
        deal, me = self.deal, None if self.deal.onlooker else self.seat
        mine = frozenset(deal.hands.get(me, ()))
        return Shadow(self.game, me, deal.setup.dealer, mine, frozenset(deal.spare), hand=deal.partial)

    def _same_hash(self, entry, state) -> None:
        if self.deal is not None and self.deal.onlooker:
            return  # no party of this attempt: the spare and the score are not this seat's to see
        if entry.state_hash != state.state_hash():
            raise Violation(HOST, self.host_seat, "state-hash",
                            f"entry {entry.seq}: the signed state hash is not the hand's public state")

    # -- moves -------------------------------------------------------------------------------
    def _on_action(self, entry, message):
        if self.deal is None:
            self._need("mental" not in entry.body["signed"].get("body", {}), entry,
                       "a deal proof with a move under the seeded deal")
            return super()._on_action(entry, message)
        hand = self.hand
        self._need(hand is not None and hand.playing and not hand.shadow.state.is_over, entry,
                   "an action while no hand is being played")
        body = logged_move(entry, self.seats, self.host_seat, self.binding(hand, entry))
        action, _ = self._logged(body, entry)
        party = self.deal.setup.owner(action.seat)
        if body.mental is not None:
            self._need(action.kind == "play" and self.deal.setup.parties[party].key
                       == self.seats[action.seat].key, entry,
                       "a deal proof with a move that is no card played by the client holding it")
        try:
            sends = self.deal.move(action, body.mental, party)
        except MoveRefused as exc:
            return self._unless_audited(Violation(PLAYER, exc.seat, "illegal-action",
                                                  f"entry {entry.seq}: {exc} (the host accepted it)"),
                                        entry, body, party)
        except (IllegalAction, Contradiction) as exc:
            return self._unless_audited(Violation(
                PLAYER, exc.seat, "illegal-action",
                f"entry {entry.seq}: seat {exc.seat}: {exc.reason} (the host accepted it)"),
                entry, body, party)
        except MentalError as exc:
            raise self._deal_violation(exc, entry) from None
        if ml.signs_state(self.deal):
            self._same_hash(entry, self.deal.state)
        elif not self.deal.onlooker:  # the spare being turned up, or the end (scored on the verified deal)
            self._need(entry.state_hash is None, entry, "a state hash nobody can know yet")
        shadow, step = self._shadow(), Step(entry.seq, body, entry.state_hash)
        self._check_private(entry, message, shadow, self.seat)

        def commit():
            self.hand = hand.with_step(step, shadow, [])
            self._sends.extend(sends)
        return commit

    def _unless_audited(self, violation: Violation, entry, body: ActionBody, party: int):
        """A move this replay refuses while the deal is being audited (a card seen twice:
        a duplicated card makes its honest player's move look wrong here) is held back,
        not blamed on its player: the audit's verdict names the cheat. Only if every
        party's secrets then check out is the move's player named (``_on_mental``). The
        proof the move carries is taken first: it may be what shows the card twice."""
        sends = []
        if body.mental is not None and not ml.auditing(self.deal):
            sends = self._deal_step(lambda: self.deal.logged_play(party, body.mental), entry)
        if not ml.auditing(self.deal):
            raise violation

        def hold():
            self._held = self._held or violation
            self._sends.extend(sends)
        return hold

    def _logged(self, body: ActionBody, entry):
        """The move as this seat replays it: a secret one's cards only if it is its own."""
        secrets = None
        if body.hidden is not None and body.seat == self.seat:
            kind = next((k for k, v in body.action.items() if v is None), None)
            machine = self.deal.client.machine  # its commitment, logged just before
            cards = machine.committed(body.seat, kind) if machine is not None else None
            if cards is not None:
                secrets = {kind: self.game.deck.mask(cards)}
        try:
            return public_step(self.game, body.action, secrets)
        except (RecordError, TypeError, ValueError, KeyError) as exc:
            raise Violation(PLAYER, body.seat, "illegal-action",
                            f"entry {entry.seq}: seat {body.seat}'s action cannot be read ({exc})") from None

    def act(self, action: dict) -> dict:
        if self.deal is not None and not self.deal.onlooker and (
                ml.spare_pending(self.deal) or ml.spare_coming(self.deal, self.seat)):
            raise IllegalAction("the spare is on its way: wait a moment", self.seat)
        message = super().act(action)
        if self.deal is None or self.deal.onlooker:
            return message  # an onlooker's cards are the host's party's: it proves them
        parsed = read_action(self.game, action, self.seat)
        envelopes = []
        if parsed.kind != "play":  # a played card's proof is in the move (``_play_proof``)
            try:
                envelopes = self.deal.own_move(parsed)
            except MentalError as exc:
                raise IllegalAction(str(exc), self.seat) from None
        return {**message, "private": None, "mental": envelopes}

    def _play_proof(self, action) -> dict | None:
        """The proof of this seat's played card, signed with its move: only by the client
        that holds the seat's cards in this deal."""
        deal = self.deal
        if deal is None or action.kind != "play" or deal.setup.owner(action.seat) != deal.client.me:
            return None
        try:
            return deal.own_play(action)
        except MentalError as exc:
            raise IllegalAction(str(exc), self.seat) from None

    # -- the end of the hand ------------------------------------------------------------------
    def _on_hand_end(self, entry, message):
        if self.deal is None:
            return super()._on_hand_end(entry, message)
        hand, body = self.hand, entry.body
        if self.deal.onlooker:  # a hand this client held no part of: it cannot check the score
            self._need(hand is not None and hand.playing and body["hand"] == self.hand_number, entry,
                       "a hand end while no hand is being played")

            def take():
                self.hand, self._final = hand.ended(body), None
            return take
        self._need(hand is not None and hand.playing and hand.shadow.state.is_over
                   and body["hand"] == self.hand_number and self.deal.verified is not None, entry,
                   "a hand end before the hand was over and the deal verified")
        try:
            final = self.deal.final_state()
        except IllegalAction as exc:
            raise Violation(PLAYER, exc.seat, "illegal-action",
                            f"seat {exc.seat}: {exc.reason} (seen at the reveal)") from None
        self._same_hash(entry, final)
        result = final.result()
        scores = [s + d for s, d in zip(self.scores, result.score)]
        if body["result"] != result_dict(result) or body["scores"] != scores \
                or body["winner"] != self.game.match_winner(scores, result):
            raise Violation(HOST, self.host_seat, "score",
                            f"hand {body['hand']}: the host's result and scores are not the "
                            "verified deal's")

        def commit():
            self.hand, self._final = hand.ended(body), final
        return commit

    def _on_reveal(self, entry, message):
        if self.deal is None:
            return super()._on_reveal(entry, message)
        hand, body = self.hand, entry.body
        self._need(hand is not None and hand.end is not None and not self.round.revealed
                   and body.get("hand") == self.round.hand, entry, "a reveal before the hand ended")

        def commit():
            self.round.revealed = True
            self.scores, self.winner = list(hand.end["scores"]), hand.end["winner"]
            self.hand_number += 1
            self.dealer = (self.dealer + 1) % self.game.num_players
            self.deal = None
            return verified(body, hand, self._final) if self._final is not None else None
        return commit

    # -- privacy -------------------------------------------------------------------------
    def _live_shadow(self):
        """None while this client is a party of the deal: its hand is its own deal client's,
        so there is no hand from the host to learn the spare from (``live.shown_hand``), and
        a view the host sends at all is a ``privacy`` alert (``_check_private``)."""
        if self.deal is not None and not self.deal.onlooker:
            return None
        return super()._live_shadow()

    def _check_private(self, entry, message, shadow, me) -> None:
        if self.deal is not None and self.deal.onlooker:
            return  # this seat's cards are the host's this hand: the host may show them
        if self.deal is not None and message.own is not None:
            raise Violation(HOST, self.host_seat, "privacy", f"entry {entry.seq}: the host sent "
                            "me a private view, which it cannot have under the mental deal")
        super()._check_private(entry, message, shadow, me)

    def _check_public_unchanged(self, entry, message) -> None:
        if self.deal is not None and self.deal.onlooker and entry.kind in (ml.MESSAGE, ml.DEALT):
            return
        if entry.kind == ml.MESSAGE and self.deal is not None and self.deal.partial is not None:
            if not ml.spare_pending(self.deal) and not ml.auditing(self.deal) and message.public is not None and message.public != self.deal.state.public_view():
                raise Violation(HOST, self.host_seat, "state-hash", f"entry {entry.seq}: the "
                                "public state sent is not the hand's")
            return
        if entry.kind != ml.DEALT:
            return super()._check_public_unchanged(entry, message)
        if message.public is not None and message.public != self.deal.state.public_view():
            raise Violation(HOST, self.host_seat, "state-hash", f"entry {entry.seq}: the public "
                            "state sent is not the dealt hand's")


class _NoParty:
    """The identity a replica reads a deal with when it takes no part in it."""

    public_key = b""


_NO_PARTY = _NoParty()

__all__ = ["MentalReplica", "ReplicaHalted"]
