"""The namespace helpers themselves: isolation, addressing, reachability, cleanup."""

import subprocess

import pytest

from net.tools import netns

pytestmark = pytest.mark.netns


LISTEN = ("import socket, sys; s = socket.create_server((sys.argv[1], 0)); "
          "print(s.getsockname()[1], flush=True); c, _ = s.accept(); c.sendall(b'hi')")
CONNECT = ("import socket, sys; c = socket.create_connection((sys.argv[1], int(sys.argv[2])), "
           "timeout=3); print(c.recv(2).decode())")
UNREACHABLE = ("import errno, socket, sys\n"
               "try: socket.create_connection((sys.argv[1], 9), timeout=3)\n"
               "except OSError as e: print(errno.errorcode.get(e.errno, e))")


def tcp_reaches(server_ns, client_ns, address):
    """A TCP connection from client_ns to a listener in server_ns at address works."""
    listener = server_ns.python("-c", LISTEN, address, stdout=subprocess.PIPE, text=True)
    try:
        port = listener.stdout.readline().strip()
        out = client_ns.python("-c", CONNECT, address, port, stdout=subprocess.PIPE,
                               text=True).communicate(timeout=20)[0]
        return out.strip() == "hi"
    finally:
        listener.kill()
        listener.communicate()


def names():
    return subprocess.run(["ip", "netns", "list"], capture_output=True,
                          text=True).stdout


def test_private_namespace_has_only_loopback(private_ns):
    assert netns.interfaces_in(private_ns) == ["lo"]
    routes = private_ns.run("ip", "route", "show", "table", "all").stdout
    assert "224.0.0.0/4 dev lo" in routes
    assert "default" not in routes
    assert "MULTICAST" in private_ns.run("ip", "link", "show", "lo").stdout
    assert tcp_reaches(private_ns, private_ns, "127.0.0.1")


def test_bridged_namespaces_reach_each_other_and_nothing_else(bridged_ns):
    a, b = bridged_ns
    assert (a.address, b.address) == ("10.231.0.1", "10.231.0.2")
    assert netns.interfaces_in(a) == ["eth0", "lo"]
    assert tcp_reaches(b, a, b.address)
    assert tcp_reaches(a, b, a.address)
    # No default route: anything outside the test subnet fails at once, no packet sent.
    assert "default" not in a.run("ip", "route").stdout
    out = a.python("-c", UNREACHABLE, "192.0.2.1", stdout=subprocess.PIPE,
                   text=True).communicate(timeout=20)[0]
    assert out.strip() == "ENETUNREACH"


def test_python_runs_inside(bridged_ns):
    a, _ = bridged_ns
    proc = a.python("-c", "import net, socket; s = socket.socket(socket.AF_INET, "
                    "socket.SOCK_DGRAM); s.bind(('10.231.0.1', 0)); print('ok')",
                    stdout=subprocess.PIPE, text=True)
    assert proc.communicate(timeout=20)[0].strip() == "ok"


def test_everything_is_removed_afterwards():
    if netns.unavailable_reason():
        pytest.skip(netns.unavailable_reason())
    with netns.bridged_namespaces(3) as nss:
        made = [ns.name for ns in nss]
        assert all(name in names() for name in made)
    left = names()
    assert not any(name in left for name in made)

def test_stale_namespaces_from_dead_runs_are_cleaned():
    if netns.unavailable_reason():
        pytest.skip(netns.unavailable_reason())
    dead_pid = 2**22 + 12345  # above any pid_max default: no such process
    name = f"{netns.NETNS_PREFIX}-{dead_pid}-0"
    subprocess.run(["ip", "netns", "add", name], check=True)
    try:
        assert name in netns.cleanup_stale()
        assert name not in names()
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


def test_clear_reason_when_not_root(monkeypatch):
    monkeypatch.setattr(netns.os, "geteuid", lambda: 1000)
    reason = netns._probe()
    assert "root" in reason and "unshare -rnm" in reason
