"""One client's hand under the mental-poker deal: what it knows, what it checks, what it
sends — the same for the host's client and a guest's (no I/O).

``PartyHand(game, client, check_ahead)`` joins a client's ``DealClient`` (its party of
the deal) to its replay of the hand on what it knows (``engine.partial.PartialHand``:
its own seats' hands — the host's own and its computer players' —, the spare once the
rules show it to it, every public move). Nobody holds the whole hand; each client, the
host's included, checks every move as far as it can see:

* ``logged(party, envelope)``: a deal record of the log, in order; the envelopes to send.
  Once its party's hands are decrypted the replay starts, and every share batch is
  checked as it comes (``DealClient.catch_up``; with ``check_ahead`` off, when the
  session calls it, or at the first card played from it); a spare opened to everyone,
  or to this party, is learned. A restart (a drop during the shuffle, a hand voided for
  a player gone, a redeal) starts it again, with the seats the restart gives this
  party. A client that is no party (``onlooker``: a watcher, or a player whose cards
  are the host's this hand) replays the public moves, and learns the spare when the rules
  turn it up for everyone (its witness opens it from the parties' logged shares), so its
  public view is exact until the last card, as a party's is.
* ``own_play(action)``: the proof of this party's own played card, which the move
  carries and signs; ``own_move(action)``: the deal's step for its other own moves — a
  bury's or discard's commitment — sent before the move is logged.
* ``check_play(party, play, action)``: the host's check of a party's played card before
  it logs the move (nothing recorded): True if the proof opens the card the move names;
  False if only an audit can settle it (the host logs the proof alone, ``logged_play``,
  and every party reveals); ``MoveRefused`` if it opens another card; ``Cheat`` naming
  the party if it breaks a rule.
* ``check(action)``: the rules' judgement of a move as ``move`` makes it, nothing
  recorded (the host's, before it logs a deal step that goes with the move);
* ``move(action, play, party)``: a move as the log has it (another seat's secret cards
  hidden), with the proof a played card carries (``party``'s; None in a log that
  has it in a ``mental`` entry before the move). A played card must be the one its
  proof opened (``Played``), else ``MoveRefused`` names the seat; the replay takes the
  move (the engine's ``IllegalAction``/``Contradiction`` name a seat for what it can
  see, before anything is recorded); the flows' steps follow (widow, kitty, the end of
  the hand), and their envelopes return.
* ``final_state()`` once every party revealed (``Verified``): the hand replayed on the
  true deal with every secret move opened from its commitment — the end-of-hand check
  of what nobody could see (a revoke: ``IllegalAction`` naming the seat) and the
  result to score; ``until_broken()``: the same up to the move the rules forbid, where
  the forfeit for it ends the hand.
* ``as_logged()``: the hand as the log has it, every logged move replayed on public
  knowledge alone (``held`` records a move this replay held back during an audit): where
  a forfeit for any other cheat ends the hand, the same at every client.

Until the last card the replay's public view is the true one (what was taken included:
tests/engine/test_partial.py), so a host running this signs the same state hashes as
today; the hand's end is scored from ``final_state``.
"""

from __future__ import annotations

from engine import Action, IllegalAction
from engine.partial import PartialHand

from . import flows
from .errors import MentalError
from .outputs import Dealt, Opened, Played, Verified

SECRET = flows.SECRET_LABELS


class MoveRefused(MentalError):
    """A logged move that does not match what the deal proved (names the seat)."""

    def __init__(self, seat: int, detail: str):
        super().__init__(f"seat {seat}: {detail}")
        self.seat, self.detail = seat, detail


