"""The engine's exceptions: one for illegal actions, one for unreadable hand records."""


class IllegalAction(ValueError):
    """An action the rules do not allow at this point.

    ``reason`` (also ``str(exc)``) is written for a player: "you must follow /8",
    "bids go up in steps of 5", "declare the ace high or low".
    """

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RecordError(ValueError):
    """A hand record (or a card or action inside one) that cannot be read at all."""
