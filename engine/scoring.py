"""How a finished hand was scored, in the ruleset's own words: a pure function.

Each title's ``finish`` adds up the ``ScoreTerm``s its ``score_terms`` gives, so the
explanation a player reads after a hand is the arithmetic that made the score, not a
second copy of it that could drift. ``breakdown(state)`` puts together, as plain
values for the hand-over event:

* ``contract``: who bid what and what they took (Somerset, Rook), or None;
* ``terms``: per side, the score change with the rule's words and the working
  ("set — double the shortfall", "2 × (14 − 10)", −8);
* ``cards``: the cards hidden during the hand that the hand counted or revealed at its
  end (Rook's buried cards, Somerset's kitty discards or open widow, Horseshoes'
  left-over card), with their points and the side that took them.

A hand a proven cheat forfeited (``State.forfeit``) is scored by the title's
``forfeit_score`` instead: its contract and terms come from there, it shows no cards
(nothing hidden was counted), and ``forfeit`` says whose cheat, which rule.
"""

from __future__ import annotations

from typing import NamedTuple


class ScoreTerm(NamedTuple):
    """One side's score change for one rule of the hand's scoring."""

    side: int
    points: int
    words: str  # the rule in the ruleset's terms: "set — double the shortfall"
    working: str = ""  # the sum behind ``points``: "2 × (14 − 10)"


class ScoredCards(NamedTuple):
    """Cards that were out of sight during the hand, shown once it is scored."""

    label: str  # "Buried cards"
    cards: tuple  # card numbers
    points: int | None  # the count points in them; None where cards carry no points
    side: int | None  # the side whose total took them; None when nobody did
    words: str  # where they went and why: "to the side that took the last trick"


def score_of(terms: tuple, sides: int) -> tuple:
    """The score change per side: the sum of each side's terms."""
    score = [0] * sides
    for term in terms:
        score[term.side] += term.points
    return tuple(score)


def breakdown(state) -> dict:
    """The finished hand's scoring as plain values; ValueError before the hand ends or
    for a hand thrown in (nothing was scored)."""
    result = state.result()
    if result is None:
        raise ValueError("the hand is not over")
    if result.thrown_in:
        raise ValueError("a hand thrown in is not scored")
    if result.forfeit is not None:
        return _forfeit_breakdown(state, result.forfeit)
    name = state.deck.name
    return {
        "contract": state.contract_line(),
        "terms": [{"side": t.side, "points": t.points, "words": t.words, "working": t.working}
                  for t in state.score_terms()],
        "cards": [{"label": c.label, "cards": [name(card) for card in c.cards], "points": c.points,
                   "side": c.side, "words": c.words} for c in state.scored_cards()],
    }


def _forfeit_breakdown(state, forfeit) -> dict:
    """``breakdown`` of a forfeited hand: the forfeit's contract and terms, no cards."""
    _taken, contract, terms = state.forfeit_score(forfeit.side)
    return {
        "contract": contract,
        "terms": [{"side": t.side, "points": t.points, "words": t.words, "working": t.working}
                  for t in terms],
        "cards": [],
        "forfeit": forfeit._asdict(),
    }
