"""The mental-poker deal as a peer checks it: one party of the deal, and its replay.

``MentalPeer`` is this client's part of a hand dealt by the mental deal (its own
``DealClient``, with secrets derived from this identity key, so a restarted guest reads
the log again and goes on; ``hand.PartyHand`` replays the hand on what it knows):

* ``mental-deal`` (``opening``): the parties must be the table's — the host's client
  holds its own seat, its computer players' and only the seats of players away at the
  deal — and the attempt a fresh one, else a ``deal`` Violation names the host;
* ``mental``: each message goes to the deal client, which checks its party's signature
  (else the host forged it) and its proofs (else a ``Cheat`` names the party: a
  duplicated card in a shuffle, a wrong decryption share, …; the host's own party's is
  the host's cheat, which stops this replica at once, by the rule it broke); what the
  client sends in answer goes to the host as ``{"type": "mental"}`` messages (``sends``);
* ``mental-dealt`` and each ``action``: the hand replayed on what this seat knows must
  make the signed state hash; a played card's proof, signed inside its move, is checked
  (a card from another seat's position is named at once) and the card must be the one
  it opened; a ``mental`` entry with a ``played`` move is such a proof the host logged
  alone (it broke a rule, or only an audit settles it), checked as the move would be;
* ``mental-restart``: the next attempt with exactly the parties left
  (``sequencer.restart_problem``), a redeal only after a proven claim, a party dropped
  only with its seats away and once it has held the deal up for the deadline on this
  peer's own clock — gone that long, or owing a message (a key share, shuffle or shares
  before play; a spare's shares or its reveal after) while the hand did not move
  (``restarts``); a move this replay refuses
  while the deal is audited waits for the audit's verdict, which names the cheat;
* a hand this client is no party of (its player away at the deal, or restarted out of
  it; a watcher's every hand): the public moves, and the spare when the rules turn it up
  for everyone, learned by its witness (``PartyHand.onlooker``) — so every public view
  and state hash is checked as a party checks it; its seat's view (if it has a seat) is
  the host's. What a party and an onlooker do differently is their role
  (``roles.Seated``, ``roles.Onlooker``), chosen when the deal opens and again at each
  restart (one may drop this client's party).
  It follows the deal as a witness (``client.DealClient``): once every party has
  revealed, the hand replayed on the whole deal that gives the host's result and scores
  is reported verified, with its record (for the summary's buried cards and scoring);
  one that does not, or cannot be replayed, is not — and not this client's to name (the
  parties do);
* ``hand_end``: only once every party revealed (``Verified``: the shuffles and every
  share checked), the hand replayed on the verified deal with every bury and discard
  opened must give the host's result, scores and state hash;
* a player's proven cheat — a deal message this client's checks refuse (``Cheat``), or
  a move the rules forbid on the revealed deal (a revoke nobody could see live) — does
  not stop the table: the attempt is over from there (its later deal messages are taken
  unread, no move may be logged on it), and the host must end the hand with a
  ``hand_end`` that forfeits it for the same party (``forfeit``: ``log.Verdict``), its
  result and scores the engine's forfeit (``forfeits``), which this client then names
  to its person (``PeerTable.name``: an alert that does not halt); the next hand is
  dealt as usual. (Before protocol 8 such a cheat restarted the deal, "cheat": a log
  caught up in a sync may hold one, read as it was, if its table entry does not say a
  later protocol; one received live, or in a later log, names the host.)

This seat's hand comes from its deal client, never from the host: the host sends no
private view under the mental deal (``check_private``), and its view is this part's own
(``own_view``).
"""

from __future__ import annotations

from collections.abc import Callable

from engine import Contradiction, IllegalAction, RecordError
from engine.partial import public_step

