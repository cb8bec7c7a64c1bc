"""The expert level's card play: weighted search, then a partner's manners.

Like the hard level (``search``), every legal card is played out on the same sampled
deals and the best average kept. The expert differs in three ways:

* its deals are weighted by what the other seats did (``inference.Posterior``): a
  bidder long in trump, a seat that passed at once weak;
* it samples more of them (the title's ``EXPERT_PLAY_BUDGET``);
* it plays as a partner should (``Manners``): it does not overtrump a partner who is
  taking the trick, and it leads the suit its partner bid (the trump the partner
  named, while the opponents may still hold trumps), unless the search finds another
  card better by more than the title's reason — a margin in the title's own points, so
  a real gain still wins.

Every choice is a pure function of the view and the seed, as at every level.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..actions import Action
from .context import Context, Decision
from .inference import Posterior
from .search import play_out, sample_count

MAX_SAMPLES = 240


class Manners(NamedTuple):
    """What a partner's manners need of a title, for one decision. The reasons are how
    much better (in the title's points, on average) another card must score to be
    played instead."""

    overtrumps: Callable[[int], bool]  # card -> it would overtrump a partner taking the trick
    partner_suit: Callable[[int], bool]  # card -> a lead of the suit the partner bid
    reason: float  # to overtrump all the same
    lead_reason: float  # to lead another suit all the same


class Scored(NamedTuple):
    action: Action
    mean: float


def search(ctx: Context, budget: int, rollout_action, evaluate, likelihood) -> tuple[list[Scored], int]:
    """Every legal action's average play-out value over the same weighted deals; and how
    many deals that was."""
    legal = ctx.legal
    plays_left = sum(ctx.view["cards_left"])
    samples = max(1, min(MAX_SAMPLES, sample_count(budget, len(legal), plays_left)))
    totals = [0.0] * len(legal)
    seat = ctx.seat
    for world, times in Posterior(ctx, likelihood).worlds(samples):
        for i, action in enumerate(legal):
            state = world.clone()
            state.apply(action)
            play_out(state, rollout_action)
            totals[i] += times * evaluate(state, seat)
    return [Scored(a, t / samples) for a, t in zip(legal, totals)], samples


def choose(scored: list[Scored], manners: Manners | None) -> tuple[Scored, str]:
    """The best-scoring card, unless manners prefer another that scores within
    ``reason`` of it; and what the manners said (empty when they did not matter)."""
    best = max(scored, key=lambda s: s.mean)  # (the first of equals: legal order)
    if manners is None:
        return best, ""
    if manners.overtrumps(best.action.value):
        polite = [s for s in scored if not manners.overtrumps(s.action.value)]
        if polite:
            kept = max(polite, key=lambda s: s.mean)
            if best.mean - kept.mean <= manners.reason:
                return kept, "partner is taking the trick: no need to overtrump"
    elif not manners.partner_suit(best.action.value):
        suit = [s for s in scored if manners.partner_suit(s.action.value)]
        if suit:
            lead = max(suit, key=lambda s: s.mean)
            if best.mean - lead.mean <= manners.lead_reason:
                return lead, "lead the trump partner named"
    return best, ""


def play(ctx: Context, budget: int, rollout_action, evaluate, likelihood,
         manners: Manners | None) -> Decision:
    """The expert's card: search, then manners."""
    legal = ctx.legal
    if len(legal) == 1:
        return Decision(legal[0], f"play {_card(ctx, legal[0])}: the only legal card")
    scored, samples = search(ctx, budget, rollout_action, evaluate, likelihood)
    chosen, why = choose(scored, manners)
    reason = f"play {_card(ctx, chosen.action)}: "
    if why:
        return Decision(chosen.action, reason + why)
    return Decision(chosen.action, reason + f"over {samples} likely deals it scores best "
                                            f"({chosen.mean:+.1f} on average)")


def _card(ctx: Context, action) -> str:
    name = ctx.name(action.value)
    return f"{name} {action.extra}" if action.extra else name
