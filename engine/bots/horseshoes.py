"""Horseshoes bots: the left-over card, bids (the first with trump), exact trick play.

Horseshoes rewards hitting your bid exactly, so play turns on one number: how many
more tricks this seat (or, in ``partners``, this team) wants. While it wants more it
takes sure tricks with its highest cards (which would only be a liability later);
once it has enough it ducks, shedding high cards under others' winners, leading where
others must beat it, and declaring its aces low.

Card numbers (engine/horseshoes/rules.py): suit by suit (S H D C), ace first, so card
``c`` is suit ``c // R``, index ``c % R`` (0 = ace, then 2, 3, …), R ranks per suit.
A card's strength in a trick is its index + 1, an ace 14 declared high and 1 low;
any trump beats the suit led.
"""

from __future__ import annotations

from ..actions import Action
from ..cards import cards_of
from ..horseshoes.rules import HIGH_ACE, LOW_ACE, SUIT_NAMES, SUITS, TRUMP_BONUS, TRUMPS
from .context import Context, Decision
from .search import compare_options, play_out, search_play

# The worth, in tricks, of the suit's best, second, third, fourth card (ace = best).
TOP_CARD_TRICKS = (0.95, 0.7, 0.4, 0.15)


def ranks_per_suit(game) -> int:
    return game.deck.size // 4


def strength(game, card: int, call: str | None, led: int, trump: int) -> int:
    """The engine's trick strength of ``card`` (see HorseshoesState.winning_strength)."""
    rank = game.rank_of[card]
    if game.ace_mask >> card & 1:
        rank = HIGH_ACE if call == "high" else LOW_ACE
    bit = 1 << card
    if bit & trump:
        return TRUMP_BONUS + rank
    if bit & led:
        return rank
    return -1


def raw_rank(game, card: int) -> int:
    """A card's rank with the ace on top: what makes it dangerous to hold."""
    return HIGH_ACE if game.ace_mask >> card & 1 else game.rank_of[card]


def order_from_top(game, card: int) -> int:
    """0 for the ace, 1 for the next card down (K, or 10 in ``three``), …"""
    index = card % ranks_per_suit(game)
    return 0 if index == 0 else ranks_per_suit(game) - index


# -- bidding --------------------------------------------------------------------------
def estimate_tricks(game, hand: int, trump: str) -> float:
    tricks = 0.0
    trump_index = SUITS.index(trump) if trump in SUITS else None
    lengths = [(hand & game.suit_masks[s]).bit_count() for s in range(4)]
    for suit in range(4):
        cards = cards_of(hand & game.suit_masks[suit])
        length = lengths[suit]
        for card in cards:
            place = order_from_top(game, card)
            if suit == trump_index:
                tricks += TOP_CARD_TRICKS[place] + 0.1 if place < 4 else 0.0
            elif place < 4:
                worth = TOP_CARD_TRICKS[place]
                if length - 1 < place:
                    worth *= 0.4  # an unguarded honour falls under the higher ones
                if trump_index is not None and length >= 6:
                    worth *= 0.8  # a long side suit gets trumped early
                tricks += worth
        if suit == trump_index:
            tricks += 0.55 * max(0, length - 3)  # long trumps win tricks late
    if trump_index is not None and lengths[trump_index] >= 2:
        shorts = sum(1 for s in range(4) if s != trump_index and lengths[s] <= 1)
        tricks += 0.5 * min(shorts, lengths[trump_index] - 1)
    return tricks


# What the estimate misses on average (self-play: the tricks no honour wins go to
# somebody), per number of players.
UNCOUNTED_TRICKS = {3: 0.95, 4: 0.45, "partners": 0.6}
SPARE_SHARE = 0.4  # of the tricks the bids so far leave over, the part this seat expects


def adjusted_for_table(game, tricks: float, bids: list) -> float:
    """Add the tricks the estimate leaves over, and a share of what the bids so far
    leave on the table (others' low bids mean spare tricks will fall to someone)."""
    n = game.num_players
    tricks += UNCOUNTED_TRICKS["partners" if game.partnerships else n]
    made = [b for b in bids if b is not None]
    if not made:
        return tricks
    still_to_bid = n - len(made) - 1
    spare = 13 - (sum(made) + tricks + still_to_bid * 13 / n)
    return max(0.0, tricks + SPARE_SHARE * spare)


def best_trump(game, hand: int) -> tuple[str, float]:
    options = [(estimate_tricks(game, hand, t), -i, t) for i, t in enumerate(TRUMPS)]
    tricks, _, trump = max(options)
    return trump, tricks


def normal_bid(game, hand: int, trump: str | None, bids: list) -> tuple[int, str, float]:
    """The normal level's bid (and trump, for the first bidder) and its estimate."""
    if trump is None:
        trump, tricks = best_trump(game, hand)
    else:
        tricks = estimate_tricks(game, hand, trump)
    tricks = adjusted_for_table(game, tricks, bids)
    return max(0, min(13, int(tricks + 0.5))), trump, tricks


