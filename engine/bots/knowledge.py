"""What one seat knows, rebuilt from its view alone, and deals consistent with it.

A bot is handed a seat's view (``State.view(seat)``: plain names and numbers) and
nothing else. ``Knowledge(game, view)`` turns it back into engine terms with the
engine's own replay of a seat's partial knowledge (``engine.partial``):

* ``state``: a State at the current moment of the hand, replayed on a deal made up to
  fit the view (``PartialHand``: the title reads the view in ``Game.seat_layout``).
  Afterwards the other seats hold nothing: ``determinize`` fills them in. Everything
  that depends only on public information and the seat's own hand — its legal
  actions, the trick, who won what — is exact in this state.
* ``excluded[s]``: cards seat ``s`` cannot hold, learned from its plays.
* ``sinks``: every place an unseen card may be — the other seats' hands and the hidden
  piles the title names (Rook's widow before it is shown and another bidder's bury,
  Somerset's kitty or another bidder's discards, Horseshoes' face-down left-over card).

``determinize(rng)`` samples one full layout of the unseen cards that respects those
counts and exclusions, and returns a State where every card is placed: the input of
perfect-information search. Nothing here looks at any state but the one it rebuilt.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import cards_of
from ..partial import PartialHand, hand_of, public_step, seen_in


class Sink(NamedTuple):
    """A place unseen cards may be: a seat's hand (seat set) or a hidden pile."""

    name: str
    seat: int | None
    size: int


class Knowledge:
    def __init__(self, game, view: dict):
        self.game = game
        self.view = view
        self.deck = game.deck
        self.seat = view["seat"]
        self.n = game.num_players
        self.phase = view["phase"]
        seen = seen_in(game, view)
        self.hand, self.played_by, self.played = seen.hand, list(seen.played_by), seen.played
        layout = game.seat_layout(view, seen)
        self.private = layout.private  # this seat's own secret actions
        steps = tuple(public_step(game, data, layout.private) for data in view["actions"])
        replay = PartialHand(game, self.seat, view["dealer"], cards_of(layout.own_original),
                             layout.spare or (), steps)
        self.excluded = list(replay.excluded)
        self.state = replay.state.clone()
        self.state.place_unseen({s: 0 for s in range(self.n) if s != self.seat}, {})
        self._plan_sinks(layout)

    def unseen(self) -> int:
        """Cards whose place this seat does not know."""
        return self.deck.full_mask & ~self.hand & ~self.played & ~self.known_elsewhere

    def possible(self, seat: int) -> int:
        """The cards ``seat`` may hold as far as this seat can tell: all of its own; for
        another, the unseen cards it has not shown it lacks, and the seen cards that
        may have gone to it (a widow its bidder took)."""
        if seat == self.seat:
            return self.hand
        mask = self.unseen()
        for cards, places in self.forced:
            if hand_of(seat) in places:
                mask |= cards
        return mask & ~self.excluded[seat]

    def holdings(self) -> list[int]:
        """``possible(s)`` for every seat."""
        return [self.possible(s) for s in range(self.n)]

    # -- where the unseen cards may be ----------------------------------------------
    def _plan_sinks(self, layout) -> None:
        counts = self.view["cards_left"]
        self.sinks = [Sink(hand_of(s), s, counts[s]) for s in range(self.n) if s != self.seat]
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
        hands = {sink.seat: placed[sink.name] for sink in self.sinks if sink.seat is not None}
        piles = {sink.name: placed[sink.name] for sink in self.sinks if sink.seat is None}
        state = self.state.clone()
        state.place_unseen(hands, piles)
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
