"""The engine's exceptions: illegal actions, unreadable hand records, unknown titles, and
what one seat has seen that cannot all be true."""


class IllegalAction(ValueError):
    """An action the rules do not allow at this point.

    ``reason`` (also ``str(exc)``) is written for a player: "you must follow /8",
    "bids go up in steps of 5", "declare the ace high or low".

    ``seat`` names who took the action where the one who refuses it is not that seat
    (a replay of what a seat has seen, ``engine.partial``); None otherwise.
    """

    def __init__(self, reason: str, seat: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.seat = seat


class RecordError(ValueError):
    """A hand record (or a card or action inside one) that cannot be read at all."""


class UnknownTitle(ValueError):
    """A game the engine does not know: never drawn or played as another one."""

    def __init__(self, title: object, known: tuple[str, ...]):
        super().__init__(f"unknown game {title!r}: choose one of {', '.join(known)}")
        self.title = title
        self.known = known


class Contradiction(ValueError):
    """What one seat has seen cannot all be true: a seat played a card dealt to another,
    or more cards than it could hold (``seat`` is that seat), or no deal at all fits
    (``seat`` is None)."""

    def __init__(self, reason: str, seat: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.seat = seat
