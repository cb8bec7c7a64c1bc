"""Four processes in four network namespaces on a private bridge: the host advertises
over mDNS, three ``parlour join`` peers find it by name, take seats, play with bots and
verify every hand. A hand of Rook, and a whole game of Horseshoes partners.

The namespaces and mDNS are the subject here, which no title changes: a hand of every
title is played through processes on loopback (tests/net/sessions/test_soak.py: a whole
game of every title, ruleset and mode) and through sessions (test_session.py), and
Somerset's hand crosses houses (tests/net/houses/test_play_across_houses.py)."""

import pytest

from tests.net.proc_kit import PATIENT, Peers, check_summaries

pytestmark = pytest.mark.netns


def play(four_ns, tmp_path, game, table, hands=None, extra=()):
    host_ns, *guest_ns = four_ns
    with Peers() as peers:
        args = ["host", "--game", game, "--table", table, "--interface", host_ns.address,
                "--state-dir", tmp_path / "host", "--quick", *PATIENT, "--bot-level", "easy", *extra]
        if hands is not None:
            args += ["--hands", hands]
        host = peers.start(args, ns=host_ns, name="host")
        host.wait_event("listening")
        joiners = [peers.start(["join", "--table", table, "--interface", ns.address, "--bot",
                                "easy", "--state-dir", tmp_path / f"guest{i}", "--quick", *PATIENT],
                               ns=ns, name=f"join{i}")
                   for i, ns in enumerate(guest_ns)]
        assert host.wait(120) == 0, "".join(host.stderr)[-2000:]
        result = host.wait_event("result", timeout=1)
        summaries = check_summaries(joiners, hands=result["hands"], head=result["head"])
    return result, summaries, host


def test_a_hand_across_four_namespaces(four_ns, tmp_path):
    result, summaries, host = play(four_ns, tmp_path, "rook", "E2E rook", hands=1)
    assert result["hands"] == 1
    assert sorted(s["seat"] for s in summaries) == [1, 2, 3]
    assert all(s["scores"] == result["scores"] for s in summaries)
    # the peers came from their own namespaces' addresses, found over mDNS
    assert len(host.events("connection")) >= 3


def test_a_whole_game_to_the_end(four_ns, tmp_path):
    """(Horseshoes partners: every hand of it, where a hand of it was played before.)"""
    result, summaries, host = play(four_ns, tmp_path, "horseshoes", "E2E whole game",
                                   extra=("--mode", "partners"))
    assert result["winner"] is not None and result["reason"] == "the game is over"
    assert sorted(s["seat"] for s in summaries) == [1, 2, 3]
    assert all(s["scores"] == result["scores"] for s in summaries)
    assert len(host.events("connection")) >= 3
    assert all(s["winner"] == result["winner"] for s in summaries)
    assert all(s["hands_verified"] == result["hands"] >= 1 for s in summaries)
