"""Faults: a peer killed mid-trick, a link cut for long, the host killed and restarted,
and thousands of malformed frames thrown at a host and at a peer. In every case the
game ends normally, every hand is verified by every peer, and no action is lost or
applied twice (the host's durable log has each signed action once, and every peer's
replay of every hand matches it)."""

import asyncio
import os
import random
import struct

import msgpack
import pytest

from net.tools import netns
from net.wire.heartbeat import WIRE
from net.wire.identity import Identity
from net.trust.store import LogStore
from net.wire.transport import open_connection
from tests.net.proc_kit import PATIENT, Peers, check_summaries
from tests.net.session_kit import Table, assert_all_verified
from tests.waits import CEILING, until


def host_args(tmp_path, *extra, hands=2):
    return ["host", "--game", "rook", "--hands", hands, "--state-dir", tmp_path / "host",
            "--quick", "--delay", "0.01", "--no-advertise", *extra]


def join_args(tmp_path, i, address, *extra):
    return ["join", "--address", address, "--bot", "random", "--state-dir",
            tmp_path / f"guest{i}", "--quick", "--delay", "0.01", *extra]


def mid_trick(event) -> bool:
    view = event.get("view") or {}
    return view.get("phase") == "play" and bool(view.get("trick"))


def assert_log_clean(state_dir, private: bool | None = None) -> None:
    """Every signed action appears once in the host's durable log, in a gapless chain
    (and, with ``private`` given, its hands were dealt by that deal)."""
    store = LogStore(state_dir / "table.db")
    try:
        loaded = store.load()
    finally:
        store.close()
    assert loaded.dropped == 0
    sigs = [signed.body["signed"]["sig"] for signed, _ in loaded.records
            if signed.kind == "action"]
    assert sigs and len(sigs) == len(set(sigs))
    assert [s.seq for s, _ in loaded.records] == list(range(len(loaded.records)))
    if private is not None:
        kinds = {signed.kind for signed, _ in loaded.records}
        assert ("mental-deal" in kinds, "deal" in kinds) == (private, not private), kinds


# -- a peer killed mid-trick -------------------------------------------------------------

@pytest.mark.parametrize("private", [False, True], ids=["seeded", "private-deal"])
def test_a_peer_killed_mid_trick_rejoins_and_finishes(tmp_path, private):
    """The killed peer comes back at once, and the hand waits for it: no deadline is part
    of this test (``PATIENT``: on a loaded machine a guest here verified 1 hand of 2 — under
    the private deal the quick 2 s deadline or 1 s of silence can cut a healthy guest out
    of the next deal). One hand: the peer back finishes the hand it was killed in (under
    the private deal, from its own keys again); a restarted client in the next hand's
    deal is test_both_deals' "end" and "between" cases'."""
    deal = "--private-deal" if private else "--no-private-deal"  # (the private one is the default)
    with Peers() as peers:
        host = peers.start(host_args(tmp_path, deal, *PATIENT, hands=1), name="host")
        address = f"127.0.0.1:{host.wait_event('listening')['port']}"
        victim = peers.start(join_args(tmp_path, 0, address, "--verbose", *PATIENT), name="victim")
        others = [peers.start(join_args(tmp_path, i, address, *PATIENT), name=f"join{i}")
                  for i in (1, 2)]
        seat = victim.wait_event("connection", where=lambda e: e["state"] == "connected")["seat"]
        victim.wait_event("state", where=mid_trick)
        victim.kill()
        host.wait_event("connection", where=lambda e: e["state"] == "dropped")
        back = peers.start(join_args(tmp_path, 0, address, *PATIENT), name="back")
        assert host.wait(90) == 0
        result = host.wait_event("result", timeout=1)
        summaries = check_summaries([back, *others], hands=1, head=result["head"])
    assert summaries[0]["seat"] == seat  # the same seat, by the same key
    assert_log_clean(tmp_path / "host", private)


# -- a link cut for long -------------------------------------------------------------------

