"""What the session has told the table screen so far, in one place every part reads.

The "table" event (seats, settings, options) and the latest "state" event (the view,
your legal actions, the scores, and the game's own description) are kept here as they
came; the parts of the screen (info bar, seats, hand, side panel, summary) each redraw
from it. No Qt: a plain holder with the few readings every part shares.
"""

from __future__ import annotations

from app.assets import Deck, deck_for
from app.titles import Presentation, presentation
from engine.info import GameInfo, from_plain


class UnknownGame(ValueError):
    """A state event that does not say (readably) which game it is: never drawn as
    another game."""


class TableData:
    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.table: dict = {}  # the last "table" event
        self.view: dict = {}  # the last state event's view
        self.legal: list[dict] = []
        self.reasons: dict[str, str] | None = None
        self.deal: str | None = None  # how the hand was dealt (the "state" event's ``deal``)
        self.watching = False  # you watch: nothing here is yours to play (a coach sees a hand)
        self.coach = False  # (a watcher) a player shows you their hand: it is the one drawn
        self.scores: list[int] = []
        self.history: list[list[int]] = []  # the totals after each hand of the game (the log's)
        self.hand_number = 0
        self.notes: list[tuple[int, str]] = []  # (hand number, line): the game log's own lines (a hand voided)
        self.info: GameInfo | None = None  # the game being played, as it describes itself
        self._deck: tuple[GameInfo, bool, Deck] | None = None  # (info, accessible, its deck): ``deck``
        self.look: Presentation | None = None  # how its own view fields read
        self._plain_info: dict | None = None

    def read_state(self, event: dict) -> None:
        """Take a "state" event in. UnknownGame if it does not describe its game."""
        self._describe(event.get("info"))
        self.view = event.get("view") or {}
        self.legal = list(event.get("legal") or [])
        self.reasons = event.get("reasons")
        self.deal = event.get("deal")
        self.watching = bool(event.get("watching"))
        self.coach = self.watching and bool(event.get("coach"))
        self.scores = list(event.get("scores") or self.scores)
        self.hand_number = event.get("hand_number", 0)

    def _describe(self, plain) -> None:
        if plain is None:
            raise UnknownGame("the table sent a hand without saying which game it is")
        if plain != self._plain_info:
            try:
                info = from_plain(GameInfo, plain)
            except (ValueError, TypeError) as unreadable:
                raise UnknownGame(f"the table's description of its game can't be read: {unreadable}") from None
            self.info, self.look, self._plain_info = info, presentation(info), plain

    # -- readings every part shares -------------------------------------------------------
    @property
    def you(self) -> int:
        you = self.table.get("you")
        return self.view.get("seat", you if you is not None else 0)

    @property
    def players(self) -> int:
        if self.view.get("cards_left"):
            return len(self.view["cards_left"])
        return len(self.table.get("seats") or []) or 4

    @property
    def has_hand(self) -> bool:
        """Whether a hand is yours to think about: your seat's, or (a watcher) the one a
        player shows you. A watcher shown nothing has no hand, so nothing to ask a Hint of."""
        return not self.watching or self.coach

    def notes_for(self, hand_number: int) -> list[str]:
        return [text for number, text in self.notes if number == hand_number]

    def names(self) -> list[str]:
        seats = {s["seat"]: s for s in self.table.get("seats") or []}
        return [seats[i]["name"] if i in seats else f"Seat {i + 1}" for i in range(self.players)]

    def deck(self, accessible: bool) -> Deck | None:
        """The deck the game is drawn with (None before the first hand): the same one
        while the game and the setting stay (its card index and its hash made once)."""
        if self.info is None:
            return None
        made = self._deck
        if made is None or made[0] is not self.info or made[1] != accessible:
            made = self._deck = (self.info, accessible, deck_for(self.info, accessible))
        return made[2]
