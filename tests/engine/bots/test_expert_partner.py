"""The expert plays as a partner should, in constructed positions: it does not
overtrump a partner who is taking the trick, and it leads the trump its partner named
(Rook's and Somerset's "bid suit"); and its manners give way to a card that gains
more than the title's ``REASON``."""

from __future__ import annotations

import pytest

from engine import make_game
from engine.actions import Action
from engine.bots import make_bot, rook_expert, somerset_expert
from engine.bots.expert import Manners, Scored, choose


def position(title: str, hands: dict[int, str], spare: str, dealer: int, script: list[dict]):
    """A hand dealt as written (cards by name) and played along ``script``."""
    game = make_game(title)
    deck = game.deck
    dealt = [[deck.parse(name) for name in hands[seat].split()] for seat in range(4)]
    state = game.new_hand(dealt, [deck.parse(name) for name in spare.split()], dealer)
    for data in script:
        state.apply(game.action_from_json(data))
    return game, state


@pytest.fixture(autouse=True)
def enough_search(monkeypatch):
    """Enough deals that the search's own view of these positions is not noise."""
    monkeypatch.setattr(rook_expert, "EXPERT_PLAY_BUDGET", 20000)
    monkeypatch.setattr(somerset_expert, "EXPERT_PLAY_BUDGET", 12000)


def expert_card(game, state, seat: int) -> str:
    assert state.to_act() == (seat,)
    return game.deck.name(make_bot("expert", 5).choose(game, state.view(seat)).value)


# -- Rook: trump is Green ------------------------------------------------------------------
ROOK_OPPONENT_BIDS = {  # seat 1 bids, buries the widow and leads G6; partner (2) plays G11
    1: "G6 G1 G14 G13 ROOK B1 B14 R1 R14 Y1 Y14 G4 G3",
    2: "G11 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 B5 B6 R5 R6",
    3: "G10 G8 B7 B8 B9 B10 B11 R7 R8 R9 R10 R11 R12",
    0: "G12 G5 G7 G9 B2 B3 B4 R2 R3 R4 Y2 Y3 Y4",
}
ROOK_OPPONENT_SCRIPT = [
    {"seat": 1, "bid": 100}, {"seat": 2, "pass": True}, {"seat": 3, "pass": True},
    {"seat": 0, "pass": True}, {"seat": 1, "raise": None}, *({"seat": s, "ack": True} for s in range(4)),
    {"seat": 1, "bury": ["G2", "B13", "B12", "R13", "Y13"], "trump": "G"},
    {"seat": 1, "play": "G6"}, {"seat": 2, "play": "G11"}, {"seat": 3, "play": "G8"},
]


def test_rook_expert_does_not_overtrump_its_partners_trick():
    """Last to play to a trump lead that partner's G11 is taking: G12 would overtrump it
    for nothing — no points, the opponents hold the trumps above it, and the lead is
    better in partner's hand (long yellows) than in ours (low cards)."""
    game, state = position("rook", ROOK_OPPONENT_BIDS, "G2 B13 R13 Y13 B12", 0, ROOK_OPPONENT_SCRIPT)
    assert state.trick[-1] == (3, game.deck.parse("G8")) and state.winning_seat == 2
    assert expert_card(game, state, 0) in ("G5", "G7", "G9")


ROOK_PARTNER_BIDS = {  # partner (2) bids and names Green; seat 0 wins trick 1 with B1
    0: "B1 B2 B3 B4 G5 G7 G9 R2 R3 R4 Y2 Y3 Y4",
    1: "G6 G8 B6 B7 B8 B9 B10 R5 R6 R7 Y5 Y6 Y7",
    2: "ROOK G1 G14 G13 G12 G11 B5 R1 R14 Y1 Y14 R13 Y13",
    3: "G10 B11 B12 B13 B14 R8 R9 R10 R11 Y8 Y9 Y10 Y11",
}
ROOK_PARTNER_SCRIPT = [
    {"seat": 1, "pass": True}, {"seat": 2, "bid": 100}, {"seat": 3, "pass": True},
    {"seat": 0, "pass": True}, {"seat": 2, "raise": None}, *({"seat": s, "ack": True} for s in range(4)),
    {"seat": 2, "bury": ["R12", "R13", "Y12", "Y13", "G2"], "trump": "G"},
    {"seat": 2, "play": "B5"}, {"seat": 3, "play": "B11"}, {"seat": 0, "play": "B1"},
    {"seat": 1, "play": "B6"},
]


def test_rook_expert_leads_the_trump_its_partner_named():
    game, state = position("rook", ROOK_PARTNER_BIDS, "G2 G3 G4 R12 Y12", 0, ROOK_PARTNER_SCRIPT)
    assert state.bidder == 2 and state.trump == "G" and state.turn == 0 and not state.trick
    assert expert_card(game, state, 0) in ("G5", "G7", "G9")