class PartyHand:
    def __init__(self, game, client, check_ahead: bool = True):
        self.game, self.client = game, client
        self.check_ahead = check_ahead  # False: the others' batches left to the session
        self._begin()

    def _begin(self) -> None:
        """A deal attempt begins (again, after a drop or a redeal: nothing of the last)."""
        self.attempt = self.client.setup.context.attempt
        self.hands: dict[int, tuple[int, ...]] = {}  # this party's seats as dealt
        self.spare: tuple[int, ...] = ()  # the spare, once known here
        self.partial: PartialHand | None = None
        self.played: dict[int, list[int]] = {}  # seat -> the cards its proofs opened
        self.opened = False  # the spare is face up for everyone
        self.verified: Verified | None = None
        self._steps: list[tuple[Action, bool]] = []  # the moves this replay took
        # Every move the log holds this attempt, in order, those this replay held back
        # during an audit included (``held``): the hand as the log has it (``as_logged``).
        self.logged_moves: list[Action] = []
        if self.onlooker:  # no party of this attempt: the public replay from the start
            self._replay()

    @property
    def onlooker(self) -> bool:
        """This client is no party of the deal (its player was away at the deal, or
        restarted out of it): it follows the public moves only, and its seat's cards are
        the host's party's this hand."""
        return self.client.machine is None

    @property
    def setup(self):
        return self.client.setup

    @property
    def replayed(self) -> PartialHand:
        """The replay, there once this party's hands are dealt (an onlooker's from the
        start): no move, and no state to sign, comes before."""
        if self.partial is None:
            raise RuntimeError("the hand is read before its cards are dealt")
        return self.partial

    @property
    def state(self):
        """The hand as this client replays it (exact in its public view until the end)."""
        return self.replayed.state

    def owed(self) -> list[int] | None:
        """The parties whose deal messages the hand waits for once the cards are dealt (a
        spare's shares, the reveal at its end: ``MentalDeal.owed``); None for a client that
        is no party of the deal (it cannot tell)."""
        machine = self.client.machine
        return None if machine is None else machine.owed()

    # -- the deal's records ----------------------------------------------------------------
    def logged(self, party, envelope: dict) -> list[dict]:
        before = len(self.client.learned)
        sends = self.client.logged(party, envelope)
        if self.client.setup.context.attempt != self.attempt:
            self._begin()  # a restart record: the deal starts again
        sends += self._learn(before)
        if self.partial is not None and self.check_ahead:
            # This party's hand is open: every share batch for the others is checked, and
            # each position's decryption by the others' shares made, as soon as it is
            # logged — before the first card, so that no played card waits for either,
            # and a wrong batch is named at once by every party, not at the end by its
            # recipient alone (the host checks them later: ``HostDeal.check_ahead``).
            self.client.catch_up()
        return sends

    def logged_play(self, party: int, play: dict) -> list[dict]:
        """A played card's proof, logged with its move or alone (``check_play``: one that
        breaks a rule, or that only an audit settles); the envelopes to send."""
        before = len(self.client.learned)
        return self.client.logged_play(party, play) + self._learn(before)

    def _learn(self, before: int) -> list[dict]:
        """What the client learned since ``before`` taken in; the envelopes that follow."""
        sends = []
        for out in self.client.learned[before:]:
            if isinstance(out, Dealt):
                self.hands[out.seat] = out.cards
                if set(self.hands) == set(self.client.seats):
                    self._replay()
                    sends += self._steps_for(flows.at_deal(self.game, self.state))
            elif isinstance(out, Opened) and tuple(out.positions) == tuple(self.setup.spare()):
                self.spare = out.cards
                self.opened = self.opened or out.public
                self._replay()
            elif isinstance(out, Played):
                self.played.setdefault(out.seat, []).append(out.card)
            elif isinstance(out, Verified):
                self.verified = out
        return sends

    def _replay(self) -> None:
        if self.onlooker:  # the public moves, and the spare once it is turned up for everyone
            self.partial = PartialHand(self.game, None, self.setup.dealer, (), self.spare,
                                       tuple(self._steps))
            return
        if set(self.hands) != set(self.client.seats):
            return
        me, *others = sorted(self.hands)
        self.partial = PartialHand(self.game, me, self.setup.dealer, self.hands[me], self.spare,
                                   tuple(self._steps), {s: self.hands[s] for s in others})

    # -- moves -------------------------------------------------------------------------------
    def sealed(self, action: Action) -> bool:
        """Whether a secret move's cards (a bury, a discard) are committed in the deal."""
        machine = self.client.machine
        return machine is not None and machine.has_commitment(action.seat, action.kind)

    def own_play(self, action: Action) -> dict:
        return self.client.play(action.seat, action.value)

    def own_move(self, action: Action) -> list[dict]:
        step = flows.by_player(action)
        return self.client.step(step) if step is not None else []

    def check_play(self, party: int, play: dict, action: Action) -> bool:
        card = self.client.check_play(party, play)
        if card is not None and card != action.value:
            raise self._not_opened(action)
        return card is not None

    def check(self, action: Action) -> None:
        """The rules' judgement of a move, as ``move`` makes it, with nothing recorded: the
        engine's ``IllegalAction``/``Contradiction`` naming the seat."""
        self.replayed.step(action, action.kind in SECRET and action.value is None)

    def move(self, action: Action, play: dict | None = None, party: int | None = None) -> list[dict]:
        """A logged move (a secret one with its cards None unless it is this party's)."""
        hidden = action.kind in SECRET and action.value is None
        stepped = self.replayed.step(action, hidden)
        sends: list[dict] = []
        if play is not None:
            if party is None:
                raise TypeError("a played card's proof is logged with its party")
            sends = self.logged_play(party, play)
        if action.kind == "play" and not self.onlooker:
            proven = self.played.get(action.seat, [])
            count = sum(1 for a, _ in self._steps if a.kind == "play" and a.seat == action.seat)
            if len(proven) <= count or proven[count] != action.value:
                raise self._not_opened(action)
        self.partial = stepped
        self._steps.append((action, hidden))
        self.logged_moves.append(action)
        return sends + self._steps_for(flows.after(self.game, self.state, self.partial.events, self.opened))

    def held(self, action: Action) -> None:
        """A logged move this replay could not take while the deal is being audited (a
        copied card makes an honest player's move look wrong here): the log holds it all
        the same, so it counts where a forfeit ends the hand (``as_logged``)."""
        self.logged_moves.append(action)

    def _not_opened(self, action: Action) -> MoveRefused:
        return MoveRefused(action.seat, f"played {self.game.deck.name(action.value)}, "
                                        "which is not the card its proof opened")

    def _steps_for(self, steps) -> list[dict]:
        sends = []
        for step in steps:
            self.opened = self.opened or isinstance(step, flows.OpenToAll)
            sends += self.client.step(step)
        return sends

    # -- the end of the hand ----------------------------------------------------------------
    def as_logged(self) -> PartialHand:
        """The hand as the log has it, on public knowledge alone: every move logged this
        attempt (``logged_moves``: those this replay held back included), replayed with no
        seat's cards known — every secret move's cards hidden — and the spare only if it is
        face up for everyone. It is the same at every client, whatever that client could
        see and whenever its own messages reached the host, and exact in every public fact
        (the contract, who took which trick): where a forfeit for a cheat proven in the
        deal's messages ends the hand (``forfeits.forfeited_hand``)."""
        steps = tuple((action._replace(value=None), True) if action.kind in SECRET else (action, False)
                      for action in self.logged_moves)
        spare = self.spare if self.opened else ()
        return PartialHand(self.game, None, self.setup.dealer, known_spare=spare, steps=steps)

    def final_state(self):
        """The hand on the verified deal, every secret move opened; None before then."""
        return self._on_verified_deal(stop_at_broken=False)

    def until_broken(self):
        """The hand on the verified deal up to the first move the rules forbid on it (a
        revoke nobody could see live), that move and every one after it left out: where a
        forfeit for it ends the hand. None before every party revealed."""
        return self._on_verified_deal(stop_at_broken=True)

    def _on_verified_deal(self, stop_at_broken: bool):
        if self.verified is None:
            return None
        hands, spare = self.verified.hands, self.verified.spare
        by_position: dict[int, int] = {}  # deck position -> card
        for seat in range(self.setup.num_players):
            by_position.update(zip(self.setup.dealt(seat), hands[seat]))
        by_position.update(zip(self.setup.spare(), spare))
        opened = {}
        for reveal in self.client.reveals.values():
            for opening in reveal["openings"]:
                opened[(opening["seat"], opening["label"])] = \
                    tuple(sorted(by_position[p] for p in opening["positions"]))
        state = self.game.new_hand([list(h) for h in hands], list(spare), self.setup.dealer)
        for action, hidden in self._steps:
            if hidden:
                action = action._replace(value=opened[(action.seat, action.kind)])
            try:
                state.apply(action)
            except IllegalAction as exc:  # what nobody could see live: a revoke
                if stop_at_broken:
                    return state
                raise IllegalAction(exc.reason, action.seat) from None
        return state
