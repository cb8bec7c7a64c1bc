"""Show my cards to…: a seated player's own hand, shown to the watchers it chose.

The player's client — a guest's (``GuestCore``) or the host person's (``HostCore``) —
keeps whom it shows its hand to (``start``, ``stop``: a watcher's key) and, after every
change of its hand, seals its seat's private view again for each of them (``boxes``: only
when the view changed since that watcher's last box; ``seq`` says after which log entry),
with
``net.trust.shown``: the host relays the box and cannot open it. Stopping sends one last
box that says so (its view nil), and nothing more follows. A watcher that left and came
back is sent the hand again at once (its last box is forgotten when it leaves:
``present``).

No I/O: the caller sends what ``boxes`` and ``stop`` return — a guest as "show" messages
to its host, the host as "shown" to the watcher directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from net.trust import shown
from net.trust.shown import ShownHand


@dataclass(frozen=True)
class Box:
    """A sealed hand for the watcher with key ``to`` (``on``: still shown; False: the
    last box, saying the player stopped)."""

    to: bytes
    sealed: bytes
    on: bool

    def message(self) -> dict:
        """The "show" a guest sends its host."""
        return {"type": "show", "to": self.to, "sealed": self.sealed, "on": self.on}


class ShowingHand:
    """Whom this player shows its hand to, and what it last sent each. ``identity``: the
    player's (the boxes are sealed with its key); ``rng``: the nonces' randomness."""

    def __init__(self, identity, rng: Callable[[int], bytes]):
        self.identity, self.rng = identity, rng
        self.to: list[bytes] = []  # the watchers' keys, in the order chosen
        self._last: dict[bytes, dict] = {}  # key -> the view in its last box

    def start(self, key: bytes) -> None:
        if key not in self.to:
            self.to.append(key)

    def stop(self, key: bytes, table: str | None, seat: int | None, seq: int, hand: int) -> Box | None:
        """Stop showing the watcher with ``key``: the box that tells it (None: it was not
        shown, or there is no seat to speak for)."""
        if key not in self.to:
            return None
        self.to.remove(key)
        self._last.pop(key, None)
        if table is None or seat is None:
            return None
        return self._box(key, ShownHand(table, seat, key, seq, hand, None), on=False)

    def present(self, keys: Iterable[bytes]) -> None:
        """The watchers here now: one that left is sent its next box afresh when it is back."""
        here = set(keys)
        for key in list(self._last):
            if key not in here:
                del self._last[key]

    def boxes(self, table: str | None, seat: int | None, seq: int, hand: int,
              view: dict | None, here: Iterable[bytes]) -> list[Box]:
        """A new box for each watcher shown (and ``here``) whose last box is not of this
        view: ``view`` the seat's private view (``shown.private_part``) after log entry
        ``seq``, None between hands (nothing new is sent then)."""
        if table is None or seat is None or view is None:
            return []
        here = set(here)
        out = []
        for key in self.to:
            if key in here and self._last.get(key) != view:
                out.append(self._box(key, ShownHand(table, seat, key, seq, hand, view), on=True))
                self._last[key] = view
        return out

    def _box(self, key: bytes, hand: ShownHand, on: bool) -> Box:
        return Box(key, shown.seal(self.identity, key, hand, self.rng(shown.NONCE_BYTES)), on)
