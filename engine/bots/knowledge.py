"""What one seat knows, rebuilt from its view alone, and deals consistent with it.

A bot is handed a seat's view (``State.view(seat)``: plain names and numbers) and
nothing else. ``Knowledge(game, view)`` turns it back into engine terms:

* ``state``: a State at the current moment of the hand, rebuilt by dealing the seat's
  own original cards (and whatever public spare cards it saw) plus filler for the rest,
  then replaying the public action history. Before each play by another seat, that
  seat's hand is set to just the card it played, so the replay never depends on the
  filler. Afterwards the other seats hold nothing: ``determinize`` fills them in.
  Everything that depends only on public information and the seat's own hand — its
  legal actions, the trick, who won what — is exact in this state.
* ``excluded[s]``: cards seat ``s`` cannot hold, learned from its plays. The test is
  the engine's own legality rule: before each play, would the card played still have
  been legal had the seat also held card c? If not, the seat did not hold c.
* ``sinks``: every place an unseen card may be — the other seats' hands and the hidden
  spare piles (Rook's widow before it is shown and another bidder's bury, Somerset's
  kitty or another bidder's discards, Horseshoes' face-down left-over card).

``determinize(rng)`` samples one full layout of the unseen cards that respects those
counts and exclusions, and returns a State where every card is placed: the input of
perfect-information search. Nothing here looks at any state but the one it rebuilt.
"""

from __future__ import annotations

from typing import NamedTuple

from ..actions import Action
from ..cards import cards_of

ROOK_BURY = 5
TRUMPLESS = ("NT", None)


class Sink(NamedTuple):
    """A place unseen cards may be: a seat's hand (seat set) or a hidden pile."""

    name: str
    seat: int | None
    size: int


