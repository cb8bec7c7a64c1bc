"""Fixtures for the tests across houses (tests/net/houses/world.py)."""

import pytest

from tests.net.houses.world import world_fixture


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Two houses of two namespaces each, behind NAT, and the internet between them with
    the mailbox and the relay running (one world per test module)."""
    yield from world_fixture(tmp_path_factory)
