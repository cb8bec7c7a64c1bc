"""Fixtures for the tools' process tests."""

import pytest

from net.tools import netns


@pytest.fixture(scope="module")
def four_ns():
    """Four network namespaces on a private bridge (one set per test module), or a skip
    saying why they cannot be made here."""
    reason = netns.unavailable_reason()
    if reason:
        pytest.skip(f"network namespaces unavailable: {reason}")
    with netns.bridged_namespaces(4) as nss:
        yield nss