# -- Somerset: trump is 8s --------------------------------------------------------------------
SOMERSET_OPPONENT_BIDS = {  # seat 1 bids and leads 5/10; partner (2) plays the 10/10
    1: "5/10 0/10 1/10 8/8 6/8 5/8 4/8 3/8 2/8 12/12 11/12 10/12",
    2: "10/10 9/10 8/10 7/10 0/6 1/6 2/6 3/6 4/6 1/2 2/2 1/4",
    3: "2/10 3/10 4/10 6/10 0/0 3/4 4/4 0/12 1/12 2/12 3/12 S/S",
    0: "7/8 1/8 0/8 4/12 5/6 6/6 2/4 5/12 6/12 7/12 8/12 9/12",
}
SOMERSET_OPPONENT_SCRIPT = [
    {"seat": 1, "bid": 12}, {"seat": 2, "pass": True}, {"seat": 3, "pass": True},
    {"seat": 0, "pass": True}, {"seat": 1, "discard": ["0/2", "0/4"]}, {"seat": 1, "trump": "8"},
    {"seat": 1, "play": "5/10"}, {"seat": 2, "play": "10/10"}, {"seat": 3, "play": "2/10"},
]


def test_somerset_expert_does_not_trump_its_partners_trick():
    """Out of tens, last to play, partner's 10/10 taking the trick: any 8 would trump
    it for nothing; a card of another suit (count, even) goes on instead."""
    game, state = position("somerset", SOMERSET_OPPONENT_BIDS, "0/2 0/4", 0, SOMERSET_OPPONENT_SCRIPT)
    assert state.winning_seat == 2
    assert expert_card(game, state, 0) not in ("7/8", "1/8", "0/8")


SOMERSET_PARTNER_BIDS = {  # partner (2) bids and names 8s; seat 0 wins trick 1 with 12/12
    2: "8/8 6/8 5/8 4/8 3/8 0/12 0/10 1/10 2/10 0/6 1/6 2/6",
    3: "1/12 2/12 2/8 0/0 3/4 4/4 10/10 9/10 8/10 7/10 6/6 2/2",
    0: "12/12 7/8 1/8 3/6 4/6 5/6 2/4 1/4 1/2 3/10 4/10 5/10",
    1: "3/12 4/12 5/12 6/12 7/12 8/12 9/12 10/12 11/12 0/8 S/S 6/10",
}
SOMERSET_PARTNER_SCRIPT = [
    {"seat": 2, "bid": 12}, {"seat": 3, "pass": True}, {"seat": 0, "pass": True},
    {"seat": 1, "pass": True}, {"seat": 2, "discard": ["0/2", "0/4"]}, {"seat": 2, "trump": "8"},
    {"seat": 2, "play": "0/12"}, {"seat": 3, "play": "1/12"}, {"seat": 0, "play": "12/12"},
    {"seat": 1, "play": "3/12"},
]


def test_somerset_expert_leads_the_trump_its_partner_named():
    game, state = position("somerset", SOMERSET_PARTNER_BIDS, "0/2 0/4", 1, SOMERSET_PARTNER_SCRIPT)
    assert state.bidder == 2 and state.trump == "8" and state.turn == 0 and not state.trick
    assert expert_card(game, state, 0) in ("7/8", "1/8")


# -- the rule itself ------------------------------------------------------------------------
def cards(*means: float) -> list[Scored]:
    return [Scored(Action(0, "play", card, None), mean) for card, mean in enumerate(means)]


def test_manners_give_way_only_to_a_real_gain():
    """Card 2 overtrumps, card 3 leads partner's suit. Within the reason the polite card
    wins; beyond it the search's best does."""
    manners = Manners(overtrumps=lambda card: card == 2, partner_suit=lambda card: False, reason=5,
                      lead_reason=0)
    assert choose(cards(0, 10, 14), manners)[0].action.value == 1  # 4 better: no reason
    assert choose(cards(0, 10, 16), manners)[0].action.value == 2  # 6 better: a reason
    leads = Manners(overtrumps=lambda card: False, partner_suit=lambda card: card == 3, reason=0,
                    lead_reason=5)
    assert choose(cards(0, 12, 0, 8), leads)[0].action.value == 3
    assert choose(cards(0, 14, 0, 8), leads)[0].action.value == 1
    assert choose(cards(0, 14, 0, 8), None)[0].action.value == 1
    only_rude = Manners(overtrumps=lambda card: True, partner_suit=lambda card: False, reason=5,
                        lead_reason=5)
    assert choose(cards(0, 3), only_rude)[0].action.value == 1  # no polite card: the best
