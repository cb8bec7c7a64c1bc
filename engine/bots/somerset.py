"""Somerset bots: bidding, the kitty discard, trump (a suit, 0 or No Trump), trick play.

Card numbers (engine/somerset/rules.py): suits /0, /2, … /12 in order, each from rank 0
up, then the S/S (49). Who would win a trick is asked of the rules themselves
(``SomersetState.winner_if``), so the Rover's promotions and the S/S's quirks are never
re-implemented here. As in the Rook bots, the play heuristic works on ``possible[s]``
(what seat s may hold), so the hard level's play-outs reuse it with the real hands.
"""

from __future__ import annotations

from functools import lru_cache

from ..cards import cards_of
from ..somerset.rules import DECK, DOUBLES, POINTS, ROVER, ROVER_BIT, SS, SS_BIT, SUITS, TRUMP_TABLES
from .context import Context, Decision
from .search import compare_options, partnership_margin, play_out, search_play

MAX_BID = 24
SUIT_MASK = {s: DECK.suit_mask[s] for s in SUITS}
RANK = DECK.rank_of
SUIT = DECK.suit_of


def trump_words(trump: str) -> str:
    return "No Trump" if trump == "NT" else f"/{trump}"


def held_ranks(hand: int, suit: int) -> tuple[int, ...]:
    """The ranks ``hand`` holds in ``suit``, highest first."""
    return _ranks(hand & SUIT_MASK[suit])


@lru_cache(maxsize=1 << 14)
def _ranks(cards: int) -> tuple[int, ...]:
    # (remembered, as is top_run: the expert weighs thousands of sampled hands a
    # decision by estimate_tricks, and one suit's holding recurs far more than a hand)
    return tuple(sorted((RANK[c] for c in cards_of(cards)), reverse=True))


@lru_cache(maxsize=1 << 14)
def top_run(ranks: tuple[int, ...], suit: int) -> int:
    """How many of the suit's top cards, from its double down, the hand holds."""
    run = 0
    for expected, rank in zip(range(suit, -1, -1), ranks):
        if rank != expected:
            break
        run += 1
    return run


# -- hand evaluation -------------------------------------------------------------------
def estimate_tricks(hand: int, trump: str) -> float:
    """Rough tricks this hand takes as the bidder's, with ``trump``."""
    trump_suit = None if trump == "NT" else int(trump)
    tricks = 0.0
    trump_length = 0
    for suit in SUITS:
        ranks = held_ranks(hand, suit)
        length = len(ranks)
        if not ranks:
            if trump_suit not in (None, 0) and suit != trump_suit:
                tricks += 0.4  # a void to trump in
            continue
        run = top_run(ranks, suit)
        if suit == trump_suit:
            trump_length = length
            tricks += run + (0.6 if length >= 3 else 0.35) * (length - run)
            continue
        if suit == 0:
            continue  # the Rover, counted below
        if trump_suit is None:
            tricks += run  # nobody can trump a top card under No Trump
        else:
            tricks += 0.9 * (run if trump_suit == 0 else min(run, 2))
        if run == 0 and ranks[0] == suit - 1 and length >= 2:
            tricks += 0.4  # the second-best card, guarded
        if trump_suit in (None, 0) and length >= 4:
            tricks += 0.3 * (length - 3)  # long suits run once the top is gone
    if hand & SS_BIT:
        if trump == "0":
            tricks += 1.0 if hand & ROVER_BIT else 0.4
        elif trump != "NT":
            tricks += 0.35
    if hand & ROVER_BIT:
        tricks += 1.0 if trump == "0" else 0.5
    if trump_suit not in (None, 0) and trump_length <= 2:
        tricks -= 1.0  # a short trump suit is drawn out by the defenders
    return tricks


def best_trump(hand: int) -> tuple[str, float]:
    """The trump that makes the most of ``hand`` (ties favour a real suit)."""
    options = [(estimate_tricks(hand, t), -i, t) for i, t in enumerate(TRUMP_TABLES)]
    tricks, _, trump = max(options)
    return trump, tricks


def hand_value(hand: int, kitty: bool) -> float:
    """Points the bidding side may expect with this hand bidding: tricks and count
    from this hand, plus what a partner and the kitty usually add."""
    _, tricks = best_trump(hand)
    count = sum(POINTS[c] for c in cards_of(hand))
    return 1.8 * tricks + 0.4 * count + 3.0 + (1.0 if kitty else 0.0)


