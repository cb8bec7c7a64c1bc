"""Touching cards are one choice in the expert's card search (``expert.touching``): two
cards of one rank group (a suit, or the trumps), worth the same points, with no card
another seat may still play ranked between them, win and score exactly alike — the
search plays out only the lowest and shares its deals among fewer cards."""

from __future__ import annotations

from engine import make_game
from engine.bots import expert, make_bot, rook_expert, somerset_expert
from engine.bots.context import Context

from .test_expert_partner import (ROOK_PARTNER_BIDS, ROOK_PARTNER_SCRIPT, SOMERSET_PARTNER_BIDS,
                                  SOMERSET_PARTNER_SCRIPT, position)


def roots(title: str, hand: str, outstanding: str = "", group=None) -> dict[str, str]:
    """Each card of ``hand`` that is merged -> the card it is merged into, the cards in
    ``outstanding`` being the only ones another seat may still play."""
    deck = make_game(title).deck
    cards = [deck.parse(name) for name in hand.split()]
    mask = deck.mask_of(outstanding.split()) if outstanding else 0
    found = expert.touching(cards, group or (lambda card: deck.suit_mask[deck.suit_of[card]]),
                            deck.points_of, mask)
    return {deck.name(cards[i]): deck.name(cards[root]) for i, root in enumerate(found) if root != i}


def test_cards_touch_when_nothing_another_seat_may_play_ranks_between_them():
    # B3 and B4 touch; B6 too once B5 is out of play (not outstanding); B1 is worth 15
    assert roots("rook", "B4 B3 B6 B1") == {"B4": "B3", "B6": "B3"}
    # B5 still outstanding: B6 is a card of its own
    assert roots("rook", "B4 B3 B6", "B5") == {"B4": "B3"}
    # a card between them held by another seat or on the trick: a choice of its own
    assert roots("rook", "B3 B7", "R5 B6") == {}


def test_cards_worth_different_points_never_touch():
    # the 10 counts 10 points: a choice of its own; the 9 and the 11 touch across it
    assert roots("rook", "B9 B10 B11") == {"B11": "B9"}
    assert roots("rook", "B13 B14 B1") == {}  # 0, 10, 15
    # Somerset's 3/6 counts a point: the 2/6 and the 4/6 touch (the 3/6 is ours), not it
    assert roots("somerset", "2/6 3/6 4/6") == {"4/6": "2/6"}


def test_cards_of_other_rank_groups_never_touch():
    assert roots("rook", "B14 R2") == {}  # next to each other in the deck's numbering
    assert roots("rook", "B3 B4", group=lambda card: 0) == {}  # a group of 0: never merged


def test_somersets_special_cards_are_never_merged():
    """The 0/0, the S/S and the doubles have rules of their own (the 0/0 on a trick
    promotes the doubles), so Somerset's rank groups leave them out."""
    game, state = position("somerset", SOMERSET_PARTNER_BIDS, "0/2 0/4", 1, SOMERSET_PARTNER_SCRIPT)
    group = somerset_expert.ranks_among(state)
    deck = game.deck
    for name in ("0/0", "S/S", "6/6", "8/8", "12/12"):
        assert group(deck.parse(name)) == 0, name
    assert group(deck.parse("4/6")) == group(deck.parse("5/6")) != 0
    assert group(deck.parse("1/8")) == group(deck.parse("7/8")) == state.table.trumps  # trump: 8s


def test_the_rook_is_never_merged_and_a_trump_ranks_among_the_trumps():
    game, state = position("rook", ROOK_PARTNER_BIDS, "G2 G3 G4 R12 Y12", 0, ROOK_PARTNER_SCRIPT)
    group = rook_expert.ranks_among(state)
    deck = game.deck
    assert group(deck.parse("ROOK")) == 0
    assert group(deck.parse("G5")) == state.trump_mask
    assert group(deck.parse("B2")) == deck.suit_mask["B"]


def test_the_search_plays_out_one_of_touching_cards_and_meets_more_deals(monkeypatch):
    """Somerset, partner named 8s, seat 0 on lead with 11 cards: the 4/6 and the 5/6
    touch, and the 3/10 and the 4/10 (the 5/10 counts 2): 9 cards are played out, so at
    12,000 plays the search meets 12000 // (9 × 44) = 30 deals where it met 24 (each
    of the 11 cards played out) — and the touching cards score alike."""
    monkeypatch.setattr(somerset_expert, "EXPERT_PLAY_BUDGET", 12000)
    searched = []
    search = expert.search

    def recorded(ctx, *args, **kwargs):
        scored, deals = search(ctx, *args, **kwargs)
        searched.append(({ctx.name(s.action.value): s.mean for s in scored}, deals))
        return scored, deals

    monkeypatch.setattr(expert, "search", recorded)
    game, state = position("somerset", SOMERSET_PARTNER_BIDS, "0/2 0/4", 1, SOMERSET_PARTNER_SCRIPT)
    assert sum(state.view(0)["cards_left"]) == 44 and len(state.legal_actions(0)) == 11
    make_bot("expert", 5).choose(game, state.view(0))
    [(means, deals)] = searched
    assert deals == 30, deals
    assert means["5/6"] == means["4/6"] and means["4/10"] == means["3/10"], means
