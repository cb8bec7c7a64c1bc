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


# -- houses: two home networks behind NAT routers, and an "internet" between them ------------

#: The "internet" of the houses topology (a documentation range: it exists only inside
#: these namespaces) and each house's home network.
INTERNET = "198.51.100.0/24"
HOUSE_SUBNETS = ("10.231.1.0/24", "10.231.2.0/24")
HOUSE_TOOLS = {"iptables": "iptables", "conntrack": "conntrack"}


def houses_unavailable_reason() -> str | None:
    """None if the houses topology can be made here, else why not (namespaces, iptables)."""
    reason = unavailable_reason()
    if reason:
        return reason
    missing = [tool for tool in HOUSE_TOOLS if shutil.which(tool) is None]
    if missing:
        packages = " ".join(HOUSE_TOOLS[t] for t in missing)
        return f"{', '.join(missing)} not installed (Debian: apt-get install {packages}; make test does)"
    return None


@dataclass(frozen=True)
class Houses:
    """Two houses and the internet: ``homes[h]`` are house ``h``'s player namespaces,
    ``internet`` the namespace the mailbox and relay run in, at ``internet.address``."""

    internet: Namespace
    routers: tuple[Namespace, ...]
    homes: tuple[tuple[Namespace, ...], ...]


def _router_rules(router: str, symmetric: bool) -> list[list[str]]:
    """A home router: NAT out of ``wan`` (symmetric: a new port for every destination),
    nothing in from the WAN side that is not an answer."""
    masquerade = ["-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-j", "MASQUERADE"]
    if symmetric:
        masquerade.append("--random-fully")
    return [masquerade,
            ["-A", "FORWARD", "-i", "wan", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED",
             "-j", "ACCEPT"],
            ["-A", "FORWARD", "-i", "wan", "-j", "DROP"],
            ["-A", "INPUT", "-i", "wan", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED",
             "-j", "ACCEPT"],
            ["-A", "INPUT", "-i", "wan", "-j", "DROP"]]


@contextmanager
def houses(players: tuple[int, ...] = (2, 2), symmetric: bool = True) -> Iterator[Houses]:
    """Two home networks, ``players[h]`` namespaces each at .2, .3, … of
    ``HOUSE_SUBNETS[h]``, behind a router namespace doing NAT (symmetric with
    ``--random-fully``; unsolicited packets from the WAN side dropped), both routers on an
    "internet" (``INTERNET``: the internet namespace at .1, router ``h`` at .2+h) with no
    route anywhere else. Needs root and iptables (``houses_unavailable_reason``)."""
    inet = ipaddress.ip_network(INTERNET)
    inet_hosts = list(itertools.islice(inet.hosts(), 2 + len(players)))
    with ExitStack() as stack:
        internet = _add_namespace(stack, "-net")
        _ip("-n", internet, "link", "add", "br0", "type", "bridge")
        _ip("-n", internet, "addr", "add", f"{inet_hosts[0]}/{inet.prefixlen}", "dev", "br0")
        _ip("-n", internet, "link", "set", "br0", "up")
        routers, homes = [], []
        for h, count in enumerate(players):
            router = _add_namespace(stack, f"-r{h}")
            wan_address = inet_hosts[1 + h]
            _ip("-n", internet, "link", "add", f"w{h}", "type", "veth", "peer", "name", "wan",
                "netns", router)
            _ip("-n", internet, "link", "set", f"w{h}", "master", "br0", "up")
            _ip("-n", router, "addr", "add", f"{wan_address}/{inet.prefixlen}", "dev", "wan")
            _ip("-n", router, "link", "set", "wan", "up")
            home = ipaddress.ip_network(HOUSE_SUBNETS[h])
            hosts = list(itertools.islice(home.hosts(), 1 + count))
            _ip("-n", router, "link", "add", "lan", "type", "bridge")
            _ip("-n", router, "addr", "add", f"{hosts[0]}/{home.prefixlen}", "dev", "lan")
            _ip("-n", router, "link", "set", "lan", "up")
            subprocess.run(["ip", "netns", "exec", router, "sysctl", "-q", "-w",
                            "net.ipv4.ip_forward=1"], check=True, capture_output=True, timeout=10)
            for rule in _router_rules(router, symmetric):
                done = subprocess.run(["ip", "netns", "exec", router, "iptables", *rule],
                                      capture_output=True, text=True, timeout=10)
                if done.returncode != 0:
                    raise NetnsError(f"`iptables {' '.join(rule)}` failed: {done.stderr.strip()}")
            members = []
            for i, address in enumerate(hosts[1:]):
                name = _add_namespace(stack, f"-h{h}{i}")
                _ip("-n", router, "link", "add", f"p{i}", "type", "veth", "peer", "name", "eth0",
                    "netns", name)
                _ip("-n", router, "link", "set", f"p{i}", "master", "lan", "up")
                _ip("-n", name, "addr", "add", f"{address}/{home.prefixlen}", "dev", "eth0")
                _ip("-n", name, "link", "set", "eth0", "multicast", "on", "up")
                _ip("-n", name, "route", "add", "default", "via", str(hosts[0]))
                _ip("-n", name, "route", "add", MULTICAST, "dev", "eth0")
                members.append(Namespace(name, str(address), "eth0"))
            routers.append(Namespace(router, str(wan_address), "wan"))
            homes.append(tuple(members))
        yield Houses(Namespace(internet, str(inet_hosts[0]), "br0"), tuple(routers), tuple(homes))
