"""Events: what ``State.apply`` says happened, as a tuple of read-only dicts.

An event is a small mapping of plain values, such as ``{"type": "play", "seat": 2,
"card": "B14"}``, so JSON, msgpack and the canonical encoding take it as it is. It is
read-only because the commonest events, a card played and a trick taken, are made once
per deck and shared by every hand: ``apply`` hands out the same objects rather than
building new ones for each card (3% of a random hand's instructions). Copy an event
(``dict(event)``) to change it.
"""

from __future__ import annotations


class Event(dict):
    """A dict that refuses changes (see the module docstring)."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("engine events are read-only (and shared): copy one with dict(event) to change it")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self):
        # copy and pickle would otherwise rebuild it an item at a time, through __setitem__
        return Event, (dict(self),)


Events = tuple[Event, ...]  # what apply returns
