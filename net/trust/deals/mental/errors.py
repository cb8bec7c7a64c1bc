"""The one exception family of the mental-poker deal.

``MentalError`` is the root. ``BadMessage`` is a message that is not well formed (a
wrong type, a wrong length, a point that is not in the group); ``Refused`` is a call the
local player's own machine will not make (it would give away one of its cards);
``Cheat`` is proof that a named party broke the protocol. Each carries a sentence a
person can read.
"""

from __future__ import annotations


class MentalError(Exception):
    """Anything the mental-poker deal refuses or detects."""


class GroupError(MentalError):
    """Bytes that are not a point of the prime-order group, or a failed group operation."""


class BadMessage(MentalError):
    """A message that does not fit its schema; ``party`` is who sent it, if known."""

    def __init__(self, reason: str, party: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.party = party


class Refused(MentalError):
    """The local machine will not do this (it would reveal a card it must keep)."""


class Cheat(MentalError):
    """``party`` (index into the deal's parties; ``seats`` are the seats it plays) broke
    rule ``rule``; ``detail`` says how in words."""

    def __init__(self, party: int, seats: tuple[int, ...], rule: str, detail: str):
        super().__init__(f"party {party} (seats {', '.join(map(str, seats)) or '-'}) "
                         f"broke '{rule}': {detail}")
        self.party = party
        self.seats = seats
        self.rule = rule
        self.detail = detail
