"""Somerset's four rulesets as data: what each one is, and where every rule comes from.

The rulesets differ along two axes only, recorded in ``Ruleset.extra``:

* ``spare``: ``"kitty"`` (two face-down cards the high bidder takes and replaces) or
  ``"widow"`` (two face-up cards the first trick's winner takes);
* ``scoring``: ``"doubled"`` (the set side loses double, the defenders score double) or
  ``"keep"`` (both sides keep what they took; a set side loses its bid).

``engine.somerset.rules`` reads those two values; everything else is common. The About
page is generated from the ``rules`` tuples, so each rule names its source, whether it
is a Parlour ruling, and whether the published text could be checked in full.
"""

from __future__ import annotations

from ..ruleset import Rule, Ruleset

# Sources, spelt once so the About page groups them consistently.
RULES_TEXT = "The Somerset rules text this product follows (A. J. Hodges, Double Somerset)"
KITTY_SHEET = "somersetcards.com rule sheet"
SCOREPAD = "The Single Somerset scorepad tradition (A. J. Hodges)"
HOUSE = "Parlour house rule"
RULING = "Parlour ruling"

MIN_BID = 12  # a ruling: the sources give no minimum; fixed, not a host option
MAX_BID = 24  # every deal holds 24 points
TARGET = 66

COMMON_RULES: tuple[Rule, ...] = (
    Rule("Players", "Four players in two partnerships; partners sit opposite each other.",
         RULES_TEXT),
    Rule("The cards", "50 cards. Each is rank over suit: suit /0 has 0/0; /2 has 0/2 to 2/2; "
         "/4, /6, /8, /10 and /12 run from 0 up to the suit's number. The S/S belongs to no "
         "printed suit. Inside a suit the higher rank wins.", RULES_TEXT),
    Rule("Count cards", "1/2, 2/4 and 3/6 count 1; 4/8, 5/10 and 6/12 count 2; the S/S counts 3. "
         "With 1 point for each of the 12 tricks, every deal is worth 24 points.", RULES_TEXT),
    Rule("Deal", "12 cards to each player and 2 spare cards. The deal passes left after every "
         "hand, a thrown-in hand included.", RULES_TEXT),
    Rule("Bidding", "Starting at the dealer's left, each player in turn bids or passes. A bid is "
         "a number of points, higher than the standing bid, up to 24. Passing is not final: a "
         "player who passed may bid when the turn comes round again.", RULES_TEXT),
    Rule("Minimum bid", f"The lowest bid is {MIN_BID}.", RULING, ruling=True),
    Rule("End of the auction", "The auction ends when a bid stands and the other three have "
         "passed in succession after it, or at once on a bid of 24.", RULES_TEXT),
    Rule("Thrown in", "If all four pass without a bid the hand is thrown in, the scores do not "
         "change and the deal moves left.", RULES_TEXT),
    Rule("Trump", "The high bidder names trump: one of the seven suits (0, 2, 4, 6, 8, 10, 12) "
         "or No Trump.", RULES_TEXT),
    Rule("Play", "The high bidder leads to the first trick; the winner of a trick leads the "
         "next. Follow the suit led if you can; otherwise play anything. The highest trump "
         "wins the trick, else the highest card of the suit led.", RULES_TEXT),
    Rule("The S/S under a suit trump", "It is the lowest trump. It must be played to a trump "
         "lead when it is your only trump, may be played when you are void in the suit led, "
         "and as a real trump it beats the 0/0 and cancels its promotion.", RULES_TEXT),
    Rule("The S/S under No Trump", "It cannot win a trick and may be discarded on any trick at "
         "any time, even when you hold the suit led.", RULES_TEXT),
    Rule("The S/S led under No Trump", "The next card played sets the suit to follow. If that "
         "card is the 0/0 it sets suit /0, which nobody can follow, so the last two players "
         "may play anything.", RULING, ruling=True),
    Rule("The S/S's points", "The S/S is worth 3 points to whoever takes the trick it falls "
         "in. Leading it is always legal.", RULES_TEXT),
    Rule("The 0/0 (Rover) when not trump", "It may be played at any time, even when you hold "
         "the suit led. With no real trump on the trick, every double on it (before or after "
         "the 0/0) is a trump for that trick and the highest double wins; the 0/0 is the "
         "lowest double. Any real trump, the S/S included, beats them all. If the 0/0 is led "
         "nobody can follow, so everyone may play anything.", RULES_TEXT),
    Rule("Doubles instead of following", "Once the 0/0 is on a trick and no real trump is, a "
         "player who holds the suit led may play any double the 0/0 can promote instead.",
         RULES_TEXT),
    Rule("The trump suit's own double", "It is a real trump, not a double the 0/0 promotes: it "
         "may not be played instead of following suit.", RULING, ruling=True),
    Rule("The 0/0 as trump", "When suit 0 is trump, the trump suit is the 0/0 (the highest "
         "card) and the S/S (the lowest). Doubles have no power. The 0/0 follows the normal "
         "rules of a trump card, without its any-time privilege.", RULING, ruling=True),
    Rule("The 0/0 led as trump", "Trump has been led: the holder of the S/S must play it. "
         "Once the 0/0 is out, the S/S wins any trick it is played to, its own lead "
         "included.", RULES_TEXT),
    Rule("Made or set", "A side's points are 1 per trick plus the count cards in its tricks "
         "plus what the ruleset gives it from the spare cards. The bidding side makes its bid "
         "with at least the bid in points, otherwise it is set. Scores may go negative.",
         RULES_TEXT),
    Rule("Winning", f"{TARGET} points wins, checked after every hand.", RULES_TEXT),
    Rule("Both sides out", f"If both sides reach {TARGET} on the same hand, the bidding side "
         "wins if it made its bid, otherwise the higher score; an exact tie plays another "
         "hand (the \"bidder goes out\" convention of domino 42).", RULING, ruling=True),
    Rule("A proven cheat", "A player whose computer is proven to have broken a rule (a card "
         "it was not allowed to play, a false alarm about the deal) forfeits the hand for its "
         "side: the hand ends there, is not dealt again, and the other side is counted as "
         "taking every trick and point (24, the spare cards included); the ruleset's scoring "
         "then applies to the bid as made: an innocent bidding side makes it, a cheating one "
         "is set. Before the auction ends, the other side scores its 24. The game then goes "
         "on.", RULING, ruling=True),
)

