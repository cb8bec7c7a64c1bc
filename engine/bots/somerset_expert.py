"""Somerset's expert level: the hard level's search, with inference, bidding by expected
score, the kitty and trump chosen together, and a partner's manners.

* **Inference** (``likelihood_for``): for the bid, the kitty and the trump, a sampled
  deal is weighted by how well it explains the auction (bids and passes against the
  normal level's ``hand_value``) and the bidder's trump (against the normal level's
  ``estimate_tricks`` for every trump). Not for card play: there the weights are sharp
  (fewer distinct deals for the search), cost half its CPU, and on the same hands and
  contracts play over uniform deals did better (docs/benchmarks.md, "Somerset's card
  play, suspect by suspect"), so its cards are searched over every deal that fits what
  has been seen, as hard's are.
* **Bidding**: on the same likely deals the hand is played out with this seat taking
  the contract at the next bid, and with this seat passing while the others bid as the
  normal level would (the hand may be thrown in). It bids when the first scores more
  under the ruleset's own scoring (``score_terms``: doubled or keep), each contract's
  declarers credited the point or so a searching declarer takes beyond the play-out's
  heuristic (``DECLARER_EDGE``).
* **Kitty and trump**: with the most promising trump, every pair of the few cards least
  worth keeping, and for the next few trumps the discard the normal level would make,
  played out on likely deals; the best pair is discarded, and the trump is then chosen
  the same way with the hand as it is.
* **Card play**: ``expert.play`` (uniform deals, touching cards merged, the race, a
  larger budget than hard's)
  with Somerset's manners: no trump over a partner who is taking the trick, and the
  partner's trump led when the partner is the bidder and the opponents may still hold
  trumps (each unless the search finds another card better by more than ``REASON`` or
  ``LEAD_REASON`` points, shares of the 24 points a hand holds, and by ``SURE``
  standard errors of the difference besides) —
  Somerset's "bid suit" is the trump the bidder names (under No Trump there is none;
  under 0 it is the 0/0 with the S/S).
"""

from __future__ import annotations

from ..cards import cards_of
from ..partial import hand_of
from ..somerset.rules import DECK, DOUBLES, ROVER, SS, TRUMP_TABLES, score_terms
from . import expert
from .context import Context, Decision
from .inference import Posterior, log_sigmoid
from .search import partnership_margin, play_out
from .somerset import DECIDERS as HARD_DECIDERS
from .somerset import (MAX_BID, Play, estimate_tricks, hand_value, keep_value, partner_safe,
                       rollout_action, trump_words)

EXPERT_PLAY_BUDGET = 7000  # simulated plays per card decision (see search): p95 ≤ 500 ms CPU
# (12000 fits the p95 too, ~340 ms, but on the same hands it showed no gain over 7000:
# docs/benchmarks.md)
BID_SAMPLES = 64  # likely deals per bid, each played out twice (40 left close calls to chance)
# Points a declarer takes beyond what the play-out of the same deal gives it. The
# play-outs play every seat by the normal level's heuristic, while a real bidder (hard
# or expert) searches its kitty, trump and cards: on the real deals of 80 contracts of
# expert-against-hard hands it took 0.9 points more than the play-out, and made 68 where
# the play-out made 63. Left out, the auction's play-outs set contracts a real declarer
# makes — the bidding side's own and the others' alike — and the expert passed hands
# that hard then bid and made (docs/benchmarks.md, "The declarer's edge").
DECLARER_EDGE = 1
TRUMP_SAMPLES = 24  # likely deals per trump (and per discard)
TRUMP_CHOICES = 4  # the most promising trumps by estimate are played out
DISCARD_POOL = 4  # with the most promising trump, every pair of its 4 least useful cards
# Points (on average) a card must gain to overrule a partner's manners: to overtrump a
# partner taking the trick, to lead another suit than the trump the partner named. The
# same shares of a hand's points as Rook's (8 and 20 of its 180): about 4% and 11%.
HAND_POINTS = 24
REASON = 0.04 * HAND_POINTS
LEAD_REASON = 0.11 * HAND_POINTS
# ... and only a gain the search is sure of: that many standard errors of its paired
# difference besides (a search of ~24 deals at the first leads ranks cards by luck as much
# as by merit: the same position's lead changed with the seed)
SURE = 2.0

BID_SCALE = 1.5  # points of hand_value that make a bid one e-fold likelier
TRUMP_SHARPNESS = 1.2  # per estimated trick short of the best trump


# -- inference ----------------------------------------------------------------------------
def auction_of(view: dict, min_bid: int) -> list[tuple[int, str, int]]:
    """(seat, "bid" or "pass", level) for what each seat said: a bid at ``level``, or a
    pass when ``level`` was the lowest bid open. A pass while the partner held the bid
    says little and is left out."""
    said: list[tuple[int, str, int]] = []
    high, holder = None, None
    for data in view["actions"]:
        seat = data.get("seat")
        if "bid" in data:
            high, holder = data["bid"], seat
            said.append((seat, "bid", high))
        elif "pass" in data and (holder is None or holder != (seat + 2) % 4):
            said.append((seat, "pass", min_bid if high is None else high + 1))
    return said


