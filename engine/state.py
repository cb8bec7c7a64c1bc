"""The Game/State split every title shares (OpenSpiel style).

``Game`` is one title under one ruleset, mode and options: immutable, it deals hands.
``State`` is one hand in progress: a deterministic state machine

    state.to_act() -> seats that may act now (usually one; Rook's "Got it" lets several)
    state.legal_actions(seat) -> every legal Action for that seat
    state.apply(action) -> events (a tuple of read-only dicts), or IllegalAction with a reason

with per-seat views (only what that seat may see) and a canonical hash of the public
part. Titles subclass both and fill in a few hooks: the phases before play (declared
in ``HANDLERS``), which cards may be played, who wins a trick, and the score.
Cards are deck numbers and hands are bitmasks, which keeps random play fast; the
readable forms (card names, JSON actions) are produced at the edges.
"""

from __future__ import annotations

import hashlib
from functools import cached_property, lru_cache, partial
from typing import Any, ClassVar, NamedTuple

import msgpack

from . import canonical
from .actions import SECRET_KINDS, Action
from .cards import Deck, cards_of
from .deal import derive_seed, seed_index, shuffled
from .errors import IllegalAction, RecordError
from .events import Event, Events
from .info import GameInfo
from .partial import Layout, Seen
from .ruleset import Ruleset
from .scoring import score_of


@lru_cache(maxsize=None)
def play_actions(deck_size: int, seats: int) -> tuple:
    """``[seat][card]`` -> the play Action, made once per deck size: actions are
    immutable, and building them per hand was a third of a random hand's time."""
    return tuple(tuple(Action(s, "play", c) for c in range(deck_size)) for s in range(seats))


MAX_DECK = 64  # cards per deck that the play lists (eight bytes of a hand) cover


class Plays(NamedTuple):
    """What the play path needs for one deck and number of seats, made once."""

    actions: tuple  # [seat][card] -> the play Action
    lists: tuple  # [seat][i][byte] -> the play Actions of the cards set in byte i of a hand
    events: tuple  # [seat][card] -> (the "play" event,): what apply returns for most cards
    tricks: tuple  # [winner][number] -> the "trick" event