def decide_bid(ctx: Context) -> Decision:
    game, view, seat, hand = ctx.game, ctx.view, ctx.seat, ctx.know.hand
    first = view.get("trump") is None
    if ctx.level == "easy":
        trump = SUITS[max(range(4), key=lambda s: ((hand & game.suit_masks[s]).bit_count(), -s))]
        bid = sum(1 for c in cards_of(hand) if order_from_top(game, c) < 2)
        why = "counting aces and the next cards down"
    else:
        bid, trump, tricks = normal_bid(game, hand, view.get("trump"), view["bids"])
        why = f"the hand should take about {tricks:.1f} tricks"
        if ctx.searches:
            bid, why = hard_bid(ctx, bid, trump if first else None)
    data = {"seat": seat, "bid": bid}
    if first:
        data["trump"] = trump
        words = "no trump" if trump == "NT" else f"{SUIT_NAMES[SUITS.index(trump)]} trump"
        return Decision(game.action_from_json(data), f"bid {bid} with {words}: {why}")
    return Decision(game.action_from_json(data), f"bid {bid}: {why}")


BID_SAMPLES = 16


def hard_bid(ctx: Context, normal: int, trump: str | None) -> tuple[int, str]:
    """Play out the normal bid and its neighbours on the same sampled deals (the
    seats still to bid bidding as the normal level would) and keep the best."""
    game, seat = ctx.game, ctx.seat
    options = sorted({max(0, normal - 1), normal, min(13, normal + 1)})

    def finish(world, bid):
        world.apply(Action(seat, "bid", bid, trump))
        while world.phase == "bidding":
            actor = world.turn
            their, _, _ = normal_bid(game, world.hands[actor], world.trump, world.bids)
            world.apply(Action(actor, "bid", their, None))
        play_out(world, rollout_action)
        return world

    values = compare_options(ctx, options, finish, evaluate, BID_SAMPLES)
    best = max(range(len(options)), key=lambda i: (values[i], -abs(options[i] - normal)))
    return options[best], f"it played best over {BID_SAMPLES} deals ({values[best]:+.1f} on average)"


def decide_leftover(ctx: Context) -> Decision:
    """Unseen either way; face up gives every player the same information, which
    helps careful counting, so the stronger levels turn it up."""
    face = ctx.rng.choice(("up", "down")) if ctx.level == "easy" else "up"
    return Decision(ctx.game.action_from_json({"seat": ctx.seat, "leftover": face}),
                    f"turn the left-over card face {face}")


# -- trick play ----------------------------------------------------------------------------------
def tricks_wanted(state, seat: int, won: list[int], bids: list) -> int:
    """More tricks this seat's side wants (≤ 0: it has enough)."""
    game = state.game
    if game.partnerships:
        partner = (seat + 2) % 4
        return bids[seat] + bids[partner] - won[seat] - won[partner]
    return bids[seat] - won[seat]


class Play:
    def __init__(self, state, seat: int, possible: list[int]):
        self.state, self.seat, self.possible = state, seat, possible
        self.game = game = state.game
        self.trump = state.trump_mask
        trick = state.trick
        self.led = state.led_mask
        self.win_key = state.winning_strength if trick else -2
        self.win_seat = state.winning_seat
        self.later = [(seat + i) % game.num_players for i in range(1, game.num_players - len(trick))]
        self.partner = (seat + 2) % 4 if game.partnerships else None

    def key(self, card: int, call: str | None) -> int:
        led = self.led or self.game.suit_masks[self.game.suit_of[card]]
        return strength(self.game, card, call, led, self.trump)

    def beatable(self, key: int, led: int, seats) -> bool:
        """Could one of ``seats`` beat a card of strength ``key``? A seat that may hold
        the suit led is assumed to follow it."""
        game = self.game
        for other in seats:
            holding = self.possible[other]
            follow = holding & led
            pool = follow if follow else holding
            for card in cards_of(pool & (led | self.trump)):
                if strength(game, card, "high", led, self.trump) > key:
                    return True
        return False

    def others_later(self):
        return [s for s in self.later if s != self.partner]


def play_card(state, seat: int, possible: list[int], want: int) -> tuple[Action, str]:
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0], f"play {_name(state.game, legal[0])}: the only legal card"
    play = Play(state, seat, possible)
    if want > 0:
        return take(play, legal)
    return duck(play, legal)


def _name(game, action: Action) -> str:
    name = game.deck.name(action.value)
    return f"{name} {action.extra}" if action.extra else name


