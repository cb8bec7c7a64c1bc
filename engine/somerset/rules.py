"""Somerset (Double Somerset) rules: the deck, the auction, the spare cards, trump, the
S/S and the 0/0 ("Rover"), and scoring — one Game and one State for all four rulesets.

The rulesets differ only in ``ruleset.extra["spare"]`` (kitty or widow) and
``ruleset.extra["scoring"]`` (doubled or keep); see ``rulesets.py``. The project's
Somerset rules text (rules/somerset.md) is the specification; its *(ruling)* marks are
implemented exactly.

Card numbers (documented here because hands are bitmasks over them): the suits in
ascending order /0, /2, …, /12, each from rank 0 upwards, then the S/S last::

    0/0 = 0;  0/2..2/2 = 1..3;  0/4..4/4 = 4..8;  0/6..6/6 = 9..15;  0/8..8/8 = 16..24;
    0/10..10/10 = 25..35;  0/12..12/12 = 36..48;  S/S = 49

So inside a suit a higher card number is a higher card, and among doubles too (0/0 <
2/2 < … < 12/12): "highest card of these" is ``mask.bit_length() - 1``, which is what
keeps the trick logic to a few bit operations. The S/S is the exception (the lowest
trump with the highest number), handled by masking it out.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from ..actions import Action
from ..cards import Deck, cards_of
from ..errors import IllegalAction
from ..events import Event, Events
from ..scoring import ScoredCards, ScoreTerm, score_of
from ..info import DecisionInfo, DeckInfo, GameInfo, partnerships
from ..partial import Layout, Seen
from ..ruleset import Ruleset
from ..state import ForfeitScore, Game, HandResult, State, Trick
from .names import NAME, PASS_NOTE, SUIT_ORDER, ZERO_ZERO_NOTE, card_info, trump_info
from .rulesets import MAX_BID, MIN_BID, TARGET

SUITS = (0, 2, 4, 6, 8, 10, 12)
TRUMPS = ("0", "2", "4", "6", "8", "10", "12", "NT")
COUNT_POINTS = {"1/2": 1, "2/4": 1, "3/6": 1, "4/8": 2, "5/10": 2, "6/12": 2, "S/S": 3}
SS_SUIT = "S"  # the S/S's pseudo-suit in deck.suit_of


def _build_deck() -> Deck:
    names: list[str] = []
    suits: list[int | str] = []  # the S/S's pseudo-suit is SS_SUIT
    ranks: list[int] = []
    for suit in SUITS:
        for rank in range(suit + 1):
            names.append(f"{rank}/{suit}")
            suits.append(suit)
            ranks.append(rank)
    names.append("S/S")
    suits.append(SS_SUIT)
    ranks.append(-1)  # it has no rank in any printed suit
    return Deck(names, suits, ranks, [COUNT_POINTS.get(n, 0) for n in names])


DECK = _build_deck()
ROVER = DECK.parse("0/0")
SS = DECK.parse("S/S")
ROVER_BIT = 1 << ROVER
SS_BIT = 1 << SS
ALL_BUT_SS = DECK.full_mask & ~SS_BIT
DOUBLES = DECK.mask(c for c in range(DECK.size) if DECK.suit_of[c] == DECK.rank_of[c])
SUIT_MASK_OF = tuple(DECK.suit_mask[DECK.suit_of[c]] for c in range(DECK.size))
POINTS = DECK.points_of
DECK_INFO = DeckInfo("somerset", {}, SUIT_ORDER,
                     tuple(card_info(name, points) for name, points in zip(DECK.names, POINTS)))

NEXT_CARD_SETS_SUIT = -1  # follow_of marker: the S/S led under No Trump


class TrumpTable(NamedTuple):
    """Everything play needs to know about one choice of trump, as masks."""

    trump: str
    trumps: int  # the real trumps (the S/S included under a suit trump)
    follow_of: tuple  # led card -> cards that follow it (or NEXT_CARD_SETS_SUIT)
    free: int  # cards that may be played even when holding the suit led
    promotable: int  # doubles the 0/0 on a trick lets a player play instead of following


def _trump_table(trump: str) -> TrumpTable:
    if trump == "NT":
        trumps = 0
        free = SS_BIT | ROVER_BIT  # the S/S discards at will; the Rover plays at any time
    else:
        trumps = DECK.suit_mask[int(trump)] | SS_BIT
        free = 0 if trump == "0" else ROVER_BIT  # a trump 0/0 has no any-time privilege

    def follow(card: int) -> int:
        if trumps >> card & 1:
            return trumps
        if card == SS:
            return NEXT_CARD_SETS_SUIT
        return SUIT_MASK_OF[card]

    # The trump suit's own double is a real trump, never a promoted double (ruling).
    promotable = 0 if trump == "0" else DOUBLES & ~trumps & ~ROVER_BIT
    return TrumpTable(trump, trumps, tuple(follow(c) for c in range(DECK.size)), free, promotable)


TRUMP_TABLES = {t: _trump_table(t) for t in TRUMPS}

# Actions are immutable, so the auction's are made once: listing them per call was a
# tenth of a random hand's time.
SEATS = range(4)
PASS = tuple(Action(s, "pass") for s in SEATS)
BIDS = tuple(tuple(Action(s, "bid", amount) for amount in range(MAX_BID + 1)) for s in SEATS)
NAME_TRUMP = tuple(tuple(Action(s, "trump", t) for t in TRUMPS) for s in SEATS)
# So are events (engine.events): the auction's are made once too, as (event,) tuples.
PASSED = tuple((Event({"type": "pass", "seat": s}),) for s in SEATS)
BID_MADE = tuple(tuple((Event({"type": "bid", "seat": s, "bid": amount}),)
                       for amount in range(MAX_BID + 1)) for s in SEATS)


def suit_label(trump: str | None, follow: int) -> str:
    """How a player names the suit to follow: "/8", or "trump (/8)"."""
    table = TRUMP_TABLES.get(trump) if trump else None
    if table is not None and follow == table.trumps:
        return f"trump (/{trump})"
    return f"/{DECK.suit_of[(follow & ALL_BUT_SS).bit_length() - 1]}"


class SomersetGame(Game):
    id = "somerset"
    deck = DECK
    num_players = 4
    hand_size = 12
    spare_size = 2

    def __init__(self, ruleset: Ruleset, mode: str | None = None, options: dict | None = None):
        super().__init__(ruleset, mode, options)
        self.spare_rule: str = ruleset.extra["spare"]  # "kitty" | "widow"
        self.scoring: str = ruleset.extra["scoring"]  # "doubled" | "keep"
        self.min_bid: int = ruleset.extra.get("min_bid", MIN_BID)
        self.target: int = ruleset.extra.get("target", TARGET)

    @property
    def kitty(self) -> bool:
        return self.spare_rule == "kitty"

    def match_winner(self, scores: list[int], result: HandResult) -> int | None:
        out = [side for side in (0, 1) if scores[side] >= self.target]
        if len(out) < 2:
            return out[0] if out else None
        if result.made and result.tricks:
            return bidding_side(result)  # the bidder goes out
        if scores[0] == scores[1]:
            return None  # an exact tie plays another hand
        return 0 if scores[0] > scores[1] else 1


    def build_info(self) -> GameInfo:
        discard = (DecisionInfo("discard", "kitty", f"Discard {self.spare_size}", cards=self.spare_size,
                                secret=True),) if self.kitty else ()
        return GameInfo(
            title=self.id, name=NAME, ruleset=self.ruleset.id, ruleset_name=self.ruleset.name,
            mode=None, mode_name=None, options=dict(self.options), players=self.num_players,
            hand_size=self.hand_size, sides=partnerships(self.num_players), target=self.target,
            lower_wins=False, contract=True, taken_unit="points",
            taken_per_hand=self.hand_size + sum(POINTS),  # a point a trick, and the count cards
            deck=DECK_INFO, trumps=tuple(trump_info(t) for t in TRUMPS),
            decisions=(
                DecisionInfo("bid", "bidding", "Bid"),
                DecisionInfo("pass", "bidding", "Pass", note=PASS_NOTE),
                *discard,
                DecisionInfo("trump", "trump", "Name trump", choices=TRUMPS, note=ZERO_ZERO_NOTE),
                DecisionInfo("play", "play", "Play a card"),
            ))

    def seat_layout(self, view: dict, seen: Seen) -> Layout:
        """An open widow is known to all; a kitty is hidden until the bidder takes it,
        and the bidder's discards stay known to the bidder alone."""
        me = seen.seat
        mine = seen.hand | seen.played_by[me]
        if view.get("spare_rule") == "widow":
            widow = DECK.mask_of(view.get("widow"))
            return Layout(mine, tuple(DECK.parse(n) for n in view["widow"]), (),
                          widow & ~seen.played, (), {})
        kitty = view.get("kitty") or {}
        if kitty.get("taken") and view.get("bidder") == me:
            kitty_cards = DECK.mask_of(view.get("kitty_cards"))
            discards = DECK.mask_of(view.get("discards"))
            return Layout((mine | discards) & ~kitty_cards,
                          tuple(DECK.parse(n) for n in view["kitty_cards"]), (), discards, (),
                          {"discard": discards})
        if not kitty.get("taken"):
            return Layout(mine, None, (("kitty", self.spare_size),), 0, (), {})
        if kitty.get("discarded"):
            return Layout(mine, None, (("discards", self.spare_size),), 0, (), {})
        return Layout(mine, None, (), 0, (), {})  # the bidder holds all 14 while it discards


