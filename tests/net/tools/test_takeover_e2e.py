"""The table outlives its host, across four network namespaces: the host process is
SIGKILLed mid-hand ("killed"), or its namespace's link is cut with the process alive
("silent"), and it never comes back as the host; soon after (short timings here; how
soon with the protocol's own is net.tools.bench_takeover's figure) the lowest remaining
seat hosts the table from its copy of the log, the others follow it,
the game is played to its end, every peer's copy of the log verifies from the table
entry on, the takeover entry and the redeal are in it, and the old host, started again
later, rejoins as a guest."""

import subprocess
import time

import pytest

from net.sessions.guest_log import GuestLog, log_path
from net.trust.deals.mental import log as ml
from net.trust.peer.replica import PeerReplica
from net.trust.store import LogStore
from net.wire.identity import load_identity
from tests.waits import blocking_until
from tests.net.proc_kit import PATIENT, Peers

pytestmark = pytest.mark.netns

HANDS = 2


def mid_hand(event) -> bool:
    view = event.get("view") or {}
    return view.get("phase") == "play" and bool(view.get("trick"))


# Every process ``PATIENT`` beside ``--quick``: a link counts as dropped after 5 s of
# silence, not 1 s. The host's going is seen by its link's reset ("killed") or by that
# silence ("silent"), so the takeover is tested all the same; but a healthy link starved
# for a second under load no longer drops. What that did (ci25, two busy loops beside the
# suite): the old host, back as the heir's guest, was still running at the 120 s ceiling,
# reconnecting (attempt 237) and saying "you reach none of the others" — the others and
# the heir had finished the game and exited. Read, not reproduced (0 of 5 on main beside
# the loops): its link dropped just as the heir's table ended, and a headless host waits
# at its end only for the players connected then (``HostCore.finish``): nobody was left to
# tell it the table had ended.
def carry_on_args(ns, state_dir, *extra):
    return ["--interface", ns.address, "--bot", "easy", "--state-dir", state_dir, "--quick",
            *PATIENT, "--delay", "0.02", "--carry-on", "--standby-bind", ns.address,
            "--hands", HANDS, "--stand-in", "0.3", *extra]


def verified_copy(state_dir, table: str, identity) -> PeerReplica:
    """A guest's copy of the log on disk, checked again from the table entry on."""
    disk = GuestLog(log_path(state_dir, table))
    try:
        messages = disk.messages()
    finally:
        disk.close()
    origin = messages[0].entry.body["host_key"]
    replica = PeerReplica.restore(identity, origin, table, messages)  # reads either deal
    assert replica.halted is None, replica.halted
    return replica


# Each way the host goes once, each deal once: the processes add real SIGKILLs, a real
# link taken down, mDNS and the logs on disk to what the in-process tests assert for
# every pair of deal and way (tests/net/sessions/test_outlives.py: the host app killed,
# the host gone silent, under both deals; test_succession.py and test_both_deals.py: the
# old host back as a guest, under both deals).
@pytest.mark.parametrize("private, how", [(False, "killed"), (True, "silent")],
                         ids=["seeded-killed", "private-deal-silent"])
def test_the_host_gone_for_good_mid_hand_a_guest_carries_the_table_on(four_ns, tmp_path, private, how):
    host_ns, *guest_ns = four_ns
    with Peers() as peers:
        host = peers.start(["host", "--game", "rook", "--table", "Outlives", "--interface",
                            host_ns.address, "--state-dir", tmp_path / "host", "--quick", *PATIENT,
                            "--bot-level", "easy", "--delay", "0.02", "--hands", HANDS,
                            "--private-deal" if private else "--no-private-deal"],
                           ns=host_ns, name="host")
        listening = host.wait_event("listening")
        guests = [peers.start(["join", "--table", "Outlives", "--verbose",
                               *carry_on_args(ns, tmp_path / f"guest{i}")], ns=ns, name=f"join{i}")
                  for i, ns in enumerate(guest_ns)]
        for g in guests:  # every guest knows where the others listen
            g.wait_event("connection", where=lambda e: e.get("state") == "connected")
        for g in guests:  # the roster reaches everyone with the first deal at the latest
            g.wait_event("state", timeout=60, where=mid_hand)
        killed_at = time.monotonic()
        if how == "killed":
            host.kill()  # SIGKILL, never restarted
        else:  # its network gone, the process alive
            subprocess.run(["ip", "-n", host_ns.name, "link", "set", "eth0", "down"], check=True)
        hosting = {}

        def someone_hosts():
            for g in guests:
                if g.events("takeover") and any(e["stage"] == "hosting" for e in g.events("takeover")):
                    hosting.setdefault("at", time.monotonic())
                    hosting["peer"] = g
                    return True
            return False
        blocking_until(someone_hosts, 60, "a guest hosting the table")
        took = hosting["at"] - killed_at
        heir = hosting["peer"]
        new_host = heir.wait_event("listening", timeout=5)
        assert new_host["table"] == listening["table"]
        # The old host comes back later, as a guest of the player who carries the table on.
        if how == "silent":
            host.kill()
            subprocess.run(["ip", "-n", host_ns.name, "link", "set", "eth0", "up"], check=True)
        heir_address = guest_ns[guests.index(heir)].address
        back = peers.start(["join", "--address", f"{heir_address}:{new_host['port']}",
                            "--bot", "easy", "--state-dir", tmp_path / "host", "--quick", *PATIENT,
                            "--delay", "0.02"], ns=host_ns, name="old host")
        back_joined = back.wait_event("connection", timeout=20,
                                      where=lambda e: e.get("state") == "connected")
        codes = {g.name: g.wait(120) for g in guests + [back]}
        assert set(codes.values()) == {0}, (codes, back.lines[-4:],
                                            [''.join(p.stderr)[-1500:] for p in guests + [back]])
        result = heir.wait_event("result", timeout=1)
        summaries = {g.name: g.summary() for g in guests + [back]}
    # How soon is the bench's figure (python -m net.tools.bench_takeover, the protocol's
    # timings): a ceiling here would fail on a loaded machine, not on a slow takeover.
    print(f"\nhost {how} -> the new host's takeover event: {took * 1000:.0f} ms")
    assert result["hands"] == HANDS and back_joined["seat"] == 0
    for name, s in summaries.items():
        assert s["alerts"] == [], (name, s["alerts"])
        if name != heir.name:  # the others followed the new host to its last entry
            assert s["head"] == result["head"], (name, s)
    # every peer's copy on disk verifies end to end, and holds the takeover and the redeal
    table = listening["table"]
    carried = LogStore(tmp_path / f"guest{guests.index(heir)}" / "carried-on" / "table.db").load()
    kinds = [signed.kind for signed, _ in carried.records]
    assert carried.dropped == 0 and kinds.count("takeover") == 1
    [takeover_entry] = [signed for signed, _ in carried.records if signed.kind == "takeover"]
    assert takeover_entry.body["abandoned"] == 0 and "dealt again" in takeover_entry.body["reason"]
    deals = [signed for signed, _ in carried.records if signed.kind in ("commit", ml.DEAL)]
    assert {d.kind for d in deals} == {ml.DEAL if private else "commit"}  # as the old host dealt
    assert [d.body["hand"] for d in deals][:2] == [0, 0]
    for i, g in enumerate(guests + [back]):
        if g is heir:
            continue
        state_dir = tmp_path / ("host" if g is back else f"guest{i}")
        replica = verified_copy(state_dir, table, load_identity(state_dir))
        assert replica.seq == carried.records[-1][0].seq
        assert replica.chain.head == carried.records[-1][0].hash

