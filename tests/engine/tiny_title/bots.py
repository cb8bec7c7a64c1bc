"""Tiny Tricks' computer players: trump the longest suit; play the highest legal card
(easy: the lowest). Every level decides from the seat's view alone, like the others."""

from __future__ import annotations

from engine.bots.context import Context, Decision
from engine.cards import cards_of

from .rules import SUIT_MASKS, SUIT_NAMES, SUITS


def decide_trump(ctx: Context) -> Decision:
    hand = ctx.know.hand
    suit = max(SUITS, key=lambda s: ((hand & SUIT_MASKS[s]).bit_count(), -SUITS.index(s)))
    return Decision(ctx.game.action_from_json({"seat": ctx.seat, "trump": suit}),
                    f"name {SUIT_NAMES[suit]}: the longest suit")


def decide_play(ctx: Context) -> Decision:
    cards = cards_of(ctx.state.legal_play_mask(ctx.seat))
    card = cards[0] if ctx.level == "easy" else cards[-1]
    why = "the lowest card" if ctx.level == "easy" else "the highest card it may play"
    return Decision(ctx.state.play_action(ctx.seat, card), f"play {ctx.name(card)}: {why}")


DECIDERS = {"trump": decide_trump, "play": decide_play}
