"""The Horseshoes ruleset as data: every rule with its source, the modes and the options.

The About page and the host's settings dialog are generated from this. Rules marked
``ruling`` are Parlour's decisions where the product's own rules text is silent.
"""

from __future__ import annotations

from ..ruleset import Option, Rule, Ruleset

RULES_TEXT = "Horseshoes product rules text"
RELATIVES = "Parlour ruling, after Oh Hell, Ninety-Nine, Spades and Hearts"

RULES = (
    Rule("Modes", "three: three players, each for themselves, 40 cards (A, 2–10 of each "
         "suit), 13 each and one card left over. four: four players, each for themselves, "
         "52 cards. partners: four players, partners opposite (seats 0 and 2, 1 and 3).",
         RULES_TEXT),
    Rule("Rank", "A (declared high) > K > Q > J > 10 > 9 … > 2 > A (declared low). In three, "
         "a high ace is above the 10.", RULES_TEXT),
    Rule("Deal", "The first dealer comes from the deal seed; the deal passes left after "
         "every hand.", RULES_TEXT),
    Rule("Left-over card", "In three, right after the deal and before any bid, the dealer "
         "turns the left-over card face up (shown to all) or face down (seen by nobody "
         "until the hand ends). The host may fix the choice instead (option leftover).",
         RULES_TEXT),
    Rule("Left-over card", "The dealer chooses without seeing the left-over card: a choice "
         "made after looking would be a secret advantage.", RELATIVES, ruling=True),
    Rule("Left-over card", "The left-over card never takes part in play and never breaks "
         "trump.", RULES_TEXT),
    Rule("Bidding", "One round, clockwise, starting at the dealer's left. Everyone bids a "
         "whole number of tricks from 0 to 13; nobody may pass.", RULES_TEXT),
    Rule("Trump", "The first bidder names trump with the bid: spades, hearts, diamonds, "
         "clubs or no-trump. Only the first bid names trump.", RULES_TEXT),
    Rule("Bidding", "The dealer, bidding last, may make the bids total 13 (no hook rule). "
         "Bids above what can be made are allowed.", RULES_TEXT),
    Rule("Play", "The player two seats left of the dealer leads first; the winner of each "
         "trick leads the next. Follow suit if you can; otherwise play any card.",
         RULES_TEXT),
    Rule("Trick", "The highest trump wins the trick; with no trump in it (or in a no-trump "
         "hand), the highest card of the suit led.", RULES_TEXT),
    Rule("Aces", "An ace of the suit led (leading it included) or of the trump suit is "
         "declared high or low as it is played; the declaration is public and final. Any "
         "other ace needs no declaration, and one given is ignored.", RULES_TEXT),
    Rule("Breaking trump", "Option: trump may not be led until a trump has been played to "
         "some trick this hand, unless the leader holds nothing but trump. A void player "
         "may trump at any time, which breaks it. No effect in a no-trump hand.",
         RULES_TEXT),
    Rule("Scoring", "Penalty points, lower is better: each player scores |tricks taken − "
         "bid|. If every player is exact, every player scores 3 instead.", RULES_TEXT),
    Rule("Scoring", "partners: each team's bid is the sum of its partners' bids, and the "
         "team scores |team tricks − team bid|; a partner who bid 0 may take tricks "
         "without a penalty of their own.", RULES_TEXT),
    Rule("Scoring", "partners: if both teams are exact, each team scores 3 (\"everyone\" "
         "read per team).", RELATIVES, ruling=True),
    Rule("End of the game", "After a hand in which any player (team) has reached the "
         "target score, the uniquely lowest score wins.", RULES_TEXT),
    Rule("End of the game", "If the lowest score is shared — by everyone or by some — "
         "everyone plays another hand and the check is made again (the rules text names "
         "only the all-tied case).", RELATIVES, ruling=True),
)

OPTIONS = (
    Option("breaking_trump", "Breaking trump", False, (False, True),
           "Trump may not be led until it has been played to a trick, unless the leader "
           "holds only trump."),
    Option("leftover", "Left-over card (three players)", "dealer", ("dealer", "up", "down"),
           "Who decides whether the left-over card is face up or face down: the dealer "
           "each hand, or always up, or always down."),
    Option("target", "Target score", 13, tuple(range(5, 101)),
           "The game ends after a hand in which someone reaches this many penalty points."),
)

HORSESHOES = Ruleset(
    id="horseshoes",
    game="horseshoes",
    name="Horseshoes",
    summary="Precision bidding: bid exactly the tricks you will take; every trick off "
            "your bid is a penalty point, and the lowest score wins.",
    rules=RULES,
    options=OPTIONS,
    modes=("three", "four", "partners"),
    default=True,
    extra={"default_mode": "four"},
)