#: The cut lasts until the cut-off guest has failed this many reconnection attempts: its
#: backoff at its cap (``Timings.quick()``: 0.05 s doubling to 0.5 s) — what a 20 s cut
#: is to the production timings (4 s to notice the drop, attempts 2 s apart) — whatever
#: the machine's load makes of the seconds.
FAILED_ATTEMPTS = 8


@pytest.mark.netns
def test_a_link_cut_for_long_then_restored(tmp_path):
    """A guest's network is cut mid-trick and stays cut while the host notices the drop
    (its heartbeats stop: no socket is closed) and the guest tries again and again; then
    it is restored, the guest is back at its seat and the game ends normally."""
    reason = netns.unavailable_reason()
    if reason:
        pytest.skip(f"network namespaces unavailable: {reason}")
    with netns.bridged_namespaces(4) as nss, Peers() as peers:
        host_ns, *guest_ns = nss
        host = peers.start(host_args(tmp_path, "--bind", host_ns.address, "--no-private-deal", hands=1),  # seeded: under the private deal the player cut off at the deal is no party of it, and follows that hand unverified (tests/net/sessions/test_mental_drops.py)
                           ns=host_ns, name="host")
        address = f"{host_ns.address}:{host.wait_event('listening')['port']}"
        joiners = [peers.start(join_args(tmp_path, i, address, *(["--verbose"] if i == 0 else [])),
                               ns=ns, name=f"join{i}") for i, ns in enumerate(guest_ns)]
        cut, victim = guest_ns[0], joiners[0]
        seat = victim.wait_event("connection", where=lambda e: e["state"] == "connected")["seat"]
        victim.wait_event("state", where=mid_trick)
        cut.run("ip", "link", "set", "eth0", "down")
        try:
            host.wait_event("connection", timeout=60,
                            where=lambda e: e["state"] == "dropped" and e["seat"] == seat)
            victim.wait_event("connection", timeout=120, where=lambda e: e["state"] ==
                              "reconnecting" and e.get("attempt", 0) >= FAILED_ATTEMPTS)
            assert host.proc.poll() is None, "the host stopped while the guest was cut off"
        finally:
            cut.run("ip", "link", "set", "eth0", "up")
        assert host.wait(120) == 0
        result = host.wait_event("result", timeout=1)
        summaries = check_summaries(joiners, hands=1, head=result["head"])
    assert summaries[0]["reconnects"] >= 1
    assert_log_clean(tmp_path / "host")


# -- the host killed and restarted ---------------------------------------------------------

@pytest.mark.parametrize("private, hand", [(False, 1), (True, 2)],
                         ids=["seeded", "private-deal-second-hand"])
def test_the_host_killed_and_restarted_resumes_the_table(tmp_path, private, hand):
    """Killed mid-trick (in the second hand under the private deal: its log holds a hand's
    end and reveal, scored on the verified deal, which the restore replays before the
    current hand's deal; restored in the first hand, the seeded case here and, for the
    private deal, tests/net/trust/test_mental_restore.py's mid-hand and mid-deal cases)."""
    with Peers() as peers:
        deal = "--private-deal" if private else "--no-private-deal"  # (the private one is the default)
        args = host_args(tmp_path, "--restart-grace", "20", deal)
        host = peers.start(args, name="host")
        listening = host.wait_event("listening")
        address = f"127.0.0.1:{listening['port']}"
        joiners = [peers.start(join_args(tmp_path, i, address, *(["--verbose"] if i == 0 else [])),
                               name=f"join{i}") for i in range(3)]
        # (counted from 1) a generous ceiling: the second hand under the private deal is two
        # deals of four processes away, over 30 s on a loaded machine (seen at load 15)
        joiners[0].wait_event("state", timeout=CEILING,
                              where=lambda e: mid_trick(e) and e["hand_number"] == hand)
        host.kill()
        again = peers.start(args, name="host again")
        resumed = again.wait_event("listening")
        assert resumed["restored"] and resumed["port"] == listening["port"]
        assert resumed["table"] == listening["table"] and resumed["head"] > listening["head"]
        assert again.wait(90) == 0
        result = again.wait_event("result", timeout=1)
        summaries = check_summaries(joiners, hands=2, head=result["head"])
    assert all(s["reconnects"] >= 1 for s in summaries)
    assert_log_clean(tmp_path / "host", private)


