"""Where a hand's hidden cards go, as the mental deal's steps: the bridge from the engine.

The engine says what happens in a hand (its state and its events); this module says what
each client then does with its deal machine (``machine.MentalDeal``), the same at every
client, so that every machine takes the same steps at the same point of the log:

* ``at_deal``: the spare is face up from the start (Somerset's open widow, Horseshoes'
  left-over card under the "up" option): ``OpenToAll``.
* ``by_player``: the player's own step for its action, made before the action is logged
  and sent with it: a played card (``PlayCard``), or a secret set of cards leaving its
  hand face down (``Commit``: Rook's buried five, Somerset's discards).
* ``after``: what the action's events open or move: Rook's widow turned up for all
  (``OpenToAll``) and then taken by the bidder (``Give``); Somerset's kitty to the
  bidder alone (``OpenTo``); Horseshoes' left-over card turned up by the dealer
  (``OpenToAll``); the hand over (``Finish``: every party reveals its secret and the
  whole deal is verified). A left-over card face down stays closed until ``Finish``.
* ``redeal_rule``: the hand a seat must show to have the deal redone (Rook: no point
  card), for ``DealSetup.needs_redeal``; its owner calls ``claim_redeal`` once it sees
  its hand (``must_claim``).

Pure functions of public facts (the event types, the state's phase and visibility
rules), so a client replaying on a made-up deal (``engine.partial``) takes the same steps
as one that knows every card.
"""

from __future__ import annotations

from typing import NamedTuple

from engine import Action
from engine.state import Game


class OpenToAll(NamedTuple):
    """Every party opens the spare to everyone."""


class OpenTo(NamedTuple):
    """Every party but ``seat``'s opens the spare to ``seat``'s party alone."""
    seat: int


class Give(NamedTuple):
    """The face-up spare goes to ``seat``'s hand (it may play those cards)."""
    seat: int


class Commit(NamedTuple):
    """``seat``'s party commits to ``cards`` leaving its hand face down, as ``label``."""
    seat: int
    label: str
    cards: tuple[int, ...]


class PlayCard(NamedTuple):
    """``seat``'s party plays ``card`` from its hand."""
    seat: int
    card: int


class Finish(NamedTuple):
    """The hand is over: every party reveals its secret."""


SECRET_LABELS = ("bury", "discard")  # the engine's secret actions, as commitment labels
_ENDS = ("hand_over", "thrown_in")


def spare_public(game, state) -> bool:
    """Whether the rules show the spare to every seat before the first card is played
    (every title turns its spare up then, if ever; later a spare card nobody holds is
    one that was played, and a played card opens itself)."""
    if not game.spare_size or state.is_over or state.tricks or state.trick:
        return False
    spare = game.deck.mask(state.spare)
    return all(not state.hidden_from(seat) & spare for seat in range(game.num_players))


def at_deal(game, state) -> list:
    """The steps every party takes once the hands are dealt."""
    return [OpenToAll()] if spare_public(game, state) else []


def by_player(action: Action) -> Commit | PlayCard | None:
    """The acting seat's own step for ``action`` (its party alone takes it)."""
    if action.kind == "play":
        return PlayCard(action.seat, action.value)
    if action.kind in SECRET_LABELS:
        return Commit(action.seat, action.kind, tuple(action.value))
    return None


def after(game, state, events, opened: bool) -> list:
    """The steps every party takes after an action with these ``events`` (``state``:
    after it; ``opened``: whether the spare is face up already)."""
    steps: list[OpenToAll | Give | OpenTo | Finish] = []
    if not opened and spare_public(game, state):
        steps.append(OpenToAll())
    for event in events:
        if event["type"] == "take_widow":
            steps.append(Give(event["seat"]))
        elif event["type"] == "kitty_taken":
            steps.append(OpenTo(event["seat"]))
        elif event["type"] in _ENDS:
            steps.append(Finish())
    return steps


def redeal_rule(game):
    """``DealSetup.needs_redeal`` for this game: cards -> whether that hand is redealt;
    None for a game without such a rule."""
    if type(game).must_redeal is Game.must_redeal:
        return None
    return lambda cards: game.must_redeal(game.deck.mask(cards))


def must_claim(setup, hand_event) -> bool:
    """Whether a party that learned ``hand_event`` (``outputs.Dealt``) must claim a redeal."""
    rule = setup.needs_redeal
    return rule is not None and rule(list(hand_event.cards))


def take(machine, step, spare) -> list:
    """Run one step on a party's machine; its outputs (a ``Send`` to log, what it learned).
    ``spare``: the spare's deck positions (``DealSetup.spare``). A player's own step is
    taken only by the party that plays its seat."""
    if isinstance(step, OpenToAll):
        return machine.open_to_all(spare)
    if isinstance(step, OpenTo):
        return machine.open_to(spare, step.seat)
    if isinstance(step, Give):
        machine.give(spare, step.seat)
        return []
    if isinstance(step, Finish):
        return machine.finish()
    if machine.setup.owner(step.seat) != machine.me:
        return []
    if isinstance(step, PlayCard):
        return machine.play(step.seat, step.card)
    return machine.commit(step.seat, step.label, step.cards)