def score_terms(scoring: str, bidders: int, bid: int, taken) -> tuple[ScoreTerm, ScoreTerm]:
    """How a hand scores under ``scoring`` ("doubled" or "keep"): the bidding side
    ``bidders`` bid ``bid``, and ``taken`` is what each side took. Made: the bidding side
    scores what it took ("doubled": the defenders nothing, "keep": the defenders what
    they took). Set: "doubled" costs twice the shortfall and pays the defenders twice
    what they took; "keep" costs the bid and pays the defenders what they took."""
    defenders = 1 - bidders
    took, other = taken[bidders], taken[defenders]
    if scoring == "doubled":
        if took >= bid:
            return (ScoreTerm(bidders, took, "made — the bidding side scores every point it took",
                              f"{took}"),
                    ScoreTerm(defenders, 0, "the other side scores nothing when the bid is made"))
        return (ScoreTerm(bidders, -2 * (bid - took), "set — double the shortfall",
                          f"2 × ({bid} − {took})"),
                ScoreTerm(defenders, 2 * other, "the other side banks double what they took",
                          f"2 × {other}"))
    if took >= bid:
        return (ScoreTerm(bidders, took, "made — the bidding side keeps what it took", f"{took}"),
                ScoreTerm(defenders, other, "the other side keeps what it took", f"{other}"))
    return (ScoreTerm(bidders, -bid, "set — the bidding side loses its bid", f"−{bid}"),
            ScoreTerm(defenders, other, "the other side keeps what it took", f"{other}"))