@lru_cache(maxsize=None)
def plays_for(deck: Deck, seats: int) -> Plays:
    if deck.size > MAX_DECK:
        raise ValueError(f"the play path handles decks of at most {MAX_DECK} cards")
    actions = play_actions(deck.size, seats)
    lists = []
    for acts in actions:
        per_byte = []
        for i in range(MAX_DECK // 8):
            table = [()]
            for byte in range(1, 256):
                top = byte.bit_length() - 1  # the highest card goes last: lowest first
                card = 8 * i + top
                table.append(table[byte ^ (1 << top)] + ((acts[card],) if card < deck.size else ()))
            per_byte.append(tuple(table))
        lists.append(tuple(per_byte))
    events = tuple(tuple((Event({"type": "play", "seat": s, "card": name}),) for name in deck.names)
                   for s in range(seats))
    tricks = tuple(tuple(Event({"type": "trick", "winner": s, "number": number})
                         for number in range(deck.size // seats + 1)) for s in range(seats))
    return Plays(actions, tuple(lists), events, tricks)


def plays_in(tables: tuple, mask: int) -> list[Action]:
    """The play Actions of the cards in ``mask``, lowest first: what a bit walk
    (``low = mask & -mask`` …) gives, but a bit walk costs a few big-int operations per
    card and this is eight table look-ups whatever the count, three to six times
    cheaper for the 3 to 13 cards a hand usually allows. ``tables`` is
    ``Plays.lists[seat]``."""
    t0, t1, t2, t3, t4, t5, t6, t7 = tables
    b0, b1, b2, b3, b4, b5, b6, b7 = mask.to_bytes(8, "little")
    return [*t0[b0], *t1[b1], *t2[b2], *t3[b3], *t4[b4], *t5[b5], *t6[b6], *t7[b7]]


SEAT_TUPLES = tuple((s,) for s in range(8))  # to_act()'s answer when one seat acts
BITS = tuple(1 << c for c in range(MAX_DECK))  # card -> its bit, without a new big int
_new_tuple = tuple.__new__  # builds a Trick without NamedTuple's Python-level __new__
_NO_CODE = (0, None, b"")  # _extend_code's start: no items encoded


def _extend_code(code: tuple, items: list, to_json) -> tuple:
    """``code`` = (count, last item, encodings of items[:count]) brought up to date."""
    count, last, encoded = code
    if count > len(items) or (count and items[count - 1] is not last):
        count, encoded = 0, b""
    if count == len(items):
        return code if count else _NO_CODE
    encoded += b"".join(canonical.encode(to_json(item)) for item in items[count:])
    return len(items), items[-1], encoded


def _rebased(code: tuple, old: list, new: list, alike) -> tuple:
    """``code``, kept for the items ``old``, made ``new``'s when their first items are
    ``alike`` one for one (else nothing kept: ``_NO_CODE``)."""
    count, last, encoded = code
    if not count or count > len(new) or old[count - 1] is not last:
        return _NO_CODE
    if all(map(alike, old[:count], new[:count])):
        return count, new[count - 1], encoded
    return _NO_CODE


class Trick(NamedTuple):
    leader: int
    cards: tuple  # ((seat, card), ...) in play order
    winner: int


# new_trick((leader, cards, winner)): a Trick without NamedTuple's Python-level __new__
# (every trick of every random hand is closed through here).
new_trick = partial(_new_tuple, Trick)


class Forfeit(NamedTuple):
    """A hand ended by a player's proven cheat (``State.forfeit``): whose, and the rule."""

    seat: int  # the seat whose cheat was proven
    side: int  # its side, which forfeits the hand
    rule: str  # the rule it broke, as the trust layer names it ("illegal-action", "share", …)


class ForfeitScore(NamedTuple):
    """How a title scores a hand forfeited by one side (``State.forfeit_score``)."""

    taken: tuple  # what each side counts as having taken (the innocent side: everything)
    contract: dict | None  # ``contract_line``'s form, the contract as the forfeit settles it; None: none yet
    terms: tuple  # the ScoreTerms, in the ruleset's words


class HandResult(NamedTuple):
    """What a finished hand gives, in hand-record terms (per side: team or player)."""

    tricks: tuple  # completed Tricks
    taken: tuple  # points (or tricks) per side, spare cards included
    made: bool | None  # bid made; None where not applicable (thrown in, Horseshoes)
    score: tuple  # score change per side
    thrown_in: bool = False
    forfeit: Forfeit | None = None  # a hand a proven cheat ended (``State.forfeit``)


class Game:
    """Rules of one title under one ruleset/mode/options. Subclasses set the class data."""

    id: ClassVar[str]
    deck: Deck  # a class attribute, except where the mode picks it (Horseshoes)
    state_class: ClassVar[type]
    num_players: int = 4
    hand_size: int = 13
    spare_size: int = 0

    def __init__(self, ruleset: Ruleset, mode: str | None = None, options: dict | None = None):
        self.ruleset = ruleset
        self.mode = mode
        self.options = ruleset.resolve_options(options)

    # -- what it says about itself ----------------------------------------------------
    @cached_property
    def info(self) -> GameInfo:
        """Names, sides, target, deck and card naming, trumps and decisions, as plain
        data (``engine.info``): what the app and the network read instead of the id."""
        return self.build_info()

    def build_info(self) -> GameInfo:
        """The title builds its ``GameInfo`` for these rules (see ``info``)."""
        raise NotImplementedError

    # -- sides and seats -------------------------------------------------------------
    @property
    def num_sides(self) -> int:
        """Score columns: 2 in partnership games, else one per player."""
        return 2 if self.partnerships else self.num_players

    @property
    def partnerships(self) -> bool:
        return True

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def key(self) -> dict:
        """What identifies the rules in force (hand records, hashes, discovery)."""
        return {"game": self.id, "ruleset": self.ruleset.id, "mode": self.mode,
                "options": dict(self.options)}

    # -- dealing ---------------------------------------------------------------------
    def first_dealer(self, table_seed: bytes) -> int:
        return seed_index(derive_seed(table_seed, "first-dealer"), self.num_players)

    def must_redeal(self, hand: int) -> bool:
        """Whether a hand as dealt (a mask) must be dealt again (Rook: no point card).
        The seeded deal redeals itself (``deal``); a deal the engine does not shuffle
        (the mental-poker deal) asks this of each hand."""
        return False

    def deal(self, seed: bytes, dealer: int) -> "State":
        """A new hand dealt from ``seed``: the shuffled deck is handed out in blocks of
        ``hand_size``, starting with the dealer's left; what is left is the spare."""
        hands, spare = self.deal_cards(seed, dealer)
        # A shuffle hands out every card once: new_hand's checks are for hand records.
        return self.state_class(self, hands, spare, dealer)

    def deal_cards(self, seed: bytes, dealer: int) -> tuple[list[list[int]], list[int]]:
        order = shuffled(self.deck.size, seed)
        n, h = self.num_players, self.hand_size
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            hands[(dealer + 1 + i) % n] = order[i * h:(i + 1) * h]
        return hands, order[n * h:]

    def new_hand(self, hands: list[list[int]], spare: list[int], dealer: int) -> "State":
        """A hand from an explicit deal (hand records); RecordError if it is not one."""
        self.check_deal(hands, spare, dealer)
        return self.state_class(self, hands, spare, dealer)

    def check_deal(self, hands, spare, dealer) -> None:
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < self.num_players:
            raise RecordError(f"dealer must be a seat from 0 to {self.num_players - 1}")
        if len(hands) != self.num_players:
            raise RecordError(f"{self.id} needs {self.num_players} hands, not {len(hands)}")
        for seat, hand in enumerate(hands):
            if len(hand) != self.hand_size:
                raise RecordError(f"seat {seat} holds {len(hand)} cards; {self.id} deals {self.hand_size}")
        if len(spare) != self.spare_size:
            raise RecordError(f"{self.id} has {self.spare_size} spare card(s), not {len(spare)}")
        seen: set[int] = set()
        for card in [c for hand in hands for c in hand] + list(spare):
            if card in seen:
                raise RecordError(f"{self.deck.name(card)} is dealt twice")
            seen.add(card)

    # -- the whole game --------------------------------------------------------------
    def initial_scores(self) -> list[int]:
        return [0] * self.num_sides

    def match_winner(self, scores: list[int], result: HandResult) -> int | None:
        """The winning side after a hand (scores already include it), or None to go on."""
        raise NotImplementedError

    # -- what one seat knows (engine.partial) ---------------------------------------
    def seat_layout(self, view: dict, seen: Seen) -> Layout:
        """Where the cards are as far as the seat whose view this is knows. By default
        it knows only its own cards; undealt cards lie in a hidden "spare" pile. Titles
        whose spare cards are shown, taken or buried say so."""
        own = seen.hand | seen.played_by[seen.seat]
        if not self.spare_size:
            return Layout(own, (), (), 0, (), {})
        return Layout(own, None, (("spare", self.spare_size),), 0, (), {})

    # -- actions as JSON (hand records, the wire) -----------------------------------
    def action_to_json(self, action: Action, public: bool = False) -> dict:
        """The hand-record form; ``public`` hides what only the actor may see."""
        out: dict[str, Any] = {"seat": action.seat}
        kind, value, extra = action.kind, action.value, action.extra
        name = self.deck.name
        if kind == "play":
            out["play"] = name(value)
            if extra is not None:
                out["ace"] = extra
        elif kind in SECRET_KINDS:
            out[kind] = None if public else [name(c) for c in value]
            if extra is not None:
                out["trump"] = extra
        elif kind in ("pass", "ack"):
            out[kind] = True
        elif kind == "bid":
            out["bid"] = value
            if extra is not None:
                out["trump"] = extra
        else:
            out[kind] = value
        return out

    def action_from_json(self, data: Any) -> Action:
        """The Action a hand-record entry names; RecordError if it names none."""
        if not isinstance(data, dict):
            raise RecordError("an action is an object like {\"seat\": 0, \"play\": \"…\"}")
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            raise RecordError(f"action {data!r}: seat must be 0 to {self.num_players - 1}")
        keys = [k for k in data if k in ("bid", "pass", "raise", "ack", "bury", "discard", "play", "leftover")]
        if not keys and "trump" in data:
            keys = ["trump"]
        if len(keys) != 1:
            raise RecordError(f"action {data!r} must name exactly one of bid, pass, raise, ack, "
                              "bury, discard, trump, leftover, play")
        kind = keys[0]
        value = data[kind]
        extra = None
        if kind == "play":
            value = self.deck.parse(value)
            extra = data.get("ace")
        elif kind in ("bury", "discard"):
            if not isinstance(value, list):
                raise RecordError(f"action {data!r}: {kind} takes a list of cards")
            value = tuple(sorted(self.deck.parse(c) for c in value))
            extra = data.get("trump")
        elif kind == "bid":
            if not isinstance(value, int) or isinstance(value, bool):
                raise RecordError(f"action {data!r}: a bid is a whole number")
            extra = data.get("trump")
        elif kind in ("pass", "ack"):
            if value is not True:
                raise RecordError(f"action {data!r}: write {kind}: true")
            value = None
        elif kind == "raise":
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise RecordError(f"action {data!r}: raise takes a whole number or null")
        elif not isinstance(value, str):
            raise RecordError(f"action {data!r}: {kind} takes a text value")
        return Action(seat, kind, value, extra)

    def describe(self, action: Action) -> str:
        """A short sentence for the game log."""
        d = self.action_to_json(action, public=True)
        d.pop("seat")
        return f"Seat {action.seat}: " + ", ".join(
            f"{k} {'' if v is True else v}".strip() for k, v in d.items() if v is not None)


class State:
    """One hand. Subclasses declare their phases in ``HANDLERS`` and fill in the hooks."""

    # (phase, action kind) -> name of the method that checks and applies it. Playing a
    # card in the "play" phase is State's own, for every title (see apply).
    HANDLERS: ClassVar[dict[tuple[str, str], str]] = {}
    # What each phase asks for, for the "not now" reason and for the views
    PROMPTS: ClassVar[dict[str, str]] = {"play": "play a card"}
    # Attributes that hold lists and must be copied by clone()
    MUTABLE: ClassVar[tuple[str, ...]] = ("hands", "history", "tricks", "trick", "taken")
    # Phases whose choices are too many to list (Rook's bury: 34,272): random players
    # draw one with sample_action(seat, rng) there instead of picking from legal_actions.
    SAMPLED_PHASES: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, game: Game, hands: list[list[int]], spare: list[int], dealer: int):
        self.game = game
        self.deck = game.deck
        self.n = game.num_players
        self.dealer = dealer
        self.dealt = tuple(map(tuple, hands))  # the deal, for records
        self.spare = tuple(spare)
        self.hands = list(map(game.deck.dealt_mask, hands))  # a deal's cards are distinct
        self.history: list[Action] = []
        self.tricks: list[Trick] = []
        self.trick: list[tuple[int, int]] = []  # current trick: (seat, card)
        self.taken = [0] * game.num_sides  # what the rules count for each side so far
        self.phase = "play"
        self.turn: int | None = None  # when set, the one seat to act (to_act() == (turn,))
        self.leader: int | None = None
        self._result: HandResult | None = None
        # Tables shared by every hand with this deck. Like every attribute, one more
        # counts: CPython 3.11 keeps up to 29 attributes in the fast per-class layout
        # (tests/engine/test_state_layout.py), and every title's State stays within it.
        self._plays = plays_for(self.deck, self.n)
        # legal_actions' play mask, kept for apply to check the card against without
        # computing it again: (hand it was computed for, mask), or None. Only the seat
        # to play gets one, and every apply drops it; the hand is compared because
        # bots set hands directly when they imagine a deal.
        self._legal_memo: tuple[int, int] | None = None
        self._history_code: tuple | None = None  # see _encoded_history

    def play_action(self, seat: int, card: int) -> Action:
        """The Action of ``seat`` playing ``card`` (made once per deck, so bots and
        play-outs need not build their own)."""
        return self._plays.actions[seat][card]

    # -- the state machine -----------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        turn = self.turn  # None once the hand is done
        return () if turn is None else SEAT_TUPLES[turn]

    @property
    def is_over(self) -> bool:
        return self.phase == "done"

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action for ``seat`` (default: the seat whose turn it is)."""
        if seat == self.turn and self.phase == "play" and seat is not None:
            # The hot path of every play-out and bot search: table look-ups, no dispatch
            # (plays_in, written out).
            mask = self.legal_play_mask(seat)
            self._legal_memo = (self.hands[seat], mask)
            t0, t1, t2, t3, t4, t5, t6, t7 = self._plays.lists[seat]
            b0, b1, b2, b3, b4, b5, b6, b7 = mask.to_bytes(8, "little")
            return [*t0[b0], *t1[b1], *t2[b2], *t3[b3], *t4[b4], *t5[b5], *t6[b6], *t7[b7]]
        if seat is None:
            seats = self.to_act()
            if not seats:
                return []
            seat = seats[0]
            if self.phase == "play":
                return self.legal_actions(seat)
        if self.phase == "play" or seat != self.turn and seat not in self.to_act():
            return []
        return getattr(self, "_legal_" + self.phase)(seat)  # phases are identifiers

    def apply_unseen(self, action: Action) -> Events:
        """``apply`` for an action by a seat whose hand the caller cannot see (a made-up
        deal: ``engine.partial``). A play of any card that seat holds is accepted:
        whether it had to follow suit depends on cards nobody here can see. Anything
        else is applied as usual."""
        seat, kind, card, _ = action
        hands = self.hands
        if kind != "play" or type(card) is not int or not 0 <= card < self.deck.size \
                or not 0 <= seat < self.n or not hands[seat] >> card & 1:
            return self.apply(action)
        held = hands[seat]
        hands[seat] = BITS[card]  # a lone card is always legal: any rules, any trick
        try:
            events = self.apply(action)
        except IllegalAction:
            hands[seat] = held
            raise
        hands[seat] = held ^ BITS[card]
        return events

    def sample_action(self, seat: int, rng) -> Action | None:
        """A uniformly random legal action for ``seat`` in a phase of ``SAMPLED_PHASES``
        (drawn with ``rng``); None elsewhere. Titles with sampled phases say how."""
        return None

    def repeats(self, action: Action) -> bool:
        """True for an action the rules accept a second time and ignore (Rook's
        "Got it": acknowledging twice changes nothing). Sessions answer such a repeat
        with nothing at all — no entry, no refusal — instead of ``apply``."""
        return False

    def check(self, action: Action) -> None:
        """Raise IllegalAction if ``action`` may not be applied now; change nothing."""
        self.clone().apply(action)

    def apply(self, action: Action) -> Events:
        """Apply a legal action and return its events; IllegalAction (state unchanged)
        otherwise."""
        seat, kind, card, extra = action
        if kind != "play" or self.phase != "play" or seat != self.turn:
            return self._decide(action)
        # Playing a card: State's own for every title, and the hot path of every
        # play-out and bot search, so it is written out here rather than dispatched.
        hands = self.hands
        hand = hands[seat]
        memo = self._legal_memo  # set by legal_actions for this seat, this position
        legal = memo[1] if memo is not None and memo[0] == hand else self.legal_play_mask(seat)
        # The legal cards are held cards, so one test passes every legal card;
        # _refuse_play says what is wrong with anything else.
        if type(card) is not int or card < 0 or not legal >> card & 1:
            raise IllegalAction(self._refuse_play(seat, card))
        if extra is not None:
            self.check_play_extra(action)
        hands[seat] = hand ^ BITS[card]
        self.history.append(action)
        self._legal_memo = None
        trick = self.trick
        trick.append((seat, card))
        if len(trick) < self.n:
            self.turn = (seat + 1) % self.n
            return self._plays.events[seat][card]
        return self._plays.events[seat][card] + self._close_trick()

    def _refuse_play(self, seat: int, card) -> str:
        """Why ``seat`` may not play ``card`` now: not a card, not held, or not legal."""
        if type(card) is not int or not 0 <= card < self.deck.size:
            return f"{card!r} is not a card of this game"
        if not self.hands[seat] >> card & 1:
            return f"you do not hold {self.deck.names[card]}"
        return self.play_reason(seat, card)

    def _decide(self, action: Action) -> Events:
        """Any action but a card played in turn: the title's handler for this phase and
        kind, or IllegalAction saying what is wrong."""
        seat = action.seat
        if self.phase == "done":
            raise IllegalAction("the hand is over")
        if seat != self.turn and seat not in self.to_act():  # (turn: no need to ask)
            if not isinstance(seat, int) or not 0 <= seat < self.n:
                raise IllegalAction(f"there is no seat {seat!r}")
            raise IllegalAction(self._not_your_turn(seat))
        handler = self.HANDLERS.get((self.phase, action.kind))
        if handler is None:
            raise IllegalAction(f"now is the time to {self.PROMPTS.get(self.phase, self.phase)}, "
                                f"not to {action.kind}")
        events = getattr(self, handler)(action)
        self.history.append(action)
        self._legal_memo = None
        return events

    def _not_your_turn(self, seat: int) -> str:
        waiting = self.to_act()
        if len(waiting) == 1:
            return f"it is seat {waiting[0]}'s turn, not yours"
        return "it is not your turn"

    # -- play: the hooks titles fill in ---------------------------------------------
    def legal_play_mask(self, seat: int) -> int:
        """Bitmask of the cards ``seat`` may play now."""
        raise NotImplementedError

    def play_reason(self, seat: int, card: int) -> str:
        """Why ``card`` may not be played now (it is held, but not legal)."""
        raise NotImplementedError

    def trick_winner(self) -> int:
        """The seat that wins the (complete) current trick."""
        raise NotImplementedError

    def on_trick(self, trick: Trick) -> None:
        """Count a completed trick into ``taken`` (and anything else the title needs)."""
        raise NotImplementedError

    def finish(self) -> HandResult:
        """Score the hand once the last trick is in (adding up ``score_terms``)."""
        raise NotImplementedError

    def score_terms(self) -> tuple:
        """The hand's scoring as ``engine.scoring.ScoreTerm``s, once the last trick is
        in: ``finish`` sums them, and the hand summary reads them."""
        raise NotImplementedError

    def scored_cards(self) -> tuple:
        """``engine.scoring.ScoredCards`` for the cards hidden during the hand that it
        counted or revealed at its end (none by default)."""
        return ()

    def contract_line(self) -> dict | None:
        """``{"side", "bid", "took", "made"}`` for the hand's contract, or None."""
        return None

    def check_play_extra(self, action: Action) -> None:
        """Titles whose plays carry more than the card (Horseshoes aces) check it here;
        called only when the action carries an extra."""
        if action.extra is not None:
            raise IllegalAction("a play names only the card")

    # -- play: the shared trick machinery (a card played: see apply) -------------
    def _close_trick(self) -> Events:
        """The current trick is full: award it, then lead again or finish the hand."""
        winner = self.trick_winner()
        trick = new_trick((self.leader, tuple(self.trick), winner))
        self.tricks.append(trick)
        self.trick = []
        self.on_trick(trick)
        won = self._plays.tricks[winner][len(self.tricks)]
        if any(self.hands):
            self.leader = self.turn = winner
            return (won,)
        self._result = self.finish()
        self.phase = "done"
        self.turn = None
        return won, Event({"type": "hand_over", "score": list(self._result.score)})

    def start_play(self, leader: int) -> None:
        self.phase = "play"
        self.leader = self.turn = leader

    # -- play: what bots and replicas may read ----------------------------------------
    def led_card(self) -> int | None:
        return self.trick[0][1] if self.trick else None

    @property
    def trump_mask(self) -> int:
        """The trump cards (titles with trump say which); 0 before trump is named, in a
        no-trump hand, and in titles without trump."""
        return 0

    def is_trump(self, card: int) -> bool:
        return bool(self.trump_mask >> card & 1)

    @property
    def led_mask(self) -> int:
        """The cards that follow the suit led to the current trick (trump-aware: Rook's
        Rook follows trump); 0 before a card is led, or while any card follows."""
        raise NotImplementedError

    @property
    def winning_seat(self) -> int | None:
        """The seat whose card is winning the current trick so far; None before the lead.
        Titles whose ``trick_winner`` reads only the cards on the trick need not say more."""
        trick = self.trick
        if not trick:
            return None
        return trick[0][0] if len(trick) == 1 else self.trick_winner()

    def legal_if_held(self, seat: int, hand: int) -> int:
        """The cards ``seat`` could play now if it held ``hand`` (a mask): what a seat
        that cannot see another's hand asks of the rules. The state is left as it was."""
        hands = self.hands
        held = hands[seat]
        hands[seat] = hand
        try:
            return self.legal_play_mask(seat)
        finally:
            hands[seat] = held

    # -- results ---------------------------------------------------------------------
    def result(self) -> HandResult | None:
        """The finished hand's result, or None while it is being played."""
        return self._result

    def throw_in(self) -> Events:
        """End the hand with no play (Somerset's four passes)."""
        self._result = HandResult((), tuple(self.taken), None, (0,) * self.game.num_sides, True)
        self.phase = "done"
        self.turn = None
        return (Event({"type": "thrown_in"}),)

    # -- a proven cheat: the hand forfeited (docs/design.md, "Rulings") ---------------
    def forfeit(self, seat: int, rule: str) -> Events:
        """End the hand here: ``seat``'s proven cheat (it broke ``rule``) forfeits it for
        its side. The hand is neither played on nor dealt again; it is scored as the
        title's ``forfeit_score`` says — the innocent side as if it had taken every trick
        and every point, any contract standing as bid. In any phase: under the private
        deal a cheat may be proven only once every card is revealed, after the last
        trick, and the score the hand made then is replaced. Only once: the first cheat
        proven decides (ValueError after that, and for a seat that is not one)."""
        if type(seat) is not int or not 0 <= seat < self.n:
            raise ValueError(f"there is no seat {seat!r}")
        if self.forfeited:
            raise ValueError("the hand is forfeited already: the first cheat proven decides")
        side = self.game.side_of(seat)
        taken, contract, terms = self.forfeit_score(side)
        score = score_of(terms, self.game.num_sides)
        made = None if contract is None else contract["made"]
        self._result = HandResult(tuple(self.tricks), tuple(taken), made, score, False,
                                  Forfeit(seat, side, rule))
        self.phase = "done"
        self.turn = None
        self._legal_memo = None
        return (Event({"type": "forfeit", "seat": seat, "side": side, "rule": rule,
                       "score": list(score)}),)

    @property
    def forfeited(self) -> bool:
        """Whether a proven cheat ended the hand (nothing hidden is shown at its end then:
        the forfeit scores without the cards nobody saw)."""
        result = self._result
        return result is not None and result.forfeit is not None

    def forfeit_score(self, cheaters: int) -> ForfeitScore:
        """The hand scored as forfeited by side ``cheaters``: what each side counts as
        taken, the contract as it settles it, and the terms in the ruleset's words. A pure
        function of public facts (the contract, who bid), so that every client, whatever
        cards it could see, scores it alike. Each title says how."""
        raise NotImplementedError(f"{self.game.id} does not say how a forfeited hand scores")

    # -- what a seat cannot see, placed (bots imagining a deal) ------------------------
    def place_unseen(self, hands: dict[int, int], piles: dict[str, int]) -> None:
        """Put cards where their holder cannot see them: each seat in ``hands`` now
        holds that mask, and each hidden pile the title names in its ``Layout``
        (``Game.seat_layout``) the mask in ``piles``. For a copy of a made-up state."""
        for seat, mask in hands.items():
            self.hands[seat] = mask
        for name, mask in piles.items():
            self.place_pile(name, mask)

    def place_pile(self, name: str, mask: int) -> None:
        """A title's hidden pile now holds ``mask``; the only pile by default is the
        undealt "spare"."""
        if name != "spare":
            raise ValueError(f"{self.game.id} has no hidden pile {name!r}")
        self.spare = tuple(cards_of(mask))

    # -- views and hashing -----------------------------------------------------------
    def public_view(self) -> dict:
        """Everything every seat may see, as plain values (names, not numbers)."""
        view = self._public_fields()
        view["actions"] = [self.game.action_to_json(a, public=True) for a in self.history]
        view["tricks"] = [self._trick_json(t) for t in self.tricks]
        return view

    # The two lists of a public view that grow with the hand. _public_fields leaves
    # them as None (in their place, so views keep their key order) for public_view to
    # fill in, or for public_encoding to splice in already encoded.
    HISTORY_FIELDS = ("actions", "tricks")

    def _public_fields(self) -> dict:
        name = self.deck.name
        view = {
            **self.game.key(),
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": list(self.to_act()),
            "prompt": self.PROMPTS.get(self.phase),
            "cards_left": [h.bit_count() for h in self.hands],
            "actions": None,
            "tricks": None,
            "trick": [[s, name(c)] for s, c in self.trick],
            "leader": self.leader,
            "taken": list(self.taken),
        }
        if self._result is not None:
            r = self._result
            view["result"] = {"taken": list(r.taken), "made": r.made, "score": list(r.score),
                              "thrown_in": r.thrown_in}
            if r.forfeit is not None:  # (only then: every other hand's view is as it was)
                view["result"]["forfeit"] = r.forfeit._asdict()
        self.add_public(view)
        return view

    def view(self, seat: int, public: dict | None = None) -> dict:
        """What ``seat`` may see: the public view (``public``, if made already) and its own."""
        return {**(public if public is not None else self.public_view()), **self.private_view(seat)}

    def private_view(self, seat: int) -> dict:
        """What ``view(seat)`` adds to the public view: the seat, its hand, its secrets."""
        view = {"seat": seat, "hand": [self.deck.name(c) for c in cards_of(self.hands[seat])]}
        self.add_private(seat, view)
        return view

    def _trick_json(self, trick: Trick) -> dict:
        name = self.deck.name
        return {"leader": trick.leader, "cards": [[s, name(c)] for s, c in trick.cards],
                "winner": trick.winner}

    def add_public(self, view: dict) -> None:
        """Titles add their public fields (bids, contract, trump, open cards)."""

    def add_private(self, seat: int, view: dict) -> None:
        """Titles add what only ``seat`` may see (a taken kitty, buried cards)."""

    def public_encoding(self) -> bytes:
        """``canonical.encode(self.public_view())``, byte for byte, without encoding the
        whole history again: peers hash after every action, and the history is most
        of a view (re-encoding it made each hash cost more than a whole random hand).

        A canonical view is a list of [key, value] pairs sorted by key, and msgpack
        writes a list as its header followed by its items, so the pairs can be packed
        one at a time; the history lists come from _encoded_history."""
        fields = self._public_fields()
        history = self._encoded_history()
        packer = msgpack.Packer(use_bin_type=True)
        pack, header = packer.pack, packer.pack_array_header
        parts = [header(len(fields))]
        for key in sorted(fields):
            if key in history:
                count, _, encoded = history[key]
                parts.append(header(2) + pack(key) + header(count) + encoded)
            else:
                parts.append(pack([key, canonical.canonical(fields[key])]))
        return b"".join(parts)

    def _encoded_history(self) -> dict[str, tuple[int, object, bytes]]:
        """{"actions": (count, last item, the items' canonical encodings, concatenated),
        "tricks": (…)}. Both lists only ever grow (apply appends to them), so their
        encodings are kept in ``_history_code`` and extended; a list found shorter, or
        with another last item, is encoded afresh."""
        actions, tricks = self._history_code or (_NO_CODE, _NO_CODE)
        actions = _extend_code(actions, self.history,
                               lambda a: self.game.action_to_json(a, public=True))
        tricks = _extend_code(tricks, self.tricks, self._trick_json)
        self._history_code = (actions, tricks)  # tuples: a clone may share them
        return {"actions": actions, "tricks": tricks}

    def adopt_encoded_history(self, other: "State") -> None:
        """Take the history encoding kept by ``other`` (``_history_code``) for the items
        this state's history has alike in public — a replay of the same moves on another
        made-up deal (``partial.PartialHand``) — so its next hash encodes only what is new.
        Items are alike when equal, or (a secret move filled with other cards) when their
        public forms are; the rest is encoded afresh."""
        if other._history_code is None or self._history_code is not None:
            return
        actions, tricks = other._history_code
        public = self.game.action_to_json
        self._history_code = (
            _rebased(actions, other.history, self.history,
                     lambda a, b: a == b or public(a, public=True) == public(b, public=True)),
            _rebased(tricks, other.tricks, self.tricks, lambda a, b: a == b))

    def state_hash(self) -> str:
        """Hex SHA-256 of the canonical public view: equal on every honest peer."""
        return hashlib.sha256(self.public_encoding()).hexdigest()

    # -- copying ---------------------------------------------------------------------
    def clone(self) -> "State":
        new = object.__new__(type(self))
        attrs = self.__dict__.copy()  # then the lists, through the dict: no getattr/setattr
        for attr in self.MUTABLE:
            attrs[attr] = attrs[attr][:]
        new.__dict__ = attrs
        return new
