"""Rulesets as data: id, name, options and the source of every rule.

The About page and the host's settings dialog are generated from these values, so a
rule's provenance lives next to the code that implements it and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Rule:
    """One rule as a player reads it, where it comes from, and whether it is a ruling."""

    topic: str
    text: str
    source: str
    ruling: bool = False  # True where the sources are silent or disagree and we decided
    checked: bool = True  # False where the published text could not be checked in full


@dataclass(frozen=True)
class Option:
    """A host-chosen switch. ``choices`` lists the allowed values (bools for a toggle)."""

    id: str
    name: str
    default: Any
    choices: tuple
    help: str = ""


@dataclass(frozen=True)
class Ruleset:
    id: str
    game: str
    name: str
    summary: str
    rules: tuple[Rule, ...]
    options: tuple[Option, ...] = ()
    modes: tuple[str, ...] = ()  # Horseshoes: ("three", "four", "partners")
    default: bool = False
    extra: dict = field(default_factory=dict)
    pick: str = ""  # which to pick: one line on whom this ruleset suits (the About page)

    def option(self, option_id: str) -> Option:
        for opt in self.options:
            if opt.id == option_id:
                return opt
        raise KeyError(option_id)

    def resolve_options(self, given: dict | None) -> dict:
        """Options with defaults filled in; ValueError naming any unknown or bad one."""
        given = dict(given or {})
        out = {}
        for opt in self.options:
            value = given.pop(opt.id, opt.default)
            if value not in opt.choices:
                raise ValueError(f"option {opt.id} must be one of {list(opt.choices)}, not {value!r}")
            out[opt.id] = value
        if given:
            raise ValueError(f"unknown option(s) for {self.id}: {', '.join(sorted(given))}")
        return out
