"""Hand records (``parlour-hand/1``): read, replay and write one hand as plain JSON values.

A record names the rules (game, ruleset, mode, options), the deal as dealt (dealer, each
seat's hand, the spare cards) and the actions taken. It is how games are saved and
exported, how a disputed hand is replayed, and how every peer re-checks a finished hand.

    load_record(data) -> (game, state, actions)   # RecordError if it is not a record
    play_record(data) -> (state, error)           # its actions applied (and its forfeit)
    replay(data) -> {"tricks", "taken", "made", "score", "error"}   (+ "forfeit")
    record_from_state(state) -> data              # a finished or partial hand

A hand a player's proven cheat ended (``State.forfeit``, the ruling in docs/design.md)
says so with an optional ``"forfeit": {"seat": 1, "rule": "illegal-action"}``: its
actions are the moves that stand (not the move the rules forbid, nor any after it), and
the forfeit ends the hand after them. Its result then carries ``"forfeit": {"seat",
"side", "rule"}``; a record without the key reads and replays as it always did.

The difference between the two kinds of failure matters: a record that cannot be read
(unknown game, a card dealt twice, an action naming no card) raises ``RecordError``; a
readable record whose actions break the rules replays up to the first illegal action
and reports it in ``error`` — that is a result, not a failure.
"""

from __future__ import annotations

from typing import Any

from .actions import Action
from .errors import IllegalAction, RecordError, UnknownTitle
from .registry import make_game, rulesets
from .state import Game, State

FORMAT = "parlour-hand/1"
REQUIRED_KEYS = ("format", "game", "dealer", "hands", "actions")
OPTIONAL_KEYS = ("ruleset", "mode", "options", "spare", "forfeit")
# Which keys an action may carry next to its kind (besides "seat").
ACTION_EXTRAS = {"play": ("ace",), "bid": ("trump",), "bury": ("trump",),
                 "discard": ("trump",)}
ACTION_KINDS = ("bid", "pass", "raise", "ack", "bury", "discard", "trump", "leftover", "play")


# -- reading ---------------------------------------------------------------------------
def load_record(data: Any) -> tuple[Game, State, list[Action]]:
    """The game, the hand as dealt, and the record's actions (not yet applied).

    RecordError, with a message naming the problem, for anything that is not a
    well-formed ``parlour-hand/1`` record."""
    _check_shape(data)
    game = _game_of(data)
    hands = _hands_of(game, data["hands"])
    spare = _cards_of(game, data.get("spare", []), "spare")
    state = game.new_hand(hands, spare, data["dealer"])
    actions = _actions_of(game, data["actions"])
    forfeit_of(game, data)
    return game, state, actions


def forfeit_of(game: Game, data: dict) -> tuple[int, str] | None:
    """The record's forfeit as (seat, rule), None if it has none; RecordError if it is
    not ``{"seat": <a seat>, "rule": <text>}``."""
    forfeit = data.get("forfeit")
    if forfeit is None:
        return None
    if not isinstance(forfeit, dict) or sorted(forfeit) != ["rule", "seat"]:
        raise RecordError("\"forfeit\" must be an object like {\"seat\": 1, \"rule\": \"illegal-action\"}")
    seat, rule = forfeit["seat"], forfeit["rule"]
    if type(seat) is not int or not 0 <= seat < game.num_players:
        raise RecordError(f"forfeit: seat must be 0 to {game.num_players - 1}")
    if not isinstance(rule, str) or not rule:
        raise RecordError("forfeit: the rule is a name, like \"illegal-action\"")
    return seat, rule


def _check_shape(data: Any) -> None:
    if not isinstance(data, dict):
        raise RecordError("a hand record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a hand record: \"format\" must be \"{FORMAT}\", "
                          f"not {data.get('format')!r}")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise RecordError(f"the record has no {', '.join(repr(k) for k in missing)}")
    unknown = sorted(str(k) for k in data if k not in REQUIRED_KEYS + OPTIONAL_KEYS)
    if unknown:
        raise RecordError(f"unknown key(s) in the record: {', '.join(unknown)}")


def _game_of(data: dict) -> Game:
    title = data["game"]
    try:
        known = rulesets(title)
    except UnknownTitle as exc:
        raise RecordError(str(exc)) from None
    ruleset = data.get("ruleset")
    if ruleset is not None and not isinstance(ruleset, str):
        raise RecordError("\"ruleset\" must be a ruleset id (text)")
    if ruleset is not None and ruleset not in known:
        raise RecordError(f"unknown ruleset {ruleset!r} for {title}: "
                          f"choose one of {', '.join(known)}")
    mode = data.get("mode")
    modes = known[ruleset].modes if ruleset is not None else next(iter(known.values())).modes
    if modes and mode not in modes:
        raise RecordError(f"{title} needs a \"mode\": one of {', '.join(modes)}, not {mode!r}")
    if not modes and mode is not None:
        raise RecordError(f"{title} has no modes; drop \"mode\" ({mode!r})")
    options = data.get("options")
    if options is not None and not isinstance(options, dict):
        raise RecordError("\"options\" must be an object like {\"breaking_trump\": false}")
    _check_no_floats(options, "options")
    try:
        return make_game(title, ruleset, mode, options)
    except ValueError as exc:  # bad option values, names a choice
        raise RecordError(str(exc)) from None


