"""Rook as Parlour plays it: the deck, the deal, the auction, the widow, and trick play.

The module reads in the order of a hand, as rules/rook.md does: cards, the deal (with
its redeal rule), bidding, the raise, the widow ("Got it"), bury and trump, following
suit, who wins a trick, scoring, and the end of the game.

Card numbers: inside each colour the cards run low to high by rank (2, 3, …, 14, 1),
colour after colour (B, R, G, Y), and the Rook is card 56, above them all. So the best
card of a set of cards of one colour (or of the trump, the Rook included) is simply the
top bit of its mask, and trick play needs only a few bit operations.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from ..actions import Action
from ..cards import Deck, cards_of
from ..deal import derive_seed
from ..errors import IllegalAction
from ..events import Event, Events
from ..scoring import ScoredCards, ScoreTerm, score_of
from ..info import DecisionInfo, DeckInfo, GameInfo, partnerships
from ..partial import Layout, Seen, hand_of
from ..state import BITS, ForfeitScore, Game, HandResult, State
from .names import COLOUR_NAMES, NAME, SUIT_ORDER, card_info, trump_info

# -- cards ---------------------------------------------------------------------------
COLOURS = ("B", "R", "G", "Y")
NUMBERS_LOW_TO_HIGH = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 1)
POINTS_BY_NUMBER = {1: 15, 14: 10, 10: 10, 5: 5}
ROOK_POINTS = 20
CARDS_PER_COLOUR = len(NUMBERS_LOW_TO_HIGH)
ROOK = len(COLOURS) * CARDS_PER_COLOUR  # 56: the top bit of the deck
ROOK_BIT = 1 << ROOK


def _build_deck() -> Deck:
    names, suits, ranks, points = [], [], [], []
    for colour in COLOURS:
        for rank, number in enumerate(NUMBERS_LOW_TO_HIGH):
            names.append(f"{colour}{number}")
            suits.append(colour)
            ranks.append(rank)
            points.append(POINTS_BY_NUMBER.get(number, 0))
    names.append("ROOK")
    suits.append("ROOK")  # no colour of its own until trump is named
    ranks.append(CARDS_PER_COLOUR)
    points.append(ROOK_POINTS)
    return Deck(names, suits, ranks, points)


DECK = _build_deck()
POINTS = DECK.points_of
COLOUR_MASKS = tuple(DECK.suit_mask[c] for c in COLOURS)
POINT_CARDS = DECK.mask(c for c in range(DECK.size) if POINTS[c])
TOTAL_POINTS = 180
DECK_INFO = DeckInfo("rook", {"accessible": "rook-accessible"}, SUIT_ORDER,
                     tuple(card_info(name, points) for name, points in zip(DECK.names, POINTS)))


class TrumpTable(NamedTuple):
    """What naming one colour trump does to the cards: the Rook joins that colour."""

    trump: int  # mask of the trump cards, the Rook included
    suit_of: tuple  # per card: the mask of every card of the suit it leads


def _trump_table(trump_colour: int) -> TrumpTable:
    trump = COLOUR_MASKS[trump_colour] | ROOK_BIT
    colour_of = [card // CARDS_PER_COLOUR for card in range(ROOK)] + [trump_colour]
    suit_of = tuple(trump if colour == trump_colour else COLOUR_MASKS[colour] for colour in colour_of)
    return TrumpTable(trump, suit_of)


TRUMP_TABLES = {colour: _trump_table(i) for i, colour in enumerate(COLOURS)}

# -- bidding numbers -------------------------------------------------------------------
MIN_BID = 100
MAX_BID = 180
BID_STEP = 5
BID_AMOUNTS = tuple(range(MIN_BID, MAX_BID + 1, BID_STEP))
BID_INDEX = {amount: i for i, amount in enumerate(BID_AMOUNTS)}  # amount -> its place
GAME_TARGET = 500
BURY_SIZE = 5
SEATS = range(4)

# Actions are immutable, so the few the auction offers are made once.
PASS = tuple(Action(s, "pass") for s in SEATS)
BIDS = tuple(tuple(Action(s, "bid", a) for a in BID_AMOUNTS) for s in SEATS)
RAISES = tuple(tuple(Action(s, "raise", a) for a in BID_AMOUNTS) for s in SEATS)
KEEP = tuple(Action(s, "raise", None) for s in SEATS)
ACK = tuple(Action(s, "ack") for s in SEATS)
# So are events (engine.events): the auction's are made once too, as (event,) tuples.
PASSED = tuple((Event({"type": "pass", "seat": s}),) for s in SEATS)
BID_MADE = tuple(tuple((Event({"type": "bid", "seat": s, "bid": a}),) for a in BID_AMOUNTS)
                 for s in SEATS)
ACKED = tuple((Event({"type": "ack", "seat": s}),) for s in SEATS)
BURIED = tuple({c: (Event({"type": "bury", "seat": s}),
                    Event({"type": "trump", "colour": c, "name": COLOUR_NAMES[c]})) for c in COLOURS}
               for s in SEATS)  # [seat][trump colour]
# The seats still to say "Got it", for every set of seats that already did.
WAITING = tuple(tuple(s for s in SEATS if not acked >> s & 1) for acked in range(16))
ONE_SEAT = tuple((s,) for s in SEATS)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- the game --------------------------------------------------------------------------
class RookGame(Game):
    """Four players in two partnerships, 13 cards each and a widow of 5."""

    id = "rook"
    deck = DECK
    num_players = 4
    hand_size = 13
    spare_size = 5

    def deal(self, seed: bytes, dealer: int) -> "RookState":
        """Deal from ``seed``; while any hand holds no point card, the same dealer deals
        again from ``derive_seed(seed, "redeal", n)`` for n = 1, 2, … (the widow is not
        checked). Hand records use ``new_hand``, which never redeals."""
        redeals = 0
        state = self._dealt(seed, dealer)  # its hands are masks: quick to check
        while any(map(self.must_redeal, state.hands)):
            redeals += 1
            state = self._dealt(derive_seed(seed, "redeal", redeals), dealer)
        state.record_redeals(redeals)
        return state

    def _dealt(self, seed: bytes, dealer: int) -> "RookState":
        """One deal from ``seed``: ``Game.deal``, typed as the Rook hand it is."""
        hands, spare = self.deal_cards(seed, dealer)
        return self.state_class(self, hands, spare, dealer)

    def must_redeal(self, hand: int) -> bool:
        return not hand & POINT_CARDS

    def match_winner(self, scores: list[int], result: HandResult) -> int | None:
        """Once a team has 500, the higher score wins; an exact tie plays another hand."""
        if max(scores) < GAME_TARGET or scores[0] == scores[1]:
            return None
        return 0 if scores[0] > scores[1] else 1

    def build_info(self) -> GameInfo:
        return GameInfo(
            title=self.id, name=NAME, ruleset=self.ruleset.id, ruleset_name=self.ruleset.name,
            mode=None, mode_name=None, options=dict(self.options), players=self.num_players,
            hand_size=self.hand_size, sides=partnerships(self.num_players), target=GAME_TARGET,
            lower_wins=False, contract=True, taken_unit="points", taken_per_hand=TOTAL_POINTS,
            deck=DECK_INFO, trumps=tuple(trump_info(c) for c in COLOURS),
            decisions=(
                DecisionInfo("bid", "bidding", "Bid"),
                DecisionInfo("pass", "bidding", "Pass", note="A pass is final: you are out of this auction."),
                DecisionInfo("raise", "raise", "Raise the contract or keep it"),
                DecisionInfo("ack", "widow", "Got it"),
                DecisionInfo("bury", "bury", f"Bury {BURY_SIZE} and name trump", cards=BURY_SIZE,
                             choices=COLOURS, secret=True),
                DecisionInfo("play", "play", "Play a card"),
            ))

    def seat_layout(self, view: dict, seen: Seen) -> Layout:
        """The widow is hidden until turned up, public from then on; once the bidder has
        taken it, the widow cards it has not played are in its hand or, after the bury,
        among the buried cards, which only the bidder knows."""
        me, phase = seen.seat, view["phase"]
        mine = seen.hand | seen.played_by[me]
        if view.get("widow") is None:
            return Layout(mine, None, (("widow", self.spare_size),), 0, (), {})
        widow = DECK.mask_of(view["widow"])
        spare = tuple(DECK.parse(name) for name in view["widow"])
        contract = view.get("contract")
        bidder = contract["bidder"] if contract else None
        taken = phase in ("bury", "play", "done")  # the bidder has picked the widow up
        if not taken:
            return Layout(mine, spare, (), widow, (), {})
        assert bidder is not None  # the widow is taken once the auction has a bidder
        if bidder == me:
            buried = DECK.mask_of(view.get("buried"))
            return Layout((mine | buried) & ~widow, spare, (), buried, (), {"bury": buried})
        in_play = widow & ~seen.played
        if phase == "bury":
            return Layout(mine, spare, (), widow, ((in_play, (hand_of(bidder),)),), {})
        return Layout(mine, spare, (("buried", BURY_SIZE),), widow,
                      ((in_play, (hand_of(bidder), "buried")),), {})


# -- one hand --------------------------------------------------------------------------
class RookState(State):
    game: RookGame
    HANDLERS = {
        ("bidding", "bid"): "_bid",
        ("bidding", "pass"): "_pass",
        ("raise", "raise"): "_raise",
        ("widow", "ack"): "_ack",
        ("widow", "raise"): "_late_raise",
        ("bury", "raise"): "_late_raise",
        ("play", "raise"): "_late_raise",
        ("bury", "bury"): "_bury",
    }
    PROMPTS = {
        "bidding": "bid or pass",
        "raise": "raise your contract or keep it",
        "widow": "look at the widow and say Got it",
        "bury": "bury 5 cards and name trump",
        "play": "play a card",
    }
    SAMPLED_PHASES = frozenset({"bury"})  # see sample_action

    def __init__(self, game: RookGame, hands: list[list[int]], spare: list[int], dealer: int):
        # What follows from these (high_bid, stuck, widow_up…) is a property rather than
        # an attribute: State keeps within CPython's fast attribute layout (see State).
        super().__init__(game, hands, spare, dealer)
        self.redeals = 0
        self.widow = DECK.dealt_mask(spare)
        # auction
        self.bids: tuple = ()  # ((seat, amount), ...) in order, passes not included
        self.passed = 0  # bitmask of seats out of the auction
        # contract
        self.bidder: int | None = None
        self.contract: int | None = None
        self.raised_from: int | None = None  # the contract before the raise step
        # widow, bury, trump
        self.acked = 0  # bitmask of seats that said "Got it"
        self.buried = 0
        self.trump: str | None = None
        self._suit_of: tuple = ()  # per card: its suit's mask, once trump is named
        self.phase = "bidding"
        self.turn = (dealer + 1) % self.n  # the auction starts at the dealer's left

    def bidder_and_contract(self) -> tuple[int, int]:
        """(bidder, contract) once the auction has ended (asked only after it has)."""
        bidder, contract = self.bidder, self.contract
        if bidder is None or contract is None:
            raise AssertionError("the auction has not ended")
        return bidder, contract

    def record_redeals(self, redeals: int) -> None:
        self.redeals = redeals

    @property
    def deal_events(self) -> tuple:
        """What dealing said (redeals), for the table log."""
        return tuple(Event({"type": "redeal", "dealer": self.dealer, "number": n})
                     for n in range(1, self.redeals + 1))

    @property
    def high_bid(self) -> int | None:
        return self.bids[-1][1] if self.bids else None

    @property
    def high_bidder(self) -> int | None:
        return self.bids[-1][0] if self.bids else None

    @property
    def stuck(self) -> bool:
        """The dealer was stuck with 100: the auction ended without a bid."""
        return self.bidder is not None and not self.bids

    @property
    def widow_up(self) -> bool:
        """The widow has been turned up (it stays public from then on)."""
        return self.phase in ("widow", "bury", "play", "done")

    @property
    def trump_mask(self) -> int:
        """The trump cards, the Rook included (the Rook's suit): 0 before trump."""
        return self._suit_of[ROOK] if self._suit_of else 0

    @property
    def led_mask(self) -> int:
        """The cards that follow the card led (a Rook lead is a trump lead)."""
        return self._suit_of[self.trick[0][1]] if self.trick else 0

    # -- whose turn ----------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        turn = self.turn
        if turn is not None:
            return ONE_SEAT[turn]
        if self.phase == "widow":  # no one seat's turn: everyone who has not said Got it
            return WAITING[self.acked]
        return ()

    def repeats(self, action: Action) -> bool:
        """A second "Got it" from a seat that has said it this hand (rule: acknowledging
        twice changes nothing)."""
        seat = action.seat
        return action.kind == "ack" and action.value is None and action.extra is None \
            and isinstance(seat, int) and 0 <= seat < self.n and bool(self.acked >> seat & 1)

    def _not_your_turn(self, seat: int) -> str:
        if self.phase == "widow" and self.acked >> seat & 1:
            return "you have already said Got it"
        return super()._not_your_turn(seat)

    # -- bidding -------------------------------------------------------------------------
    def _lowest_bid(self) -> int:
        bids = self.bids
        return bids[-1][1] + BID_STEP if bids else MIN_BID

    def _legal_bidding(self, seat: int) -> list[Action]:
        return [PASS[seat], *BIDS[seat][BID_INDEX[self._lowest_bid()]:]]

    def _bid(self, action: Action) -> Events:
        seat, amount = action.seat, action.value
        self._check_bid(amount, action.extra)
        self.bids += ((seat, amount),)
        made = BID_MADE[seat][BID_INDEX[amount]]
        if amount == MAX_BID:
            return made + self._end_auction(seat, amount)
        self._next_bidder(seat)
        return made

    def _check_bid(self, amount, extra) -> None:
        if extra is not None:
            raise IllegalAction("a Rook bid names only the amount; trump comes with the bury")
        if not _is_int(amount):
            raise IllegalAction("a bid is a whole number")
        if amount > MAX_BID:
            raise IllegalAction(f"the highest bid is {MAX_BID}")
        if amount < MIN_BID:
            raise IllegalAction(f"the lowest bid is {MIN_BID}")
        if amount % BID_STEP:
            raise IllegalAction(f"bids go up in steps of {BID_STEP}")
        lowest = self._lowest_bid()
        if amount < lowest:
            raise IllegalAction(f"the bid stands at {self.high_bid}: bid at least {lowest} or pass")

    def _pass(self, action: Action) -> Events:
        if action.value is not None or action.extra is not None:
            raise IllegalAction("a pass says nothing more")
        seat = action.seat
        self.passed |= 1 << seat
        events = PASSED[seat]
        if self.passed.bit_count() < self.n - 1:
            self._next_bidder(seat)
            return events
        if not self.bids:  # three passes, no bid: the fourth player, the dealer, is stuck
            stuck_seat = next(s for s in SEATS if not self.passed >> s & 1)
            return events + self._end_auction(stuck_seat, MIN_BID)
        high_bidder, high_bid = self.bids[-1]
        return events + self._end_auction(high_bidder, high_bid)

    def _next_bidder(self, seat: int) -> None:
        """A pass is final: the turn skips every seat that has passed."""
        nxt = (seat + 1) % self.n
        while self.passed >> nxt & 1:
            nxt = (nxt + 1) % self.n
        self.turn = nxt

    def _end_auction(self, bidder: int, amount: int) -> Events:
        self.bidder, self.contract = bidder, amount
        events = (Event({"type": "contract", "bidder": bidder, "amount": amount, "stuck": self.stuck}),)
        if amount == MAX_BID:  # nothing to raise to
            return events + self._turn_up_widow()
        self.phase, self.turn = "raise", bidder
        return events

    # -- the raise -----------------------------------------------------------------------
    def _legal_raise(self, seat: int) -> list[Action]:
        return [KEEP[seat], *RAISES[seat][BID_INDEX[self.bidder_and_contract()[1]] + 1:]]

    def _raise(self, action: Action) -> Events:
        amount, old = action.value, self.bidder_and_contract()[1]
        if action.extra is not None:
            raise IllegalAction("a raise names only the new contract")
        if amount is not None:
            if not _is_int(amount):
                raise IllegalAction("raise to a whole number, or keep your bid")
            if amount == old:
                raise IllegalAction(f"your contract is already {old}: raise to more, or keep it")
            if amount < old:
                raise IllegalAction(f"a raise must go above your contract of {old}")
            if amount > MAX_BID:
                raise IllegalAction(f"the highest contract is {MAX_BID}")
            if amount % BID_STEP:
                raise IllegalAction(f"contracts go up in steps of {BID_STEP}")
            self.contract = amount
        self.raised_from = old
        event = Event({"type": "raise", "seat": action.seat, "from": old, "to": self.contract,
                       "kept": amount is None})
        return (event, *self._turn_up_widow())

    def _late_raise(self, action: Action) -> Events:
        if self.contract == MAX_BID:
            raise IllegalAction(f"a contract of {MAX_BID} cannot be raised")
        raise IllegalAction("the raise comes before the widow is shown")

    # -- the widow -----------------------------------------------------------------------
    def _turn_up_widow(self) -> Events:
        self.phase, self.turn = "widow", None
        return (Event({"type": "widow", "cards": self._names(self.widow)}),)

    def _legal_widow(self, seat: int) -> list[Action]:
        return [ACK[seat]]

    def _ack(self, action: Action) -> Events:
        """Only seats that have not yet said "Got it" may (to_act); a second one is
        refused as not your turn and changes nothing."""
        if action.value is not None or action.extra is not None:
            raise IllegalAction("Got it says nothing more")
        self.acked |= 1 << action.seat
        events = ACKED[action.seat]
        if WAITING[self.acked]:
            return events
        bidder = self.bidder_and_contract()[0]
        self.hands[bidder] |= self.widow
        self.phase, self.turn = "bury", bidder
        return (*events, Event({"type": "take_widow", "seat": bidder}))

    # -- bury and trump --------------------------------------------------------------------
    def _legal_bury(self, seat: int) -> list[Action]:
        """All C(18,5) x 4 = 34,272 choices; bots sample instead (sample_action)."""
        held = cards_of(self.hands[seat])
        return [Action(seat, "bury", cards, colour)
                for cards in combinations(held, BURY_SIZE) for colour in COLOURS]

    def sample_action(self, seat: int, rng) -> Action | None:
        """A uniformly random bury and trump (the only decision too big to list)."""
        if self.phase != "bury" or seat != self.turn:
            return None
        cards = tuple(sorted(rng.sample(cards_of(self.hands[seat]), BURY_SIZE)))
        return Action(seat, "bury", cards, rng.choice(COLOURS))

    def _bury(self, action: Action) -> Events:
        seat, cards, colour = action.seat, action.value, action.extra
        mask = self._check_bury(seat, cards, colour)
        self.hands[seat] ^= mask
        self.buried = mask
        self.trump = colour
        self._suit_of = TRUMP_TABLES[colour].suit_of
        self.start_play(self.bidder_and_contract()[0])  # the bidder leads to the first trick
        return BURIED[seat][colour]

    def _check_bury(self, seat: int, cards, colour) -> int:
        """The mask of the cards to bury, or IllegalAction saying what is wrong."""
        if not isinstance(colour, str) or colour not in COLOURS:
            raise IllegalAction("name a trump colour: B, R, G or Y (there is no no-trump)")
        if not isinstance(cards, (tuple, list)) or not all(map(_is_int, cards)):
            raise IllegalAction(f"bury a list of {BURY_SIZE} cards")
        if len(cards) != BURY_SIZE:
            raise IllegalAction(f"bury exactly {BURY_SIZE} cards, not {len(cards)}")
        if len(set(cards)) != BURY_SIZE:
            raise IllegalAction("each buried card must be a different card")
        hand, mask = self.hands[seat], 0
        for card in cards:
            if not 0 <= card < DECK.size:
                raise IllegalAction(f"{card!r} is not a Rook card")
            bit = BITS[card]
            if not hand & bit:
                raise IllegalAction(f"you do not hold {DECK.name(card)}")
            mask |= bit
        return mask

    # -- play --------------------------------------------------------------------------
    def legal_play_mask(self, seat: int) -> int:
        """Follow the suit led (the Rook is trump); else play a trump if you hold one;
        else anything. (Rule 2, must-trump, is a ruling.)"""
        hand = self.hands[seat]
        if not self.trick:
            return hand
        suit_of = self._suit_of
        return (hand & suit_of[self.trick[0][1]]) or (hand & suit_of[ROOK]) or hand

    def play_reason(self, seat: int, card: int) -> str:
        hand, led = self.hands[seat], self.trick[0][1]
        suit = self._suit_of[led]
        if hand & suit:
            if suit == self.trump_mask:
                return f"you must follow trump ({self._trump_words()})"
            return f"you must follow {COLOUR_NAMES[DECK.suit_of[led]]}"
        return f"you have no {COLOUR_NAMES[DECK.suit_of[led]]}, so you must play a trump ({self._trump_words()})"

    def _trump_words(self) -> str:
        trump = self.trump
        assert trump is not None  # asked in play, after trump is named
        return f"{COLOUR_NAMES[trump]} or the Rook"

    def trick_winner(self) -> int:
        """The highest trump (the Rook above all), else the highest of the suit led:
        with cards numbered by rank, that is the top bit of the right mask. A trick is
        four cards, written out: this runs for every trick of every hand played."""
        (s0, c0), (s1, c1), (s2, c2), (s3, c3) = self.trick
        played = BITS[c0] | BITS[c1] | BITS[c2] | BITS[c3]
        best = ((played & self._suit_of[ROOK]) or (played & self._suit_of[c0])).bit_length() - 1
        return s0 if c0 == best else s1 if c1 == best else s2 if c2 == best else s3

    @property
    def winning_seat(self) -> int | None:
        """Who is winning the current trick so far (the rule of trick_winner, for a
        trick of any length)."""
        trick = self.trick
        if not trick:
            return None
        played = 0
        for _, card in trick:
            played |= BITS[card]
        best = ((played & self._suit_of[ROOK]) or (played & self._suit_of[trick[0][1]])).bit_length() - 1
        return next(seat for seat, card in trick if card == best)

    def on_trick(self, trick) -> None:
        (_, c0), (_, c1), (_, c2), (_, c3) = trick.cards
        self.taken[trick.winner & 1] += POINTS[c0] + POINTS[c1] + POINTS[c2] + POINTS[c3]

    def finish(self) -> HandResult:
        """The last trick takes the buried points; then ``score_terms``."""
        last_side = self.game.side_of(self.tricks[-1].winner)
        self.taken[last_side] += DECK.points(self.buried)
        bidder, contract = self.bidder_and_contract()
        bidding = self.game.side_of(bidder)
        return HandResult(tuple(self.tricks), tuple(self.taken), self.taken[bidding] >= contract,
                          score_of(self.score_terms(), 2))

    def score_terms(self) -> tuple:
        """The bidding team scores its contract, plus or minus; the other team scores
        what it took."""
        bidder, contract = self.bidder_and_contract()
        bidding = self.game.side_of(bidder)
        other = self.taken[1 - bidding]
        if self.taken[bidding] >= contract:
            first = ScoreTerm(bidding, contract, "made — the bidding team scores its contract",
                              f"{contract}")
        else:
            first = ScoreTerm(bidding, -contract, "set — the bidding team loses its contract",
                              f"−{contract}")
        return (first, ScoreTerm(1 - bidding, other, "the other team scores the points it took",
                                 f"{other}"))

    def contract_line(self) -> dict:
        bidder, contract = self.bidder_and_contract()
        side = self.game.side_of(bidder)
        took = self.taken[side]
        return {"side": side, "bid": contract, "took": took, "made": took >= contract}

    def forfeit_score(self, cheaters: int) -> ForfeitScore:
        """The innocent team counts all 180 points (the buried cards and the widow
        included), the cheating team none, and the normal rule scores that: a contract
        stands as bid — made by an innocent bidding team, set for a cheating one — and
        the other team scores its count. Before the auction ends there is no contract:
        the innocent team scores its 180."""
        innocent = 1 - cheaters
        taken = [0, 0]
        taken[innocent] = TOTAL_POINTS
        if self.bidder is None or self.contract is None:
            return ForfeitScore(tuple(taken), None, (
                ScoreTerm(innocent, TOTAL_POINTS, "forfeit before any contract — the other team "
                          "scores every point of the hand", f"{TOTAL_POINTS}"),
                ScoreTerm(cheaters, 0, "forfeit — the team that cheated scores nothing", "0")))
        bidding, contract = self.game.side_of(self.bidder), self.contract
        made = bidding == innocent
        if made:
            first = ScoreTerm(bidding, contract, "forfeit by the other team — the bidding team "
                              "makes its contract", f"{contract}")
        else:
            first = ScoreTerm(bidding, -contract, "forfeit — the bidding team cheated and is "
                              "set: it loses its contract", f"−{contract}")
        other = taken[1 - bidding]
        return ForfeitScore(tuple(taken), {"side": bidding, "bid": contract, "took": taken[bidding],
                                           "made": made},
                            (first, ScoreTerm(1 - bidding, other, "the other team scores the points "
                                              "it counts", f"{other}")))

    def scored_cards(self) -> tuple:
        last = self.game.side_of(self.tricks[-1].winner) if self.tricks else None
        return (ScoredCards("Buried cards", tuple(cards_of(self.buried)), DECK.points(self.buried), last,
                            "buried by the bidder; their points go to the team that took the "
                            "last trick"),)

    # -- what each seat may see --------------------------------------------------------
    def hidden_from(self, seat: int) -> int:
        """The cards ``seat`` may not see now: the other hands, the widow until it is
        turned up, and the buried cards (bidder excepted) until the hand is scored.
        Widow cards stay public once shown, wherever they go."""
        hidden = 0
        for other in SEATS:
            if other != seat:
                hidden |= self.hands[other]
        if not self.widow_up:
            hidden |= self.widow
        elif (self.phase != "done" or self.forfeited) and seat != self.bidder:
            hidden |= self.buried
        if self.widow_up:
            hidden &= ~self.widow
        return hidden

    def add_public(self, view: dict) -> None:
        scored = self.phase == "done" and not self.forfeited  # (a forfeit shows nothing hidden)
        view.update({
            "bids": [[s, a] for s, a in self.bids],
            "high_bid": self.high_bid,
            "passed": [s for s in SEATS if self.passed >> s & 1],
            "contract": None if self.bidder is None else {"bidder": self.bidder, "amount": self.contract,
                                                          "stuck": self.stuck},
            "raise": None if self.raised_from is None else {"from": self.raised_from, "to": self.contract},
            "widow": self._names(self.widow) if self.widow_up else None,
            "acks": [s for s in SEATS if self.acked >> s & 1],
            "trump": self.trump,
            "buried": self._names(self.buried) if scored else None,
        })

    def add_private(self, seat: int, view: dict) -> None:
        if seat == self.bidder and self.buried:
            view["buried"] = self._names(self.buried)

    def place_pile(self, name: str, mask: int) -> None:
        if name == "buried":
            self.buried = mask
        elif name == "widow":
            self.widow = mask
            self.spare = tuple(cards_of(mask))
        else:
            super().place_pile(name, mask)

    def _names(self, mask: int) -> list[str]:
        names = DECK.names
        return [names[c] for c in cards_of(mask)]


RookGame.state_class = RookState  # set here: the hand is defined after the game
