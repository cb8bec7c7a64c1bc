"""The expert level's card play: weighted search, then a partner's manners.

Like the hard level (``search``), every legal card is played out on the same sampled
deals and the best average kept. The expert differs in three ways:

* its deals may be weighted by what the other seats did (``inference.Posterior``): a
  bidder long in trump, a seat that passed at once weak (Rook's are; Somerset's card
  play draws them uniformly, as hard does: weighted, they misled its search);
* it samples more of them (the title's ``EXPERT_PLAY_BUDGET``), and spends them where
  they decide something: touching cards (the 10 and the queen once the jack is played)
  are one choice, played out once (``touching``), and a card clearly behind stops
  meeting deals (``Race``);
* it plays as a partner should (``Manners``): it does not overtrump a partner who is
  taking the trick, and it leads the suit its partner bid (the trump the partner
  named, while the opponents may still hold trumps), unless the search finds another
  card better by more than the title's reason — a margin in the title's own points, so
  a real gain still wins (and, where the title asks it, a gain the search is sure of
  among all the cards it compared: ``sure_among``).

Every choice is a pure function of the view and the seed, as at every level.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from statistics import NormalDist
from typing import NamedTuple

from ..actions import Action
from .context import Context, Decision
from .inference import Posterior
from .search import play_out, sample_count

MAX_SAMPLES = 240
RACE_AFTER = 16  # deals every legal card meets before any is dropped
RACE_EVERY = 8
RACE_SIGMAS = 3.0


class Manners(NamedTuple):
    """What a partner's manners need of a title, for one decision. The reasons are how
    much better (in the title's points, on average) another card must score to be
    played instead."""

    overtrumps: Callable[[int], bool]  # card -> it would overtrump a partner taking the trick
    partner_suit: Callable[[int], bool]  # card -> a lead of the suit the partner bid
    reason: float  # to overtrump all the same
    lead_reason: float  # to lead another suit all the same
    # Standard errors of the search's paired difference the gain must clear besides the
    # reason (0: its average alone decides). Early in a hand a search of a few dozen
    # deals ranks cards by luck as much as by merit; a gain the search is not sure of is
    # no reason to drop the manners. Said for one comparison: the best of several cards
    # is the luckiest of them too, so it is asked more of (``sure_among``).
    sure: float = 0.0


class Scored(NamedTuple):
    action: Action
    mean: float
    error: Callable[[int], float] | None = None  # another's index -> the paired difference's standard error
    twin: bool = False  # scored as another card (touching it, or alike on every deal): no rival of its own


def touching(cards: list[int], ranks_among: Callable[[int], int], points, outstanding: int) -> list[int]:
    """For each card, the index of the first (lowest) card it is interchangeable with:
    itself, unless a lower card of the same rank group (``ranks_among``: the mask of the
    cards it ranks among — its suit, or the trumps; 0 for a card never merged), worth
    the same points, has no card that another seat may still play (``outstanding``)
    ranked between them. Such cards win, lose and score exactly alike whatever the
    others hold — the 10 and the queen once the jack is played — so the search plays
    out one of them and spends what it saves on more deals."""
    roots = list(range(len(cards)))
    order = sorted(range(len(cards)), key=lambda i: cards[i])  # card numbers rank a group's cards
    for k, i in enumerate(order):
        high, group = cards[i], ranks_among(cards[i])
        for j in order[:k] if group else ():
            low = cards[j]
            between = ((1 << high) - 1) & ~((2 << low) - 1)
            if ranks_among(low) == group and points[low] == points[high] and not between & group & outstanding:
                roots[i] = j  # the lowest such card: a root itself (touching is transitive)
                break
    return roots


def outstanding_cards(ctx: Context) -> int:
    """Cards another seat may still play, or has played to the trick under way."""
    know, seat = ctx.know, ctx.seat
    mask = 0
    for other in range(know.n):
        if other != seat:
            mask |= know.possible(other)
    for _, card in ctx.state.trick:
        mask |= 1 << card
    return mask


def search(ctx: Context, budget: int, rollout_action, evaluate, likelihood,
           keep_within: float = 0.0, ranks_among: Callable[[int], int] | None = None
           ) -> tuple[list[Scored], int]:
    """Every legal action's average play-out value over the same weighted deals, and
    how many deals were drawn. A race: after ``RACE_AFTER`` deals, and every
    ``RACE_EVERY`` after, an action that has scored exactly as an earlier one on every
    deal so far is taken for its twin (Rook's B3 and B4, say), and one trailing the
    leader by more than ``keep_within`` plus ``RACE_SIGMAS`` standard errors of the
    difference (paired: the same deals) is dropped; neither meets more deals, so the
    clear cases cost a fraction of the budget. A dropped action is never the choice.
    With ``ranks_among``, cards that are ``touching`` are twins from the start: only
    the lowest is played out, and the deals are shared among fewer cards."""
    legal = ctx.legal
    plays_left = sum(ctx.view["cards_left"])
    seat = ctx.seat
    race = Race(len(legal), keep_within)
    if ranks_among is not None:
        cards = [action.value for action in legal]
        for i, root in enumerate(touching(cards, ranks_among, ctx.game.deck.points_of,
                                          outstanding_cards(ctx))):
            if root != i:
                race.twin[i] = root
                race.alive.remove(i)
    samples = max(1, min(MAX_SAMPLES, sample_count(budget, len(race.alive), plays_left)))
    for number, (world, times) in enumerate(Posterior(ctx, likelihood).worlds(samples), 1):
        race.weights.append(times)
        for i in race.alive:
            state = world.clone()
            state.apply(legal[i])
            play_out(state, rollout_action)
            race.values[i].append(evaluate(state, seat))
        if len(race.alive) > 1 and number >= RACE_AFTER and number % RACE_EVERY == 0:
            race.narrow()
    return [Scored(a, m, partial(race.error, i), i in race.twin)
            for i, (a, m) in enumerate(zip(legal, race.means()))], samples


class Race:
    """The values each action has scored so far, and which are still in the race."""

    def __init__(self, actions: int, keep_within: float):
        self.values: list[list[float]] = [[] for _ in range(actions)]  # per deal played
        self.weights: list[int] = []  # how many drawn deals each played deal stands for
        self.alive = list(range(actions))
        self.twin: dict[int, int] = {}  # an action -> the earlier one it scored exactly as
        self.keep_within = keep_within

    def mean(self, i: int) -> float:
        seen = self.values[i]
        return sum(v * w for v, w in zip(seen, self.weights)) / sum(self.weights[:len(seen)])

    def narrow(self) -> None:
        first: dict[tuple, int] = {}
        for i in list(self.alive):
            twin = first.setdefault(tuple(self.values[i]), i)
            if twin != i:
                self.twin[i] = twin
                self.alive.remove(i)
        leader = max(self.alive, key=self.mean)
        self.alive = [i for i in self.alive if i == leader or not self._behind(i, leader)]

    def _behind(self, i: int, leader: int) -> bool:
        gap, error = self._difference(leader, i)
        return gap > self.keep_within + RACE_SIGMAS * error

    def _difference(self, i: int, j: int) -> tuple[float, float]:
        """The mean of ``i``'s value less ``j``'s over the deals both met, and its
        standard error (paired: the same deals)."""
        diffs = [a - b for a, b in zip(self.values[i], self.values[j])]
        weights = self.weights[:len(diffs)]
        count = sum(weights)
        if not count:
            return 0.0, math.inf
        gap = sum(d * w for d, w in zip(diffs, weights)) / count
        spread = sum(w * (d - gap) ** 2 for d, w in zip(diffs, weights)) / max(1, count - 1)
        return gap, math.sqrt(spread / count)

    def error(self, i: int, j: int) -> float:
        """The standard error of the difference between actions ``i`` and ``j`` (twins
        as their roots); 0 when either was dropped (a drop was already sure, and a
        dropped action is never to be chosen)."""
        i, j = self._root(i), self._root(j)
        if i not in self.alive or j not in self.alive:
            return 0.0
        return self._difference(i, j)[1]

    def means(self) -> list[float]:
        """Each action's mean: a twin's is its twin's; a dropped action's is kept below
        the best by more than ``keep_within``, so that it is never chosen."""
        own = [self.mean(i) if i not in self.twin else 0.0 for i in range(len(self.values))]
        best = max(own[i] for i in self.alive)
        for i in range(len(own)):
            if i not in self.alive and i not in self.twin:
                own[i] = min(own[i], best - self.keep_within - 1e-9)
        return [own[self._root(i)] for i in range(len(own))]  # a twin scores as its root

    def _root(self, i: int) -> int:
        while i in self.twin:
            i = self.twin[i]
        return i


def choose(scored: list[Scored], manners: Manners | None) -> tuple[Scored, str]:
    """The best-scoring card, unless manners prefer another that scores within
    ``reason`` of it (plus ``sure`` standard errors of the difference, more when the best
    beat more rivals: ``sure_among``); and what the manners said (empty when they did
    not matter)."""
    best = max(scored, key=lambda s: s.mean)  # (the first of equals: legal order)
    if manners is None:
        return best, ""

    sure = sure_among(manners.sure, sum(not s.twin for s in scored))

    def no_reason(kept: Scored, reason: float) -> bool:
        doubt = sure * best.error(scored.index(kept)) if sure and best.error else 0.0
        return best.mean - kept.mean <= reason + doubt

    if manners.overtrumps(best.action.value):
        polite = [s for s in scored if not manners.overtrumps(s.action.value)]
        if polite:
            kept = max(polite, key=lambda s: s.mean)
            if no_reason(kept, manners.reason):
                return kept, "partner is taking the trick: no need to overtrump"
    elif not manners.partner_suit(best.action.value):
        suit = [s for s in scored if manners.partner_suit(s.action.value)]
        if suit:
            lead = max(suit, key=lambda s: s.mean)
            if no_reason(lead, manners.lead_reason):
                return lead, "lead the trump partner named"
    return best, ""


def sure_among(sure: float, rivals: int) -> float:
    """Standard errors that make a gain as sure for the best of ``rivals`` cards as
    ``sure`` makes it for one comparison (Bonferroni over the rivals it beat: the best
    of nine cards at 30 deals is ahead partly by luck, and by more than one of two)."""
    if not sure or rivals <= 2:
        return sure
    normal = NormalDist()
    return normal.inv_cdf(1 - (1 - normal.cdf(sure)) / (rivals - 1))


def play(ctx: Context, budget: int, rollout_action, evaluate, likelihood,
         manners: Manners | None, ranks_among: Callable[[int], int] | None = None) -> Decision:
    """The expert's card: search (touching cards merged when the title says how its
    cards rank: ``ranks_among``), then manners."""
    legal = ctx.legal
    if len(legal) == 1:
        return Decision(legal[0], f"play {_card(ctx, legal[0])}: the only legal card")
    keep_within = max(manners.reason, manners.lead_reason) if manners else 0.0  # (a race's drop is sure)
    scored, samples = search(ctx, budget, rollout_action, evaluate, likelihood, keep_within, ranks_among)
    chosen, why = choose(scored, manners)
    reason = f"play {_card(ctx, chosen.action)}: "
    if why:
        return Decision(chosen.action, reason + why)
    deals = "likely deals" if likelihood is not None else "deals that fit what has been seen"
    return Decision(chosen.action, reason + f"over {samples} {deals} it scores best "
                                            f"({chosen.mean:+.1f} on average)")


def _card(ctx: Context, action) -> str:
    name = ctx.name(action.value)
    return f"{name} {action.extra}" if action.extra else name
