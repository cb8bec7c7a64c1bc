"""Somerset's expert card play (issue 31): its deals are drawn as hard's are, uniformly
among those that fit what has been seen (deals weighted by the auction misled its
search: docs/benchmarks.md), while its bid, kitty and trump still weigh them; and its
manners give way to a gain of a share of the hand's points, as Rook's do."""

from __future__ import annotations

import pytest

from engine import make_game
from engine.actions import Action
from engine.bots import expert, make_bot, rook_expert, somerset_expert
from engine.bots.expert import Manners, Scored, choose
from engine.bots.inference import Posterior

from .test_expert_partner import SOMERSET_PARTNER_BIDS, SOMERSET_PARTNER_SCRIPT, position


class Recorded(Posterior):
    """Posterior, noting whether each search was given a likelihood."""

    weighted: list[bool] = []

    def __init__(self, ctx, likelihood, *args, **kwargs):
        Recorded.weighted.append(likelihood is not None)
        super().__init__(ctx, likelihood, *args, **kwargs)


@pytest.fixture
def recorded(monkeypatch):
    Recorded.weighted = []
    monkeypatch.setattr(expert, "Posterior", Recorded)
    monkeypatch.setattr(somerset_expert, "Posterior", Recorded)
    monkeypatch.setattr(somerset_expert, "EXPERT_PLAY_BUDGET", 3000)
    return Recorded.weighted


def test_the_card_play_searches_deals_drawn_uniformly(recorded):
    game, state = position("somerset", SOMERSET_PARTNER_BIDS, "0/2 0/4", 1, SOMERSET_PARTNER_SCRIPT)
    assert state.turn == 0 and not state.trick
    make_bot("expert", 5).choose(game, state.view(0))
    assert recorded == [False], recorded


def test_the_bid_still_weighs_deals_by_the_auction(recorded):
    game = make_game("somerset")
    state = game.new_hand(*_dealt(game), 1)
    state.apply(game.action_from_json({"seat": 2, "bid": 12}))  # seat 3 reads seat 2's bid
    make_bot("expert", 5).choose(game, state.view(3))
    assert recorded == [True], recorded


def _dealt(game):
    deck = game.deck
    hands = [[deck.parse(name) for name in SOMERSET_PARTNER_BIDS[seat].split()] for seat in range(4)]
    return hands, [deck.parse("0/2"), deck.parse("0/4")]


def cards(*means: float) -> list[Scored]:
    return [Scored(Action(0, "play", card, None), mean) for card, mean in enumerate(means)]


def test_somerset_manners_give_way_to_a_share_of_the_hand_as_rooks_do():
    """Leading the partner's trump gives way to a card that gains 3 of the hand's 24
    points (an eighth of them: Rook's lead gives way at 20 of 180); trumping the
    partner's trick to one that gains 1.5."""
    def leads(card: int) -> bool:
        return card == 0

    somerset = Manners(lambda card: False, leads, somerset_expert.REASON, somerset_expert.LEAD_REASON)
    assert choose(cards(10.0, 12.0), somerset)[0].action.value == 0  # 2 points: lead the trump
    assert choose(cards(10.0, 13.0), somerset)[0].action.value == 1  # 3 points: a reason
    rook = Manners(lambda card: False, leads, rook_expert.REASON, rook_expert.LEAD_REASON)
    assert choose(cards(100.0, 122.0), rook)[0].action.value == 1  # (Rook: 22 of 180)
    overtrump = Manners(lambda card: card == 1, lambda card: False, somerset_expert.REASON,
                        somerset_expert.LEAD_REASON)
    assert choose(cards(10.0, 10.9), overtrump)[0].action.value == 0
    assert choose(cards(10.0, 11.5), overtrump)[0].action.value == 1
    assert somerset_expert.LEAD_REASON / somerset_expert.HAND_POINTS == pytest.approx(
        rook_expert.LEAD_REASON / 180, abs=0.01)


def test_manners_give_way_only_to_a_gain_the_search_is_sure_of():
    """3 points better than the partner's trump is a reason (more than 2.64), but not
    while the search's paired difference has a standard error of 1 point (2 errors of
    doubt); with an error of 0.1 it is."""
    def leads(card: int) -> bool:
        return card == 0

    def scored(error: float) -> list[Scored]:
        return [Scored(Action(0, "play", 0, None), 10.0, lambda other: error),
                Scored(Action(0, "play", 1, None), 13.0, lambda other: error)]

    somerset = Manners(lambda card: False, leads, somerset_expert.REASON, somerset_expert.LEAD_REASON,
                       somerset_expert.SURE)
    assert choose(scored(1.0), somerset)[0].action.value == 0
    assert choose(scored(0.1), somerset)[0].action.value == 1


def test_the_best_of_many_cards_must_be_surer_than_the_better_of_two():
    """3.5 points better than the partner's trump with a standard error of 0.4: sure
    (2 errors of doubt: 0.8 + 2.64 < 3.5) when the search compared two cards; not when
    the best beat eight others (the best of nine is also the luckiest: 2.77 errors, 1.1
    of doubt). Touching cards (twins) are no rivals of their own."""
    def leads(card: int) -> bool:
        return card == 0

    def scored(others: int, twins: int = 0) -> list[Scored]:
        def error(other: int) -> float:
            return 0.4
        return ([Scored(Action(0, "play", 0, None), 10.0, error), Scored(Action(0, "play", 1, None), 13.5, error)]
                + [Scored(Action(0, "play", 2 + n, None), 0.0, error) for n in range(others)]
                + [Scored(Action(0, "play", 20 + n, None), 0.0, error, True) for n in range(twins)])

    somerset = Manners(lambda card: False, leads, somerset_expert.REASON, somerset_expert.LEAD_REASON,
                       somerset_expert.SURE)
    assert choose(scored(0), somerset)[0].action.value == 1
    assert choose(scored(0, twins=7), somerset)[0].action.value == 1
    assert choose(scored(7), somerset)[0].action.value == 0
    assert expert.sure_among(2.0, 2) == 2.0 and expert.sure_among(2.0, 9) == pytest.approx(2.77, abs=0.01)


def test_the_race_is_sure_of_nothing_it_dropped():
    race = expert.Race(3, keep_within=1.0)
    race.weights = [1] * 16
    race.values = [[0.0, 2.0] * 8, [12.0, 12.0] * 8, [10.0, 14.0] * 8]
    race.narrow()
    assert race.alive == [1, 2]  # 0 is behind 1 by 10 or 12 on every deal: dropped
    assert race.error(0, 1) == 0.0
    # 2 less 1: ±2 on 16 deals, the sample variance 4 * 16 / 15
    assert race.error(2, 1) == pytest.approx((4 * 16 / 15 / 16) ** 0.5)


def test_the_partners_trump_is_led_whatever_the_seed(monkeypatch):
    """Partner bid 12 and named 8s: the expert on lead leads a trump for every seed. On
    main (manners without doubt, weighted deals) the lead went by the seed: 5 of 8."""
    monkeypatch.setattr(somerset_expert, "EXPERT_PLAY_BUDGET", 12000)
    game, state = position("somerset", SOMERSET_PARTNER_BIDS, "0/2 0/4", 1, SOMERSET_PARTNER_SCRIPT)
    leads = [game.deck.name(make_bot("expert", seed).choose(game, state.view(0)).value) for seed in range(1, 9)]
    assert all(card in ("7/8", "1/8") for card in leads), leads
