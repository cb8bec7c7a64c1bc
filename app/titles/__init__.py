"""How a title's own view fields read on the table: its presentation.

Almost everything the table shows comes from what the title says about itself
(``engine.info.GameInfo``, sent in every state event): names, sides, target, the deck and
its card names, trumps, the decisions asked for. What is left is the part of a title's
view that is its own shape — how its auction is written down, which cards lie open on
the table, how its rules read in a few lines — and that is a ``Presentation``:

* ``Presentation`` itself reads the fields every title's view has (``contract``,
  ``taken``, ``tricks``…). A title whose view has nothing more needs no module here.
* A title with fields of its own has one module, ``app/titles/<title id>.py``, with a
  subclass in ``PRESENTATION`` (see ``rook.py``). It is found by the title's id, so
  nothing else in the app lists the titles (docs/adding-a-game.md).

Pure functions of the view and the description: no Qt, cheap to test.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from html import escape

from engine import UnknownTitle, make_game, title_info
from engine.info import GameInfo


@dataclass(frozen=True)
class OpenCards:
    """Cards lying face up (or down) on the table beside the trick: a widow, a left-over."""

    cards: tuple[str, ...] = ()
    caption: str = ""
    hidden: int = 0  # cards shown face down


NO_OPEN_CARDS = OpenCards()


def auction_over(view: dict) -> bool:
    """Whether the auction has ended (a contract stands, or the hand was thrown in)."""
    return view.get("phase") not in ("bidding", "leftover", None)


class Presentation:
    """The reading of a view every title shares; a title's module overrides what its own
    view fields say."""

    rules_summary = ""  # a few paragraphs of HTML for the About page's Rules tab

    @staticmethod
    def rulesets_example() -> str:
        """A worked example of the difference between the title's rulesets that matters
        most, for the About page (HTML; "" for none)."""
        return ""

    def __init__(self, info: GameInfo):
        self.info = info

    # -- the auction and the contract ----------------------------------------------------
    def bidder(self, view: dict) -> int | None:
        contract = view.get("contract")
        if isinstance(contract, dict) and contract.get("bidder") is not None:
            return contract["bidder"]
        return None

    def contract_amount(self, view: dict) -> int | None:
        contract = view.get("contract")
        if isinstance(contract, dict):
            return contract.get("bid", contract.get("amount"))
        return None

    def seat_bid(self, view: dict, seat: int) -> str:
        """What a seat said in the auction, for its name plate: "14", "Pass" or ""."""
        return ""

    def contract_text(self, view: dict, names: list[str], short: bool = False) -> str:
        """The info bar's headline: "Ann bid 14", "Ann stuck at 100" ("Bid 14", "Stuck at
        100" when ``short``: no room for a name), or the auction so far; "" for a title
        without contracts. The same words on every screen, whatever its width."""
        if not self.info.contract:
            return ""
        who, amount = self.bidder(view), self.contract_amount(view)
        if who is None or amount is None:
            high = view.get("high_bid")
            if short:
                return f"Standing bid {high}" if high is not None else "No bid yet"
            return f"Bidding — standing bid {high}" if high is not None else "Bidding — no bid yet"
        stuck = bool((view.get("contract") or {}).get("stuck"))
        name = names[who] if who < len(names) else str(who)
        if short:
            return f"Stuck at {amount}" if stuck else f"Bid {amount}"
        return f"{name} stuck at {amount}" if stuck else f"{name} bid {amount}"

    # -- the table -----------------------------------------------------------------------
    def open_cards(self, view: dict) -> OpenCards:
        """Cards lying open beside the trick now (none for most titles)."""
        return NO_OPEN_CARDS

    def live_text(self, view: dict, names: list[str], side_names: list[str], won: list[int]) -> str:
        """The live scores panel (HTML): what each side has taken this hand, and what
        the bidders still need. ``won``: tricks per seat."""
        taken = view.get("taken") or []
        lines = ["<b>This hand</b>"] + [f"{escape(n)}: {t}" for n, t in zip(side_names, taken)]
        amount, who = self.contract_amount(view), self.bidder(view)
        sides = self.info.sides
        if amount is not None and who is not None and any(len(s.seats) > 1 for s in sides):
            side = next(i for i, s in enumerate(sides) if who in s.seats)
            need = max(amount - (taken[side] if side < len(taken) else 0), 0)
            lines.append(f"Bidders need {need} more" if need else "Bidders have made it")
        return "<br>".join(lines)

    def ace_prompt(self, card_words: str) -> str:
        """The question when a card must be declared high or low as it is played."""
        return f"Play the {card_words} high or low? Everyone sees what you declare."


_registered: dict[str, type[Presentation]] = {}


def register(title_id: str, presentation: type[Presentation]) -> None:
    """Use ``presentation`` for a title kept outside app/titles (the test-only title)."""
    _registered[title_id] = presentation


def unregister(title_id: str) -> None:
    _registered.pop(title_id, None)


def presentation_class(title_id: str) -> type[Presentation]:
    """The title's module under app/titles if it has one, else the shared reading."""
    found = _registered.get(title_id)
    if found is not None:
        return found
    module_name = f"{__name__}.{title_id}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as missing:
        if missing.name != module_name:
            raise  # the module is there but something it imports is not
        return Presentation
    return module.PRESENTATION


def presentation(info: GameInfo) -> Presentation:
    """The presentation of the game ``info`` describes."""
    return presentation_class(info.title)(info)


# -- titles by id, before a game is dealt ----------------------------------------------
def title_name(title_id: str | None) -> str:
    """"Rook"; for a title this copy of Parlour does not know, says so."""
    try:
        return title_info(title_id).name
    except UnknownTitle:
        return f"Unknown game \u201c{title_id}\u201d"


def rules_summary(title_id: str) -> str:
    """A few paragraphs on how the title is played (HTML), for the About page."""
    return presentation_class(title_info(title_id).id).rules_summary


def mode_name(title_id: str | None, mode: str | None) -> str:
    """"Four players, partners opposite"; "" for no mode (or an unknown title)."""
    try:
        modes = title_info(title_id).modes
    except UnknownTitle:
        return ""
    return next((m.name for m in modes if m.id == mode), "")


def game_info(settings: dict) -> GameInfo:
    """The description of the game a table's settings choose (before a hand is dealt,
    when no state event has brought one). UnknownTitle or ValueError, saying what is
    unknown, for settings this copy of Parlour cannot play."""
    return make_game(settings.get("game"), settings.get("ruleset"), settings.get("mode"),
                     settings.get("options")).info
