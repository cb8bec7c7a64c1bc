"""One seat's partial knowledge of a hand, replayed: the engine API that bots and network
replicas share (and, for a player who holds several seats' cards — the host's client
with its computer players under the mental-poker deal — the same for all of them).

A seat knows its own cards, the spare cards it has been shown and every public action.
It does not know the other hands, nor the cards inside another seat's secret action (a
Rook bury, a Somerset discard). ``PartialHand`` replays the hand on a *made-up deal*
that fits that knowledge: the seat's own hand as dealt, the spare cards it knows, every
card another seat has played placed in that seat's hand, the rest filled in. So

* everything that follows from public actions and the seat's own cards is exact: the
  phase, whose turn, the trick and who is winning it, what was taken, the seat's own
  legal actions (``bots.knowledge`` and ``net.trust.peer.replica`` rely on it);
* another seat's play is checked only as far as this seat can tell: the card was not
  dealt to this seat nor played before. Whether it had to follow suit depends on cards
  nobody here can see, so any card it holds on the made-up deal is accepted
  (``State.apply_unseen``); the full check waits for the real deal (a replica's reveal);
* another seat's secret action is filled with cards it holds and does not go on to play;
* ``excluded[s]`` collects the cards seat ``s`` has shown it does not hold: before each
  of its plays, would the card have been legal had it also held card c? If not, it did
  not hold c.

``Layout`` is what a title reads off one seat's view (``Game.seat_layout``): the seat's
hand as dealt, the spare cards it knows, and where the unseen cards may be. Bots sample
the unseen cards into those places and put them on a copy of the state with
``State.place_unseen``.

A made-up deal that cannot fit (a seat played a card that was dealt to another, or more
cards than it could hold) raises ``Contradiction``; an action the rules refuse on it
raises ``IllegalAction`` naming the seat.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import SECRET_KINDS, Action
from .cards import cards_of
from .errors import Contradiction, IllegalAction, RecordError


class Seen(NamedTuple):
    """The cards one seat's view shows, as masks."""

    seat: int
    hand: int  # held now
    played_by: tuple  # per seat: the cards it has played this hand
    played: int  # every card played this hand


def hand_of(seat: int) -> str:
    """A seat's hand among the places unseen cards may be (``Layout.forced``)."""
    return f"seat{seat}"


class Layout(NamedTuple):
    """Where one seat knows (or does not know) the cards to be, read off its view."""

    own_original: int  # the seat's hand as dealt
    spare: tuple | None  # the spare cards in deal order, if this seat knows them
    piles: tuple  # hidden piles of unseen cards: ((name, size), ...)
    known_elsewhere: int  # cards seen but neither held nor played (e.g. a shown widow)
    forced: tuple  # ((cards, (places)), ...): seen cards whose place is one of those
    # (a pile's name, or hand_of(seat))
    private: dict  # this seat's own secret actions: {kind: cards}, e.g. {"bury": mask}


def seen_in(game, view: dict) -> Seen:
    """The masks of a seat's view: its hand, and who played what."""
    deck = game.deck
    played_by = [0] * game.num_players
    for trick in view["tricks"]:
        for seat, name in trick["cards"]:
            played_by[seat] |= 1 << deck.parse(name)
    for seat, name in view["trick"]:
        played_by[seat] |= 1 << deck.parse(name)
    played = 0
    for mask in played_by:
        played |= mask
    return Seen(view["seat"], deck.mask_of(view["hand"]), tuple(played_by), played)


def public_step(game, data: dict, secrets: dict | None = None) -> tuple[Action, bool]:
    """A public action record as a step to replay: (Action, hidden). A secret action's
    public form has no cards ({"bury": None, "trump": "G"}); they come from
    ``secrets`` ({kind: mask}: this seat's own secret actions) or, hidden, are filled
    in by the replay."""
    for kind in SECRET_KINDS:
        if kind in data and data[kind] is None:
            extra = data.get("trump")
            if secrets and secrets.get(kind):
                return Action(data["seat"], kind, tuple(cards_of(secrets[kind])), extra), False
            return Action(data["seat"], kind, None, extra), True
    return game.action_from_json(data), False


