"""Every title the engine knows, and how to make a Game from names.

A title is a package under ``engine/`` whose ``__init__`` defines ``TITLE`` (a
``Title``): adding a game is adding a folder (docs/adding-a-game.md), and the registry
finds it. ``TITLES`` lists them, in the order a host is offered them. ``register``
adds a title kept elsewhere (the test-only title) without listing it among ``TITLES``.

A name the registry does not know raises ``UnknownTitle``: a game is never played or
drawn as another.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

from .errors import UnknownTitle
from .info import TitleInfo
from .ruleset import Ruleset
from .state import Game


@dataclass(frozen=True)
class Title:
    """One title: what it says about itself, its rulesets, how a Game is made, and
    where its computer players' policy lives."""

    info: TitleInfo
    rulesets: dict[str, Ruleset]  # by id, the default first
    make: Callable[..., Game]  # make(ruleset id, mode, options); ValueError naming the choices
    bots: str | None = None  # the module whose DECIDERS play it ("engine.bots.rook")
    # The expert level's own DECIDERS ("engine.bots.rook_expert"); None: it plays as hard
    expert_bots: str | None = None

    @property
    def id(self) -> str:
        return self.info.id


_found: dict[str, Title] | None = None  # the titles under engine/, once looked for
_registered: dict[str, Title] = {}


def _titles_here() -> dict[str, Title]:
    """The title packages under engine/, imported the first time they are asked for."""
    global _found
    if _found is None:
        package = importlib.import_module(__package__)
        titles = []
        for module in pkgutil.iter_modules(package.__path__):
            if module.ispkg:
                title = getattr(importlib.import_module(f"{__package__}.{module.name}"), "TITLE", None)
                if isinstance(title, Title):
                    titles.append(title)
        _found = {t.id: t for t in sorted(titles, key=lambda t: (t.info.order, t.id))}
    return _found


def __getattr__(name: str):
    if name == "TITLES":  # looked up, not imported: the titles load when first asked for
        return tuple(_titles_here())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def register(title: Title) -> None:
    """Make a title kept outside engine/ known (not listed in ``TITLES``)."""
    if title.id in _titles_here():
        raise ValueError(f"{title.id!r} is already a title of the engine")
    _registered[title.id] = title


def unregister(title_id: str) -> None:
    _registered.pop(title_id, None)


def title(title_id: object) -> Title:
    """The title named ``title_id``; UnknownTitle for anything else."""
    found = _titles_here().get(title_id) if isinstance(title_id, str) else None
    found = found or (_registered.get(title_id) if isinstance(title_id, str) else None)
    if found is None:
        raise UnknownTitle(title_id, tuple(_titles_here()) + tuple(_registered))
    return found


def title_info(title_id: str) -> TitleInfo:
    """What the title says about itself before a game is chosen (``engine.info``)."""
    return title(title_id).info


def rulesets(title_id: str) -> dict[str, Ruleset]:
    """The title's rulesets by id (the default one first)."""
    return title(title_id).rulesets


def make_game(title_id: str, ruleset: str | None = None, mode: str | None = None,
              options: dict | None = None) -> Game:
    """The Game for a title, ruleset id (default: the title's default), mode and options.

    UnknownTitle for an unknown title; ValueError, with a message naming the choices,
    for anything else unknown."""
    return title(title_id).make(ruleset, mode, options)


def variants(titles=None):
    """Every (title, ruleset id, mode) combination of ``titles`` (default: ``TITLES``),
    for tests and benchmarks."""
    for title_id in _titles_here() if titles is None else titles:
        for rs in rulesets(title_id).values():
            for mode in rs.modes or (None,):
                yield title_id, rs.id, mode