from net.trust.alerts import HOST, PLAYER, Violation
from net.trust.deals.mental import forfeits
from net.trust.deals.mental import log as ml
from net.trust.deals.mental.client import DealClient
from net.trust.deals.mental.errors import Cheat, MentalError
from net.trust.deals.mental.group import GROUP_NAME
from net.trust.deals.mental.hand import MoveRefused, PartyHand
from net.trust.deals.mental.log import Verdict
from net.trust.deals.mental.restarts import EndedHand, RestartRefused, RestartWatch, allowed, locked_away
from net.trust.deals.mental.roles import Onlooker, Seated, host_violation, role_for
from net.trust.deals.mental.sequencer import Progress, parties_for, restart_problem
from net.trust.deals.peer import PeerDeal, PeerTable, check_unchanged
from net.trust.deals.seeded.reveal import verified
from net.trust.entries import (ActionEntryBody, EntryBody, HandEndBody, MentalBody, MentalDealBody,
                               MentalDealtBody, MentalRestartBody, RevealBody, TableBody)
from net.trust.moves import ActionBody, Binding, logged_move
from net.trust.replay.live import CORE
from net.trust.replay.shadow import CheckedHand, Shadow, Step
from net.wire import messages as m

HAND_END, REVEAL = "hand_end", "reveal"
HOSTS_PARTY = 0  # the deal's first party is always the host's client (``parties_for``)
FORFEIT_PROTOCOL = 8  # a player's proven cheat forfeits the hand (before: a "cheat" restart)


