"""Rook's expert level: the hard level's search, with inference, bidding by expected score
and a partner's manners.

* **Inference** (``likelihood``): a sampled deal is weighted by how well it explains
  the auction (each seat's bids and passes against the normal level's ``hand_value``
  of its dealt cards), the bidder's trump (named colours are long and strong) and its
  bury (trump and 1s are rarely buried).
* **Bidding**: on the same likely deals, the hand is played out twice — with this seat
  the bidder, and with this seat passing while the others bid as the normal level
  would. It bids on while taking the contract at the next bid (and raising to the best
  contract after) scores more, on average, than passing. The **raise** goes to the contract whose expected
  score (+contract made, −contract set) is best over the same play-outs.
* **Bury and trump**: every colour, buried for as the normal level would or keeping
  the point cards, played out on likely deals.
* **Card play**: ``expert.play`` with ``EXPERT_PLAY_BUDGET`` (touching cards merged:
  ``ranks_among``) and Rook's manners: no
  trump over a partner whose card takes the trick (unless it gains more than
  ``REASON`` points), and the partner's trump colour led when the partner is the
  bidder and the opponents may still hold trump (unless another lead gains more than
  ``LEAD_REASON``) — Rook's "bid suit" is the trump colour the bidder names.
"""

from __future__ import annotations

from ..cards import cards_of
from ..partial import hand_of
from ..rook.rules import (BID_STEP, CARDS_PER_COLOUR, COLOUR_MASKS, COLOUR_NAMES, COLOURS, DECK, MAX_BID,
                          MIN_BID, POINTS, ROOK, ROOK_BIT)
from . import expert
from .context import Context, Decision
from .inference import Posterior, log_sigmoid
from .rook import DECIDERS as HARD_DECIDERS
from .rook import (RANK, Trick, colour_strength, finish_as_bidder, hand_value, plan_bury,
                   rollout_action)
from .search import partnership_margin, play_out

EXPERT_PLAY_BUDGET = 26000  # simulated plays per card decision (see search): p95 ≤ 500 ms CPU
BID_SAMPLES = 48  # likely deals per bid or raise, each played out twice
BURY_SAMPLES = 32  # likely deals per colour at the bury
# Points (on average) a card must gain to overrule a partner's manners: to overtrump a
# partner taking the trick, to lead another suit than the trump the partner named
REASON = 8
LEAD_REASON = 20
TOTAL = sum(POINTS)  # 180 points in every hand

# Inference: how sharply the other seats' choices are read (see likelihood)
BID_SCALE = 12.0  # points of hand_value that make a bid one e-fold likelier
TRUMP_SHARPNESS = 0.12  # per point of colour_strength short of the best colour
BURIED_TOP = 2.0  # log-weight lost per trump or 1 in the bury


# -- inference ----------------------------------------------------------------------------
def auction_of(view: dict) -> list[tuple[int, str, int]]:
    """What each seat said, as (seat, "bid" or "pass", level): a bid (or a raise) at
    ``level``, or a pass when ``level`` was the lowest bid open to it. Passes while the
    partner held the bid say little and are left out."""
    said: list[tuple[int, str, int]] = []
    high, holder = None, None
    for data in view["actions"]:
        seat = data.get("seat")
        if "bid" in data:
            high, holder = data["bid"], seat
            said.append((seat, "bid", high))
        elif "pass" in data:
            if holder is None or holder != (seat + 2) % 4:
                said.append((seat, "pass", MIN_BID if high is None else high + BID_STEP))
        elif "raise" in data:
            contract = high if high is not None else MIN_BID
            if data["raise"] is None:
                said.append((seat, "pass", contract + BID_STEP))
            else:
                said.append((seat, "bid", data["raise"]))
    return said


