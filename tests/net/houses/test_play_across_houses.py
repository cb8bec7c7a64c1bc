"""A hand across houses: the host and a player at home (house A, over the LAN), two
players in house B who joined by the codes the host printed. Everything between the
houses goes through the mailbox and the relay in the "internet" namespace: the two home
networks cannot reach each other (their routers NAT, symmetric, and drop what comes
unasked).

The houses are the subject, which no title changes: Somerset's hand crosses them here,
and a Rook hand for a watcher; every title, ruleset and mode plays whole games through
processes on loopback (tests/net/sessions/test_soak.py), Rook and Horseshoes across
network namespaces (tests/net/tools/test_e2e.py)."""

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


def test_a_hand_across_houses(world, tmp_path):
    result, summaries, host = play(world, tmp_path, "somerset", hands=1)
    assert result["hands"] == 1
    assert sorted(s["seat"] for s in summaries) == [1, 2, 3]
    assert all(s["scores"] == result["scores"] for s in summaries)
    assert [e["state"] for e in host.events("invite")].count("used") == 2


def test_a_watcher_in_another_house_joins_by_code_and_checks_the_hand(world, tmp_path):
    """``host --invite-watcher``: a code for someone in house B to watch; ``join --code
    --watch`` there watches (no seat) through the mailbox and relay, and verifies the
    hand as the players do."""
    (host_ns, home_ns), far = world.houses.homes
    with Peers() as peers:
        host = peers.start(["host", "--game", "rook", "--table", "Watched across", "--bind", "0.0.0.0",
                            "--no-advertise", "--state-dir", tmp_path / "host", "--quick",
                            "--bot-level", "easy", "--bots", "2", "--hands", "1", "--invite-watcher",
                            *world.args()], ns=host_ns, name="host")
        listening = host.wait_event("listening")
        code = host.wait_event("invite", timeout=30,
                               where=lambda e: e.get("watch") and e["state"] == "waiting")["code"]
        watcher = peers.start(["join", "--code", code, "--watch", "--state-dir", tmp_path / "far",
                               "--quick", *world.args()], ns=far[0], name="far watcher")
        watcher.wait_event("watchers", timeout=60, where=lambda e: e["you_watch"])
        player = peers.start(["join", "--address", f"{host_ns.address}:{listening['port']}",
                              "--bot", "easy", "--state-dir", tmp_path / "home", "--quick"],
                             ns=home_ns, name="home")
        assert host.wait(180) == 0, "".join(host.stderr)[-3000:]
        result = host.wait_event("result", timeout=1)
        check_summaries([player], hands=1, head=result["head"])
        [summary] = check_summaries([watcher], hands=1, head=result["head"])
    assert summary["seat"] is None
    assert [e["state"] for e in host.events("invite") if e.get("watch")].count("used") == 1
    assert [e for e in watcher.events("public") if e["what"] == "play"]
