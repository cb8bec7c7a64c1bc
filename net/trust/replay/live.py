"""What a peer checks of a hand as it is played: the hand it was dealt, each move, and
the public view after it — with only its own cards known.

Other seats' plays are checked against public knowledge (``Shadow``), and their secret
moves (a Rook bury) are filled with cards they have not played (``logged_action``).
Public fields that depend on hidden cards (the buried points) may then differ from the
host's public view, which comes with the entry and must hash to the signed
``state_hash``; such a difference is *deferred* to the reveal (spare cards that view
shows everyone, a widow turned up, are learnt at once: ``taught_spare``), while a difference in
the fields that follow from public actions alone (``CORE``) is an alert at once
(``compare``). The hand the host says this seat holds must be the one the deal and the
play give (``check_hand``).

Pure functions: the game, the shadow and the entry in; the next shadow, or a Violation.
"""

from __future__ import annotations

from engine import Action, RecordError, canonical
from engine.cards import cards_of
from engine.partial import seen_in

from net.trust.alerts import HOST, PLAYER, Violation
from net.trust.moves import ActionBody
from net.trust.replay.shadow import Shadow
from net.trust.values import Entry, EntryMessage

# Public-view fields that follow from the public actions alone: any difference there is
# the host's lie, not a hidden card.
CORE = ("game", "ruleset", "mode", "options", "dealer", "phase", "to_act", "prompt",
        "cards_left", "actions", "tricks", "trick", "leader")


def hand_sent(game, view: dict | None, host_seat: int | None) -> frozenset:
    """The cards the deal's private view says this seat was dealt."""
    if view is None or not isinstance(view.get("hand"), list):
        raise Violation(HOST, host_seat, "private-view", "no hand was sent with the deal")
    try:
        hand = frozenset(game.deck.parse(c) for c in view["hand"])
    except RecordError as exc:
        raise Violation(HOST, host_seat, "private-view", f"the hand sent: {exc}") from None
    if len(hand) != len(view["hand"]):
        raise Violation(HOST, host_seat, "private-view", "the hand sent repeats a card")
    return hand


def logged_action(game, body: ActionBody, mine: dict | None, me: int | None,
                  seq: int) -> tuple[Action, bool]:
    """The Action a logged move is shadow-played as, and whether its value is hidden
    from this seat: a secret move is known in full only to its player (``mine``: the
    full form the host echoed back to ``me``)."""
    public, seat = body.action, body.seat
    try:
        if body.hidden is None:
            action = game.action_from_json(public)
            if game.action_to_json(action, public=True) != public or game.action_to_json(action) != public:
                raise RecordError("not in canonical public form")
            return action, False
        if seat == me and mine is not None:
            action = game.action_from_json(mine)
            if game.action_to_json(action, public=True) == public:
                return action, False
        # Public form of a secret action: its cards are None ({"bury": null, "trump": "G"}).
        kind = next(k for k, v in public.items() if v is None)
        if kind not in ("bury", "discard"):
            raise ValueError("only a discard or a bury is secret")
        return Action(seat, kind, None, public.get("trump")), True
    except (RecordError, StopIteration, TypeError, ValueError) as exc:
        raise Violation(PLAYER, seat, "illegal-action",
                        f"entry {seq}: seat {seat}'s action {public!r} cannot be read ({exc})") from None


