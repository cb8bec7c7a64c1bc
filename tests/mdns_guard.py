"""Keep every test off the real network's mDNS: the autouse fixture ``mdns_guard``.

``parlour host`` and the app advertise and browse on every interface by default. In a
test that would send multicast onto the machine's real network, so while a test runs:

* ``TableAdvertiser.start`` and ``TableBrowser.start`` refuse zeroconf's
  all-interfaces choice (``DEFAULT_INTERFACES``) unless this process lives in a private
  network namespace (only ``lo`` in sight, as under ``unshare -rn``);
* starting ``python -m net.cli host`` as a subprocess needs ``--interface`` or
  ``--no-advertise``, unless the command runs inside a namespace (``ip netns exec``).

A refused start raises ``RealNetworkRefused`` at once (nothing is sent) and the test
fails at teardown even if the code under test swallowed the exception.
"""

from __future__ import annotations

import socket
import subprocess

import pytest
from zeroconf import InterfaceChoice

from net import discovery


class RealNetworkRefused(RuntimeError):
    """A test tried to use mDNS on every interface of the real machine."""


def in_private_namespace() -> bool:
    """Whether this process sees no network interface but loopback."""
    return [name for _, name in socket.if_nameindex()] == ["lo"]


def explicit(interfaces) -> bool:
    """Interfaces named one by one (addresses), not zeroconf's "all"/"default" choice."""
    return interfaces is not None and not isinstance(interfaces, InterfaceChoice)


def advertised_by_default(argv) -> bool:
    """Whether ``argv`` runs ``parlour host`` with mDNS on every interface."""
    args = [str(a) for a in argv] if isinstance(argv, (list, tuple)) else str(argv).split()
    if "net.cli" not in args or "host" not in args:
        return False
    if args[:3] == ["ip", "netns", "exec"]:
        return False  # inside a namespace the tests built
    return "--interface" not in args and "--no-advertise" not in args


@pytest.fixture(autouse=True)
def mdns_guard(monkeypatch):
    """The list of refused starts (a test of this guard empties it)."""
    refused: list[str] = []

    def refuse(what: str) -> None:
        refused.append(what)
        raise RealNetworkRefused(f"a test started {what} on every network interface; pin "
                                 "it to the test's own (loopback or a namespace)")

    def guarded(cls):
        real = cls.start

        async def start(self):
            if not explicit(self._interfaces) and not in_private_namespace():
                refuse(f"a {cls.__name__}")
            return await real(self)
        monkeypatch.setattr(cls, "start", start)

    guarded(discovery.TableAdvertiser)
    guarded(discovery.TableBrowser)
    real_popen = subprocess.Popen.__init__

    def popen(self, args, *rest, **kw):
        if advertised_by_default(args) and not in_private_namespace():
            refuse("`parlour host` advertising")
        return real_popen(self, args, *rest, **kw)
    monkeypatch.setattr(subprocess.Popen, "__init__", popen)
    yield refused
    if refused:
        pytest.fail("mDNS on the real network: " + "; ".join(refused), pytrace=False)
