"""Privacy, live: what the host sends one seat alone must be that seat's.

With each entry the host sends a peer a private part — its view, its own secret move
echoed back — and the engine's events. They may name only this seat's own cards (as
dealt, and the spare once it took it) and what the verified public view shows; the
private view's ``seat`` must be this seat, and another seat's secret move must never
arrive. Anything else is a ``privacy`` Violation naming the host, on the entry that
carried it.

One limit: a key seated in the middle of a hand (re-admitted) was not dealt the hand
the shadow knows, so until the next deal it checks only that the view is for its seat.
"""

from __future__ import annotations

from engine import RecordError

from net.trust.alerts import HOST, Violation
from net.trust.entries import ActionEntryBody
from net.trust.values import card_names
from net.trust.replay.shadow import Shadow
from net.trust.values import Entry, EntryMessage

SECRET_KEYS = ("bury", "discard")


def check_private(deck, entry: Entry, message: EntryMessage, shadow: Shadow | None,
                  me: int | None, playing: bool, host_seat: int | None) -> None:
    """Everything ``message`` carries for seat ``me`` alone, against the cards it may
    see: ``shadow``'s (None between hands; ``playing``: a hand is dealt and not over)."""
    seq, view, action = entry.seq, message.own, message.action

    def leak(what: str) -> Violation:
        return Violation(HOST, host_seat, "privacy", f"entry {seq}: the host sent me {what}")

    if action is not None and not is_my_secret(entry, me):
        raise leak("another seat's secret move")
    own = own_cards(shadow, me, playing)
    if view is not None:
        if me is None or view.get("seat") != me:
            raise leak(f"the private view of seat {view.get('seat')}")
        public = message.public or {}
        for key, value in view.items():  # what the private part adds to (or says over) the public
            if key != "seat" and (key == "hand" or public.get(key, object()) != value) \
                    and own is not None and not only_own(deck, value, own):
                raise leak(f"cards that are not mine as '{key}'")
    if action is not None and own is not None and not only_own(
            deck, [v for k, v in action.items() if k in SECRET_KEYS], own):
        raise leak("cards that are not mine in my secret move")
    shown = card_names(deck, message.events) - (own or set())
    if shown:
        # Only these few cards are looked for in the public view: the walk ends once it
        # has seen them all (a card just played is in the current trick, met early).
        foreign = sorted(shown - card_names(deck, message.public, among=shown))
        if foreign:
            raise leak("in its events, cards nobody has shown: " +
                       ", ".join(deck.name(c) for c in foreign))


def is_my_secret(entry: Entry, me: int | None) -> bool:
    """Whether ``entry`` logs seat ``me``'s own secret move (the host sends it back)."""
    logged = entry.content
    if not isinstance(logged, ActionEntryBody) or me is None:
        return False
    body = logged.move
    return body.action.get("seat") == me and body.hidden is not None


def own_cards(shadow: Shadow | None, me: int | None, playing: bool) -> set[int] | None:
    """Card numbers this seat may see privately: its dealt hand and the spare it
    learned by taking it. None when that cannot be told: seated in the middle of a
    hand (re-admitted), it was not dealt the hand the shadow knows."""
    if shadow is None:
        return None if playing else set()
    if shadow.me != me:
        return None
    return set(shadow.my_hand) | set(shadow.known_spare)


def only_own(deck, value, own: set[int]) -> bool:
    """``value`` is nothing, or cards (nested lists of names) all in ``own``."""
    if value is None:
        return True
    if isinstance(value, list):
        return all(only_own(deck, v, own) for v in value)
    if isinstance(value, str):
        try:
            return deck.parse(value) in own
        except RecordError:
            return False
    return False