class PartialHand:
    """One hand as seat ``seat`` knows it (None: a watcher, who holds no cards).

    ``also``: the other seats the same player holds the cards of, with their hands as
    dealt — a client that plays several seats (the host's own and its computer
    players') knows each of their hands, and replays them exactly like ``seat``'s.

    ``events``: the engine's events of the last step (none before any step).

    Immutable in use: ``step`` returns a new PartialHand, so a refused step leaves the
    old one as it was. To learn more of the spare cards, start again with them."""

    def __init__(self, game, seat: int | None, dealer: int, own=frozenset(), known_spare=(),
                 steps: tuple = (), also: dict | None = None):
        self.game, self.seat, self.dealer = game, seat, dealer
        self.own = frozenset(own)  # this seat's hand as dealt
        self.also = {s: frozenset(cards) for s, cards in (also or {}).items()}
        # every seat whose hand as dealt is known here: ``seat``'s and ``also``'s
        self.held = dict(self.also) if seat is None else {**self.also, seat: self.own}
        self.known_spare = tuple(known_spare)  # in deal order where it matters
        self.steps = tuple(steps)  # ((Action, hidden), ...): hidden = cards unknown here
        self.state, self.excluded, self.events = self._replay()

    @classmethod
    def _stepped(cls, old: "PartialHand", steps: tuple, state, excluded: tuple,
                 events: list) -> "PartialHand":
        new = cls.__new__(cls)
        new.game, new.seat, new.dealer = old.game, old.seat, old.dealer
        new.own, new.also, new.held = old.own, old.also, old.held
        new.known_spare, new.steps = old.known_spare, steps
        new.state, new.excluded, new.events = state, excluded, events
        return new

    # -- what is known -------------------------------------------------------------------
    def plays(self) -> list[list[int]]:
        """The cards each seat has played, in order."""
        plays: list[list[int]] = [[] for _ in range(self.game.num_players)]
        for action, _ in self.steps:
            if action.kind == "play":
                plays[action.seat].append(action.value)
        return plays

    # -- moving on -----------------------------------------------------------------------
    def step(self, action: Action, hidden: bool = False) -> "PartialHand":
        """The hand after ``action`` (``hidden``: its cards are unknown here)."""
        steps = self.steps + ((action, hidden),)
        seat = action.seat
        if action.kind == "play" and seat not in self.held and type(action.value) is int \
                and not self.state.hands[seat] >> action.value & 1:
            # The made-up deal gave this card to someone else: trade it to this seat, or
            # else deal again with it here. The same moves replayed make the same public
            # history: keep its encoding.
            state = self._traded(seat, action.value)
            if state is None:
                again = type(self)(self.game, self.seat, self.dealer, self.own, self.known_spare,
                                    steps, self.also)
                again.state.adopt_encoded_history(self.state)
                return again
        else:
            state = self.state.clone()
        excluded = list(self.excluded)
        plays = self.plays()
        played = self.game.deck.mask(card for cards in plays for card in cards)
        events = self._apply(state, excluded, action, hidden, plays[seat], played)
        return self._stepped(self, steps, state, tuple(excluded), events)

    def _traded(self, seat: int, card: int):
        """A copy of the state in which ``seat`` holds ``card``, which the made-up deal
        gave to another seat whose hand is not known here; None if it is anywhere else
        (the spare, a hand known here, a card that moved since the deal). The two seats
        trade it for the highest card ``seat`` still holds from its deal: both cards are
        where that deal put them, so the copy is the same steps replayed on the made-up
        deal with the two swapped — a deal that fits as well — without replaying them."""
        state, bit = self.state, 1 << card
        owner = next((s for s, hand in enumerate(state.hands) if hand & bit), None)
        if owner is None or owner in self.held or card not in state.dealt[owner]:
            return None
        own_dealt = state.hands[seat] & self.game.deck.mask(state.dealt[seat])
        if not own_dealt:
            return None
        given = own_dealt.bit_length() - 1
        swap = bit | 1 << given
        traded = state.clone()
        traded.place_unseen({seat: state.hands[seat] ^ swap, owner: state.hands[owner] ^ swap}, {})
        trade = {card: given, given: card}
        traded.dealt = tuple(tuple(trade.get(c, c) for c in hand) if s in (seat, owner) else hand
                             for s, hand in enumerate(state.dealt))
        return traded

    # -- the replay ----------------------------------------------------------------------
    def _replay(self):
        state = self._made_up_deal()
        excluded = [0] * self.game.num_players
        plays = self.plays()
        played = 0  # the cards played before each step
        events: list[dict] = []
        for action, hidden in self.steps:
            events = self._apply(state, excluded, action, hidden, plays[action.seat], played)
            if action.kind == "play":
                played |= 1 << action.value
        return state, tuple(excluded), events

    def _made_up_deal(self):
        """A deal that fits: the hands known here as dealt, the known spare cards, each
        other seat's plays in its hand, and the remaining cards (highest first) filling
        the other hands and then the spare."""
        game, held, plays = self.game, self.held, self.plays()
        name = game.deck.name
        spare = list(self.known_spare)
        mine = set().union(*held.values()) if held else set()
        used = mine | set(spare)
        hands: list[list[int]] = [[] for _ in range(game.num_players)]
        for seat in range(game.num_players):
            if seat in held:
                hands[seat] = sorted(held[seat])
                continue
            for card in plays[seat]:
                if card in mine or (card in used and card not in spare):
                    raise Contradiction(f"seat {seat} played {name(card)}, which it cannot hold", seat)
                used.add(card)
            if len(plays[seat]) > game.hand_size + game.spare_size:
                raise Contradiction(f"seat {seat} played too many cards", seat)
            # Known spare cards it played reach its hand through the rules (a widow taken).
            hands[seat] = [card for card in plays[seat] if card not in spare]
        pool = [c for c in range(game.deck.size) if c not in used]
        # A seat that took spare cards can play more than it was dealt: the rest of
        # its plays go to the spare.
        for seat in range(game.num_players):
            if seat in held:
                continue
            spare += hands[seat][game.hand_size:]
            hands[seat] = hands[seat][:game.hand_size]
            while len(hands[seat]) < game.hand_size:
                hands[seat].append(pool.pop())
        while len(spare) < game.spare_size:
            spare.append(pool.pop())
        try:
            return game.new_hand(hands, spare, self.dealer)
        except RecordError as exc:
            raise Contradiction(f"no deal fits the play so far: {exc}") from None

    def _apply(self, state, excluded: list, action: Action, hidden: bool, plays: list[int],
               played: int) -> list[dict]:
        """Apply one step: ``plays`` are the cards its seat plays in this replay,
        ``played`` every card played before it. The engine's events."""
        seat = action.seat
        try:
            if hidden:
                action = action._replace(value=self._fill(state, seat, plays))
            if action.kind == "play" and seat not in self.held:
                if type(action.value) is int and 0 <= action.value < self.game.deck.size:
                    excluded[seat] |= self._shown_lacking(state, seat, action.value,
                                                          played | excluded[seat])
                return state.apply_unseen(action)
            return state.apply(action)
        except IllegalAction as exc:
            raise IllegalAction(exc.reason, seat) from None

    def _fill(self, state, seat: int, plays: list[int]) -> tuple:
        """Cards for another seat's secret bury or discard: ones it holds and does not
        play (the highest), as many as it holds beyond a hand."""
        held = [c for c in cards_of(state.hands[seat]) if c not in plays]
        count = state.hands[seat].bit_count() - self.game.hand_size
        if count <= 0:
            count = self.game.spare_size
        return tuple(sorted(held[-count:])) if len(held) >= count else tuple(held)

    def _shown_lacking(self, state, seat: int, card: int, settled: int) -> int:
        """The cards ``seat`` cannot hold, since holding them would have made ``card``
        illegal now (``settled``: cards not worth asking about). Legality only grows
        with fewer cards, so one test with every candidate at once settles the common
        case (the seat followed suit)."""
        bit = 1 << card
        mine = 0
        for held in self.held:
            mine |= state.hands[held]
        candidates = self.game.deck.full_mask & ~mine & ~settled & ~bit
        if not candidates or state.legal_if_held(seat, bit | candidates) & bit:
            return 0
        lacking = 0
        for other in cards_of(candidates):
            if not state.legal_if_held(seat, bit | 1 << other) & bit:
                lacking |= 1 << other
        return lacking
