"""A log written before protocol 4 still reads: a whole Rook hand under the mental-poker
deal as protocol 3 logged it — each played card's proof a ``mental`` entry of its own
(an envelope signed with its party's key) just before the move, and its shuffles with no
proof (before protocol 14) — restored by today's host and checked by today's replicas,
which publish no decryption share of a deal whose shuffles are not proven.

``data/protocol3-mental-rook-hand.msgpack`` is the host's persisted records
``[[signed entry, private], …]`` of ``MentalTrustTable()`` after ``start()`` and
``play_hand()``, written at commit 580ff88 with the host's key ``fixed_identity(0)`` and
seat s's ``fixed_identity(s)``."""

from pathlib import Path

import msgpack

from net.trust.deals.mental import log as ml
from net.trust.deals.mental import messages as mm
from net.trust.host.authority import HostAuthority
from net.trust.peer.replica import PeerReplica
from net.trust.values import SignedEntry
from net.wire import messages as m
from tests.net.trust.mental_table import fixed_identity
from tests.net.trust_table import TABLE

OLD_LOG = Path(__file__).parent / "data" / "protocol3-mental-rook-hand.msgpack"


def old_records():
    raw = msgpack.unpackb(OLD_LOG.read_bytes(), raw=False, strict_map_key=False)
    return [(SignedEntry.from_wire(wire), private) for wire, private in raw]


def test_the_old_log_is_the_old_format():
    records = old_records()
    plays = [s for s, _ in records if s.kind == ml.MESSAGE
             and s.body["signed"]["body"]["type"] == mm.PLAY]
    assert len(plays) == 52
    assert not any("mental" in s.body["signed"]["body"] for s, _ in records if s.kind == "action")


def test_a_host_restores_a_protocol_3_log_to_its_last_card():
    """(Restoring past the hand's end under the mental deal fails the same way at 580ff88:
    a host restarted then is not built yet, docs/protocol.md.)"""
    records = old_records()
    last = max(i for i, (s, _) in enumerate(records) if s.kind == "action")
    host = HostAuthority.restore(fixed_identity(0), records[:last + 1], rng=lambda n: bytes(n))
    assert host.state.is_over and host.chain.seq == records[last][0].seq
    assert sum(len(cards) for cards in host.deal.party.played.values()) == 52


def test_replicas_check_a_protocol_3_log_to_the_end():
    """Each guest's replica reads the whole hand as the host logged it (its entries alone,
    no public state sent with them) and verifies it, every play's proof checked; its deal
    client sends no decryption share of that deal (its shuffles are not proven: the shares
    in the log are the old client's)."""
    for seat in (1, 2, 3):
        replica = PeerReplica(fixed_identity(seat), fixed_identity(0).public_key, TABLE,
                                lambda n: bytes(n))
        verified, sent = [], []
        for signed, _ in old_records():
            out = replica.receive(m.entry_message(signed.wire))
            assert not out.alerts and not out.errors, (out.alerts, out.errors)
            verified += out.verified
            sent += [s["signed"]["body"]["type"] for s in out.sends if s.get("type") == m.MENTAL]
        assert replica.halted is None and len(verified) == 1
        assert not replica.deal.setup.proven and mm.SHARES not in sent
