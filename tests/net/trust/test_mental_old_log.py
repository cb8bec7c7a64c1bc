"""A log an older Parlour wrote under the private deal is refused with a clear reason.

Before protocol 16 the private deal's group was edwards25519 (libsodium); it is secp256k1
now, and this Parlour has no code left to check a deal in the old group. A host asked to
restore such a log stops at its first private deal with ``OlderDealError`` (a
``RestoreError``: the host's table files keep the log aside and open a new table,
tests/net/sessions/test_older_deal_log.py), and a replica told of such a deal names the
host rather than misreading it.

* ``data/protocol3-mental-rook-hand.msgpack``: the host's persisted records
  ``[[signed entry, private], …]`` of ``MentalTrustTable()`` after ``start()`` and
  ``play_hand()``, written at commit 580ff88 (protocol 3) with the host's key
  ``fixed_identity(0)`` and seat s's ``fixed_identity(s)``;
* ``data/protocol15-mental-rook-midhand.msgpack``: the records of
  ``MentalTrustTable(seed=4)`` after ``start()`` and six cards played, written at commit
  e234c06 (protocol 15, every shuffle proven) with the host's key ``identity("host")``
  and seat s's ``identity(f"peer{s}")`` (tests/net/trust_table.py)."""

from pathlib import Path

import msgpack
import pytest

from net.trust.deals.mental import log as ml
from net.trust.entries import OLD_DEAL_GROUP, MentalDealBody, TableBody
from net.trust.host.authority import HostAuthority
from net.trust.peer.replica import PeerReplica
from net.trust.store import OlderDealError, RestoreError
from net.trust.values import SignedEntry
from net.wire import messages as m
from tests.net.trust.mental_table import fixed_identity
from tests.net.trust_table import TABLE, identity

DATA = Path(__file__).parent / "data"
OLD_LOGS = {3: DATA / "protocol3-mental-rook-hand.msgpack",
            15: DATA / "protocol15-mental-rook-midhand.msgpack"}
HOST_KEYS = {3: fixed_identity(0), 15: identity("host")}


def old_records(protocol: int):
    raw = msgpack.unpackb(OLD_LOGS[protocol].read_bytes(), raw=False, strict_map_key=False)
    return [(SignedEntry.from_wire(wire), private) for wire, private in raw]


@pytest.mark.parametrize("protocol", sorted(OLD_LOGS))
def test_the_old_logs_deal_over_the_old_group(protocol):
    records = old_records(protocol)
    table = records[0][0].entry.body_as(TableBody)
    assert table.version == (None if protocol == 3 else 15)
    deals = [s.entry.body_as(MentalDealBody) for s, _ in records if s.kind == ml.DEAL]
    assert deals and all(d.group == OLD_DEAL_GROUP for d in deals)
    assert "group" not in records[[s.kind for s, _ in records].index(ml.DEAL)][0].wire["entry"]["body"]


@pytest.mark.parametrize("protocol", sorted(OLD_LOGS))
def test_a_host_refuses_to_restore_an_old_groups_deal_and_says_why(protocol):
    records = old_records(protocol)
    with pytest.raises(OlderDealError, match="hand 1 was dealt privately by an older "
                                              "version of Parlour") as refused:
        HostAuthority.restore(HOST_KEYS[protocol], records, rng=lambda n: bytes(n))
    assert isinstance(refused.value, RestoreError)  # the table files' path for a log kept aside


def test_a_host_restores_an_old_log_up_to_its_first_private_deal():
    """Everything before the deal (the table, its seats, the game's start) still reads."""
    records = old_records(15)
    first_deal = [s.kind for s, _ in records].index(ml.DEAL)
    host = HostAuthority.restore(HOST_KEYS[15], records[:first_deal], rng=lambda n: bytes(n))
    assert host.match is not None and host.match.hand_number == 0


def test_a_replica_told_of_a_deal_in_the_old_group_names_the_host():
    replica = PeerReplica(identity("peer1"), HOST_KEYS[15].public_key, TABLE, lambda n: bytes(n))
    alerts = []
    for signed, _ in old_records(15):
        out = replica.receive(m.entry_message(signed.wire))
        alerts += out.alerts
        if signed.kind == ml.DEAL:
            break
    assert replica.halted is not None
    [alert] = alerts
    assert "over edwards25519, not secp256k1" in str(alert), alert