# -- malformed frames ------------------------------------------------------------------------

def garbage_frames(rng: random.Random, count: int) -> bytes:
    """A mix of broken frames: random bodies, non-map msgpack, unknown types, trust
    messages with junk fields, and finally an oversized length prefix."""
    junk = []
    for i in range(count):
        kind = i % 5
        if kind == 0:
            body = rng.randbytes(rng.randint(0, 64))
        elif kind == 1:
            body = msgpack.packb([1, 2, rng.random()])
        elif kind == 2:
            body = msgpack.packb({"type": "x" * rng.randint(1, 20), "n": i})
        elif kind == 3:
            body = msgpack.packb({"type": "action", "signed": {"body": {}, "sig": b"x"},
                                  "private": None})
        else:
            body = msgpack.packb({"type": "contribution", "signed": {"junk": i}})
        junk.append(struct.pack(">I", len(body)) + body)
    junk.append(struct.pack(">I", 2 ** 31))
    return b"".join(junk)


def test_thousands_of_malformed_frames_at_the_host(arun, tmp_path):
    rng = random.Random(7)
    attackers = [Identity.generate(f"Mallory{i}") for i in range(6)]

    async def attack(port, fp, identity, first_join):
        conn = await open_connection("127.0.0.1", port, identity, fp, schemas=WIRE)
        if first_join:
            await conn.send({"type": "join", "name": identity.name, "last_seq": -1})
        conn._writer.write(garbage_frames(rng, 20))
        answers = []
        try:
            while True:
                answers.append(await asyncio.wait_for(conn.recv(), 5))
        except Exception:  # noqa: BLE001 - the host hung up, as it should
            pass
        await conn.close()
        return answers

    async def raw_attack(port):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(os.urandom(2000))
        try:
            await asyncio.wait_for(reader.read(), 5)
        except Exception:  # noqa: BLE001
            pass
        writer.close()

    async def main():
        table = Table(tmp_path, game="rook", hands=2, host_kw={"bot_delay": 0.01})
        await table.start()
        try:
            await until(table.hand_started)
            port, fp = table.host.port, table.host.identity.fingerprint
            sent = 0
            replies = []
            for round_ in range(25):
                batch = [attack(port, fp, attackers[i], first_join=(round_ + i) % 2 == 0)
                         for i in range(len(attackers))]
                replies += await asyncio.gather(*batch)
                await raw_attack(port)
                sent += 21 * len(attackers)
            summaries = await table.finish()
            return sent, replies, summaries, table
        finally:
            await table.close()

    sent, replies, summaries, table = arun(main(), timeout=120)
    assert sent >= 3000
    # each bad sender got a reason and was dropped; nobody was seated or logged
    assert all(r and r[-1]["type"] == "error" for r in replies)
    assert not table.host.links.keys() & {a.fingerprint for a in attackers}
    assert_all_verified(summaries[:3], hands=2)


def test_thousands_of_malformed_frames_at_a_peer(arun, tmp_path):
    rng = random.Random(11)

    async def main():
        table = Table(tmp_path, game="somerset", hands=2, host_kw={"bot_delay": 0.01})
        await table.start()
        try:
            await until(table.hand_started)
            victim = table.guests[0]
            fp = victim.identity.fingerprint
            thrown, link = 0, None
            for _ in range(20):
                await until(lambda: table.host.links.get(fp) not in (None, link)
                               and not table.host.links[fp].closed)
                link = table.host.links[fp]
                link.send_raw(garbage_frames(rng, 100))
                thrown += 101
                await until(lambda: link.closed)
            summaries = await table.finish()
            return thrown, summaries
        finally:
            await table.close()

    thrown, summaries = arun(main(), timeout=120)
    assert thrown >= 2000
    assert summaries[0]["reconnects"] >= 20  # dropped the bad link every time, came back
    assert_all_verified(summaries, hands=2)