# -- bidding --------------------------------------------------------------------------------
def decide_bid(ctx: Context) -> Decision:
    view, seat = ctx.view, ctx.seat
    if ctx.searches:
        value = simulated_value(ctx)
    else:
        value = hand_value(ctx.know.hand, view.get("spare_rule") == "kitty")
    if ctx.level == "easy":
        value -= 2.5
    limit = int(value)
    lowest = view["bid_range"][0]
    high = view.get("high_bid")
    partner_high = high is not None and view.get("bidder") == (seat + 2) % 4
    if partner_high and high is not None and ctx.level != "easy":  # (partner_high says so)
        limit = min(limit, high + 1 if value >= high + 3 else 0)
    if lowest <= min(limit, MAX_BID):
        return Decision(ctx.game.action_from_json({"seat": seat, "bid": lowest}),
                        f"bid {lowest}: the hand is worth about {value:.0f} points with partner")
    why = "partner holds the bid" if partner_high else f"the hand is worth about {value:.0f} points"
    return Decision(ctx.game.action_from_json({"seat": seat, "pass": True}), f"pass: {why}")


# -- kitty and trump ---------------------------------------------------------------------------
def keep_value(card: int, hand: int, trump: str) -> float:
    """How much a card is worth keeping; the two lowest are discarded."""
    table = TRUMP_TABLES[trump]
    if card == SS:
        return 60 if trump != "NT" else 25
    if card == ROVER:
        return 90
    if table.trumps >> card & 1 or DOUBLES >> card & 1:
        return 100 + RANK[card]
    suit = SUIT[card]
    ranks = held_ranks(hand, suit)
    value = 20.0 * RANK[card] / suit
    if POINTS[card] and suit not in ranks:
        value -= 6 * POINTS[card]  # unguarded count: the last trick's side takes discards
    if len(ranks) <= 2:
        value -= 5  # discarding short suits leaves voids to trump in
    return value


def plan_discard(hand: int, level: str) -> tuple[tuple, str]:
    trump, _ = best_trump(hand)
    if level == "easy":
        order = sorted(cards_of(hand), key=lambda c: (c == SS or c == ROVER, RANK[c], c))
    else:
        order = sorted(cards_of(hand), key=lambda c: (keep_value(c, hand, trump), c))
    return tuple(sorted(order[:2])), trump


def decide_discard(ctx: Context) -> Decision:
    cards, trump = plan_discard(ctx.know.hand, ctx.level)
    action = ctx.game.action_from_json({"seat": ctx.seat, "discard": [ctx.name(c) for c in cards]})
    return Decision(action, f"discard {ctx.name(cards[0])} and {ctx.name(cards[1])}: "
                            f"the least useful cards with {trump_words(trump)} in mind")


def decide_trump(ctx: Context) -> Decision:
    hand = ctx.know.hand
    if ctx.searches:
        return hard_trump(ctx)
    if ctx.level == "easy":
        suit = max((s for s in SUITS if s), key=lambda s: ((hand & SUIT_MASK[s]).bit_count(), s))
        trump, why = str(suit), "the longest suit"
    else:
        trump, tricks = best_trump(hand)
        why = f"about {tricks:.0f} tricks this way"
    return Decision(ctx.game.action_from_json({"seat": ctx.seat, "trump": trump}),
                    f"name {trump_words(trump)}: {why}")


# -- trick play -------------------------------------------------------------------------------
def cost(card: int, table) -> float:
    """What playing a card gives away: count points, rank, trump power, the Rover."""
    if card == SS:
        return 14.0 if table.trumps >> card & 1 else 12.0
    value = 4 * POINTS[card] + 10.0 * RANK[card] / max(SUIT[card], 1)
    if DOUBLES >> card & 1:
        value += 4
    if table.trumps >> card & 1:
        value += 20 + RANK[card]
    elif card == ROVER:
        value += 12
    return value


def trick_points(state) -> int:
    return 1 + sum(POINTS[c] for _, c in state.trick)


