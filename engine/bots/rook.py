"""Rook bots: bidding, the raise, "Got it", bury and trump, and trick play.

Card numbers (see engine/rook/rules.py): colour c holds cards 14c … 14c+13 from the 2
up to the 1, and the Rook is 56, above everything; so "higher in the same colour" is
a bit mask above a card, and the top card of a mask is its highest bit.

The trick-play heuristic (``play_card``) works on ``possible[s]``, the cards seat ``s``
may hold: for a bot that is what its view allows (unseen cards minus what the seat has
shown it lacks); inside a search play-out it is the seat's real hand. So the same rules
of thumb serve the normal level and the hard level's roll-outs.
"""

from __future__ import annotations

from ..cards import cards_of
from ..rook.rules import (BID_STEP, COLOUR_MASKS, COLOUR_NAMES, COLOURS, DECK, MAX_BID,
                          MIN_BID, POINTS, ROOK, ROOK_BIT)
from .context import Context, Decision
from .search import compare_options, partnership_margin, play_out, search_play

NUMBERS = tuple(DECK.names[c][1:] if c != ROOK else "ROOK" for c in range(DECK.size))
RANK = tuple(c % 14 if c != ROOK else 14 for c in range(DECK.size))  # 0 = the 2, 13 = the 1
ONE, FOURTEEN, THIRTEEN = 13, 12, 11  # ranks of the 1, the 14 and the 13


