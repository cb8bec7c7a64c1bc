"""What goes wrong across houses is told plainly, and the table at home plays on: the
mailbox down (Grandma is told the invitation service cannot be reached), then a wrong
code (refused, and the code is burnt: each code allows one try; the host makes the next),
then the right one — and the hand is played, every entry checked by everyone. And a host
too busy to answer for seconds (its process stopped) is not taken for a ghost: its wrong
code is still told "did not match", its right one still gets in."""

import contextlib
import os
import signal
import time

import pytest

from net.houses import links
from tests.net.proc_kit import Peers
from tests.waits import blocking_until

pytestmark = pytest.mark.netns


def test_mailbox_down_then_a_wrong_code_then_the_right_one(world, tmp_path):
    (host_ns, home_ns), (far_ns, _) = world.houses.homes
    with Peers() as peers:
        host = peers.start(["host", "--game", "rook", "--table", "Refusals", "--no-advertise",
                            "--bind", "0.0.0.0", "--state-dir", tmp_path / "host", "--quick",
                            "--bots", "1", "--bot-level", "easy", "--hands", "1", "--invite", "3",
                            *world.args()], ns=host_ns, name="host")
        listening = host.wait_event("listening")
        first = host.wait_event("invite", timeout=30, where=lambda e: e["state"] == "waiting")["code"]
        home = peers.start(["join", "--address", f"{host_ns.address}:{listening['port']}", "--bot",
                            "easy", "--state-dir", tmp_path / "home", "--quick"], ns=home_ns, name="home")
        home.wait_event("connection", where=lambda e: e.get("state") == "connected")

        def far(code, name):
            return peers.start(["join", "--code", code, "--bot", "easy", "--quick",
                                "--state-dir", tmp_path / name, *world.args()], ns=far_ns, name=name)

        world.mailbox_down()
        try:
            lost = far(first, "no mailbox")
            assert lost.wait(60) == 2, "".join(lost.stderr)[-3000:]
            said = lost.wait_event("error", timeout=1)
            # in words; the address on the details line, not in the sentence
            assert "can't reach the invitation service" in said["message"], said
            assert "ws://" not in said["message"] and world.mailbox in said["details"], said
        finally:
            world.mailbox_up()
        number = first.split("-")[0]
        # code words in their places (else refused before dialling), but not the host's
        words = "adroitness-aardvark" if first != f"{number}-adroitness-aardvark" else "adviser-absurd"
        wrong = far(f"{number}-{words}", "wrong code")
        assert wrong.wait(60) == 2
        assert "did not match" in wrong.wait_event("error", timeout=1)["message"]
        host.wait_event("invite", timeout=30, where=lambda e: e["state"] == "burnt" and e["code"] == first)
        second = host.wait_event("invite", timeout=30,
                                 where=lambda e: e["state"] == "waiting" and e["code"] != first)["code"]
        assert second != first
        grandma = far(second, "grandma")
        assert host.wait(120) == 0, "".join(host.stderr)[-3000:]
        result = host.wait_event("result", timeout=1)
        for peer in (home, grandma):
            assert peer.wait(30) == 0, "".join(peer.stderr)[-2000:]
            summary = peer.summary()
            assert summary["alerts"] == [] and summary["head"] == result["head"], summary
        # the home player never lost the table meanwhile
        assert home.summary()["reconnects"] == 0
        assert result["hands"] == 1


#: Seconds the host stays stopped (SIGSTOP) after a guest has its key and sent its
#: confirmation: longer than the plain 3 s ghost timer (what was wrong), well within a
#: typed code's allowance (what is right).
STILL_FROZEN = 6.0


@contextlib.contextmanager
def frozen(peer):
    """The host's process stopped, as a busy old laptop is, then let go on."""
    os.kill(peer.proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(peer.proc.pid, signal.SIGCONT)


def test_a_host_that_answers_late_refuses_a_wrong_code_and_takes_the_right_one(world, tmp_path):
    """A host whose computer is too busy to answer for seconds is no ghost: the wrong code
    is told it "did not match" (not "stopped answering"), and the right one gets in."""
    assert links.INVITED_GHOST_AFTER > STILL_FROZEN + 5
    (host_ns, _), (far_ns, _) = world.houses.homes
    with Peers() as peers:
        host = peers.start(["host", "--game", "rook", "--table", "Busy", "--no-advertise",
                            "--bind", "0.0.0.0", "--state-dir", tmp_path / "host", "--quick",
                            "--bots", "2", "--bot-level", "easy", "--hands", "1", "--invite", "3",
                            *world.args()], ns=host_ns, name="host")
        first = host.wait_event("invite", timeout=30, where=lambda e: e["state"] == "waiting")["code"]

        def far_while_frozen(code, name):
            """A guest uses ``code`` while the host is stopped: it gets the host's key
            (the mailbox holds it) and sends its confirmation, and the host, stopped
            ``STILL_FROZEN`` seconds more, answers only then. The guest is still waiting."""
            nameplate = code.split("-")[0]
            blocking_until(lambda: world.said_at(nameplate).get("pake"), 60,
                           lambda: f"the host's key in the mailbox: {world.said_at(nameplate)}",
                           interval=0.2)
            with frozen(host):
                guest = peers.start(["join", "--code", code, "--bot", "easy", "--quick",
                                     "--state-dir", tmp_path / name, *world.args()], ns=far_ns, name=name)
                blocking_until(lambda: world.said_at(nameplate).get("version"), 60,
                               lambda: f"{name}'s confirmation in the mailbox: {world.said_at(nameplate)}, "
                                       f"{name} said {guest.lines}, {guest.stderr[-5:]}", interval=0.2)
                time.sleep(STILL_FROZEN)  # (the host's slowness: what is simulated, not waited on)
                assert guest.proc.poll() is None, \
                    f"{name} gave up on a host stopped for {STILL_FROZEN} s: {guest.lines}"
            return guest

        number = first.split("-")[0]
        words = "adroitness-aardvark" if first != f"{number}-adroitness-aardvark" else "adviser-absurd"
        wrong = far_while_frozen(f"{number}-{words}", "wrong code")
        assert wrong.wait(60) == 2, "".join(wrong.stderr)[-3000:]
        said = wrong.wait_event("error", timeout=1)["message"]
        assert "did not match" in said, said
        host.wait_event("invite", timeout=30, where=lambda e: e["state"] == "burnt" and e["code"] == first)
        second = host.wait_event("invite", timeout=30,
                                 where=lambda e: e["state"] == "waiting" and e["code"] != first)["code"]
        grandma = far_while_frozen(second, "grandma")
        assert host.wait(120) == 0, "".join(host.stderr)[-3000:]
        result = host.wait_event("result", timeout=1)
        assert grandma.wait(30) == 0, "".join(grandma.stderr)[-2000:]
        summary = grandma.summary()
        assert summary["alerts"] == [] and summary["head"] == result["head"], summary
        assert result["hands"] == 1