class Knowledge:
    def __init__(self, game, view: dict):
        self.game = game
        self.view = view
        self.deck = deck = game.deck
        self.seat = view["seat"]
        self.n = game.num_players
        self.hand = self._mask(view["hand"])
        self.phase = view["phase"]
        self.played_by = [0] * self.n
        for trick in view["tricks"]:
            for seat, name in trick["cards"]:
                self.played_by[seat] |= 1 << deck.parse(name)
        for seat, name in view["trick"]:
            self.played_by[seat] |= 1 << deck.parse(name)
        self.played = 0
        for mask in self.played_by:
            self.played |= mask
        self.excluded = [0] * self.n
        layout = _LAYOUTS[game.id](self)
        self.private = layout.private  # what this seat alone knows of the spare cards
        self.state = self._replay(layout)
        self._plan_sinks(layout)

    # -- small helpers ---------------------------------------------------------------
    def _mask(self, names) -> int:
        return self.deck.mask(self.deck.parse(n) for n in names or ())

    def unseen(self) -> int:
        """Cards whose place this seat does not know."""
        return self.deck.full_mask & ~self.hand & ~self.played & ~self.known_elsewhere

    # -- the replay ------------------------------------------------------------------
    def _replay(self, layout: "Layout"):
        game, seat = self.game, self.seat
        hands = [[] for _ in range(self.n)]
        hands[seat] = cards_of(layout.own_original)
        spare = list(layout.spare) if layout.spare is not None else None
        taken = layout.own_original | self.deck.mask(spare or ())
        filler = [c for c in range(self.deck.size) if not taken >> c & 1]
        if spare is None:
            spare, filler = filler[:game.spare_size], filler[game.spare_size:]
        for other in range(self.n):
            if other != seat:
                hands[other], filler = filler[:game.hand_size], filler[game.hand_size:]
        state = game.new_hand(hands, spare, self.view["dealer"])
        for data in self.view["actions"]:
            self._replay_one(state, data)
        for other in range(self.n):
            if other != seat:
                state.hands[other] = 0
        return state

    def _replay_one(self, state, data: dict) -> None:
        seat = data["seat"]
        # The public history hides what was buried or discarded: this seat's own
        # choice it knows; for another seat any cards it held will do (the hidden
        # piles are sampled afterwards).
        if data.get("bury", 0) is None:
            cards = self._hidden_choice(state, seat, "buried", ROOK_BURY)
            action = Action(seat, "bury", cards, data.get("trump"))
        elif data.get("discard", 0) is None:
            action = Action(seat, "discard", self._hidden_choice(state, seat, "discards", 2))
        else:
            action = self.game.action_from_json(data)
        if action.kind == "play" and seat != self.seat:
            self._learn_from_play(state, seat, action.value)
            state.hands[seat] = 1 << action.value
        state.apply(action)

    def _hidden_choice(self, state, seat: int, name: str, size: int) -> tuple:
        if seat == self.seat and self.private.get(name):
            return tuple(cards_of(self.private[name]))
        return tuple(cards_of(state.hands[seat])[:size])

    def _learn_from_play(self, state, seat: int, card: int) -> None:
        """Exclude every card whose presence in ``seat``'s hand would have made
        ``card`` illegal. Legality only grows with fewer cards, so one test with all
        candidates at once settles the common case (the seat followed suit)."""
        bit = 1 << card
        candidates = self.deck.full_mask & ~self.hand & ~self.played & ~bit & ~self.excluded[seat]
        saved = state.hands[seat]
        state.hands[seat] = bit | candidates
        if not state.legal_play_mask(seat) & bit:
            for other in cards_of(candidates):
                state.hands[seat] = bit | (1 << other)
                if not state.legal_play_mask(seat) & bit:
                    self.excluded[seat] |= 1 << other
        state.hands[seat] = saved

    # -- where the unseen cards may be ----------------------------------------------
    def _plan_sinks(self, layout: "Layout") -> None:
        counts = self.view["cards_left"]
        self.sinks = [Sink(f"seat{s}", s, counts[s]) for s in range(self.n) if s != self.seat]
        self.sinks += [Sink(name, None, size) for name, size in layout.piles]
        self.known_elsewhere = layout.known_elsewhere
        self.forced = layout.forced  # (cards, sink names they must go to)

    def sample(self, rng, prefer=None) -> dict[str, int]:
        """One placement of the unseen cards: {sink name: mask}. ``prefer(card, sink)``
        may veto a sink for a card when others are open (a soft preference)."""
        sinks = self.sinks
        index = {s.name: i for i, s in enumerate(sinks)}
        allowed_of = []
        for card in cards_of(self.unseen()):
            allowed = 0
            for i, sink in enumerate(sinks):
                if sink.seat is None or not self.excluded[sink.seat] >> card & 1:
                    allowed |= 1 << i
            allowed_of.append((card, allowed))
        for mask, names in self.forced:
            for card in cards_of(mask):
                allowed = 0
                for name in names:
                    seat = sinks[index[name]].seat
                    if seat is None or not self.excluded[seat] >> card & 1:
                        allowed |= 1 << index[name]
                allowed_of.append((card, allowed))
        return _assign(allowed_of, [s.size for s in sinks], [s.name for s in sinks], rng,
                       prefer)

    def determinize(self, rng, prefer=None):
        """A full State consistent with everything this seat has seen."""
        placed = self.sample(rng, prefer)
        state = self.state.clone()
        for sink in self.sinks:
            if sink.seat is not None:
                state.hands[sink.seat] = placed[sink.name]
        _FILL_PILES[self.game.id](self, state, placed)
        return state


# -- the assignment of unseen cards ----------------------------------------------------
def _assign(allowed_of, sizes, names, rng, prefer, tries: int = 12) -> dict[str, int]:
    """Deal each card to a sink it may be in, most constrained cards first, each to a
    sink picked with weight = its free room (close to uniform over consistent
    layouts). Retries on a dead end; a last resort ignores the exclusions so a bot
    always gets a layout (only if the view is contradictory)."""
    cards = sorted(allowed_of, key=lambda item: (item[1].bit_count(), item[0]))
    for attempt in range(tries + 1):
        relax = attempt == tries
        room = list(sizes)
        out = [0] * len(sizes)
        order = list(cards)
        rng.shuffle(order)
        order.sort(key=lambda item: item[1].bit_count())
        ok = True
        for card, allowed in order:
            options = [i for i in range(len(room)) if room[i] and (relax or allowed >> i & 1)]
            if prefer is not None and len(options) > 1:
                liked = [i for i in options if prefer(card, names[i])]
                options = liked or options
            if not options:
                ok = False
                break
            pick = _weighted(options, room, rng)
            room[pick] -= 1
            out[pick] |= 1 << card
        if ok:
            return dict(zip(names, out))
    raise AssertionError("no placement of the unseen cards")  # unreachable: relax fills


def _weighted(options, room, rng) -> int:
    total = sum(room[i] for i in options)
    x = rng.randrange(total)
    for i in options:
        x -= room[i]
        if x < 0:
            return i
    return options[-1]


