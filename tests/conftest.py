"""Shared test setup: offscreen Qt, hypothesis profiles, and the engine variants.

* Qt tests must never open a window (CI has no display; a developer's desktop should not
  flash), so the offscreen platform is forced before anything imports Qt.
* Hypothesis: the "ci" profile (default) keeps property tests small enough for a shared
  two-core machine and never times examples (timings are not behaviour). Set
  ``HYPOTHESIS_PROFILE=thorough`` for a longer local run.
* No test may advertise or browse over mDNS on the machine's real interfaces
  (tests/mdns_guard.py, an autouse fixture).
* A test that takes an ``any_variant`` argument runs once per (title, ruleset, mode)
  the engine knows. A title whose module does not exist yet is listed as skipped with
  the reason, so a missing title is visible rather than silently untested.
"""

from __future__ import annotations

import os

# Forced, not defaulted: a desktop session often exports QT_QPA_PLATFORM=wayland or xcb.
os.environ["QT_QPA_PLATFORM"] = "offscreen"

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

# Every test runs under the mDNS guard: no advert or browse on the real network.
from tests.mdns_guard import mdns_guard  # noqa: E402,F401

settings.register_profile("ci", max_examples=15, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=300, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def engine_variant_params() -> list:
    """One pytest param per engine variant; a skipped one for each missing title."""
    from engine.bench import missing_reason
    from engine.registry import TITLES, rulesets

    params = []
    for title in TITLES:
        reason = missing_reason(title)
        if reason:
            params.append(pytest.param((title, None, None), id=f"{title}-missing",
                                       marks=pytest.mark.skip(reason=reason)))
            continue
        for rs in rulesets(title).values():
            for mode in rs.modes or (None,):
                ident = "-".join(p for p in (title, rs.id, mode) if p)
                params.append(pytest.param((title, rs.id, mode), id=ident))
    return params


def pytest_generate_tests(metafunc):
    if "any_variant" in metafunc.fixturenames:
        metafunc.parametrize("any_variant", engine_variant_params())