def likelihood_for(ctx: Context, seats: frozenset[int] | None = None):
    """The log-likelihood of a layout given what the other seats said (only ``seats``'
    words, when given)."""
    view, me = ctx.view, ctx.seat
    game = ctx.game
    kitty = game.kitty
    heard = seats if seats is not None else frozenset(range(4)) - {me}
    said = [s for s in auction_of(view, game.min_bid) if s[0] in heard and s[0] != me]
    bidder, trump = view.get("bidder"), view.get("trump")
    if bidder not in heard:
        trump = None
    played_by = ctx.know.played_by

    def likelihood(_know, placed: dict) -> float:
        log = 0.0
        values: dict[int, float] = {}
        for seat, kind, level in said:
            if seat not in values:
                values[seat] = hand_value(placed.get(hand_of(seat), 0) | played_by[seat], kitty)
            gap = (values[seat] - level) / BID_SCALE
            log += log_sigmoid(gap if kind == "bid" else -gap)
        if trump is not None and bidder is not None and bidder != me:
            held = placed.get(hand_of(bidder), 0) | played_by[bidder]
            estimates = {t: estimate_tricks(held, t) for t in TRUMP_TABLES}
            log -= TRUMP_SHARPNESS * (max(estimates.values()) - estimates[trump])
        return log

    return likelihood


# -- finishing a sampled hand ---------------------------------------------------------------
def model_bid(state, seat: int):
    """The normal level's bid or pass, from the seat's real hand (a model of the others)."""
    game = state.game
    value = hand_value(state.hands[seat], game.kitty)
    limit = int(value)
    high = state.high_bid
    if high is not None and state.bidder == (seat + 2) % 4:
        limit = min(limit, high + 1 if value >= high + 3 else 0)
    lowest = state.lowest_bid()
    legal = state.legal_actions(seat)  # pass, then the bids from the lowest up
    return legal[1] if lowest <= min(limit, MAX_BID) and len(legal) > 1 else legal[0]


def discard_for(hand: int, trump: str) -> tuple[int, int]:
    """The normal level's two discards, with ``trump`` in mind."""
    order = sorted(cards_of(hand), key=lambda c: (keep_value(c, hand, trump), c))
    first, second = sorted(order[:2])
    return first, second


def finish(state, trump: str | None = None, discard=None):
    """Play a sampled hand to its end from after the auction: the bidder discards
    (``discard``, or the normal level's for the trump it will name) and names ``trump``
    (or the best by estimate), and all play it out."""
    game = state.game
    while state.phase not in ("play", "done"):  # (done: four passes threw the hand in)
        actor = state.turn
        if state.phase == "kitty":
            named = trump or best_by_estimate(state.hands[actor])
            pair = discard or discard_for(state.hands[actor], named)
            action = game.action_from_json({"seat": actor, "discard": [DECK.names[c] for c in pair]})
        else:
            named = trump or best_by_estimate(state.hands[actor])
            action = game.action_from_json({"seat": actor, "trump": named})
        state.apply(action)
    play_out(state, rollout_action)
    return state


def best_by_estimate(hand: int) -> str:
    return max(TRUMP_TABLES, key=lambda t: estimate_tricks(hand, t))


def ranked_trumps(hand: int) -> list[str]:
    return sorted(TRUMP_TABLES, key=lambda t: -estimate_tricks(hand, t))[:TRUMP_CHOICES]


# -- bidding -------------------------------------------------------------------------------
def decide_bid(ctx: Context) -> Decision:
    view, seat, game = ctx.view, ctx.seat, ctx.game
    lowest = view["bid_range"][0]
    taking = passing = 0.0
    for world, times in Posterior(ctx, likelihood_for(ctx)).worlds(BID_SAMPLES):
        mine = world.clone()
        mine.apply(mine.legal_actions(seat)[1])  # the lowest bid
        while mine.phase == "bidding":
            mine.apply(mine.legal_actions(mine.turn)[0])  # the others pass
        taking += times * credited_margin(game, seat, finish(mine))
        other = world
        other.apply(other.legal_actions(seat)[0])
        while other.phase == "bidding":
            actor = other.turn
            other.apply(other.legal_actions(actor)[0] if actor == seat else model_bid(other, actor))
        passing += times * credited_margin(game, seat, finish(other))
    value, otherwise = taking / BID_SAMPLES, passing / BID_SAMPLES
    if value > otherwise:
        return Decision(game.action_from_json({"seat": seat, "bid": lowest}),
                        f"bid {lowest}: taking the contract scores {value:+.1f} on likely deals, "
                        f"against {otherwise:+.1f} for passing")
    return Decision(game.action_from_json({"seat": seat, "pass": True}),
                    f"pass: the contract at {lowest} scores {value:+.1f} on likely deals, "
                    f"passing {otherwise:+.1f}")


