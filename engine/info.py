"""What a title says about itself, as plain data (OpenSpiel's ``_GAME_TYPE``/``_GAME_INFO``).

Two levels, as in OpenSpiel:

* ``TitleInfo`` — the title before any choice is made: its name, rulesets, modes and
  options (with the names and descriptions a host reads). ``engine.title_info(id)``.
* ``GameInfo`` — one ``Game`` (title, ruleset, mode and options chosen): who sits
  where and which seats form sides, the score that ends the game and which way it
  counts, the deck and how its cards are named and drawn, the trumps, and the decisions
  a player is asked for. ``game.info``.

Everything here is made of str, int, bool, None, tuples and dicts of those, so
``to_plain(info)`` can go into a view or over the wire (msgpack, ``canonical``), and
``from_plain(GameInfo, plain)`` makes the description again on the other side. The
app draws and names cards from it instead of switching on the title's id; a title the
engine does not know raises ``UnknownTitle`` rather than being drawn as another.
"""

from __future__ import annotations

import typing
from dataclasses import MISSING, dataclass, fields, is_dataclass
from typing import Any


@dataclass(frozen=True)
class Choice:
    """One allowed value of an option, and how it reads in the host's dialog."""

    value: Any  # bool, int or str
    name: str


@dataclass(frozen=True)
class OptionInfo:
    id: str
    name: str
    description: str
    default: Any
    choices: tuple[Choice, ...]
    modes: tuple[str, ...] = ()  # the modes it means something in; () = every mode


@dataclass(frozen=True)
class RulesetInfo:
    id: str
    name: str
    summary: str
    default: bool
    options: tuple[OptionInfo, ...] = ()


@dataclass(frozen=True)
class ModeInfo:
    id: str
    name: str  # "Three players, each alone"
    players: int
    partnerships: bool


@dataclass(frozen=True)
class TitleInfo:
    id: str  # "rook": the name in hand records, settings and the wire
    name: str  # "Rook"
    order: int  # where it is listed among the titles (lower first)
    rulesets: tuple[RulesetInfo, ...]  # the default first
    modes: tuple[ModeInfo, ...] = ()  # () for a title without modes
    default_mode: str | None = None


@dataclass(frozen=True)
class SideInfo:
    """A score column: a partnership, or one player in a game without them."""

    name: str | None  # "Team A"; None where the side is one player (show their name)
    seats: tuple[int, ...]


@dataclass(frozen=True)
class CardInfo:
    name: str  # the notation of hand records and views: "B12", "ROOK", "AS", "3/8"
    words: str  # in full words, for screen readers and tooltips: "Black 12", "Ace of spades"
    label: str  # short, for drawn faces and the log: "12", "Rook", "A♠", "3/8"
    suit: str  # the suit it is sorted with before trump is named: "B", "ROOK", "S", "8"
    joins_trump: bool  # sorted with the trump suit once one is named (the Rook, the S/S)
    strength: int  # its place inside its suit when a hand is sorted: higher goes left
    ink: str  # the colour its label is printed in: "#c62828"
    points: int  # what it counts in the score (0 in most titles)


@dataclass(frozen=True)
class DeckInfo:
    art: str  # the art folder its faces are drawn from: "rook", "standard", "somerset"
    art_variants: dict  # other art folders by purpose: {"accessible": "rook-accessible"}
    suit_order: tuple[str, ...]  # suits as a hand is fanned, before trump goes first
    cards: tuple[CardInfo, ...]  # in deck order: cards[i] is card number i


@dataclass(frozen=True)
class TrumpInfo:
    id: str  # as actions and views name it: "B", "NT", "8", "H"
    name: str  # "Black", "No Trump", "/8", "Hearts ♥"
    key: str  # the letter that picks it from the keyboard ("" where it is typed as a number)


@dataclass(frozen=True)
class DecisionInfo:
    """One kind of decision a player is asked for."""

    kind: str  # the action kind (engine.actions.KINDS): "bid", "bury", "play", …
    phase: str  # the phase it is asked in (a view's "phase")
    name: str  # what it is called: "Bid", "Bury 5 and name trump"
    cards: int = 0  # how many cards it names at once (a bury's 5); 0 = none, or one play
    choices: tuple[str, ...] = ()  # a value chosen with it: a bury's trump colours
    note: str = ""  # what a player should know about it ("A pass is final: …")
    secret: bool = False  # its cards stay hidden from the other seats


