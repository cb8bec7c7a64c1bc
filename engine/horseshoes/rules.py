"""Horseshoes: the game and its hand, as rules/horseshoes.md specifies them.

A hand runs through up to three phases before it is done:

    "leftover"  mode ``three`` with option leftover=dealer: the dealer turns the
                left-over card face up or down, unseen
    "bidding"   one round clockwise from the dealer's left; the first bid names trump
    "play"      thirteen tricks, first lead two seats left of the dealer

Cards are numbered suit by suit (S H D C), ace first, so the ace of suit ``s`` is card
``s * ranks_per_suit`` and a suit is a contiguous run of bits. A card's trick
strength is its rank (2 = 2 … K = 13); an ace counts 14 declared high, 1 declared low.

Random play-outs run this code millions of times, so the play path works on bitmasks
and hands out Action objects built once per Game rather than once per call.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ..actions import Action
from ..cards import Deck, cards_of
from ..errors import IllegalAction
from ..events import Event, Events
from ..info import DecisionInfo, DeckInfo, GameInfo, each_alone, partnerships
from ..partial import Layout, Seen
from ..ruleset import Ruleset
from ..scoring import ScoredCards, ScoreTerm, score_of
from ..state import BITS, ForfeitScore, Game, HandResult, State, Trick, new_trick
from .names import MODE_NAMES, NAME, NO_TRUMP, SUIT_NAMES, SUIT_ORDER, SUITS, card_info, trump_info

TRUMPS = ("S", "H", "D", "C", "NT")
ACE_CALLS = ("high", "low")
LEFTOVER_FACES = ("up", "down")
HIGHEST_BID = 13
HAND_SIZE = 13
ALL_EXACT_SCORE = 3

HIGH_ACE = 14  # above the king (and above the 10 in ``three``, which has no court cards)
LOW_ACE = 1  # below the 2
TRUMP_BONUS = 100  # any trump outranks any card of the suit led
CANNOT_WIN = -1  # an off-suit card that is not trump


def make_deck(ranks: str) -> Deck:
    """A deck of ``ranks`` (ace first) in each suit S H D C, named rank + suit."""
    names, suits, strengths = [], [], []
    for suit_index, suit in enumerate(SUITS):
        for rank_index, rank in enumerate(ranks):
            names.append(rank + suit)
            suits.append(suit_index)
            strengths.append(rank_index + 1)  # A=1 (undeclared), 2=2, …, K=13
    return Deck(names, suits, strengths, [0] * len(names))


class ModeSpec(NamedTuple):
    players: int
    deck: Deck
    partnerships: bool


def deck_info(deck: Deck) -> DeckInfo:
    return DeckInfo("standard", {}, SUIT_ORDER, tuple(card_info(name, 0) for name in deck.names))


FULL_DECK = make_deck("A23456789TJQK")
SHORT_DECK = make_deck("A23456789T")  # mode three: no court cards
DECK_INFOS = {deck: deck_info(deck) for deck in (FULL_DECK, SHORT_DECK)}

MODES: dict[str, ModeSpec] = {
    "three": ModeSpec(3, SHORT_DECK, False),
    "four": ModeSpec(4, FULL_DECK, False),
    "partners": ModeSpec(4, FULL_DECK, True),
}
MODE_ORDER = ("three", "four", "partners")
DEFAULT_MODE = "four"


class HorseshoesState(State):
    """One hand of Horseshoes."""

    game: HorseshoesGame  # the rules read the tables HorseshoesGame builds

    HANDLERS = {
        ("leftover", "leftover"): "_choose_leftover",
        ("bidding", "bid"): "_bid",
        ("bidding", "leftover"): "_refuse_leftover",
        ("bidding", "pass"): "_refuse_pass",
        ("play", "leftover"): "_refuse_leftover",
        # Plays take apply()'s own path, in place of State.apply's.
    }
    PROMPTS = {
        "leftover": "turn the left-over card face up or face down",
        "bidding": "bid",
        "play": "play a card",
    }
    MUTABLE = State.MUTABLE + ("bids", "won")

    def __init__(self, game: "HorseshoesGame", hands: list[list[int]], spare: list[int],
                 dealer: int):
        super().__init__(game, hands, spare, dealer)
        n = self.n
        self.bids: list[int | None] = [None] * n
        self.won = [0] * n  # tricks per seat, also in partners
        self.trump: str | None = None  # "S" … "C" or "NT" once the first bid names it
        self._trump_mask = 0  # the trump suit's cards; 0 in a no-trump hand
        self.trump_broken = False
        self.leftover_face: str | None = None  # three only: "up" / "down"
        self._led_mask = 0  # the suit led to the current trick
        self._declared_aces = game.ace_mask  # aces that are declared if played now
        self._strengths: tuple[int, ...] = ()  # card -> strength in the current trick
        self._win_seat = -1  # who is winning the current trick, with what strength
        self._win_key = CANNOT_WIN

        option = game.options["leftover"]
        if game.spare_size and option == "dealer":
            self.phase = "leftover"
            self.turn = dealer
        else:
            if game.spare_size:
                self.leftover_face = option
            self.phase = "bidding"
            self.turn = self.first_bidder

    # -- seats -----------------------------------------------------------------------
    @property
    def first_bidder(self) -> int:
        return (self.dealer + 1) % self.n

    @property
    def first_leader(self) -> int:
        return (self.dealer + 2) % self.n

    # -- the left-over card ----------------------------------------------------------
    def _legal_leftover(self, seat: int) -> list[Action]:
        return list(self.game.leftover_actions[seat])

    def _choose_leftover(self, action: Action) -> Events:
        if action.value not in LEFTOVER_FACES or action.extra is not None:
            raise IllegalAction('turn the left-over card face "up" or face "down"')
        self.leftover_face = action.value
        self.phase = "bidding"
        self.turn = self.first_bidder
        return (self._leftover_event(),)

    def _leftover_event(self) -> Event:
        event = {"type": "leftover", "seat": self.dealer, "face": self.leftover_face}
        if self.leftover_face == "up":
            event["card"] = self.deck.name(self.spare[0])
        return Event(event)

    def _refuse_leftover(self, action: Action) -> Events:
        if not self.game.spare_size:
            raise IllegalAction(f"there is no left-over card in mode {self.game.mode}")
        if self.game.options["leftover"] != "dealer":
            raise IllegalAction(f"the host's options put the left-over card face {self.leftover_face}")
        raise IllegalAction(f"the left-over card is already face {self.leftover_face}")

    def leftover_visible(self) -> bool:
        """Whether every seat may see the left-over card now."""
        return self.leftover_face == "up" or self.phase == "done" and not self.forfeited

    # -- bidding ---------------------------------------------------------------------
    def _legal_bidding(self, seat: int) -> list[Action]:
        if seat == self.first_bidder:
            return list(self.game.first_bid_actions[seat])
        return list(self.game.bid_actions[seat])

    def _bid(self, action: Action) -> Events:
        seat, amount, trump = action.seat, action.value, action.extra
        if type(amount) is not int or not 0 <= amount <= HIGHEST_BID:
            raise IllegalAction(f"a bid is a whole number of tricks from 0 to {HIGHEST_BID}")
        is_first = seat == self.first_bidder
        if is_first and trump is None:
            raise IllegalAction("the first bid names trump as well: S, H, D, C or NT")
        if is_first and trump not in TRUMPS:
            raise IllegalAction(f"trump is S, H, D, C or NT, not {trump!r}")
        if not is_first and trump is not None:
            raise IllegalAction("only the first bidder names trump")
        if is_first:
            self._set_trump(trump)
        self.bids[seat] = amount
        game = self.game
        made = (game.first_bid_events[seat][trump] if is_first else game.bid_events[seat])[amount]
        next_seat = (seat + 1) % self.n
        if next_seat == self.first_bidder:
            self.start_play(self.first_leader)
            return made + (Event({"type": "play_starts", "leader": self.first_leader}),)
        self.turn = next_seat
        return made

    def _refuse_pass(self, action: Action) -> Events:
        raise IllegalAction(f"nobody may pass: bid from 0 to {HIGHEST_BID} tricks")

    def _set_trump(self, trump: str) -> None:
        self.trump = trump
        if trump != NO_TRUMP:
            self._trump_mask = self.game.suit_masks[SUITS.index(trump)]

    # -- play: which cards, which aces are declared ----------------------------------
    def legal_play_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        if self.trick:
            following = hand & self._led_mask
            return following or hand
        if self._trump_held_back(hand):
            return hand & ~self._trump_mask
        return hand

    def _trump_held_back(self, hand: int) -> bool:
        """Breaking trump: a leader may not lead trump before it is broken, unless
        nothing but trump is left in hand."""
        return (self.game.breaking_trump and not self.trump_broken
                and bool(hand & ~self._trump_mask) and bool(hand & self._trump_mask))

    def play_reason(self, seat: int, card: int) -> str:
        if self.trick:
            return f"you must follow {SUIT_NAMES[self.deck.suit_of[self.trick[0][1]]]}"
        return "trump has not been broken"

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """As State.legal_actions, but an ace that must be declared is listed twice:
        played high and played low, in the place of its plain play."""
        if seat is None:
            seat = self.turn  # (State would ask this method again, and pair the aces twice)
        if seat != self.turn or self.phase != "play" or seat is None:
            return State.legal_actions(self, seat)  # (not super(): it costs more than the rest)
        # State's listing (plays_in) and memo, written out: a call costs more than these.
        legal = self.legal_play_mask(seat)
        self._legal_memo = (self.hands[seat], legal)
        t0, t1, t2, t3, t4, t5, t6, t7 = self._plays.lists[seat]
        b0, b1, b2, b3, b4, b5, b6, b7 = legal.to_bytes(8, "little")
        out = [*t0[b0], *t1[b1], *t2[b2], *t3[b3], *t4[b4], *t5[b5], *t6[b6], *t7[b7]]
        declared = legal & self._declared_aces
        placed = 0  # aces declared so far: each pair takes one more place than a play
        while declared:
            low = declared & -declared
            at = (legal & (low - 1)).bit_count() + placed
            out[at:at + 1] = self.game.ace_actions[seat][low.bit_length() - 1]
            placed += 1
            declared ^= low
        return out

    def check_play_extra(self, action: Action) -> None:
        self._declaration_checked(action)

    def _declaration_checked(self, action: Action) -> Action:
        """``action`` with its ace declaration checked, and dropped where the rules
        ignore it (so every peer records, and hashes, the same action)."""
        bit = 1 << action.value
        if bit & self._declared_aces:
            if action.extra not in ACE_CALLS:
                raise IllegalAction("declare the ace high or low")
            return action
        if action.extra is None:
            return action
        if bit & self.game.ace_mask:
            return self._plays.actions[action.seat][action.value]
        raise IllegalAction("only an ace is declared high or low")

    # -- play: applying a card -------------------------------------------------------
    def apply(self, action: Action) -> Events:
        # Plays take this direct path (random play-outs are mostly plays): checked, then
        # played, tracking the trick's winner as it goes. Everything else, including
        # every "not now" and "not your turn", goes through State.apply.
        seat, kind, card, call = action
        if kind != "play" or self.phase != "play" or seat != self.turn:
            return State.apply(self, action)  # (as in legal_actions: not super())
        hand = self.hands[seat]
        memo = self._legal_memo  # as in State.apply
        legal = memo[1] if memo is not None and memo[0] == hand else self.legal_play_mask(seat)
        if type(card) is not int or card < 0 or not legal >> card & 1:
            raise IllegalAction(self._refuse_play(seat, card))
        bit = BITS[card]
        game = self.game
        if call is not None or bit & game.ace_mask:
            action = self._declaration_checked(action)
            call = action.extra
        self.hands[seat] = hand ^ bit
        self.history.append(action)
        self._legal_memo = None
        trick = self.trick
        if not trick:
            self._start_trick(seat, card)
        key = self._strengths[card]
        if call == "high":
            key += HIGH_ACE - LOW_ACE
        if key > self._win_key:
            self._win_key = key
            self._win_seat = seat
        if bit & self._trump_mask:
            self.trump_broken = True
        trick.append((seat, card))
        played = self._plays.events[seat][card] if call is None else game.ace_events[seat][card][call]
        if len(trick) < self.n:
            self.turn = game.next_seat[seat]
            return played
        return played + self._close_trick()

    def _start_trick(self, seat: int, card: int) -> None:
        game = self.game
        suit = game.suit_of[card]
        self.leader = seat
        self._led_mask = game.suit_masks[suit]
        self._declared_aces = game.ace_mask & (self._led_mask | self._trump_mask)
        trump = self.trump
        assert trump is not None  # the first bid names it, before any card is played
        self._strengths = game.strengths[trump][suit]
        self._win_key = CANNOT_WIN

    def _close_trick(self) -> Events:
        winner = self._win_seat
        trick = new_trick((self.leader, tuple(self.trick), winner))
        self.tricks.append(trick)
        self.trick = []
        self._declared_aces = self.game.ace_mask  # whatever is led next is declared
        self.on_trick(trick)
        won = self._plays.tricks[winner][len(self.tricks)]
        if len(self.tricks) < HAND_SIZE:
            self.leader = self.turn = winner
            return (won,)
        self._result = self.finish()
        self.phase = "done"
        self.turn = None
        events = won, Event({"type": "hand_over", "score": list(self._result.score)})
        if self.leftover_face == "down":  # revealed at last
            return (*events, Event({"type": "leftover", "seat": self.dealer, "face": "down",
                                    "card": self.deck.name(self.spare[0])}))
        return events

    def trick_winner(self) -> int:
        return self._win_seat

    # -- play: what bots read (tracked as the trick goes) ----------------------------
    @property
    def trump_mask(self) -> int:
        return self._trump_mask

    @property
    def led_mask(self) -> int:
        return self._led_mask if self.trick else 0

    @property
    def winning_seat(self) -> int | None:
        return self._win_seat if self.trick else None

    @property
    def winning_strength(self) -> int | None:
        """The winning card's strength so far: its rank (an ace 1, or 14 declared high),
        plus TRUMP_BONUS for a trump; None before the lead."""
        return self._win_key if self.trick else None

    def on_trick(self, trick: Trick) -> None:
        self.won[trick.winner] += 1
        self.taken[self.game.sides[trick.winner]] += 1

    # -- scoring ---------------------------------------------------------------------
    def finish(self) -> HandResult:
        """Penalty points: ``score_terms``, summed."""
        return HandResult(tuple(self.tricks), tuple(self.taken), None,
                          score_of(self.score_terms(), self.game.num_sides))

    def side_bids(self) -> list[int]:
        """Each side's bid: a player's own, or the partners' bids added up."""
        sides = self.game.sides
        out = [0] * self.game.num_sides
        for seat, bid in enumerate(self.bids):
            assert bid is not None  # asked once every seat has bid
            out[sides[seat]] += bid
        return out

    def score_terms(self) -> tuple:
        """|tricks taken − bid| per side; every side exact → 3 each. (Bot play-outs
        score every hand they imagine, so the terms come from a table of prebuilt ones.)"""
        bids = self.side_bids()
        exact = self.taken == bids
        return tuple(_term(side, bid, taken, exact) for side, (taken, bid) in enumerate(zip(self.taken, bids)))

    def forfeit_score(self, cheaters: int) -> ForfeitScore:
        """Penalty points: the cheating player (team, in ``partners``) scores the largest
        penalty a hand can give — a point for every trick of the hand, 13 — and every
        other player (team) none; "everyone exact scores 3" does not apply. (Reading it as
        "the others took everything" does not work here: a cheater who bid 0 would then
        score well, and with three players apart there is no one innocent side to give
        the tricks to.) What each side took is what its tricks gave before the hand ended."""
        terms = tuple(
            ScoreTerm(side, HAND_SIZE, "forfeit — the largest penalty a hand can give, a point "
                      "for every trick", f"{HAND_SIZE}") if side == cheaters
            else ScoreTerm(side, 0, "forfeit by another — no penalty", "0")
            for side in range(self.game.num_sides))
        return ForfeitScore(tuple(self.taken), None, terms)

    def scored_cards(self) -> tuple:
        """The left-over card of three players when it lay face down: nobody has seen
        it until now (it scores nothing and took no part in play)."""
        if not self.spare or self.leftover_face != "down":
            return ()
        return (ScoredCards("Left-over card", self.spare, None, None,
                            "face down all hand, seen by nobody until now; it took no part in play"),)

    # -- views -----------------------------------------------------------------------
    def hidden_from(self, seat: int) -> int:
        """The cards ``seat`` may not see now: the others' hands and a left-over card
        that is face down (or not yet turned) until the hand ends."""
        hidden = 0
        for other, hand in enumerate(self.hands):
            if other != seat:
                hidden |= hand
        if self.spare and not self.leftover_visible():
            hidden |= self.deck.mask(self.spare)
        return hidden

    def place_pile(self, name: str, mask: int) -> None:
        if name == "leftover":
            self.spare = tuple(cards_of(mask))
        else:
            super().place_pile(name, mask)

    def add_public(self, view: dict) -> None:
        view["bids"] = list(self.bids)
        view["trump"] = self.trump
        view["trump_broken"] = self.trump_broken
        view["tricks_won"] = list(self.won)
        if self.game.spare_size:
            visible = self.leftover_visible()
            view["leftover"] = {
                "face": self.leftover_face,
                "card": self.deck.name(self.spare[0]) if visible else None,
            }