class MentalPeer(PeerDeal):
    OPENS = ml.DEAL
    PRIVATE = True
    KINDS = (ml.MESSAGE, ml.RESTART, ml.DEALT, HAND_END, REVEAL)
    SELF_CHECKED = ("action",)
    round: ml.MentalRound
    hand: CheckedHand

    @classmethod
    def opening(cls, t: PeerTable, entry, message) -> "MentalPeer":
        body, host_seat = entry.body_as(MentalDealBody), t.host_seat()
        seats = {s: i.key for s, i in t.seats().items() if i.key is not None}
        fair = ml.parties_body(parties_for(t.host_key(), seats, frozenset(t.seats().away())))
        if body.parties != fair:
            raise Violation(HOST, host_seat, "deal", f"the deal for hand {body.hand} gives the "
                            "seats to other parties than the table's players")
        if body.attempt != ml.fresh_attempt(t.log(), body.hand):
            raise Violation(HOST, host_seat, "deal", f"the deal for hand {body.hand} reuses the "
                            "secrets of an earlier deal at this table (its attempt is not a fresh one)")
        if body.group != GROUP_NAME:
            raise Violation(HOST, host_seat, "deal", f"the deal for hand {body.hand} is over "
                            f"{body.group}, not {GROUP_NAME}, the private deal's group")
        if not body.proven and ml.dealt_proven(t.log()):
            raise Violation(HOST, host_seat, "deal", f"the deal for hand {body.hand} comes without "
                            "shuffle proofs, which this table's deals have had")
        return cls(t, entry)

    def __init__(self, t: PeerTable, entry):
        body = entry.body_as(MentalDealBody)
        self.t = t
        setup = ml.setup_for(t.game(), t.table, body)
        # A departed host back as a guest reads the deals it made as the host as an
        # onlooker (as under the seeded deal): it signed them, and its own secret moves'
        # cards are in its host log, not here.
        me = _NO_PARTY if setup.parties[0].key == t.key else t.identity
        self.party = PartyHand(t.game(), DealClient(me, setup))
        self.role: Seated | Onlooker = role_for(t, self.party)  # chosen again at each restart
        self.round = ml.MentalRound(body.hand, body.dealer)
        self.hand = CheckedHand(entry.seq)
        self.progress = Progress(len(setup.parties))  # who has sent what in this attempt
        self.restarts = RestartWatch(t.deadline, t.slack)
        self.restarts.deal_moved(t.arrived(), t.live())
        self._final = None  # the hand on the verified deal (or forfeited), from hand_end to the reveal
        self._forfeit: bool | None = None  # a forfeit checked: whether on the true deal
        self._held: Violation | None = None  # a move refused during an audit (``_unless_audited``)
        self.cheat: Verdict | None = None  # a party this client proved broke a rule, this attempt
        self._sends: list[dict] = self.party.client.start()  # deal messages for the host

    @property
    def setup(self):
        return self.party.setup

    @property
    def held_by_host(self) -> bool:
        """This client is no party of the deal: its seat's cards are the host's this hand."""
        return isinstance(self.role, Onlooker)

    def check(self, entry, message):
        body = entry.content
        return self._CHECKS[type(body)](self, body, entry, message)

    def _violation(self, rule: str, entry, detail: str) -> Violation:
        return host_violation(self.t, rule, entry, detail)

    # -- the deal ----------------------------------------------------------------------------
    def _on_mental(self, body: MentalBody, entry, message):
        party = body.party
        self.t.need(0 <= party < len(self.setup.parties), entry, "a deal message with no deal")
        if self.cheat is not None:
            return None  # the attempt is void: its messages are taken unread until the restart
        played, signed = body.played, body.signed
        if played is not None:
            return self._on_played_alone(entry, party, played)
        assert signed is not None  # one of the two (``MentalBody.problem``)
        sends, found = self._deal_step(lambda: self.party.logged(party, signed), entry)  # (its batches checked)
        if self._held is not None and self.party.verified is not None and found is None:
            raise self._held  # the audit found no cheat: the move was wrong after all

        def commit():
            self.progress.follow(party, signed["body"])
            self.restarts.deal_moved(self.t.arrived(), self.t.live())
            self._sends.extend(sends)
            self.cheat = found
        return commit

    def _on_played_alone(self, entry, party: int, signed: dict):
        """A played card's proof the host logged without its move (it breaks a rule of the
        deal, or only an audit settles it): the move as its player signed and bound it."""
        t, hand = self.t, self.hand
        t.need(hand.playing and not hand.over, entry,
               "a played card while no hand is being played")
        body = logged_move(entry, signed, t.seats(), t.host_seat(), self.binding(entry))
        t.need(body.mental is not None and "play" in body.action
               and self.setup.parties[party].key == t.seats()[body.seat].key, entry,
               "a played card's proof that is not its party's")
        assert body.mental is not None  # (the need above)
        sends, found = self._deal_step(lambda: self.party.logged_play(party, body.mental), entry)

        def commit():
            self._sends.extend(sends)
            self.cheat = found
            self.restarts.deal_moved(self.t.arrived(), self.t.live())
        return commit

    def _on_mental_restart(self, body: MentalRestartBody, entry, message):
        self.t.need(self.hand.end is None, entry, "a restart with no deal")
        record, setup = body.record, self.setup
        problem = restart_problem(setup, record)
        if problem:
            raise self._violation("deal", entry, problem)
        awaited = self.party.owed() if self.hand.dealt else self.progress.awaited()
        facts = EndedHand(self.party, self.hand.dealt, awaited, self.cheat, self.t.seats(),
                     self.restarts, self.t.clock())
        if record["reason"] == "cheat" and (self.t.live() or not self._may_hold_old_rulings()):
            raise self._violation("deal", entry, "the host dealt the hand again for a player's "
                                  "proven cheat, which forfeits the hand (protocol 8)")
        try:
            verdict = allowed(body, record, setup, facts)
        except RestartRefused as exc:
            raise self._violation("deal", entry, str(exc)) from None
        self.role.check_withheld(record, entry, self.hand.commit_seq)
        sends, _ = self._deal_step(lambda: self.party.logged(None, record), entry)
        silent = self.restarts.silent(record, setup, self.t.clock())

        def commit():  # the deal again; whatever was bid on the last one is void
            if verdict is not None:  # a player's cheat, proven here too: named, and the table goes on
                self.t.name(Violation(PLAYER, verdict.seat, verdict.rule,
                                      f"entry {entry.seq}: {verdict.detail} — the hand is void and "
                                      "dealt again, that player's cards dealt by the host"))
            self.cheat, self._held = None, None
            if silent:
                self.restarts.silenced.add(entry.seq)
            self.progress = Progress(len(record["parties"]))
            self.restarts.deal_moved(self.t.arrived(), self.t.live())
            self.round.dealt = False
            self.hand = CheckedHand(entry.seq)
            self.role = role_for(self.t, self.party)  # a restart may have dropped this party
            self._sends.extend(sends)
        return commit

    def _may_hold_old_rulings(self) -> bool:
        """Whether this table's log may be older than the forfeit ruling (protocol 8): its
        table entry does not say a later protocol (``TableBody.version``). Only such a
        log, caught up in a sync, may hold a restart for a player's cheat."""
        log = self.t.log()
        return not log or log[0].entry.body_as(TableBody).opened_before(FORFEIT_PROTOCOL)

    def _on_mental_dealt(self, body: MentalDealtBody, entry, message):
        if self.cheat is not None:
            return None  # a void attempt (the host has not checked what this client did yet)
        self.t.need(not self.hand.dealt and self.party.partial is not None, entry,
                    "play begins before the cards are dealt")
        self._same_hash(entry, self.party.state)
        shadow = self._shadow()

        def commit():
            self.round.dealt = True
            self.hand = self.hand.with_deal(entry.seq, entry.state_hash, shadow, [])
            self.restarts.deal_moved(self.t.arrived(), self.t.live())
        return commit

    def _deal_step(self, step, entry) -> tuple[list[dict], Verdict | None]:
        """A step of this seat's deal client: what it sends, and the verdict on a player's
        party it proves broke a rule (the table goes on); anything else it refuses — a
        forged or malformed message the host logged — as a Violation naming the host. A
        rule broken by the host's own party (the first: its client's) is the host's
        cheat, named at once by the rule it broke: the host would have to forfeit the hand
        against itself, and waiting for that would leave this client waiting for ever."""
        try:
            return step(), None
        except Cheat as exc:
            if exc.party == HOSTS_PARTY:
                raise Violation(HOST, self.t.host_seat(), exc.rule, f"entry {entry.seq}: the host's "
                                f"client broke the deal's rule '{exc.rule}': {exc.detail}") from None
            return [], Verdict.of(exc)
        except MentalError as exc:
            raise self._deal_violation(exc, entry) from None

    def _deal_violation(self, exc: MentalError, entry) -> Violation:
        """Who the deal client's error blames: a party's proven cheat names its player;
        anything else (a forged or malformed message) the host, which logged it."""
        if isinstance(exc, Cheat):
            seats = exc.seats or (None,)
            return Violation(PLAYER, seats[0], "deal", f"entry {entry.seq}: {exc}")
        return self._violation("deal", entry, str(exc))

    def _shadow(self) -> Shadow:
        party, me = self.party, self.role.seat
        mine = frozenset(party.hands.get(me, ())) if me is not None else frozenset()
        return Shadow(self.t.game(), me, party.setup.dealer, mine, frozenset(party.spare),
                      hand=party.partial)

    def _witnessing(self) -> bool:
        """Whether this client's replay of the public view is exact: a party's always; an
        onlooker's (a watcher, a player whose cards are the host's this hand) while its
        witness follows the deal, which opens the spare the rules turn up for everyone.
        (A witness that met a message it could not take stopped: the parties judge it,
        and this client checks no more of the hand's public state than its signatures.)"""
        return self.role.witnessing()

    def _same_public(self, entry, public: dict | None) -> None:
        """The public view the host sent with a move is this client's replay's: all of it
        while the move signs the state, the fields that follow from the public moves alone
        (``live.CORE``) at the hand's last card (its score waits for the verified deal).
        A party shows its own replay, but a watcher shows this view: it is checked here."""
        party = self.party
        if public is None or not self._witnessing() or ml.spare_pending(party):
            return
        mine = party.state.public_view()
        fields = CORE if party.state.is_over else tuple(set(mine) | set(public))
        wrong = sorted(k for k in fields if mine.get(k) != public.get(k))
        if wrong:
            raise self._violation("state-hash", entry, "the public state sent is not the hand's "
                                  f"(it differs in {', '.join(wrong)})")

    def _same_hash(self, entry, state) -> None:
        if not self._witnessing():
            return
        if entry.state_hash != state.state_hash():
            raise self._violation("state-hash", entry, "the signed state hash is not the hand's public state")

    # -- moves -------------------------------------------------------------------------------
    def _on_action(self, logged: ActionEntryBody, entry, message):
        t, hand, party = self.t, self.hand, self.party
        t.need(self.cheat is None, entry, f"a move logged on a deal proven broken ({self.cheat})")
        t.need(hand.playing and not hand.over, entry,
               "an action while no hand is being played")
        body = logged_move(entry, logged.signed, t.seats(), t.host_seat(), self.binding(entry))
        action, _ = self._logged(body, entry)
        owner = self.setup.owner(action.seat)
        self.role.check_sealed(body, action, entry)
        if body.mental is not None:
            t.need(action.kind == "play" and self.setup.parties[owner].key == t.seats()[action.seat].key,
                   entry, "a deal proof with a move that is no card played by the client holding it")
        try:
            sends = party.move(action, body.mental, owner)
        except MoveRefused as exc:
            return self._unless_audited(Violation(PLAYER, exc.seat, "illegal-action",
                                                  f"entry {entry.seq}: {exc} (the host accepted it)"),
                                        entry, body, owner, action)
        except (IllegalAction, Contradiction) as exc:
            return self._unless_audited(Violation(
                PLAYER, exc.seat, "illegal-action",
                f"entry {entry.seq}: seat {exc.seat}: {exc.reason} (the host accepted it)"),
                entry, body, owner, action)
        except MentalError as exc:
            raise self._deal_violation(exc, entry) from None
        if ml.signs_state(party):
            self._same_hash(entry, party.state)
        else:
            self.role.check_unsigned(entry)
        self._same_public(entry, message.public)
        shadow, step = self._shadow(), Step(entry.seq, body, entry.state_hash)
        self.check_private(t.game(), entry, message, shadow, t.seat(), t.host_seat())

        def commit():
            self.hand = hand.with_step(step, shadow, [])
            self._sends.extend(sends)
            self.restarts.deal_moved(self.t.arrived(), self.t.live())
        return commit

    def binding(self, entry):
        """What a move logged in ``entry`` must be bound to, by seat (``moves.Binding``)."""
        hand, log = self.hand, self.t.log()
        return lambda seat: Binding(self.t.table, self.round.hand, hand.deal_seq,
                                    hand.last_action(seat), entry.seq, log.hash_at)

    def _unless_audited(self, violation: Violation, entry, body: ActionBody, party: int, action):
        """A move this replay refuses while the deal is being audited (a card seen twice:
        a duplicated card makes its honest player's move look wrong here) is held back,
        not blamed on its player: the audit's verdict names the cheat. Only if every
        party's secrets then check out is the move's player named (``_on_mental``). The
        proof the move carries is taken first: it may be what shows the card twice. The
        move (``action``, as logged) is the log's all the same: where a forfeit ends the
        hand counts it."""
        sends: list[dict] = []
        if body.mental is not None and not ml.auditing(self.party):
            sends, found = self._deal_step(lambda: self.party.logged_play(party, body.mental), entry)
            if found is not None:
                raise self._deal_violation(self.party.client.machine.failed, entry)
        if not ml.auditing(self.party):
            raise violation

        def hold():
            self._held = self._held or violation
            self._sends.extend(sends)
            self.party.held(action)
        return hold

    def _logged(self, body: ActionBody, entry):
        """The move as this seat replays it: a secret one's cards only if it is its own."""
        secrets = None
        if body.hidden is not None and body.seat == self.t.seat():
            kind = next((k for k, v in body.action.items() if v is None), None)
            machine = self.party.client.machine  # its commitment, logged just before
            cards = machine.committed(body.seat, kind) if machine is not None else None
            if cards is not None:
                secrets = {kind: self.t.game().deck.mask(cards)}
        try:
            return public_step(self.t.game(), body.action, secrets)
        except (RecordError, TypeError, ValueError, KeyError) as exc:
            raise Violation(PLAYER, body.seat, "illegal-action",
                            f"entry {entry.seq}: seat {body.seat}'s action cannot be read ({exc})") from None

    # -- this seat's moves ----------------------------------------------------------------------
    def may_decide(self, seat: int | None) -> None:
        self.role.may_decide(seat)
        super().may_decide(seat)

    def act(self, parsed, message: dict) -> dict:
        """A move of this seat carries its deal step (a bury's commitment) and no private
        part (its cards stay with this client); a played card's proof is inside the move."""
        return self.role.act(parsed, message)

    def play_proof(self, action) -> dict | None:
        """The proof of this seat's played card, signed with its move: only by the client
        that holds the seat's cards in this deal."""
        if action.kind != "play" or self.setup.owner(action.seat) != self.party.client.me:
            return None
        try:
            return self.party.own_play(action)
        except MentalError as exc:
            raise IllegalAction(str(exc), action.seat) from None

    def sends(self) -> list[dict]:
        sends, self._sends = self._sends, []
        return [{"type": m.MENTAL, "signed": e} for e in sends]

    def own_view(self, seat: int | None) -> dict | None:
        """This seat's view from its own replay (the host sends none under the mental deal)."""
        hand = self.hand
        if self.held_by_host or seat is None or not hand.playing:
            return None  # an onlooker's cards are the host's this hand: its view is the host's
        if hand.dealt_shadow.hand is not self.party.partial:  # the spare learned since the move
            self.hand = hand.with_shadow(self._shadow())
        view = self.party.state.view(seat)
        if ml.spare_pending(self.party) or ml.spare_coming(self.party, seat):
            view["to_act"] = []  # nothing to decide until the spare is up
        return view

    # -- the end of the hand ------------------------------------------------------------------
    def _on_hand_end(self, body: HandEndBody, entry, message):
        if body.forfeit is not None:
            return self._on_forfeit(body, entry)
        hand = self.hand
        final = self.role.hand_end(body, entry, hand, self.round.hand, self.cheat)

        def commit():
            self.hand, self._final = hand.ended(body), final
        return commit

    def _on_forfeit(self, body: HandEndBody, entry):
        """The host ended the hand for a player's proven cheat (``forfeits``): a party
        proves the same verdict itself (``roles.Seated.forfeit``); a client no party of
        the deal takes the host's word, as it takes any hand's score."""
        t, hand = self.t, self.hand
        t.need(hand.end is None and body.hand == self.round.hand, entry,
               "a forfeit while no hand is under way")
        t.need(entry.state_hash is None, entry, "a forfeited hand's end signs no state hash")
        assert body.forfeit is not None  # (the caller's test)
        forfeit = self.role.forfeit(body, entry, self.cheat, hand.dealt)

        def commit():  # named to this client's person; the table goes on to the next hand
            if forfeit.verdict is not None:
                t.name(Violation(PLAYER, forfeit.verdict.seat, forfeit.verdict.rule,
                                 f"entry {entry.seq}: {forfeit.verdict.detail} — that player's side "
                                 "forfeits the hand; it is not dealt again"))
            self.hand, self._final, self._forfeit = hand.ended(body), forfeit.final, forfeit.true_deal
        return commit

    def _on_reveal(self, body: RevealBody, entry, message):
        hand = self.hand
        self.t.need(hand.end is not None and not self.round.revealed
                    and body.hand == self.round.hand, entry, "a reveal before the hand ended")

        def commit():
            assert hand.end is not None  # (the need above)
            self.round.revealed = True
            self.t.close_hand(list(hand.end.scores), hand.end.winner)
            if self._final is None:
                return None
            if self._forfeit is not None:  # a forfeit this client checked
                return forfeits.report(body, hand.end, self._final, self._forfeit)
            return verified(body, hand, self._final)
        return commit

    #: This deal's entries, by their body's class: each one's check.
    _CHECKS: dict[type[EntryBody], Callable] = {
        MentalBody: _on_mental, MentalRestartBody: _on_mental_restart,
        MentalDealtBody: _on_mental_dealt, ActionEntryBody: _on_action,
        HandEndBody: _on_hand_end, RevealBody: _on_reveal}

    # -- what the host sends with the entries -----------------------------------------------------
    def live_shadow(self):
        """None while this client is a party of the deal: its hand is its own deal client's,
        so there is no hand from the host to learn the spare from (``live.shown_hand``), and
        a view the host sends at all is a ``privacy`` alert (``check_private``)."""
        return self.role.shown(super().live_shadow())

    def check_private(self, game, entry, message, shadow, me, host_seat) -> None:
        """None under the mental deal, but to an onlooker with a seat (``roles``)."""
        self.role.check_private(game, entry, message, shadow, me, self.hand.playing, host_seat)

    def check_public(self, entry, message, public, host_seat) -> None:
        if entry.kind not in (ml.MESSAGE, ml.DEALT):
            return super().check_public(entry, message, public, host_seat)
        if not self._witnessing():
            return None
        if entry.kind == ml.DEALT:
            return self._check_dealt_public(entry, message, host_seat)
        if self.party.partial is not None and (self.hand.dealt or self.role.checks_public_before_play):
            return self._check_message_public(entry, message, host_seat)
        return check_unchanged(entry, message, public, host_seat)  # (no replay of it yet)

    def _check_message_public(self, entry, message, host_seat) -> None:
        """A deal message changes no public state but the spare's: none may be sent while
        the spare is being turned up, and one sent must be this replay's."""
        party = self.party
        if ml.spare_pending(party) and message.public is not None:
            raise Violation(HOST, host_seat, "privacy", f"entry {entry.seq}: the host sent a "
                            "public view while the spare is being turned up (nobody knows it yet)")
        if not ml.spare_pending(party) and not ml.auditing(party) and message.public is not None \
                and message.public != party.state.public_view():
            raise Violation(HOST, host_seat, "state-hash", f"entry {entry.seq}: the "
                            "public state sent is not the hand's")

    def _check_dealt_public(self, entry, message, host_seat) -> None:
        if self.cheat is not None:
            return  # (a void attempt, its dealt entry taken unread: this seat may hold no hand)
        if message.public is not None and message.public != self.party.state.public_view():
            raise Violation(HOST, host_seat, "state-hash", f"entry {entry.seq}: the public "
                            "state sent is not the dealt hand's")

    # -- the deal's deadlines ---------------------------------------------------------------------
    def on_dropped(self, seat: int) -> None:
        self.restarts.dropped(seat, self.t.arrived(), self.t.live())

    def rejoined(self, seat: int) -> None:
        self.restarts.rejoined(seat)

    def dealt_to_own_client(self, seat: int) -> bool:
        return self.hand.end is None and any(
            seat in party.seats for party in self.setup.parties[HOSTS_PARTY + 1:])

    def waits_for(self, seat: int) -> bool:
        return self.hand.end is None and not self.round.revealed and self.cheat is None \
            and locked_away(self.setup, self.t.seats(), seat)

    def restarted_silent(self, seq: int) -> bool:
        return seq in self.restarts.silenced


class _NoParty:
    """The identity a replica reads a deal with when it takes no part in it."""

    public_key = b""


_NO_PARTY = _NoParty()
