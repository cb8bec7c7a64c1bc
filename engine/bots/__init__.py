"""Computer players: pure functions of a seat's view plus a seed.

    from engine.bots import make_bot
    bot = make_bot("normal", seed)            # "random", "easy", "normal", "hard", "expert"
    action = bot.choose(game, view)           # an engine Action for view["seat"]
    record = bot.choose_json(game, view)      # the same in hand-record form
    hint = bot.explain(game, view)            # one sentence for a hint button

``view`` is what ``State.view(seat)`` gives that seat — a plain dict of names and
numbers — and ``game`` the ``engine.make_game(...)`` it belongs to. A bot never sees
more: it rebuilds the hand from the view (``knowledge.Knowledge``) and, where it
searches, samples the cards it cannot see. Call it only when ``view["seat"]`` is in
``view["to_act"]``; it answers every decision a player makes (bids and passes, Rook's
raise, "Got it", bury and trump, Somerset's discard and trump, Horseshoes' bid with
trump and the left-over card, every card with its ace declaration).

The same view and seed always give the same choice: each decision draws from a
generator seeded by the bot's seed and the view, never from the clock or the global
``random`` module. For a table host that holds the whole State, ``choose(state, seat)``
is accepted too and passes the bot only ``state.view(seat)``.

Levels:

* ``easy``: plain habits — cautious bids, the longest suit as trump, lead high, win
  when it can, otherwise play low. No counting, no partner play.
* ``normal``: hand evaluation for bids and trump (No Trump and /0 in Somerset), a
  bury/discard that keeps winners and makes voids, and card play that counts what has
  been played, notes who is out of a suit, draws trumps, feeds partner's sure tricks
  and wins tricks as cheaply as it can (in Horseshoes: exactly as many as it bid).
* ``hard``: search over the hidden cards (``search``): deals consistent with the view
  are sampled and played out with the normal heuristic for every seat (each seeing the
  sampled deal). Its cards: every legal card is tried on the same deals, the best
  average kept (perfect-information Monte Carlo). Its bids: what its side took as the
  bidder in a cautious quantile of play-outs (Rook, Somerset), or the bid, among the
  normal one and its neighbours, that missed least (Horseshoes). Rook's bury and trump
  and Somerset's trump: the candidates are played out too. Budgets are counts of
  sampled deals and simulated plays, never time, sized for ≤ 300 ms a decision (p95).
* ``expert`` (Rook and Somerset; elsewhere it plays as ``hard``): the hard level's
  search over deals weighted by what the other seats did — bids, passes, the trump
  named, Rook's bury (``inference``; Somerset's card play draws its deals uniformly,
  as hard does, since weighted deals misled it there) — with a race that stops spending deals on cards
  clearly behind (``expert``); bids, Rook's raise and bury and Somerset's discard and
  trump by expected score over play-outs; and a partner's manners: no overtrumping a
  partner who is taking the trick, the trump its partner named led (each unless the
  search finds a clear gain). Sized for ≤ 500 ms a decision (p95, CPU). Its results
  against hard are in docs/benchmarks.md.
* ``random``: ``RandomBot``, a uniformly random legal action (the floor; tests).
"""

from __future__ import annotations

from .base import LEVELS, Bot, Decision
from .random_bot import RandomBot

ALL_LEVELS = ("random",) + LEVELS

__all__ = ["ALL_LEVELS", "LEVELS", "Bot", "Decision", "RandomBot", "make_bot"]


def make_bot(level: str | None, seed: int | bytes | str = 0):
    """A bot of ``level`` ("random", "easy", "normal", "hard", "expert"; None means
    "normal")."""
    if level == "random":
        return RandomBot(seed)
    return Bot(level or "normal", seed)
