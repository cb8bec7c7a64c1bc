"""Rook's one ruleset as data: every rule as a player reads it, with where it comes from.

The About page is generated from this. ``ruling=True`` marks the decisions Parlour made
where the published rulebooks disagree or are silent (the *(ruling)* marks in
rules/rook.md). ``checked=False`` marks rules credited to a published source whose full
text we could not check word for word. Rook has no engine options; the two table
options are display-only switches the host may flip at any time, so they live in
``extra["table_options"]`` rather than in the rules.
"""

from __future__ import annotations

from ..ruleset import Rule, Ruleset

RULEBOOK = "Rook rulebook (Parker Brothers / Hasbro)"
TOURNAMENT = "Tournament Rook (Kentucky Discard), as summarised by Wikipedia and pagat.com"
HOUSE = "house rule of the earlier app Parlour was built from"
PARLOUR = "Parlour ruling"

RULES = (
    Rule("Players", "Four players in two partnerships; partners sit opposite each other.", RULEBOOK),
    Rule("Dealer", "The first dealer is drawn at random; the deal passes left after every hand.",
         PARLOUR, ruling=True),
    Rule("Cards", "57 cards: 1–14 in Black, Red, Green and Yellow, and the Rook.", RULEBOOK),
    Rule("Rank", "Inside a colour, high to low: 1, 14, 13, … 2.", TOURNAMENT, checked=False),
    Rule("Points", "Rook 20, each 1 15, each 14 10, each 10 10, each 5 5: 180 in all.", HOUSE,
         ruling=True),
    Rule("The Rook", "Once trump is named the Rook is a trump for every purpose and ranks "
         "above the trump 1: it wins every trick it is played to.", TOURNAMENT, ruling=True,
         checked=False),
    Rule("Deal", "13 cards to each player, 5 face down to the widow.", HOUSE),
    Rule("Redeal", "If any player's 13 cards hold no point card (the Rook counts), the same "
         "dealer deals again, as often as needed; the widow is not checked.", HOUSE, ruling=True),
    Rule("Bidding", "From the dealer's left, clockwise: bid or pass. A pass is final.", TOURNAMENT,
         checked=False),
    Rule("Bids", "Multiples of 5 from 100 to 180, each at least 5 above the standing bid.", HOUSE,
         ruling=True),
    Rule("End of the auction", "Three passes with a bid standing, or a bid of 180, end it.",
         HOUSE, ruling=True),
    Rule("Stuck dealer", "If the first three players pass, the dealer plays at 100.", HOUSE,
         ruling=True),
    Rule("Raise", "The auction winner may once raise the contract to any higher multiple of 5 "
         "up to 180, or keep it, before the widow is shown. A 180 contract has no raise.", HOUSE,
         ruling=True),
    Rule("Widow", "The widow is turned face up for everyone; each player says Got it, in any "
         "order. A second Got it is refused and changes nothing; the host may say it for a "
         "disconnected player.", HOUSE, ruling=True),
    Rule("Bury and trump", "The bidder takes the widow, buries any 5 cards (points and the Rook "
         "included) and names a trump colour, in one decision. There is no no-trump; the "
         "bidder may name a colour it holds none of.", HOUSE, ruling=True),
    Rule("Buried cards", "The buried cards stay hidden from all but the bidder until the hand "
         "is scored.", HOUSE),
    Rule("Lead", "The bidder leads to the first trick; each trick's winner leads the next. Any "
         "card may be led; a Rook lead is a trump lead.", HOUSE, ruling=True),
    Rule("Follow", "Play a card of the suit led if you can (the Rook counts as trump).",
         RULEBOOK),
    Rule("Must trump", "If you cannot follow but hold a trump (the Rook included), you must play "
         "a trump, though you need not beat one already played. Published Rook lets you discard.",
         HOUSE, ruling=True),
    Rule("Trick", "The highest trump wins; with no trump, the highest card of the colour led. "
         "The Rook beats everything.", TOURNAMENT, checked=False),
    Rule("Last trick", "The team that wins the 13th trick takes the points in the buried cards.",
         TOURNAMENT, checked=False),
    Rule("Scoring", "The bidding team scores its contract if its count reaches it and loses its "
         "contract otherwise; the other team scores its count. Scores may go negative.", HOUSE,
         ruling=True),
    Rule("Winning", "After a hand in which a team reaches 500, the higher score wins; an exact "
         "tie plays another hand.", HOUSE, ruling=True),
    Rule("A proven cheat", "A player whose computer is proven to have broken a rule (a card "
         "it was not allowed to play, a false claim that the hand must be dealt again, a "
         "false alarm about the deal) forfeits the hand for its team: the hand ends there, "
         "is not dealt again, and is scored as if the other team had taken every trick and "
         "all 180 points, the buried cards included. A contract stands as bid: an innocent "
         "bidding team makes it, a cheating one is set. Before the contract, the other team "
         "scores 180. The game then goes on.", PARLOUR, ruling=True),
)

TABLE_OPTIONS = (
    {"id": "live_scores", "name": "Live scores", "default": False,
     "help": "Show each team's points taken in tricks so far this hand and how far the bidding "
             "team is from its contract. Never counts the buried cards before the hand is scored."},
    {"id": "game_log", "name": "Game log", "default": False,
     "help": "Show every trick so far (who led, what each played, who took it), the bids, the "
             "raise, the widow and trump. Never shows the buried cards before scoring."},
)

ROOK = Ruleset(
    id="rook",
    game="rook",
    name="Rook",
    summary="Partnership Rook with a 5-card widow, bids of 100–180 with one raise, the Rook as "
            "top trump, must-trump when void, first team to 500.",
    rules=RULES,
    default=True,
    extra={"table_options": TABLE_OPTIONS},
)

RULESETS = {ROOK.id: ROOK}