def likelihood_for(ctx: Context):
    """The log-weight of a sampled layout, given this view (see the module's notes)."""
    view, me = ctx.view, ctx.seat
    said = [s for s in auction_of(view) if s[0] != me]
    contract = view.get("contract")
    bidder = contract["bidder"] if contract else None
    widow = DECK.mask_of(view["widow"]) if view.get("widow") else 0
    taken = view["phase"] in ("bury", "play", "done")
    trump = COLOURS.index(view["trump"]) if view.get("trump") else None
    played_by = ctx.know.played_by

    def dealt(placed: dict, seat: int) -> int:
        cards = placed.get(hand_of(seat), 0) | played_by[seat]
        if taken and seat == bidder:
            cards = (cards | placed.get("buried", 0)) & ~widow
        return cards

    def likelihood(_know, placed: dict) -> float:
        log = 0.0
        values = {}
        for seat, kind, level in said:
            if seat not in values:
                values[seat] = hand_value(dealt(placed, seat))
            gap = (values[seat] - level) / BID_SCALE
            log += log_sigmoid(gap if kind == "bid" else -gap)
        if trump is not None and bidder is not None and bidder != me:
            held = placed.get(hand_of(bidder), 0) | played_by[bidder] | placed.get("buried", 0)
            strengths = [colour_strength(held, c) for c in range(4)]
            log -= TRUMP_SHARPNESS * (max(strengths) - strengths[trump])
            buried = placed.get("buried", 0)
            if buried:
                tops = buried & (COLOUR_MASKS[trump] | ROOK_BIT)
                tops |= sum(1 << c for c in cards_of(buried) if RANK[c] == 13)
                log -= BURIED_TOP * tops.bit_count()
        return log

    return likelihood


# -- bidding and the raise ----------------------------------------------------------------------
def contract_value(taken: list[int], contract: int) -> float:
    """The average margin (this side minus the other) of bidding ``contract`` over
    play-outs where this side took ``taken``: ±contract, and the others' count."""
    total = 0
    for took in taken:
        total += (contract if took >= contract else -contract) - (TOTAL - took)
    return total / len(taken)


def best_contract(taken: list[int], lowest: int) -> tuple[int, float]:
    """The contract from ``lowest`` up whose average margin is best."""
    options = range(lowest, MAX_BID + 1, BID_STEP)
    return max(((c, contract_value(taken, c)) for c in options), key=lambda cv: (cv[1], -cv[0]))


def model_bid(state, seat: int):
    """The normal level's bid or pass, from the seat's real hand (a model of the others)."""
    value = hand_value(state.hands[seat])
    limit = min(MAX_BID, value - value % BID_STEP)
    high = state.high_bid
    if high is not None and state.high_bidder == (seat + 2) % 4:
        limit = min(limit, high + 15 if value >= high + 25 else 0)
    legal = state.legal_actions(seat)  # pass, then the bids from the lowest up
    lowest = MIN_BID if high is None else high + BID_STEP
    return legal[1] if lowest <= limit and len(legal) > 1 else legal[0]


def played_out(ctx: Context) -> tuple[list[int], list[float]]:
    """On likely deals: what this side takes as the bidder; and, in the auction, its
    margin when it passes from now on and the others bid as the normal level would
    (one entry per deal, as weighted)."""
    seat = ctx.seat
    mine: list[int] = []
    theirs: list[float] = []
    for world, times in Posterior(ctx, likelihood_for(ctx)).worlds(BID_SAMPLES):
        declared = finish_as_bidder(world.clone(), seat)
        mine += [declared.taken[seat % 2]] * times
        if world.phase == "bidding":
            while world.phase == "bidding":
                actor = world.turn
                world.apply(world.legal_actions(actor)[0] if actor == seat else model_bid(world, actor))
            theirs += [partnership_margin(finish_as_bidder(world, world.bidder), seat)] * times
    return mine, theirs


def decide_bid(ctx: Context) -> Decision:
    view, seat = ctx.view, ctx.seat
    high = view.get("high_bid")
    lowest = MIN_BID if high is None else high + BID_STEP
    mine, theirs = played_out(ctx)
    contract, value = best_contract(mine, lowest)
    otherwise = sum(theirs) / len(theirs)
    if lowest <= MAX_BID and value > otherwise:
        return Decision(ctx.game.action_from_json({"seat": seat, "bid": lowest}),
                        f"bid {lowest}: taking the contract (up to {contract}) scores {value:+.0f} "
                        f"on likely deals, against {otherwise:+.0f} for passing")
    return Decision(ctx.game.action_from_json({"seat": seat, "pass": True}),
                    f"pass: the contract at {lowest} scores {value:+.0f} on likely deals, "
                    f"letting it go {otherwise:+.0f}")


