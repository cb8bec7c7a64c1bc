"""The host's app killed for good mid-hand (SIGKILL), and the table carried on by a player
ACROSS houses: seat 1 — the lowest remaining seat, so the successor — joined by a code
from house B; the player at home in house A (seat 3) and the other far player (seat 2)
reach it only through the mailbox and the relay, at its house address, with no code read
out again. The game is played to its end on the successor, everyone's log agrees. Under
both deals."""

import time

import pytest

from net.trust.store import LogStore
from tests.net.proc_kit import Peers
from tests.waits import blocking_until

pytestmark = pytest.mark.netns

HANDS = 2


def mid_hand(event) -> bool:
    view = event.get("view") or {}
    return view.get("phase") == "play" and bool(view.get("trick"))


def carry_on(ns, state_dir, *where):
    return ["join", *where, "--bot", "easy", "--state-dir", state_dir, "--quick", "--delay", "0.02",
            "--carry-on", "--standby-bind", ns.address, "--hands", HANDS, "--stand-in", "0.3",
            "--verbose", "--deadline", "60"]  # (healthy parties never timed tightly: proc_kit.PATIENT)


def what_was_seen(peer, since: float) -> str:
    """A guest's side of a takeover, for a test that failed waiting on it: its last
    takeover and connection events, whether it still runs, and its stderr's tail (its
    warnings and any traceback), with the seconds since the host was killed."""
    told = [e for e in list(peer.lines) if e.get("event") in ("takeover", "connection")][-8:]
    running = "running" if peer.proc.poll() is None else f"exited {peer.proc.returncode}"
    lines = [f"-- {peer.name} ({running}, {time.monotonic() - since:.1f} s after the kill):"]
    lines += [f"   {e}" for e in told]
    lines += ["   stderr: " + line.rstrip() for line in list(peer.stderr)[-25:]]
    return "\n".join(lines)


@pytest.mark.parametrize("private", [False, True], ids=["seeded", "private-deal"])
def test_the_host_killed_a_player_across_houses_carries_the_table_on(world, tmp_path, private):
    (host_ns, home_ns), far_ns = world.houses.homes
    with Peers() as peers:
        host = peers.start(["host", "--game", "rook", "--table", "Carried", "--no-advertise",
                            "--bind", "0.0.0.0", "--state-dir", tmp_path / "host", "--quick", "--deadline", "60",
                            "--bot-level", "easy", "--delay", "0.02", "--hands", HANDS,
                            "--invite", "1", "--invite", "2",
                            "--private-deal" if private else "--no-private-deal", *world.args()],
                           ns=host_ns, name="host")
        listening = host.wait_event("listening")
        codes = {seat: host.wait_event("invite", timeout=30, where=lambda e, s=seat: e["seat"] == s
                                       and e["state"] == "waiting")["code"] for seat in (1, 2)}
        far = [peers.start([*carry_on(ns, tmp_path / f"far{i}", "--code", codes[i + 1]), *world.args()],
                           ns=ns, name=f"far{i}") for i, ns in enumerate(far_ns)]
        home = peers.start([*carry_on(home_ns, tmp_path / "home", "--address",
                                      f"{host_ns.address}:{listening['port']}"), "--seat", "3",
                            *world.args()], ns=home_ns, name="home")
        guests = [*far, home]
        for g in guests:
            g.wait_event("connection", timeout=60, where=lambda e: e.get("state") == "connected")
        for g in guests:  # the roster reaches everyone with the first deal at the latest
            g.wait_event("state", timeout=60, where=mid_hand)
        host.kill()  # SIGKILL, never restarted
        killed_at = time.monotonic()
        heir = far[0]
        blocking_until(lambda: any(e["stage"] == "hosting" for e in heir.events("takeover")), 60,
                       lambda: "the player across houses hosting the table; what they saw:\n"
                       + "\n".join(what_was_seen(g, killed_at) for g in guests))
        took = time.monotonic() - killed_at
        codes_out = {g.name: g.wait(180) for g in guests}
        assert set(codes_out.values()) == {0}, (codes_out, [''.join(g.stderr)[-1500:] for g in guests])
        result = heir.wait_event("result", timeout=1)
        summaries = {g.name: g.summary() for g in guests}
    print(f"\nhost killed -> the player across houses hosts: {took * 1000:.0f} ms")
    assert result["hands"] == HANDS
    for name, s in summaries.items():
        assert s["alerts"] == [], (name, s["alerts"])
        if name != heir.name:  # they followed the successor across houses to its last entry
            assert s["head"] == result["head"], (name, s)
    for g in (far[1], home):  # they followed: not one of them hosted
        assert [e["stage"] for e in g.events("takeover") if e["stage"] == "hosting"] == []
    carried = LogStore(tmp_path / "far0" / "carried-on" / "table.db").load()
    kinds = [signed.kind for signed, _ in carried.records]
    assert carried.dropped == 0 and kinds.count("takeover") == 1
    # nobody read out a second code: the host made the two it was asked for
    assert [e["state"] for e in host.events("invite")].count("waiting") == 2
