"""Private Linux network namespaces for tests and benchmarks — never a real interface.

Two shapes:

* ``private_namespace()``: one namespace holding only ``lo``, brought up with multicast
  on and a multicast route, for anything that needs mDNS on one machine.
* ``bridged_namespaces(n)``: ``n`` "player" namespaces, each with an ``eth0`` at
  10.231.0.1, .2, … (``TEST_SUBNET``), joined by veth pairs to a bridge that lives in a
  further private "switch" namespace. Nothing is created in the namespace the tests run
  in, so no route, interface or packet ever appears on the machine's own network; the
  subnet exists only inside these namespaces.

Both are context managers that delete everything on exit (namespaces created by a run
that crashed are cleaned up by the next one: names carry the creating process id).
``Namespace.run`` / ``popen`` / ``python`` start a program inside one (``ip netns exec``).

This needs root (as in CI) — or a user namespace that *is* root: on a developer machine
run the tests as ``unshare -rnm sh -c 'mount -t tmpfs none /run && make test'``.
``unavailable_reason()`` says why namespaces cannot be made here, for a test skip.
"""

from __future__ import annotations

import ipaddress
import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, ExitStack
from dataclasses import dataclass
from pathlib import Path

from net.constants import NETNS_PREFIX, TEST_SUBNET

REPO_ROOT = Path(__file__).resolve().parents[2]
MULTICAST = "224.0.0.0/4"
_counter = itertools.count()
_probe_result: list[str | None] = []


class NetnsError(RuntimeError):
    """A namespace could not be set up (the message has the failing command)."""


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10)
    if check and proc.returncode != 0:
        raise NetnsError(f"`ip {' '.join(args)}` failed: {proc.stderr.strip()}")
    return proc


def _unique(tag: str) -> str:
    # Linux allows long namespace names but interface names max 15 chars; we only use
    # these for namespaces.
    return f"{NETNS_PREFIX}-{os.getpid()}-{next(_counter)}{tag}"


def unavailable_reason() -> str | None:
    """None if this process can make namespaces, else a sentence saying why not."""
    if _probe_result:
        return _probe_result[0]
    reason = _probe()
    _probe_result.append(reason)
    return reason


def _probe() -> str | None:
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux-only"
    if shutil.which("ip") is None:
        return "the `ip` command (iproute2) is not installed"
    if os.geteuid() != 0:
        return ("creating namespaces needs root; run as root (CI does) or inside "
                "`unshare -rnm sh -c 'mount -t tmpfs none /run && make test'`")
    cleanup_stale()
    name = _unique("-probe")
    proc = _ip("netns", "add", name, check=False)
    if proc.returncode != 0:
        return f"`ip netns add` failed: {proc.stderr.strip()}"
    _ip("netns", "del", name, check=False)
    return None


def cleanup_stale() -> list[str]:
    """Delete namespaces left by Parlour test runs whose process has died."""
    removed = []
    listing = _ip("netns", "list", check=False).stdout.split("\n")
    for line in listing:
        name = line.split(" ")[0]
        parts = name.split("-")
        if len(parts) < 3 or parts[0] != NETNS_PREFIX or not parts[1].isdigit():
            continue
        pid = int(parts[1])
        if pid != os.getpid() and not Path(f"/proc/{pid}").exists():
            _ip("netns", "del", name, check=False)
            removed.append(name)
    return removed


@dataclass(frozen=True)
class Namespace:
    """A namespace we made; ``address`` is its IPv4 address on ``interface``."""

    name: str
    address: str
    interface: str

    def argv(self, *cmd: str) -> list[str]:
        return ["ip", "netns", "exec", self.name, *cmd]

    def run(self, *cmd: str, check: bool = True, timeout: float = 30,
            **kw) -> subprocess.CompletedProcess:
        """Run ``cmd`` inside the namespace and wait for it (text output captured)."""
        kw.setdefault("capture_output", True)
        kw.setdefault("text", True)
        return subprocess.run(self.argv(*cmd), check=check, timeout=timeout, **kw)

    def popen(self, *cmd: str, **kw) -> subprocess.Popen:
        """Start ``cmd`` inside the namespace."""
        return subprocess.Popen(self.argv(*cmd), **kw)

    def python(self, *args: str, **kw) -> subprocess.Popen:
        """Start this Python, with the repository importable, inside the namespace."""
        env = dict(kw.pop("env", None) or os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
        env.setdefault("PYTHONUNBUFFERED", "1")
        kw.setdefault("cwd", str(REPO_ROOT))
        return self.popen(sys.executable, *args, env=env, **kw)


def _add_namespace(stack: ExitStack, tag: str) -> str:
    name = _unique(tag)
    _ip("netns", "add", name)
    stack.callback(_ip, "netns", "del", name, check=False)
    _ip("-n", name, "link", "set", "lo", "up")
    return name


@contextmanager
def private_namespace() -> Iterator[Namespace]:
    """One namespace with only ``lo``: up, multicast on, multicast routed to it."""
    with ExitStack() as stack:
        name = _add_namespace(stack, "")
        _ip("-n", name, "link", "set", "lo", "multicast", "on")
        _ip("-n", name, "route", "add", MULTICAST, "dev", "lo")
        yield Namespace(name, "127.0.0.1", "lo")


@contextmanager
def bridged_namespaces(count: int, subnet: str = TEST_SUBNET) -> Iterator[list[Namespace]]:
    """``count`` namespaces on one private bridge, addresses .1, .2, … of ``subnet``."""
    net = ipaddress.ip_network(subnet)
    hosts = itertools.islice(net.hosts(), count)
    with ExitStack() as stack:
        switch = _add_namespace(stack, "-sw")
        _ip("-n", switch, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", switch, "link", "set", "br0", "up")
        members = []
        for i, address in enumerate(hosts):
            name = _add_namespace(stack, f"-{i}")
            port = f"p{i}"
            # Made inside the switch namespace, with the far end moved straight into
            # the player's namespace: neither end ever exists in ours.
            _ip("-n", switch, "link", "add", port, "type", "veth",
                "peer", "name", "eth0", "netns", name)
            _ip("-n", switch, "link", "set", port, "master", "br0", "up")
            _ip("-n", name, "addr", "add", f"{address}/{net.prefixlen}", "dev", "eth0")
            _ip("-n", name, "link", "set", "eth0", "multicast", "on", "up")
            _ip("-n", name, "route", "add", MULTICAST, "dev", "eth0")
            members.append(Namespace(name, str(address), "eth0"))
        yield members


def interfaces_in(ns: Namespace) -> list[str]:
    """Names of the network interfaces inside ``ns`` (for isolation checks)."""
    out = _ip("-n", ns.name, "-o", "link", "show").stdout
    return sorted(line.split(":")[1].strip().split("@")[0] for line in out.splitlines())
