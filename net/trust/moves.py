"""Admitting a move: what the host checks before it logs a player's signed action.

A move is a signed action (``signing.sign_action``) with, for a secret one, its full
form and salt in a private part. ``admit`` takes one as it arrived from a peer and
either refuses it with a reason the player is told (``Refusal``), returns None for a
repeat that the rules say changes nothing (Rook's second "Got it"), or returns the
``Admitted`` move: the engine ``Action``, parsed once, with the full form and salt the
host keeps for the reveal. What it checks, in order: the signature of the seat's key,
that a hand is being played, the binding to this table, hand and point in the log
(``action_body_problem``, which every replica applies to the logged entry too), a
secret action against its signed digest, and the canonical spelling. The engine's
rules come last, when the host applies the move.

No I/O and no state of its own: the caller passes the game, the state and where in the
log the move must fit (``Binding``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine import Action, RecordError
from engine.partial import public_step

from net.trust.alerts import HOST, Violation
from net.trust.signing import ACTION_DOMAIN, action_forms, hidden_digest, opens, read_action
from net.wire import messages as m


class Refusal(Exception):
    """A peer's message refused with a reason the peer is told."""


class ActionBody(NamedTuple):
    """What a player signs for a move (domain ``parlour-action/1``), read from a
    schema-checked envelope (``messages.is_action_envelope``)."""

    table: str
    hand: int
    seen: int  # the last entry the player held
    head: bytes  # that entry's hash
    action: dict  # the public form
    hidden: bytes | None  # a secret action's salted digest
    mental: dict | None = None  # a played card's deal proof, under the mental-poker deal

    @classmethod
    def from_wire(cls, body: dict) -> "ActionBody":
        return cls(**body)

    @property
    def seat(self) -> int:
        return self.action["seat"]


class Binding(NamedTuple):
    """Where in the log a seat's next move must fit."""

    table: str
    hand: int
    deal_seq: int | None  # this hand's deal entry
    last_action: int | None  # the seat's previous action entry this hand
    next_seq: int  # the entry the move would be
    hash_at: Callable[[int], bytes | None]  # the hash of a logged entry


class Admitted(NamedTuple):
    """A move the host may log: the action, its full form, a secret one's salt and a
    played card's deal proof (the body's ``mental``), read once as the move came in."""

    action: Action
    full: dict
    nonce: bytes | None = None
    proof: dict | None = None
    body: ActionBody | None = None  # what the player signed, as it was read


def action_body_problem(body: ActionBody, seat: int, binding: Binding) -> tuple[str, str] | None:
    """Why a signed action body may not be logged as entry ``binding.next_seq``: (rule,
    reason), or None.

    Shared by the host (before it logs) and every replica (when it checks): the action
    must be for this table and hand, by its signer's seat, and must have seen the deal,
    the player's own previous action and nothing from the future — so an old signed
    action cannot be replayed, nor a player's actions reordered. A player who saw an
    entry this log does not have yet (``sequence``) or a different one (``fork``) was
    shown another history than this one."""
    if body.table != binding.table:
        return "action-binding", "the action is for another table"
    if body.hand != binding.hand:
        return "action-binding", f"the action is for hand {body.hand}, this is hand {binding.hand}"
    if body.action.get("seat") != seat:
        return "action-binding", f"you sit in seat {seat}, not {body.action.get('seat')}"
    seen = body.seen
    if seen >= binding.next_seq:
        return "sequence", f"the action claims to have seen entry {seen}, which does not exist yet"
    if binding.deal_seq is None or seen < binding.deal_seq:
        return "action-binding", "the action was made before this hand was dealt"
    if binding.last_action is not None and seen < binding.last_action:
        return "action-binding", "the action is older than your last one (a replay)"
    if binding.hash_at(seen) != body.head:
        return "fork", f"the action saw a different entry {seen} (the histories differ)"
    return None


def repeats(game, state, seat: int, decision: dict) -> bool:
    """``decision`` (hand-record JSON) repeats one of ``seat``'s that the rules say
    changes nothing the second time (Rook's "Got it"): accepted without an entry or a
    refusal."""
    if state is None or state.is_over or decision.get("seat", seat) != seat:
        return False
    try:
        action = read_action(game, decision, seat)
    except RecordError:
        return False
    return state.repeats(action)


