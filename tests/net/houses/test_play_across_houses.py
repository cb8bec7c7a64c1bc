"""A hand of each title across houses: the host and a player at home (house A, over the LAN),
two players in house B who joined by the codes the host printed. Everything between the
houses goes through the mailbox and the relay in the "internet" namespace: the two home
networks cannot reach each other (their routers NAT, symmetric, and drop what comes
unasked)."""

import pytest

from tests.net.proc_kit import Peers, check_summaries

pytestmark = pytest.mark.netns


def play(world, tmp_path, game, extra=(), hands=None):
    (host_ns, home_ns), far = world.houses.homes
    with Peers() as peers:
        args = ["host", "--game", game, "--table", f"Across {game}", "--bind", "0.0.0.0",
                "--no-advertise", "--state-dir", tmp_path / "host", "--quick",
                "--bot-level", "easy", "--invite", "2", "--invite", "3", *world.args(), *extra]
        if hands is not None:
            args += ["--hands", hands]
        host = peers.start(args, ns=host_ns, name="host")
        listening = host.wait_event("listening")
        codes = {}
        for seat in (2, 3):
            codes[seat] = host.wait_event("invite", timeout=30,
                                          where=lambda e, s=seat: e["seat"] == s and e["state"] == "waiting")["code"]
        joiners = [peers.start(["join", "--address", f"{host_ns.address}:{listening['port']}",
                                "--bot", "easy", "--state-dir", tmp_path / "home", "--quick"],
                               ns=home_ns, name="home")]
        for i, seat in enumerate((2, 3)):
            joiners.append(peers.start(["join", "--code", codes[seat], "--bot", "easy",
                                        "--state-dir", tmp_path / f"far{i}", "--quick", *world.args()],
                                       ns=far[i], name=f"far{i}"))
        assert host.wait(180) == 0, "".join(host.stderr)[-3000:]
        result = host.wait_event("result", timeout=1)
        summaries = check_summaries(joiners, hands=result["hands"], head=result["head"])
    return result, summaries, host


@pytest.mark.parametrize("game, extra", [("rook", ()), ("somerset", ()),
                                         ("horseshoes", ("--mode", "four"))],
                         ids=["rook", "somerset", "horseshoes-four"])
def test_a_hand_of_each_title_across_houses(world, tmp_path, game, extra):
    result, summaries, host = play(world, tmp_path, game, extra, hands=1)
    assert result["hands"] == 1
    assert sorted(s["seat"] for s in summaries) == [1, 2, 3]
    assert all(s["scores"] == result["scores"] for s in summaries)
    assert [e["state"] for e in host.events("invite")].count("used") == 2
