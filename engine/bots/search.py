"""The hard level's card play: perfect-information Monte Carlo over the hidden cards.

For one decision: sample deals consistent with everything the seat has seen
(``Knowledge.determinize``: cards played, voids shown, open spare cards, its own bury
or discards), play every legal card in each of them, finish the hand with a fast
heuristic for all four seats (each seeing the sampled deal), and keep the card whose
play-outs score best on average. Every candidate meets the same sampled deals, so
their differences are not luck of the draw.

The budget is counted in simulated plays, never in wall-clock time, so the choice is
a pure function of the view and the seed. Each title's policy module passes its own
``PLAY_BUDGET``, sized on the reference two-core machine so that a decision's 95th
percentile stays under 300 ms (see the arena's decision times).
"""

from __future__ import annotations

from .context import Context, Decision

MIN_SAMPLES = 4
MAX_SAMPLES = 160


def sample_count(budget: int, candidates: int, plays_left: int) -> int:
    """Sampled deals for one decision: ``budget`` simulated plays shared out."""
    per_sample = max(1, candidates * plays_left)
    return max(MIN_SAMPLES, min(MAX_SAMPLES, budget // per_sample))


def play_out(state, rollout_action) -> None:
    apply = state.apply
    while state.turn is not None and not state.is_over:
        apply(rollout_action(state))


def search_play(ctx: Context, budget: int, rollout_action, evaluate, prefer=None) -> Decision:
    """The legal card whose play-outs score best over sampled deals; ``budget`` is the
    title's simulated plays per decision."""
    legal = ctx.legal
    if len(legal) == 1:
        return Decision(legal[0], f"play {_card(ctx, legal[0])}: the only legal card")
    plays_left = sum(ctx.view["cards_left"])
    samples = sample_count(budget, len(legal), plays_left)
    totals = [0.0] * len(legal)
    for _ in range(samples):
        world = ctx.know.determinize(ctx.rng, prefer)
        for i, action in enumerate(legal):
            state = world.clone()
            state.apply(action)
            play_out(state, rollout_action)
            totals[i] += evaluate(state, ctx.seat)
    order = sorted(range(len(legal)), key=lambda i: (-totals[i], i))
    best = order[0]
    mean = totals[best] / samples
    reason = (f"play {_card(ctx, legal[best])}: over {samples} deals that fit what has been "
              f"seen, it scores best ({mean:+.1f} on average")
    if len(order) > 1:
        gap = (totals[best] - totals[order[1]]) / samples
        reason += f", {gap:.1f} ahead of {_card(ctx, legal[order[1]])}"
    return Decision(legal[best], reason + ")")


# -- decisions before play: try each option on sampled deals ------------------------------
def compare_options(ctx: Context, options: list, apply_option, evaluate, samples: int) -> list[float]:
    """Average play-out value of each option over the same ``samples`` sampled deals.
    ``apply_option(world, option)`` turns a sampled deal (a State at the current
    moment, every card placed) into a finished hand."""
    totals = [0.0] * len(options)
    for _ in range(samples):
        world = ctx.know.determinize(ctx.rng)
        for i, option in enumerate(options):
            state = apply_option(world.clone(), option)
            totals[i] += evaluate(state, ctx.seat)
    return [t / samples for t in totals]


def _card(ctx: Context, action) -> str:
    name = ctx.name(action.value)
    return f"{name} {action.extra}" if action.extra else name


def partnership_margin(state, seat: int) -> float:
    """A finished hand's value for ``seat`` in a partnership game: its side's score
    change minus the other side's (Rook and Somerset play-outs are judged by it)."""
    score = state.result().score
    side = seat % 2
    return score[side] - score[1 - side]
