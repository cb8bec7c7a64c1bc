"""Tiny Tricks' rules: the deck, naming trump, following suit, a point a trick.

Cards are numbered suit by suit (moons, stars, suns), 1 to 5 inside each, so the best
card of a suit (or of trump) is the top bit of its mask.
"""

from __future__ import annotations

from engine.actions import Action
from engine.cards import Deck
from engine.errors import IllegalAction
from engine.events import Event, Events
from engine.info import CardInfo, DecisionInfo, DeckInfo, GameInfo, TrumpInfo, each_alone
from engine.ruleset import Option, Rule, Ruleset
from engine.scoring import ScoreTerm, score_of
from engine.state import ForfeitScore, Game, HandResult, State, Trick

NAME = "Tiny Tricks"
SUITS = ("M", "S", "U")
SUIT_NAMES = {"M": "Moons", "S": "Stars", "U": "Suns"}
SUIT_INK = {"M": "#1565c0", "S": "#b58900", "U": "#c62828"}
RANKS = (1, 2, 3, 4, 5)
NO_TRUMP = "NT"
TRUMPS = SUITS + (NO_TRUMP,)
DECK = Deck([f"{s}{r}" for s in SUITS for r in RANKS], [s for s in SUITS for _ in RANKS],
            [r for _ in SUITS for r in RANKS], [0] * (len(SUITS) * len(RANKS)))
SUIT_MASKS = {s: DECK.suit_mask[s] for s in SUITS}

RULESET = Ruleset(
    id="tiny", game="tiny", name=NAME,
    summary="Name trump, follow suit, a point a trick: a test-only title.",
    rules=(Rule("Trump", "The player left of the dealer names a suit trump, or no trump, and "
                "leads.", "the test suite"),
           Rule("Play", "Follow suit if you can. The highest trump wins, else the highest card "
                "of the suit led.", "the test suite")),
    options=(Option("target", "Target score", 5, tuple(range(3, 10)),
                    "The game ends after a hand in which someone reaches this many points."),),
    default=True)


def card_info(name: str) -> CardInfo:
    suit, rank = name[0], int(name[1:])
    return CardInfo(name, f"{SUIT_NAMES[suit][:-1]} {rank}", name, suit, False, rank,
                    SUIT_INK[suit], 0)


DECK_INFO = DeckInfo("tiny", {}, SUITS, tuple(card_info(name) for name in DECK.names))


class TinyGame(Game):
    id = "tiny"
    deck = DECK
    num_players = 3
    hand_size = 4
    spare_size = 3

    @property
    def partnerships(self) -> bool:
        return False

    def match_winner(self, scores: list[int], result: HandResult) -> int | None:
        """At the target, the uniquely highest score wins; a shared one plays on."""
        best = max(scores)
        if best < self.options["target"] or scores.count(best) > 1:
            return None
        return scores.index(best)

    def build_info(self) -> GameInfo:
        return GameInfo(
            title=self.id, name=NAME, ruleset=self.ruleset.id, ruleset_name=self.ruleset.name,
            mode=None, mode_name=None, options=dict(self.options), players=self.num_players,
            hand_size=self.hand_size, sides=each_alone(self.num_players),
            target=self.options["target"], lower_wins=False, contract=False, taken_unit="tricks",
            taken_per_hand=self.hand_size, deck=DECK_INFO,
            trumps=tuple(TrumpInfo(t, SUIT_NAMES.get(t, "No Trump"), t[0]) for t in TRUMPS),
            decisions=(DecisionInfo("trump", "trump", "Name trump", choices=TRUMPS),
                       DecisionInfo("play", "play", "Play a card")))


class TinyState(State):
    HANDLERS = {("trump", "trump"): "_name_trump"}
    PROMPTS = {"trump": "name trump", "play": "play a card"}

    def __init__(self, game: TinyGame, hands, spare, dealer):
        super().__init__(game, hands, spare, dealer)
        self.trump: str | None = None
        self.phase = "trump"
        self.turn = (dealer + 1) % self.n

    # -- trump -----------------------------------------------------------------------
    def _legal_trump(self, seat: int) -> list[Action]:
        return [Action(seat, "trump", t) for t in TRUMPS]

    def _name_trump(self, action: Action) -> Events:
        if action.value not in TRUMPS or action.extra is not None:
            raise IllegalAction(f"name trump: one of {', '.join(TRUMPS)}")
        self.trump = action.value
        self.start_play(action.seat)
        return (Event({"type": "trump", "seat": action.seat, "trump": self.trump}),)

    # -- play ------------------------------------------------------------------------
    @property
    def trump_mask(self) -> int:
        return SUIT_MASKS.get(self.trump, 0)

    @property
    def led_mask(self) -> int:
        return SUIT_MASKS[DECK.suit_of[self.trick[0][1]]] if self.trick else 0

    def legal_play_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        return (hand & self.led_mask) or hand

    def play_reason(self, seat: int, card: int) -> str:
        return f"you must follow {SUIT_NAMES[DECK.suit_of[self.trick[0][1]]]}"

    def trick_winner(self) -> int:
        on_trick = DECK.mask(card for _, card in self.trick)
        best = ((on_trick & self.trump_mask) or (on_trick & self.led_mask)).bit_length() - 1
        return next(seat for seat, card in self.trick if card == best)

    def on_trick(self, trick: Trick) -> None:
        self.taken[trick.winner] += 1

    def finish(self) -> HandResult:
        score = score_of(self.score_terms(), self.game.num_sides)
        return HandResult(tuple(self.tricks), tuple(self.taken), None, score)

    def score_terms(self) -> tuple:
        """A point a trick, for each player."""
        return tuple(ScoreTerm(seat, taken, "a point a trick", f"{taken} × 1")
                     for seat, taken in enumerate(self.taken))

    def forfeit_score(self, cheaters: int) -> ForfeitScore:
        """A forfeit: the cheater scores nothing, every other player a point a trick of
        the hand (each for themselves, so each is counted as taking them all)."""
        terms = tuple(ScoreTerm(seat, 0 if seat == cheaters else self.game.hand_size,
                                "forfeit" if seat == cheaters else "forfeit by another: a point a trick")
                      for seat in range(self.n))
        return ForfeitScore(tuple(self.taken), None, terms)

    # -- views -----------------------------------------------------------------------
    def hidden_from(self, seat: int) -> int:
        """The others' hands and the three cards left face down (never shown)."""
        hidden = DECK.mask(self.spare)
        for other, hand in enumerate(self.hands):
            if other != seat:
                hidden |= hand
        return hidden

    def add_public(self, view: dict) -> None:
        view["trump"] = self.trump


TinyGame.state_class = TinyState
