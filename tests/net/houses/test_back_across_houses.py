"""A player across houses is never asked for a second code: Grandma's app is killed
mid-hand (SIGKILL) and started again, and it finds the table by itself — a code both
apps derive from their keys (net/houses/pairs.py) — takes its seat back and plays on.
Under both deals."""

import time

import pytest

from tests.net.proc_kit import Peers

pytestmark = pytest.mark.netns


def mid_hand(event) -> bool:
    view = event.get("view") or {}
    return view.get("phase") == "play" and bool(view.get("trick"))


@pytest.mark.parametrize("private", [False, True], ids=["seeded", "private-deal"])
def test_grandmas_app_killed_mid_hand_comes_back_without_a_second_code(world, tmp_path, private):
    (host_ns, _), (far_ns, _) = world.houses.homes
    with Peers() as peers:
        host = peers.start(["host", "--game", "rook", "--table", "Back", "--no-advertise",
                            "--bind", "0.0.0.0", "--state-dir", tmp_path / "host", "--quick",
                            "--bots", "2", "--bot-level", "easy", "--delay", "0.05", "--hands", "2",
                            "--invite", "3", "--private-deal" if private else "--no-private-deal",
                            *world.args()], ns=host_ns, name="host")
        code = host.wait_event("invite", timeout=30, where=lambda e: e["state"] == "waiting")["code"]
        grandma = ["join", "--bot", "easy", "--state-dir", tmp_path / "grandma", "--quick",
                   "--delay", "0.05", "--verbose", *world.args()]
        first = peers.start([*grandma[:1], "--code", code, "--remember", *grandma[1:]],
                            ns=far_ns, name="grandma")
        first.wait_event("state", timeout=60, where=mid_hand)
        first.kill()
        killed = time.monotonic()
        again = peers.start([*grandma[:1], "--rejoin", *grandma[1:]], ns=far_ns, name="grandma again")
        back = again.wait_event("connection", timeout=60, where=lambda e: e.get("state") == "connected")
        took = time.monotonic() - killed
        assert host.wait(180) == 0, "".join(host.stderr)[-3000:]
        result = host.wait_event("result", timeout=1)
        assert again.wait(30) == 0, "".join(again.stderr)[-3000:]
        summary = again.summary()
    print(f"\nkilled -> seated again across houses: {took * 1000:.0f} ms")
    assert back["seat"] == 3 and summary["seat"] == 3
    assert summary["alerts"] == [] and summary["head"] == result["head"]
    assert result["hands"] == 2 and summary["hands_verified"] >= 1
    # one code was used, the first; nothing was typed again
    assert [e["state"] for e in host.events("invite")] == ["waiting", "joining", "used"]