def decide_raise(ctx: Context) -> Decision:
    contract = ctx.view["contract"]["amount"]
    mine, _ = played_out(ctx)
    target, value = best_contract(mine, contract)
    if target > contract:
        return Decision(ctx.game.action_from_json({"seat": ctx.seat, "raise": target}),
                        f"raise to {target}: on likely deals it scores best ({value:+.0f})")
    return Decision(ctx.game.action_from_json({"seat": ctx.seat, "raise": None}),
                    f"keep {contract}: on likely deals a raise scores less ({value:+.0f})")


# -- bury and trump ------------------------------------------------------------------------------
def bury_options(hand: int) -> list[tuple[tuple, int]]:
    """(cards, colour) worth trying: for every colour, the normal level's bury, and one
    that keeps the point cards (burying the lowest of the rest) — whoever takes the
    last trick takes the buried points, so keeping them is sometimes the better risk."""
    options: list[tuple[tuple, int]] = []
    for colour in range(4):
        cards, _ = plan_bury(hand, "normal", colour)
        options.append((cards, colour))
        trumps = COLOUR_MASKS[colour] | ROOK_BIT
        side = sorted((c for c in cards_of(hand & ~trumps)), key=lambda c: (POINTS[c] > 0, RANK[c], c))
        if len(side) >= 5:
            keeping = tuple(sorted(side[:5]))
            if keeping != cards:
                options.append((keeping, colour))
    return options


def decide_bury(ctx: Context) -> Decision:
    """The bury options (``bury_options``) played out on the same likely deals."""
    seat, game = ctx.seat, ctx.game
    options = bury_options(ctx.know.hand)
    actions = [game.action_from_json({"seat": seat, "bury": [DECK.names[c] for c in cards],
                                      "trump": COLOURS[colour]}) for cards, colour in options]
    totals = [0.0] * len(options)
    for world, times in Posterior(ctx, likelihood_for(ctx)).worlds(BURY_SAMPLES):
        for i, action in enumerate(actions):
            state = world.clone()
            state.apply(action)
            play_out(state, rollout_action)
            totals[i] += times * partnership_margin(state, seat)
    best = max(range(len(options)), key=lambda i: (totals[i], -i))
    cards, colour = options[best]
    names = ", ".join(ctx.name(c) for c in cards)
    return Decision(actions[best], f"bury {names} and name {COLOUR_NAMES[COLOURS[colour]]}: it "
                                   f"played best ({totals[best] / BURY_SAMPLES:+.0f} on average "
                                   f"over {BURY_SAMPLES} likely deals)")


# -- card play --------------------------------------------------------------------------------------
def manners(ctx: Context) -> expert.Manners:
    state, seat = ctx.state, ctx.seat
    trick = Trick(state, seat)
    trump = trick.trump
    partner = (seat + 2) % 4
    holdings = ctx.know.holdings()
    best = trick.best
    taking = best is not None and trick.winner == partner and (
        not trick.later or trick.safe(best, holdings))
    opponents_trumps = any(holdings[s] & trump for s in ((seat + 1) % 4, (seat + 3) % 4))
    partner_bid = state.bidder == partner and best is None and opponents_trumps

    def overtrumps(card: int) -> bool:
        return taking and bool(trump >> card & 1) and trick.wins(card)

    def partner_suit(card: int) -> bool:
        return partner_bid and bool(trump >> card & 1)

    return expert.Manners(overtrumps, partner_suit, REASON, LEAD_REASON)


def ranks_among(state):
    """A card -> the cards it ranks among (``expert.touching``): the trumps, or its
    colour; the Rook (above every trump, 20 points) is never merged."""
    trump = state.trump_mask

    def group(card: int) -> int:
        if card == ROOK:
            return 0
        return trump if trump >> card & 1 else COLOUR_MASKS[card // CARDS_PER_COLOUR]

    return group


def decide_play(ctx: Context) -> Decision:
    return expert.play(ctx, EXPERT_PLAY_BUDGET, rollout_action, partnership_margin,
                       likelihood_for(ctx), manners(ctx), ranks_among(ctx.state))


DECIDERS = {**HARD_DECIDERS, "bidding": decide_bid, "raise": decide_raise, "bury": decide_bury,
                   "play": decide_play}