def credited_margin(game, seat: int, hand) -> float:
    """A finished sampled hand's margin for ``seat``'s side (its score minus the other
    side's, 0 if thrown in), the declarers credited ``DECLARER_EDGE`` points more than
    the play-out gave them (taken from the defenders' points, as far as they go)."""
    if hand.bidder is None:
        return 0.0
    side = hand.bidder % 2
    taken = list(hand.taken)
    credit = min(DECLARER_EDGE, taken[1 - side])
    taken[side] += credit
    taken[1 - side] -= credit
    score = [0, 0]
    for term in score_terms(game.scoring, side, hand.high_bid, taken):
        score[term.side] += term.points
    mine = seat % 2
    return score[mine] - score[1 - mine]


# -- the kitty and trump ---------------------------------------------------------------------
def discard_options(hand: int) -> list[tuple[tuple[int, int], str]]:
    """(pair, trump) to play out: every pair of the ``DISCARD_POOL`` cards least worth
    keeping with the most promising trump (the normal discard among them), then the
    normal discard for each other promising trump."""
    trumps = ranked_trumps(hand)
    first = trumps[0]
    pool = sorted(cards_of(hand), key=lambda c: (keep_value(c, hand, first), c))[:DISCARD_POOL]
    options = [((a, b), first) for i, a in enumerate(sorted(pool)) for b in sorted(pool)[i + 1:]]
    normal = discard_for(hand, first)
    options.sort(key=lambda option: option[0] != normal)  # the normal pair first (wins a tie)
    return options + [(discard_for(hand, t), t) for t in trumps[1:]]


def decide_discard(ctx: Context) -> Decision:
    """The (pair, trump) of ``discard_options`` whose hand played best; the pair is
    discarded (the trump is then chosen on its own, the hand as it is)."""
    seat, hand = ctx.seat, ctx.know.hand
    options = discard_options(hand)
    totals = [0.0] * len(options)
    for world, times in Posterior(ctx, likelihood_for(ctx)).worlds(TRUMP_SAMPLES):
        for i, (pair, trump) in enumerate(options):
            state = finish(world.clone(), trump=trump, discard=pair)
            totals[i] += times * partnership_margin(state, seat)
    best = max(range(len(options)), key=lambda i: (totals[i], -i))
    pair, trump = options[best]
    action = ctx.game.action_from_json({"seat": seat, "discard": [ctx.name(c) for c in pair]})
    return Decision(action, f"discard {ctx.name(pair[0])} and {ctx.name(pair[1])}: with "
                            f"{trump_words(trump)} in mind it played best "
                            f"({totals[best] / TRUMP_SAMPLES:+.1f} over {TRUMP_SAMPLES} likely deals)")


def decide_trump(ctx: Context) -> Decision:
    seat = ctx.seat
    options = ranked_trumps(ctx.know.hand)
    totals = [0.0] * len(options)
    for world, times in Posterior(ctx, likelihood_for(ctx)).worlds(TRUMP_SAMPLES):
        for i, trump in enumerate(options):
            state = finish(world.clone(), trump=trump)
            totals[i] += times * partnership_margin(state, seat)
    best = max(range(len(options)), key=lambda i: (totals[i], -i))
    trump = options[best]
    return Decision(ctx.game.action_from_json({"seat": seat, "trump": trump}),
                    f"name {trump_words(trump)}: it played best ({totals[best] / TRUMP_SAMPLES:+.1f} "
                    f"on average over {TRUMP_SAMPLES} likely deals)")


# -- card play ---------------------------------------------------------------------------------
def manners(ctx: Context) -> expert.Manners:
    state, seat = ctx.state, ctx.seat
    partner = (seat + 2) % 4
    trumps = state.table.trumps
    holdings = ctx.know.holdings()
    play = Play(state, seat, holdings, False)
    taking = bool(state.trick) and state.winning_seat == partner and (
        not play.later or partner_safe(play))
    opponents_trumps = any(holdings[s] & trumps for s in ((seat + 1) % 4, (seat + 3) % 4))
    partner_bid = not state.trick and state.bidder == partner and opponents_trumps

    def overtrumps(card: int) -> bool:
        return taking and bool(trumps >> card & 1) and state.winner_if(((seat, card),)) == seat

    def partner_suit(card: int) -> bool:
        return partner_bid and bool(trumps >> card & 1)

    return expert.Manners(overtrumps, partner_suit, REASON, LEAD_REASON, SURE)


def ranks_among(state):
    """A card -> the cards it ranks among (``expert.touching``): the trumps, or its
    suit. Never merged: the 0/0 and the S/S (their own rules) and the doubles (the 0/0
    on a trick promotes them)."""
    follow_of = state.table.follow_of

    def group(card: int) -> int:
        if card in (ROVER, SS) or DOUBLES >> card & 1:
            return 0
        return follow_of[card]

    return group


def decide_play(ctx: Context) -> Decision:
    return expert.play(ctx, EXPERT_PLAY_BUDGET, rollout_action, partnership_margin,
                       None, manners(ctx), ranks_among(ctx.state))  # uniform deals: see the module docstring


DECIDERS = {**HARD_DECIDERS, "bidding": decide_bid, "kitty": decide_discard,
            "trump": decide_trump, "play": decide_play}