KITTY_RULES: tuple[Rule, ...] = (
    Rule("Kitty", "The two spare cards are dealt face down. The high bidder takes them, "
         "discards any two cards face down (count cards included), then names trump.",
         KITTY_SHEET, checked=False),
    Rule("Points in the discards", "The count points in the bidder's discards go to the side "
         "that wins the last trick, so every deal still holds 24 points.", RULING, ruling=True),
)

WIDOW_RULES: tuple[Rule, ...] = (
    Rule("Open widow", "The two spare cards lie face up on the table from the start of the "
         "auction. Whoever wins the first trick takes them, with their count points (no extra "
         "trick point).", RULES_TEXT),
)

DOUBLED_TEXT = ("Made: the bidding side scores every point it took, the defenders nothing. "
                "Set: the bidding side loses twice its shortfall (bid minus points) and the "
                "defenders score twice the points they took.")
KEEP_TEXT = ("Made: both sides score the points they took. Set: the bidding side loses its "
             "bid and the defenders score the points they took.")


def _ruleset(ruleset_id: str, name: str, summary: str, spare: str, scoring: str,
             scoring_rule: Rule, pick: str, default: bool = False) -> Ruleset:
    spare_rules = KITTY_RULES if spare == "kitty" else WIDOW_RULES
    return Ruleset(
        id=ruleset_id, game="somerset", name=name, summary=summary,
        rules=COMMON_RULES + spare_rules + (scoring_rule,),
        default=default, pick=pick,
        extra={"spare": spare, "scoring": scoring, "min_bid": MIN_BID, "max_bid": MAX_BID,
               "target": TARGET},
    )


KITTY_DOUBLED = _ruleset(
    "kitty-doubled", "Kitty, winner takes all",
    "The bidder takes a face-down kitty and discards two; a set bidder loses double and the "
    "defenders score double.",
    "kitty", "doubled", Rule("Scoring: doubled", DOUBLED_TEXT, RULES_TEXT),
    "Pick this one if unsure: all or nothing. When the bid is made the defenders score "
    "nothing; when it fails they score double.", default=True)

KITTY_KEEP = _ruleset(
    "kitty-keep", "Kitty, both sides keep",
    "The bidder takes a face-down kitty and discards two; both sides keep their points and a "
    "set bidder loses the bid.",
    "kitty", "keep", Rule("Scoring: keep", KEEP_TEXT, SCOREPAD, checked=False),
    "Steadier: every point a side takes counts, made or not, and a failed bid costs "
    "exactly the bid.")

WIDOW_DOUBLED = _ruleset(
    "widow-doubled", "Open widow, winner takes all",
    "Two face-up cards go to the first trick's winner; a set bidder loses double and the "
    "defenders score double.",
    "widow", "doubled", Rule("Scoring: doubled", DOUBLED_TEXT, RULES_TEXT),
    "Bid on what everyone can see: the spare cards lie face up for the first trick's "
    "winner. All or nothing, as in the default.")

WIDOW_KEEP = _ruleset(
    "widow-keep", "Open widow, both sides keep — house rule",
    "Two face-up cards go to the first trick's winner; both sides keep their points and a set "
    "bidder loses the bid (a Parlour house rule).",
    "widow", "keep",
    Rule("Scoring: keep", KEEP_TEXT + " Combining it with the open widow is a house rule of "
         "this app.", HOUSE, ruling=True),
    "The calmest game: open spare cards, and every point counts. A house rule of ours: "
    "agree on it before you start.")

RULESETS: dict[str, Ruleset] = {rs.id: rs for rs in (KITTY_DOUBLED, KITTY_KEEP, WIDOW_DOUBLED,
                                                     WIDOW_KEEP)}
DEFAULT_RULESET = KITTY_DOUBLED.id