def take(play: Play, legal: list[Action]):
    """Still short of the bid: win with a sure winner (the highest: kept, it could only
    win a trick not wanted later), else with the best chance, else play low."""
    game = play.game
    partner_winning = play.win_seat is not None and play.win_seat == play.partner
    options = [a for a in legal if a.extra != "low"]
    keyed = [(play.key(a.value, a.extra), a) for a in options]

    def led_of(action: Action) -> int:
        return play.led or game.suit_masks[game.suit_of[action.value]]

    if partner_winning and not play.beatable(play.win_key, play.led, play.others_later()):
        action = min(legal, key=lambda a: (play.key(a.value, a.extra), a.value))
        return action, f"play {_name(game, action)}: partner is taking this trick"
    sure = [(k, a) for k, a in keyed
            if k > play.win_key and not play.beatable(k, led_of(a), play.others_later())]
    if sure:
        # Win with the highest sure card: kept, it could only win a trick not wanted.
        key, action = max(sure, key=lambda item: (item[0], -item[1].value))
        return action, f"play {_name(game, action)}: a sure trick, and more are needed"
    winners = [(k, a) for k, a in keyed if k > play.win_key]
    if winners and not play.later:
        key, action = min(winners, key=lambda item: (item[0], item[1].value))
        return action, f"play {_name(game, action)}: it takes the trick"
    if winners:  # no sure trick: the best chance is the highest card
        key, action = max(winners, key=lambda item: (item[0], -item[1].value))
        return action, f"play {_name(game, action)}: the best chance of a needed trick"
    low = [a for a in legal if a.extra != "high"]
    action = min(low, key=lambda a: (play.key(a.value, a.extra), raw_rank(game, a.value), a.value))
    return action, f"play {_name(game, action)}: keep the high cards for sure tricks later"


def duck(play: Play, legal: list[Action]):
    """Bid reached: lose this trick, shedding the highest card that still loses."""
    game = play.game
    options = [a for a in legal if a.extra != "high"]
    keyed = [(play.key(a.value, a.extra), a) for a in options]
    if play.win_seat is not None:
        losers = [(k, a) for k, a in keyed if k < play.win_key]
        if losers:
            key, action = max(losers, key=lambda item: (item[0], raw_rank(game, item[1].value),
                                                        -item[1].value))
            return action, f"play {_name(game, action)}: the highest card that loses, the bid is made"
    if play.win_seat is not None and not play.later:
        # Last to play and every card wins: take it with the card most dangerous later.
        key, action = max(keyed, key=lambda item: (item[0], -item[1].value))
        return action, f"play {_name(game, action)}: the trick is ours anyway, so shed the highest card"
    if play.win_seat is None:
        return duck_lead(play, options)
    # Every card would win for now: the one most likely to be beaten.
    key, action = min(keyed, key=lambda item: (item[0], item[1].value))
    return action, f"play {_name(game, action)}: the lowest card, the bid is made"


def duck_lead(play: Play, options: list[Action]):
    """Lead to lose: the low card of the suit where most unseen cards rank above it,
    so that whoever follows is likely to have to beat it. Trump only if nothing else."""
    game, seat = play.game, play.seat
    others = 0
    for other, holding in enumerate(play.possible):
        if other != seat:
            others |= holding

    def chance_to_lose(action: Action):
        card = action.value
        suit = game.suit_masks[game.suit_of[card]]
        key = strength(game, card, action.extra, suit, play.trump)
        above = sum(1 for c in cards_of(others & suit)
                    if strength(game, c, "high", suit, play.trump) > key)
        return (not (1 << card) & play.trump or not above, above, -key, -action.value)

    action = max(options, key=chance_to_lose)
    return action, f"lead {_name(game, action)}: others hold higher cards of the suit, the bid is made"


def easy_play(state, seat: int, want: int):
    legal = state.legal_actions(seat)
    game = state.game
    play = Play(state, seat, [0] * game.num_players)
    if want > 0:
        options = [a for a in legal if a.extra != "low"]
        action = max(options, key=lambda a: (play.key(a.value, a.extra), -a.value))
        return action, f"play {_name(game, action)}: the highest card, tricks are needed"
    options = [a for a in legal if a.extra != "high"]
    action = min(options, key=lambda a: (play.key(a.value, a.extra), a.value))
    return action, f"play {_name(game, action)}: the lowest card, the bid is made"


def decide_play(ctx: Context) -> Decision:
    state, seat = ctx.state, ctx.seat
    want = tricks_wanted(state, seat, ctx.view["tricks_won"], ctx.view["bids"])
    if ctx.level == "easy":
        action, why = easy_play(state, seat, want)
    elif ctx.searches:
        return search_play(ctx, PLAY_BUDGET, rollout_action, evaluate)
    else:
        action, why = play_card(state, seat, ctx.know.holdings(), want)
    return Decision(action, why)


# -- the hard level's play-outs ----------------------------------------------------------------
PLAY_BUDGET = 9000  # simulated plays per card decision (see search)


def rollout_action(state) -> Action:
    seat = state.turn
    action, _ = play_card(state, seat, state.hands, tricks_wanted(state, seat, state.won, state.bids))
    return action


def evaluate(state, seat: int) -> float:
    """Own penalty counts fully; the others' a little (a lower one of theirs hurts)."""
    penalties = state.result().score
    side = state.game.side_of(seat)
    others = [p for i, p in enumerate(penalties) if i != side]
    return -penalties[side] + 0.3 * sum(others) / len(others)


DECIDERS = {"leftover": decide_leftover, "bidding": decide_bid, "play": decide_play}