@lru_cache(maxsize=None)
def _term(side: int, bid: int, taken: int, everyone_exact: bool) -> ScoreTerm:
    """One side's penalty, in words: every (side, bid, tricks) is built once."""
    working = f"bid {bid}, took {taken}"
    if everyone_exact:
        return ScoreTerm(side, ALL_EXACT_SCORE, "everyone exact — 3 each", working)
    off = abs(taken - bid)
    words = f"{off} off the bid — a penalty point for each" if off else "exact — no penalty"
    return ScoreTerm(side, off, words, working)


class HorseshoesGame(Game):
    """Horseshoes in one mode (three, four, partners) under one set of options."""

    id = "horseshoes"
    state_class = HorseshoesState
    mode: str  # always one of MODES (the default if none is given)
    hand_size = HAND_SIZE

    def __init__(self, ruleset: Ruleset, mode: str | None = None, options: dict | None = None):
        mode = DEFAULT_MODE if mode is None else mode
        if mode not in MODES:
            raise ValueError(f"unknown Horseshoes mode {mode!r}: choose one of {', '.join(MODE_ORDER)}")
        super().__init__(ruleset, mode, options)
        check_option_types(ruleset, self.options)
        spec = MODES[mode]
        self.deck = spec.deck
        self.num_players = spec.players
        self.spare_size = spec.deck.size - spec.players * HAND_SIZE
        self._partnerships = spec.partnerships
        self.breaking_trump = self.options["breaking_trump"]
        self._build_tables()

    def deal(self, seed: bytes, dealer: int) -> HorseshoesState:
        # A shuffle hands out every card exactly once, so the explicit-deal checks of
        # new_hand are skipped here.
        hands, spare = self.deal_cards(seed, dealer)
        return self.state_class(self, hands, spare, dealer)

    @property
    def partnerships(self) -> bool:
        return self._partnerships

    def _build_tables(self) -> None:
        """Per-card data and the Actions a seat can take beyond a plain play, built once."""
        deck, seats = self.deck, range(self.num_players)
        self.suit_of = deck.suit_of
        self.rank_of = deck.rank_of
        self.next_seat = tuple((s + 1) % self.num_players for s in seats)
        self.sides = tuple(self.side_of(s) for s in seats)
        self.suit_masks = tuple(deck.suit_mask[s] for s in range(len(SUITS)))
        self.ace_mask = deck.mask(c for c in range(deck.size) if deck.rank_of[c] == 1)
        self.ace_actions = tuple(
            {c: tuple(Action(s, "play", c, call) for call in ACE_CALLS)
             for c in cards_of(self.ace_mask)} for s in seats)
        self.ace_events = tuple(  # [seat][ace][call] -> (the "play" event,), as State's plays
            {c: {call: (Event({"type": "play", "seat": s, "card": deck.names[c], "ace": call}),)
                 for call in ACE_CALLS} for c in cards_of(self.ace_mask)} for s in seats)
        self.strengths = {trump: tuple(self._trick_strengths(trump, led) for led in range(len(SUITS)))
                          for trump in TRUMPS}
        self.first_bid_actions = tuple(
            tuple(Action(s, "bid", b, t) for b in range(HIGHEST_BID + 1) for t in TRUMPS)
            for s in seats)
        self.bid_actions = tuple(tuple(Action(s, "bid", b) for b in range(HIGHEST_BID + 1))
                                 for s in seats)
        # and their events, as (event,) tuples: [seat][bid], the first bid's [seat][trump][bid]
        self.bid_events = tuple(tuple((Event({"type": "bid", "seat": s, "bid": b}),)
                                      for b in range(HIGHEST_BID + 1)) for s in seats)
        self.first_bid_events = tuple(
            {t: tuple((Event({"type": "bid", "seat": s, "bid": b, "trump": t}),)
                      for b in range(HIGHEST_BID + 1)) for t in TRUMPS} for s in seats)
        self.leftover_actions = tuple(tuple(Action(s, "leftover", f) for f in LEFTOVER_FACES)
                                      for s in seats)

    def _trick_strengths(self, trump: str, led: int) -> tuple[int, ...]:
        """Every card's strength in a trick with this trump and suit led: any trump
        beats the suit led, an off-suit card cannot win, and an ace counts low (a high
        declaration adds HIGH_ACE - LOW_ACE)."""
        trump_suit = SUITS.index(trump) if trump != NO_TRUMP else None
        out = []
        for card in range(self.deck.size):
            rank = LOW_ACE if (1 << card) & self.ace_mask else self.rank_of[card]
            suit = self.suit_of[card]
            if suit == trump_suit:
                out.append(TRUMP_BONUS + rank)
            elif suit == led:
                out.append(rank)
            else:
                out.append(CANNOT_WIN)
        return tuple(out)

    def build_info(self) -> GameInfo:
        players = self.num_players
        leftover = (DecisionInfo("leftover", "leftover", "Turn the left-over card face up or down",
                                 choices=LEFTOVER_FACES),) \
            if self.spare_size and self.options["leftover"] == "dealer" else ()
        return GameInfo(
            title=self.id, name=NAME, ruleset=self.ruleset.id, ruleset_name=self.ruleset.name,
            mode=self.mode, mode_name=MODE_NAMES[self.mode], options=dict(self.options),
            players=players, hand_size=self.hand_size,
            sides=partnerships(players) if self.partnerships else each_alone(players),
            target=self.options["target"], lower_wins=True, contract=False, taken_unit="tricks",
            taken_per_hand=self.hand_size, deck=DECK_INFOS[self.deck],
            trumps=tuple(trump_info(t) for t in TRUMPS),
            decisions=(
                *leftover,
                DecisionInfo("bid", "bidding", "Bid", choices=TRUMPS,
                             note="The first bidder names trump with the bid."),
                DecisionInfo("play", "play", "Play a card", choices=ACE_CALLS,
                             note="An ace of the suit led, or of trump, is played high or low."),
            ))

    def seat_layout(self, view: dict, seen: Seen) -> Layout:
        """The left-over card (three players) is known to all once turned face up."""
        mine = seen.hand | seen.played_by[seen.seat]
        if not self.spare_size:
            return Layout(mine, (), (), 0, (), {})
        card = (view.get("leftover") or {}).get("card")
        if card:
            return Layout(mine, (self.deck.parse(card),), (), 1 << self.deck.parse(card), (), {})
        return Layout(mine, None, (("leftover", 1),), 0, (), {})

    def match_winner(self, scores: list[int], result: HandResult) -> int | None:
        """Once a side reaches the target, the uniquely lowest score wins; a shared
        lowest means another hand (ruling)."""
        if max(scores) < self.options["target"]:
            return None
        lowest = min(scores)
        if scores.count(lowest) > 1:
            return None
        return scores.index(lowest)


def check_option_types(ruleset: Ruleset, options: dict) -> None:
    """Reject look-alike values Ruleset.resolve_options lets through (1 for True,
    13.0 for 13): options are hashed, and must be the same plain values everywhere."""
    for option in ruleset.options:
        value = options[option.id]
        if type(value) is not type(option.default):
            raise ValueError(f"option {option.id} must be one of {list(option.choices)}, "
                             f"not {value!r}")