@dataclass(frozen=True)
class GameInfo:
    title: str  # the title's id
    name: str  # "Rook"
    ruleset: str
    ruleset_name: str
    mode: str | None
    mode_name: str | None
    options: dict  # the options in force, every one resolved
    players: int
    hand_size: int
    sides: tuple[SideInfo, ...]  # the score columns, in score order
    target: int  # the score that ends the game once a side reaches it
    lower_wins: bool  # penalty points: the lowest score wins (Horseshoes)
    contract: bool  # each hand one bidder's side plays a contract, made or set
    taken_unit: str  # what a side's "taken" counts: "points" or "tricks"
    taken_per_hand: int  # what every played hand's "taken" adds up to
    deck: DeckInfo
    trumps: tuple[TrumpInfo, ...]  # the trumps that can be named, "NT" included
    decisions: tuple[DecisionInfo, ...]

    def card(self, name: str) -> CardInfo:
        """The description of the card named ``name``; KeyError for another deck's."""
        for card in self.deck.cards:
            if card.name == name:
                return card
        raise KeyError(f"{name!r} is not a card of {self.name}")

    def trump_name(self, trump: str) -> str:
        for option in self.trumps:
            if option.id == trump:
                return option.name
        raise KeyError(f"{trump!r} is not a trump of {self.name}")


# -- for titles describing themselves ------------------------------------------------
def partnerships(players: int, names: tuple[str, ...] = ("Team A", "Team B")) -> tuple[SideInfo, ...]:
    """Partners sitting opposite: seats 0 and 2 against 1 and 3 (for four)."""
    return tuple(SideInfo(names[side], tuple(range(side, players, 2))) for side in range(2))


def each_alone(players: int) -> tuple[SideInfo, ...]:
    return tuple(SideInfo(None, (seat,)) for seat in range(players))


def ruleset_info(ruleset, choice_names: dict | None = None, option_modes: dict | None = None) -> RulesetInfo:
    """A ``ruleset.Ruleset`` as a host reads it. ``choice_names`` names option values
    that do not read well as written ("dealer" -> "The dealer chooses each hand");
    ``option_modes`` the modes an option is limited to."""
    choice_names = choice_names or {}
    option_modes = option_modes or {}
    options = tuple(
        OptionInfo(opt.id, opt.name, opt.help, opt.default,
                   tuple(Choice(value, choice_names.get(value, str(value))) for value in opt.choices),
                   tuple(option_modes.get(opt.id, ())))
        for opt in ruleset.options)
    return RulesetInfo(ruleset.id, ruleset.name, ruleset.summary, ruleset.default, options)


# -- plain values ----------------------------------------------------------------------
def to_plain(value):
    """``value`` (any of the descriptions above) as dicts, lists and plain values: what
    a view or a message carries."""
    if is_dataclass(value):
        return {f.name: to_plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


def from_plain(kind: type, plain):
    """The description ``kind`` (``GameInfo``, ``TitleInfo``…) that ``to_plain`` made
    ``plain`` of: what a reader of a view or message turns it back into. ValueError,
    naming the field, for anything of another shape."""
    if not isinstance(plain, dict):
        raise ValueError(f"{kind.__name__} must be a dict, not {type(plain).__name__}")
    hints = typing.get_type_hints(kind)
    values = {}
    for field in fields(kind):
        if field.name in plain:
            values[field.name] = _from_plain_value(hints[field.name], plain[field.name], field.name)
        elif field.default is MISSING and field.default_factory is MISSING:
            raise ValueError(f"{kind.__name__} has no {field.name!r}")
    return kind(**values)


def _from_plain_value(hint, value, where: str):
    if isinstance(hint, type) and is_dataclass(hint):  # (a hint is a class, never an instance)
        return from_plain(hint, value)
    if typing.get_origin(hint) is tuple:
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"{where} must be a list, not {type(value).__name__}")
        element = typing.get_args(hint)[0]  # tuple[X, ...]
        return tuple(_from_plain_value(element, v, where) for v in value)
    return value