def bidding_side(result: HandResult) -> int | None:
    """The bidding side of a played hand: the high bidder leads to the first trick."""
    return result.tricks[0].leader % 2 if result.tricks else None


class SomersetState(State):
    game: SomersetGame  # the rules read Somerset's own settings (min_bid, kitty, scoring)
    HANDLERS = {
        ("bidding", "bid"): "_bid",
        ("bidding", "pass"): "_pass",
        ("kitty", "discard"): "_discard",
        ("trump", "trump"): "_name_trump",
    }
    PROMPTS = {
        "bidding": "bid or pass",
        "kitty": "discard two cards",
        "trump": "name trump",
        "play": "play a card",
    }
    SAMPLED_PHASES = frozenset({"kitty"})  # see sample_action
    # Somerset's own attributes are ints and tuples, so the base list suffices.
    MUTABLE = State.MUTABLE

    def __init__(self, game: SomersetGame, hands, spare, dealer):
        super().__init__(game, hands, spare, dealer)
        self.phase = "bidding"
        self.turn = (dealer + 1) % self.n
        self.spare_mask = DECK.dealt_mask(spare)
        self.bids: tuple = ()  # ((seat, amount or None for a pass), ...) in order
        self.high_bid: int | None = None
        self.bidder: int | None = None
        self.passes_in_row = 0
        self.kitty_taken = False
        self.discards: tuple = ()  # the bidder's two discards, sorted (kitty rulesets)
        self.trump: str | None = None
        self.table: TrumpTable | None = None
        self.widow_side: int | None = None  # the side that took the open widow

    def bidder_and_contract(self) -> tuple[int, int]:
        """(bidder, bid) once the auction has ended (asked only after it has)."""
        bidder, bid = self.bidder, self.high_bid
        if bidder is None or bid is None:
            raise AssertionError("the auction has not ended")
        return bidder, bid

    # -- the auction -----------------------------------------------------------------
    def lowest_bid(self) -> int:
        return self.game.min_bid if self.high_bid is None else self.high_bid + 1

    def _legal_bidding(self, seat: int) -> list[Action]:
        return [PASS[seat], *BIDS[seat][self.lowest_bid():]]

    def _bid(self, action: Action) -> Events:
        amount = action.value
        if action.extra is not None:
            raise IllegalAction("a bid names only the points; trump is named after the auction")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalAction("a bid is a whole number of points")
        if amount > MAX_BID:
            raise IllegalAction(f"bids go no higher than {MAX_BID}")
        if self.high_bid is None and amount < self.game.min_bid:
            raise IllegalAction(f"bid at least {self.game.min_bid}")
        if self.high_bid is not None and amount <= self.high_bid:
            raise IllegalAction(f"bids must be higher than {self.high_bid}")
        seat = action.seat
        self.bids += ((seat, amount),)
        self.high_bid, self.bidder, self.passes_in_row = amount, seat, 0
        events = BID_MADE[seat][amount]
        if amount == MAX_BID:
            return events + self._end_auction()  # nobody can bid higher
        self.turn = (seat + 1) % self.n
        return events

    def _pass(self, action: Action) -> Events:
        if action.value is not None or action.extra is not None:
            raise IllegalAction("a pass carries nothing else")
        seat = action.seat
        self.bids += ((seat, None),)
        self.passes_in_row += 1
        events = PASSED[seat]
        if self.high_bid is None and self.passes_in_row == self.n:
            return events + self.throw_in()
        if self.high_bid is not None and self.passes_in_row == self.n - 1:
            return events + self._end_auction()
        self.turn = (seat + 1) % self.n
        return events

    def _end_auction(self) -> Events:
        bidder, bid = self.bidder_and_contract()
        contract = Event({"type": "contract", "bidder": bidder, "bid": bid})
        self.turn = bidder
        if self.game.kitty:
            self.hands[bidder] |= self.spare_mask
            self.kitty_taken = True
            self.phase = "kitty"
            return contract, Event({"type": "kitty_taken", "seat": bidder})
        self.phase = "trump"
        return (contract,)

    # -- the kitty -------------------------------------------------------------------
    def _legal_kitty(self, seat: int) -> list[Action]:
        return [Action(seat, "discard", pair)
                for pair in combinations(cards_of(self.hands[seat]), 2)]

    def sample_action(self, seat: int, rng) -> Action | None:
        """A uniformly random discard in the kitty phase (91 pairs need not be listed)."""
        if self.phase != "kitty" or seat != self.turn:
            return None
        return Action(seat, "discard", tuple(sorted(rng.sample(cards_of(self.hands[seat]), 2))))

    def _discard(self, action: Action) -> Events:
        cards = action.value
        if action.extra is not None:
            raise IllegalAction("name trump after the discard, not with it")
        if not isinstance(cards, (tuple, list)) or len(cards) != 2:
            raise IllegalAction("discard exactly two cards")
        for card in cards:
            if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < DECK.size:
                raise IllegalAction(f"{card!r} is not a card of this game")
            if not self.hands[action.seat] >> card & 1:
                raise IllegalAction(f"you do not hold {DECK.name(card)}")
        if cards[0] == cards[1]:
            raise IllegalAction("discard two different cards")
        self.discards = tuple(sorted(cards))
        self.hands[action.seat] &= ~DECK.mask(cards)
        self.phase = "trump"
        return (Event({"type": "discarded", "seat": action.seat}),)  # face down: no card names

    # -- trump -----------------------------------------------------------------------
    def _legal_trump(self, seat: int) -> list[Action]:
        return list(NAME_TRUMP[seat])

    def _name_trump(self, action: Action) -> Events:
        if action.value not in TRUMP_TABLES or action.extra is not None:
            raise IllegalAction("name trump: one of 0, 2, 4, 6, 8, 10, 12 or NT")
        self.trump = action.value
        self.table = TRUMP_TABLES[action.value]
        self.start_play(self.bidder_and_contract()[0])
        return (Event({"type": "trump", "seat": action.seat, "trump": self.trump}),)

    # -- play ------------------------------------------------------------------------
    def _follow_mask(self) -> int:
        """The cards that follow the current trick's suit (0 while anything goes)."""
        trick = self.trick
        table = self.table
        assert table is not None  # play comes after trump is named
        follow = table.follow_of[trick[0][1]]
        if follow == NEXT_CARD_SETS_SUIT:  # the S/S led under No Trump
            return SUIT_MASK_OF[trick[1][1]] if len(trick) > 1 else 0
        return follow

    def _trick_mask(self) -> int:
        mask = 0
        for _, card in self.trick:
            mask |= 1 << card
        return mask

    def _rover_promotes(self, on_trick: int) -> bool:
        """The 0/0 is on the trick and no real trump is (so doubles are trumps)."""
        table = self.table
        assert table is not None  # play comes after trump is named
        return bool(on_trick & ROVER_BIT) and not on_trick & table.trumps

    def legal_play_mask(self, seat: int) -> int:
        # Called twice per card played (listing, then checking): kept to bit operations.
        hand = self.hands[seat]
        if not self.trick:
            return hand  # any lead is legal, the S/S and the 0/0 included
        following = hand & self._follow_mask()
        if not following:
            return hand
        table = self.table
        assert table is not None  # play comes after trump is named
        legal = following | (hand & table.free)
        promotable = hand & table.promotable
        if promotable and self._rover_promotes(self._trick_mask()):
            legal |= promotable
        return legal

    def play_reason(self, seat: int, card: int) -> str:
        follow = self._follow_mask()
        reason = f"you must follow {suit_label(self.trump, follow)}"
        if DOUBLES >> card & 1:
            on_trick = self._trick_mask()
            table = self.table
            assert table is not None  # play comes after trump is named
            if on_trick & ROVER_BIT and self.trump != "0":
                if table.trumps >> card & 1:
                    return (f"{reason}: {DECK.name(card)} is a trump, not a double the 0/0 "
                            "can promote")
                if on_trick & table.trumps:
                    return f"{reason}: with a trump on the trick the 0/0 promotes no double"
        return reason

    # -- play: what bots read and ask -------------------------------------------------
    @property
    def trump_mask(self) -> int:
        """The real trumps (the S/S included under a suit trump); 0 before trump or
        under No Trump."""
        return self.table.trumps if self.table is not None else 0

    @property
    def led_mask(self) -> int:
        return self._follow_mask() if self.trick else 0

    def winner_if(self, plays=()) -> int | None:
        """Who would be winning the current trick with ``plays`` ((seat, card), …) added
        (a lone card wins; None for no card at all). Asked of the rules themselves, so the 0/0's promotions and
        the S/S's quirks are never re-implemented by a bot."""
        trick = self.trick
        trick.extend(plays)
        try:
            return self.winning_seat
        finally:
            del trick[len(trick) - len(plays):]

    def legal_if(self, seat: int, hand: int, plays=()) -> int:
        """The cards ``seat`` could play holding ``hand``, with ``plays`` added to the
        current trick first. The state is left as it was."""
        trick = self.trick
        trick.extend(plays)
        try:
            return self.legal_if_held(seat, hand)
        finally:
            del trick[len(trick) - len(plays):]

    def trick_winner(self) -> int:
        on_trick = self._trick_mask()
        table = self.table
        assert table is not None  # play comes after trump is named
        trumps = on_trick & table.trumps
        if trumps:
            # The S/S is the lowest trump: it wins only when it is the only one.
            best = (trumps & ALL_BUT_SS).bit_length() - 1 if trumps != SS_BIT else SS
        elif on_trick & ROVER_BIT:
            # No real trump (so the 0/0 is not trump): the highest double wins.
            best = (on_trick & DOUBLES).bit_length() - 1
        else:
            lead = self.trick[0][1]
            if lead == SS:  # only under No Trump here: the next card set the suit
                lead = self.trick[1][1]
            best = (on_trick & SUIT_MASK_OF[lead]).bit_length() - 1
        for seat, card in self.trick:
            if card == best:
                return seat
        raise AssertionError("the winning card is not on the trick")

    def on_trick(self, trick: Trick) -> None:
        side = trick.winner % 2
        points = 1
        for _, card in trick.cards:
            points += POINTS[card]
        number = len(self.tricks)
        if number == 1 and not self.game.kitty:
            points += POINTS[self.spare[0]] + POINTS[self.spare[1]]
            self.widow_side = side
        if number == self.game.hand_size and self.game.kitty:
            points += POINTS[self.discards[0]] + POINTS[self.discards[1]]
        self.taken[side] += points

    def finish(self) -> HandResult:
        bidder, bid = self.bidder_and_contract()
        took = self.taken[bidder % 2]
        return HandResult(tuple(self.tricks), tuple(self.taken), took >= bid,
                          score_of(self.score_terms(), 2))

    def score_terms(self) -> tuple:
        bidder, bid = self.bidder_and_contract()
        return score_terms(self.game.scoring, bidder % 2, bid, self.taken)

    def contract_line(self) -> dict:
        bidder, bid = self.bidder_and_contract()
        side = bidder % 2
        took = self.taken[side]
        return {"side": side, "bid": bid, "took": took, "made": took >= bid}

    def forfeit_score(self, cheaters: int) -> ForfeitScore:
        """The innocent side takes every trick and point (24, the spare cards included),
        the cheating side none, and the ruleset's scoring rule applies to a contract as
        bid: made by an innocent bidding side, set for a cheating one. Before the auction
        ends (a bid standing or not) there is no contract: the innocent side scores its
        24 points as taken — as both scorings score a side's points when nobody is set
        (the doubling is a set bidder's penalty, and nobody bid)."""
        innocent = 1 - cheaters
        taken = [0, 0]
        taken[innocent] = MAX_BID
        if self.phase == "bidding" or self.bidder is None or self.high_bid is None:
            return ForfeitScore(tuple(taken), None, (
                ScoreTerm(innocent, MAX_BID, "forfeit before any contract — the other side "
                          "scores every point of the hand", f"{MAX_BID}"),
                ScoreTerm(cheaters, 0, "forfeit — the side that cheated scores nothing", "0")))
        bidding, bid = self.bidder % 2, self.high_bid
        line = {"side": bidding, "bid": bid, "took": taken[bidding], "made": bidding == innocent}
        return ForfeitScore(tuple(taken), line, score_terms(self.game.scoring, bidding, bid, taken))

    def scored_cards(self) -> tuple:
        """The kitty discards (to the last trick's side) or the open widow (to the
        first trick's side)."""
        if self.game.kitty:
            last = self.tricks[-1].winner % 2 if self.tricks else None
            return (ScoredCards("Kitty discards", self.discards, DECK.points(DECK.mask(self.discards)),
                                last, "discarded face down by the bidder; their points go to the "
                                "side that took the last trick"),)
        return (ScoredCards("The widow", self.spare, DECK.points(self.spare_mask), self.widow_side,
                            "taken with the first trick"),)

    # -- what each seat may see ------------------------------------------------------
    def hidden_from(self, seat: int) -> int:
        """Bitmask of the cards ``seat`` may not see now: the other hands, the kitty
        before the bidder takes it, and (for everyone but the bidder) the discards."""
        hidden = 0
        for other, hand in enumerate(self.hands):
            if other != seat:
                hidden |= hand
        if self.game.kitty and not self.kitty_taken:
            hidden |= self.spare_mask
        if seat != self.bidder:
            hidden |= DECK.mask(self.discards)
        return hidden

    def place_pile(self, name: str, mask: int) -> None:
        if name == "discards":
            self.discards = tuple(cards_of(mask))
        elif name == "kitty":
            self.spare = tuple(cards_of(mask))
            self.spare_mask = mask
        else:
            super().place_pile(name, mask)

    def add_public(self, view: dict) -> None:
        last_bid: list = [None] * self.n
        for seat, amount in self.bids:
            last_bid[seat] = "pass" if amount is None else amount
        view["spare_rule"] = self.game.spare_rule
        view["scoring"] = self.game.scoring
        view["bids"] = [{"seat": seat, "bid": amount} for seat, amount in self.bids]
        view["last_bid"] = last_bid
        view["high_bid"] = self.high_bid
        view["bidder"] = self.bidder
        view["bid_range"] = ([self.lowest_bid(), MAX_BID] if self.phase == "bidding" else None)
        view["contract"] = (None if self.phase == "bidding" or self.bidder is None
                            else {"bidder": self.bidder, "bid": self.high_bid})
        view["trump"] = self.trump
        if self.game.kitty:
            view["kitty"] = {"taken": self.kitty_taken, "discarded": bool(self.discards)}
        else:
            view["widow"] = [DECK.name(c) for c in self.spare]
            view["widow_side"] = self.widow_side

    def add_private(self, seat: int, view: dict) -> None:
        if self.game.kitty and seat == self.bidder and self.kitty_taken:
            view["kitty_cards"] = [DECK.name(c) for c in self.spare]
            view["discards"] = [DECK.name(c) for c in self.discards]


SomersetGame.state_class = SomersetState
