"""After a code matched: who is on the other side, and whether a connection comes.

* The official ``wormhole`` tool, given Parlour's application id, uses a host's code: the
  host says that something that is not Parlour used it — nobody is "in" — makes the next
  code at once and holds nothing of the spent one; a player then comes in with the new
  code and the hand is played.
* A host that makes a new code after the tool used the last one holds one mailbox
  connection, not two (``inviter.py``: what the app's *New code* does).
* The relay's port blocked at the guest's router: both sides say so in words within
  seconds — by the protocol's own timer — and the host's next code works once it is open.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from net.houses import APPID
from net.houses.links import CONNECT_WITHIN
from net.tools.houses_world import MAILBOX_PORT, RELAY_PORT
from tests.net.proc_kit import Peers
from tests.waits import blocking_until

pytestmark = pytest.mark.netns

INVITER = str(Path(__file__).with_name("inviter.py"))
#: How late past ``CONNECT_WITHIN`` a side may say the relay is out of reach (a timer on
#: a loaded machine fires a little late; the relay's probe ends before it).
LATE = 3.0


def waiting(event: dict) -> bool:
    return event["state"] == "waiting"


def over(code: str):
    """The news that ``code`` is over (anything after "waiting" but "joining")."""
    return lambda e: e["code"] == code and e["state"] not in ("waiting", "joining")


def mailbox_connections(world, ns) -> int:
    """The connections from namespace ``ns`` to the mailbox."""
    out = ns.run("ss", "-tnH", "state", "established").stdout
    return sum(f"{world.internet.address}:{MAILBOX_PORT}" in line.split()[-1:][0]
               for line in out.splitlines() if line.strip())


def wormhole_tool(world, ns, code: str) -> subprocess.Popen:
    """magic-wormhole's own command-line tool receiving with ``code`` in Parlour's
    namespace of codes: it completes the key exchange, then waits for a file offer."""
    tool = str(Path(sys.executable).with_name("wormhole"))
    return ns.popen(tool, "--appid", APPID, "--relay-url", world.mailbox, "--transit-helper",
                    world.relay, "receive", code, stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT, text=True)


def host_args(world, tmp_path, table: str) -> list:
    return ["host", "--game", "rook", "--table", table, "--no-advertise", "--bind", "0.0.0.0",
            "--state-dir", tmp_path / "host", "--quick", "--bots", "2", "--bot-level", "easy",
            "--hands", "1", "--invite", "3", *world.args()]


def join_args(world, tmp_path, code: str, name: str) -> list:
    return ["join", "--code", code, "--bot", "easy", "--quick", "--state-dir", tmp_path / name,
            *world.args()]


def one_connection(world, ns):
    seen: list[int] = []

    def one() -> bool:
        seen.append(mailbox_connections(world, ns))
        return seen[-1] == 1
    blocking_until(one, timeout=30, what=lambda: f"one mailbox connection (the new code's); "
                                                 f"saw {seen[-5:]}")


def played_with(host, grandma, code: str) -> None:
    """Grandma comes in with ``code`` and the hand is played, checked by everyone."""
    host.wait_event("invite", timeout=90, where=lambda e: e["code"] == code and e["state"] == "used")
    assert host.wait(180) == 0, "".join(host.stderr)[-3000:]
    result = host.wait_event("result", timeout=1)
    assert grandma.wait(30) == 0, "".join(grandma.stderr)[-2000:]
    summary = grandma.summary()
    assert summary["alerts"] == [] and summary["head"] == result["head"], summary


def test_a_code_the_wormhole_tool_used_is_said_and_a_new_one_made(world, tmp_path):
    (host_ns, _), (far_ns, _) = world.houses.homes
    with Peers() as peers:
        host = peers.start(host_args(world, tmp_path, "Strangers"), ns=host_ns, name="host")
        first = host.wait_event("invite", timeout=60, where=waiting)["code"]
        tool = wormhole_tool(world, far_ns, first)
        try:
            spent = host.wait_event("invite", timeout=90, where=over(first))
            assert spent["state"] == "spent" and "not Parlour" in spent["message"], spent
            assert "nobody has joined" in spent["message"], spent
            second = host.wait_event("invite", timeout=60,
                                     where=lambda e: waiting(e) and e["code"] != first)["code"]
            said = [e["state"] for e in host.events("invite") if e["code"] == first]
            assert said == ["waiting", "spent"], said  # never "joining", never "used"
            one_connection(world, host_ns)
        finally:
            tool.kill()
            tool.wait(10)
        grandma = peers.start(join_args(world, tmp_path, second, "grandma"), ns=far_ns, name="grandma")
        played_with(host, grandma, second)


def test_a_new_code_after_the_tool_used_one_leaves_one_mailbox_connection(world, tmp_path):
    (host_ns, _), (far_ns, _) = world.houses.homes
    with Peers() as peers:
        inviter = peers.start(["--mailbox", world.mailbox, "--relay", world.relay, "--codes", "2"],
                              ns=host_ns, name="inviter", script=INVITER)
        first = inviter.wait_event("invite", timeout=60, where=waiting)["code"]
        assert mailbox_connections(world, host_ns) == 1
        tool = wormhole_tool(world, far_ns, first)
        try:
            inviter.wait_event("invite", timeout=90, where=over(first))
            inviter.wait_event("invite", timeout=60, where=lambda e: waiting(e) and e["code"] != first)
            one_connection(world, host_ns)  # the new code's; the spent one's closed
        finally:
            tool.kill()
            tool.wait(10)


def test_the_relay_out_of_reach_is_said_on_both_sides_within_seconds(world, tmp_path):
    (host_ns, _), (far_ns, _) = world.houses.homes
    router = world.houses.routers[1]  # Grandma's
    block = ["FORWARD", "-p", "tcp", "-d", world.internet.address, "--dport", str(RELAY_PORT),
             "-j", "DROP"]
    with Peers() as peers:
        host = peers.start(host_args(world, tmp_path, "No relay"), ns=host_ns, name="host")
        first = host.wait_event("invite", timeout=60, where=waiting)["code"]
        router.run("iptables", "-I", *block)
        try:
            lost = peers.start(join_args(world, tmp_path, first, "no relay"), ns=far_ns, name="no relay")
            assert lost.wait(120) == 2, "".join(lost.stderr)[-3000:]
            said = lost.wait_event("error", timeout=1)
            assert "this computer can't reach the relay" in said["message"], said
            assert "tcp:" not in said["message"] and world.relay in said["details"], said
            # the protocol's own timer, from the code's match: not this test's clock
            assert said["waited"] <= CONNECT_WITHIN + LATE, said

            spent = host.wait_event("invite", timeout=60, where=over(first))
            assert spent["state"] == "spent", spent
            assert "their computer did not connect" in spent["message"], spent
            assert "tcp:" not in spent["message"] and world.relay in spent["details"], spent
            assert spent["waited"] <= CONNECT_WITHIN + LATE, spent
            said = [e["state"] for e in host.events("invite") if e["code"] == first]
            assert said == ["waiting", "joining", "spent"], said
            second = host.wait_event("invite", timeout=60,
                                     where=lambda e: waiting(e) and e["code"] != first)["code"]
            one_connection(world, host_ns)
        finally:
            router.run("iptables", "-D", *block)
        grandma = peers.start(join_args(world, tmp_path, second, "grandma"), ns=far_ns, name="grandma")
        played_with(host, grandma, second)