class Play:
    """One card decision: the trick, who is still to play, what they may hold."""

    def __init__(self, state, seat: int, possible: list[int], real: bool):
        self.state, self.seat, self.possible, self.real = state, seat, possible, real
        self.table = state.table
        count = len(state.trick)
        self.later = [(seat + i) % 4 for i in range(1, 4 - count)]
        self.opponents_later = [s for s in self.later if (s - seat) % 2]

    def safe(self, card: int) -> bool:
        """With ``card`` played now, can no opponent still to play take the trick?"""
        mine = ((self.seat, card),)
        return not any(self.can_take(other, mine) for other in self.opponents_later)

    def can_take(self, other: int, before: tuple = ()) -> bool:
        """Could ``other``, holding what it may hold, take the trick once ``before`` is
        played to it?"""
        state = self.state
        hand = state.hands[other] if self.real else self.possible[other]
        options = state.legal_if(other, hand, before) if hand else 0
        for card in cards_of(options):
            if state.winner_if(before + ((other, card),)) == other:
                return True
        return False


def play_card(state, seat: int, possible: list[int], bidder: int, real: bool = False):
    cards = cards_of(state.legal_play_mask(seat))
    if len(cards) == 1:
        return cards[0], f"play {DECK.names[cards[0]]}: the only legal card"
    play = Play(state, seat, possible, real)
    if not state.trick:
        return lead(play, cards, bidder)
    return follow(play, cards)


def lead(play: Play, cards: list[int], bidder: int):
    seat, table, possible = play.seat, play.table, play.possible
    trumps = table.trumps
    mine = sum(1 << c for c in cards)
    opponents = [(seat + 1) % 4, (seat + 3) % 4]
    others = [s for s in range(4) if s != seat]
    my_trumps = mine & trumps & ~SS_BIT
    if my_trumps and seat % 2 == bidder % 2 and any(possible[o] & trumps for o in opponents):
        high = my_trumps.bit_length() - 1
        if not any(possible[o] & trumps & ~SS_BIT & ~((1 << (high + 1)) - 1) for o in others):
            return high, f"lead {DECK.names[high]}: the top trump left, to draw trumps"
        if (mine & trumps).bit_count() >= 4:
            low = min(cards_of(my_trumps), key=lambda c: cost(c, table))
            return low, f"lead {DECK.names[low]}: a low trump, to draw the opponents' trumps"
    tops = []
    for suit in SUITS:
        held = mine & SUIT_MASK[suit] & ~trumps
        if held:
            tops.append(held.bit_length() - 1)
    # The best top card nobody can beat (asked best first: the first will do)
    tops.sort(key=lambda c: (POINTS[c], RANK[c], -c), reverse=True)
    card = next((c for c in tops if c != ROVER and play.safe(c)), None)
    if card is not None:
        return card, f"lead {DECK.names[card]}: nobody can beat it"
    partner = (seat + 2) % 4
    for suit in SUITS:
        held = mine & SUIT_MASK[suit] & ~trumps
        if held and suit and not possible[partner] & SUIT_MASK[suit] and possible[partner] & trumps:
            card = min(cards_of(held), key=lambda c: cost(c, table))
            return card, f"lead {DECK.names[card]}: partner can trump /{suit}"
    card = min(cards, key=lambda c: (cost(c, table), c))
    return card, f"lead {DECK.names[card]}: a cheap card that gives nothing away"


def follow(play: Play, cards: list[int]):
    state, seat, table = play.state, play.seat, play.table
    winner = state.winning_seat
    partner_winning = (winner - seat) % 2 == 0
    points = trick_points(state)
    last = not play.later
    if partner_winning and (last or partner_safe(play)):
        card = max(cards, key=lambda c: (3 * POINTS[c] - (cost(c, table) - 4 * POINTS[c]) / 2, -c))
        if POINTS[card]:
            return card, f"play {DECK.names[card]}: partner is taking the trick, so add count"
        card = min(cards, key=lambda c: (cost(c, table), c))
        return card, f"play {DECK.names[card]}: partner is taking the trick"
    winners = sorted((c for c in cards if state.winner_if(((seat, c),)) == seat),
                     key=lambda c: (cost(c, table), c))
    # The cheapest winner nobody left can beat (asked in order of cost: the first will do).
    sure = next((c for c in winners if last or play.safe(c)), None)
    if sure is not None:
        if not partner_winning or points >= 3 or cost(sure, table) < 8:
            return sure, f"play {DECK.names[sure]}: it takes the trick and nobody left can beat it"
    if winners and not partner_winning and points >= 3:
        card = winners[0]
        return card, f"play {DECK.names[card]}: worth a try for {points} points"
    card = min(cards, key=lambda c: (cost(c, table), c))
    return card, f"play {DECK.names[card]}: the cheapest card, the trick is not ours"


