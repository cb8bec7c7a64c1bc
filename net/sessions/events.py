"""The facade's "state" event, built the same way by every kind of session.

Local, hosting and guest sessions all tell the app about a position with one event
(see ``net.sessions.facade``); this module is the one place that shapes it. Three
additions to the facade's basic fields:

* ``info``: what the title says about itself (``engine.info.to_plain(game.info)``:
  names, sides, target, deck and card names, trumps, decisions), so the app draws and
  names everything from it and never switches on the title's id. Every session kind
  sends it from its own ``Game`` (a guest's replica has one too), so nothing on the
  wire changes and a new title needs nothing here.
* ``reasons``: ``{card: why it may not be played}`` for the cards you hold but may not
  play, while you are to play — the table shows it on dimmed cards.
* ``legal`` entries for a combinatorial choice (Rook's bury of 5, Somerset's discard of
  2) are one template instead of every combination (34,272 for a Rook bury):
  ``{"bury": 5, "trump": ["B", "R", "G", "Y"]}`` / ``{"discard": 2}``. Which phases ask
  for one is the title's ``DecisionInfo`` (``cards`` > 0); the choices that go with the
  cards are the trump named with them.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from engine.errors import RecordError
from engine.info import DecisionInfo, to_plain
from engine.records import apply_actions, load_record
from engine.scoring import breakdown

_plain_info: WeakKeyDictionary = WeakKeyDictionary()  # game -> to_plain(game.info), made once


def plain_info(game) -> dict:
    """``game.info`` as the plain values an event carries (the same dict each time:
    readers must not change it)."""
    plain = _plain_info.get(game)
    if plain is None:
        plain = _plain_info[game] = to_plain(game.info)
    return plain


def state_event(game, state, seat: int | None, events: list[dict], scores: list[int],
                hand_number: int, view: dict | None = None) -> dict:
    """The "state" event for ``seat`` (None: a watcher, who gets the public view).

    ``view`` overrides the state's own view: a guest shows the view the host sent,
    while ``state`` is its replica, which knows only the guest's own hand."""
    if view is None:
        view = state.view(seat) if seat is not None else state.public_view()
    event = {"type": "state", "view": view, "events": list(events), "scores": list(scores),
             "hand_number": hand_number, "legal": legal_for(game, state, seat), "info": plain_info(game)}
    if seat is not None and state.phase == "play" and seat in state.to_act():
        event["reasons"] = reasons_for(game, state, seat)
    return event


def legal_for(game, state, seat: int | None) -> list[dict]:
    """``seat``'s legal actions as hand-record dicts without the seat (empty when it is
    not to act)."""
    if seat is None or state is None or state.is_over or seat not in state.to_act():
        return []
    template = card_template(game, state.phase)
    if template is not None:
        entry: dict = {template.kind: template.cards}
        if template.choices:
            entry["trump"] = list(template.choices)
        return [entry]
    out = []
    for action in state.legal_actions(seat):
        data = game.action_to_json(action)
        data.pop("seat", None)
        out.append(data)
    return out


def card_template(game, phase: str) -> DecisionInfo | None:
    """The decision asked in ``phase`` that names several cards at once, if it is one."""
    return next((d for d in game.info.decisions if d.phase == phase and d.cards > 0), None)


def reasons_for(game, state, seat: int) -> dict:
    """Why each card ``seat`` holds but may not play is refused, by card name."""
    legal = state.legal_play_mask(seat)
    deck = game.deck
    return {deck.name(card): state.play_reason(seat, card) for card in range(deck.size)
            if state.hands[seat] >> card & 1 and not legal >> card & 1}


def hand_breakdown(state) -> dict | None:
    """The "breakdown" of a hand-over event: how the finished hand ``state`` was scored
    (``engine.scoring.breakdown``), or None for a hand thrown in or not finished."""
    if state is None or not state.is_over or state.result().thrown_in:
        return None
    return breakdown(state)


def record_breakdown(record: dict | None) -> dict | None:
    """``hand_breakdown`` of a verified hand record (a guest knows every card only
    from the record, once the host has revealed the hand); None if it cannot be read."""
    if record is None:
        return None
    try:
        _game, state, actions = load_record(record)
    except RecordError:
        return None
    if apply_actions(state, actions) is not None:
        return None
    return hand_breakdown(state)