def _check_no_floats(value: Any, where: str) -> None:
    """Floats could round differently between peers, so no record value may be one."""
    if isinstance(value, float):
        raise RecordError(f"{where}: {value!r} is not a whole number")
    if isinstance(value, dict):
        for k, v in value.items():
            _check_no_floats(v, f"{where}.{k}")
    elif isinstance(value, list):
        for v in value:
            _check_no_floats(v, where)


def _hands_of(game: Game, hands: Any) -> list[list[int]]:
    if not isinstance(hands, list):
        raise RecordError("\"hands\" must be a list of hands, one per seat")
    if len(hands) != game.num_players:
        raise RecordError(f"{game.id} needs {game.num_players} hands, not {len(hands)}")
    return [_cards_of(game, hand, f"seat {seat}'s hand") for seat, hand in enumerate(hands)]


def _cards_of(game: Game, cards: Any, where: str) -> list[int]:
    if not isinstance(cards, list):
        raise RecordError(f"{where} must be a list of card names")
    out = []
    for name in cards:
        try:
            out.append(game.deck.parse(name))
        except RecordError as exc:
            raise RecordError(f"{where}: {exc}") from None
    return out


def _actions_of(game: Game, actions: Any) -> list[Action]:
    if not isinstance(actions, list):
        raise RecordError("\"actions\" must be a list")
    out = []
    for index, entry in enumerate(actions):
        try:
            _check_action_keys(entry)
            out.append(game.action_from_json(entry))
        except RecordError as exc:
            raise RecordError(f"action {index}: {exc}") from None
    return out


def _check_action_keys(entry: Any) -> None:
    """Reject keys no action has (a typo like "paly" must not pass silently)."""
    if not isinstance(entry, dict):
        return  # action_from_json explains the expected shape
    kinds = [k for k in entry if k in ACTION_KINDS]
    allowed = {"seat", *kinds}
    for kind in kinds:
        allowed.update(ACTION_EXTRAS.get(kind, ()))
    unknown = sorted(str(k) for k in entry if k not in allowed)
    if unknown:
        raise RecordError(f"{entry!r} has unknown key(s): {', '.join(unknown)}")
    _check_no_floats(entry, "action")


# -- replaying -------------------------------------------------------------------------
def replay(data: Any) -> dict:
    """Replay a record from its deal; the result in the documented output form.

    Stops at the first illegal action and reports it as ``error``. RecordError if the
    record cannot be read at all."""
    state, error = play_record(data)
    return result_of(state, error)


def play_record(data: Any) -> tuple[State, dict | None]:
    """The hand a record describes: its actions applied, then its forfeit, if it has one
    (not after an illegal action); the first illegal action as ``apply_actions`` gives it.
    RecordError if the record cannot be read."""
    game, state, actions = load_record(data)
    error = apply_actions(state, actions)
    forfeit = forfeit_of(game, data)
    if error is None and forfeit is not None:
        state.forfeit(*forfeit)
    return state, error


def apply_actions(state: State, actions: list[Action]) -> dict | None:
    """Apply ``actions`` in order; the first illegal one as {"index", "reason"}, or None."""
    for index, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            return {"index": index, "reason": exc.reason}
    return None


def result_of(state: State, error: dict | None = None) -> dict:
    """The documented output for ``state``: a finished hand is scored; a hand that has
    not ended, or stopped at an illegal action, has only what its tricks gave."""
    name = state.deck.name
    tricks = [{"leader": t.leader, "cards": [name(card) for _seat, card in t.cards],
               "winner": t.winner} for t in state.tricks]
    result = state.result()
    if result is None or error is not None:
        return {"tricks": tricks, "taken": list(state.taken), "made": None, "score": None,
                "error": error}
    out: dict[str, Any] = {"tricks": tricks, "taken": list(result.taken), "made": result.made,
           "score": list(result.score), "error": None}
    if result.forfeit is not None:
        out["forfeit"] = result.forfeit._asdict()
    return out


# -- writing ---------------------------------------------------------------------------
def record_from_state(state: State) -> dict:
    """The hand so far as a record: the rules, the deal as dealt, every action applied."""
    game = state.game
    key = game.key()
    name = state.deck.name
    record: dict[str, Any] = {"format": FORMAT, "game": key["game"], "ruleset": key["ruleset"]}
    if key["mode"] is not None:
        record["mode"] = key["mode"]
    record["options"] = dict(key["options"])
    record["dealer"] = state.dealer
    record["hands"] = [[name(card) for card in hand] for hand in state.dealt]
    record["spare"] = [name(card) for card in state.spare]
    record["actions"] = [game.action_to_json(action) for action in state.history]
    result = state.result()
    if result is not None and result.forfeit is not None:
        record["forfeit"] = {"seat": result.forfeit.seat, "rule": result.forfeit.rule}
    return record
