"""Fixtures for the tests across houses (the world: net/tools/houses_world.py)."""

import pytest

from net.tools import netns
from net.tools.houses_world import World, unavailable_reason


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Two houses of two namespaces each, behind NAT, and the internet between them with
    the mailbox and the relay running (one world per test module; skipped, saying why,
    where it cannot be made)."""
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"the houses' test world cannot be made here: {reason}")
    with netns.houses((2, 2)) as houses:
        world = World(houses, tmp_path_factory.mktemp("world"))
        try:
            world.start()
            yield world
        finally:
            world.stop()
