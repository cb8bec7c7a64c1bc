"""What is read of a hand's deal round whichever deal deals it.

The sessions, the takeover and the replica ask a hand's round the same few things —
which hand, whose deal, dealt yet, revealed yet, waiting for whom — of the seeded deal's
``fairdeal.DealRound`` and the mental deal's ``MentalRound`` alike. ``Round`` says so,
so that the deal interfaces (``host.py``, ``peer.py``) need not name their deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Round(Protocol):
    """A hand's deal round, read only."""

    @property
    def hand(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def commitment(self) -> bytes: ...

    @property
    def dealt(self) -> bool: ...

    @property
    def revealed(self) -> bool: ...

    @property
    def waiting_for(self) -> Sequence[int]: ...