def compare(game, shadow: Shadow, entry: Entry, message: EntryMessage, me: int | None,
            host_seat: int | None) -> tuple[Shadow, list[int]]:
    """Check the shadow against the host's signed state hash, the public view it sent
    and this seat's own hand; the shadow (it may have learnt the spare) and the entries
    deferred to the reveal."""
    view = message.view
    if me is not None and view is not None and not shadow.state.is_over:
        shadow = check_hand(game, shadow, view, entry.seq, host_seat)
    claimed = entry.state_hash
    if claimed is None:
        raise Violation(HOST, host_seat, "state-hash", f"entry {entry.seq} has no state hash")
    if shadow.state.state_hash() == claimed:  # the cached encoding: cheap per entry
        if message.public is not None and message.public != shadow.state.public_view():
            raise Violation(HOST, host_seat, "state-hash",
                            f"entry {entry.seq}: the public state sent is not the one its "
                            "signed state hash names")
        return shadow, []
    mine = shadow.state.public_view()
    public = message.public
    if public is None:
        return shadow, [entry.seq]
    if canonical.digest(public) != claimed:
        raise Violation(HOST, host_seat, "state-hash",
                        f"entry {entry.seq}: the public state sent does not match the signed state hash")
    wrong = [k for k in CORE if mine.get(k) != public.get(k)]
    if wrong:
        raise Violation(HOST, host_seat, "state-hash",
                        f"entry {entry.seq}: the host's public state differs from the "
                        f"replayed one in {', '.join(wrong)}")
    taught = taught_spare(game, shadow, message.view, me)
    if taught is not None and taught.state.state_hash() == claimed:
        return taught, []  # verified now, and the entries after it will be
    return shadow, [entry.seq]


def taught_spare(game, shadow: Shadow, view: dict | None, me: int | None) -> Shadow | None:
    """The shadow replayed with the spare cards this seat's (signed, hashed) view shows
    everyone — a widow turned up, an open widow, a left-over card face up — if it shows
    any it did not know. Without them every later public view would differ in those
    cards, and each entry be checked only at the reveal. (A view the title cannot read
    teaches nothing: the difference stays deferred, as before.)"""
    if me is None or view is None or shadow.me != me:
        return None
    try:
        spare = game.seat_layout(view, seen_in(game, view)).spare
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecordError):
        return None
    if not spare or not set(spare) - shadow.known_spare - set(shadow.shown_spare):
        return None  # nothing it did not know (the mental deal shows the widow itself)
    try:
        return shadow.shown(tuple(spare))
    except Violation:
        return None  # no deal fits it: the reveal settles whose doing that was


def check_hand(game, shadow: Shadow, view: dict, seq: int, host_seat: int | None) -> Shadow:
    """This seat's hand as the host sees it must be the shadow's; cards it gained that
    nobody could see (a kitty, a widow) teach the shadow the spare."""
    me, deck = shadow.me, game.deck
    try:
        theirs = frozenset(deck.parse(c) for c in view.get("hand") or [])
    except (RecordError, TypeError):  # (a hand that is not a list of cards: the host's lie)
        theirs = None
    ours = frozenset(cards_of(shadow.state.hands[me]))
    if theirs == ours:
        # The made-up spare may be the real one by chance: what I hold beyond my dealt
        # hand is still the spare I have now seen (my own cards, to the privacy check).
        gained = theirs - shadow.my_hand - shadow.known_spare
        return shadow.learn_spare(gained) if gained else shadow
    if theirs is not None:
        # Cards I hold that I was not dealt can only have come from the spare.
        spare = theirs - shadow.my_hand
        seen = {a.value for a, _ in shadow.steps if a.kind == "play"}
        if spare and spare != shadow.known_spare and not spare & seen and \
                len(spare | shadow.known_spare) <= game.spare_size:
            better = shadow.learn_spare(spare)
            if frozenset(cards_of(better.state.hands[me])) == theirs:
                return better
    raise Violation(HOST, host_seat, "private-view",
                    f"entry {seq}: the hand the host says I hold is not the one the "
                    "deal and the play give")


def shown_hand(game, shadow: Shadow | None, view: dict | None, me: int | None, seq: int,
               host_seat: int | None) -> Shadow | None:
    """``shadow``, taught the spare by the hand an entry that is not a move shows seat
    ``me``: its seat handed back after a stand-in bot took the kitty (the bot's moves
    were not sent to it, so the kitty it now holds is news)."""
    if shadow is None or view is None or me is None or shadow.me != me \
            or view.get("seat") != me or shadow.state.is_over:
        return shadow
    return check_hand(game, shadow, view, seq, host_seat)
