"""Actions: the small immutable values a seat hands to the engine.

An action names who acts, what kind of decision it is and its value. Cards inside an
action are the deck's card numbers (see ``cards.Deck``); ``Game.action_to_json`` and
``Game.action_from_json`` convert to and from the hand-record form
(``{"seat": 0, "play": "8/8"}``).

| kind       | value                         | extra                          |
|------------|-------------------------------|--------------------------------|
| "bid"      | int                           | Horseshoes first bid: trump    |
| "pass"     | None                          |                                |
| "raise"    | int, or None to keep the bid  |                                |
| "ack"      | None                          |                                |
| "bury"     | tuple of 5 cards (sorted)     | trump colour "B" "R" "G" "Y"   |
| "discard"  | tuple of 2 cards (sorted)     |                                |
| "trump"    | "0" … "12" or "NT"            |                                |
| "leftover" | "up" or "down"                |                                |
| "play"     | card                          | Horseshoes ace: "high"/"low"   |
"""

from __future__ import annotations

from typing import Any, NamedTuple

KINDS = ("bid", "pass", "raise", "ack", "bury", "discard", "trump", "leftover", "play")
SECRET_KINDS = ("bury", "discard")  # their cards are left out of the public record


class Action(NamedTuple):
    seat: int
    kind: str
    value: Any = None
    extra: Any = None

    def __repr__(self) -> str:
        parts = [f"seat={self.seat}", self.kind]
        if self.value is not None:
            parts.append(repr(self.value))
        if self.extra is not None:
            parts.append(repr(self.extra))
        return f"Action({' '.join(parts)})"


def bid(seat: int, amount: int, trump: str | None = None) -> Action:
    return Action(seat, "bid", amount, trump)


def pass_(seat: int) -> Action:
    return Action(seat, "pass")


def play(seat: int, card: int, ace: str | None = None) -> Action:
    return Action(seat, "play", card, ace)
