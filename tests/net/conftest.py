"""Shared fixtures for the net tests.

* ``arun`` runs a coroutine in a fresh event loop with an overall deadline, so a hung
  protocol fails the test instead of the suite.
* ``schemas`` is the protocol's message registry plus a ``chat`` type for tests.
* ``quick`` holds the short protocol timings tests use (handshake timeouts and the like)
  so nothing waits on production-length delays.
* ``deal`` runs a test under both deals (ids "seeded" and "private"): its value is
  HostCore's ``mental_deal`` (the project's rule: every rejoin, drop, takeover or cheat
  scenario runs under both).
* ``private_ns`` / ``bridged_ns`` build throwaway network namespaces (net/tools/netns.py) and
  skip, saying why, where namespaces cannot be made.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from net.tools import netns
from net.wire.framing import SCHEMAS
from net.wire.identity import Identity

QUICK = SimpleNamespace(handshake_timeout=3.0, deadline=20.0)


@pytest.fixture
def quick():
    return QUICK


@pytest.fixture
def arun():
    def run(coro, timeout: float = QUICK.deadline):
        return asyncio.run(asyncio.wait_for(coro, timeout))
    return run


@pytest.fixture
def schemas():
    s = SCHEMAS.copy()
    s.message("chat", text=str)
    return s


@pytest.fixture(params=[pytest.param(False, id="seeded"), pytest.param(True, id="private")])
def deal(request) -> bool:
    """HostCore's ``mental_deal``: False, the seeded deal; True, the private deal."""
    return request.param


@pytest.fixture
def host_id():
    return Identity.generate("Hostess")


@pytest.fixture
def guest_id():
    return Identity.generate("Guest")




def _need_namespaces():
    reason = netns.unavailable_reason()
    if reason:
        pytest.skip(f"network namespaces unavailable: {reason}")


@pytest.fixture
def private_ns():
    """One private namespace: only ``lo``, up, with multicast on and routed."""
    _need_namespaces()
    with netns.private_namespace() as ns:
        yield ns


@pytest.fixture
def bridged_ns():
    """Two namespaces (10.231.0.1 and .2) joined by a bridge in a third, private one."""
    _need_namespaces()
    with netns.bridged_namespaces(2) as nss:
        yield nss