# -- per title: where the spare cards are ------------------------------------------------
class Layout(NamedTuple):
    own_original: int  # the seat's hand as dealt
    spare: tuple | None  # the spare cards in deal order, if this seat knows them
    piles: tuple  # hidden piles: ((name, size), ...)
    known_elsewhere: int  # cards seen but not held or played (e.g. a shown widow)
    forced: tuple  # ((cards, (sink names)), ...): seen cards whose place is one of those
    private: dict  # what this seat alone knows (its bury, its discards, the kitty)


def _cards(k: Knowledge, names) -> tuple:
    return tuple(k.deck.parse(n) for n in names)


def _rook_layout(k: Knowledge) -> Layout:
    view, me = k.view, k.seat
    widow = k._mask(view.get("widow")) if view.get("widow") is not None else None
    contract = view.get("contract")
    bidder = contract["bidder"] if contract else None
    taken = k.phase in ("bury", "play", "done")  # the bidder has picked the widow up
    mine = k.hand | k.played_by[me]
    buried = k._mask(view.get("buried")) if view.get("buried") else 0
    if widow is None:
        return Layout(mine, None, (("widow", 5),), 0, (), {})
    spare = _cards(k, view["widow"])
    if taken and bidder == me:
        return Layout((mine | buried) & ~widow, spare, (), buried, (), {"buried": buried})
    if not taken:
        return Layout(mine, spare, (), widow, (), {})
    # Another seat is the bidder: the widow cards it has not played are in its hand
    # or, after the bury, among the buried cards.
    in_play = widow & ~k.played
    piles = (("buried", ROOK_BURY),) if k.phase != "bury" else ()
    places = (f"seat{bidder}", "buried") if piles else (f"seat{bidder}",)
    return Layout(mine, spare, piles, widow, ((in_play, places),), {})


def _somerset_layout(k: Knowledge) -> Layout:
    view, me = k.view, k.seat
    mine = k.hand | k.played_by[me]
    if view.get("spare_rule") == "widow":
        widow = k._mask(view.get("widow"))
        return Layout(mine, _cards(k, view["widow"]), (), widow & ~k.played, (), {})
    kitty = view.get("kitty") or {}
    bidder = view.get("bidder")
    if kitty.get("taken") and bidder == me:
        kitty_cards = k._mask(view.get("kitty_cards"))
        discards = k._mask(view.get("discards"))
        return Layout((mine | discards) & ~kitty_cards, _cards(k, view["kitty_cards"]), (), discards, (),
                      {"kitty": kitty_cards, "discards": discards})
    if not kitty.get("taken"):
        return Layout(mine, None, (("kitty", 2),), 0, (), {})
    if kitty.get("discarded"):
        return Layout(mine, None, (("discards", 2),), 0, (), {})
    return Layout(mine, None, (), 0, (), {})  # the bidder holds all 14 while it discards


def _horseshoes_layout(k: Knowledge) -> Layout:
    mine = k.hand | k.played_by[k.seat]
    if not k.game.spare_size:
        return Layout(mine, (), (), 0, (), {})
    leftover = k.view.get("leftover") or {}
    if leftover.get("card"):
        card = k.deck.parse(leftover["card"])
        return Layout(mine, (card,), (), 1 << card, (), {})
    return Layout(mine, None, (("leftover", 1),), 0, (), {})


_LAYOUTS = {"rook": _rook_layout, "somerset": _somerset_layout, "horseshoes": _horseshoes_layout}


def _fill_rook(k: Knowledge, state, placed: dict) -> None:
    if "buried" in placed:
        state.buried = placed["buried"]
    if "widow" in placed:
        state.widow = placed["widow"]
        state.spare = tuple(cards_of(placed["widow"]))


def _fill_somerset(k: Knowledge, state, placed: dict) -> None:
    if "discards" in placed:
        state.discards = tuple(cards_of(placed["discards"]))
    if "kitty" in placed:
        state.spare = tuple(cards_of(placed["kitty"]))
        state.spare_mask = placed["kitty"]


def _fill_horseshoes(k: Knowledge, state, placed: dict) -> None:
    if "leftover" in placed:
        state.spare = tuple(cards_of(placed["leftover"]))


_FILL_PILES = {"rook": _fill_rook, "somerset": _fill_somerset, "horseshoes": _fill_horseshoes}
