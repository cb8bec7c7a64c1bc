"""The order the suite runs in: the slow tier spread over the suite's areas, a module's
shared setup kept in one piece (tests/conftest.py puts the slow tier first in this order).
"""

from __future__ import annotations

from pathlib import Path


def area(item, tests: Path) -> str:
    """The part of the suite under ``tests`` a test is in: ``app``, ``engine``,
    ``net/sessions``, …"""
    try:
        parts = item.path.resolve().relative_to(tests).parts[:-1]
    except ValueError:
        return ""
    return "/".join(parts[:2] if parts[:1] == ("net",) else parts[:1])


def spread_over_areas(items: list, tests: Path) -> list:
    """``items`` reordered so that each area's tests are spread evenly over the whole
    list, each area's own order kept, and the tests of a module that share a setup
    (``shares_module_setup``) kept together.

    pytest-xdist (``--dist load``) hands each worker a contiguous stretch of the slow
    tier at the start (a quarter of the first quarter of the suite each), and more only
    when it has run it: in the collection's order, one worker had the window's tests,
    one the sessions', one the trust layer's private deals, the last the houses', and
    they finished minutes apart. Spread, each stretch holds a share of every area — the
    private deals' CPU beside the window's, the houses' and the processes' waiting — so
    that the workers end their stretches together and keep both cores busy meanwhile. A
    module's shared setup (a world of namespaces, a child process's run) stays in one
    stretch, made once."""
    areas: dict[str, list[list]] = {}
    for item in items:
        units = areas.setdefault(area(item, tests), [])
        if units and shares_module_setup(item) and shares_module_setup(units[-1][-1]) \
                and units[-1][-1].path == item.path:
            units[-1].append(item)
        else:
            units.append([item])
    placed = [((rank + 0.5) / len(units), order, unit)
              for order, units in enumerate(areas.values())
              for rank, unit in enumerate(units)]
    placed.sort(key=lambda entry: entry[:2])
    return [item for _, _, unit in placed for item in unit]


def shares_module_setup(item) -> bool:
    """Whether the test uses a fixture set up once for its module or class (a world of
    namespaces, a child process's run that several tests read)."""
    info = getattr(item, "_fixtureinfo", None)
    return info is not None and any(
        fixture.scope in ("module", "class", "package")
        for fixtures in info.name2fixturedefs.values() for fixture in fixtures)