def partner_safe(play: Play) -> bool:
    """The card now winning (partner's) cannot be beaten by an opponent still to play."""
    return not any(play.can_take(other) for other in play.opponents_later)


def easy_card(state, seat: int):
    cards = cards_of(state.legal_play_mask(seat))
    if not state.trick:
        card = max(cards, key=lambda c: (RANK[c], -c))
        return card, f"lead {DECK.names[card]}: the highest card"
    winner = state.winning_seat
    winners = [c for c in cards if state.winner_if(((seat, c),)) == seat]
    if winners and (winner - seat) % 2:
        card = max(winners, key=lambda c: (RANK[c], -c))
        return card, f"play {DECK.names[card]}: try to take the trick"
    card = min(cards, key=lambda c: (RANK[c] if c != SS else 99, POINTS[c], c))
    return card, f"play {DECK.names[card]}: the lowest card"


def decide_play(ctx: Context) -> Decision:
    if ctx.level == "easy":
        card, why = easy_card(ctx.state, ctx.seat)
    elif ctx.searches:
        return search_play(ctx, PLAY_BUDGET, rollout_action, partnership_margin)
    else:
        card, why = play_card(ctx.state, ctx.seat, ctx.know.holdings(), ctx.view["bidder"])
    return Decision(ctx.state.play_action(ctx.seat, card), why)


# -- the hard level's play-outs ------------------------------------------------------------------
PLAY_BUDGET = 5000  # simulated plays per card decision (see search)


def rollout_action(state):
    seat = state.turn
    card, _ = play_card(state, seat, state.hands, state.bidder, real=True)
    return state.play_action(seat, card)


# -- the hard level's decisions before play --------------------------------------------------
BID_SAMPLES = 20
TRUMP_SAMPLES = 12
TRUMP_CHOICES = 4  # the best few by estimate are played out
MAKE_QUANTILE = 0.35


def finish_as_bidder(state, seat: int, trump: str | None = None):
    """Drive a sampled hand to its end with ``seat`` taking the contract at the
    minimum (others pass), discarding and naming trump as the normal level would."""
    game = state.game
    while state.phase != "play":
        actor = state.turn
        if state.phase == "bidding":
            legal = state.legal_actions(actor)
            action = legal[1] if actor == seat and len(legal) > 1 else legal[0]
        elif state.phase == "kitty":
            cards, _ = plan_discard(state.hands[actor], "normal")
            action = game.action_from_json({"seat": actor, "discard": [DECK.names[c] for c in cards]})
        else:
            named = trump or best_trump(state.hands[actor])[0]
            action = game.action_from_json({"seat": actor, "trump": named})
        state.apply(action)
    play_out(state, rollout_action)
    return state


def simulated_value(ctx: Context) -> float:
    """The points this side took, as the bidder, in the weaker third of sampled deals."""
    seat = ctx.seat
    taken = sorted(finish_as_bidder(ctx.know.determinize(ctx.rng), seat).taken[seat % 2]
                   for _ in range(BID_SAMPLES))
    return float(taken[int(MAKE_QUANTILE * len(taken))])


def hard_trump(ctx: Context) -> Decision:
    """Play out the few most promising trumps on the same sampled deals."""
    hand = ctx.know.hand
    ranked = sorted(TRUMP_TABLES, key=lambda t: -estimate_tricks(hand, t))[:TRUMP_CHOICES]

    def finish(world, trump):
        return finish_as_bidder(world, ctx.seat, trump)

    values = compare_options(ctx, ranked, finish, partnership_margin, TRUMP_SAMPLES)
    best = max(range(len(ranked)), key=lambda i: (values[i], -i))
    trump = ranked[best]
    return Decision(ctx.game.action_from_json({"seat": ctx.seat, "trump": trump}),
                    f"name {trump_words(trump)}: it played best ({values[best]:+.1f} on average "
                    f"over {TRUMP_SAMPLES} deals)")


DECIDERS = {"bidding": decide_bid, "kitty": decide_discard, "trump": decide_trump,
            "play": decide_play}