def colour_name(card: int) -> str:
    return "the Rook" if card == ROOK else COLOUR_NAMES[COLOURS[card // 14]]


def above(card: int) -> int:
    """Every card numbered above ``card`` (same colour or Rook once masked)."""
    return ~((1 << (card + 1)) - 1)


def top(mask: int) -> int:
    return mask.bit_length() - 1


# -- hand evaluation -------------------------------------------------------------------
def colour_strength(hand: int, colour: int) -> int:
    """How good a trump colour is: length first, then the high cards in it."""
    cards = hand & COLOUR_MASKS[colour]
    return 10 * cards.bit_count() + sum(RANK[c] for c in cards_of(cards))


def best_colour(hand: int) -> int:
    return max(range(4), key=lambda col: (colour_strength(hand, col), -col))


def hand_value(hand: int) -> int:
    """Points the bidder's side may expect to take with this hand as bidder (13 cards;
    the widow and partner add the base). Calibrated on self-play: see tests/arena."""
    trump = best_colour(hand)
    value = 55
    if hand & ROOK_BIT:
        value += 18
    for colour in range(4):
        cards = hand & COLOUR_MASKS[colour]
        length = cards.bit_count()
        has_one = bool(cards >> (14 * colour + ONE) & 1)
        if has_one:
            value += 13
        if cards >> (14 * colour + FOURTEEN) & 1:
            value += 7 if has_one or length >= 4 else 3
        if colour == trump:
            value += 8 * (length - 4)
        elif length == 0:
            value += 6
        elif length == 1 and not has_one:
            value += 3
    return value


# -- bidding, raise, ack -------------------------------------------------------------------
def decide_bid(ctx: Context) -> Decision:
    view, seat = ctx.view, ctx.seat
    value = simulated_value(ctx) if ctx.searches else hand_value(ctx.know.hand)
    if ctx.level == "easy":
        value -= 15  # cautious
    limit = min(MAX_BID, value - value % BID_STEP)
    high = view.get("high_bid")
    lowest = MIN_BID if high is None else high + BID_STEP
    bids = view.get("bids") or []
    partner_high = bool(bids) and bids[-1][0] == (seat + 2) % 4
    if partner_high and high is not None and ctx.level != "easy":  # (partner's bid is high)
        limit = min(limit, high + 15 if value >= high + 25 else 0)  # do not outbid a partner lightly
    if lowest <= limit:
        return Decision(ctx.game.action_from_json({"seat": seat, "bid": lowest}),
                        f"bid {lowest}: the hand is worth about {value} points")
    why = "partner holds the bid" if partner_high else f"the hand is worth about {value} points"
    return Decision(ctx.game.action_from_json({"seat": seat, "pass": True}), f"pass: {why}")


def decide_raise(ctx: Context) -> Decision:
    contract = ctx.view["contract"]["amount"]
    if ctx.searches:
        value = simulated_value(ctx)
        target = value - value % BID_STEP  # already a cautious figure
    else:
        value = hand_value(ctx.know.hand)
        target = value - 20 - (value - 20) % BID_STEP
    if ctx.level != "easy" and target > contract:
        target = min(target, MAX_BID)
        return Decision(ctx.game.action_from_json({"seat": ctx.seat, "raise": target}),
                        f"raise to {target}: the hand is worth about {value} points")
    return Decision(ctx.game.action_from_json({"seat": ctx.seat, "raise": None}),
                    f"keep {contract}: a raise would risk more than it adds")


def decide_ack(ctx: Context) -> Decision:
    return Decision(ctx.game.action_from_json({"seat": ctx.seat, "ack": True}),
                    "say Got it: the widow is noted")


# -- bury and trump ------------------------------------------------------------------------
def keep_value(card: int, hand: int) -> int:
    """How much a side-suit card is worth keeping (low values are buried)."""
    colour = card // 14
    cards = hand & COLOUR_MASKS[colour]

    def has(rank: int) -> bool:
        return bool(cards >> (14 * colour + rank) & 1)

    rank = RANK[card]
    if rank == ONE:
        value = 100
    elif rank == FOURTEEN:
        value = 70 if has(ONE) else 22
    elif rank == THIRTEEN:
        value = 45 if has(ONE) and has(FOURTEEN) else 12
    else:
        value = rank
    if POINTS[card] and rank != ONE and not has(ONE):
        value -= 9  # a point card the opponents' 1 would catch: safer buried
    if cards.bit_count() <= 2:
        value -= 6  # shorten the colour to a void, so its tricks can be trumped
    return value


def plan_bury(hand: int, level: str, colour: int | None = None) -> tuple[tuple, str]:
    """The five cards to bury and the trump colour, for an 18-card hand."""
    if colour is None:
        colour = best_colour(hand)
    elif level == "easy":
        raise ValueError("easy picks its own colour")
    if level == "easy":
        colour = max(range(4), key=lambda col: ((hand & COLOUR_MASKS[col]).bit_count(), -col))
    trumps = COLOUR_MASKS[colour] | ROOK_BIT
    side = [c for c in cards_of(hand) if not trumps >> c & 1]
    if level == "easy":
        side.sort(key=lambda c: (RANK[c], c))
    else:
        side.sort(key=lambda c: (keep_value(c, hand), c))
    bury = side[:5]
    if len(bury) < 5:  # nearly all trump: bury the lowest trumps as well
        extra = sorted((c for c in cards_of(hand & trumps) if c != ROOK), key=lambda c: (POINTS[c], RANK[c]))
        bury += extra[:5 - len(bury)]
    return tuple(sorted(bury)), COLOURS[colour]


def decide_bury(ctx: Context) -> Decision:
    if ctx.searches:
        return hard_bury(ctx)
    cards, colour = plan_bury(ctx.know.hand, ctx.level)
    action = ctx.game.action_from_json({"seat": ctx.seat, "bury": [ctx.name(c) for c in cards],
                                        "trump": colour})
    names = ", ".join(ctx.name(c) for c in cards)
    return Decision(action, f"bury {names} and name {COLOUR_NAMES[colour]}: "
                            f"the longest, strongest colour")


# -- trick play ------------------------------------------------------------------------------
class Trick:
    """The current trick as the play heuristics need it."""

    def __init__(self, state, seat: int):
        self.seat = seat
        self.trump = state.trump_mask
        self.cards = state.trick
        self.led = state.led_mask
        played = 0
        self.best: int | None
        self.winner: int | None
        for _, card in self.cards:
            played |= 1 << card
        self.points = sum(POINTS[c] for _, c in self.cards)
        if self.cards:
            contenders = (played & self.trump) or (played & self.led)
            self.best = top(contenders)
            self.winner = next(s for s, c in self.cards if c == self.best)
        else:
            self.best = self.winner = None
        count = len(self.cards)
        self.later = [(seat + i) % 4 for i in range(1, 4 - count)]

    def wins(self, card: int, best: int | None = None) -> bool:
        """Would ``card`` beat ``best`` (default: the card now winning)?"""
        best = self.best if best is None else best
        if best is None:
            return True
        if self.trump >> card & 1:
            return not self.trump >> best & 1 or card > best
        return bool(self.led >> card & 1) and not self.trump >> best & 1 and card > best

    def can_beat(self, best: int, holding: int) -> bool:
        """Could a later seat holding (some of) ``holding`` beat ``best``? A seat that
        may hold the suit led is assumed to follow it."""
        trump, led = self.trump, self.led
        if not self.cards:  # ``best`` is a lead
            led = trump if trump >> best & 1 else COLOUR_MASKS[best // 14]
        if trump >> best & 1:
            higher = holding & trump & above(best)
            return bool(higher) and (led == trump or not holding & led)
        if holding & led & above(best):
            return True
        return not holding & led and bool(holding & trump)

    def safe(self, best: int, possible: list[int]) -> bool:
        """No opponent still to play can beat ``best``."""
        return not any(self.can_beat(best, possible[s]) for s in self.later if (s - self.seat) % 2)


def cost(card: int, trump: int) -> int:
    """What playing a card gives away: its points, its rank, and trump power."""
    value = 4 * POINTS[card] + RANK[card]
    if trump >> card & 1:
        value += 30 + RANK[card]
    return value


def play_card(state, seat: int, possible: list[int], bidder: int) -> tuple[int, str]:
    """The normal-level card and a reason. ``possible[s]``: what seat s may hold."""
    legal = state.legal_play_mask(seat)
    cards = cards_of(legal)
    if len(cards) == 1:
        return cards[0], f"play {DECK.names[cards[0]]}: the only legal card"
    trick = Trick(state, seat)
    if trick.best is None:
        return lead(trick, cards, possible, seat, bidder)
    return follow(trick, cards, possible, seat)


def lead(trick: Trick, cards: list[int], possible: list[int], seat: int, bidder: int):
    trump = trick.trump
    others = [s for s in range(4) if s != seat]
    opponents = [s for s in others if (s - seat) % 2]
    mine = sum(1 << c for c in cards)
    my_trumps = mine & trump
    opp_trumps = any(possible[o] & trump for o in opponents)
    if my_trumps and opp_trumps and seat % 2 == bidder % 2:
        high = top(my_trumps)
        if not any(possible[o] & trump & above(high) for o in others):
            return high, f"lead {DECK.names[high]}: the top trump left, to draw the opponents' trumps"
        if my_trumps.bit_count() >= 4:
            low = min(cards_of(my_trumps), key=lambda c: cost(c, trump))
            return low, f"lead {DECK.names[low]}: a low trump, to draw the opponents' trumps"
    winners = []
    for colour in range(4):
        held = mine & COLOUR_MASKS[colour] & ~trump
        if not held:
            continue
        card = top(held)
        if any(possible[o] & COLOUR_MASKS[colour] & above(card) for o in others):
            continue
        if any(not possible[o] & COLOUR_MASKS[colour] and possible[o] & trump for o in opponents):
            continue  # an opponent is out of the colour and can trump it
        winners.append(card)
    if winners:
        card = max(winners, key=lambda c: (POINTS[c], RANK[c], -c))
        return card, f"lead {DECK.names[card]}: it is the highest {colour_name(card)} left"
    partner = (seat + 2) % 4
    for colour in range(4):  # partner is out of a colour and holds trump: let them trump it
        held = mine & COLOUR_MASKS[colour] & ~trump
        if held and not possible[partner] & COLOUR_MASKS[colour] and possible[partner] & trump:
            card = min(cards_of(held), key=lambda c: cost(c, trump))
            return card, f"lead {DECK.names[card]}: partner can trump {colour_name(card)}"
    card = min(cards, key=lambda c: (cost(c, trump), c))
    return card, f"lead {DECK.names[card]}: a cheap card that gives nothing away"


def follow(trick: Trick, cards: list[int], possible: list[int], seat: int):
    trump = trick.trump
    winner, best = trick.winner, trick.best
    assert winner is not None and best is not None  # following: a card is on the trick
    partner_winning = (winner - seat) % 2 == 0
    last = not trick.later
    if partner_winning and (last or trick.safe(best, possible)):
        card = max(cards, key=lambda c: (2 * POINTS[c] - (35 if trump >> c & 1 and POINTS[c] else 0)
                                         - RANK[c] // 4, -c))
        if POINTS[card]:
            return card, f"play {DECK.names[card]}: partner is taking the trick, so add points"
        card = min(cards, key=lambda c: (cost(c, trump), c))
        return card, f"play {DECK.names[card]}: partner is taking the trick"
    winners = sorted((c for c in cards if trick.wins(c)), key=lambda c: (cost(c, trump), c))
    # The cheapest winner nobody left can beat (asked in order of cost: the first will do).
    sure = next((c for c in winners if last or trick.safe(c, possible)), None)
    if sure is not None:
        # Over a partner who might yet be beaten, only when the trick is worth it.
        if not partner_winning or trick.points >= 10 or cost(sure, trump) < 30:
            return sure, f"play {DECK.names[sure]}: it takes the trick and nobody left can beat it"
    if winners and not partner_winning and trick.points >= 10:
        card = winners[0]
        return card, f"play {DECK.names[card]}: worth a try for {trick.points} points"
    card = min(cards, key=lambda c: (cost(c, trump), c))
    return card, f"play {DECK.names[card]}: the cheapest card, the trick is not ours"


def easy_card(state, seat: int) -> tuple[int, str]:
    """Easy habits: lead your highest card; follow with a winner if you have one (the
    highest), else your lowest. No counting, no partner play."""
    cards = cards_of(state.legal_play_mask(seat))
    trick = Trick(state, seat)
    if trick.best is None or trick.winner is None:  # (both are None, or neither)
        card = max(cards, key=lambda c: (RANK[c], -c))
        return card, f"lead {DECK.names[card]}: the highest card"
    winners = [c for c in cards if trick.wins(c)]
    if winners and (trick.winner - seat) % 2:
        card = max(winners, key=lambda c: (RANK[c], -c))
        return card, f"play {DECK.names[card]}: try to take the trick"
    card = min(cards, key=lambda c: (RANK[c], POINTS[c], c))
    return card, f"play {DECK.names[card]}: the lowest card"


def decide_play(ctx: Context) -> Decision:
    bidder = ctx.view["contract"]["bidder"]
    if ctx.level == "easy":
        card, why = easy_card(ctx.state, ctx.seat)
    elif ctx.searches:
        return search_play(ctx, PLAY_BUDGET, rollout_action, partnership_margin)
    else:
        card, why = play_card(ctx.state, ctx.seat, ctx.know.holdings(), bidder)
    return Decision(ctx.state.play_action(ctx.seat, card), why)


# -- the hard level's play-outs ----------------------------------------------------------------
PLAY_BUDGET = 9000  # simulated plays per card decision (see search)


def rollout_action(state):
    """The normal heuristic with every hand known: what a play-out plays."""
    seat = state.turn
    card, _ = play_card(state, seat, state.hands, state.bidder)
    return state.play_action(seat, card)


# -- the hard level's decisions before play --------------------------------------------------
BID_SAMPLES = 32
BURY_SAMPLES = 20
MAKE_QUANTILE = 0.15  # bid what the side took in 85% of the (optimistic) simulated deals


def finish_as_bidder(state, seat: int, colour: int | None = None):
    """Drive a sampled hand to its end with ``seat`` taking the contract: it bids the
    minimum (others pass), keeps it, buries with the normal plan, and all play it out."""
    game = state.game
    while state.phase != "play":
        if state.phase == "bidding":
            actor = state.turn
            action = lowest_bid(state, actor) if actor == seat else game.action_from_json(
                {"seat": actor, "pass": True})
        elif state.phase == "raise":
            action = game.action_from_json({"seat": state.turn, "raise": None})
        elif state.phase == "widow":
            action = game.action_from_json({"seat": state.to_act()[0], "ack": True})
        else:
            cards, trump = plan_bury(state.hands[state.turn], "normal", colour)
            action = game.action_from_json({"seat": state.turn, "trump": trump,
                                            "bury": [DECK.names[c] for c in cards]})
        state.apply(action)
    play_out(state, rollout_action)
    return state


def lowest_bid(state, seat: int):
    """The smallest bid open to ``seat`` (the list starts with the pass)."""
    legal = state.legal_actions(seat)
    return legal[1] if len(legal) > 1 else legal[0]


def simulated_value(ctx: Context) -> int:
    """What this side took, as the bidder, in the weaker third of sampled deals."""
    seat = ctx.seat
    taken = []
    for _ in range(BID_SAMPLES):
        state = finish_as_bidder(ctx.know.determinize(ctx.rng), seat)
        taken.append(state.taken[seat % 2])
    taken.sort()
    return taken[int(MAKE_QUANTILE * len(taken))]


def hard_bury(ctx: Context) -> Decision:
    """Try the normal bury for every trump colour on the same sampled deals."""
    def finish(world, colour):
        return finish_as_bidder(world, ctx.seat, colour)

    colours = list(range(4))
    values = compare_options(ctx, colours, finish, partnership_margin, BURY_SAMPLES)
    colour = max(colours, key=lambda c: (values[c], -c))
    cards, trump = plan_bury(ctx.know.hand, "normal", colour)
    action = ctx.game.action_from_json({"seat": ctx.seat, "bury": [ctx.name(c) for c in cards],
                                        "trump": trump})
    names = ", ".join(ctx.name(c) for c in cards)
    return Decision(action, f"bury {names} and name {COLOUR_NAMES[trump]}: it played best "
                            f"({values[colour]:+.0f} on average over {BURY_SAMPLES} deals)")


DECIDERS = {"bidding": decide_bid, "raise": decide_raise, "widow": decide_ack,
            "bury": decide_bury, "play": decide_play}