def admit(game, state, key: bytes, seat: int, signed: dict, private: dict | None,
          binding: Binding, proofs: bool = False) -> Admitted | None:
    """The move a peer in ``seat`` (playing with ``key``) sent as ``signed`` (its
    schema-checked envelope) and ``private``: Admitted, None for a harmless repeat, or
    Refusal saying why not. The action is parsed once. ``proofs``: whether the body may
    carry a played card's deal proof (``mental``: only under the mental-poker deal, whose
    authority checks it)."""
    body = ActionBody.from_wire(signed["body"])
    public = body.action
    parsed = _parse(game, public) if body.hidden is None else None
    if isinstance(parsed, Action) and parsed.seat == seat and state is not None \
            and not state.is_over and state.repeats(parsed) and opens(key, ACTION_DOMAIN, signed):
        return None  # a second "Got it" (sent before the first was logged): changes nothing
    if body.mental is not None and not proofs and opens(key, ACTION_DOMAIN, signed):
        raise Refusal("a deal proof comes only with a card played under the mental deal")
    _signed_and_bound(key, seat, signed, body, state, binding)
    full, nonce = public, None
    if body.hidden is not None:
        if private is None:
            raise Refusal("a secret action needs its private part")
        full, nonce = private["action"], private["nonce"]
        if hidden_digest(nonce, full) != body.hidden:
            raise Refusal("the secret action does not match what you signed")
        parsed = _parse(game, full)
    if not isinstance(parsed, Action):  # the form read above did not parse: RecordError
        raise Refusal(str(parsed))
    if action_forms(game, parsed) != (full, public):
        raise Refusal("write the action in its canonical form")
    if (body.hidden is None) != (public == full):
        raise Refusal("only a secret action (a discard, a bury) is sent hidden")
    return Admitted(parsed, full, nonce, body.mental, body)


def admit_sealed(game, state, key: bytes, seat: int, signed: dict, binding: Binding) -> Admitted:
    """A secret move (a bury, a discard) whose cards stay with its player: under the
    mental-poker deal they are committed in the deal and opened at the hand's end, so the
    host checks and logs the signed public form alone (the cards None). Refusal if not."""
    body = ActionBody.from_wire(signed["body"])
    _signed_and_bound(key, seat, signed, body, state, binding)
    try:
        action, hidden = public_step(game, body.action)
    except RecordError as exc:
        raise Refusal(str(exc)) from None
    if not hidden:
        raise Refusal("only a secret action (a discard, a bury) is sent hidden")
    return Admitted(action, body.action, None, body.mental, body)


def _signed_and_bound(key: bytes, seat: int, signed: dict, body: ActionBody, state,
                      binding: Binding) -> None:
    """Refusal unless the move is signed by the seat's key, a hand is being played, and
    the move is bound to it (``action_body_problem``)."""
    if not opens(key, ACTION_DOMAIN, signed):
        raise Refusal("the action is not signed by your key")
    if state is None or state.is_over:
        raise Refusal("no hand is being played")
    problem = action_body_problem(body, seat, binding)
    if problem:
        raise Refusal(problem[1])


def _parse(game, data: dict) -> Action | RecordError:
    """The action ``data`` names, or the RecordError saying why it names none (raised
    in its turn, after the checks that come first)."""
    try:
        return game.action_from_json(data)
    except RecordError as exc:
        return exc


def logged_move(entry, signed: dict, seats, host_seat: int | None,
                binding: Callable[[int], "Binding"]) -> ActionBody:
    """The signed move an entry logs (an "action" entry's, or the played move a mental
    deal's entry logs alone), checked as every replica checks it: a well-formed envelope, for a seat someone holds,
    signed by that seat's key, and bound (``binding(seat)``) to this table, hand and
    position. A Violation naming the host otherwise (it logged the entry)."""
    def need(ok: bool, detail: str) -> None:
        if not ok:
            raise Violation(HOST, host_seat, "kind", f"entry {entry.seq}: {detail}")
    need(m.is_action_envelope(signed), "a malformed signed action")
    body = ActionBody.from_wire(signed["body"])
    seat = body.seat
    need(seat in seats, f"an action for seat {seat}, which nobody holds")
    if not opens(seats[seat].key, ACTION_DOMAIN, signed):
        raise Violation(HOST, host_seat, "player-signature",
                        f"entry {entry.seq}: the action for seat {seat} is not signed by its key")
    problem = action_body_problem(body, seat, binding(seat))
    if problem:
        raise Violation(HOST, host_seat, problem[0], f"entry {entry.seq}: {problem[1]}")
    return body
