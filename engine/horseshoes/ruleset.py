"""The Horseshoes ruleset as data: every rule with its source, the modes and the options.

The About page and the host's settings dialog are generated from this. Rules marked
``ruling`` are Parlour's decisions where the product's own rules text is silent.
"""

from __future__ import annotations

from ..ruleset import Option, Rule, Ruleset

RULES_TEXT = "Horseshoes product rules text"
RELATIVES = "Parlour ruling, after Oh Hell, Ninety-Nine, Spades and Hearts"
PARLOUR = "Parlour ruling"

RULES = (
    Rule("Modes", "Three players, each for themselves, with 40 cards (ace and 2 to 10 of each "
         "suit): 13 each and one card left over. Four players, each for themselves, with all "
         "52 cards. Or four players in two partnerships, partners sitting opposite each other.",
         RULES_TEXT),
    Rule("Rank", "Ace declared high, king, queen, jack, 10, 9 … down to 2, then ace declared "
         "low. With three players (no court cards) a high ace is above the 10.", RULES_TEXT),
    Rule("Deal", "The first dealer is drawn at random; the deal passes left after every "
         "hand.", RULES_TEXT),
    Rule("Left-over card", "With three players, right after the deal and before any bid, "
         "the dealer turns the left-over card face up (shown to all) or face down (seen by "
         "nobody until the hand ends). The host may fix the choice for every hand instead "
         "(the Left-over card option).", RULES_TEXT),
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
    Rule("Scoring", "Penalty points, lower is better: each player scores one point for "
         "every trick more or fewer than they bid. If every player is exact, every player "
         "scores 3 instead.", RULES_TEXT),
    Rule("Scoring", "With partners, a team's bid is its two bids added up, and the team "
         "scores one point for every trick it takes more or fewer than that; a partner who "
         "bid 0 may take tricks without a penalty of their own.", RULES_TEXT),
    Rule("Scoring", "With partners, if both teams are exact, each team scores 3 "
         "(\"everyone\" read per team).", RELATIVES, ruling=True),
    Rule("End of the game", "After a hand in which any player (team) has reached the "
         "target score, the uniquely lowest score wins.", RULES_TEXT),
    Rule("End of the game", "If the lowest score is shared — by everyone or by some — "
         "everyone plays another hand and the check is made again (the rules text names "
         "only the all-tied case).", RELATIVES, ruling=True),
    Rule("A proven cheat", "A player whose computer is proven to have broken a rule (a card "
         "it was not allowed to play, a false alarm about the deal) forfeits the hand: the "
         "hand ends there and is not dealt again; that player (with partners, that team) "
         "scores 13, the largest penalty a hand can give, and every other player (team) 0. "
         "Everyone-exact does not apply. The game then goes on.",
         PARLOUR, ruling=True),
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
